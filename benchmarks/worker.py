"""One measurement per process: ``python -m benchmarks.worker TASK PARAMS_JSON OUT_JSON``.

The suite starts a fresh interpreter for every measurement so each has its own peak RSS
and nothing (loaded models, jieba tokenizers, memoised glosses) carries over. A task
prepares untimed (imports, model load, fixtures), times only the work, and writes a
JSON object to OUT_JSON: ``seconds`` plus task details, or ``error``. With
``"profile": true`` the timed region runs under cProfile and the result carries the top
functions by cumulative time instead of a meaningful ``seconds``.
"""

from __future__ import annotations

import contextlib
import cProfile
import io
import json
import os
import pstats
import sys
import time
import traceback
from collections import defaultdict
from pathlib import Path

from .fixtures import paragraph_segments

# Heavy third-party modules that `zhen --help` should not need.
HEAVY = ("jieba", "ctranslate2", "sentencepiece", "markdown_it", "numpy", "argostranslate", "yaml")

# ---------------------------------------------------------------- timing helpers


@contextlib.contextmanager
def timed(result: dict, profile: bool = False, top: int = 20):
    """Time the block into ``result["seconds"]`` (wall) and ``result["cpu_s"]`` (CPU time
    of all the process's threads: cpu_s / seconds is how many cores it kept busy); with
    ``profile``, also cProfile it."""
    profiler = cProfile.Profile() if profile else None
    start, cpu = time.perf_counter(), time.process_time()
    if profiler:
        profiler.enable()
    try:
        yield
    finally:
        if profiler:
            profiler.disable()
        result["seconds"] = time.perf_counter() - start
        result["cpu_s"] = time.process_time() - cpu
        if profiler:
            result["profile"] = top_functions(profiler, top)


def _where(filename: str, line: int, name: str) -> str:
    """``module-ish/path.py:line(function)``, trimmed to the part after site-packages/src."""
    for marker in ("site-packages/", "/src/", "/lib/python"):
        if marker in filename:
            filename = filename.split(marker, 1)[1]
            break
    return f"{filename}:{line}({name})" if line else name


def top_functions(profiler: cProfile.Profile, top: int) -> dict:
    """The profile's heaviest functions (harness excluded): by cumulative time, by own
    time, and zhen's own functions by cumulative time (the actionable ones, which deep
    library call chains would otherwise push off the list)."""
    stats = pstats.Stats(profiler).stats          # {(file, line, fn): (cc, nc, tt, ct, callers)}
    rows = [{"function": _where(*key), "calls": nc, "own_s": round(tt, 4), "cumulative_s": round(ct, 4)}
            for key, (cc, nc, tt, ct, _) in stats.items()
            if "benchmarks/" not in key[0] and "contextlib" not in key[0]
            and key[2] not in ("<method 'disable' of '_lsprof.Profiler' objects>",)]
    total = max((r["cumulative_s"] for r in rows), default=0.0)
    by_cumulative = sorted(rows, key=lambda r: -r["cumulative_s"])
    return {"total_s": round(total, 4),
            "by_cumulative": by_cumulative[:top],
            "zhen_by_cumulative": [r for r in by_cumulative
                                   if r["function"].startswith("zhenglossary/")][:top],
            "by_own_time": sorted(rows, key=lambda r: -r["own_s"])[:top]}


