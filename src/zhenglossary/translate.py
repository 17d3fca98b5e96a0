"""``zhen translate``: notes in, ``x.en.md`` and ``x.zh-en.md`` out. No printing here.

Notes go through in windows (:func:`_windows`): read each note and what lies beside it,
prepare it (``pipeline.prepare_note``: parse, plan, carry over what a person did — a
person's English is never sent to the engine), look every machine segment of the window
up in the translation memory and translate the misses in large batches (the model loads
only if something misses), verify each segment's term lock, falling back to other
hypotheses and then to piece-wise translation (:func:`lock_segments`), then finish each
note (``pipeline.finish_note``: render, the output check) and write it atomically before
the next window is read. :func:`translate_note` is the same for one text, with no I/O.
:func:`dry_run` builds the requests an engine that can say (the llm engine) would send
first, batched as the runner batches them (``runner.batches``), and sends nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from .engines import EngineContext, create_engine
from .engines.base import Engine, TermSlot
from .errors import GlossaryNotFound, NoteReadError, OutputError, UsageError
from .fileio import remove_leftovers, write_atomic
from .findings import Finding
from .glossary import Glossary, load_glossary, resolve_glossary
from .manifest import Manifest, NoteState, run_key
from .memory import Memory, NoMemory
from .notes import NoteFile, collect_notes, is_generated, read_note
from .parallel import ORDER, Layout, ParallelFile, ParallelFileError
from .parallel.strays import find_strays
from .paths import state_dir
from .pipeline import (FileResult, NoteResult, Prepared, contexts_of, finish_note, prepare,
                       prepare_note, translate_prepared)
from .runner import Progress, Runner, batches, lock_segments
from .sections import sectioned


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
    jobs: int = 1                        # processes for engines that can run in several
    glossary_path: Path | None = None    # resolved once by translate_paths (for --jobs)
    root: Path = Path(".")               # the project root (for --jobs)
    adopt: dict = field(default_factory=dict)   # note path → the parallel.strays.Adoption
    #                                      whose state it takes (decided by translate_paths)


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
    contexts = contexts_of([item]) if runner.uses_context else None

    def lock(segments):
        return lock_segments(segments, glossary, runner, n, contexts)

    found = sectioned(item, glossary, runner, n) if item.sectioned else \
        lock(item.machine_segments())
    result = finish_note(item, glossary, lock, gloss=runner.capabilities.gloss,
                         describe=engine.describe(), missed=runner.missed, validate=validate)
    result.findings = found + result.findings
    result.english, result.parallel = str(result.english), str(result.parallel)   # (pieces)
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
        glossary, root, glossary_path = Glossary([], path="(no glossary)"), Path("."), None
        notices.append(NO_GLOSSARY_NOTICE)
    notes = collect_notes(paths)
    outputs, found, options = _plan(paths, notes, options, root)
    options = replace(options, glossary_path=glossary_path)              # for --jobs workers
    left = _remove_leftovers(outputs)
    if left:
        notices.append(f"removed {len(left)} temp file(s) an interrupted run of zhen left: "
                       + ", ".join(str(p) for p in left[:3]) + (", …" if len(left) > 3 else ""))
    if engine is None:
        context = EngineContext(glossary, options.threads, root, options.engine_settings)
        engine, engine_notices = create_engine(options.engine, context)
        notices += engine_notices
    memory = Memory(state_dir(root) / "memory.sqlite", notices) if options.use_memory else NoMemory()
    try:
        return _translate(notes, outputs, glossary, engine, memory, options, progress, notices,
                          found)
    finally:
        memory.close()


def _plan(paths: list[Path], notes: list[NoteFile], options: TranslateOptions, root: Path):
    """Before anything is loaded or written: each note's outputs (``_outputs``), the
    parallel files whose note is gone (``output-stray`` findings, said once for the run),
    and ``options`` with the project root and the strays new notes take the state of."""
    layout = Layout(options.out_dir, root)
    outputs = _outputs(notes, layout)
    strays = find_strays(layout, paths, [note.path for note in notes])
    adopt = _adoptions(notes, outputs, strays, options.encoding)
    taken_by = {a.parallel: notes[k].display for k, a in adopt.items()
                if not a.held or options.force}
    found = [s.finding(taken_by.get(str(s.parallel), "")) for s in strays]
    return outputs, found, replace(options, root=root, adopt={str(notes[k].path): a
                                                              for k, a in adopt.items()})


def _outputs(notes: list[NoteFile], layout: Layout) -> dict[int, tuple[Path, Path]]:
    """Each note's outputs; two notes that would write one file stop the run before anything
    is written (only notes outside the project can: under --out-dir they go by name)."""
    out, seen = {}, {}
    for k, note in enumerate(notes):
        paths = layout.paths(note.path)
        key = paths[0].resolve()
        if key in seen:
            raise UsageError(
                f"{seen[key]} and {note.display} would both be written to {paths[0]}: under "
                f"--out-dir a note outside the project ({layout.project}, the folder of "
                "glossary.yaml) goes by its name alone; translate each with its own --out-dir, "
                "or from a project that holds them")
        seen[key] = note.display
        out[k] = paths
    return out


def _adoptions(notes: list[NoteFile], outputs, strays, encoding: str | None) -> dict:
    """note index → the ``Adoption`` of the stray whose state it takes
    (``parallel.strays.adoptions``): read here, the strays' files (with what a person changed
    in their x.en.md taken in, as for any note) and the notes with no parallel file yet;
    a stray whose x.en.md cannot be carried is still matched by its parallel file, so the
    note that continues it stops on that (not translated afresh, its state left behind);
    a stray that cannot be read at all is taken by none."""
    from .document import parse_document
    from .parallel.prior import load_parallel, read_prior
    from .parallel.strays import Adoption, adoptions, shared_blocks

    if not strays:
        return {}
    files, held = {}, set()          # held: a stray whose x.en.md stops the note taking it
    for i, stray in enumerate(strays):
        try:
            parallel = read_prior(stray.english, stray.parallel).parallel
        except ParallelFileError:
            try:
                parallel = load_parallel(stray.parallel)
            except ParallelFileError:
                continue
            held.add(i)
        if parallel is not None:
            files[i] = [b.source_sha for b in parallel.blocks if not b.same]
    if not files:
        return {}
    new = {}
    for k, note in enumerate(notes):
        if outputs[k][1].exists() or is_generated(note.path):
            continue
        try:
            doc = parse_document(read_note(note.path, encoding))
        except NoteReadError:
            continue
        new[k] = [doc.leaf_hash(leaf) for leaf in doc.leaves]
    out = {}
    for k, i in adoptions(files, new).items():
        stray = strays[i]
        out[k] = Adoption(str(stray.parallel), str(stray.english or ""), stray.origin,
                          shared_blocks(files[i], new[k]), len(files[i]), held=i in held)
    return out


def _remove_leftovers(outputs: dict[int, tuple[Path, Path]]) -> list[Path]:
    """The temp files a killed run left for the outputs this run writes (zhen's own
    pattern, for exactly these outputs' names, in their folders: ``fileio.remove_leftovers``),
    removed."""
    names: dict[Path, set[str]] = {}
    for paths in outputs.values():
        for path in paths:
            names.setdefault(path.parent, set()).add(path.name)
    removed: list[Path] = []
    for folder, mine in names.items():
        removed += remove_leftovers(folder, mine.__contains__)
    return removed


def _load(note: NoteFile, paths, options: TranslateOptions, manifest: Manifest | None
          ) -> tuple[str, FileResult | NoteState | None]:
    """A note's text (I/O), and a FileResult when it cannot be translated, or the state the
    last run recorded when nothing of it changed since."""
    result = FileResult(note.display)
    if is_generated(note.path):
        result.error = f"{note.display} is a generated translation; translate its source note"
        return "", result
    try:
        text = read_note(note.path, options.encoding)
    except NoteReadError as exc:
        result.error = str(exc)
        return "", result
    if manifest is not None and not options.force:
        state = manifest.unchanged(text, *paths)
        if state is not None:
            return text, state
    return text, None


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


def _run_window(todo, notes, outputs, glossary, engine, runner, n, options, pools: dict):
    """The notes of a window that need work, in this process or in ``--jobs`` processes
    (``workers``, started once per run and kept in ``pools``): (index, NoteResult or
    FileResult, text, segment findings), and for each chunk a worker did (-1, its engine
    calls, "", [])."""
    from . import workers

    procs = workers.worth_it(options.jobs, engine, [len(text) for _, text in todo])
    if procs == 1 and "pool" not in pools:
        items = []
        for k, text in todo:
            item = prepare(notes[k], text, outputs[k], glossary, options)
            if isinstance(item, FileResult):
                yield k, item, text, []
            else:
                items.append((k, item, text))
        yield from translate_prepared(items, glossary, runner, n, engine, options.validate)
        return
    if "pool" not in pools:
        pools["pool"] = workers.Pool(procs, options.glossary_path, options, options.root)
    sizes = {k: len(text) for k, text in todo}
    for results, calls in pools["pool"].run([(k, notes[k], outputs[k], text)
                                             for k, text in todo], sizes):
        yield from results
        yield -1, calls, "", []


def _windowed(notes, outputs, glossary, engine, runner, n, options, manifest, files,
              findings, count, pools) -> tuple[int, int]:
    """Every window: what is unchanged said again, the rest translated, written and recorded
    as each note is done; (notes unchanged, engine calls made in worker processes)."""
    unchanged = engine_calls = 0
    for window in _windows(notes):
        todo: list[tuple[int, str]] = []
        for k in window:
            text, state = _load(notes[k], outputs[k], options, manifest)
            if isinstance(state, FileResult):
                files[k] = state
            elif isinstance(state, NoteState):           # nothing changed: said again
                unchanged += 1
                findings += state.found()
                count({**state.stats, "translated": 0,
                       "from_memory": state.stats.get("from_memory", 0)
                       + state.stats.get("translated", 0)})
                en_path, par_path = outputs[k]
                files[k] = FileResult(notes[k].display, str(en_path), str(par_path),
                                      state.stats.get("segments", 0), unchanged=True)
            else:
                todo.append((k, text))
        for k, result, text, found in _run_window(todo, notes, outputs, glossary, engine,
                                                  runner, n, options, pools):
            if isinstance(result, FileResult):
                files[k] = result
                continue
            if isinstance(result, int):                  # a worker's engine calls
                engine_calls += result
                continue
            findings += found + result.findings
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
            manifest.record(text, en_path, result.english, result.parallel,
                            found + result.findings, result.stats)

    return unchanged, engine_calls


def _translate(notes, outputs, glossary, engine, memory, options, progress, notices,
               found: list[Finding]) -> TranslateReport:
    files: list[FileResult] = [FileResult(note.display) for note in notes]
    findings: list[Finding] = list(found)           # of the run (outputs whose note is gone)
    n = 1 if engine.reliable_placeholders else max(1, options.num_hypotheses)
    runner = Runner(engine, memory, options.batch_size, progress)
    notices += getattr(engine, "notices", [])          # what resolving the engine found
    told = len(getattr(engine, "notices", []))
    describe = engine.describe()
    totals = {key: 0 for key in _SUMMED}
    counts = {str(s): 0 for s in ORDER}

    def count(stats: dict) -> None:
        for key in _SUMMED:
            totals[key] += stats.get(key, 0)
        for key, value in stats.get("blocks", {}).items():
            counts[key] = counts.get(key, 0) + value

    manifest = Manifest(memory, glossary, run_key(
        runner.identity, describe, {"n": n, "validate": options.validate,
                                    "gloss_banner": runner.capabilities.gloss}))
    pools: dict = {}
    try:
        stats = _windowed(notes, outputs, glossary, engine, runner, n, options, manifest, files,
                          findings, count, pools)
    finally:
        if "pool" in pools:
            pools["pool"].close()
    unchanged, engine_calls = stats
    notices += getattr(engine, "notices", [])[told:]   # what the engine found while working
    stats = {
        "files": sum(1 for f in files if not f.error),
        "failed_files": sum(1 for f in files if f.error),
        "unchanged_files": unchanged,
        **{key: totals[key] for key in ("segments", "from_memory", "translated")},
        "engine_calls": runner.misses + engine_calls,
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
    if runner.terms_in_prompt:
        # sentences the model translated in this run, by the rung that met the glossary
        stats["glossary_met"] = {rung: runner.via[rung]
                                 for rung in ("first", "retry", "masked", "fallback")}
    return TranslateReport(files, findings, stats, notices)


@dataclass
class DryRun:
    requests: list[dict]         # {"method", "url", "server", "assumed", "body"}, in order
    sentences: int
    notices: list[str]

    def to_json(self) -> dict:
        return {"requests": self.requests, "sentences": self.sentences, "notices": self.notices}


def dry_run(paths: list[Path], glossary_option: Path | None,
            options: TranslateOptions | None = None) -> DryRun:
    """The requests ``translate`` sends first for these notes — every sentence, as with an
    empty memory (a block a person wrote or reviewed is never sent) — built without
    contacting anything, for an engine that can say (``requests``: the llm engine)."""
    options = options or TranslateOptions()
    notices: list[str] = []
    try:
        glossary_path = resolve_glossary(glossary_option)
        glossary, root = load_glossary(glossary_path, strict=True), glossary_path.parent
    except GlossaryNotFound:
        if glossary_option is not None:
            raise
        glossary, root = Glossary([], path="(no glossary)"), Path(".")
        notices.append(NO_GLOSSARY_NOTICE)
    notes = collect_notes(paths)
    outputs, _, options = _plan(paths, notes, options, root)   # (what a new note takes: not sent)
    engine, engine_notices = create_engine(
        options.engine, EngineContext(glossary, options.threads, root, options.engine_settings))
    notices += engine_notices
    if not hasattr(engine, "requests"):
        raise UsageError(f"--dry-run shows the requests an engine sends to a model server "
                         f"(--engine llm); {engine.name} sends none")
    items = []
    for k, note in enumerate(notes):
        text, state = _load(note, outputs[k], options, None)     # no note skipped
        item = prepare(note, text, outputs[k], glossary, options) if state is None else state
        if isinstance(item, Prepared):
            item.planned(glossary)              # a big note too: every request at once
            items.append(item)
    contexts = contexts_of(items)
    units: dict[tuple, tuple] = {}               # as the runner sends them: each once
    for seg in (s for item in items for s in item.machine_segments() if s.needs_mt):
        legend = {k: TermSlot(slot.term, slot.raw) for k, slot in enumerate(seg.slots, 1)
                  if slot.kind == "term"}
        context = contexts.get(id(seg))
        key = (seg.masked, tuple((k, t.source, t.zh, t.en) for k, t in sorted(legend.items())),
               context.key() if context is not None else None)
        units.setdefault(key, (seg.masked, legend, context))
    keys = list(units)
    size = getattr(engine, "preferred_batch", None) or options.batch_size
    requests: list[dict] = []
    for call in batches(keys, {k: units[k][2] for k in keys}, size, True):
        requests += engine.requests([units[k][0] for k in call], [units[k][1] for k in call],
                                    [units[k][2] for k in call])
    return DryRun(requests, len(keys), notices)
