"""The benchmark suite: what is measured against which goal, the table and the JSON.

Noise: the machine is shared, so every number is the median of repeated runs, and every
ratio is taken between runs made side by side (the two sides alternate within a repeat,
the ratio is computed per repeat, then the median of those ratios is reported). The
min–max of the repeats follows in brackets.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import fixtures
from .harness import (REPO, WorkerRun, machine, median, run_process, run_worker, spread,
                      worker_env)


@dataclass(frozen=True)
class Settings:
    name: str
    model_size: str               # fakemodel size ("base" = argos transformer-base shape)
    max_len: int                  # max_decoding_length, identical on both sides everywhere
    mt_paragraphs: int | None     # item 1: first N paragraphs of the notes (None: all)
    mt_repeats: int
    e2e_notes: tuple[str, ...] | None   # items 2–3: which notes (None: all)
    e2e_chars: int | None         # items 2–3: first N characters of each (None: whole)
    e2e_repeats: int
    cold_repeats: int
    warm_repeats: int             # warm re-runs after each cold run
    growth_factors: tuple[int, ...]
    growth_repeats: int           # also the repeats of the glossary-size comparison
    glossary_terms: int
    startup_runs: int
    # items 1–3 depend on the workload's size (batch sizes, fixed costs against model
    # time): their goals are judged on the full workload only
    judge_mt_goals: bool = True


# Item 1 takes the first 60 paragraphs (170 segments: more than the 128 that zhen hands the
# engine per call), and items 2–3 notes/sosp24.md (72 segments): with random weights every
# output runs to max_decoding_length and the noise breaks every placeholder, so each
# segment also costs a pieces pass; all 627 segments would take ~5 minutes per run.
FULL = Settings(
    name="full", model_size="base", max_len=32,
    mt_paragraphs=60, mt_repeats=5,
    e2e_notes=("sosp24.md",), e2e_chars=None, e2e_repeats=3, cold_repeats=3, warm_repeats=3,
    growth_factors=(1, 10, 100), growth_repeats=3, glossary_terms=5000,
    startup_runs=15)
# --quick: the same model and code paths on fewer segments, with fewer repeats (a CI smoke
# test, about 2 minutes here)
QUICK = Settings(
    name="quick", model_size="base", max_len=32,
    mt_paragraphs=5, mt_repeats=2,
    e2e_notes=("sosp24.md",), e2e_chars=1000, e2e_repeats=2, cold_repeats=2, warm_repeats=2,
    growth_factors=(1, 10), growth_repeats=2, glossary_terms=5000,
    startup_runs=10, judge_mt_goals=False)

MT_VARIANTS = (("batched", 4), ("batched", 1), ("loop", 1))


@dataclass
class Row:
    key: str
    measure: str
    value: str
    goal: str = ""
    met: bool | None = None       # None: informational, or not measured
    rss: str = ""                 # peak RSS of the processes behind the value
    data: dict = field(default_factory=dict)


def fmt_s(seconds: float) -> str:
    if seconds != seconds:                     # nan
        return "n/a"
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def fmt_rss(*runs: list[WorkerRun]) -> str:
    """Peak RSS (MB) of each side's processes: ``412`` or ``412 / 318``."""
    return " / ".join(f"{max(r.rss_mb for r in side):.0f}" for side in runs if side) + " MB"


