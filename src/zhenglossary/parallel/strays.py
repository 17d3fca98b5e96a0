"""Outputs whose note is gone: a note renamed or deleted leaves its ``x.zh-en.md`` (and
``x.en.md``) behind, and with them the review state — edits, reviews — no note reads.

A parallel file is a **stray** when zhen wrote it (its first line is zhen's header), no
note is at the place its name and folder stand for (``Layout.note_of``: ``x.md`` beside
``x.zh-en.md``, or the note whose outputs ``--out-dir`` mirrors there), and the note its
header names (``source=``, a path from the file's folder) is not there either.
:func:`find_strays` finds them where the notes' outputs are — the folders of the notes a
command was given (a directory: walked as notes are), or the whole ``--out-dir`` — and
every command that reads a project says each one (:meth:`Stray.finding`: ``output-stray``,
naming the file and what to do).

``zhen translate`` lets a new note take a stray's state (:func:`adoptions`): a note that
has no parallel file yet takes it from the stray most of whose translated blocks it holds,
by their source hash (more than half), when each is the other's only best match. What is
carried is what the review loop carries across any change of a note (``carry.carry_over``):
identical blocks keep their edits and reviews, a changed one goes stale with the person's
English quoted beside it, an edit whose block is not in the new note is kept as an orphan.
The stray's files are left for the person to delete: zhen never deletes what a person may
still want.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Hashable

from ..findings import Finding
from ..notes import ENGLISH_SUFFIX, PARALLEL_SUFFIX, walk_folders
from .format import parallel_header
from .outputs import Layout, english_source


@dataclass(frozen=True)
class Stray:
    """A parallel file whose note is gone, its ``x.en.md`` (when zhen wrote one beside it)
    and the note it was written for (as its header names it)."""

    parallel: Path
    english: Path | None
    source: Path | None
    moved: bool = False       # written under --out-dir by an older zhen, at another place

    @property
    def origin(self) -> str:
        """What the file was written for, as the messages say it."""
        if self.moved:
            return (f"written for {self.source} by an older zhen, whose --out-dir put a "
                    "note's outputs at its path from the folder named on the command line "
                    "(now: from the project root)")
        return (f"written for {self.source}" if self.source else "written for a note") + \
            ", which is not there any more"

    def finding(self, taken_by: str = "") -> Finding:
        """``output-stray``: the file, the note it was for, what to do. ``taken_by``: the
        note that took its state in this run."""
        also = f" (and {self.english})" if self.english else ""
        if taken_by:
            advice = (f"{taken_by} took its review state in this run; delete it{also} when you "
                      "no longer need it")
        elif self.moved:
            advice = ("`zhen translate` its note with --out-dir (it takes this state when it "
                      "has no parallel file at its new place yet and most of its blocks are "
                      "this file's), or move this file to that place — the note's path from "
                      f"the project root, under --out-dir; else delete it{also}")
        else:
            advice = ("if that note was renamed, rename this file along to the new name — or, "
                      "while the new note has no parallel file yet, just `zhen translate` it: it "
                      "takes this state when most of its blocks are this file's; if the new "
                      "note's own parallel file holds what you want, or the note was deleted, "
                      f"delete this file{also}")
        return Finding("output-stray", "warning",
                       f"{self.origin}, so no note reads the review state it holds: {advice}",
                       str(self.parallel), 1)


@dataclass(frozen=True)
class Adoption:
    """A stray whose state a new note takes in this run (``zhen translate``): its files, the
    note it was written for, and how many of its translated blocks the new note holds.
    Plain strings, so ``--jobs`` workers get it with the run's options."""

    parallel: str
    english: str                 # "" when it has no x.en.md zhen wrote
    origin: str                  # ``Stray.origin``
    shared: int
    total: int
    held: bool = False           # its x.en.md has changes zhen cannot carry: the note that
    #                              continues it stops on them (nothing taken, nothing written)

    def finding(self, parallel: Path, counts: dict[str, int]) -> Finding:
        """``state-adopted``, at the new note's parallel file: from where, what, and that
        the old files are left for the person."""
        what = ", ".join(f"{counts[s]} {s}" for s in ("reviewed", "edited", "stale", "invalid")
                         if counts.get(s)) or "no reviewed or edited block"
        if counts.get("orphaned"):
            what += f", {counts['orphaned']} edit(s) kept as orphans"
        files = self.parallel + (f" and {self.english}" if self.english else "")
        return Finding("state-adopted", "info",
                       f"no parallel file yet: took the review state of {self.parallel} "
                       f"({self.origin}; {self.shared} of its {self.total} translated blocks "
                       f"are in this note): {what}; {files} "
                       "are left as they are — delete them when you no longer need them",
                       str(parallel))


