"""One note through the pipeline, with no I/O: the pure core of ``zhen translate``.

:func:`prepare_note` parses and plans a note and carries over what a person did in its
last outputs (the ``parallel`` package decides each block's status); its machine segments
(:func:`machine_segments`) go to the engine — a person's English never does — through a
caller's runner, batched across notes; :func:`finish_note` renders ``x.en.md``, checks it
with the independent validator (:func:`verify`), and returns both outputs' text, the
findings and the counts as a :class:`NoteResult`. ``translate.translate_note`` runs all
three for one text; ``translate._translate`` runs them over many notes and does the I/O.
A note over ``markdown.KEEP_CHARS`` is planned and translated a section at a time
(:mod:`.sections`), and its output check reads the source and the English side by side,
a block of each at a time (``validate.paired_blocks``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from . import markdown
from .checks.notes import nesting_findings
from .context import block_contexts
from .document import Document, parse_document
from .findings import Finding
from .glossary import Glossary
from .locking import Segment, plan_document, split_pieces
from .notes import NoteFile
from .parallel import (GLOSS_BANNER, ORDER, Carry, Layout, PairStatus, ParallelFile,
                       ParallelFileError, carry_over, status_counts,
                       edit_check, english_body, english_header, render_parallel, seal_english)
from .parallel.prior import read_prior
from .parallel.report import state_findings
from .prose import kept_chinese_findings
from .render import (LeafText, front_matter_end, leaf_texts, render_body, render_english,
                     settle, unrendered_pieces)
from .reread import read_again
from .runner import Runner, lock_segments
from .sections import sectioned
from .validate import (Block, StructureDiffers, check_block, compare_facts, first_difference,
                       note_env, paired_blocks, parse_blocks)


@dataclass
class Prepared:
    """A note parsed and planned, with what a person did in its last outputs carried over."""

    display: str                     # the note, as findings name it
    doc: Document
    plans: list | None               # None: a big note, planned a section at a time as it
    carry: Carry                     # is translated (``sections.translate_sections``)
    findings: list[Finding]
    source_name: str                 # x.md, as the headers name it
    en_name: str                     # x.en.md
    parallel: str                    # the parallel file, as findings name it
    tally: "_Tally" = field(default_factory=lambda: _Tally())    # its translated segments
    banner_deleted: Finding | None = None   # said when the gloss banner is written again

    @property
    def sectioned(self) -> bool:
        """Planned and translated a section at a time (``sections.translate_sections``)."""
        return self.plans is None

    def planned(self, glossary: Glossary) -> None:
        """Every block planned at once (a sectioned note asked for all its segments)."""
        if self.plans is None:
            self.plans = plan_document(self.doc, glossary, self.display)

    def segments(self, leaves: set[int] | None = None, skip: set[int] = frozenset()
                 ) -> list[Segment]:
        return [s for plan in self.plans or () if plan.leaf not in skip
                and (leaves is None or plan.leaf in leaves)
                for top in plan.segments for s in top.walk()]

    def machine_segments(self) -> list[Segment]:
        """What the engine translates: every segment but those of a person's English."""
        return self.segments(skip=self.carry.owned())

    def kept_segments(self) -> int:
        """Segments a person's English stands for (never sent to the engine)."""
        return sum(1 for s in self.segments(leaves=self.carry.owned()) if s.needs_mt)


def prepare_note(display: str, text: str, glossary: Glossary, *,
                 last: ParallelFile | None = None, findings: list[Finding] | None = None,
                 source_name: str = "x.md", en_name: str = "x.en.md",
                 parallel: str = "x.zh-en.md", banner_deleted: Finding | None = None
                 ) -> Prepared:
    """Parse, plan and carry over: ``last`` is the note's last parallel file (with any
    x.en.md changes taken in), ``findings`` what reading it found; ``banner_deleted``: what
    to say if the gloss banner a person deleted from x.en.md is written again."""
    doc = parse_document(text)
    # a big note (over markdown.KEEP_CHARS) is planned a section at a time, as it is
    # translated: its segments are most of what it would hold
    plans = plan_document(doc, glossary, display) if len(text) <= markdown.KEEP_CHARS else None
    found = list(findings or []) + nesting_findings(text, display)   # what the parser did not read
    for leaf in doc.leaves:
        for region in leaf.regions:
            if region.error:
                found.append(Finding("unparsed", "warning",
                                     f"could not locate this block's text ({region.error}); "
                                     "it is copied untranslated", display, region.line + 1))
    found += kept_chinese_findings(doc, display, en_name)
    carry = carry_over(doc, last, glossary, edit_check(doc, glossary))
    doc.prose = None        # the prose view (as long as the note) is asked again if needed
    return Prepared(display, doc, plans, carry, found, source_name, en_name, parallel,
                    banner_deleted=banner_deleted)


