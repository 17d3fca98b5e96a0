"""jieba word segmentation with every glossary form added as a user word.

One dictionary per process: jieba's own default tokenizer (``jieba.dt``, loaded from
jieba's cache, as ``jieba.initialize()`` does). ``tokenizer_for(())`` is that tokenizer.
``tokenizer_for(forms)`` is a thin :class:`jieba.Tokenizer` whose frequency table is an
overlay: the glossary's forms (and their prefixes) in a small dict of its own, in front
of the shared table, which is never copied. Each form gets a frequency high enough that
jieba never splits it.

Part-of-speech tagging (``posseg``) reuses ``jieba.posseg``'s tagger code but not its
eager tag table: importing ``jieba.posseg`` normally reads jieba's whole ``dict.txt``
(about 0.5 s and 40 MB) to build a word → tag dict, and every new ``POSTokenizer`` reads it
again. Here the import is made without that read, and every tagger shares one
:class:`TagTable`, which answers ``get(word)`` from a small SQLite index built once from
``dict.txt`` into ``paths.cache_dir()`` (a missing, stale or corrupt index is rebuilt; a
cache folder that cannot be written falls back to in-memory dicts). The same index holds
jieba's IDF table (``idf``, ``idf_cut``), which would otherwise be parsed every run.

jieba logs to stderr when it loads; the core never prints, so its logger is silenced.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
from collections import ChainMap
from functools import lru_cache
from importlib import metadata
from math import log
from pathlib import Path
from typing import Iterable

_lock = threading.Lock()


@lru_cache(maxsize=1)
def _base():
    """jieba's default tokenizer, initialised (the one ``jieba.posseg`` also wraps)."""
    import jieba

    jieba.setLogLevel(logging.WARNING)
    logging.getLogger("jieba").setLevel(logging.WARNING)
    jieba.dt.initialize()
    return jieba.dt


@lru_cache(maxsize=1)
def _overlay_class():
    import jieba

    class OverlayTokenizer(jieba.Tokenizer):
        """jieba's dictionary plus some words, without copying jieba's table.

        ``FREQ`` is a ``ChainMap(own words, shared table)``: ``add_word`` writes into the
        first map only. The two hot methods read the two dicts directly (a ChainMap
        lookup is several times slower than a dict's); they are jieba 0.42's
        ``get_DAG`` and ``calc`` with that one change.
        """

        def __init__(self, base) -> None:
            super().__init__()
            self.own: dict[str, int] = {}
            self.shared = base.FREQ
            self.FREQ = ChainMap(self.own, base.FREQ)
            self.total = base.total
            self.initialized = True

        def _freq(self, word: str):
            value = self.own.get(word)
            return self.shared.get(word) if value is None else value

        def get_DAG(self, sentence: str) -> dict[int, list[int]]:
            own, shared = self.own.get, self.shared.get
            dag = {}
            n = len(sentence)
            for k in range(n):
                ends = []
                i = k
                frag = sentence[k]
                while i < n:
                    value = own(frag)
                    if value is None:
                        value = shared(frag)
                        if value is None:
                            break
                    if value:
                        ends.append(i)
                    i += 1
                    frag = sentence[k:i + 1]
                dag[k] = ends or [k]
            return dag

        def calc(self, sentence: str, DAG, route) -> None:     # noqa: N803 (jieba's name)
            freq = self._freq
            n = len(sentence)
            route[n] = (0, 0)
            logtotal = log(self.total)
            for idx in range(n - 1, -1, -1):
                route[idx] = max((log(freq(sentence[idx:x + 1]) or 1) - logtotal
                                  + route[x + 1][0], x) for x in DAG[idx])

    return OverlayTokenizer


_cache: dict[frozenset[str], object] = {}


def tokenizer_for(forms: Iterable[str]):
    """A jieba tokenizer that keeps each of ``forms`` whole (jieba's own for no forms)."""
    key = frozenset(forms)
    with _lock:
        tokenizer = _cache.get(key)
        if tokenizer is None:
            base = _base()
            if not key:
                return base
            tokenizer = _overlay_class()(base)
            for form in sorted(key, key=len):
                # suggest_freq(tune=False) computes the frequency that makes jieba keep the
                # word whole in its own context; a floor keeps short forms competitive.
                freq = max(tokenizer.suggest_freq(form, False), 1000)
                tokenizer.add_word(form, freq)
            if len(_cache) > 8:
                _cache.clear()
            _cache[key] = tokenizer
    return tokenizer


