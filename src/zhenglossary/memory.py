"""The translation memory: sqlite, WAL, numbered schema migrations.

What it stores is every engine output, keyed by exactly what the engine was asked:

    key = sha256(canonical JSON of {"v": 1, "engine": <engine id and model version>,
                                    "text": <masked segment, whitespace-normalised>,
                                    "n": <number of hypotheses asked for>})

Changing any of those changes every affected key (and ``KEY_VERSION`` changes them all).
Glossary terms are placeholders in the masked text, so the key depends on *which* words
of a segment are terms, not on their English: editing a term's ``en`` or ``forbid``
re-translates nothing (the English is restored after the engine), adding or removing a
form re-translates only the segments whose masked text changes.

Rows are committed after each engine batch, so a killed run keeps its finished batches
and the next run resumes. WAL and a busy timeout make two concurrent runs safe. A
database that sqlite cannot read (at open, or found damaged later in the run), or whose
tables are not the ones the migrations made, is moved aside and rebuilt; the caller is
told. Every row read is checked (:func:`valid_output`): a row that is not what zhen
writes (``{not json``, ``[1,2]``, a number where text belongs) is dropped, its sentence is
translated again, and one notice says so — no content of the database can fail every run.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator

from .errors import MemoryStoreError

KEY_VERSION = 1
BUSY_TIMEOUT_MS = 60_000

MIGRATIONS: list[str] = [
    # 1: engine outputs
    """
    CREATE TABLE mt (
        key      TEXT PRIMARY KEY,
        engine   TEXT NOT NULL,
        source   TEXT NOT NULL,
        output   TEXT NOT NULL,      -- JSON: {"hypotheses": [...], "unrendered": [...]}
        created  REAL NOT NULL
    );
    """,
    # 2: approved (human-edited) block translations, by source block hash
    """
    CREATE TABLE approved (
        source_hash  TEXT NOT NULL,
        file         TEXT NOT NULL,
        source       TEXT NOT NULL,
        english      TEXT NOT NULL,
        machine      TEXT NOT NULL,   -- never written, dropped by migration 3
        created      REAL NOT NULL,
        PRIMARY KEY (source_hash, file)
    );
    """,
    # 3: drop approved.machine. It was never written: when zhen takes in a person's edit,
    # the parallel file holds only their English and the hash of what zhen wrote, so the
    # machine English it replaced is not at hand (and every engine output is in `mt`
    # anyway). A column that is always empty only misleads.
    """
    CREATE TABLE approved_v3 (
        source_hash  TEXT NOT NULL,
        file         TEXT NOT NULL,
        source       TEXT NOT NULL,
        english      TEXT NOT NULL,
        created      REAL NOT NULL,
        PRIMARY KEY (source_hash, file)
    );
    INSERT INTO approved_v3 SELECT source_hash, file, source, english, created FROM approved;
    DROP TABLE approved;
    ALTER TABLE approved_v3 RENAME TO approved;
    """,
    # 4: approved is no longer read. A person's English lives in the parallel file, the one
    # truth of a block's status; a second copy here overrode it (an edit reverted in the
    # file came back from the memory), so the memory keeps machine output only. The rows
    # are kept under another name, never read, so English an older zhen dropped from a
    # parallel file can still be found by hand (the README says how).
    """
    ALTER TABLE approved RENAME TO approved_before_v2;
    """,
    # 5: what zhen last wrote for each note, and from what (manifest.py): an unchanged note
    # is skipped whole on the next run. A cache like mt: losing it costs one full run.
    """
    CREATE TABLE notes (
        key      TEXT PRIMARY KEY,   -- the note's x.en.md, resolved
        state    TEXT NOT NULL,      -- JSON, manifest.NoteState
        created  REAL NOT NULL
    );
    CREATE TABLE glossaries (
        id       TEXT PRIMARY KEY,   -- manifest.glossary_id
        entries  TEXT NOT NULL,      -- JSON: the entries' rendering keys
        created  REAL NOT NULL
    );
    """,
]


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """The one way the memory writes: BEGIN IMMEDIATE (the write lock up front, so two runs
    wait for each other instead of failing mid-way), COMMIT on success, ROLLBACK on any
    exception or interruption."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


# the columns each table has after the last migration (anything else: rebuilt)
COLUMNS = {"mt": ["key", "engine", "source", "output", "created"],
           "approved_before_v2": ["source_hash", "file", "source", "english", "created"],
           "notes": ["key", "state", "created"],
           "glossaries": ["id", "entries", "created"]}


