"""The pinyin of Chinese text, read with ``pypinyin`` without its whole phrase dictionary
in memory (the floor's one owner of pypinyin): the syllables of a short text
(:func:`given_name`, the gloss engine's person names, ``engines/names.py``) and of one
character (:func:`syllable`, the finder's hearing of transliterated names,
``bilingual._sounds_open``)."""

from __future__ import annotations

import json
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Callable


@lru_cache(maxsize=8192)
def syllable(char: str) -> str:
    """The toneless pinyin of one character, lower case ('' for none): 他 → ta."""
    return given_name(char).lower() if len(char) == 1 else ""


def given_name(chars: str) -> str:
    if len(chars) <= SHORT:
        _put(chars)
    syllables = _pinyin(len(chars))(chars, v_to_u=True)
    out = syllables[0] if syllables else ""
    for syllable in syllables[1:]:
        out += ("'" if syllable[:1] in "aoe" else "") + syllable
    return out[:1].upper() + out[1:]


# pypinyin reads its whole phrase dictionary (about 47,000 phrases: some 40 MB of lists and
# strings, and its segmenter's set of their prefixes) when it is imported. A given name is
# one to three characters, and what pypinyin says of a text that long depends only on which
# of its substrings are phrases (their readings) and which begin one (where the segmenter
# cuts). So the phrases of at most SHORT characters are kept compact (their readings as
# JSON text) and put in pypinyin's dictionary when a name holds one, the segmenter learns
# where every phrase begins (its first SHORT characters), and pypinyin gives the same
# syllables (tests/test_names.py). A longer text loads every phrase, as pypinyin does.
SHORT = 3


def _pinyin(length: int) -> Callable:
    """pypinyin's ``lazy_pinyin`` for a text of ``length`` characters (:func:`_put`
    must have put the short phrases it holds in pypinyin's dictionary)."""
    return _short()[0] if length <= SHORT else _full()


def _put(text: str) -> None:
    """The short phrases among ``text``'s substrings in pypinyin's dictionary."""
    lazy, index, phrases = _short()
    for i in range(len(text)):
        for j in range(i + 1, min(len(text), i + SHORT) + 1):
            word = text[i:j]
            if word not in phrases and word in index:
                phrases[word] = json.loads(index[word])


@lru_cache(maxsize=1)
def _short() -> tuple[Callable, "dict[str, str] | PhraseIndex", dict]:
    """pypinyin with none of its phrases but one, its segmenter told where every phrase
    begins; the short phrases' readings, compact; pypinyin's phrase dictionary."""
    pypinyin, mmseg, phrases = _imported()
    source = Path(pypinyin.__file__).with_name("phrases_dict.json")
    if phrases or not source.is_file():      # loaded whole already, or stored otherwise
        _full()
        return pypinyin.lazy_pinyin, {}, phrases
    indexed = _phrase_index()
    prefix_set = getattr(mmseg.seg, "_prefix_set", None)
    if indexed is not None and isinstance(getattr(prefix_set, "_set", None), set):
        index, first = indexed, indexed.first
        prefix_set._set = _Prefixes(indexed, prefix_set._set)
    else:
        index, starts = short_phrases(source.read_text("utf-8"), SHORT)
        first = next(iter(index), None)
        mmseg.seg.train(starts)
    if first is not None:                    # a dictionary with phrases segments its text
        phrases[first] = json.loads(index[first])
    return pypinyin.lazy_pinyin, index, phrases


# The short phrases and where every phrase begins, as above, kept in the cache folder: a
# SQLite file built once from pypinyin's phrase dictionary (``short_phrases``), so a run
# neither parses the 2.5 MB dictionary nor holds the 30,000 readings and the prefix set
# (about 11 MB), and asks only about the names it meets. The same file holds pypinyin's
# character table (``pinyin_dict.json``, 41,000 characters, about 7 MB loaded at its
# import), put in pypinyin as :class:`CharTable` when zhen is the first to import it. A missing, partial or corrupt file
# is rebuilt; where it cannot be written, the tables are built in memory as before.
INDEX_FORMAT = 2


