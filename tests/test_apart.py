"""Work done in a child process (``apart``): the caches a first run builds, filled by a
child, answer as the ones filled here; a child that cannot run, dies or writes nothing
leaves the fill to this process, silently; no child is left behind (reaped, or gone with
its parent)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from zhenglossary import apart, cedict, fileio, lexicon
from zhenglossary import pinyin


def _rows(path: Path) -> dict[str, list]:
    """Every row of every table of the SQLite file ``path``, sorted."""
    db = sqlite3.connect(path)
    try:
        tables = [t for (t,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: sorted(db.execute(f"SELECT * FROM {t}"), key=repr) for t in sorted(tables)}
    finally:
        db.close()


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)             # a zombie would still answer
    except ProcessLookupError:
        return True
    return False


def _running(pid: int) -> bool:
    """Alive and not a zombie (one that has exited, for its new parent to reap)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1][0] != "Z"
    except OSError:
        return False


def _fill_tiny(db, n: int) -> None:
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    db.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)")
    db.executemany("INSERT INTO t VALUES (?)", ((i,) for i in range(n)))


@pytest.mark.parametrize("build", ["pypinyin",
                                   pytest.param("cedict", marks=pytest.mark.slow)])  # (6 s)
def test_a_cache_filled_in_a_child_answers_as_one_filled_here(tmp_path, monkeypatch, build):
    import pypinyin

    source = Path(pypinyin.__file__).with_name("phrases_dict.json")
    files = {}
    for where in ("child", "here"):
        monkeypatch.setattr(apart, "ENABLED", where == "child")
        path = tmp_path / where / "cache.sqlite"
        if build == "pypinyin":
            assert fileio.write_sqlite(path, pinyin._fill_index, args=(str(source),))
        else:
            assert fileio.write_sqlite(path, cedict._fill_lookup)
        made = fileio.BUILDS[-1]
        assert made.name == path.name and (made.child is not None) == (where == "child")
        if made.child is not None:
            assert made.child.status == 0 and _gone(made.child.pid)
            assert 0 < made.child.peak_kib < 200 * 1024
        assert not list(path.parent.glob("*.tmp"))
        files[where] = path
    assert _rows(files["child"]) == _rows(files["here"])
    assert dict(_rows(files["child"])["meta"])["complete"] == "1"


@pytest.mark.parametrize("boot", [
    "import os, signal; os.kill(os.getpid(), signal.SIGKILL)",      # killed
    "raise SystemExit(2)",                                          # fails
    "import sys; sys.stdin.readline()",                             # writes nothing
    "import sys; print('noise'); print('noise', file=sys.stderr); raise SystemExit(1)",
    None,                                                           # no interpreter
])
def test_a_child_that_fails_leaves_the_fill_to_this_process(tmp_path, monkeypatch, capfd, boot):
    if boot is None:
        monkeypatch.setattr(sys, "executable", str(tmp_path / "no-python"))
    else:
        monkeypatch.setattr(apart, "_BOOT", boot)
    runs = len(apart.RUNS)
    path = tmp_path / "cache" / "tiny.sqlite"
    assert fileio.write_sqlite(path, _fill_tiny, args=(5,))
    assert fileio.BUILDS[-1].child is None                          # filled here
    assert _rows(path)["t"] == [(i,) for i in range(5)]
    assert not list(path.parent.glob("*.tmp"))
    for run in apart.RUNS[runs:]:                                   # each child reaped
        assert run.status != 0 or boot.endswith("readline()")
        assert _gone(run.pid)
    assert len(apart.RUNS) - runs == (0 if boot is None else 1)
    out, err = capfd.readouterr()
    assert out == "" and err == ""                                  # the core never prints


def _fill_then_die(db, n: int) -> None:
    """In a child: commits a table and rows (not ``complete``), then dies."""
    _fill_tiny(db, n)
    db.commit()
    db.execute("INSERT INTO t VALUES (?)", (n + 100,))     # and a transaction left open
    if os.environ.get("ZHEN_TEST_IN_PARENT") != "1":
        os._exit(1)


