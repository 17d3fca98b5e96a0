"""``zhen translate``: notes in, ``x.en.md`` and ``x.zh-en.md`` out. No printing here.

Notes go through in windows (:func:`_windows`): read each note and what lies beside it,
prepare it (``pipeline.prepare_note``: parse, plan, carry over what a person did — a
person's English is never sent to the engine), look every machine segment of the window
up in the translation memory and translate the misses in large batches (the model loads
only if something misses), verify each segment's term lock, falling back to other
hypotheses and then to piece-wise translation (:func:`lock_segments`), then finish each
note (``pipeline.finish_note``: render, the output check) and write it atomically before
the next window is read. :func:`translate_note` is the same for one text, with no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .engines import EngineContext, create_engine
from .engines.base import Engine, EngineOutput
from .errors import GlossaryNotFound, NoteReadError, OutputError, UsageError
from .fileio import write_atomic
from .findings import Finding
from .glossary import Glossary, load_glossary, resolve_glossary
from .locking import (Segment, check_hypothesis, copy_english, forbidden_in, join_pieces,
                      restore, split_pieces)
from .manifest import Manifest, NoteState, run_key
from .memory import Memory, NoMemory, memory_key
from .notes import NoteFile, collect_notes, is_generated, read_note
from .parallel import ORDER, ParallelFile, ParallelFileError, output_paths
from .parallel.prior import read_prior
from .paths import state_dir
from .pipeline import NoteResult, Prepared, finish_note, prepare_note
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
    unchanged: bool = False      # nothing changed since the last run: skipped whole


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


class Runner:
    """Engine calls through the memory, counting hits and misses: what every translation
    goes through (``translate_note``, ``zhen translate``, the benchmarks)."""

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


def lock_segments(segments: list[Segment], glossary: Glossary, runner: Runner, n: int) -> list[Finding]:
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


def translate_note(text: str, glossary: Glossary, engine: Engine, *,
                   last: ParallelFile | None = None, name: str = "x.md", memory=None,
                   num_hypotheses: int = 4, validate: bool = True) -> NoteResult:
    """One note's text in, both outputs' text out: no files read or written. ``last``: the
    note's last parallel file, whose edits and reviews are carried over; ``memory``: a
    translation memory to read and fill (none by default)."""
    base = name[:-3] if name.endswith(".md") else name
    item = prepare_note(name, text, glossary, last=last, source_name=name,
                        en_name=f"{base}.en.md", parallel=f"{base}.zh-en.md")
    n = 1 if engine.reliable_placeholders else max(1, num_hypotheses)
    runner = Runner(engine, memory if memory is not None else NoMemory(), 128, None)

    def lock(segments):
        return lock_segments(segments, glossary, runner, n)

    found = lock(item.machine_segments())
    result = finish_note(item, glossary, lock, engine_name=engine.name,
                         describe=engine.describe(), missed=runner.missed, validate=validate)
    result.findings = found + result.findings
    return result


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


def _read(note: NoteFile, paths, glossary: Glossary, options: TranslateOptions,
          manifest: Manifest) -> tuple[Prepared | FileResult | NoteState, str]:
    """Read a note and what lies beside it (I/O), then prepare it (pure) — or, when nothing
    changed since the last run, the state that run recorded."""
    result = FileResult(note.display)
    if is_generated(note.path):
        result.error = f"{note.display} is a generated translation; translate its source note"
        return result, ""
    try:
        text = read_note(note.path, options.encoding)
    except NoteReadError as exc:
        result.error = str(exc)
        return result, ""
    en_path, par_path = paths
    if not options.force:
        state = manifest.unchanged(text, en_path, par_path)
        if state is not None:
            return state, text
    try:
        prior = read_prior(en_path, par_path, options.force)
    except ParallelFileError as exc:
        result.error = f"{exc}; nothing was written for {note.display}"
        return result, ""
    return prepare_note(note.display, text, glossary, last=prior.parallel,
                        findings=prior.findings, source_name=note.path.name,
                        en_name=en_path.name, parallel=str(par_path)), text


WINDOW_CHARS = 4_000_000     # notes prepared, translated and written together (a window)
WINDOW_NOTES = 512


def _windows(notes: list[NoteFile]):
    """The notes in windows of at most WINDOW_CHARS characters (their size on disk) or
    WINDOW_NOTES notes: a window's segments go to the engine in large batches across its
    notes, and its outputs are written before the next window is read, so a run's memory
    does not grow with the number of notes."""
    window, size = [], 0
    for k, note in enumerate(notes):
        try:
            weight = note.path.stat().st_size
        except OSError:
            weight = 0
        if window and (size + weight > WINDOW_CHARS or len(window) >= WINDOW_NOTES):
            yield window
            window, size = [], 0
        window.append(k)
        size += weight
    if window:
        yield window


_SUMMED = ("segments", "from_memory", "translated", "kept_by_person", "terms_locked",
           "lock_fallbacks", "lock_failures", "copied", "orphaned_edits", "validated_blocks",
           "invalid_blocks")


def _translate(notes, outputs, glossary, engine, memory, options, progress, notices
               ) -> TranslateReport:
    files: list[FileResult] = [FileResult(note.display) for note in notes]
    findings: list[Finding] = []
    n = 1 if engine.reliable_placeholders else max(1, options.num_hypotheses)
    runner = Runner(engine, memory, options.batch_size, progress)
    notices += getattr(engine, "notices", [])          # what resolving the engine found
    describe = engine.describe()
    totals = {key: 0 for key in _SUMMED}
    counts = {str(s): 0 for s in ORDER}

    def lock(segments):
        return lock_segments(segments, glossary, runner, n)

    def count(stats: dict) -> None:
        for key in _SUMMED:
            totals[key] += stats.get(key, 0)
        for key, value in stats.get("blocks", {}).items():
            counts[key] = counts.get(key, 0) + value

    manifest = Manifest(memory, glossary, run_key(
        runner.identity, describe, {"n": n, "validate": options.validate,
                                    "gloss_banner": engine.name == "gloss"}))
    unchanged = 0
    for window in _windows(notes):
        items: list[tuple[int, Prepared, str]] = []
        for k in window:
            item, text = _read(notes[k], outputs[k], glossary, options, manifest)
            if isinstance(item, FileResult):
                files[k] = item
            elif isinstance(item, NoteState):            # nothing changed: said again
                unchanged += 1
                findings += item.found()
                count({**item.stats, "translated": 0,
                       "from_memory": item.stats.get("from_memory", 0)
                       + item.stats.get("translated", 0)})
                en_path, par_path = outputs[k]
                files[k] = FileResult(notes[k].display, str(en_path), str(par_path),
                                      item.stats.get("segments", 0), unchanged=True)
            else:
                items.append((k, item, text))
        # a person's English is never sent to the engine
        found = lock([s for _, item, _ in items for s in item.machine_segments()])
        findings += found
        for k, item, text in items:
            result = finish_note(item, glossary, lock, engine_name=engine.name,
                                 describe=describe, missed=runner.missed,
                                 validate=options.validate)
            findings += result.findings
            files[k].segments = result.stats["segments"]
            count(result.stats)
            en_path, par_path = outputs[k]
            try:
                write_atomic(en_path, result.english)
                write_atomic(par_path, result.parallel)
            except OutputError as exc:
                files[k].error = str(exc)
                continue
            files[k].english, files[k].parallel = str(en_path), str(par_path)
            # the segment-level findings of this note (lock, engine fallback) stay with it
            mine = [f for f in found if f.file == item.display]
            manifest.record(text, en_path, result.english, result.parallel,
                            mine + result.findings, result.stats)

    stats = {
        "files": sum(1 for f in files if not f.error),
        "failed_files": sum(1 for f in files if f.error),
        "unchanged_files": unchanged,
        **{key: totals[key] for key in ("segments", "from_memory", "translated")},
        "engine_calls": runner.misses,
        **{key: totals[key] for key in ("kept_by_person", "terms_locked", "lock_fallbacks",
                                        "lock_failures", "copied")},
        "blocks": counts,
        "kept_edits": counts["edited"],
        "reviewed_blocks": counts["reviewed"],
        "stale_edits": counts["stale"],
        "orphaned_edits": totals["orphaned_edits"],
        "carried_from_english": sum(1 for f in findings if f.check == "english-carried"),
        "validated_blocks": totals["validated_blocks"],
        "invalid_blocks": totals["invalid_blocks"],
        "invalid_edits": sum(1 for f in findings if f.check == "edit-invalid"),
        "engine": describe,
        "model": runner.identity,
    }
    return TranslateReport(files, findings, stats, notices)