def valid_output(raw: object) -> dict | None:
    """A stored engine output as zhen writes it — ``{"hypotheses": [str, …], "unrendered":
    [str, …]}`` with at least one hypothesis — or None."""
    if not isinstance(raw, (str, bytes)):
        return None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict):
        return None
    hypotheses = data.get("hypotheses")
    unrendered = data.get("unrendered", [])
    if not (isinstance(hypotheses, list) and hypotheses
            and all(isinstance(h, str) for h in hypotheses)):
        return None
    if not (isinstance(unrendered, list) and all(isinstance(u, str) for u in unrendered)):
        return None
    return data


def memory_key(engine: str, text: str, n: int) -> str:
    payload = json.dumps({"v": KEY_VERSION, "engine": engine, "text": " ".join(text.split()),
                          "n": n}, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(payload.encode()).hexdigest()


class Memory:
    """A handle on one memory database. ``notices`` collects what the user must be told."""

    def __init__(self, path: Path, notices: list[str] | None = None) -> None:
        """``notices``: where to say what the user must be told (a list the caller reads;
        a new one when None). Notices found later in the run (a dropped row) go there too."""
        self.path = path
        self.notices: list[str] = notices if notices is not None else []
        self._dropped = False
        self.conn = self._open()

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(self.path), timeout=BUSY_TIMEOUT_MS / 1000,
                               isolation_level=None, check_same_thread=False)
        conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        self._wal(conn)
        conn.execute("PRAGMA synchronous = NORMAL")
        return conn

    @staticmethod
    def _wal(conn: sqlite3.Connection) -> None:
        """Put the database in WAL mode. Two runs that open a new memory at once race for
        it, and SQLite answers the loser "database is locked" at once, without waiting out
        the busy timeout; so it is retried here, for as long as that timeout."""
        deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
        pause = 0.005
        while True:
            try:
                conn.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() > deadline:
                    raise
            time.sleep(pause)
            pause = min(pause * 2, 0.2)

    def _open(self) -> sqlite3.Connection:
        try:
            conn = self._connect()
            self._migrate(conn)
            self._check_tables(conn)
            conn.execute("SELECT count(*) FROM mt").fetchone()
            return conn
        except sqlite3.OperationalError as exc:
            # locked, read-only, I/O errors: the file may be fine, never move it aside
            raise MemoryStoreError(
                f"cannot use the translation memory {self.path}: {exc}. If another zhen is "
                "stuck, stop it; else set ZHEN_HOME to a writable directory or run with "
                "--no-memory") from exc
        except sqlite3.DatabaseError as exc:
            return self._rebuild(exc)
        except OSError as exc:
            raise MemoryStoreError(f"cannot open the translation memory {self.path}: "
                                   f"{exc.strerror}; set ZHEN_HOME to a writable directory or "
                                   "run with --no-memory") from exc

    @staticmethod
    def _check_tables(conn: sqlite3.Connection) -> None:
        for table, columns in COLUMNS.items():
            found = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
            if found != columns:
                raise sqlite3.DatabaseError(f"table {table} has columns {found}, not {columns}")

    def _rebuild(self, exc: Exception) -> sqlite3.Connection:
        """Move the database aside (with its WAL) and start a new one; the caller is told."""
        aside = self.path.with_name(f"{self.path.name}.corrupt-{int(time.time())}")
        try:
            for suffix in ("", "-wal", "-shm"):
                old = Path(str(self.path) + suffix)
                if old.exists():
                    old.rename(Path(str(aside) + suffix))
        except OSError as exc2:
            raise MemoryStoreError(f"the translation memory {self.path} is damaged ({exc}) and "
                                   f"cannot be moved aside ({exc2.strerror}); delete it or run "
                                   "with --no-memory") from exc2
        self.notices.append(f"the translation memory {self.path} was unreadable ({exc}); "
                            f"moved it to {aside.name} and started a new one")
        try:
            conn = self._connect()
            self._migrate(conn)
            return conn
        except sqlite3.DatabaseError as exc2:
            raise MemoryStoreError(f"cannot create the translation memory {self.path}: "
                                   f"{exc2}; run with --no-memory") from exc2

    def _damaged(self, exc: sqlite3.DatabaseError) -> None:
        """Damage found after opening (a bad page read mid-run): rebuild, carry on."""
        if isinstance(exc, sqlite3.OperationalError):      # locked, read-only: not damage
            raise MemoryStoreError(f"cannot use the translation memory {self.path}: {exc}; "
                                   "set ZHEN_HOME to a writable directory or run with "
                                   "--no-memory") from exc
        if type(exc) is not sqlite3.DatabaseError:       # a constraint, a bad parameter: a bug
            raise exc
        try:
            self.conn.close()
        except sqlite3.Error:
            pass
        self.conn = self._rebuild(exc)

    def _drop(self, table: str, column: str, keys: list, reason: str) -> None:
        """Delete rows that are not what zhen writes; say so once per run."""
        if not keys:
            return
        if not self._dropped:
            self._dropped = True
            self.notices.append(f"the translation memory {self.path} had rows zhen cannot use "
                                f"({reason}); dropped them, and their sentences are translated "
                                "again")
        try:
            with transaction(self.conn):
                self.conn.executemany(f"DELETE FROM {table} WHERE {column} IS ?",
                                      [(k,) for k in keys])
        except sqlite3.Error:
            pass                  # read-only or busy: they are skipped again next time

    @staticmethod
    def _migrate(conn: sqlite3.Connection) -> None:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if version > len(MIGRATIONS):
            raise MemoryStoreError(f"the translation memory has schema {version}, newer than "
                                   "this zhen knows; upgrade zhen or set ZHEN_HOME elsewhere")
        for number in range(version, len(MIGRATIONS)):
            with transaction(conn):
                if conn.execute("PRAGMA user_version").fetchone()[0] == number:
                    for statement in MIGRATIONS[number].split(";"):
                        if statement.strip():
                            conn.execute(statement)
                    conn.execute(f"PRAGMA user_version = {number + 1}")

    def get_many(self, keys: Iterable[str]) -> dict[str, dict]:
        """The stored output of each key that has a valid row (others are misses)."""
        keys = list(dict.fromkeys(keys))
        try:
            return self._get_many(keys)
        except sqlite3.DatabaseError as exc:
            self._damaged(exc)
            return {}

    def _get_many(self, keys: list[str]) -> dict[str, dict]:
        out: dict[str, dict] = {}
        bad: list = []
        for i in range(0, len(keys), 500):
            chunk = keys[i:i + 500]
            marks = ",".join("?" * len(chunk))
            for key, output in self.conn.execute(
                    f"SELECT key, output FROM mt WHERE key IN ({marks})", chunk):
                data = valid_output(output)
                if data is None:
                    bad.append(key)
                else:
                    out[key] = data
        self._drop("mt", "key", bad, "an engine output that is not a JSON object of "
                                      "hypotheses")
        return out

    def put_many(self, rows: Iterable[tuple[str, str, str, dict]]) -> None:
        """rows: (key, engine, source, output); one transaction."""
        now = time.time()
        data = [(k, e, s, json.dumps(o, ensure_ascii=False), now) for k, e, s, o in rows]
        if not data:
            return
        try:
            with transaction(self.conn):
                self.conn.executemany("INSERT OR REPLACE INTO mt VALUES (?, ?, ?, ?, ?)", data)
        except sqlite3.DatabaseError as exc:
            self._damaged(exc)
            with transaction(self.conn):
                self.conn.executemany("INSERT OR REPLACE INTO mt VALUES (?, ?, ?, ?, ?)", data)

    def get_state(self, table: str, key: str) -> object | None:
        """A row of ``notes`` or ``glossaries`` as JSON data; None when there is none, or
        it cannot be read (dropped: a cache)."""
        column, value = {"notes": ("key", "state"), "glossaries": ("id", "entries")}[table]
        try:
            row = self.conn.execute(f"SELECT {value} FROM {table} WHERE {column} = ?",
                                    (key,)).fetchone()
        except sqlite3.DatabaseError as exc:
            self._damaged(exc)
            return None
        if row is None:
            return None
        try:
            return json.loads(row[0]) if isinstance(row[0], str) else None
        except (ValueError, RecursionError):
            self._drop(table, column, [key], f"a {table} row that is not JSON")
            return None

    def put_state(self, table: str, key: str, data: object) -> None:
        if table not in ("notes", "glossaries"):
            raise ValueError(table)
        row = (key, json.dumps(data, ensure_ascii=False), time.time())
        try:
            with transaction(self.conn):
                self.conn.execute(f"INSERT OR REPLACE INTO {table} VALUES (?, ?, ?)", row)
        except sqlite3.DatabaseError as exc:
            self._damaged(exc)

    def close(self) -> None:
        self.conn.close()


class NoMemory:
    """--no-memory: the same interface, remembering nothing."""

    notices: list[str] = []

    def get_many(self, keys):
        return {}

    def put_many(self, rows):
        pass

    def get_state(self, table, key):
        return None

    def put_state(self, table, key, data):
        pass

    def close(self):
        pass