@dataclass
class NoteResult:
    """A note's outputs and what was found on the way."""

    display: str
    english: str                     # x.en.md, sealed (its header holds the hash of the rest)
    parallel: str                    # x.zh-en.md
    # (a big note's, from finish_note: a textutil.Pieces each, written a piece at a time)
    findings: list[Finding]
    stats: dict = field(default_factory=dict)    # this note's share of the run's summary


Lock = Callable[[list[Segment]], list[Finding]]


@dataclass
class _Tally:
    """What a note's counts need of its translated segments, counted as each is locked
    (its region is then settled, ``render.settle``, and its segments let go)."""

    segments: int = 0
    mt: int = 0                      # segments the engine was asked for
    fresh: int = 0                   # of those, translated by the engine in this run
    terms: int = 0                   # term slots
    fallbacks: int = 0               # a later hypothesis, or the pieces
    failures: int = 0
    copied: int = 0

    def add(self, segments: list[Segment], missed: set[str]) -> None:
        """Count locked ``segments``; ``missed``: the texts the engine translated in this
        run (the rest came from the memory)."""
        for s in segments:
            self.segments += 1
            status = s.status
            if s.needs_mt:
                self.mt += 1
                self.fresh += s.masked in missed or (status in ("pieces", "failed") and any(
                    p.strip() in missed for p in split_pieces(s)))
            self.terms += sum(1 for slot in s.slots if slot.kind == "term")
            self.fallbacks += status in ("hypothesis", "pieces")
            self.failures += status == "failed"
            self.copied += status == "copied"


def finish_note(item: Prepared, glossary: Glossary, lock: Lock, *, gloss: bool,
                describe: str, missed: set[str] = frozenset(), validate: bool = True
                ) -> NoteResult:
    """Render and verify a note whose machine segments are translated. ``lock`` translates
    more segments (a person's English that fails the output check in its place needs
    machine English); ``missed``: texts the engine translated in this run (the rest came
    from the memory)."""
    doc, carry = item.doc, item.carry
    header = english_header(item.source_name, describe, item.parallel.rsplit("/", 1)[-1])
    banner = GLOSS_BANNER if gloss else ""       # a dictionary gloss says so, visibly
    empty = not doc.text.strip()          # an empty note gives empty outputs
    findings: list[Finding] = []
    tally = item.tally
    if not item.sectioned:
        tally.add(item.machine_segments(), missed)
    owned = carry.owned()
    settle(item.plans, owned)             # the machine regions' English; their segments go
    validated = invalid = 0
    for _ in range(3):
        persons = {i: s.english for i, s in carry.states.items() if s.status.owned}
        leaves = leaf_texts(doc, item.plans, persons)
        if not validate or empty:
            english, rendered = "", not empty       # rendered (and sealed) once, below
            checks: list[Finding] = []
            break
        unrendered = {i: "".join(p) for i, p in unrendered_pieces(item.plans).items()}
        unparsed = {p.leaf for p in item.plans if p.region.error}
        if not owned:                     # no English can come back to the engine: what
            item.plans = []               # is left to check and write is in the leaves
        verified = verify(doc, leaves, unrendered, unparsed, glossary, item.display, header,
                          banner)
        english, checks, rendered = verified.english, verified.findings, verified.rendered
        validated, invalid = verified.checked, verified.invalid
        if not verified.persons:
            break
        # a person's English that fails in its place: machine English for it, then again
        for i, problems in verified.persons.items():
            state = carry.states[i]
            state.status, state.problems = PairStatus.INVALID, tuple(problems)
        more = item.segments(leaves=set(verified.persons))
        findings += lock(more)
        tally.add(more, missed)
    kept = item.kept_segments() if owned else 0
    item.plans = []                       # what is left to write is in the leaves now
    big = len(doc.text) > markdown.KEEP_CHARS     # its outputs in pieces, written as such
    # an emptied note still keeps the edits it had (its parallel file holds them)
    parallel = "" if empty and not carry.orphans else \
        render_parallel(leaves, item.source_name, describe, carry, unjoined=big)
    checks += state_findings(carry, leaves, parallel, Path(item.parallel), item.en_name,
                             item.display)
    findings = item.findings + findings + checks
    if banner and item.banner_deleted is not None:
        findings.append(item.banner_deleted)
    counts = {str(s): 0 for s in ORDER}
    for i, state in carry.states.items():
        if leaves[i].translated and str(state.status) in counts:
            after = PairStatus.MACHINE if state.status is PairStatus.PENDING else state.status
            counts[str(after)] += 1
    stats = {
        "segments": tally.segments + kept,
        "from_memory": tally.mt - tally.fresh,
        "translated": tally.fresh,
        "kept_by_person": kept,
        "terms_locked": tally.terms,
        "lock_fallbacks": tally.fallbacks,
        "lock_failures": tally.failures,
        "copied": tally.copied,
        "blocks": counts,
        "orphaned_edits": len(carry.orphans),
        "validated_blocks": validated,
        "invalid_blocks": invalid,
    }
    if rendered:                      # rendered once, sealed
        english = verified = None
        english = render_english(doc, leaves, header, banner, seal=True, unjoined=big)
    elif english:
        english = seal_english(english, front_matter_end(doc))
    return NoteResult(item.display, english, parallel, findings, stats)


