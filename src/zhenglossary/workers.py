"""``--jobs N``: notes translated (``zhen translate``) or checked (``zhen glossary check``,
:func:`check_in_processes`) in N processes. Translating, for engines that run in the
process and use one core (the gloss engine says so with ``processes = True``).

The main process reads each note, decides what is unchanged (the manifest), and hands the
rest out in chunks balanced by size (:class:`Pool`, started once per run: each worker sets
up its own glossary, engine and memory connection once — the memory is SQLite in WAL mode,
safe for several writers); a worker prepares, translates and finishes its notes and returns
their outputs' text; the main process writes them, records them, and adds up the counts. Each note's outputs depend on that note alone,
so they are byte-identical for any N. Engines that keep their own threads (argos'
CTranslate2) or a server's concurrency (llm) run in the main process.
"""

from __future__ import annotations

from pathlib import Path

MIN_CHARS_PER_JOB = 50_000        # less work than this per process: not worth starting one
MIN_BYTES_PER_CHECK_JOB = 1_000_000   # glossary check: notes and their outputs, per process
CHUNKS_PER_PROCESS = 4            # translate --jobs: chunks of each window per process


def _result(future, what: str):
    """A chunk's result; a process that died is a :class:`WorkerError`, not a traceback."""
    from concurrent.futures.process import BrokenProcessPool

    from .errors import WorkerError

    try:
        return future.result()
    except BrokenProcessPool:
        raise WorkerError(what) from None


def default_jobs() -> int:
    from .process import usable_cores

    return usable_cores()