class Suite:
    def __init__(self, settings: Settings, tmp: Path, profile: bool) -> None:
        self.s = settings
        self.tmp = tmp
        self.profile = profile
        self.rows: list[Row] = []
        self.profiles: dict[str, dict] = {}
        self.details: dict[str, object] = {}
        self.failures: list[str] = []
        self.skipped: list[str] = []
        self.started = time.perf_counter()
        self.env = worker_env(tmp / "packages", tmp / "pycache")

    # ------------------------------------------------------------ plumbing

    def log(self, message: str) -> None:
        print(f"[{time.perf_counter() - self.started:7.1f}s] {message}", file=sys.stderr, flush=True)

    def run(self, task: str, params: dict, label: str) -> WorkerRun:
        run = run_worker(task, params, self.env)
        if run.ok:
            shown = run.result.get("seconds")
            cores = f", {run.result['cpu_s'] / shown:.1f} cores" if shown else ""
            self.log(f"{label}: {fmt_s(shown) if shown is not None else 'done'}{cores}, "
                     f"peak RSS {run.rss_mb:.0f} MB")
        else:
            self.log(f"{label}: FAILED {run.result.get('error')}")
        return run

    def add(self, row: Row) -> Row:
        self.rows.append(row)
        return row

    def mt_goal(self, goal: str, ok: bool) -> tuple[str, bool | None]:
        """(goal, met) for a goal of items 1–3: not judged on a quick run's small workload."""
        return (goal, ok) if self.s.judge_mt_goals else (f"{goal} (full run)", None)

    def failed(self, key: str, measure: str, runs: list[WorkerRun], goal: str = "",
               optional: bool = False) -> bool:
        """Add a "not measured" row if any run failed; True if so. A failure fails the
        suite (exit 1) unless ``optional`` (the gloss engine, written elsewhere)."""
        bad = [r for r in runs if not r.ok]
        if not bad:
            return False
        error = bad[0].result.get("error", "failed")
        word = "skipped" if optional else "not measured"
        self.add(Row(key, measure, f"{word}: {error}", goal, None,
                     data={"error": error, "traceback": bad[0].result.get("traceback")}))
        (self.skipped if optional else self.failures).append(f"{measure}: {error}")
        return True

    # ------------------------------------------------------------ fixtures

    def setup(self) -> None:
        s = self.s
        build = self.run("build_model", {"dest": str(self.tmp / "packages"), "size": s.model_size,
                                         "notes": [str(p) for p in fixtures.source_notes()]},
                         f"build fake {s.model_size} model")
        if not build.ok:
            raise RuntimeError(f"cannot build the fake model: {build.result.get('error')}")
        self.add(Row("model_build", f"fake {s.model_size} model build (setup, not a goal)",
                     f"{fmt_s(build.result['seconds'])}, model.bin {build.result['model_bin_mb']} MB",
                     rss=fmt_rss([build]), data=build.result))
        self.projects = {f: fixtures.make_project(self.tmp / f"notes_x{f}", factor=f)
                         for f in s.growth_factors}
        self.e2e_notes = list(s.e2e_notes) if s.e2e_notes else None
        text, added = fixtures.synthetic_glossary(s.glossary_terms)
        self.big = fixtures.make_project(self.tmp / "big_glossary", glossary_text=text)
        self.details["synthetic_terms_added"] = added
        warm = self.run("warmup", {"project": str(self.projects[1])}, "warm-up (untimed)")
        self.details["warmup"] = warm.result

    def e2e_project(self, name: str) -> Path:
        return fixtures.make_project(self.tmp / name, notes=self.e2e_notes,
                                     max_chars=self.s.e2e_chars)

    # ------------------------------------------------------------ 1. batching

    def batching(self) -> None:
        s = self.s
        runs: dict[tuple, list[WorkerRun]] = {v: [] for v in MT_VARIANTS}
        project = self.projects[1]
        for rep in range(s.mt_repeats):
            k = rep % len(MT_VARIANTS)              # rotate which side goes first
            for variant, n in MT_VARIANTS[k:] + MT_VARIANTS[:k]:
                runs[(variant, n)].append(self.run(
                    "mt", {"project": str(project), "variant": variant, "n": n,
                           "max_len": s.max_len, "paragraphs": s.mt_paragraphs},
                    f"1. {variant} n={n} repeat {rep + 1}/{s.mt_repeats}"))
        if self.failed("mt", "batched vs argos loop", [r for rs in runs.values() for r in rs]):
            return
        first = runs[MT_VARIANTS[0]][0].result
        self.details["mt_workload"] = {k: first.get(k) for k in
                                       ("segments", "distinct_segments", "paragraphs", "source_tokens")}
        rate = {v: [r.result["segments_per_s"] for r in rs] for v, rs in runs.items()}
        what = (f"{first['segments']} segments in {first['paragraphs']} paragraphs, "
                f"beam 4, max_decoding_length {s.max_len}")
        labels = {("batched", 4): "zhen batched, num_hypotheses=4 (what zhen asks)",
                  ("batched", 1): "zhen batched, num_hypotheses=1",
                  ("loop", 1): "argos per-paragraph loop, num_hypotheses=1"}
        for (variant, n), label in labels.items():
            r = rate[(variant, n)]
            # cores kept busy: CTranslate2 uses all cores (intra_threads 0) only when the
            # batch is big enough and no other process holds a core
            cores = [x.result["cpu_s"] / x.result["seconds"] for x in runs[(variant, n)]]
            self.add(Row(f"mt_{variant}_n{n}", f"1. {label}",
                         f"{median(r):.2f} seg/s{spread(r)}, {median(cores):.1f} cores busy",
                         rss=fmt_rss(runs[(variant, n)]),
                         data={"segments_per_s": r, "cores_busy": cores, "workload": what}))
        for n in (1, 4):
            ratios = [b / l for b, l in zip(rate[("batched", n)], rate[("loop", 1)])]
            m = median(ratios)
            self.add(Row(f"mt_ratio_n{n}", f"1. batched (n={n}) / argos loop, same segments",
                         f"{m:.2f}×{spread(ratios)}", *self.mt_goal("≥ 3.5×", m >= 3.5),
                         fmt_rss(runs[("batched", n)], runs[("loop", 1)]), {"ratios": ratios}))

    # ------------------------------------------------------------ 2. overhead

    def overhead(self) -> None:
        s = self.s
        project = self.e2e_project("e2e")
        runs = [self.run("translate", {"project": str(project), "engine": "argos",
                                       "use_memory": False, "max_len": s.max_len,
                                       "instrument": True},
                         f"2. translate_paths argos, no memory, repeat {i + 1}/{s.e2e_repeats}")
                for i in range(s.e2e_repeats)]
        if self.failed("overhead", "zhen overhead over CTranslate2", runs, "≤ 10%"):
            return
        breakdowns = [breakdown(r.result) for r in runs]
        totals = [b["total"] for b in breakdowns]
        ct2 = [b["CTranslate2 (translate_tokens)"] for b in breakdowns]
        over = [t / c - 1 for t, c in zip(totals, ct2)]
        over_noload = [(b["total"] - b["model load"]) / b["CTranslate2 (translate_tokens)"] - 1
                       for b in breakdowns]
        stats = runs[0].result["stats"]
        calls = runs[0].result["calls"]
        passes = ", ".join(f"{calls.get(f'ct2 segments[n={n}]', 0)} inputs at n={n}" for n in (4, 1))
        self.details["overhead_breakdown_median_s"] = {
            k: median([b[k] for b in breakdowns]) for k in breakdowns[0]}
        self.details["overhead_stats"] = {**stats, "engine passes": passes}
        self.add(Row("e2e_time", "2. translate_paths (argos, no memory), end to end",
                     f"{fmt_s(median(totals))}{spread(totals, fmt_s)}; CT2 {fmt_s(median(ct2))}",
                     rss=fmt_rss(runs), data={"total_s": totals, "ct2_s": ct2, "passes": passes}))
        m = median(over)
        self.add(Row("overhead", "2. zhen overhead over CTranslate2 (total/CT2 − 1)",
                     f"+{m * 100:.1f}%{spread([o * 100 for o in over], '{:.1f}')}",
                     *self.mt_goal("≤ 10%", m <= 0.10), fmt_rss(runs), {"overhead": over}))
        self.add(Row("overhead_noload", "2. same, model load excluded (info)",
                     f"+{median(over_noload) * 100:.1f}%", rss=fmt_rss(runs),
                     data={"overhead": over_noload}))

    # ------------------------------------------------------------ 3. memory

    def memory(self) -> None:
        s = self.s
        cold, warm, ratios, wall_ratios = [], [], [], []
        for rep in range(s.cold_repeats):
            project = self.e2e_project(f"memory_{rep}")      # fresh: empty .zhen/memory.sqlite
            params = {"project": str(project), "engine": "argos", "use_memory": True,
                      "max_len": s.max_len}
            c = self.run("translate", params, f"3. cold run {rep + 1}/{s.cold_repeats}")
            ws = [self.run("translate", params, f"3. warm re-run {rep + 1}.{i + 1}")
                  for i in range(s.warm_repeats)]
            cold.append(c)
            warm += ws
            if c.ok and all(w.ok for w in ws):
                ratios.append(c.result["seconds"] / median([w.result["seconds"] for w in ws]))
                wall_ratios.append(c.wall_s / median([w.wall_s for w in ws]))
        self.warm_project = project
        if self.failed("memory", "warm re-run vs cold run", cold + warm, "≥ 50×"):
            return
        stats = warm[-1].result["stats"]
        ct = [r.result["seconds"] for r in cold]
        wt = [r.result["seconds"] for r in warm]
        self.add(Row("cold", "3. cold run (memory on, empty)", f"{fmt_s(median(ct))}{spread(ct, fmt_s)}",
                     rss=fmt_rss(cold), data={"seconds": ct}))
        self.add(Row("warm", "3. warm re-run (all from memory)",
                     f"{fmt_s(median(wt))}{spread(wt, fmt_s)}; {stats['from_memory']} from memory, "
                     f"{stats['translated']} translated", rss=fmt_rss(warm), data={"seconds": wt}))
        m = median(ratios)
        self.add(Row("warm_ratio", "3. cold / warm", f"{m:.0f}×{spread(ratios, '{:.0f}')}",
                     *self.mt_goal("≥ 50×", m >= 50), fmt_rss(cold, warm), {"ratios": ratios}))
        cw, ww = median([r.wall_s for r in cold]), median([r.wall_s for r in warm])
        self.add(Row("warm_ratio_wall", "3. cold / warm, whole processes with start-up (info)",
                     f"{fmt_s(cw)} vs {fmt_s(ww)} = {median(wall_ratios):.0f}×",
                     rss=fmt_rss(cold, warm), data={"ratios": wall_ratios}))

    # ------------------------------------------------------------ 4. growth

    def _workload(self, what: str, project: Path, label: str) -> WorkerRun:
        if what == "gloss":
            return self.run("translate", {"project": str(project), "engine": "gloss",
                                          "use_memory": False}, label)
        return self.run(what, {"project": str(project)}, label)

    def scaling(self) -> None:
        """Notes ×1/×10/×100 and the 5,000-term glossary, in one loop: in every repeat each
        workload runs on every project (order rotated), so each ratio pairs two runs of the
        same repeat, and the ×1 runs serve as the baseline of both comparisons."""
        s = self.s
        projects = {f"x{f}": self.projects[f] for f in s.growth_factors}
        projects["big"] = self.big
        runs: dict[tuple[str, str], list[WorkerRun]] = {}
        for rep in range(s.growth_repeats):
            for w in ("check", "gloss", "plan"):
                names = list(projects) if w != "plan" else ["x1", "big"]
                k = rep % len(names)
                for name in names[k:] + names[:k]:
                    runs.setdefault((w, name), []).append(self._workload(
                        w, projects[name], f"4. {w} {name} repeat {rep + 1}/{s.growth_repeats}"))
        self._growth_rows(runs)
        self._glossary_rows(runs)

    def _growth_rows(self, runs) -> None:
        s = self.s
        for w, title in (("check", "zhen glossary check"), ("gloss", "translate --engine gloss")):
            if self.failed(f"growth_{w}", f"4. {title}, notes ×N",
                           [r for f in s.growth_factors for r in runs[(w, f"x{f}")]],
                           optional=w == "gloss"):
                continue
            base = [r.result["seconds"] for r in runs[(w, "x1")]]
            for f in s.growth_factors:
                t = [r.result["seconds"] for r in runs[(w, f"x{f}")]]
                if f == 1:
                    self.add(Row(f"growth_{w}_x1", f"4. {title}, notes ×1",
                                 f"{fmt_s(median(t))}{spread(t, fmt_s)}", rss=fmt_rss(runs[(w, 'x1')]),
                                 data={"seconds": t}))
                    continue
                ratios = [a / b for a, b in zip(t, base)]
                m = median(ratios)
                limit = 1.1 * f
                self.add(Row(f"growth_{w}_x{f}", f"4. {title}, notes ×{f}",
                             f"{fmt_s(median(t))} = {m:.1f}× the ×1 time", f"≤ {limit:g}×",
                             m <= limit, fmt_rss(runs[(w, f"x{f}")]), {"seconds": t, "ratios": ratios}))

    def _glossary_rows(self, runs) -> None:
        s = self.s
        titles = {"check": "zhen glossary check", "plan": "translation planning (parse + segment + mask)",
                  "gloss": "translate --engine gloss"}
        for w, title in titles.items():
            shipped = s.glossary_terms - self.details["synthetic_terms_added"]
            measure = f"4. {title}: {s.glossary_terms:,} vs {shipped} terms"
            small, big = runs[(w, "x1")], runs[(w, "big")]
            if self.failed(f"glossary_{w}", measure, small + big, "≤ 1.5×", optional=w == "gloss"):
                continue
            ts = [r.result["seconds"] for r in small]
            tb = [r.result["seconds"] for r in big]
            ratios = [b / a for a, b in zip(ts, tb)]
            m = median(ratios)
            data = {"small_s": ts, "big_s": tb, "ratios": ratios}
            if w == "check":       # the big glossary must add no error or warning
                data["summary_small"] = small[0].result["summary"]
                data["summary_big"] = big[0].result["summary"]
            self.add(Row(f"glossary_{w}", measure,
                         f"{fmt_s(median(tb))} vs {fmt_s(median(ts))} = {m:.2f}×{spread(ratios)}",
                         "≤ 1.5×", m <= 1.5, fmt_rss(big, small), data))
            if w == "plan":       # its two parts, to show which one grows with the glossary
                for part, label in (("load_s", "of which glossary load (strict)"),
                                    ("plan_s", "of which parse + segment + mask")):
                    ps = [r.result[part] for r in small]
                    pb = [r.result[part] for r in big]
                    pr = [b / a for a, b in zip(ps, pb)]
                    self.add(Row(f"glossary_plan_{part[:-2]}", f"4.   {label} (info)",
                                 f"{fmt_s(median(pb))} vs {fmt_s(median(ps))} = {median(pr):.2f}×",
                                 data={"small_s": ps, "big_s": pb, "ratios": pr}))

    # ------------------------------------------------------------ 5. start-up

    def startup(self) -> None:
        s = self.s
        python = sys.executable
        script = Path(python).parent / "zhen"
        commands = {
            "zhen": [str(script), "--help"] if script.exists() else
                    [python, "-c", "from zhenglossary.cli import main; main()", "--help"],
            "pass": [python, "-c", "pass"],
            # the floor for any typer CLI: what typer's own import costs
            "typer": [python, "-c", "import typer"],
        }
        for argv in list(commands.values()) * 2:     # warm-up: bytecode and page cache
            run_process(argv, env=self.env)
        runs: dict[str, list] = {name: [] for name in commands}
        names = list(commands)
        for i in range(s.startup_runs):
            for name in names[i % 3:] + names[:i % 3]:  # rotate the order
                runs[name].append(run_process(commands[name], env=self.env))
        bad = [r for rs in runs.values() for r in rs if r.returncode]
        if bad:
            self.add(Row("startup", "5. `zhen --help` vs `python -c pass`",
                         f"not measured: {bad[0].stderr.strip()[-200:]}", "≤ 4×"))
            self.failures.append("start-up")
            return
        t = {name: [r.wall_s for r in rs] for name, rs in runs.items()}
        rss = {name: max(r.rss_mb for r in rs) for name, rs in runs.items()}
        self.log(f"5. start-up: zhen --help {fmt_s(median(t['zhen']))}, python -c pass "
                 f"{fmt_s(median(t['pass']))}, import typer {fmt_s(median(t['typer']))}")
        for name, label, goal in (("zhen", "5. `zhen --help` vs `python -c pass`", 4.0),
                                  ("typer", "5. `python -c 'import typer'` vs `python -c pass` (info: the floor)", None)):
            ratios = [a / b for a, b in zip(t[name], t["pass"])]
            m = median(ratios)
            self.add(Row(f"startup{'' if name == 'zhen' else '_typer'}", label,
                         f"{fmt_s(median(t[name]))} vs {fmt_s(median(t['pass']))} = {m:.1f}×",
                         f"≤ {goal:g}×" if goal else "", (m <= goal) if goal else None,
                         f"{rss[name]:.0f} / {rss['pass']:.0f} MB",
                         {f"{name}_s": t[name], "python_s": t["pass"], "ratios": ratios,
                          "command": commands[name]}))
        imports = self.run("imports", {}, "5. heavy modules")
        if self.failed("imports", "5. heavy modules imported by `import zhenglossary.cli`", [imports]):
            return
        after = imports.result["after_import"]
        self.add(Row("imports", "5. heavy modules imported by `import zhenglossary.cli`",
                     ", ".join(after) or "none", "none", not after, fmt_rss([imports]),
                     imports.result))
        self.add(Row("imports_help", "5. heavy modules imported by `zhen --help` (info)",
                     ", ".join(imports.result["after_help"]) or "none", rss=fmt_rss([imports]),
                     data=imports.result))
        self.profiles["startup"] = import_times(python, self.env)

    # ------------------------------------------------------------ profiles

    def profile_misses(self) -> None:
        """cProfile the slow side of every missed goal (one extra run each)."""
        missed = {r.key for r in self.rows if r.met is False}
        s = self.s
        jobs = []
        if missed & {"mt_ratio_n1", "mt_ratio_n4"}:
            for variant, n in (("batched", 1), ("loop", 1)):
                jobs.append((f"mt_{variant}", "mt", {
                    "project": str(self.projects[1]), "variant": variant, "n": n,
                    "max_len": s.max_len, "paragraphs": s.mt_paragraphs}))
        if "overhead" in missed:
            jobs.append(("overhead", "translate", {
                "project": str(self.e2e_project("e2e_profile")), "engine": "argos",
                "use_memory": False, "max_len": s.max_len}))
        if "warm_ratio" in missed:
            jobs.append(("warm_ratio", "translate", {
                "project": str(self.warm_project), "engine": "argos", "use_memory": True,
                "max_len": s.max_len}))
        for w in ("check", "gloss"):
            worst = [f for f in s.growth_factors if f"growth_{w}_x{f}" in missed]
            if worst:
                jobs.append((f"growth_{w}_x{max(worst)}", w if w != "gloss" else "translate",
                             self._params(w, self.projects[max(worst)])))
        for w in ("check", "plan", "gloss"):
            if f"glossary_{w}" in missed:
                jobs.append((f"glossary_{w}", w if w != "gloss" else "translate",
                             self._params(w, self.big)))
        for key, task, params in jobs:
            run = self.run(task, {**params, "profile": True}, f"profile for {key}")
            if run.ok:
                self.profiles[key] = run.result["profile"]

    @staticmethod
    def _params(what: str, project: Path) -> dict:
        if what == "gloss":
            return {"project": str(project), "engine": "gloss", "use_memory": False}
        return {"project": str(project)}