def _first_line(path: Path) -> str:
    try:
        with open(path, "rb") as handle:
            head = handle.readline(65536)
    except OSError:
        return ""
    return head.decode("utf-8", "replace").lstrip("\ufeff")


def find_strays(layout: Layout, paths: list[Path], notes: list[Path]) -> list[Stray]:
    """The strays where the outputs of the notes under ``paths`` are: each directory given
    (walked as notes are) or a given note's folder, or with ``--out-dir`` that whole folder.
    ``notes``: the notes the command reads (their outputs are never strays)."""
    outputs = {os.path.abspath(p) for note in notes for p in layout.paths(note)}
    places: list[tuple[Path, bool]] = []
    if layout.out_dir is not None:
        places.append((layout.out_dir, True))
    else:
        for given in paths:
            places.append((given, True) if given.is_dir() else (given.parent, False))
    seen: set[str] = set()
    found: list[Stray] = []
    for top, deep in places:
        if not top.is_dir():
            continue
        folders = walk_folders(top) if deep else [(top, sorted(os.listdir(top)))]
        for folder, files in folders:
            key = os.path.abspath(folder)
            if key in seen:
                continue
            seen.add(key)
            for name in files:
                if name.endswith(PARALLEL_SUFFIX) and name != PARALLEL_SUFFIX:
                    stray = _stray(layout, folder / name, outputs)
                    if stray is not None:
                        found.append(stray)
    return found


def _stray(layout: Layout, path: Path, outputs: set[str]) -> Stray | None:
    if os.path.abspath(path) in outputs or not path.is_file():
        return None
    placed = layout.note_of(path)
    if placed is not None and placed.is_file():
        return None                        # a note's own, not read by this command
    header = parallel_header(_first_line(path))
    if header is None:
        return None                        # not zhen's: not zhen's to talk about
    ref = header.get("source", "")
    named = Layout.source_named(path, ref) or placed
    if named is not None and named.is_file():
        return None                        # that note's (an --out-dir of a note elsewhere)
    moved = layout.out_dir is not None and bool(ref) and "/" not in ref
    if moved:
        named = Path(ref)                  # an older zhen's --out-dir header: the name alone
    english = path.with_name(path.name[:-len(PARALLEL_SUFFIX)] + ENGLISH_SUFFIX)
    if not english.is_file() or english_source(_first_line(english)) is None:
        english = None
    return Stray(path, english, named, moved)


def shared_blocks(stray: list[str], note: list[str]) -> int:
    """How many of a stray's translated blocks (their source hashes) a note holds."""
    return sum((Counter(stray) & Counter(note)).values())


def adoptions(strays: dict[Hashable, list[str]], notes: dict[Hashable, list[str]]
              ) -> dict[Hashable, Hashable]:
    """new note → the stray whose state it takes. ``strays``: each stray's translated
    blocks (source hashes); ``notes``: the blocks of each note with no parallel file yet.
    A note takes a stray when it holds more than half of the stray's blocks, the stray is
    the one it holds most of, it is the note holding most of the stray, and neither best
    is shared (a tie takes nothing: the person decides, by renaming the file along)."""
    scores: dict[tuple, int] = {}
    for k, blocks in strays.items():
        if not blocks:
            continue
        for n, held in notes.items():
            shared = shared_blocks(blocks, held)
            if 2 * shared > len(blocks):
                scores[(k, n)] = shared

    def only_best(pairs: list[tuple[Hashable, int]]) -> Hashable | None:
        best = max(score for _, score in pairs)
        tops = [x for x, score in pairs if score == best]
        return tops[0] if len(tops) == 1 else None

    by_stray: dict[Hashable, list] = {}
    by_note: dict[Hashable, list] = {}
    for (k, n), score in scores.items():
        by_stray.setdefault(k, []).append((n, score))
        by_note.setdefault(n, []).append((k, score))
    best_note = {k: only_best(v) for k, v in by_stray.items()}
    best_stray = {n: only_best(v) for n, v in by_note.items()}
    return {n: k for (k, n) in scores if best_note[k] == n and best_stray[n] == k}
