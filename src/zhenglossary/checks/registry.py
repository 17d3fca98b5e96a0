"""The check registry itself: ``Check``, ``REGISTRY``, ``declare`` and ``@check``, and the
context checks read (``CheckContext``, ``NoteText``). Check modules import this, never the
package (``checks/__init__.py`` imports them to register them)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from ..findings import Finding
from ..glossary import Glossary


@dataclass(frozen=True)
class Check:
    id: str
    severity: str
    title: str
    scope: str                       # glossary | notes | translations | translate
    fn: Callable[["CheckContext"], Iterable[Finding]] | None = None
    # what a note's findings depend on: that note alone (its text, translations and
    # parallel file, and the glossary), so the notes can be checked in shards
    # (``glossary check --jobs``); ``once``: the extra fields that make a finding reported
    # once per project, at its first note (in the notes' order)
    per_note: bool = False
    once: tuple[str, ...] = ()


REGISTRY: dict[str, Check] = {}


def declare(id: str, severity: str, scope: str, title: str) -> None:
    REGISTRY[id] = Check(id, severity, title, scope)


def check(id: str, severity: str, scope: str, *, per_note: bool = False,
          once: tuple[str, ...] = ()):
    def wrap(fn):
        title = (fn.__doc__ or id).strip().splitlines()[0].rstrip(".")
        REGISTRY[id] = Check(id, severity, title, scope, fn, per_note or bool(once), once)
        return fn
    return wrap


@dataclass
class NoteText:
    path: Path
    display: str
    text: str
    prose: str            # prose_view(text): code, URLs and HTML blanked out
    doc: object = None    # the note parsed once (document.Document), for every reader
    matched: tuple | None = None   # its prose's glossary matches as (start, end, form), when
    # they come from a shard (``glossary check --jobs``); CheckContext.matches reads them


@dataclass
class CheckContext:
    glossary: Glossary
    notes: list[NoteText]
    translations: dict[str, tuple[str, str]] = field(default_factory=dict)
    # note display → (x.en.md display path, its text), for notes without a parallel file
    usage: dict[str, dict[str, int]] = field(default_factory=dict)
    pairs: list = field(default_factory=list)          # pairs.NotePairs per translated note
    untranslated_blocks: dict[str, list[tuple[int, int]]] = field(default_factory=dict)
    # note display → (line, block number) of Chinese blocks the parallel file lacks
    parentheticals: list | None = None   # bilingual.note_sightings, computed once
    project_notes: list | None = None    # every note of the project (term-unused), when
    # only some were asked for; None: ``notes`` are the project
    facts: dict = field(default_factory=dict)   # what checks across notes read of each note
    # or pair, by name (``fact``): computed once, in the note's shard under --jobs
    _matches: dict = field(default_factory=dict, repr=False)

    def matches(self, note: NoteText) -> list:
        """The glossary terms of a note's prose (``Glossary.find_prose``), found once."""
        found = self._matches.get(note.display)
        if found is None:
            if note.matched is not None:
                from ..glossary import Match

                forms = self.glossary.form_map
                found = [Match(start, end, form, forms[form])
                         for start, end, form in note.matched]
            else:
                found = self.glossary.find_prose(note.prose)
            self._matches[note.display] = found
        return found

    def fact(self, name: str, key, compute: Callable[[], object]):
        """``facts[name][key]``, computed by ``compute`` the first time it is asked."""
        table = self.facts.setdefault(name, {})
        if key not in table:
            table[key] = compute()
        return table[key]


# What a shard computes ahead for the checks across notes (``glossary check --jobs``):
# functions that ask ``ctx.fact`` for each of the shard's notes or pairs, so the main
# process finds the answers made.
WARMERS: list[Callable[[CheckContext], None]] = []


def warms(fn: Callable[[CheckContext], None]):
    WARMERS.append(fn)
    return fn
