"""``zhen translate --jobs N``: notes translated in N processes, for engines that run in
the process and use one core (the gloss engine says so with ``processes = True``).

The main process reads each note and what lies beside it, decides what is unchanged (the
manifest), and hands the rest out in chunks balanced by size; a worker prepares, translates
(its own engine and memory connection: the memory is SQLite in WAL mode, safe for several
writers) and finishes its notes and returns their outputs' text; the main process writes
them, records them, and adds up the counts. Each note's outputs depend on that note alone,
so they are byte-identical for any N. Engines that keep their own threads (argos'
CTranslate2) or a server's concurrency (llm) run in the main process.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

MIN_CHARS_PER_JOB = 50_000        # less work than this per process: not worth starting one


def default_jobs() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


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


@dataclass
class Job:
    """What a worker needs: the notes of its chunk and how the run was asked for."""

    notes: list                     # (index, NoteFile, (x.en.md, x.zh-en.md), its text)
    glossary: Path | None
    options: object                 # translate.TranslateOptions
    root: Path


def run(job: Job):
    """In a worker: translate the chunk's notes; (index, NoteResult or FileResult, text,
    segment findings) for each, and the number of engine calls."""
    from .engines import EngineContext, create_engine
    from .glossary import Glossary, load_glossary
    from .memory import Memory, NoMemory
    from .paths import state_dir
    from .pipeline import FileResult, prepare, translate_prepared
    from .runner import Runner

    options = job.options
    glossary = load_glossary(job.glossary, strict=True) if job.glossary else \
        Glossary([], path="(no glossary)")
    engine, _ = create_engine(options.engine, EngineContext(glossary, options.threads, job.root,
                                                            options.engine_settings))
    memory = Memory(state_dir(job.root) / "memory.sqlite") if options.use_memory else NoMemory()
    try:
        runner = Runner(engine, memory, options.batch_size, None)
        n = 1 if engine.reliable_placeholders else max(1, options.num_hypotheses)
        items, out = [], []
        for index, note, paths, text in job.notes:
            item = prepare(note, text, paths, glossary, options)
            if isinstance(item, FileResult):
                out.append((index, item, text, []))
            else:
                items.append((index, item, text))
        out += translate_prepared(items, glossary, runner, n, engine, options.validate)
        return out, runner.misses
    finally:
        memory.close()


def pool_run(jobs: list[Job]):
    """Each job in its own process (started fresh, never forked from a process with open
    databases and threads), as they finish."""
    import multiprocessing

    with ProcessPoolExecutor(max_workers=len(jobs),
                             mp_context=multiprocessing.get_context("spawn")) as pool:
        for future in as_completed([pool.submit(run, job) for job in jobs]):
            yield future.result()
