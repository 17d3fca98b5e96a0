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
from .carry import Carry, EnglishEdits, carry_over
from .format import Orphan, ParallelFile, ParallelFileError, Was
from .outputs import Layout
from .prior import read_prior
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
    fits: bool = True         # the English is for the source and glossary entries as they
    #                           are now (a stale or pending block's is not: it is replaced)
    orphaned: bool = False    # its block left the note: its person's English is an orphan
    en_file: str = ""         # x.en.md, when this English was changed there by hand (not
    en_file_line: int = 0     # yet taken into the parallel file), and its line there

    @property
    def line(self) -> int:
        try:
            return int(self.lines[1:].split("-")[0])
        except ValueError:
            return 0

    @property
    def id(self) -> str:
        return f"b{self.index}"

    @property
    def where(self) -> tuple[str, int]:
        """(file, line) of this English, where a finding about it is fixed: x.en.md for a
        change made there, else the parallel file."""
        if self.en_file:
            return self.en_file, self.en_file_line
        return self.parallel, self.en_line


@dataclass
class NotePairs:
    note: str
    parallel: str | None
    pairs: list[Pair]
    engine: str = ""          # as named on the parallel file's first line
    orphans: list[Orphan] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)   # the note's blocks by status
    file: ParallelFile | None = None                       # the parallel file as read
    english: EnglishEdits | None = None    # x.en.md's changes by hand (taken into the pairs
    #                                        unless ``problem``), None: no x.en.md


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


def pairs_for(display: str, note_text: str, parallel: Path, old: ParallelFile,
              glossary: Glossary, doc: Document | None = None,
              english: EnglishEdits | None = None, en_display: str = "") -> NotePairs:
    """The pairs of the parallel file ``old`` (``x.zh-en.md`` of the note ``note_text``,
    parsed as ``doc`` when the caller has it), with ``english`` — what a person changed in
    ``x.en.md`` (``en_display``), already taken into ``old`` (:func:`.carry.carry_english`,
    as ``zhen translate`` takes it in) — each with the status :func:`.status.decide` gives it
    against the note as it is now. A block whose English was changed in ``x.en.md`` is placed
    there (``Pair.where``): that is where it is fixed."""
    from ..prose import leaf_prose

    doc = doc if doc is not None else parse_document(note_text)
    carry = carry_over(doc, old, glossary, edit_check(doc, glossary))
    by_old = {id(s.old): s for s in carry.states.values() if s.old is not None}
    current = {doc.leaf_hash(leaf): leaf for leaf in doc.leaves}
    moved = english.lines if english is not None and not english.problem else {}
    pairs = []
    for block in old.blocks:
        state = by_old.get(id(block))
        still = block.source_sha in current
        if block.same:
            status = PairStatus.SAME
        elif state is None:                   # its block changed past recognition, or went:
            # a person's English of it is kept as an orphan (stale), anything else goes
            status = PairStatus.STALE if block.index in carry.orphaned else PairStatus.PENDING
        else:
            status = state.status
        english_now = state.english if state is not None and state.english is not None \
            else block.english            # a person's English that stands (a stale block's
        #                                   own, when its source came back)
        pair = Pair(display, str(parallel), block.index, block.lines, block.source,
                    english_now, status, block.source_sha, block.en_line, still,
                    glossary.find_prose(leaf_prose(doc, current[block.source_sha])
                                        if still else prose_view(block.source)),
                    block.unrendered,
                    block.was if status is PairStatus.STALE else None,
                    state.problems if state is not None else (),
                    state.cause if state is not None else None,
                    state is not None and state.current)
        pair.orphaned = block.index in carry.orphaned
        if block.index in moved:
            pair.en_file, pair.en_file_line = en_display, moved[block.index]
        pairs.append(pair)
    return NotePairs(display, str(parallel), pairs, old.engine, carry.orphans,
                     status_counts(carry), old, english)


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
        en, parallel = layout.paths(note.path)
        if not parallel.is_file():
            warnings.append(f"{note.display}: skipped, no parallel file {parallel}; "
                            f"run `zhen translate {note.display}` first")
            continue
        try:
            note_text = read_note(note.path, encoding)
            prior = read_prior(en, parallel)       # x.en.md's edits taken in, as translate does
            out.append(pairs_for(note.display, note_text, parallel, prior.parallel, glossary,
                                 english=prior.english, en_display=str(en)))
        except (NoteReadError, ParallelFileError) as exc:
            warnings.append(f"skipped: {exc}")
    return out, warnings