def _with_header(doc: Document, header: str) -> str:
    """The note's source as x.en.md, when no block can be trusted: zhen's header after a
    leading front matter block (which must stay first), as for any x.en.md."""
    body, cut = doc.text, front_matter_end(doc)
    newline = "\r\n" if "\r\n" in body else "\n"
    front = body[:cut] if not cut or body[:cut].endswith(("\n", "\r")) else body[:cut] + newline
    return front + header + newline + body[cut:]




@dataclass
class FileResult:
    source: str
    english: str | None = None
    parallel: str | None = None
    segments: int = 0
    error: str | None = None
    unchanged: bool = False      # nothing changed since the last run: skipped whole



def prepare(note: NoteFile, text: str, paths, glossary: Glossary, options
            ) -> Prepared | FileResult:
    """What lies beside a note, read with care (I/O), then the note prepared (pure). A note
    with no parallel file yet that ``options.adopt`` pairs with a stray's (its note gone:
    ``parallel.strays``) carries that file's state over, and says so."""
    en_path, par_path = paths
    taken = None
    try:
        prior = read_prior(en_path, par_path, options.force,
                           note=note.path if options.out_dir is not None else None)
        taken = options.adopt.get(str(note.path)) if prior.parallel is None else None
        if taken is not None:
            try:
                stray = read_prior(Path(taken.english) if taken.english else None,
                                   Path(taken.parallel), options.force)
            except ParallelFileError as exc:
                # the state it continues is held up by that file's own problem: said, and
                # nothing written, so the state is still there to take once it is fixed
                raise ParallelFileError(
                    f"continues the review state of {taken.parallel} ({taken.origin}), "
                    f"and {exc}",
                    path=note.display) from exc
            prior.parallel = stray.parallel
            prior.findings += stray.findings
    except ParallelFileError as exc:
        return FileResult(note.display, error=f"{exc}; nothing was written for {note.display}")
    item = prepare_note(note.display, text, glossary, last=prior.parallel,
                        findings=prior.findings,
                        source_name=Layout.source_ref(note.path, par_path),
                        en_name=en_path.name, parallel=str(par_path),
                        banner_deleted=prior.banner_deleted)
    if taken is not None:
        item.findings.append(taken.finding(par_path, status_counts(item.carry)))
    return item


