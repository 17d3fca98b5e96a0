"""The translation memory: numbered migrations keep what a person approved; every write
goes through one transaction that rolls back on failure."""

from __future__ import annotations

import sqlite3

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


def test_migration_3_drops_the_unwritten_machine_column_and_keeps_approvals(tmp_path):
    path = tmp_path / "memory.sqlite"
    _v2_database(path)
    memory = Memory(path)
    columns = [row[1] for row in memory.conn.execute("PRAGMA table_info(approved)")]
    assert "machine" not in columns and columns[:4] == ["source_hash", "file", "source", "english"]
    assert memory.conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS) == 3
    assert memory.approved("notes/a.md") == {"h1": "kept English"}
    memory.approve("notes/a.md", "h2", "另一段", "more English")
    memory.unapprove("notes/a.md", "h1")
    memory.close()
    assert Memory(path).approved("notes/a.md") == {"h2": "more English"}


def test_a_failed_write_leaves_nothing_behind(tmp_path):
    memory = Memory(tmp_path / "memory.sqlite")
    with pytest.raises(RuntimeError):
        with transaction(memory.conn):
            memory.conn.execute("INSERT INTO approved VALUES ('h', 'f', 's', 'e', 0)")
            raise RuntimeError("interrupted mid-write")
    assert memory.approved("f") == {}
    with pytest.raises(sqlite3.IntegrityError):          # a bad row: the whole batch is undone
        memory.put_many([("k1", "gloss", "源", {"hypotheses": ["a"]}),
                         ("k2", None, "源", {"hypotheses": ["b"]})])
    assert memory.get_many(["k1", "k2"]) == {}
    memory.put_many([("k1", "gloss", "源", {"hypotheses": ["a"]})])
    assert memory.get_many(["k1"]) == {"k1": {"hypotheses": ["a"]}}