def worth_it(jobs: int, engine, sizes: list[int]) -> int:
    """How many processes to use for notes of these sizes (1: none)."""
    from .engines.base import capabilities_of

    if jobs <= 1 or not capabilities_of(engine).processes:
        return 1
    return max(1, min(jobs, len(sizes), sum(sizes) // MIN_CHARS_PER_JOB))


def chunks(items: list[tuple[int, int]], n: int) -> list[list[int]]:
    """(index, size) items in ``n`` chunks of about equal total size, biggest first."""
    out: list[list[int]] = [[] for _ in range(n)]
    load = [0] * n
    for index, size in sorted(items, key=lambda item: -item[1]):
        k = load.index(min(load))
        out[k].append(index)
        load[k] += size
    return [sorted(chunk) for chunk in out if chunk]


_STATE: dict = {}             # in a worker: the run's glossary, engine, memory and runner


def _start(glossary_path: Path | None, options, root: Path) -> None:
    """A worker's set-up, once: its own glossary, engine and memory connection."""
    from .process import tune_gc

    tune_gc()
    from .engines import EngineContext, create_engine
    from .glossary import Glossary, load_glossary
    from .memory import Memory, NoMemory
    from .paths import state_dir
    from .runner import Runner

    glossary = load_glossary(glossary_path, strict=True) if glossary_path else \
        Glossary([], path="(no glossary)")
    engine, _ = create_engine(options.engine, EngineContext(glossary, options.threads, root,
                                                            options.engine_settings))
    memory = Memory(state_dir(root) / "memory.sqlite") if options.use_memory else NoMemory()
    _STATE.update(glossary=glossary, engine=engine, options=options,
                  runner=Runner(engine, memory, options.batch_size, None))


def _work(notes: list) -> tuple[list, int]:
    """In a worker: prepare, translate and finish ``notes`` = (index, NoteFile, outputs,
    text); (index, NoteResult or FileResult, text, segment findings) for each, and the
    engine calls this chunk made."""
    from .pipeline import FileResult, prepare, translate_prepared

    glossary, engine, options, runner = (_STATE[k] for k in ("glossary", "engine", "options",
                                                              "runner"))
    before = runner.misses
    n = 1 if engine.reliable_placeholders else max(1, options.num_hypotheses)
    items, out = [], []
    for index, note, paths, text in notes:
        item = prepare(note, text, paths, glossary, options)
        if isinstance(item, FileResult):
            out.append((index, item, text, []))
        else:
            items.append((index, item, text))
    out += translate_prepared(items, glossary, runner, n, engine, options.validate)
    return out, runner.misses - before


def executor(**kwargs):
    """A process pool of fresh interpreters (``spawn``: never forked from a process with
    open databases and threads). concurrent.futures is imported here, by a run that
    starts processes, not by every run."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(mp_context=multiprocessing.get_context("spawn"), **kwargs)


class Pool:
    """The run's worker processes, started once (fresh, never forked from a process with
    open databases and threads) and given chunks of notes as the windows come."""

    def __init__(self, jobs: int, glossary_path: Path | None, options, root: Path) -> None:
        self.jobs = jobs
        self._pool = executor(max_workers=jobs, initializer=_start,
                              initargs=(glossary_path, options, root))

    def run(self, notes: list, sizes: dict[int, int]):
        """(results, engine calls) of each chunk of ``notes``, as they finish:
        ``CHUNKS_PER_PROCESS`` chunks per process, balanced by size, so no process waits long for the last (a
        window ends when its last chunk does)."""
        by_index = {item[0]: item for item in notes}
        parts = chunks([(k, sizes[k]) for k in by_index], min(len(by_index), CHUNKS_PER_PROCESS * self.jobs))
        from concurrent.futures import as_completed

        futures = [self._pool.submit(_work, [by_index[k] for k in part]) for part in parts]
        for future in as_completed(futures):
            yield _result(future, "translating notes")

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


# ---------------------------------------------------------------- glossary check --jobs

_CHECK: dict = {}             # in a check worker: the run's glossary


def _start_check(glossary_path: Path) -> None:
    from .glossary import load_glossary
    from .process import tune_gc

    tune_gc()

    _CHECK["glossary"] = load_glossary(glossary_path)


def _check_work(files: list, layout, encoding: str | None, only):
    """In a worker: a shard of notes read and its per-note checks run."""
    from . import english
    from .checks.gather import check_shard

    shard = check_shard(files, _CHECK["glossary"], layout, encoding, only)
    english.save()
    return shard


def check_in_processes(files: list, glossary, glossary_path: Path, layout,
                       encoding: str | None, only, jobs: int):
    """``glossary check --jobs``: the notes ``files`` read and checked note by note in
    ``jobs`` processes — ``jobs - 1`` spawned ones and this one, which takes chunks from the
    end of the queue while no worker has started them (so it does not wait idle, and its
    share of the notes is neither sent nor pickled) — merged in the notes' order (a
    :class:`checks.gather.Gathered` whose findings are the per-note checks'); None when one
    process is better (one job, or too little to check for a second process to pay for its
    start). ``glossary`` is the main process's own, loaded from ``glossary_path``;
    ``layout``: where the notes' outputs are (a ``parallel.Layout``)."""
    from .checks.gather import check_shard, merge

    if jobs <= 1 or len(files) < 2:
        return None
    sizes = []
    for note in files:                  # what a shard reads: the note and its two outputs
        size = 0
        for path in (note.path, *layout.paths(note.path)):
            try:
                size += path.stat().st_size
            except OSError:
                pass
        sizes.append(size)
    jobs = max(1, min(jobs, len(files), sum(sizes) // MIN_BYTES_PER_CHECK_JOB))
    if jobs <= 1:
        return None
    # sixteen chunks a process: the last to finish leaves the others idle for less (x100,
    # 2 processes: 4 a process 43.5 s, 8: 39.9 s, 16: 32-35 s, 32: 35 s)
    parts = chunks(list(enumerate(sizes)), min(len(files), 16 * jobs))
    with executor(max_workers=jobs - 1, initializer=_start_check,
                  initargs=(glossary_path,)) as pool:
        futures = [pool.submit(_check_work, [files[k] for k in part], layout, encoding, only)
                   for part in parts]
        shards: list = [None] * len(parts)
        for k in reversed(range(len(parts))):   # this process, from the end of the queue
            if not futures[k].cancel():
                break             # a worker has it, and (first in, first out) all before it
            shards[k] = check_shard([files[i] for i in parts[k]], glossary, layout,
                                    encoding, only)
        for k, future in enumerate(futures):
            if shards[k] is None:
                shards[k] = _result(future, "checking notes")
    return merge(shards, [note.display for note in files])
