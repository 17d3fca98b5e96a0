"""A big note translated a section at a time: what keeps its segments from being held whole.

A note over ``markdown.KEEP_CHARS`` is not planned when it is prepared
(``pipeline.prepare_note``): :func:`sectioned` plans its blocks a section of about
:data:`SECTION_CHARS` characters at a time (:func:`sections`), translates that section's
segments through the runner, counts them (the note's tally) and settles their regions
(``render.settle``: each region keeps its English, its segments go, and so do its inline
nodes and text, ``document.Region.let_go``) before the next section is planned. What it
writes is what the note translated whole writes, byte for byte, and its findings come in
the same order (``runner.lock_parts``; ``tests/test_sections.py``).
"""

from __future__ import annotations

from typing import Callable

from .context import block_contexts
from .document import Document
from .findings import Finding
from .glossary import Glossary
from .locking import Segment, plan_leaves
from .render import settle
from .runner import Runner, lock_parts

SECTION_CHARS = 200_000      # a big note is planned and translated this much at a time


def sections(doc: Document, size: int | None = None):
    """The leaves of ``doc`` in runs of about ``size`` characters of source: (first, stop)."""
    size = SECTION_CHARS if size is None else size
    first, weight = 0, 0
    for i, leaf in enumerate(doc.leaves):
        start, end = doc.span(leaf.start_line, leaf.end_line)
        weight += end - start
        if weight >= size:
            yield first, i + 1
            first, weight = i + 1, 0
    if first < len(doc.leaves):
        yield first, len(doc.leaves)


LockParts = Callable[[list[Segment], dict | None], tuple[list, list, list]]


def sectioned(item, glossary: Glossary, runner: Runner, n: int) -> list[Finding]:
    """:func:`translate_sections` of a prepared note (``pipeline.Prepared``) through
    ``runner``, ``n`` hypotheses a text."""
    by_leaf = block_contexts(item.doc, item.display) if runner.uses_context else None

    def lock(segments, contexts):
        return lock_parts(segments, glossary, runner, n, contexts)

    return translate_sections(item, glossary, lock, runner.missed, by_leaf)


def translate_sections(item, glossary: Glossary, lock: LockParts,
                       missed: set[str], by_leaf: dict | None = None) -> list[Finding]:
    """A big note (``pipeline.Prepared``) planned, translated and settled a section of
    blocks at a time, so that only one section's segments are held (the regions keep
    their English); its findings in the order locking it whole reports them
    (``runner.lock_parts``). A person's English is never sent to the engine: those blocks
    keep their segments (their English may still fail the output check and need machine
    English). ``missed``: the texts the engine translated in this run; ``by_leaf``: the
    blocks' contexts, for an engine that reads them."""
    doc, owned = item.doc, item.carry.owned()
    plans: list = []
    fallbacks: list[Finding] = []
    failures: list[Finding] = []
    empties: list[Finding] = []
    for first, stop in sections(doc):
        section = plan_leaves(doc, glossary, item.display, range(first, stop))
        segments = [s for plan in section if plan.leaf not in owned
                    for top in plan.segments for s in top.walk()]
        contexts = None if by_leaf is None else {
            id(s): by_leaf.get(plan.leaf) for plan in section for top in plan.segments
            for s in top.walk()}
        more = lock(segments, contexts)
        fallbacks += more[0]
        failures += more[1]
        empties[:0] = more[2]              # reported in reverse segment order
        item.tally.add(segments, missed)
        del segments, contexts
        settle(section, owned)
        for plan in section:               # what rendering and the check need is kept
            if plan.leaf not in owned:
                plan.region.let_go()
        plans += section
    item.plans = plans
    return fallbacks + failures + empties