def cut(text: str, forms: Iterable[str] = ()) -> list[str]:
    return list(tokenizer_for(forms).cut(text, HMM=True))


def posseg(text: str, forms: Iterable[str] = ()) -> list[tuple[str, str]]:
    """(word, part-of-speech flag) pairs, glossary forms tagged ``nz``."""
    forms = frozenset(forms)
    pos = _pos_tokenizer(forms)
    return [(p.word, "nz" if p.word in forms else p.flag) for p in pos.cut(text)]


@lru_cache(maxsize=4)
def _pos_tokenizer(forms: frozenset[str]):
    module = _posseg_module()
    pos = module.POSTokenizer.__new__(module.POSTokenizer)   # no second dict.txt read
    pos.tokenizer = tokenizer_for(forms)
    pos.word_tag_tab = module.dt.word_tag_tab
    return pos


# --------------------------------------------------------------------------- tags

def tag_table() -> "TagTable":
    """jieba's word → part-of-speech tag table (shared with every ``posseg`` call)."""
    return _posseg_module().dt.word_tag_tab


@lru_cache(maxsize=1)
def _posseg_module():
    """``jieba.posseg``, imported without its eager read of ``dict.txt``; its default
    tagger ``jieba.posseg.dt`` (which zhen's gloss engine reads tags from) gets the shared
    :class:`TagTable`."""
    import sys

    base = _base()
    if "jieba.posseg" in sys.modules:          # someone imported it the ordinary way
        module = sys.modules["jieba.posseg"]
    else:
        # POSTokenizer.__init__ reads base.get_dict_file(); for the import only, that file
        # is empty (the attribute is restored at once, and the tokenizer is already
        # initialised, so its dictionary and cache are unaffected)
        saved = base.dictionary
        base.dictionary = os.devnull
        try:
            import jieba.posseg as module
        finally:
            base.dictionary = saved
    if not isinstance(module.dt.word_tag_tab, TagTable):
        module.dt.word_tag_tab = TagTable(base, module.dt.word_tag_tab)
    return module


TAGS_FORMAT = 2


class TagTable:
    """jieba's word → part-of-speech tag table, read on demand (:func:`word_index`).

    ``get(word, default)``, ``word in table`` and ``table[word]``, like the dict it
    replaces. ``loaded`` is the dict ``jieba.posseg`` built, if it built one (then it is
    used as is).
    """

    def __init__(self, tokenizer, loaded: dict[str, str] | None = None) -> None:
        self._tokenizer = tokenizer
        self._dict: dict[str, str] | None = loaded or None
        self._memo: dict[str, str | None] = {}

    def get(self, word: str, default=None):
        value = self._memo.get(word, self)
        if value is self:
            value = self._dict.get(word) if self._dict is not None else \
                _word_index(self._tokenizer).tag(word)
            if len(self._memo) > 100_000:
                self._memo.clear()
            self._memo[word] = value
        return default if value is None else value

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.get(word) is not None

    def __getitem__(self, word: str) -> str:
        value = self.get(word)
        if value is None:
            raise KeyError(word)
        return value

    def update(self, other) -> None:            # jieba's user-word tags (makesure_userdict_loaded)
        for word, tag in dict(other).items():
            self._memo[word] = tag


def idf(word: str) -> float | None:
    """jieba's IDF of ``word`` (``jieba/analyse/idf.txt``); None when jieba lacks it."""
    return _word_index(_base()).idf(word)


def idf_cut() -> float:
    """The IDF below which a word is among the 5% most widespread of jieba's IDF table."""
    return _word_index(_base()).idf_cut


@lru_cache(maxsize=2)
def _word_index(tokenizer) -> "_WordIndex":
    return _WordIndex(tokenizer)


