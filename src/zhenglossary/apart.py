"""Work done in a child process, so that this process never holds its memory.

A first run builds its caches from big sources (CC-CEDICT, jieba's dictionary, lemminflect's
tables, pypinyin's phrases: tens of MB of Python objects each) and, for a word lemminflect's
tables lack, asks lemminflect's model (which imports numpy, about 20 MB). Done here, that
memory stays this process's RSS for the rest of the run even once let go; done in a child,
it is the child's and goes with it. :func:`call` runs one function in a child that exits
when it returns (``fileio.write_sqlite``'s fills); :class:`Helper` keeps a child that
answers calls of one function until it is closed (``lexicon``'s guesses).

The child is a new interpreter (``python -P -c``, this process's import path handed over):
not multiprocessing, whose ``spawn`` and ``forkserver`` run the parent's ``__main__`` again
in the child (a library user's script without a ``__main__`` guard would run twice) and whose
``fork`` copies a process with open databases and threads. The child's output is discarded
(the core never prints); it is always waited for (killed first if this process is
interrupted), so none is left behind, and it exits by itself when this process dies (its
stdin closes). Whatever goes wrong in it (no interpreter, killed, an exception, an answer
that is not one) is None to the caller, which then does the work here, as it always did.
"""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Callable, NamedTuple

# False: everything is done in this process (a test standing in for a source that a child
# would read for real)
ENABLED = True


class Run(NamedTuple):
    """A child this process ran: the function (``module:name``), its pid (reaped), its exit
    status, its peak RSS in KiB as the child measured it (after its start: not the pages of
    this process it began with; 0 where it could not say) and its wall time in seconds."""
    what: str
    pid: int
    status: int
    peak_kib: int
    seconds: float


RUNS: list[Run] = []

# what the child runs: its job (one line of JSON) read from stdin, this process's import
# path taken over, then :func:`_child`
_BOOT = ("import json, sys; job = json.loads(sys.stdin.buffer.readline()); "
         "sys.path[:] = job['path']; "
         f"from {__name__} import _child; _child(job)")


def name_of(fn: Callable) -> str | None:
    """``module:name`` of a module-level function a child can import, else None (a closure,
    a lambda, a method, a stand-in put in the module's place, ``__main__``'s own)."""
    module, name = getattr(fn, "__module__", None), getattr(fn, "__qualname__", "")
    if module in (None, "__main__") or getattr(sys.modules.get(module), name, None) is not fn:
        return None
    return f"{module}:{name}"


def _start(what: str, args, serve: bool):
    """The child's Popen with its job sent (stdin kept open), or None."""
    if not ENABLED or not sys.executable:
        return None
    root = str(Path(__file__).resolve().parent.parent)
    try:
        job = json.dumps({"path": [root] + [p for p in sys.path if p != root],
                          "what": what, "args": list(args), "serve": serve}) + "\n"
    except (TypeError, ValueError):
        return None
    try:
        proc = subprocess.Popen([sys.executable, "-P", "-c", _BOOT], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except (OSError, ValueError, subprocess.SubprocessError):
        return None
    try:
        proc.stdin.write(job.encode("utf-8"))
        proc.stdin.flush()
    except OSError:                          # it died before reading: its status says so
        pass
    return proc


def _finish(proc, what: str, start: float, *, kill: bool) -> Run:
    """``proc`` ended (killed first if ``kill``) and reaped; its :class:`Run`, recorded."""
    output = b""
    if kill:
        try:
            proc.kill()
        except OSError:
            pass
    else:
        try:
            output = proc.stdout.read()      # (it has exited, or will once stdin is closed)
        except (OSError, ValueError):
            pass
    for stream in (proc.stdin, proc.stdout):
        try:
            stream.close()
        except OSError:
            pass
    status = proc.wait()
    peak = 0
    for line in output.decode("utf-8", "replace").splitlines():
        if line.startswith("peak ") and line[5:].isdigit():
            peak = int(line[5:])
    run = Run(what, proc.pid, status, peak, time.perf_counter() - start)
    RUNS.append(run)
    return run


def call(fn: Callable, *args) -> Run | None:
    """``fn(*args)`` run in a child that exits when it returns (``args``: JSON values); its
    :class:`Run` when it returned, None when it could not be asked or failed."""
    what = name_of(fn)
    start = time.perf_counter()
    proc = None if what is None else _start(what, args, serve=False)
    if proc is None:
        return None
    finished = False
    try:
        proc.wait()
        finished = True
    finally:
        run = _finish(proc, what, start, kill=not finished)
    return run if run.status == 0 else None


class Helper:
    """A child answering calls of one function (``fn``: JSON values in, a JSON value out),
    started at the first :meth:`ask` and kept until :meth:`close` (or this process's exit).
    After a failure it is not asked again: :meth:`ask` answers None, and the caller does the
    work itself."""

    def __init__(self, fn: Callable) -> None:
        self._what = name_of(fn)
        self._proc = None
        self._start = 0.0
        self._failed = self._what is None
        self._lock = threading.Lock()

    def ask(self, *args):
        with self._lock:
            if self._failed:
                return None
            if self._proc is None:
                self._start = time.perf_counter()
                self._proc = _start(self._what, (), serve=True)
                if self._proc is None:
                    self._failed = True
                    return None
                _open.add(self)
            try:
                self._proc.stdin.write(json.dumps(list(args)).encode("utf-8") + b"\n")
                self._proc.stdin.flush()
                line = self._proc.stdout.readline()
                answer = json.loads(line)["answer"]
            except (OSError, ValueError, KeyError, TypeError):
                self._end(kill=True)
                self._failed = True
                return None
            return answer

    def close(self) -> None:
        """The child told to exit (its stdin closed) and reaped; a later :meth:`ask` starts
        another."""
        with self._lock:
            if self._proc is not None:
                self._end(kill=False)

    def _end(self, kill: bool) -> None:
        proc, self._proc = self._proc, None
        _open.discard(self)
        if proc is None:
            return
        if not kill:
            try:
                proc.stdin.close()           # its loop ends and it says its peak
                proc.wait(timeout=10)
            except (OSError, subprocess.TimeoutExpired):
                kill = True
        _finish(proc, self._what, self._start, kill=kill)


_open: set[Helper] = set()


def _close_all() -> None:
    for helper in list(_open):
        helper.close()


atexit.register(_close_all)


# --------------------------------------------------------------------------- in the child

def _peak_kib() -> int:
    """This process's peak RSS in KiB since it started (``VmHWM``; the rusage figure would
    count the parent's pages it began with, before its exec)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


def _child(job: dict) -> None:
    """In the child: ``job``'s function called once (exit status 0 when it returned) or, to
    serve, once per line of stdin (each answer one line of stdout) until stdin ends. Its
    peak RSS is its last line. The parent gone (stdin closed), it exits at once."""
    import importlib

    out = sys.stdout.buffer
    try:
        module, name = job["what"].split(":")
        fn = getattr(importlib.import_module(module), name)
        if job["serve"]:
            for line in sys.stdin.buffer:
                out.write(json.dumps({"answer": fn(*json.loads(line))}).encode("utf-8") + b"\n")
                out.flush()
        else:
            def orphaned() -> None:
                try:
                    sys.stdin.buffer.read()
                finally:
                    os._exit(3)

            threading.Thread(target=orphaned, daemon=True).start()
            fn(*job["args"])
        out.write(b"peak %d\n" % _peak_kib())
        out.flush()
    except BaseException:
        os._exit(1)
    os._exit(0)                   # (what it built not torn down object by object)
