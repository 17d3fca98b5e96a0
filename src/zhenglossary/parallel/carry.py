"""Carrying a person's work from the last parallel file to the note as it is now.

:func:`carry_over` aligns the blocks of the last ``x.zh-en.md`` with the note's blocks
(:mod:`.align`), decides each block's status (:func:`.status.decide`), and says which
English a person owns (never sent to the engine), which blocks went stale (their person's
English kept beside the new machine English), and which edits lost their block (kept in
the file's orphans section and reported, never dropped).

:func:`english_edits` finds what a person changed in ``x.en.md`` since zhen wrote it, block
by block, so those changes become edits of their blocks; where they cannot be told apart
(blocks added or removed, a copied block changed) it says why, and ``zhen translate``
refuses to write over the file.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Callable

from ..document import Document, block_hash, parse_document
from ..glossary import Glossary
from .align import align_blocks
from .format import Orphan, ParallelBlock, ParallelFile, Was, block_text
from .outputs import GLOSS_BANNER, EnglishFile, body_hash, english_body, split_english
from .status import (Decision, Now, PairStatus, StaleCause, TermUse, block_now, decide,
                     persons_english, stale_cause)


@dataclass(slots=True)
class BlockState:
    """What the note's block ``leaf`` (0-based) carries from the last parallel file."""

    leaf: int
    status: PairStatus
    base: str                          # context_hash now
    english: str | None = None         # a person's English that stands (owned, or invalid)
    problems: tuple[str, ...] = ()     # an invalid edit's
    was: Was | None = None             # a stale block's person's English and source then
    old: ParallelBlock | None = None   # the block of the last parallel file it continues
    terms: tuple[TermUse, ...] = ()    # the glossary entries its prose uses now
    cause: StaleCause | None = None    # a stale block's: what changed since the person's
    current: bool = True               # its English is for the note and glossary as they are
    #                                    now (:attr:`.status.Decision.current`)


@dataclass
class Carry:
    states: dict[int, BlockState]      # leaf index → state (leaves with a source)
    orphans: list[Orphan] = field(default_factory=list)
    new_orphans: list[Orphan] = field(default_factory=list)   # orphaned by this change
    copy_edited: list[int] = field(default_factory=list)      # leaves whose Chinese a person
    #                                   changed in the parallel file (the note's is the source)
    orphaned: set[int] = field(default_factory=set)   # numbers of the last file's blocks whose
    #                                   person's English is one of ``new_orphans``

    def owned(self) -> set[int]:
        """Leaves whose English a person owns: kept as it is, never sent to the engine."""
        return {i for i, s in self.states.items() if s.status.owned}


def note_blocks(doc: Document, texts: bool = True) -> list[tuple[int, str, str | None]]:
    """(leaf index, source hash, source as the parallel file shows it) of each leaf with a
    source; without ``texts``, None for the source (asked again by index when needed:
    :class:`_Texts`)."""
    out = []
    for i, leaf in enumerate(doc.leaves):
        text = block_text(doc.leaf_text(leaf))
        if text.strip():
            out.append((i, doc.leaf_hash(leaf), text if texts else None))
    return out


class _Texts:
    """The sources of ``blocks`` (:func:`note_blocks`) as a sequence, each made when it is
    asked: aligning the blocks reads the sources of the few that changed, not the note's."""

    def __init__(self, doc: Document, blocks: list) -> None:
        self.doc, self.leaves = doc, [i for i, _, _ in blocks]

    def __len__(self) -> int:
        return len(self.leaves)

    def __getitem__(self, j: int) -> str:
        return block_text(self.doc.leaf_text(self.doc.leaves[self.leaves[j]]))