class PhraseIndex:
    """The index: ``phrases`` (a short phrase → its readings as compact JSON), ``prefixes``
    (every prefix of at most SHORT characters of every phrase: what pypinyin's segmenter
    would learn from the phrases' first SHORT characters), the first phrase."""

    def __init__(self, db, first: str | None, source: Path) -> None:
        import threading

        self._db = db
        self.first = first
        self._source = source
        self._memory: dict[str, dict] | None = None
        self.has_chars = False
        self._lock = threading.Lock()
        self._seen: dict[tuple[str, str], str | None] = {}

    @classmethod
    def open(cls, source: Path) -> "PhraseIndex | None":
        """The index of pypinyin's ``phrases_dict.json`` (``source``) and the
        ``pinyin_dict.json`` beside it, built if it is missing, partial or corrupt."""
        from importlib import metadata

        from .fileio import copy_built
        from .paths import cache_dir

        try:
            release = metadata.version("pypinyin")
        except metadata.PackageNotFoundError:
            return None
        safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in release)
        path = cache_dir() / f"pypinyin-phrases-{safe}-s{SHORT}-f{INDEX_FORMAT}.sqlite"
        db = _open_index(path)
        if db is None and copy_built(path):           # built in another cache folder
            db = _open_index(path)
        if db is None and _build_index(path, source):
            db = _open_index(path)
        if db is None:
            return None
        first = db.execute("SELECT value FROM meta WHERE key = 'first'").fetchone()
        index = cls(db, first[0] if first else None, source)
        index.has_chars = db.execute("SELECT value FROM meta WHERE key = 'chars'").fetchone() \
            is not None
        return index

    def _get(self, table: str, key: str) -> str | None:
        try:
            return self._seen[table, key]
        except KeyError:
            pass
        import sqlite3

        with self._lock:
            if self._memory is None:
                try:
                    row = self._db.execute(f"SELECT value FROM {table} WHERE key = ?",
                                           (key,)).fetchone()
                    found = self._seen[table, key] = None if row is None else row[0]
                    return found
                except sqlite3.Error:                # damaged under us: built in memory
                    index, starts = short_phrases(self._source.read_text("utf-8"), SHORT)
                    self._memory = {"phrases": index, "prefixes": dict.fromkeys(
                        (s[:i + 1] for s in starts for i in range(len(s))), ""),
                        "chars": _char_dict(self._source)}
            return self._memory[table].get(key)

    def __contains__(self, phrase: object) -> bool:
        return isinstance(phrase, str) and self._get("phrases", phrase) is not None

    def __getitem__(self, phrase: str) -> str:
        found = self._get("phrases", phrase)
        if found is None:
            raise KeyError(phrase)
        return found

    def is_prefix(self, text: str) -> bool:
        return self._get("prefixes", text) is not None

    def char(self, code: int) -> str | None:
        """pypinyin's ``pinyin_dict[code]`` (a character's readings), or None."""
        return self._get("chars", code)


class CharTable:
    """pypinyin's character table (code point → its readings, ``"ā,ē"``) read from the
    index a character at a time: what pypinyin asks of it (``in``, ``[]``), and what a
    caller's own readings put in it (``load_single_dict``: ``[]=``, ``update``)."""

    def __init__(self, index: PhraseIndex, own: dict | None = None) -> None:
        self._index = index
        self._own = own if own is not None else {}

    def get(self, code, default=None):
        found = self._own.get(code)
        if found is None and isinstance(code, int) and not isinstance(code, bool):
            found = self._index.char(code)
        return default if found is None else found

    def __contains__(self, code) -> bool:
        return self.get(code) is not None

    def __getitem__(self, code):
        found = self.get(code)
        if found is None:
            raise KeyError(code)
        return found

    def __setitem__(self, code, value) -> None:
        self._own[code] = value

    def update(self, other) -> None:
        self._own.update(other)

    def copy(self) -> "CharTable":
        return CharTable(self._index, dict(self._own))


def _char_dict(phrases_source: Path) -> dict[int, str]:
    """pypinyin's ``pinyin_dict.json`` beside its phrase dictionary, as pypinyin loads it."""
    loaded = json.loads(phrases_source.with_name("pinyin_dict.json").read_text("utf-8"))
    return {int(k): v for k, v in loaded.items()}


@lru_cache(maxsize=1)
def _phrase_index() -> PhraseIndex | None:
    """The index of the pypinyin this process imports (located without importing it)."""
    from importlib.util import find_spec

    spec = find_spec("pypinyin")
    if spec is None or not spec.origin:
        return None
    source = Path(spec.origin).with_name("phrases_dict.json")
    return PhraseIndex.open(source) if source.is_file() else None


class _Prefixes:
    """pypinyin's segmenter's prefix set: the index's prefixes, plus what is added to it."""

    def __init__(self, index: PhraseIndex, own: set[str]) -> None:
        self._index = index
        self._own = own

    def add(self, prefix: str) -> None:
        self._own.add(prefix)

    def __contains__(self, text: object) -> bool:
        return text in self._own or (isinstance(text, str) and len(text) <= SHORT
                                     and self._index.is_prefix(text))


