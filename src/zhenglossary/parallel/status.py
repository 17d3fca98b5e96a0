"""A block's review status: one enum, decided in one place (:func:`decide`).

The parallel file is the truth: what a block's ``en`` marker says, whether its text still
matches the hash zhen wrote, and whether the source and glossary entries it was made for
(``base``, :func:`context_hash`) are still the note's. ``base`` holds the source as
Markdown reads it and only the entries the block's prose uses, never a ``forbid``: a
forbid is checked against a person's English instead. Why a block went stale (its source,
or which entry: :func:`stale_cause`) is told from the entries its marker recorded
(``terms=``). The translation memory is a cache of machine output and never decides a
status.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Callable, Iterable

from ..document import block_hash, reading
from ..glossary import Glossary, Term
from .format import ParallelBlock, TermUse


class PairStatus(StrEnum):
    MACHINE = "machine"      # English as the engine wrote it, not reviewed
    REVIEWED = "reviewed"    # a person read the English and marked it reviewed
    EDITED = "edited"        # English a person wrote
    STALE = "stale"          # a person's English (or review) for a source or glossary entry
                             # that has changed since; the machine English of the block as it
                             # is now is shown, the person's beside it
    INVALID = "invalid"      # English a person wrote that fails the output check (or
                             # reviewed that holds a forbid added since)
    PENDING = "pending"      # no English for this source yet (a new or changed block, or
                             # English a person emptied): `zhen translate` writes it
    SAME = "same"            # nothing to translate (code, HTML, English)

    @property
    def owned(self) -> bool:
        """A person's English, which `zhen translate` keeps and never sends to the engine."""
        return self in (PairStatus.REVIEWED, PairStatus.EDITED)


ORDER = (PairStatus.MACHINE, PairStatus.REVIEWED, PairStatus.EDITED, PairStatus.STALE,
         PairStatus.INVALID, PairStatus.PENDING)
# what `zhen status` counts per note: the blocks by status, and the edits orphaned
COUNTED = tuple(str(s) for s in ORDER) + ("orphaned",)


def _entry(term: Term) -> tuple[str, str]:
    """``term``'s ``english_key`` as JSON, and :func:`entry_key`."""
    return _keyed(term.english_key())


@lru_cache(maxsize=1 << 16)
def _keyed(key: tuple) -> tuple[str, str]:
    # by the key itself (a Term's hash leaves its plurals out): once per entry, not once
    # per block that holds it
    data = json.dumps(key, ensure_ascii=False, separators=(",", ":"))
    return data, hashlib.sha256(data.encode("utf-8")).hexdigest()[:4]


def entry_key(term: Term) -> str:
    """A short hash of what of ``term`` a person's English is written against
    (``Term.english_key``), as the parallel file records it (``terms=``): it names the entry
    that changed, it decides nothing (``base`` does)."""
    return _entry(term)[1]


