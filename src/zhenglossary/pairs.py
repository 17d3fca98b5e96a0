"""Source / English pairs of every note, read back from the parallel files.

The checks, the review page and the exchange formats all start here: for each note
``x.md`` with a ``x.zh-en.md`` beside it (or under an output directory), every block
pair with its place, its status and the glossary terms of its source.

Status of a pair:

* ``machine`` — English as zhen wrote it;
* ``edited`` — a person changed the English since zhen wrote it (not yet seen by
  ``zhen translate``);
* ``approved`` — an edit ``zhen translate`` has taken in: kept, never overwritten by MT;
* ``stale`` — the source block changed after an approved edit was made (the English may no
  longer fit), or, for any pair, the note changed after the parallel file was written;
* ``same`` — nothing to translate (code, HTML, English paragraphs).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .document import parse_document
from .errors import NoteReadError
from .glossary import Glossary, Match
from .notes import collect_notes, read_note
from .prose import prose_view
from .render import ParallelBlock, read_parallel, short_hash


@dataclass
class Pair:
    note: str                 # the source note (display path)
    parallel: str             # the parallel file (display path)
    index: int                # block number in the note
    lines: str                # "L45-46"
    source: str
    english: str
    status: str               # machine | edited | approved | stale | same
    source_sha: str
    en_line: int = 0          # line of the English in the parallel file (1-based)
    current: bool = True      # the note still has this source block unchanged
    terms: list[Match] = field(default_factory=list)   # glossary terms in the source prose

    @property
    def line(self) -> int:
        try:
            return int(self.lines[1:].split("-")[0])
        except ValueError:
            return 0

    @property
    def id(self) -> str:
        return f"b{self.index}"


@dataclass
class NotePairs:
    note: str
    parallel: str | None
    pairs: list[Pair]
    engine: str = ""          # as named on the parallel file's first line


_ENGINE_RE = re.compile(r'^<!-- zhen:parallel v\d+ .*?engine="(?P<engine>[^"]*)"')


def parallel_path(note: Path, out_dir: Path | None = None, root: Path | None = None) -> Path:
    base = note.name[:-len(".md")]
    if out_dir is not None:
        relative = note.parent.relative_to(root) if root is not None else Path()
        return out_dir / relative / f"{base}.zh-en.md"
    return note.with_name(f"{base}.zh-en.md")


def _english_lines(text: str, blocks: list[ParallelBlock]) -> dict[int, int]:
    """Block index → line of its English in the parallel file."""
    out: dict[int, int] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        if line.startswith("<!-- zhen:en ") or line.startswith("<!-- zhen:same "):
            index = int(line.split()[2])
            out[index] = number + 1
    return out


def pairs_for(note_path: Path, display: str, note_text: str, parallel: Path,
              parallel_text: str, glossary: Glossary) -> NotePairs:
    blocks = read_parallel(parallel_text)
    doc = parse_document(note_text)
    current = set()
    for leaf in doc.leaves:
        start, end = doc.span(leaf.start_line, leaf.end_line)
        current.add(short_hash(note_text[start:end]))
    en_lines = _english_lines(parallel_text, blocks)
    pairs = []
    for block in blocks:
        if block.same:
            status = "same"
        elif block.edited:
            status = "edited"
        else:
            status = block.status or "machine"
        still = block.source_sha in current
        pairs.append(Pair(display, str(parallel), block.index, block.lines, block.source,
                          block.english, status, block.source_sha, en_lines.get(block.index, 0),
                          still, glossary.find(prose_view(block.source))))
    first = _ENGINE_RE.match(parallel_text.split("\n", 1)[0])
    return NotePairs(display, str(parallel), pairs, first.group("engine") if first else "")


def collect_pairs(paths: list[Path], glossary: Glossary,
                  encoding: str | None = None) -> tuple[list[NotePairs], list[str]]:
    """Pairs of every note under ``paths`` that has ``x.zh-en.md`` beside it.

    Returns the pairs and warnings (one line each, for stderr): a note without a parallel
    file, or one that cannot be read, is skipped and named.
    """
    out: list[NotePairs] = []
    warnings: list[str] = []
    for note in collect_notes(paths):
        parallel = parallel_path(note.path)
        if not parallel.is_file():
            warnings.append(f"{note.display}: skipped, no parallel file {parallel}; "
                            f"run `zhen translate {note.display}` first")
            continue
        try:
            note_text = read_note(note.path, encoding)
            parallel_text = read_note(parallel)
        except NoteReadError as exc:
            warnings.append(f"skipped: {exc}")
            continue
        out.append(pairs_for(note.path, note.display, note_text, parallel, parallel_text,
                             glossary))
    return out, warnings
