"""Atomic writes: a temp file in the same directory, fsync, then rename over the target.

An interrupted run (Ctrl-C, kill -9, a full disk) leaves the previous file whole; the temp
file goes with any exception, and what a ``kill -9`` left is removed later
(:func:`remove_leftovers`).
"""

from __future__ import annotations

import os
import re
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator, NamedTuple

from .errors import OutputError

if TYPE_CHECKING:
    from .textutil import Pieces


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


def write_atomic(path: Path, text: "str | Pieces", newline: str = "", *,
                 through_links: bool = False) -> None:
    """Write ``text`` to ``path`` atomically (a ``textutil.Pieces``: a piece at a time,
    never joined). ``through_links``: when ``path`` is a symbolic
    link, write its target (atomically, beside the target) and keep the link, instead of
    replacing the link with a file.

    The temp file beside ``path`` (:data:`TEMP_NAME`: ``.NAME.PID.XXXXXXXX.tmp``) goes
    whatever stops the write — an error, Ctrl-C (``KeyboardInterrupt``), any exception;
    only ``kill -9`` or a power cut can leave one, and :func:`remove_leftovers` takes those
    away on a later run."""
    if through_links and path.is_symlink():
        path = Path(os.path.realpath(path))
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp",
                                   dir=folder)
    except OSError as exc:
        raise OutputError(f"cannot write in {folder}: {exc.strerror}; check that the directory "
                          "is writable or pass --out-dir", path=str(path)) from exc
    done = False
    try:
        with os.fdopen(fd, "wb") as handle:
            # mkstemp makes 0600 files; give the output the mode a plain open() would
            try:
                mode = path.stat().st_mode & 0o7777
            except OSError:
                mode = 0o666 & ~_umask()
            os.chmod(tmp, mode)
            # encoded a slice at a time: a long output is never copied whole as bytes
            for piece in (text,) if isinstance(text, str) else text:
                for start in range(0, len(piece), _SLICE):
                    handle.write(piece[start:start + _SLICE].encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
        done = True
    except OSError as exc:
        reason = "the disk is full" if exc.errno == 28 else exc.strerror
        raise OutputError(f"cannot write: {reason}; the previous version is unchanged",
                          path=str(path)) from exc
    finally:                  # nothing is written (any exception, Ctrl-C): the temp file goes
        if not done:
            try:
                os.unlink(tmp)
            except OSError:
                pass


# The temp files write_atomic makes: ``.`` + the target's name + ``.`` + the writer's pid +
# ``.`` + mkstemp's 8 random characters + ``.tmp``. Before the pid was in the name (zhen
# 0.x up to this change) it was ``.NAME.XXXXXXXX.tmp`` (``TEMP_NAME_OLD``).
TEMP_NAME = re.compile(r"^\.(?P<target>.+)\.(?P<pid>[0-9]+)\.[a-z0-9_]{8}\.tmp$")
TEMP_NAME_OLD = re.compile(r"^\.(?P<target>.+)\.[a-z0-9_]{8}\.tmp$")
# a temp file whose writer cannot be told (the old name, a pid that runs again: reused)
# is left alone until it is this old: no write takes that long between its start and its
# rename, so it is no other run's write in flight
LEFTOVER_AGE = 600.0


def _alive(pid: int) -> bool:
    """Is a process ``pid`` running here (unknown: yes)?"""
    if pid <= 0:
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError, ValueError):     # another user's (EPERM), or cannot ask
        return True
    return True


def remove_leftovers(folder: Path, owns: Callable[[str], bool], now: float | None = None
                     ) -> list[Path]:
    """Remove the temp files :func:`write_atomic` left in ``folder`` when a run was killed
    (``kill -9``, a power cut): only plain files directly in ``folder`` named by its
    pattern for a target ``owns(name)`` says is one of the caller's outputs (by its exact
    name), and only when the writer is gone — its pid no longer runs here, or (an old name,
    a reused pid) the file is older than ``LEFTOVER_AGE`` seconds. Never anything else.
    Returns what was removed; a file that cannot be removed (or a folder that cannot be
    listed) is left, silently."""
    import time

    now = time.time() if now is None else now
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        name = entry.name
        if not name.startswith(".") or not name.endswith(".tmp"):
            continue
        match = TEMP_NAME.match(name)
        old = None if match else TEMP_NAME_OLD.match(name)
        if (match or old) is None or not owns((match or old).group("target")):
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            age = now - entry.stat(follow_symlinks=False).st_mtime
        except OSError:
            continue
        gone = match is not None and not _alive(int(match.group("pid")))
        if not gone and age < LEFTOVER_AGE:
            continue
        try:
            os.unlink(entry.path)
        except OSError:
            continue
        removed.append(Path(entry.path))
    return removed


_SLICE = 1 << 20     # characters encoded at a time by write_atomic


