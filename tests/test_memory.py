"""The translation memory: numbered migrations bring an old database up to date (a person's
English lives in the parallel file, not here); every write goes through one transaction
that rolls back on failure."""

from __future__ import annotations

import sqlite3
import time

import pytest

from zhenglossary.memory import MIGRATIONS, Memory, transaction


def _v2_database(path):
    conn = sqlite3.connect(str(path), isolation_level=None)
    for statement in ";".join(MIGRATIONS[:2]).split(";"):
        if statement.strip():
            conn.execute(statement)
    conn.execute("PRAGMA user_version = 2")
    conn.execute("INSERT INTO approved VALUES ('h1', 'notes/a.md', '源文本', 'kept English', '', 1.0)")
    conn.close()


def test_an_old_database_migrates_and_keeps_no_second_copy_of_edits(tmp_path):
    path = tmp_path / "memory.sqlite"
    _v2_database(path)
    memory = Memory(path)
    tables = {row[0] for row in memory.conn.execute("SELECT name FROM sqlite_master")}
    assert "approved" not in tables and "mt" in tables       # migrations 3 and 4 ran
    assert memory.conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) == 5
    assert not hasattr(memory, "approved")                   # never read again …
    assert list(memory.conn.execute("SELECT source, english FROM approved_before_v2")) == [
        ("源文本", "kept English")]                            # … but not thrown away
    memory.close()


def test_a_failed_write_leaves_nothing_behind(tmp_path):
    memory = Memory(tmp_path / "memory.sqlite")
    with pytest.raises(RuntimeError):
        with transaction(memory.conn):
            memory.conn.execute("INSERT INTO mt VALUES ('h', 'gloss', 's', '{}', 0)")
            raise RuntimeError("interrupted mid-write")
    assert memory.get_many(["h"]) == {}
    with pytest.raises(sqlite3.IntegrityError):          # a bad row: the whole batch is undone
        memory.put_many([("k1", "gloss", "源", {"hypotheses": ["a"]}),
                         ("k2", None, "源", {"hypotheses": ["b"]})])
    assert memory.get_many(["k1", "k2"]) == {}
    memory.put_many([("k1", "gloss", "源", {"hypotheses": ["a"]})])
    assert memory.get_many(["k1"]) == {"k1": {"hypotheses": ["a"]}}


def _open_at_once(path, start, results):
    while time.time() < start:              # spin: a barrier's wake-up is too orderly
        pass
    try:
        Memory(path).close()
        results.put("ok")
    except Exception as exc:                                # noqa: BLE001 (reported below)
        results.put(f"{type(exc).__name__}: {exc}")


def test_runs_that_open_a_new_memory_at_once_all_get_it(tmp_path):
    """Two zhen runs started together on a project with no memory yet (CI's
    test_two_runs_at_once): SQLite answers the one that loses the race for WAL mode
    "database is locked" at once, without waiting; the memory retries it."""
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    results = ctx.Queue()
    outcomes = []
    for round_ in range(16):
        path = tmp_path / str(round_) / "memory.sqlite"
        start = time.time() + 0.15
        procs = [ctx.Process(target=_open_at_once, args=(path, start, results))
                 for _ in range(4)]
        for proc in procs:
            proc.start()
        for proc in procs:
            proc.join(60)
        outcomes += [results.get(timeout=5) for _ in procs]
    assert outcomes == ["ok"] * len(outcomes), [o for o in outcomes if o != "ok"][:3]
