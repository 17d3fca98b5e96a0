"""Running measurements in subprocesses, with their peak RSS; medians; the machine.

Each measurement is one ``python -m benchmarks.worker TASK PARAMS OUT`` process. The
parent waits for it with ``os.wait4``, which returns that child's own ``ru_maxrss``
(``RUSAGE_CHILDREN`` would give the maximum over all children so far), so every row of
the report can name the peak memory of the processes behind it.
"""

from __future__ import annotations

import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Callable, Sequence

REPO = Path(__file__).resolve().parent.parent


@dataclass
class ProcessRun:
    returncode: int
    wall_s: float
    rss_mb: float                      # the child's peak resident set size
    cpu_s: float = 0.0                 # the child's user + system CPU time
    stderr: str = ""


@dataclass
class WorkerRun(ProcessRun):
    result: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and "error" not in self.result


def run_process(argv: Sequence[str], *, env: dict[str, str] | None = None,
                cwd: Path | None = None, timeout: float = 3600.0,
                capture_stderr: bool = True, stdout: Path | None = None) -> ProcessRun:
    """Run ``argv`` to completion (stdout discarded, or written to ``stdout``); wall time
    and peak RSS of the child."""
    with tempfile.TemporaryFile() as err, \
            (open(stdout, "wb") if stdout else open(os.devnull, "wb")) as out:
        start = time.perf_counter()
        proc = subprocess.Popen(list(argv), env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                                stdout=out,
                                stderr=err if capture_stderr else subprocess.DEVNULL)
        killer = threading.Timer(timeout, proc.kill)
        killer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            killer.cancel()
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)   # reaped here, not by Popen
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    # ru_maxrss is in KiB on Linux (bytes on macOS)
    rss_kb = usage.ru_maxrss / 1024 if sys.platform == "darwin" else usage.ru_maxrss
    return ProcessRun(proc.returncode, wall, rss_kb / 1024, usage.ru_utime + usage.ru_stime, stderr)


def run_worker(task: str, params: dict, env: dict[str, str], timeout: float = 3600.0) -> WorkerRun:
    """One measurement in a fresh interpreter; its JSON result, wall time and peak RSS."""
    with tempfile.TemporaryDirectory(prefix="zhen-bench-out-") as tmp:
        out = Path(tmp) / "result.json"
        run = run_process([sys.executable, "-m", "benchmarks.worker", task,
                           json.dumps(params), str(out)], env=env, cwd=REPO, timeout=timeout)
        try:
            result = json.loads(out.read_text("utf-8"))
        except (OSError, ValueError):
            tail = run.stderr.strip().splitlines()[-1:] or [f"exit code {run.returncode}"]
            result = {"error": f"worker {task} died: {tail[0]}"}
    return WorkerRun(run.returncode, run.wall_s, run.rss_mb, run.cpu_s, run.stderr, result)


def worker_env(packages_dir: Path, pycache: Path, cache: Path) -> dict[str, str]:
    """The environment of every measured process.

    * ``ARGOS_PACKAGES_DIR``: the fake model's temporary package folder;
    * ``ZHEN_HOME`` removed, so the translation memory lives in each project copy's
      ``.zhen/``; ``XDG_CACHE_HOME`` is the suite's own ``cache`` folder, so zhen's caches
      (parsed glossaries, jieba's tag index, CC-CEDICT) start empty and are filled by the
      untimed warm-up;
    * argostranslate's ``XDG_DATA_HOME``/``XDG_CONFIG_HOME`` in the temporary folder too;
    * bytecode is written (``PYTHONDONTWRITEBYTECODE`` removed), but to a private
      ``PYTHONPYCACHEPREFIX``, so start-up is measured with compiled modules, as users
      have them, without writing ``__pycache__`` into the source tree;
    * ``PYTHONPATH`` holds the repository root, so ``benchmarks.worker`` imports from
      any working directory, and ``tests/``, for the test support package (``support``,
      which holds the fake model builder and is not part of zhen's wheel).
    """
    env = dict(os.environ)
    for name in ("ZHEN_HOME", "PYTHONDONTWRITEBYTECODE", "PYTHONSTARTUP", "PYTHONPROFILEIMPORTTIME"):
        env.pop(name, None)
    env["ARGOS_PACKAGES_DIR"] = str(packages_dir)
    env["XDG_CACHE_HOME"] = str(cache)
    env["XDG_DATA_HOME"] = str(cache.parent / "xdg-data")
    env["XDG_CONFIG_HOME"] = str(cache.parent / "xdg-config")
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), str(REPO / "tests"),
                                                   os.environ.get("PYTHONPATH")) if p)
    return env


# ---------------------------------------------------------------- statistics


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def spread(values: Sequence[float], fmt: str | Callable[[float], str] = "{:.3g}") -> str:
    """`` (min–max)`` of repeated values, to show beside their median how noisy it is;
    empty for one value. ``fmt``: a format string or a function."""
    if len(values) < 2:
        return ""
    show = fmt if callable(fmt) else fmt.format
    return f" ({show(min(values))}–{show(max(values))})"


# ---------------------------------------------------------------- the machine


def _lscpu_model() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, timeout=10).stdout
    except (OSError, subprocess.SubprocessError):
        return "?"
    for line in out.splitlines():
        if line.startswith("Model name:"):
            return line.split(":", 1)[1].strip()
    return "?"


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


def machine() -> dict:
    return {
        "arch": platform.machine(),
        "cores": os.cpu_count(),
        "cpu": _lscpu_model(),
        "python": platform.python_version(),
        "ctranslate2": _version("ctranslate2"),
        "sentencepiece": _version("sentencepiece"),
        "argostranslate": _version("argos-translate-lt"),
        "platform": platform.platform(),
        "loadavg_at_start": [round(x, 2) for x in os.getloadavg()],
    }