class Clock:
    """Inclusive time per name, accumulated by wrapping functions and methods."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)

    def wrap(self, name: str, fn):
        def timed_call(*args, **kwargs):
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds[name] += time.perf_counter() - start
                self.calls[name] += 1
        return timed_call

    def wrap_module(self, module, names) -> None:
        for name in names:
            setattr(module, name, self.wrap(name, getattr(module, name)))

    def wrap_method(self, cls, method: str, name: str) -> None:
        setattr(cls, method, self.wrap(name, getattr(cls, method)))


# ---------------------------------------------------------------- tasks


def task_build_model(p: dict) -> dict:
    """Build the fake argos package zip (``keeps_placeholders`` selects the mode)."""
    from support.fakemodel import build_package, load_corpus

    corpus = [line for note in p["notes"] for line in load_corpus(note)]
    result: dict = {}
    with timed(result):
        out = build_package(Path(p["dest"]), corpus, size=p["size"],
                            keeps_placeholders=p.get("keeps_placeholders", False))
    result["path"] = str(out)
    result["zip_mb"] = round(out.stat().st_size / 1e6, 1)
    result["corpus_lines"] = len(corpus)
    return result


def task_fixtures(p: dict) -> dict:
    """The suite's projects: a one-line note (fixed cost), the distinct notes ×N, and the
    shipped notes with the mined large glossary; with segment counts and term density."""
    from . import fixtures

    tmp = Path(p["tmp"])
    result: dict = {"projects": {}, "distinct_segments": {}}
    with timed(result):
        result["fixed"] = str(fixtures.make_project(tmp / "fixed", texts={"one.md": p["fixed_note"]}))
        for f in p["factors"]:
            project = fixtures.make_project(tmp / f"notes_x{f}", factor=f)
            result["projects"][str(f)] = str(project)
            segs = [t for para in fixtures.paragraph_segments(project) for t in para]
            result["distinct_segments"][f"x{f}"] = {
                "notes": len(list((project / "notes").glob("*.md"))),
                "segments": len(segs), "distinct": len(set(segs))}
        corpus = list(fixtures.distinct_notes(p["mine_factor"]).values())
        text, mined = fixtures.realistic_glossary(p["terms"], corpus)
        big = fixtures.make_project(tmp / "big_glossary", glossary_text=text)
        result["big"] = str(big)
        result["big_glossary"] = {**mined, "density_big": fixtures.term_density(big),
                                  "density_shipped": fixtures.term_density(Path(result["projects"]["1"]))}
    return result


def task_install(p: dict) -> dict:
    """Install a package zip the way argos users do: ``argostranslate.package.
    install_from_path`` into ``ARGOS_PACKAGES_DIR`` (set by the suite for this process)."""
    import argostranslate.package

    result: dict = {}
    with timed(result):
        argostranslate.package.install_from_path(Path(p["zip"]))
    result["installed"] = [str(pkg.package_path) for pkg in argostranslate.package.get_installed_packages()]
    return result


def task_warmup(p: dict) -> dict:
    """Untimed: fill the bytecode cache, jieba's cache, zhen's caches (glossary, tag index,
    CC-CEDICT), so no measured process pays a first-ever cost the others do not."""
    import ctranslate2  # noqa: F401
    import sentencepiece  # noqa: F401

    import zhenglossary.cli  # noqa: F401
    from zhenglossary.api import check_project
    from zhenglossary.engines.argos import ArgosEngine, find_zh_en
    from zhenglossary.translate import TranslateOptions, translate_paths

    result = {"gloss": "ok"}
    for project in p["projects"]:
        os.chdir(project)
        check_project([Path("notes")], Path("glossary.yaml"))
    os.chdir(p["projects"][0])
    ArgosEngine(find_zh_en(), max_decoding_length=4).translate(["预热"])
    try:
        translate_paths([Path("notes")], Path("glossary.yaml"),
                        TranslateOptions(engine="gloss", use_memory=False, out_dir=Path("out")))
    except Exception as exc:                     # reported by the gloss rows themselves
        result["gloss"] = f"{type(exc).__name__}: {exc}"
    return result


def real_argos(paragraphs: list[list[str]], max_len: int):
    """argostranslate's own ``translate()``, as installed, with two changes (both said in
    the report): MiniSBD is replaced by a local splitter that returns zhen's segments of
    each paragraph (so both sides translate the same sentences), and every
    ``translate_batch`` gets the ``max_decoding_length`` zhen's engine would use for it
    (``decoding_limit``: its length bound under the fixed cap ``max_len``, since random
    weights never emit ``</s>``). Threads come from argos' own settings
    (``ARGOS_INTER_THREADS`` / ``ARGOS_INTRA_THREADS``). Returns ``run(texts)``."""
    import types

    import ctranslate2
    import argostranslate.translate as at
    from argostranslate import sbd

    from zhenglossary.engines.argos import decoding_limit

    sentences = {"".join(para): para for para in paragraphs}

    class LocalSplitter(sbd.ISentenceBoundaryDetectionModel):
        def __init__(self, pkg) -> None:
            self.pkg = pkg

        def split_sentences(self, text: str) -> list[str]:
            return sentences.get(text) or [text]

    class LimitedTranslator:
        def __init__(self, **params) -> None:
            self._translator = ctranslate2.Translator(**params)

        def translate_batch(self, source, *args, **kwargs):
            # zhen's rule (its length bound under the fixed cap), for argos' batch
            kwargs.setdefault("max_decoding_length",
                              decoding_limit(max((len(t) for t in source), default=1), max_len))
            return self._translator.translate_batch(source, *args, **kwargs)

    at.MiniSBDSentencizer = LocalSplitter
    at.ctranslate2 = types.SimpleNamespace(Translator=LimitedTranslator)
    at.get_installed_languages.cache_clear()

    def run(texts: list[str]) -> list[str]:
        return [at.translate(text, "zh", "en") for text in texts]

    return run


def task_mt(p: dict) -> dict:
    """The same segments through zhen's batched engine or argostranslate's real
    ``translate()`` (one call per paragraph, as an argos user translates a document)."""
    paragraphs = paragraph_segments(Path(p["project"]))[:p.get("paragraphs") or None]
    texts = [t for para in paragraphs for t in para]
    result: dict = {"segments": len(texts), "paragraphs": len(paragraphs),
                    "distinct_segments": len(set(texts)), "threads": p["threads"]}
    if p["variant"] == "zhen":
        from zhenglossary.engines.argos import ArgosEngine, find_zh_en

        kwargs = {"max_batch_tokens": p["batch_tokens"]} if p.get("batch_tokens") else {}
        # greedy_tokens=0: the beam argos decodes with for every text, short ones too (zhen
        # asks one hypothesis greedily only of the piece-wise fallback's short pieces)
        engine = ArgosEngine(find_zh_en(), max_decoding_length=p["max_len"],
                             threads=p["threads"] or 0, greedy_tokens=0, **kwargs)
        engine.translate(paragraphs[0][:1])     # one short untimed call first, both sides
        result["source_tokens"] = sum(len(t) for t in engine.tokenize(texts))
        with timed(result, p.get("profile", False)):
            engine.translate(texts, num_hypotheses=1)
    else:
        if p["threads"]:
            os.environ["ARGOS_INTRA_THREADS"] = str(p["threads"])
        run = real_argos(paragraphs, p["max_len"])
        run(["".join(paragraphs[0][:1])])
        with timed(result, p.get("profile", False)):
            run(["".join(para) for para in paragraphs])
    result["segments_per_s"] = len(texts) / result["seconds"]
    return result


# names that translate_paths calls, by phase: looked up in zhenglossary.translate's
# namespace and in zhenglossary.pipeline's (where preparing and finishing a note live)
PHASES = {
    "glossary load": ["resolve_glossary", "load_glossary"],
    "collect + read notes": ["collect_notes", "read_note"],
    "parse (markdown-it + alignment)": ["parse_document"],
    "plan (segment + mask terms)": ["plan_document"],
    "lock check / restore / pieces": ["check_hypothesis", "restore", "split_pieces",
                                      "join_pieces", "forbidden_in", "copy_english"],
    "memory (keys, get/put)": ["memory_key"],     # + Memory.get_many/put_many
    "render": ["leaf_texts", "render_english", "render_parallel"],
    "write files": ["write_atomic"],
}


def task_translate(p: dict) -> dict:
    """Items 2–4: ``translate_paths`` over a project, end to end.

    engine "argos": the fake model with a fixed ``max_decoding_length``; with
    ``instrument``, every phase of the run and the engine's methods are timed by wrapping
    them (``translate_chunks`` is the pure CTranslate2 part). engine "gloss": as the CLI
    makes it (``--engine gloss``).
    """
    import zhenglossary.translate as zt
    from zhenglossary.engines.argos import ArgosEngine, find_zh_en
    from zhenglossary.memory import Memory, NoMemory

    os.chdir(p["project"])
    options = zt.TranslateOptions(engine=p["engine"], use_memory=p["use_memory"],
                                  out_dir=Path("out"))
    engine = None
    clock = Clock()
    if p["engine"] == "argos" and p.get("mode") == "copy":
        from support.fakemodel import placeholder_prefix_engine

        engine = placeholder_prefix_engine(find_zh_en(), max_decoding_length=p["max_len"],
                                           drop_every=p.get("drop_every", 0))
    elif p["engine"] == "argos":
        engine = ArgosEngine(find_zh_en(), max_decoding_length=p["max_len"])
    if p.get("instrument") and not p.get("profile"):
        import zhenglossary.pipeline as zp

        for names in PHASES.values():
            for module in (zt, zp):
                clock.wrap_module(module, [n for n in names if hasattr(module, n)])
        for cls in (Memory, NoMemory):
            clock.wrap_method(cls, "get_many", "memory_get")
            clock.wrap_method(cls, "put_many", "memory_put")
        if engine is not None:
            for method in ("load", "tokenize", "decode", "translate"):
                setattr(engine, method, clock.wrap(f"engine.{method}", getattr(engine, method)))
            raw = engine.translate_chunks
            import zhenglossary.runner as zr

            phases: list[str] = []             # the Runner.run calls in progress
            raw_run = zr.Runner.run

            def run(self, texts, n, phase, *args, **kwargs):
                phases.append(phase)
                try:
                    return raw_run(self, texts, n, phase, *args, **kwargs)
                finally:
                    phases.pop()
            zr.Runner.run = run

            def translate_chunks(chunks, num_hypotheses):   # CTranslate2 time, per pass
                # (the chunks of one engine call, decoded side by side by CTranslate2's
                # workers: their wall time from the first handed over to the last done)
                name = f"ct2[n={num_hypotheses}]"
                texts = sum(len(chunk) for chunk in chunks)
                clock.calls[f"ct2 segments[n={num_hypotheses}]"] += texts
                start, cpu = time.perf_counter(), time.process_time()
                try:
                    return clock.wrap(name, raw)(chunks, num_hypotheses)
                finally:     # the same seconds again, by the runner's phase (pieces or not),
                    # and the CPU time of CTranslate2's threads meanwhile (the GIL is released)
                    kind = "pieces" if phases and phases[-1] == zr.PIECES else "segments"
                    clock.seconds[f"ct2 by phase[{kind}]"] += time.perf_counter() - start
                    clock.seconds[f"ct2 cpu by phase[{kind}]"] += time.process_time() - cpu
                    clock.calls[f"ct2 by phase[{kind}]"] += len(chunks)
                    clock.calls[f"ct2 texts by phase[{kind}]"] += texts
            engine.translate_chunks = translate_chunks

    result: dict = {}
    with timed(result, p.get("profile", False)):
        report = zt.translate_paths([Path("notes")], Path("glossary.yaml"), options, engine=engine)
    result["stats"] = {k: v for k, v in report.stats.items() if isinstance(v, (int, str))}
    result["failed_files"] = [f.error for f in report.files if f.error][:3]
    if clock.seconds:
        result["clock"] = dict(clock.seconds)
        result["calls"] = dict(clock.calls)
    return result


def task_check(p: dict) -> dict:
    """Item 4: ``zhen glossary check`` through ``zhenglossary.api.check_project``."""
    from zhenglossary.api import check_project

    os.chdir(p["project"])
    result: dict = {}
    with timed(result, p.get("profile", False)):
        report = check_project([Path("notes")], Path("glossary.yaml"))
    result["summary"] = report.summary
    return result


def task_plan(p: dict) -> dict:
    """Item 4: translation planning, what ``translate_paths`` does before any engine call:
    load the glossary (strict), then parse, segment and mask every note (which builds the
    term matcher). ``seconds`` is both; ``load_s`` and ``plan_s`` are the two parts."""
    from zhenglossary.document import parse_document
    from zhenglossary.glossary import load_glossary
    from zhenglossary.locking import plan_document
    from zhenglossary.notes import collect_notes, read_note

    os.chdir(p["project"])
    result: dict = {}
    segments = 0
    with timed(result, p.get("profile", False)):
        start = time.perf_counter()
        glossary = load_glossary(Path("glossary.yaml"), strict=True)
        loaded = time.perf_counter()
        for note in collect_notes([Path("notes")]):
            for plan in plan_document(parse_document(read_note(note.path)), glossary, note.display):
                segments += sum(1 for top in plan.segments for _ in top.walk())
        result["load_s"] = loaded - start
        result["plan_s"] = time.perf_counter() - loaded
    result["segments"] = segments
    result["terms"] = len(glossary.terms)
    return result


def task_imports(p: dict) -> dict:
    """Item 5: which heavy modules ``import zhenglossary.cli`` and ``zhen --help`` load."""
    import zhenglossary.cli as cli

    result = {"after_import": [m for m in HEAVY if m in sys.modules]}
    sys.argv = ["zhen", "--help"]
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            cli.main()
        except SystemExit:
            pass
    result["after_help"] = [m for m in HEAVY if m in sys.modules]
    result["modules_loaded"] = len(sys.modules)
    return result


TASKS = {"build_model": task_build_model, "fixtures": task_fixtures, "install": task_install,
         "warmup": task_warmup,
         "mt": task_mt,
         "translate": task_translate, "check": task_check, "plan": task_plan,
         "imports": task_imports}


def main(argv: list[str]) -> int:
    task, params, out = argv[0], json.loads(argv[1]), Path(argv[2])
    try:
        result = TASKS[task](params)
        code = 0
    except Exception as exc:           # reported as the row's error, with the traceback
        result = {"error": f"{type(exc).__name__}: {exc}",
                  "traceback": traceback.format_exc(limit=8)}
        code = 1
    out.write_text(json.dumps(result, ensure_ascii=False, default=str), "utf-8")
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
