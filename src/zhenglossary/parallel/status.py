"""A block's review status: one enum, decided in one place (:func:`decide`).

The parallel file is the truth: what a block's ``en`` marker says, whether its text still
matches the hash zhen wrote, and whether the source and glossary entries it was made for
(``base``, :func:`context_hash`) are still the note's. The translation memory is a cache of
machine output and never decides a status.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Callable

from ..glossary import Glossary
from .format import ParallelBlock


class PairStatus(StrEnum):
    MACHINE = "machine"      # English as the engine wrote it, not reviewed
    REVIEWED = "reviewed"    # a person read the English and marked it reviewed
    EDITED = "edited"        # English a person wrote
    STALE = "stale"          # a person's English (or review) for a source or glossary entry
                             # that has changed since; the machine English of the new source
                             # is shown, the person's beside it
    INVALID = "invalid"      # English a person wrote that fails the output check
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


def context_hash(source_sha: str, prose: str, glossary: Glossary) -> str:
    """What a block's English depends on: its source (by hash) and the glossary entries its
    prose (:func:`prose.leaf_prose`) uses (Chinese forms, English, plurals, forbidden
    renderings). A review or an edit lasts while this stays the same."""
    entries = sorted({m.term.rendering_key() for m in glossary.find_prose(prose)})
    banned = list(glossary.forbid)              # the corpus-wide forbid list, when there is one
    data = json.dumps([source_sha, entries] + ([banned] if banned else []), ensure_ascii=False,
                      separators=(",", ":"))
    return hashlib.sha256(data.encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class Now:
    """The note's block a parallel block is aligned with, as it is now."""

    source_sha: str
    base: str


@dataclass(frozen=True)
class Decision:
    status: PairStatus
    english: str | None = None       # the person's English that stands (owned or invalid)
    problems: tuple[str, ...] = ()   # why a person's English fails the output check
    current: bool = True             # the block's English (``english``, else the parallel
    #                                  file's) is for the source and glossary entries as they
    #                                  are now; not so, it is replaced (stale, pending) and
    #                                  only the block's status speaks for it


def _fits(block_base: str, block_sha: str, now: Now) -> bool:
    # a block written before `base` existed (parallel file v1) is judged by its source
    return block_base == now.base if block_base else block_sha == now.source_sha


def decide(block: ParallelBlock | None, now: Now | None,
           check: Callable[[str], list[str]] | None = None) -> Decision:
    """The status of ``block`` (read from the parallel file) for the note's block ``now``
    it is aligned with (None: it has no English yet). ``check`` runs the output check on a
    person's English (problems, or none)."""
    if block is None or now is None:
        return Decision(PairStatus.PENDING, current=False)
    if block.same:
        return Decision(PairStatus.SAME)

    def person(english: str, status: PairStatus) -> Decision:
        problems = tuple(check(english)) if check is not None and status is PairStatus.EDITED \
            else ()
        return Decision(PairStatus.INVALID if problems else status, english, problems)

    fits = _fits(block.base, block.source_sha, now)
    gone = Decision(PairStatus.STALE, current=False)     # a person's, for what was then
    if block.edited:                  # the text changed since zhen wrote it
        if not block.english.strip():
            return Decision(PairStatus.PENDING, current=False)   # emptied: machine English wanted
        return person(block.english, PairStatus.EDITED) if fits else gone
    mark = block.status
    if mark in ("edited", "invalid"):
        return person(block.english, PairStatus.EDITED) if fits else gone
    if mark == "reviewed":
        return Decision(PairStatus.REVIEWED, block.english) if fits else gone
    if mark == "stale" and block.was is not None:
        was = block.was
        if was.base and was.base == now.base:         # the source is back to what it was
            status = PairStatus.REVIEWED if was.status == "reviewed" else PairStatus.EDITED
            return person(was.english, status) if status is PairStatus.EDITED else \
                Decision(status, was.english)
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