@contextmanager
def cache_file(path: Path) -> Iterator[Path]:
    """A temporary path beside ``path`` to write a cache into; renamed over ``path`` when
    the block ends without an exception, removed otherwise (the exception propagates)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        os.replace(tmp, path)
        _BUILT[path.name] = path
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass


# The cache files this process has written, by name. A cache's name holds its source's
# version and its format, so one name is one content: a second cache folder in the same
# process (another ZHEN_HOME: the tests, a tool serving several projects) copies a built
# file (:func:`copy_built`) instead of building it again from its source.
_BUILT: dict[str, Path] = {}


def copy_built(path: Path) -> bool:
    """``path`` written as a copy of the file of its name this process built elsewhere;
    False when there is none (or it is gone, or the copy fails): the caller builds it."""
    import shutil

    source = _BUILT.get(path.name)
    if source is None or source == path or not source.is_file():
        return False
    try:
        with cache_file(path) as tmp:
            shutil.copyfile(source, tmp)
        return True
    except OSError:
        return False


def write_cache(path: Path, data: bytes) -> bool:
    """Atomically write a cache file; False (never an exception) when it cannot be written.

    A cache is only an optimisation, so unlike :func:`write_atomic` a failure is not an
    error: the caller carries on without it.
    """
    try:
        with cache_file(path) as tmp:
            tmp.write_bytes(data)
        return True
    except OSError:
        return False


def write_sqlite(path: Path, fill: Callable, stale: str | None = None, args: tuple = ()) -> bool:
    """Build the SQLite cache ``path``: ``fill(db, *args)`` creates its tables (a ``meta``
    table of text keys and values among them) and fills them in one transaction, in a
    temporary file beside ``path``; then ``meta`` gets ``complete = 1``, the readers' sign of
    a whole file, and the file is renamed into place, and the older versions beside it that
    match ``stale`` are removed. False where it cannot be written (the folder, the disk, a
    source that cannot be read): the caller then reads its source as it is.

    The fill runs in a child process (``apart.call``) when it can (a module-level function,
    ``args`` JSON values): what it reads and builds (tens of MB of Python objects, which
    this process would keep as RSS after letting them go) is never this process's. Where
    the child cannot be started or fails (killed, a non-zero exit, a file not whole) the
    fill runs here, as it always did."""
    import sqlite3
    import time

    from . import apart

    try:
        with cache_file(path) as tmp:     # (an unwritable folder fails here, before the read)
            start = time.perf_counter()
            what = apart.name_of(fill)
            run = None if what is None else apart.call(fill_file, str(tmp), what, list(args))
            if run is None or not _complete(tmp):
                run = None
                for left in (tmp, tmp.with_name(tmp.name + "-journal")):
                    left.unlink(missing_ok=True)     # what a failed child left, if anything
                _fill_sqlite(tmp, fill, args)
            BUILDS.append(Build(path.name, run, time.perf_counter() - start))
    except (OSError, sqlite3.Error, ValueError):
        return False
    if stale:
        remove_stale(path, stale)
    return True


class Build(NamedTuple):
    """A cache this process built: the file's name, the child that filled it (an
    ``apart.Run``; None: this process did) and the seconds the fill took (the child's start
    included)."""
    name: str
    child: object
    seconds: float


BUILDS: list[Build] = []


def fill_file(tmp: str, what: str, args: list) -> None:
    """In a child (``apart.call``): the fill ``what`` (``module:name``) run into ``tmp``."""
    import importlib

    module, name = what.split(":")
    _fill_sqlite(Path(tmp), getattr(importlib.import_module(module), name), args)


def _fill_sqlite(tmp: Path, fill: Callable, args) -> None:
    import sqlite3

    db = sqlite3.connect(tmp)
    try:
        with db:
            fill(db, *args)
            db.execute("INSERT INTO meta VALUES ('complete', '1')")
    finally:
        db.close()


def _complete(tmp: Path) -> bool:
    import sqlite3

    try:
        db = sqlite3.connect(f"file:{tmp}?mode=ro", uri=True)
        try:
            row = db.execute("SELECT value FROM meta WHERE key = 'complete'").fetchone()
        finally:
            db.close()
    except sqlite3.Error:
        return False
    return bool(row) and row[0] == "1"


# SQLite's page cache for each read-only cache connection, in KiB (its default is 2,000):
# the readers keep the answers they asked for, so a page is seldom read twice, and at the
# default the four caches of a gloss run held about 3 MiB of its RSS (10 MB note)
READ_CACHE_KIB = 256


def open_cache(path: Path):
    """A read-only connection to the SQLite cache ``path``, usable from any thread, with
    a small page cache (``READ_CACHE_KIB``); ``sqlite3.Error`` as ``sqlite3.connect``
    raises it."""
    import sqlite3

    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
    try:
        db.execute(f"PRAGMA cache_size = -{READ_CACHE_KIB}")
    except sqlite3.Error:
        db.close()
        raise
    return db


def remove_stale(path: Path, pattern: str) -> None:
    """Delete the other files beside ``path`` matching ``pattern`` (older versions of one
    cache); a file that cannot be removed is left."""
    for stale in path.parent.glob(pattern):
        if stale != path:
            try:
                stale.unlink()
            except OSError:
                pass


def prune(folder: Path, pattern: str, keep: int) -> None:
    """Keep the ``keep`` newest files of ``folder`` matching ``pattern`` (a cache with one
    entry per key); the older ones are deleted, and one that cannot be is left."""
    try:
        entries = sorted(folder.glob(pattern), key=lambda p: p.stat().st_mtime, reverse=True)
    except OSError:
        return
    for old in entries[keep:]:
        try:
            old.unlink()
        except OSError:
            pass


def add_sources(digest, files) -> None:
    """Feed the bytes of each source file in ``files`` (a module's ``__file__``) to
    ``digest`` (a hashlib object), or its name when it cannot be read: what a cache keyed
    by the rules that shaped its entries mixes into its key."""
    for name in files:
        try:
            digest.update(Path(name).read_bytes())
        except OSError:
            digest.update(str(name).encode())