def carry_over(doc: Document, old: ParallelFile | None, glossary: Glossary,
               check: Callable[[int, str], list[str]] | None = None) -> Carry:
    """Each block's state after the note changed from what ``old`` was written for.
    ``check(leaf, english)`` is the output check of a person's English for that leaf."""
    from ..locking import leaf_translatable
    from ..prose import leaf_prose

    blocks = note_blocks(doc, texts=False)
    texts = _Texts(doc, blocks)
    old_blocks = list(old.blocks) if old is not None else []
    orphans = list(old.orphans) if old is not None else []
    wanted = {k for k, b in enumerate(old_blocks) if persons_english(b) is not None}
    # an orphan whose block came back (the deletion undone) is a candidate again
    n_old = len(old_blocks)
    for orphan in orphans:
        wanted.add(len(old_blocks))
        old_blocks.append(ParallelBlock(0, orphan.lines, orphan.source_sha, orphan.source,
                                        english=orphan.english, english_sha="",
                                        status="edited", base=orphan.base, terms=None))
    pairs = align_blocks([b.source_sha for b in old_blocks], [b.source for b in old_blocks],
                         [sha for _, sha, _ in blocks], texts, wanted)
    states: dict[int, BlockState] = {}
    taken: set[int] = set()
    copied: list[int] = []
    for j, (i, sha, _) in enumerate(blocks):
        leaf = doc.leaves[i]
        now = block_now(sha, doc.leaf_reading(leaf), leaf_prose(doc, leaf),
                        lambda j=j: texts[j], glossary)
        if not leaf_translatable(leaf):
            # nothing to translate (code, English): copied; an edit it had is kept as an orphan
            states[i] = BlockState(i, PairStatus.SAME, now.base)
            continue
        k = pairs.get(j)
        block = old_blocks[k] if k is not None else None
        if block is not None and k >= n_old and block.source_sha != sha:
            block, k = None, None            # an orphan comes back only when identical
        if k is not None:
            taken.add(k)
            if k < n_old and block.source_sha == sha and block.source != texts[j]:
                copied.append(i)          # the note's block as it was, its copy changed
        decision = decide(block, now, (lambda english, reviewed, leaf=i:
                                       check(leaf, english, reviewed))
                          if check is not None else None)
        states[i] = _state(i, decision, now, block, glossary)
    kept_orphans = [o for k, o in enumerate(orphans, start=n_old) if k not in taken]
    new_orphans, orphaned = [], set()
    for k, block in enumerate(old_blocks[:n_old]):
        had = persons_english(block)
        if k in taken or had is None or had[1] == "reviewed":
            continue                          # a review of a deleted block needs no keeping
        english, _ = had
        source, sha = (block.was.source, block.was.source_sha) if (
            block.status == "stale" and block.was is not None and not block.edited) else (
            block.source, block.source_sha)
        new_orphans.append(Orphan(block.lines, source, english, sha, block.base, "edited"))
        orphaned.add(block.index)
    return Carry(states, kept_orphans + new_orphans, new_orphans, copied, orphaned)


def _state(leaf: int, decision: Decision, now: Now, block: ParallelBlock | None,
           glossary: Glossary) -> BlockState:
    status = decision.status
    state = BlockState(leaf, status, now.base, decision.english, decision.problems, old=block,
                       terms=now.terms, current=decision.current)
    if status is PairStatus.STALE and block is not None:
        if block.status == "stale" and block.was is not None and not block.edited:
            state.was = block.was                     # still stale: what the person had then
        else:
            had = persons_english(block)
            if had is not None:
                state.was = Was(block.source, had[0], block.source_sha, block.base, had[1],
                                block.terms)
        if state.was is None:                         # nothing of a person's is left
            state.status = PairStatus.PENDING
        else:
            was = state.was
            state.cause = stale_cause(was.source, was.source_sha, was.terms, now, glossary)
            was.same_source = not state.cause.source
            was.glossary = state.cause.entry_words() if state.cause.glossary else ""
    return state


# --------------------------------------------------------------------------- x.en.md edits

@dataclass
class EnglishEdits:
    """What a person changed in ``x.en.md``: block index → their English; or, in
    ``problem``, why zhen cannot tell (and ``line``, where)."""

    edits: dict[int, str] = field(default_factory=dict)
    problem: str = ""
    line: int = 0
    outside: str = ""                   # what else changed, outside the blocks: "banner" (the
    #   gloss banner deleted, nothing else), "between" (blank lines, line endings, …), "" (nothing,
    #   or it cannot be told: an edited block whose English in x.en.md the parallel file lacks)
    lines: dict[int, int] = field(default_factory=dict)   # block index → its line in x.en.md
    foreign: bool = False               # not written by zhen (no header): ``problem`` says so
    replaced: list[int] = field(default_factory=list)   # blocks whose invalid edit in the
    #                                     parallel file a change here replaced (carry_english)