# ---------------------------------------------------------------- helpers


def breakdown(result: dict) -> dict[str, float]:
    """Where an instrumented ``translate_paths`` run spent its time (seconds)."""
    from .worker import PHASES

    clock = result["clock"]
    get = lambda name: clock.get(name, 0.0)          # noqa: E731
    ct2 = sum(v for k, v in clock.items() if k.startswith("ct2["))
    load = get("engine.load")
    out = {"total": result["seconds"], "CTranslate2 (translate_tokens)": ct2, "model load": load,
           "sentencepiece encode": get("engine.tokenize") - load,
           "sentencepiece decode": get("engine.decode"),
           "engine batching (sort, chunks, outputs)": get("engine.translate") - get("engine.tokenize")
           - ct2 - get("engine.decode")}
    for phase, names in PHASES.items():
        out[phase] = sum(get(n) for n in names)
    out["memory (keys, get/put)"] += get("memory_get") + get("memory_put")
    out["other (runner, stats, glue)"] = out["total"] - sum(v for k, v in out.items() if k != "total")
    for n in (4, 1):
        out[f"  of which CT2 pass n={n}"] = get(f"ct2[n={n}]")
    return out


def import_times(python: str, env: dict) -> dict:
    """``python -X importtime -c 'import zhenglossary.cli'``: what the CLI module imports
    directly, slowest first (by cumulative time), and the slowest modules by own time."""
    import subprocess

    proc = subprocess.run([python, "-X", "importtime", "-c", "import zhenglossary.cli"],
                          env=env, capture_output=True, text=True)
    rows = []
    for line in proc.stderr.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \| (\s*)(\S+)", line)
        if m:
            rows.append({"function": f"import {m.group(4)}", "calls": 1,
                         "own_s": int(m.group(1)) / 1e6, "cumulative_s": int(m.group(2)) / 1e6,
                         "depth": len(m.group(3)) // 2})
    total = next((r["cumulative_s"] for r in rows if r["function"] == "import zhenglossary.cli"), 0.0)
    return {"total_s": total,
            "by_cumulative": sorted((r for r in rows if r["depth"] == 1),
                                    key=lambda r: -r["cumulative_s"])[:20],
            "by_own_time": sorted(rows, key=lambda r: -r["own_s"])[:20]}


# ---------------------------------------------------------------- output


def table(rows: list[Row]) -> str:
    head = ("measure", "value", "goal", "met?", "peak RSS")
    body = [(r.measure, r.value, r.goal or "–",
             {True: "yes", False: "NO", None: "–"}[r.met], r.rss or "–") for r in rows]
    widths = [max(len(x[i]) for x in [head, *body]) for i in range(len(head))]
    line = lambda cells: " | ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()  # noqa: E731
    return "\n".join([line(head), "-+-".join("-" * w for w in widths), *map(line, body)])


def render(suite: Suite, info: dict, runtime: float) -> str:
    out = [table(suite.rows), ""]
    out.append("machine: {arch}, {cores} cores, {cpu}; Python {python}, ctranslate2 {ctranslate2}, "
               "sentencepiece {sentencepiece}; load average {loadavg_at_start} at start, "
               "{loadavg_at_end} at end".format(**info))
    mt = suite.details.get("mt_workload")
    if mt:
        out.append(f"1. workload: {mt['segments']} segments ({mt['distinct_segments']} distinct), "
                   f"{mt['paragraphs']} paragraphs, {mt['source_tokens']} source tokens; "
                   f"max_decoding_length {suite.s.max_len} both sides, beam 4 both sides")
    parts = suite.details.get("overhead_breakdown_median_s")
    if parts:
        stats = suite.details["overhead_stats"]
        notes = ", ".join(suite.s.e2e_notes or ["all notes"])
        cut = f" (first {suite.s.e2e_chars} characters)" if suite.s.e2e_chars else ""
        out.append(f"2.–3. workload: {notes}{cut}, {stats['segments']} segments; every one broke the "
                   f"lock ({stats['lock_fallbacks']} fallbacks), so CT2 ran {stats['engine passes']}")
        out.append("2. where the end-to-end time goes (median of runs):")
        total = parts["total"]
        for name, seconds in parts.items():
            out.append(f"     {name:<42} {seconds:8.3f} s  {100 * seconds / total:5.1f}%")
    if not suite.s.judge_mt_goals:
        out.append("quick run: items 1–3 run on a few segments, where batches are small and fixed "
                   "costs (model load, glossary load) weigh more, so their goals are judged only "
                   "by the full run")
    added = suite.details.get("synthetic_terms_added")
    if added is not None:
        out.append(f"4. large glossary: {suite.s.glossary_terms - added} shipped + {added} synthetic "
                   "terms (2–6 characters drawn from the notes' own characters, occurring nowhere "
                   "in the notes; English from technical words)")
    for key, prof in suite.profiles.items():
        if key == "startup":
            if any(r.key == "startup" and r.met is False for r in suite.rows):
                out.append(f"profile for startup (-X importtime: what `import zhenglossary.cli` "
                           f"imports directly; {prof['total_s']:.3f} s in all):")
                out += [_profile_line(r) for r in prof["by_cumulative"][:8]]
            continue
        out.append(f"profile for {key} (cProfile, which slows pure-Python code several-fold; "
                   f"{prof['total_s']:.2f} s profiled):")
        out.append("   zhen functions by cumulative time:")
        out += [_profile_line(r) for r in prof.get("zhen_by_cumulative", prof["by_cumulative"])[:12]]
        out.append("   any function by own time:")
        out += [_profile_line(r) for r in prof["by_own_time"][:6]]
    if suite.skipped:
        out.append("skipped (gloss engine unavailable or failing): " + "; ".join(suite.skipped))
    if suite.failures:
        out.append("not measured: " + "; ".join(suite.failures))
    met = [r for r in suite.rows if r.met is not None]
    out.append(f"goals met: {sum(r.met for r in met)}/{len(met)}; "
               f"{suite.s.name} run took {runtime:.0f} s")
    return "\n".join(out)


def _profile_line(r: dict) -> str:
    return (f"     {r['cumulative_s']:8.3f} s cum  {r['own_s']:8.3f} s own  "
            f"{r['calls']:>8}×  {r['function']}")


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m benchmarks",
                                     description="zhen's performance benchmarks (run from the repo root).")
    parser.add_argument("--quick", action="store_true",
                        help="fewer segments and repeats, same model and code paths (CI smoke test)")
    parser.add_argument("--json", type=Path, default=REPO / "benchmarks" / "results" / "latest.json",
                        help="where to write the JSON report (default: benchmarks/results/latest.json)")
    parser.add_argument("--profile", action=argparse.BooleanOptionalAction, default=None,
                        help="cProfile the slow side of each missed goal (default: on, off with --quick)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args(argv)

    settings = QUICK if args.quick else FULL
    profile = (not args.quick) if args.profile is None else args.profile
    info = machine()
    tmp = Path(tempfile.mkdtemp(prefix="zhen-bench-"))
    suite = Suite(settings, tmp, profile)
    suite.log(f"{settings.name} benchmark in {tmp}")
    try:
        suite.setup()
        suite.startup()
        suite.batching()
        suite.overhead()
        suite.memory()
        suite.scaling()
        if profile:
            suite.profile_misses()
    finally:
        if args.keep:
            suite.log(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    runtime = time.perf_counter() - suite.started
    info["loadavg_at_end"] = [round(x, 2) for x in os.getloadavg()]
    text = render(suite, info, runtime)
    print(text)

    report = {"benchmark": "zhen", "mode": settings.name, "runtime_s": round(runtime, 1),
              "machine": info, "settings": asdict(settings),
              "rows": [asdict(r) for r in suite.rows], "details": suite.details,
              "profiles": suite.profiles, "failures": suite.failures,
              "skipped": suite.skipped, "table": text}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(report, ensure_ascii=False, indent=2, default=str) + "\n", "utf-8")
    print(f"JSON: {args.json}")
    return 1 if suite.failures else 0