def test_a_child_that_leaves_half_a_file_is_undone_before_this_process_fills_it(
        tmp_path, monkeypatch):
    monkeypatch.setenv("ZHEN_TEST_IN_PARENT", "0")        # the child inherits it and dies
    path = tmp_path / "cache" / "half.sqlite"

    def fill_here(db, n):
        monkeypatch.setenv("ZHEN_TEST_IN_PARENT", "1")
        _fill_tiny(db, n)

    monkeypatch.setattr(sys.modules[__name__], "_fill_then_die", _fill_then_die)
    runs = len(apart.RUNS)
    real = fileio._fill_sqlite
    monkeypatch.setattr(fileio, "_fill_sqlite", lambda tmp, fill, args: real(tmp, fill_here, args))
    assert fileio.write_sqlite(path, _fill_then_die, args=(3,))
    assert apart.RUNS[runs].status != 0                          # the child died
    assert fileio.BUILDS[-1].child is None                       # then filled here, whole
    assert _rows(path)["t"] == [(0,), (1,), (2,)]
    assert not [p for p in path.parent.iterdir() if p != path]


def test_no_child_for_an_unwritable_folder_and_a_fill_that_fails_is_false(tmp_path, capfd):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    runs = len(apart.RUNS)
    assert not fileio.write_sqlite(blocker / "cache.sqlite", _fill_tiny, args=(1,))
    assert len(apart.RUNS) == runs                                  # failed before a child

    def missing(db) -> None:                # (a closure: filled here) its source is gone
        raise FileNotFoundError("gone")

    assert not fileio.write_sqlite(tmp_path / "c" / "cache.sqlite", missing)
    assert not list((tmp_path / "c").glob("*"))
    gone = tmp_path / "no-such" / "phrases_dict.json"               # the child fails, then here
    assert not fileio.write_sqlite(tmp_path / "d" / "p.sqlite", pinyin._fill_index,
                                   args=(str(gone),))
    assert apart.RUNS[-1].status != 0 and _gone(apart.RUNS[-1].pid)
    assert capfd.readouterr() == ("", "")


def test_a_helper_answers_until_closed_and_after_a_failure_is_not_asked():
    helper = apart.Helper(os.path.join)
    assert helper.ask("a", "b") == "a/b" and helper.ask("c", "d") == "c/d"
    helper.close()
    run = apart.RUNS[-1]
    assert run.what == "posixpath:join" and run.status == 0 and _gone(run.pid)
    assert helper.ask("e", "f") == "e/f"                            # a new child
    os.kill(helper._proc.pid, signal.SIGKILL)
    assert helper.ask("g", "h") is None                             # died: the caller does it
    assert apart.RUNS[-1].status == -signal.SIGKILL and _gone(apart.RUNS[-1].pid)
    assert helper.ask("i", "j") is None and helper._proc is None
    assert apart.Helper(lambda: None).ask() is None                 # not importable


def test_a_guess_asked_of_the_child_is_lemminflects(tmp_path, monkeypatch):
    monkeypatch.setenv("ZHEN_HOME", str(tmp_path))
    monkeypatch.setattr(lexicon, "_HELPER", None)
    answer = lexicon._guess_apart("optimize", "NNS")
    lexicon.save()                                                  # ends the child
    run = apart.RUNS[-1]
    assert run.what == "zhenglossary.lexicon:guess" and run.status == 0 and _gone(run.pid)
    assert answer == lexicon.guess("optimize", "NNS") == ("optimizes",)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
def test_a_child_ends_with_its_parent(tmp_path):
    """A parent killed (kill -9) while its child builds: the child sees its stdin close and
    exits, so it is not left running."""
    parent = subprocess.Popen([sys.executable, "-c",
                               "import time; from zhenglossary import apart; "
                               "apart.call(time.sleep, 60)"])
    try:
        child = None
        deadline = time.monotonic() + 30
        while child is None and time.monotonic() < deadline:
            for task in Path(f"/proc/{parent.pid}/task").iterdir():
                found = (task / "children").read_text().split()
                if found:
                    child = int(found[0])
            time.sleep(0.05)
        assert child is not None
        time.sleep(0.5)                                         # (its job read, it waits)
        parent.kill()
        parent.wait()
        deadline = time.monotonic() + 10
        while _running(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _running(child)
    finally:
        parent.kill()
        parent.wait()
