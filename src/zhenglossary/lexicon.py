"""lemminflect with its two lookup tables read word by word from an on-disk index.

lemminflect (MIT) keeps an English word's inflections (``infl_lu.csv.gz``, 40,000 lines)
and lemmas (``lemma_lu.csv.gz``, 80,000 lines) in gzipped CSV files that it loads whole,
into nested dicts of tuples, at its first question: the inflection table alone is about
17 MB of Python objects, held to the end of a run that asked for a dozen plurals. Here
each table is :class:`IndexedTable`, which answers ``get(word)`` (all lemminflect asks of
it) from a SQLite index, exactly as :mod:`segment` does for jieba's tables, and remembers
the answer. The index is built once from lemminflect's own files with lemminflect's own
readers (``InflectionLUCodec.load``, ``LemmaLUCodec.load``: the aux/modal entries they add
included), each word's value stored as ``marshal`` of what the reader gave it, so every
answer is the reader's (``tests/test_lexicon.py`` compares all entries). The rest of
lemminflect (overrides, its rules and model for words it lacks, capitalisation) runs
unchanged over the table.

:func:`lemminflect` is the module every caller uses (``english.py``, ``terms.py``): the
tables put into lemminflect's singletons before its first question. The index lives in
``paths.cache_dir()``, named by lemminflect's version and the index format; a missing,
stale or corrupt index is rebuilt, and where it cannot be written or read lemminflect
loads its tables as it always does.
"""

from __future__ import annotations

import marshal
import sqlite3
import threading
from functools import lru_cache
from pathlib import Path

FORMAT = 1
_TABLES = ("infl", "lemma")


@lru_cache(maxsize=1)
def lemminflect():
    """The ``lemminflect`` module, its inflection and lemma tables answered from the index
    (where the index is available and lemminflect has not loaded a table itself)."""
    import lemminflect as module
    from lemminflect import config
    from lemminflect.core.Inflections import Inflections
    from lemminflect.core.Lemmatizer import Lemmatizer

    inflections, lemmatizer = Inflections(), Lemmatizer()
    wanted = (not hasattr(inflections, "infl_dict")
              and inflections.infl_lu_fn == config.inflection_lu_fn,
              not hasattr(lemmatizer, "lemma_dict")
              and lemmatizer.lemma_lu_fn == config.lemma_lu_fn)
    if any(wanted):
        index = _index()
        if index is not None:
            if wanted[0]:
                inflections.infl_dict = IndexedTable(index, "infl")
            if wanted[1]:
                lemmatizer.lemma_dict = IndexedTable(index, "lemma")
    return module


def loaded_tables() -> dict[str, dict]:
    """lemminflect's two tables as its own readers load them (what the index holds)."""
    from lemminflect import config
    from lemminflect.codecs.InflectionLUCodec import InflectionLUCodec
    from lemminflect.codecs.LemmaLUCodec import LemmaLUCodec

    return {"infl": InflectionLUCodec.load(config.inflection_lu_fn),
            "lemma": LemmaLUCodec.load(config.lemma_lu_fn)}


class IndexedTable:
    """One of lemminflect's tables (word → {tag: spellings}) read from the index: the
    mapping methods lemminflect and the tests use, each answer kept once read."""

    def __init__(self, index: "_Index", table: str) -> None:
        self._index = index
        self._table = table
        self._seen: dict[str, dict | None] = {}

    def get(self, word, default=None):
        if not isinstance(word, str):
            return default
        try:
            found = self._seen[word]
        except KeyError:
            found = self._seen[word] = self._index.get(self._table, word)
        return default if found is None else found

    def __getitem__(self, word):
        found = self.get(word)
        if found is None:
            raise KeyError(word)
        return found

    def __contains__(self, word) -> bool:
        return self.get(word) is not None


class _Index:
    """A read-only connection to a complete index; its values unmarshalled per word."""

    def __init__(self, db: sqlite3.Connection, fallback) -> None:
        self._db = db
        self._fallback = fallback          # the tables loaded whole, if the file fails us
        self._loaded: dict[str, dict] | None = None
        self._lock = threading.Lock()

    def get(self, table: str, word: str):
        with self._lock:
            if self._loaded is None:
                try:
                    row = self._db.execute("SELECT value FROM entries WHERE tab = ? AND word = ?",
                                           (table, word)).fetchone()
                    return marshal.loads(row[0]) if row else None
                except (sqlite3.Error, ValueError, EOFError, TypeError):
                    self._loaded = self._fallback()        # damaged under us: lemminflect's own
            return self._loaded[table].get(word)


def _path() -> Path | None:
    from importlib import metadata

    from .paths import cache_dir

    try:
        release = metadata.version("lemminflect")
    except metadata.PackageNotFoundError:
        return None
    safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in release)
    return cache_dir() / f"lemminflect-{safe}-f{FORMAT}.sqlite"


def _index() -> _Index | None:
    """The index, built if it is missing, partial or corrupt; None where it cannot be."""
    from .fileio import copy_built

    path = _path()
    if path is None:
        return None
    db = _open(path)
    if db is None and copy_built(path):           # built in another cache folder
        db = _open(path)
    if db is None and build(path):
        db = _open(path)
    return None if db is None else _Index(db, loaded_tables)


def _open(path: Path) -> sqlite3.Connection | None:
    if not path.is_file():
        return None
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        meta = dict(db.execute("SELECT key, value FROM meta"))
        for table in _TABLES:
            row = db.execute("SELECT value FROM entries WHERE tab = ? LIMIT 1", (table,)).fetchone()
            if row is None or not isinstance(marshal.loads(row[0]), dict):
                db.close()
                return None
    except (sqlite3.Error, ValueError, EOFError, TypeError):
        return None
    if meta.get("complete") != "1":
        db.close()
        return None
    return db


def build(path: Path) -> bool:
    """Write the index from lemminflect's files (temp file, renamed into place); False if
    it cannot be written."""
    from .fileio import cache_file, remove_stale

    try:
        with cache_file(path) as tmp:      # (an unwritable folder fails here, before the read)
            tables = loaded_tables()
            db = sqlite3.connect(tmp)
            try:
                with db:
                    db.execute("CREATE TABLE entries (tab TEXT, word TEXT, value BLOB, "
                               "PRIMARY KEY (tab, word)) WITHOUT ROWID")
                    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
                    for table in _TABLES:
                        db.executemany("INSERT INTO entries VALUES (?, ?, ?)",
                                       ((table, word, marshal.dumps(value))
                                        for word, value in tables[table].items()))
                    db.execute("INSERT INTO meta VALUES ('complete', '1')")
            finally:
                db.close()
    except (OSError, sqlite3.Error, ValueError):
        return False
    remove_stale(path, "lemminflect-*.sqlite")
    return True