FOREIGN = "it was not written by zhen (no `<!-- zhen: English of … -->` header)"


def english_changes(text: str, old: ParallelFile | None) -> EnglishEdits:
    """What a person changed in ``x.en.md`` (its ``text``) since zhen wrote it, against the
    parallel file ``old``: the one reading of it that ``zhen translate`` (``prior.read_prior``),
    ``zhen status``, ``zhen mark``, the checks and the exports share. An empty file holds
    nothing; a file without zhen's header is ``foreign``."""
    if not text.strip():
        return EnglishEdits()
    english = split_english(text)
    if not english.zhens:
        return EnglishEdits(problem=FOREIGN, line=1, foreign=True)
    return english_edits(english, old)


def english_edits(english: EnglishFile, old: ParallelFile | None) -> EnglishEdits:
    if not english.changed:
        return EnglishEdits()
    if old is None:
        return EnglishEdits(problem="it was changed by hand and there is no parallel file to "
                                    "carry the changes into")
    full = english.text
    body = english_body(full, english.front)
    above = full.count("\n") - body.count("\n")          # header and banner lines
    front_lines = english.body[:english.front].count("\n")   # front matter: above the header
    doc = parse_document(body)
    leaves = [(block_text(doc.leaf_text(leaf)),
               leaf.start_line + (above if leaf.start_line >= front_lines else 0), leaf)
              for leaf in doc.leaves]
    leaves = [(text, line, leaf) for text, line, leaf in leaves if text.strip()]
    expected = [block_hash(b.source) if b.same else b.written for b in old.blocks]
    actual = [block_hash(text) for text, _, _ in leaves]
    out = EnglishEdits()
    written: dict[int, tuple[object, str | None]] = {}   # edited leaf → what zhen wrote there
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, expected, actual,
                                                       autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        line = (leaves[j1][1] if j1 < len(leaves) else (leaves[-1][1] if leaves else 0)) + 1
        if tag != "replace" or i2 - i1 != j2 - j1:
            return EnglishEdits(problem="blocks were added or removed by hand, so zhen cannot "
                                        "tell which English belongs to which block", line=line)
        for i, j in zip(range(i1, i2), range(j1, j2)):
            block = old.blocks[i]
            if block.same:
                what = ("the front matter, which zhen copies from the note as it is,"
                        if leaves[j][1] < front_lines else
                        "a block zhen copies from the note (code, HTML, English)")
                return EnglishEdits(problem=f"{what} was changed; make that change in the note",
                                    line=leaves[j][1] + 1)
            if block.edited and block_hash(block.english) != actual[j]:
                return EnglishEdits(problem=f"block {block.index} was changed both here and in "
                                            f"the parallel file (line {block.en_line}); keep one",
                                    line=leaves[j][1] + 1)
            out.edits[block.index] = leaves[j][0]
            out.lines[block.index] = leaves[j][1] + 1
            # what zhen wrote there: the English the parallel file shows, unless a person
            # changed it there too or x.en.md got other English (``out=``)
            written[j] = (leaves[j][2], None if block.edited or block.out_sha else block.english)
    out.outside = _outside(english, body, doc, written)
    return out