def _open_index(path: Path):
    import sqlite3

    from .fileio import open_cache

    if not path.is_file():
        return None
    try:
        db = open_cache(path)
        done = db.execute("SELECT value FROM meta WHERE key = 'complete'").fetchone()
        db.execute("SELECT value FROM phrases LIMIT 1").fetchone()
        db.execute("SELECT value FROM prefixes LIMIT 1").fetchone()
        db.execute("SELECT value FROM chars LIMIT 1").fetchone()
    except sqlite3.Error:
        return None
    if not done or done[0] != "1":
        db.close()
        return None
    return db


def _build_index(path: Path, source: Path) -> bool:
    from .fileio import write_sqlite

    return write_sqlite(path, _fill_index, "pypinyin-phrases-*.sqlite", (str(source),))


def _fill_index(db, name: str) -> None:
    """The index's tables from pypinyin's ``phrases_dict.json`` (``name``) and the
    ``pinyin_dict.json`` beside it: ``fileio.write_sqlite``'s fill, which it runs in a child
    process."""
    source = Path(name)
    index, starts = short_phrases(source.read_text("utf-8"), SHORT)
    prefixes = {start[:i + 1] for start in starts for i in range(len(start))}
    for table in ("phrases", "prefixes", "meta"):
        db.execute(f"CREATE TABLE {table} (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID")
    db.executemany("INSERT INTO phrases VALUES (?, ?)", index.items())
    db.executemany("INSERT INTO prefixes VALUES (?, '')", ((p,) for p in prefixes))
    db.execute("CREATE TABLE chars (key INTEGER PRIMARY KEY, value TEXT)")
    if source.with_name("pinyin_dict.json").is_file():
        db.executemany("INSERT INTO chars VALUES (?, ?)", _char_dict(source).items())
        db.execute("INSERT INTO meta VALUES ('chars', '1')")
    first = next(iter(index), None)
    if first is not None:
        db.execute("INSERT INTO meta VALUES ('first', ?)", (first,))


@lru_cache(maxsize=1)
def _full() -> Callable:
    """pypinyin with every phrase, as it loads them."""
    pypinyin, _, _ = _imported()
    from pypinyin import phrases_dict

    pypinyin.load_phrases_dict(phrases_dict.phrases_dict)      # (retrains the segmenter)
    return pypinyin.lazy_pinyin


@lru_cache(maxsize=1)
def _imported():
    """pypinyin imported without its phrase dictionary (an empty one, unless another part
    of the process imported it first) and without copies of its dictionaries (it copies
    them only so that a caller's additions stay apart)."""
    import sys

    flags = {"PYPINYIN_NO_PHRASES": "1", "PYPINYIN_NO_DICT_COPY": "1"}
    saved = {k: os.environ.get(k) for k in flags}
    os.environ.update(flags)             # read once, when pypinyin is first imported
    try:
        if "pypinyin" not in sys.modules and "pypinyin.pinyin_dict" not in sys.modules:
            index = _phrase_index()
            if index is not None and index.has_chars:   # its character table, from the index
                import types

                module = types.ModuleType("pypinyin.pinyin_dict")
                module.pinyin_dict = CharTable(index)
                sys.modules["pypinyin.pinyin_dict"] = module
        import pypinyin
        from pypinyin.constants import PHRASES_DICT
        from pypinyin.seg import mmseg
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return pypinyin, mmseg, PHRASES_DICT


_WS = re.compile(r"[ \t\n\r]*")


def short_phrases(text: str, longest: int) -> tuple[dict[str, str], set[str]]:
    """Of pypinyin's phrase dictionary (``text``, a JSON object: phrase → readings), the
    phrases of at most ``longest`` characters with their readings (as compact JSON), and
    the first ``longest`` characters of every phrase. Read one entry at a time: the whole
    dictionary is never held."""
    from json.decoder import scanstring

    decoder = json.JSONDecoder()
    phrases: dict = {}
    starts: set[str] = set()
    pos = _WS.match(text, 0).end()
    if text[pos:pos + 1] != "{":
        raise ValueError("pypinyin's phrase dictionary is not a JSON object")
    pos = _WS.match(text, pos + 1).end()
    while text[pos:pos + 1] != "}":
        if text[pos:pos + 1] != '"':
            raise ValueError(f"pypinyin's phrase dictionary: a key expected at {pos}")
        key, pos = scanstring(text, pos + 1)
        pos = _WS.match(text, pos).end()
        if text[pos:pos + 1] != ":":
            raise ValueError(f"pypinyin's phrase dictionary: ':' expected at {pos}")
        value, pos = decoder.raw_decode(text, _WS.match(text, pos + 1).end())
        if len(key) <= longest:
            phrases[key] = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        starts.add(key[:longest])
        pos = _WS.match(text, pos).end()
        if text[pos:pos + 1] == ",":
            pos = _WS.match(text, pos + 1).end()
    return phrases, starts