def contexts_of(items: list[Prepared]) -> dict[int, object]:
    """id(segment) → the context of its block (context.py), for engines that read it."""
    out: dict[int, object] = {}
    for item in items:
        if item.sectioned:
            continue                   # its contexts are asked section by section
        by_leaf = block_contexts(item.doc, item.display)
        for plan in item.plans:
            for top in plan.segments:
                for seg in top.walk():
                    out[id(seg)] = by_leaf.get(plan.leaf)
    return out


def translate_prepared(items: list, glossary: Glossary, runner: Runner, n: int, engine,
                       validate: bool):
    """(index, NoteResult, text, the note's segment findings) for prepared notes
    ``items`` = (index, Prepared, text): their machine segments translated in one batch.
    ``items`` is emptied as the notes are finished (each Prepared let go before its result
    is handed on)."""
    contexts = contexts_of([item for _, item, _ in items]) if runner.uses_context else None

    def lock(segments):
        return lock_segments(segments, glossary, runner, n, contexts)

    found = lock([s for _, item, _ in items for s in item.machine_segments()])
    describe = engine.describe()
    items.reverse()
    while items:            # each note let go once finished: its outputs are written
        index, item, text = items.pop()                  # without its Document beside them
        own = [f for f in found if f.file == item.display]
        if item.sectioned:                    # a big note: translated a section at a time
            own = sectioned(item, glossary, runner, n)
        result = finish_note(item, glossary, lock, gloss=runner.capabilities.gloss,
                             describe=describe,
                             missed=runner.missed, validate=validate)
        del item
        yield index, result, text, own


# --------------------------------------------------------------------------- the output check

@dataclass
class Verified:
    english: str                 # x.en.md as it is written ("" when ``rendered``: it is
    #                              render_english of the leaves, rendered by the caller)
    findings: list[Finding]
    checked: int                 # translated blocks validated
    invalid: int                 # machine blocks that failed (written as their source)
    persons: dict[int, list[str]] = field(default_factory=dict)
    # leaf index → problems: a person's English that fails in its place in the note; the
    # caller translates these blocks and verifies again
    rendered: bool = False       # x.en.md is render_english of the leaves (not the source)