class _WordIndex:
    """One SQLite file per jieba dictionary: every word's part-of-speech tag (from the
    tokenizer's ``dict.txt``) and IDF (from ``jieba/analyse/idf.txt``), with the IDF cut
    in a ``meta`` row. Built once into ``paths.cache_dir()`` (temp file, then rename); a
    missing, partial or corrupt file is rebuilt; where it cannot be written, both tables
    are read into memory for this process."""

    def __init__(self, tokenizer) -> None:
        self._tokenizer = tokenizer
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._tags: dict[str, str] | None = None
        self._idf: dict[str, float] | None = None
        self.idf_cut = 0.0
        self._open()

    def tag(self, word: str) -> str | None:
        return self._get(word, 0, self._tags)

    def idf(self, word: str) -> float | None:
        return self._get(word, 1, self._idf)

    def _get(self, word: str, column: int, memory: dict | None):
        if memory is not None:
            return memory.get(word)
        with self._lock:
            try:
                row = self._db.execute("SELECT tag, idf FROM words WHERE word = ?",
                                       (word,)).fetchone()
            except (sqlite3.Error, AttributeError):     # damaged under us: go to memory
                self._in_memory()
                return (self._tags if column == 0 else self._idf).get(word)
        return row[column] if row else None

    def _open(self) -> None:
        path = _tags_path(self._tokenizer)
        if path is not None:
            db = _open_tags(path)
            if db is None:
                _build_tags(path, self._tokenizer)
                db = _open_tags(path)
            if db is not None:
                self._db = db
                self.idf_cut = float(db.execute(
                    "SELECT value FROM meta WHERE key = 'idf_cut'").fetchone()[0])
                return
        self._in_memory()

    def _in_memory(self) -> None:
        self._db = None
        self._tags = dict(_read_tags(self._tokenizer))
        self._idf = dict(_read_idf())
        self.idf_cut = _cut(self._idf.values())


def _cut(values: Iterable[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 20] if ordered else 0.0


def _read_idf() -> Iterable[tuple[str, float]]:
    """(word, IDF) of jieba's ``analyse/idf.txt``, located without importing
    ``jieba.analyse`` (whose import builds a TF-IDF object of its own)."""
    from importlib.util import find_spec

    spec = find_spec("jieba")
    path = os.path.join(list(spec.submodule_search_locations)[0], "analyse", "idf.txt")
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            parts = line.split()
            if len(parts) == 2:
                try:
                    yield parts[0], float(parts[1])
                except ValueError:
                    continue


def _read_tags(tokenizer) -> Iterable[tuple[str, str]]:
    """(word, tag) of every line of the tokenizer's dictionary file (``word freq tag``)."""
    with tokenizer.get_dict_file() as handle:
        for line in handle:
            parts = line.decode("utf-8").split()
            if len(parts) == 3:
                yield parts[0], parts[2]


def _tags_path(tokenizer) -> Path | None:
    import jieba

    from .paths import cache_dir

    try:
        if tokenizer.dictionary == jieba.DEFAULT_DICT:
            stamp = f"jieba-{metadata.version('jieba')}"
        else:
            st = os.stat(tokenizer.dictionary)
            stamp = f"dict-{st.st_size}-{int(st.st_mtime)}"
    except (OSError, metadata.PackageNotFoundError, TypeError):
        return None
    safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in stamp)
    return cache_dir() / f"jieba-words-{safe}-f{TAGS_FORMAT}.sqlite"


def _open_tags(path: Path) -> sqlite3.Connection | None:
    """A read-only connection to a complete index, or None (missing, partial, corrupt)."""
    if not path.is_file():
        return None
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        done = db.execute("SELECT value FROM meta WHERE key = 'complete'").fetchone()
        float(db.execute("SELECT value FROM meta WHERE key = 'idf_cut'").fetchone()[0])
        db.execute("SELECT tag, idf FROM words WHERE word = ?", ("的",)).fetchone()
    except (sqlite3.Error, TypeError, ValueError):
        return None
    if not done or done[0] != "1":
        db.close()
        return None
    return db


def _build_tags(path: Path, tokenizer) -> bool:
    """Write the index to a temp file and rename it into place; False if that fails."""
    from .fileio import cache_file

    rows: dict[str, list] = {word: [tag, None] for word, tag in _read_tags(tokenizer)}
    for word, value in _read_idf():
        rows.setdefault(word, [None, None])[1] = value
    cut = _cut(v for _, v in rows.values() if v is not None)
    try:
        with cache_file(path) as tmp:
            db = sqlite3.connect(tmp)
            try:
                with db:
                    db.execute("CREATE TABLE words (word TEXT PRIMARY KEY, tag TEXT, idf REAL) "
                               "WITHOUT ROWID")
                    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
                    db.executemany("INSERT INTO words VALUES (?, ?, ?)",
                                   ((w, t, v) for w, (t, v) in rows.items()))
                    db.execute("INSERT INTO meta VALUES ('idf_cut', ?)", (repr(cut),))
                    db.execute("INSERT INTO meta VALUES ('complete', '1')")
            finally:
                db.close()
        return True
    except (OSError, sqlite3.Error):
        return False
