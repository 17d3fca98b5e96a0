"""``zhen translate``: notes in, ``x.en.md`` and ``x.zh-en.md`` out. No printing here.

One pass over all files: parse → carry over what a person did in the last outputs (the
``parallel`` package decides each block's status; a person's English is never sent to the
engine) → segment and mask → look every engine input up in the translation memory →
translate the misses of *all* files in large batches (the model loads only if something
misses) → verify each segment's term lock, falling back to other hypotheses and then to
piece-wise translation → render → verify the output → write atomically.

Why this module is long: it is the whole pipeline — the runner through the memory, the
term-lock ladder, the output check's loop and the per-note flow — kept in one place while
they share the run's state; the next step is a ``pipeline/`` package (plan, runner, lock,
verify, io) with a pure ``translate_note``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from .checks.notes import nesting_findings
from .document import Document, parse_document
from .engines import EngineContext, create_engine
from .engines.base import Engine, EngineOutput
from .errors import GlossaryNotFound, NoteReadError, OutputError, UsageError
from .fileio import write_atomic
from .findings import Finding
from .glossary import Glossary, load_glossary, resolve_glossary
from .locking import (Segment, check_hypothesis, copy_english, forbidden_in, join_pieces,
                      plan_document, restore, split_pieces)
from .memory import Memory, NoMemory, memory_key
from .notes import NoteFile, collect_notes, is_generated, read_note
from .paths import state_dir
from .parallel import (GLOSS_BANNER, ORDER, Carry, PairStatus, ParallelFileError, carry_over,
                       edit_check, english_body, english_header, output_paths,
                       read_parallel_file, render_parallel, seal_english)
from .parallel.prior import read_prior
from .parallel.report import state_findings
from .render import LeafText, leaf_texts, render_english, unrendered_pieces
from .validate import check_block, compare_facts, first_difference, note_env, parse_blocks
from .reread import read_again
from .textutil import has_cjk

Progress = Callable[[str, int, int], None]        # (phase, done, total)

NO_GLOSSARY_NOTICE = ("no glossary.yaml here or in a parent directory, so no terms are locked; "
                      "`zhen init` writes a starter glossary.yaml")

@dataclass
class TranslateOptions:
    engine: str = "auto"                 # auto or a registered engine (engines.engine_names)
    engine_settings: dict = field(default_factory=dict)   # flags for the engine (--model, ...)
    out_dir: Path | None = None
    use_memory: bool = True
    threads: int = 0
    encoding: str | None = None
    num_hypotheses: int = 4              # asked of engines whose placeholders may break
    batch_size: int = 128                # segments per engine call (and per memory commit)
    validate: bool = True                # the independent output check (validate.py)
    force: bool = False                  # write over outputs zhen did not write or cannot read


@dataclass
class FileResult:
    source: str
    english: str | None = None
    parallel: str | None = None
    segments: int = 0
    error: str | None = None


@dataclass
class TranslateReport:
    files: list[FileResult]
    findings: list[Finding]
    stats: dict
    notices: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        failed = any(f.error for f in self.files)
        errors = any(f.severity == "error" for f in self.findings)
        return 1 if failed or errors else 0

    def to_json(self) -> dict:
        return {"files": [vars(f) for f in self.files],
                "findings": [f.to_json() for f in self.findings],
                "summary": {**self.stats, "exit_code": self.exit_code},
                "notices": self.notices}


@dataclass
class Verified:
    english: str                 # x.en.md as it is written
    findings: list[Finding]
    checked: int                 # translated blocks validated
    invalid: int                 # machine blocks that failed (written as their source)
    persons: dict[int, list[str]] = field(default_factory=dict)
    # leaf index → problems: a person's English that fails in its place in the note; the
    # caller translates these blocks and verifies again


def verify(doc: Document, leaves: list[LeafText], plans, glossary: Glossary, display: str,
           header: str, banner: str = "") -> Verified:
    """Render ``x.en.md`` and check it with the independent validator (validate.py).

    The source and the English are each parsed whole, so every block is judged in its
    real context. A machine block whose English breaks the block structure, a protected
    span, a term, or leaves Chinese is written as its source (never broken) and reported.
    A person's English that fails is put aside too (its source stands in) and returned in
    ``persons``: the caller gets machine English for it and verifies again, so one bad
    block costs that block, never the note. If the structure still differs (a renderer
    bug), the note is written as its source.
    """
    unrendered = {i: "".join(pieces) for i, pieces in unrendered_pieces(plans).items()}
    by_line = {leaf.start_line: i for i, leaf in enumerate(doc.leaves)}
    source = parse_blocks(doc.text)
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
    for _ in range(len(leaves) + 1):
        english = render_english(doc, leaves, header, banner)
        out = parse_blocks(english_body(english))
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
            english = _with_header(doc.text, header)
            return Verified(english, findings, checked, invalid + 1, persons)
    else:
        return Verified(_with_header(doc.text, header), findings, checked, invalid + 1, persons)
    for src_block, out_block in zip(source.blocks, out.blocks):
        i = by_line.get(src_block.line)
        if i is None or not leaves[i].translated or i in reverted:
            continue
        problems = compare_facts(src_block.facts, out_block.facts, glossary, unrendered.get(i, ""))
        if problems:
            reject(i, problems)
    outside = compare_facts(source.outside, out.outside, what=frozenset({"protected"}))
    if outside:
        findings.append(Finding("output-invalid", "error",
                                f"the rendered English changed {'; '.join(outside)}; the note's "
                                "source is written instead", display, 1))
        return Verified(_with_header(doc.text, header), findings, checked, invalid + 1, persons)
    skip = {p.leaf for p in plans if p.region.error} | reverted
    english = read_again(doc, leaves, header, banner, unrendered, skip, reject, findings, display)
    return Verified(english, findings, checked, invalid, persons)


class _Runner:
    """Engine calls through the memory, counting hits and misses."""

    def __init__(self, engine: Engine, memory, batch_size: int, progress: Progress | None):
        self.engine = engine
        self.memory = memory
        self.batch_size = getattr(engine, "preferred_batch", None) or batch_size
        self.glossary_aware = getattr(engine, "glossary_aware", False)
        self.progress = progress
        self.identity = engine.identity()
        self.hits = 0
        self.misses = 0
        self.missed: set[str] = set()         # texts the engine translated in this run

    def run(self, texts: list[str], n: int, phase: str,
            terms: dict[str, dict] | None = None) -> dict[str, EngineOutput]:
        """English for each text; ``terms`` (text → placeholder number → Term) reaches
        glossary-aware engines, and is then part of the memory key."""
        terms = (terms or {}) if self.glossary_aware else {}

        def key(text: str) -> str:
            legend = terms.get(text)
            if legend:
                text += "\n" + "\n".join(f"{k}={t.en}" for k, t in sorted(legend.items()))
            return memory_key(self.identity, text, n)

        keys = {text: key(text) for text in dict.fromkeys(texts)}
        cached = self.memory.get_many(keys.values())
        out: dict[str, EngineOutput] = {}
        for text, key in keys.items():
            if key in cached:
                out[text] = EngineOutput(cached[key]["hypotheses"], cached[key].get("unrendered", []))
        self.hits += len(out)
        # similar lengths in one batch waste less padding; each batch is committed on its own
        misses = sorted((t for t in keys if t not in out), key=len)
        total = len(misses)
        if self.progress and total:
            self.progress(phase, 0, total)
        for start in range(0, total, self.batch_size):
            batch = misses[start:start + self.batch_size]
            try:
                if self.glossary_aware:
                    results = self.engine.translate(batch, num_hypotheses=n,
                                                    terms=[terms.get(t, {}) for t in batch])
                else:
                    results = self.engine.translate(batch, num_hypotheses=n)
            except BaseException as exc:     # the part of the call the engine finished
                finished = getattr(exc, "finished", None) or {}
                self.memory.put_many(self._rows(keys, [(batch[i], r) for i, r in finished.items()]))
                raise
            for text, result in zip(batch, results):
                out[text] = result
            self.memory.put_many(self._rows(keys, zip(batch, results)))   # a killed run keeps these
            self.misses += len(batch)
            self.missed.update(batch)
            if self.progress:
                self.progress(phase, min(start + len(batch), total), total)
        return out

    def _rows(self, keys: dict[str, str], results) -> list[tuple[str, str, str, dict]]:
        """Memory rows for (text, EngineOutput) pairs; another engine's stand-in (fallback)
        is not kept, so the next run asks again."""
        return [(keys[text], self.identity, text,
                 {"hypotheses": result.hypotheses, "unrendered": result.unrendered})
                for text, result in results if not result.fallback]


def lock_segments(segments: list[Segment], glossary: Glossary, runner: _Runner, n: int) -> list[Finding]:
    """Translate, verify and restore every segment; fall back where the lock broke.

    Three phases: choose a hypothesis for each segment (or mark it for the piece-wise
    fallback), translate the pieces, then restore — children (text inside emphasis and
    links, which follow their parent in walk order) before their parents.
    """
    findings: list[Finding] = []
    to_translate = [s.masked for s in segments if s.needs_mt]
    terms = {s.masked: {k: slot.term for k, slot in enumerate(s.slots, 1) if slot.kind == "term"}
             for s in segments if s.needs_mt}
    outputs = runner.run(to_translate, n, "translating", terms) if to_translate else {}
    chosen: dict[int, tuple[str, bool]] = {}         # id(segment) → (English with ZXn, escape)
    need_pieces: list[tuple[Segment, list[str], list[str]]] = []
    for seg in segments:
        if not seg.needs_mt:
            continue
        output = outputs[seg.masked]
        seg.unrendered = list(output.unrendered)
        if output.fallback:
            findings.append(Finding("engine-fallback", "warning",
                                    f"segment {seg.id}: translated by {output.fallback}; review "
                                    "it in the parallel file", seg.file, seg.line,
                                    extra={"segment": seg.id, "source": seg.source}))
        reasons = []
        for k, hypothesis in enumerate(output.hypotheses):
            reason = check_hypothesis(seg, hypothesis, glossary)
            if reason is None:
                chosen[id(seg)] = (hypothesis, True)
                seg.status = "ok" if k == 0 else "hypothesis"
                break
            reasons.append(reason)
        else:
            seg.problems = reasons
            need_pieces.append((seg, split_pieces(seg), reasons))
    if need_pieces:
        pieces = [p.strip() for _, ps, _ in need_pieces for p in ps if has_cjk(p)]
        piece_out = runner.run(pieces, 1, "re-translating pieces")
        translated = {p: o.hypotheses[0] if o.hypotheses else "" for p, o in piece_out.items()}
        for seg, ps, reasons in need_pieces:
            chosen[id(seg)] = (join_pieces(ps, translated), False)
            seg.unrendered += [u for p in ps if p.strip() in piece_out
                               for u in piece_out[p.strip()].unrendered]
            bad = next((hit for p in ps if (hit := forbidden_in(translated.get(p.strip(), ""),
                                                                glossary, seg))), None)
            seg.status = "failed" if bad else "pieces"
            if bad:
                findings.append(Finding(
                    "lock-failed", "error",
                    f"segment {seg.id}: every hypothesis broke the term lock ({'; '.join(reasons)}) "
                    f"and translating the pieces between terms still gives the forbidden {bad!r}; "
                    "edit the English in the parallel file", seg.file, seg.line,
                    extra={"segment": seg.id, "source": seg.source}))
    for seg in reversed(segments):
        if not seg.needs_mt:
            seg.english = copy_english(seg)
            seg.status = "copied"
            continue
        text, escape = chosen[id(seg)]
        seg.english = restore(seg, text, escape=escape)
        if not seg.english.strip(" .,;:!?\"'*_~`"):
            # the engine gave nothing (a lone particle): keep the source, never an empty block
            seg.english = copy_english(seg)
            findings.append(Finding("empty-translation", "warning",
                                    f"segment {seg.id}: the engine returned no English; the "
                                    "source is kept — translate it in the parallel file",
                                    seg.file, seg.line, extra={"segment": seg.id, "source": seg.source}))
    return findings


class Notices(list):
    """The run's notices; each is also handed to ``sink`` the moment it is known (so the
    CLI can say "this is a dictionary gloss" before the work, not after)."""

    def __init__(self, sink: Callable[[str], None] | None = None) -> None:
        super().__init__()
        self.sink = sink

    def append(self, message: str) -> None:
        super().append(message)
        if self.sink is not None:
            self.sink(message)

    def extend(self, messages) -> None:
        for message in messages:
            self.append(message)

    def __iadd__(self, messages):
        self.extend(messages)
        return self


def translate_paths(paths: list[Path], glossary_option: Path | None,
                    options: TranslateOptions | None = None,
                    progress: Progress | None = None, engine: Engine | None = None,
                    notify: Callable[[str], None] | None = None) -> TranslateReport:
    """Translate the notes under ``paths``. Without a glossary (none given, none found
    upwards) the notes are translated with no locked terms and one notice says so."""
    options = options or TranslateOptions()
    notices = Notices(notify)
    try:
        glossary_path = resolve_glossary(glossary_option)
        glossary = load_glossary(glossary_path, strict=True)
        root = glossary_path.parent
    except GlossaryNotFound:
        if glossary_option is not None:
            raise
        glossary, root = Glossary([], path="(no glossary)"), Path(".")
        notices.append(NO_GLOSSARY_NOTICE)
    notes = collect_notes(paths)
    outputs = _outputs(notes, options.out_dir)          # before anything is loaded or written
    if engine is None:
        context = EngineContext(glossary, options.threads, root, options.engine_settings)
        engine, engine_notices = create_engine(options.engine, context)
        notices += engine_notices
    memory = Memory(state_dir(root) / "memory.sqlite", notices) if options.use_memory else NoMemory()
    try:
        return _translate(notes, outputs, glossary, engine, memory, options, progress, notices)
    finally:
        memory.close()


def _with_header(body: str, header: str) -> str:
    newline = "\r\n" if "\r\n" in body else "\n"
    return header + newline + body


@dataclass
class _Note:
    """One note on its way through a run."""

    note: NoteFile
    result: FileResult
    doc: Document
    plans: list
    en_path: Path
    par_path: Path
    carry: Carry
    findings: list[Finding]


def _outputs(notes: list[NoteFile], out_dir: Path | None) -> dict[int, tuple[Path, Path]]:
    """Each note's outputs; two notes that would write one file stop the run before anything
    is written."""
    out, seen = {}, {}
    for k, note in enumerate(notes):
        paths = output_paths(note.path, note.relative, out_dir)
        key = paths[0].resolve()
        if key in seen:
            raise UsageError(f"{seen[key]} and {note.display} would both be written to "
                             f"{paths[0]}; translate them in separate runs, or with different "
                             "--out-dir")
        seen[key] = note.display
        out[k] = paths
    return out


def _prepare(note: NoteFile, paths, glossary: Glossary, options: TranslateOptions
             ) -> _Note | FileResult:
    """Read, parse and plan a note, and carry over what a person did in its outputs."""
    result = FileResult(note.display)
    if is_generated(note.path):
        result.error = f"{note.display} is a generated translation; translate its source note"
        return result
    try:
        text = read_note(note.path, options.encoding)
    except NoteReadError as exc:
        result.error = str(exc)
        return result
    en_path, par_path = paths
    try:
        prior = read_prior(en_path, par_path, options.force)
    except ParallelFileError as exc:
        result.error = f"{exc}; nothing was written for {note.display}"
        return result
    doc = parse_document(text)
    plans = plan_document(doc, glossary, note.display)
    findings = list(prior.findings) + nesting_findings(text, note.display)  # unread by the parser
    for plan in plans:
        if plan.region.error:
            findings.append(Finding("unparsed", "warning",
                                    f"could not locate this block's text ({plan.region.error}); "
                                    "it is copied untranslated", note.display, plan.region.line + 1))
    carry = carry_over(doc, prior.parallel, glossary, edit_check(doc, glossary))
    return _Note(note, result, doc, plans, en_path, par_path, carry, findings)


def _segments(item: _Note, leaves: set[int] | None = None, skip: set[int] = frozenset()):
    return [s for plan in item.plans if plan.leaf not in skip
            and (leaves is None or plan.leaf in leaves)
            for top in plan.segments for s in top.walk()]


def _translate(notes, outputs, glossary, engine, memory, options, progress, notices
               ) -> TranslateReport:
    files: list[FileResult] = []
    findings: list[Finding] = []
    items: list[_Note] = []
    for k, note in enumerate(notes):
        item = _prepare(note, outputs[k], glossary, options)
        files.append(item if isinstance(item, FileResult) else item.result)
        if isinstance(item, _Note):
            items.append(item)

    # a person's English is never sent to the engine
    segments = [s for item in items for s in _segments(item, skip=item.carry.owned())]
    saved = sum(1 for item in items for s in _segments(item, leaves=item.carry.owned())
                if s.needs_mt)
    n = 1 if engine.reliable_placeholders else max(1, options.num_hypotheses)
    runner = _Runner(engine, memory, options.batch_size, progress)
    notices += getattr(engine, "notices", [])          # what resolving the engine found
    findings += lock_segments(segments, glossary, runner, n)

    describe = engine.describe()
    validated = invalid = 0
    counts = {str(s): 0 for s in ORDER}
    for item in items:
        note, doc, carry = item.note, item.doc, item.carry
        header = english_header(note.path.name, describe, item.par_path.name)
        banner = GLOSS_BANNER if engine.name == "gloss" else ""
        empty = not doc.text.strip()          # an empty note gives empty outputs
        for _ in range(3):
            persons = {i: s.english for i, s in carry.states.items() if s.status.owned}
            leaves = leaf_texts(doc, item.plans, persons)
            if not options.validate or empty:
                english = "" if empty else render_english(doc, leaves, header, banner)
                checks: list[Finding] = []
                break
            verified = verify(doc, leaves, item.plans, glossary, note.display, header, banner)
            english, checks = verified.english, verified.findings
            if not verified.persons:
                break
            # a person's English that fails in its place: machine English for it, then again
            for i, problems in verified.persons.items():
                state = carry.states[i]
                state.status, state.problems = PairStatus.INVALID, tuple(problems)
            more = _segments(item, leaves=set(verified.persons))
            findings += lock_segments(more, glossary, runner, n)
            segments += more
        validated += verified.checked if options.validate and not empty else 0
        invalid += verified.invalid if options.validate and not empty else 0
        item.result.segments = len(_segments(item))
        # an emptied note still keeps the edits it had (its parallel file holds them)
        parallel = "" if empty and not carry.orphans else \
            render_parallel(leaves, note.path.name, describe, carry)
        checks += state_findings(carry, leaves, parallel, item.par_path, item.en_path.name,
                                 note.display)
        findings += item.findings + checks
        for state in carry.states.values():
            if state.status is not PairStatus.SAME and str(state.status) in counts:
                after = PairStatus.MACHINE if state.status is PairStatus.PENDING else state.status
                counts[str(after)] += 1
        try:
            write_atomic(item.en_path, seal_english(english))
            write_atomic(item.par_path, parallel)
        except OutputError as exc:
            item.result.error = str(exc)
            continue
        item.result.english, item.result.parallel = str(item.en_path), str(item.par_path)

    statuses = [s.status for s in segments]
    fresh = sum(1 for s in segments if s.needs_mt and (
        s.masked in runner.missed or any(p.strip() in runner.missed for p in split_pieces(s)
                                         if s.status in ("pieces", "failed"))))
    stats = {
        "files": sum(1 for f in files if not f.error),
        "failed_files": sum(1 for f in files if f.error),
        "segments": len(segments) + saved,
        "from_memory": sum(1 for s in segments if s.needs_mt) - fresh,
        "translated": fresh,
        "engine_calls": runner.misses,
        "kept_by_person": saved,
        "terms_locked": sum(1 for s in segments for slot in s.slots if slot.kind == "term"),
        "lock_fallbacks": sum(st in ("hypothesis", "pieces") for st in statuses),
        "lock_failures": statuses.count("failed"),
        "copied": statuses.count("copied"),
        "blocks": counts,
        "kept_edits": counts["edited"],
        "reviewed_blocks": counts["reviewed"],
        "stale_edits": counts["stale"],
        "orphaned_edits": sum(len(item.carry.orphans) for item in items),
        "carried_from_english": sum(1 for f in findings if f.check == "english-carried"),
        "validated_blocks": validated,
        "invalid_blocks": invalid,
        "invalid_edits": sum(1 for f in findings if f.check == "edit-invalid"),
        "engine": describe,
        "model": runner.identity,
    }
    return TranslateReport(files, findings, stats, notices)