def verify(doc: Document, leaves: list[LeafText], unrendered: dict[int, str],
           unparsed: set[int], glossary: Glossary, display: str, header: str,
           banner: str = "") -> Verified:
    """Render ``x.en.md`` and check it with the independent validator (validate.py).

    The source and the English are each parsed whole, so every block is judged in its
    real context. A machine block whose English breaks the block structure, a protected
    span, a term, or leaves Chinese is written as its source (never broken) and reported.
    A person's English that fails is put aside too (its source stands in) and returned in
    ``persons``: the caller gets machine English for it and verifies again, so one bad
    block costs that block, never the note. If the structure still differs (a renderer
    bug), the note is written as its source. ``unrendered``: leaf → what of its source the
    engine could not render; ``unparsed``: the leaves with a region the parser's tokens
    could not be aligned to (copied as they are, reported already).
    """
    by_line = {leaf.start_line: i for i, leaf in enumerate(doc.leaves)}
    front = front_matter_end(doc)         # x.en.md's front matter is the note's, verbatim
    findings: list[Finding] = []
    reverted: set[int] = set()
    persons: dict[int, list[str]] = {}
    invalid = 0
    env: dict | None = None

    def reject(i: int, problems: list[str]) -> bool:
        """Put leaf ``i``'s source in place of its English; report it if the machine wrote
        it, hand it back to the caller if a person did."""
        nonlocal invalid
        leaf = leaves[i]
        if leaf.human:
            persons[i] = problems
        else:
            invalid += 1
            findings.append(Finding(
                "output-invalid", "error",
                f"block {leaf.index}: the English failed the output check ({'; '.join(problems)}); "
                "the source is written in its place — translate it in the parallel file",
                display, leaf.first_line,
                extra={"segment": f"b{leaf.index}", "source": leaf.source.strip(),
                       "english": leaf.english.strip(), "problems": problems}))
        leaf.english = leaf.source
        leaf.unrendered = []              # nothing is left out of the source itself
        reverted.add(i)
        return True

    checked = sum(1 for leaf in leaves if leaf.translated)
    if len(doc.text) > markdown.KEEP_CHARS:
        # a big note: the source and its English read side by side, a block of each at a
        # time; where their block structures differ, read whole as below
        english = render_body(doc, leaves, header, banner)
        rejected: list[tuple[int, list[str]]] = []
        try:
            for src_block, out_block in paired_blocks(doc.text, english):
                if not isinstance(src_block, Block):
                    outside = compare_facts(src_block, out_block, what=frozenset({"protected"}))
                    continue
                i = by_line.get(src_block.line)
                if i is None or not leaves[i].translated:
                    continue
                problems = compare_facts(src_block.facts, out_block.facts, glossary,
                                         unrendered.get(i, ""))
                if problems:
                    rejected.append((i, problems))
        except StructureDiffers:
            pass
        else:
            for i, problems in rejected:
                reject(i, problems)
            if rejected:              # blocks changed: the second reading renders again
                english = None
            return _read_again(doc, leaves, unparsed, header, banner, unrendered, reverted,
                               reject, findings, display, checked, lambda: invalid, persons,
                               outside, english)
        del english, rejected
    source = parse_blocks(doc.text)
    for _ in range(len(leaves) + 1):
        english = render_english(doc, leaves, header, banner)
        out = parse_blocks(english_body(english, front))
        k = first_difference(source, out)
        if k is None:
            break
        # the block where the structure first differs, or the translated one before it
        culprit = next((by_line[b.line] for b in reversed(source.blocks[:k + 1])
                        if b.line in by_line and leaves[by_line[b.line]].translated
                        and by_line[b.line] not in reverted), None)
        env = env if env is not None else note_env(doc.text)

        def alone(i: int) -> list[str]:
            return check_block(leaves[i].source, leaves[i].english, env=env,
                               what=frozenset({"structure", "protected"}))

        if culprit is not None and alone(culprit):
            reject(culprit, ["block structure changed"] + alone(culprit))
            continue
        # damage that shows elsewhere (a broken footnote reference drops its definition):
        # each translated block on its own
        offenders = [(i, problems) for i, leaf in enumerate(leaves)
                     if leaf.translated and i not in reverted
                     for problems in [alone(i)] if problems]
        for i, problems in offenders:
            reject(i, problems)
        if not offenders and culprit is not None:
            reject(culprit, ["block structure changed"])
        elif not offenders:
            findings.append(Finding(
                "output-invalid", "error",
                f"the rendered English changes the note's block structure near line "
                f"{source.blocks[min(k, len(source.blocks) - 1)].line + 1 if source.blocks else 1}; "
                f"the note's source is written instead", display, 1))
            english = _with_header(doc, header)
            return Verified(english, findings, checked, invalid + 1, persons)
    else:
        return Verified(_with_header(doc, header), findings, checked, invalid + 1, persons)
    for src_block, out_block in zip(source.blocks, out.blocks):
        i = by_line.get(src_block.line)
        if i is None or not leaves[i].translated or i in reverted:
            continue
        problems = compare_facts(src_block.facts, out_block.facts, glossary, unrendered.get(i, ""))
        if problems:
            reject(i, problems)
    outside = compare_facts(source.outside, out.outside, what=frozenset({"protected"}))
    del source, out, english              # the first reading is done: not held through the second
    return _read_again(doc, leaves, unparsed, header, banner, unrendered, reverted, reject,
                       findings, display, checked, lambda: invalid, persons, outside)


def _read_again(doc, leaves, unparsed, header, banner, unrendered, reverted, reject, findings,
                display, checked, invalid, persons, outside, body=None) -> Verified:
    """The rest of :func:`verify` once the parser's reading passed the block structure:
    what lies outside the leaf blocks (``outside``: what it changed), then the second
    reading (``reread.read_again``). ``invalid()``: the machine blocks rejected so far;
    ``body``: the English's body the first reading read, if no block changed since."""
    if outside:
        body = None
        findings.append(Finding("output-invalid", "error",
                                f"the rendered English changed {'; '.join(outside)}; the note's "
                                "source is written instead", display, 1))
        return Verified(_with_header(doc, header), findings, checked, invalid() + 1, persons)
    skip = unparsed | reverted
    read_again(doc, leaves, header, banner, unrendered, skip, reject, findings, display, body)
    return Verified("", findings, checked, invalid(), persons, rendered=True)