def context_hash(reading_sha: str, terms: Iterable[Term]) -> str:
    """What a block's English depends on: its source as Markdown reads it (the hash of
    ``Document.leaf_reading``: a re-wrap is no change) and the glossary entries its prose
    uses (``Term.english_key``: Chinese forms, English, plurals). No ``forbid``, the
    entries' or the glossary's: a person's English is checked against those (:func:`decide`),
    so a new forbid finds the English that breaks it and leaves every other review alone.
    A review or an edit lasts while this stays the same."""
    entries = sorted(_entry(t)[0] for t in set(terms))
    data = json.dumps(["v3", reading_sha, entries], ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(data.encode("utf-8")).hexdigest()[:12]


def _earlier_hash(source_sha: str, terms: Iterable[Term], banned: tuple[str, ...],
                  forbids: bool = True) -> str:
    """``base`` as zhen wrote it before :func:`context_hash` (parallel files v2): the raw
    source's hash, every entry's forbid and the glossary's (``banned``) hashed in.
    ``forbids=False``: as it was when none of the entries had a forbid."""
    entries = sorted({t.rendering_key() if forbids else (t.zh, t.en, t.variants, (), t.plurals)
                      for t in terms})
    data = json.dumps([source_sha, entries] + ([list(banned)] if banned else []),
                      ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(data.encode("utf-8")).hexdigest()[:12]


def term_uses(terms: Iterable[Term]) -> tuple[TermUse, ...]:
    """The entries ``terms`` as a block's marker records them (``terms=``), in zh order."""
    return tuple(sorted({TermUse(t.zh, t.en, entry_key(t)) for t in terms}))


@dataclass(slots=True)
class Now:
    """The note's block a parallel block is aligned with, as it is now (:func:`block_now`)."""

    source_sha: str                        # the hash of its source lines
    base: str                              # context_hash now
    terms: tuple[TermUse, ...] = ()        # the glossary entries its prose uses
    entries: tuple[Term, ...] = ()         # those entries themselves
    banned: tuple[str, ...] = ()           # the glossary's top-level forbid
    source: Callable[[], str] | None = None    # its text as the parallel file shows it
    _reading: str | None = None

    def fits(self, base: str, source_sha: str, source: str) -> bool:
        """English made for ``base`` (and the source ``source``, hash ``source_sha``) is
        still this block's."""
        if not base:          # a block written before `base` existed (parallel file v1)
            return source_sha == self.source_sha
        if base == self.base:
            return True
        if base not in self.earlier(source_sha):
            return False
        return source_sha == self.source_sha or self.read_as(source)

    def earlier(self, source_sha: str) -> frozenset[str]:
        """The bases a v2 parallel file had for this block, made for the source
        ``source_sha`` and the entries as they are now: their forbids and the glossary's
        each as they are or as none (an upgrade keeps what the old rule kept, and what it
        staled only because a first forbid was added to the entries or to the list)."""
        return frozenset(_earlier_hash(source_sha, self.entries, banned, forbids)
                         for banned in {self.banned, ()} for forbids in (True, False))

    def read_as(self, source: str) -> bool:
        """``source`` (as the parallel file shows a block) reads as this block now."""
        if self.source is None:
            return False
        mine = self.source()
        if source == mine:
            return True
        if self._reading is None:
            self._reading = reading(mine)
        return reading(source) == self._reading


def block_now(source_sha: str, reading: str, prose: str, source: Callable[[], str],
              glossary: Glossary) -> Now:
    """:class:`Now` for a block of the note: ``source_sha`` its hash, ``reading`` its
    ``Document.leaf_reading``, ``prose`` its prose (``prose.leaf_prose``), ``source()`` its
    text as the parallel file shows it (asked only when an earlier source is compared)."""
    entries = tuple({m.term: None for m in glossary.find_prose(prose)})
    return Now(source_sha, context_hash(block_hash(reading), entries), term_uses(entries),
               entries, glossary.forbid, source)


@dataclass(frozen=True)
class StaleCause:
    """Why a person's English no longer fits its block: its source changed (as Markdown
    reads it), glossary entries it uses changed, or both."""

    source: bool
    entries: tuple[tuple[str, str | None, str | None], ...] = ()
    # (zh, en then, en now): then None = an entry it did not use (new, or a new form);
    # now None = no longer in the glossary; then == now: its Chinese forms or plural changed
    unknown: tuple[TermUse, ...] | None = None
    # the glossary changed, but which entry the parallel file does not say (written before
    # zhen recorded the entries): the entries the block uses now

    @property
    def glossary(self) -> bool:
        return bool(self.entries) or self.unknown is not None

    def entry_words(self) -> str:
        """The glossary's change, each entry named: ``节点 ("node" → "knot"); …``."""
        if self.unknown is not None:
            held = ", ".join(f'{u.zh} "{_one_line(u.en)}"' for u in self.unknown)
            return f"an entry it uses (it uses {held} now)" if held else "an entry it used"
        return "; ".join(f"{zh} ({self._detail(then, now)})" for zh, then, now in self.entries)

    @staticmethod
    def _detail(then: str | None, now: str | None) -> str:
        then, now = _one_line(then), _one_line(now)
        if then is None:
            return f'"{now}", not used by this block before'
        if now is None:
            return f'"{then}" → no longer in the glossary'
        if then == now:
            return f'"{now}": its Chinese forms or plural'
        return f'"{then}" → "{now}"'

    def changed(self) -> str:
        """What changed, as a finding says it: "its source changed", "the glossary entry
        节点 changed ("node" → "knot")", "its source and the glossary entry … changed"."""
        if not self.glossary:
            return "its source changed"
        if self.unknown is not None:             # which entry, the file does not say
            words = "a glossary entry it uses" if self.unknown else "a glossary entry it used"
            held = ", ".join(f'{u.zh} "{_one_line(u.en)}"' for u in self.unknown)
            return f"{words} changed" + (f" (it uses {held} now)" if held else "")
        if len(self.entries) == 1 and not self.source:
            zh, then, now = self.entries[0]
            return f"the glossary entry {zh} changed ({self._detail(then, now)})"
        words = ("the glossary entry " if len(self.entries) == 1 else "the glossary entries ") \
            + self.entry_words()
        return f"its source and {words} changed" if self.source else f"{words} changed"


def _one_line(text: str | None) -> str | None:
    return " ".join(text.split()) if text is not None else None


def stale_cause(source: str, source_sha: str, terms: tuple[TermUse, ...] | None, now: Now,
                glossary: Glossary) -> StaleCause:
    """Why English made for ``source`` (hash ``source_sha``) and the entries ``terms`` (None:
    not recorded) does not fit the block ``now`` any more."""
    changed = source_sha != now.source_sha and not now.read_as(source)
    if terms is None:
        return StaleCause(True) if changed else StaleCause(False, unknown=now.terms)
    entries = []
    for use in terms:
        term = glossary.by_zh(use.zh)
        if term is None:
            entries.append((use.zh, use.en, None))
        elif term.zh != use.zh or entry_key(term) != use.key:
            entries.append((use.zh, use.en, term.en))
    if not changed:                          # the same source: a term it now holds is new
        held = {use.zh for use in terms}
        entries += [(use.zh, None, use.en) for use in now.terms if use.zh not in held]
    if not entries:
        return StaleCause(True)   # nothing of the glossary to name: the source, as it reads here
    return StaleCause(changed, tuple(entries))


@dataclass(frozen=True)
class Decision:
    status: PairStatus
    english: str | None = None       # the person's English that stands (owned or invalid)
    problems: tuple[str, ...] = ()   # why a person's English fails the output check
    current: bool = True             # the block's English (``english``, else the parallel
    #                                  file's) is for the source and glossary entries as they
    #                                  are now; not so, it is replaced (stale, pending) and
    #                                  only the block's status speaks for it


def decide(block: ParallelBlock | None, now: Now | None,
           check: Callable[[str, bool], list[str]] | None = None) -> Decision:
    """The status of ``block`` (read from the parallel file) for the note's block ``now``
    it is aligned with (None: it has no English yet). ``check(english, reviewed)`` runs the
    output check on a person's English (problems, or none): all of it on English a person
    wrote; on English a person reviewed (the machine's, checked when it was written) the
    ``forbid`` lists only, which no ``base`` holds — a forbid added since finds it."""
    if block is None or now is None:
        return Decision(PairStatus.PENDING, current=False)
    if block.same:
        return Decision(PairStatus.SAME)

    def person(english: str, status: PairStatus) -> Decision:
        problems = tuple(check(english, status is PairStatus.REVIEWED)) if check is not None \
            else ()
        return Decision(PairStatus.INVALID if problems else status, english, problems)

    fits = now.fits(block.base, block.source_sha, block.source)
    gone = Decision(PairStatus.STALE, current=False)     # a person's, for what was then
    if block.edited:                  # the text changed since zhen wrote it
        if not block.english.strip():
            return Decision(PairStatus.PENDING, current=False)   # emptied: machine English wanted
        return person(block.english, PairStatus.EDITED) if fits else gone
    mark = block.status
    if mark in ("edited", "invalid"):
        return person(block.english, PairStatus.EDITED) if fits else gone
    if mark == "reviewed":
        return person(block.english, PairStatus.REVIEWED) if fits else gone
    if mark == "stale" and block.was is not None:
        was = block.was
        if was.base and now.fits(was.base, was.source_sha, was.source):
            # the source (and the entries) are back to what the English was made for
            status = PairStatus.REVIEWED if was.status == "reviewed" else PairStatus.EDITED
            return person(was.english, status)
        # the machine English shown is for the source it was made for (``base``)
        return Decision(PairStatus.STALE, current=fits)
    return Decision(PairStatus.MACHINE) if fits else Decision(PairStatus.PENDING, current=False)


def persons_english(block: ParallelBlock) -> tuple[str, str] | None:
    """(English, status then) a person had for ``block`` — what is kept when its source
    changes or it is deleted — or None."""
    if block.same:
        return None
    if block.edited:
        return (block.english, "edited") if block.english.strip() else None
    if block.status in ("edited", "invalid"):
        return block.english, "edited"
    if block.status == "reviewed":
        return block.english, "reviewed"
    if block.status == "stale" and block.was is not None:
        return block.was.english, block.was.status
    return None
