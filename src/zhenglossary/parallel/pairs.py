"""The pairs of a parallel file read back, with each one's status, for the checks, the
review page, the exchange formats and ``zhen status``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..document import Document, parse_document
from ..errors import NoteReadError
from ..glossary import Glossary, Match
from ..notes import collect_notes, read_note
from ..prose import prose_view
from .carry import Carry, carry_over
from .format import Orphan, ParallelFile, ParallelFileError, Was, read_parallel_file
from .outputs import Layout, is_zhens_parallel
from .status import COUNTED, PairStatus, StaleCause


@dataclass
class Pair:
    note: str                 # the source note (display path)
    parallel: str             # the parallel file (display path)
    index: int                # block number in the note
    lines: str                # "L45-46"
    source: str
    english: str
    status: str               # a PairStatus
    source_sha: str
    en_line: int = 0          # line of the English in the parallel file (1-based)
    current: bool = True      # the note still has this source block unchanged
    terms: list[Match] = field(default_factory=list)   # glossary terms in the source prose
    unrendered: list[str] = field(default_factory=list)  # what the engine could not render
    was: Was | None = None    # a stale block's person's English and its source then
    problems: tuple[str, ...] = ()   # an invalid edit's output-check problems
    cause: StaleCause | None = None  # a stale block's: its source or which glossary entry

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
    orphans: list[Orphan] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)   # the note's blocks by status
    file: ParallelFile | None = None                       # the parallel file as read


def load_parallel(path: Path) -> ParallelFile:
    """The parallel file at ``path``, read with care; :class:`ParallelFileError` (the file
    is left as it is) when it cannot be read without guessing."""
    try:
        text = read_note(path)
    except NoteReadError as exc:
        raise ParallelFileError(f"{exc.detail.split(';')[0]}; zhen keeps it untouched — save it "
                                "as UTF-8 (e.g. `iconv -f UTF-16 -t UTF-8`), then run again",
                                path=str(path)) from exc
    if text.strip() and not is_zhens_parallel(text):
        raise ParallelFileError("was not written by zhen (its first line is not zhen's "
                                "`<!-- zhen:parallel … -->` header); move it away, or pass "
                                "--force to replace it", path=str(path), line=1)
    return read_parallel_file(text, str(path))


def edit_check(doc: Document, glossary: Glossary):
    """The output check of a person's English, block by block (``carry_over``'s ``check``):
    structure, protected spans, terms and Chinese left, the block parsed on its own in the
    note's footnote context; of English a person reviewed (``reviewed``), the forbids only."""
    from ..validate import ALL, FORBIDS, check_block

    def check(leaf: int, english: str, reviewed: bool = False) -> list[str]:
        return check_block(doc.leaf_text(doc.leaves[leaf]), english, glossary, env=doc.env,
                           what=FORBIDS if reviewed else ALL)
    return check


def status_counts(carry: Carry) -> dict[str, int]:
    counts = {name: 0 for name in COUNTED}
    for state in carry.states.values():
        if state.status is not PairStatus.SAME:
            counts[str(state.status)] += 1
    counts["orphaned"] = len(carry.orphans)
    return counts


def pairs_for(note_path: Path, display: str, note_text: str, parallel: Path,
              parallel_text: str, glossary: Glossary, doc: Document | None = None) -> NotePairs:
    """The pairs of ``parallel_text`` (``x.zh-en.md`` of the note ``note_text``, parsed as
    ``doc`` when the caller has it), each with the status :func:`.status.decide` gives it
    against the note as it is now."""
    from ..prose import leaf_prose

    old = read_parallel_file(parallel_text, str(parallel))
    doc = doc if doc is not None else parse_document(note_text)
    carry = carry_over(doc, old, glossary, edit_check(doc, glossary))
    by_old = {id(s.old): s for s in carry.states.values() if s.old is not None}
    current = {doc.leaf_hash(leaf): leaf for leaf in doc.leaves}
    pairs = []
    for block in old.blocks:
        state = by_old.get(id(block))
        still = block.source_sha in current
        if block.same:
            status = PairStatus.SAME
        elif state is None:                   # its block changed past recognition, or went
            status = PairStatus.STALE if (block.edited and block.english.strip()) or \
                block.status in ("edited", "invalid", "stale") else PairStatus.PENDING
        else:
            status = state.status
        pairs.append(Pair(display, str(parallel), block.index, block.lines, block.source,
                          block.english, status, block.source_sha, block.en_line, still,
                          glossary.find_prose(leaf_prose(doc, current[block.source_sha])
                                              if still else prose_view(block.source)),
                          block.unrendered,
                          block.was if status is PairStatus.STALE else None,
                          state.problems if state is not None else (),
                          state.cause if state is not None else None))
    return NotePairs(display, str(parallel), pairs, old.engine, carry.orphans,
                     status_counts(carry), old)


def collect_pairs(paths: list[Path], glossary: Glossary, encoding: str | None = None,
                  layout: Layout | None = None) -> tuple[list[NotePairs], list[str]]:
    """Pairs of every note under ``paths`` that has ``x.zh-en.md`` beside it (or where
    ``layout`` says: under ``--out-dir``, where ``zhen translate --out-dir`` wrote it).

    Returns the pairs and warnings (one line each, for stderr): a note without a parallel
    file, or one that cannot be read, is skipped and named; a parallel file whose note is
    gone (``strays.find_strays``) is named.
    """
    from .strays import find_strays

    layout = layout or Layout()
    out: list[NotePairs] = []
    warnings: list[str] = []
    notes = collect_notes(paths)
    for stray in find_strays(layout, paths, [note.path for note in notes]):
        finding = stray.finding()
        warnings.append(f"{finding.file}: {finding.message}")
    for note in notes:
        _, parallel = layout.paths(note.path)
        if not parallel.is_file():
            warnings.append(f"{note.display}: skipped, no parallel file {parallel}; "
                            f"run `zhen translate {note.display}` first")
            continue
        try:
            note_text = read_note(note.path, encoding)
            parallel_text = read_note(parallel)
            out.append(pairs_for(note.path, note.display, note_text, parallel, parallel_text,
                                 glossary))
        except (NoteReadError, ParallelFileError) as exc:
            warnings.append(f"skipped: {exc}")
    return out, warnings