def _outside(english: EnglishFile, body: str, doc: Document, written: dict) -> str:
    """What a person changed in ``x.en.md`` besides the blocks ``written`` (edited leaf →
    the English zhen wrote there): the file zhen wrote is put back together — those blocks
    as zhen wrote them, with and without the gloss banner — and compared with the ``sha=``
    its header carries. "" when nothing else changed (or it cannot be told), "banner" when
    only the banner was deleted, "between" for anything else (blank lines, line endings)."""
    from ..render import apply, reindent

    if any(text is None for _, text in written.values()):
        return ""                               # what zhen wrote there is not known
    cut = english.front
    rest = body[cut:]
    shown = english.body[cut:]                  # the rest as the person left it, banner and all
    replacements = []
    for leaf, text in written.values():
        start, end = doc.span(leaf.start_line, leaf.end_line)
        replacements.append((start - cut, end - cut, reindent(text, doc.leaf_text(leaf))))
    rest = apply(rest, sorted(replacements, key=lambda r: r[0]))
    lead = shown[:len(shown) - len(body) + cut]     # the banner and its blank lines, if kept
    front = english.body[:cut]
    if body_hash(front + lead + rest) == english.sha:
        return ""
    if not lead:
        ending = re.search(r"\r\n|\n|\r", english.body)       # the note's line ending
        newline = ending.group(0) if ending else "\n"
        if body_hash(front + GLOSS_BANNER + newline * 2 + rest) == english.sha:
            return "banner"
    return "between"


def carry_english(old: ParallelFile | None, text: str) -> EnglishEdits:
    """``x.en.md``'s changes by hand (:func:`english_changes` of its ``text``), taken into
    ``old`` as edits of their blocks when they can be carried (no ``problem``), as
    ``zhen translate`` takes them in before it decides any block's status."""
    edits = english_changes(text, old)
    if edits.edits and not edits.problem and old is not None:
        edits.replaced = apply_english_edits(old, edits.edits)
    return edits


def apply_english_edits(old: ParallelFile, edits: dict[int, str]) -> list[int]:
    """Take ``x.en.md`` edits into ``old`` as if typed into its blocks' English; returns the
    blocks whose English there was a person's that failed the output check (``invalid``:
    x.en.md had machine English in its place), which the edit replaces."""
    replaced = []
    for block in old.blocks:
        if block.index in edits:
            if block.status == "invalid" and block.english != edits[block.index]:
                replaced.append(block.index)
            block.english = edits[block.index]
            if block.status == "stale":          # an edit of a stale block adopts it
                block.was = None
    return replaced


# --------------------------------------------------------------------------- the new file

def parallel_file(leaves, carry: Carry | None, source_name: str, engine: str) -> ParallelFile:
    """The parallel file to write: each leaf (a ``render.LeafText``, its ``english`` what
    ``x.en.md`` gets) with its state. A person's English shows in the block even where
    ``x.en.md`` has machine English (an edit failing the output check: ``out=`` says what
    ``x.en.md`` has); a stale block shows the new machine English and, quoted, what the
    person had."""
    blocks = []
    for i, leaf in enumerate(leaves):
        source = block_text(leaf.source)
        if not source.strip():
            continue
        lines = f"L{leaf.first_line}" + (f"-{leaf.last_line}" if leaf.last_line > leaf.first_line
                                          else "")
        sha = block_hash(leaf.source)
        if not leaf.translated:
            blocks.append(ParallelBlock(leaf.index, lines, sha, source, same=True))
            continue
        state = carry.states.get(i) if carry is not None else None
        status = state.status if state is not None else PairStatus.MACHINE
        english = block_text(leaf.english)
        block = ParallelBlock(leaf.index, lines, sha, source, english=english,
                              base=state.base if state is not None else "",
                              unrendered=list(leaf.unrendered),
                              terms=state.terms if state is not None else ())
        if status is PairStatus.INVALID and state.english is not None:
            block.english, block.out_sha, block.unrendered = state.english, block_hash(english), []
            block.status = "invalid"
        elif status.owned:
            block.status = str(status)
        elif status is PairStatus.STALE:
            block.status, block.was = "stale", state.was
        blocks.append(block)
    return ParallelFile(source_name, engine, blocks=blocks,
                        orphans=list(carry.orphans) if carry is not None else [])


def render_parallel(leaves, source_name: str, engine: str, carry: Carry | None = None,
                    unjoined: bool = False):
    """The parallel file's text for ``leaves`` (all machine English without ``carry``);
    ``unjoined``: its lines not joined (``format.render_parallel_file``)."""
    from .format import render_parallel_file

    return render_parallel_file(parallel_file(leaves, carry, source_name, engine), unjoined)
