"""Where a sentence stands in its note: the context an engine may read but not translate.

For each block of prose (paragraph, heading, table) of a note: the path of headings above
it, the block before it (unless that is the heading just above, which the path holds), and
the block itself, as the note writes them (Markdown, container markers and all). Each is cut to a bound (``LIMITS``), so one huge block cannot fill a
model's context: the block before keeps its end (nearest to the sentence), the others their
start.

An engine with ``uses_context`` (engines/base.py) gets one per text; :meth:`key` is what of
it goes into the memory key, so a sentence is asked again when its heading, the block
before it or its own block changes — and only then.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass

from .document import Document

LIMITS = {"heading": 200, "previous": 1200, "block": 2000}        # characters
_ATX = re.compile(r"(#{1,6})[ \t]*$")


@dataclass(frozen=True)
class BlockContext:
    block_id: str                    # file and block number: a request never splits a block
    headings: tuple[str, ...]        # outermost first
    previous: str                    # the prose block before it ("" for the first)
    block: str                       # the block itself

    def key(self) -> str:
        """What the model reads (not where the block is): a hash for the memory key."""
        data = json.dumps([self.headings, self.previous, self.block], ensure_ascii=False)
        return hashlib.sha256(data.encode()).hexdigest()[:24]


def _cut_end(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def _cut_start(text: str, limit: int) -> str:
    return text if len(text) <= limit else "…" + text[len(text) - limit + 1:].lstrip()


def _heading_level(doc: Document, leaf) -> int:
    region = leaf.regions[0] if leaf.regions else None
    if region is not None and region.prefixes:
        atx = _ATX.search(region.prefixes[0])
        if atx:
            return len(atx.group(1))
    last = doc.line_text(leaf.end_line - 1).strip().lstrip(">").strip()
    return 1 if last.startswith("=") else 2                        # setext


def block_contexts(doc: Document, file: str) -> dict[int, BlockContext]:
    """Leaf index → its context, for every leaf with inline content."""
    out: dict[int, BlockContext] = {}
    headings: list[tuple[int, str, int]] = []          # (level, title, leaf index)
    previous, previous_index = "", -1
    for index, leaf in enumerate(doc.leaves):
        if not leaf.regions:
            continue
        text = doc.leaf_text(leaf).strip()
        if leaf.kind == "heading":
            level = _heading_level(doc, leaf)
            while headings and headings[-1][0] >= level:
                headings.pop()
        # the heading just above is in the path already: not again as the previous block
        before = "" if headings and headings[-1][2] == previous_index else previous
        out[index] = BlockContext(
            f"{file}#{index}",
            tuple(_cut_end(h, LIMITS["heading"]) for _, h, _ in headings),
            _cut_start(before, LIMITS["previous"]), _cut_end(text, LIMITS["block"]))
        if leaf.kind == "heading":
            title = " ".join(" ".join(r.raw.split()) for r in leaf.regions)
            headings.append((level, title, index))
        previous, previous_index = text, index
    return out
