"""Rendering ``x.en.md``: the source with each leaf block's inline text replaced by its
English, every other byte copied. The parallel file ``x.zh-en.md`` is the ``parallel`` package's."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .document import Document, dedent_block
from .markdown import KEEP_CHARS
from .locking import RegionPlan, assemble
from .textutil import Pieces
from .parallel.outputs import (ENGLISH_HEADER_START, GLOSS_BANNER, english_body,  # noqa: F401
                               seal_english, sealed_header)    # (x.en.md's header is theirs)

def region_replacements(plans: list[RegionPlan], skip: set[int] | None = None
                        ) -> list[tuple[int, int, str]]:
    """(start, end, English) of each translated region, in order; regions of the leaves in
    ``skip`` (a person's English stands there, so they were not translated) are left out."""
    out = []
    for plan in plans:
        if not translated(plan) or (skip and plan.leaf in skip):
            continue
        region = plan.region
        english = plan.english if plan.english is not None else \
            assemble(plan.segments, plan.separators)
        out.append((region.starts[0], region.ends[-1], english))
    out.sort()
    return out


def translated(plan: RegionPlan) -> bool:
    """Does the region have English of its own (else it is copied as it is)?"""
    return plan.translatable and (bool(plan.segments) or plan.english is not None)


def settle(plans: list[RegionPlan], skip: set[int]) -> None:
    """Keep of each translated region what rendering needs — its English and the pieces the
    engine could not render — and let its segments go; the regions of the leaves in
    ``skip`` (a person's English stands there: they may still need machine English) keep
    theirs. Rendering gives the same text before and after."""
    for plan in plans:
        if plan.leaf in skip or plan.english is not None or not translated(plan):
            continue
        plan.unrendered = [u for top in plan.segments for seg in top.walk()
                           for u in seg.unrendered]
        plan.english = assemble(plan.segments, plan.separators)
        plan.segments = []


def apply(text: str, replacements: list[tuple[int, int, str]], offset: int = 0) -> str:
    parts, pos = [], 0
    for start, end, new in replacements:
        start -= offset
        end -= offset
        parts.append(text[pos:start])
        parts.append(new)
        pos = end
    parts.append(text[pos:])
    return "".join(parts)


@dataclass(slots=True)
class LeafText:
    index: int               # 1-based block number
    kind: str
    first_line: int          # 1-based
    last_line: int           # 1-based, inclusive
    held: "str | NoteSpan"   # the leaf's source lines (``source``), or where they lie
    english: str             # the same lines in English, as x.en.md gets them
    translated: bool         # False: nothing to translate, english == source
    human: bool = False      # ``english`` is a person's (kept, never machine-translated)
    unrendered: list[str] = field(default_factory=list)   # source pieces the engine left out

    @property
    def source(self) -> str:
        """The leaf's source lines (a big note's are sliced from the note when asked: not
        held twice)."""
        held = self.held
        return held if isinstance(held, str) else held.text[held.start:held.end]

    @source.setter
    def source(self, value: str) -> None:
        self.held = value


@dataclass(slots=True)
class NoteSpan:
    """Where a leaf's source lies in the note's text (``LeafText.source`` of a big note)."""

    text: str
    start: int
    end: int


def unrendered_pieces(plans: list[RegionPlan]) -> dict[int, list[str]]:
    """Leaf index (0-based) → the pieces of its source the engine could not render."""
    out: dict[int, list[str]] = {}
    for plan in plans:
        pieces = plan.unrendered + [u for top in plan.segments for seg in top.walk()
                                    for u in seg.unrendered]
        if pieces:
            out.setdefault(plan.leaf, []).extend(pieces)
    return out


def leaf_texts(doc: Document, plans: list[RegionPlan],
               persons: dict[int, str] | None = None) -> list[LeafText]:
    """Source and English of each leaf. ``persons`` maps a leaf index to a person's English
    (a block of the parallel file), kept instead of machine English: its regions were not
    translated."""
    persons = persons or {}
    big = len(doc.text) > KEEP_CHARS          # a big note's leaves do not copy its source
    replacements = region_replacements(plans, set(persons))
    translated_leaves = {p.leaf for p in plans if translated(p)}
    unrendered = unrendered_pieces(plans)
    out = []
    r = 0
    for i, leaf in enumerate(doc.leaves):
        start, end = doc.span(leaf.start_line, leaf.end_line)
        source = doc.leaf_text(leaf)
        mine = []
        while r < len(replacements) and replacements[r][0] < end:
            if replacements[r][0] >= start:
                mine.append(replacements[r])
            r += 1
        human = i in persons
        english = reindent(persons[i], source) if human else apply(source, mine, start)
        out.append(LeafText(i + 1, leaf.kind, leaf.start_line + 1, leaf.end_line,
                            NoteSpan(doc.text, start, end) if big else source, english,
                            i in translated_leaves or human, human,
                            [] if human else unrendered.get(i, [])))
    return out


def front_matter_end(doc: Document) -> int:
    """Offset just after a leading YAML front matter block (0 when the note has none): zhen's
    header and banner go after it, since front matter must be the note's first lines."""
    if doc.leaves and doc.leaves[0].kind == "front_matter" and doc.leaves[0].start_line == 0:
        return doc.span(0, doc.leaves[0].end_line)[1]
    return 0


def render_english(doc: Document, leaves: list[LeafText], header: str, banner: str = "",
                   seal: bool = False, unjoined: bool = False) -> "str | Pieces":
    """The English note: ``header`` (an HTML comment) on the first line, then ``banner``
    (a visible Markdown paragraph, e.g. :data:`GLOSS_BANNER`) and a blank line, if given.
    A note that opens with front matter keeps it first; header and banner follow it.
    ``seal``: the header with the ``sha=`` of the rest, as ``seal_english`` gives it.
    Joined once from its parts (a long note's English is not copied on the way);
    ``unjoined``: not joined (a :class:`textutil.Pieces` of them, written a piece at a time)."""
    join = Pieces if unjoined else "".join
    front, rest, newline, last, cut = _english_parts(doc, leaves)
    if last and not last.endswith(("\n", "\r")):
        front.append(newline)
    lead = [banner, newline, newline] if banner else []
    if not header:
        return join(front + lead + rest)
    if seal:
        after = next((p for p in lead + rest if p), "")
        if (last.endswith(("\n", "\r")) or not last) and header.startswith(ENGLISH_HEADER_START) \
                and not any(c in header for c in "\r\n") \
                and not (newline == "\r" and after.startswith("\n")):
            # where seal_english would find the header and its line end: sealed in place
            header = sealed_header(header, front + lead + rest)
        else:
            return seal_english("".join(front + [header, newline] + lead + rest), cut)
    return join(front + [header, newline] + lead + rest)


def _english_parts(doc: Document, leaves: list[LeafText]):
    """The English note's parts before and after where zhen's header goes (the note's
    front matter, the rest), the note's line ending, the last non-empty front part, and
    where the front matter ends."""
    parts, pos = [], 0
    for leaf, block in zip(doc.leaves, leaves):
        start, end = doc.span(leaf.start_line, leaf.end_line)
        parts.append(doc.text[pos:start])
        parts.append(block.english)
        pos = end
    parts.append(doc.text[pos:])
    first = re.search(r"\r\n|\n|\r", doc.text)
    newline = first.group(0) if first else "\n"
    cut = front_matter_end(doc)           # front matter is copied verbatim: same offset
    front, rest = _cut_parts(parts, cut)
    last = next((p for p in reversed(front) if p), "")
    return front, rest, newline, last, cut


def render_body(doc: Document, leaves: list[LeafText], header: str, banner: str = "") -> str:
    """``english_body`` of :func:`render_english` (what the output check reads: the
    English without zhen's header and banner), joined once from its parts where that is
    what ``english_body`` would find — else rendered whole and cut."""
    front, rest, newline, last, cut = _english_parts(doc, leaves)
    head = _head(rest, len(GLOSS_BANNER))             # what follows the header and banner
    if header.startswith("<!-- zhen:") and not any(c in header for c in "\r\n") \
            and not (last and not last.endswith(("\n", "\r"))) \
            and banner in ("", GLOSS_BANNER) \
            and not (newline == "\r" and head.startswith("\n")) \
            and not (not banner and head.startswith(GLOSS_BANNER)):
        return "".join(front + rest)
    del front, rest
    return english_body(render_english(doc, leaves, header, banner), cut)


def _head(parts: list[str], n: int) -> str:
    """The first ``n`` characters of ``"".join(parts)``."""
    out, size = [], 0
    for part in parts:
        if size >= n:
            break
        out.append(part[:n - size])
        size += len(out[-1])
    return "".join(out)


def _cut_parts(parts: list[str], cut: int) -> tuple[list[str], list[str]]:
    """``parts`` as two lists whose joins are ``"".join(parts)[:cut]`` and ``[cut:]``."""
    front, size = [], 0
    for k, part in enumerate(parts):
        if size + len(part) >= cut:
            head, tail = part[:cut - size], part[cut - size:]
            return front + [head], [tail] + parts[k + 1:]
        front.append(part)
        size += len(part)
    return front, []


def reindent(block: str, like: str) -> str:
    """Put a block of the parallel file (dedented, no trailing newline) back in place of
    ``like`` (the leaf's source lines): same indentation, line endings and trailing
    newlines."""
    _, n = dedent_block(like)
    newline = "\r\n" if "\r\n" in like else "\n"
    body = like.rstrip("\r\n")
    trailing = like[len(body):]
    lines = [(" " * n + line) if line.strip() else line for line in block.split("\n")]
    return newline.join(lines) + trailing
