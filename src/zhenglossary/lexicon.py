"""lemminflect with its lookup tables read word by word from an on-disk index.

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

:func:`lemminflect` is what every caller uses (``english.py``, ``terms.py``): a
:class:`Lemminflect` over the index, which answers ``getInflection`` and ``getAllLemmas``
as lemminflect's own code does from its tables and overrides (both in the index) without
importing lemminflect — its import imports numpy (about 17 MB of RSS) for the model that
guesses the forms of a word its tables lack. Only such a word goes to lemminflect itself
(:func:`_module`, its singletons given the index's tables), asked in a child process kept
for the run (``apart.Helper``: lemminflect, numpy and the model are its memory, not this
process's; where it cannot answer, here), and its guess is kept in the cache folder
(:func:`save`). The index lives in ``paths.cache_dir()``, named by
lemminflect's version and the index format; a missing, stale or corrupt index is rebuilt,
and where it cannot be written or read lemminflect is used as it is.
"""

from __future__ import annotations

import marshal
import sqlite3
import threading
from functools import lru_cache
from pathlib import Path

FORMAT = 2
_TABLES = ("infl", "lemma", "infl_over", "lemma_over")


@lru_cache(maxsize=1)
def lemminflect():
    """lemminflect as zhen asks it: :class:`Lemminflect` over the index, or (where the index
    cannot be had) the ``lemminflect`` module itself."""
    index = _index()
    return _module() if index is None else Lemminflect(index)


@lru_cache(maxsize=1)
def _module():
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


def _caps_style(word: str) -> str:                      # lemminflect's getCapsStyle
    if word.isupper():
        return "all_upper"
    if word and word[0].isupper():
        return "first_upper"
    return "lower"


def _with_caps(forms: dict, style: str) -> dict:        # lemminflect's applyCapsStyleToDict
    change = str.upper if style == "all_upper" else \
        str.capitalize if style == "first_upper" else str.lower
    return {key: tuple(change(w) for w in words) for key, words in forms.items()}


_ALTS = {"RP": ("JJ", "RB"), "VBD": ("VBN",), "VBN": ("VBD",)}     # its pennTagAlts


def _alternatives(tag: str) -> tuple[str, ...]:
    if tag in _ALTS:
        return _ALTS[tag]
    if tag.startswith("JJ"):
        return ("RB" + tag[2:],)
    if tag.startswith("RB"):
        return ("JJ" + tag[2:],)
    return ()


# What lemminflect's model guessed for a word its tables lack (the gloss engine asks the
# plural of a few verbs: *optimize*), kept in the cache folder beside the index
# (``lemminflect-<version>-guesses.marshal``: "tag\0word" → its answer), so that a later
# run asks lemminflect, and imports numpy, only for a word it has not met; :func:`save`
# writes what this run added (the commands call it at their end, with ``english.save``).
_GUESSES: dict | None = None
_GUESSED = 0
_GUESS_LIMIT = 20_000


def _guesses_path() -> Path | None:
    path = _path()
    return None if path is None else path.with_name(path.name.replace(f"-f{FORMAT}.sqlite",
                                                                      "-guesses.marshal"))


def _guesses() -> dict:
    global _GUESSES
    if _GUESSES is None:
        path = _guesses_path()
        try:
            data = marshal.loads(path.read_bytes()) if path is not None else {}
            _GUESSES = data if isinstance(data, dict) else {}
        except (OSError, ValueError, EOFError, TypeError):
            _GUESSES = {}
    return _GUESSES


def _guessed(lemma: str, tag: str):
    """lemminflect's ``getInflection(lemma, tag)`` for a word its tables lack: its model's
    guess, remembered."""
    global _GUESSED
    key = f"{tag}\0{lemma}"
    found = _guesses().get(key)
    if isinstance(found, tuple) and all(isinstance(x, str) for x in found):
        return found
    answer = _guess_apart(lemma, tag)
    if answer is None:
        answer = guess(lemma, tag)
    _guesses()[key] = answer
    _GUESSED += 1
    return answer


def guess(lemma: str, tag: str) -> tuple[str, ...]:
    """lemminflect's own ``getInflection(lemma, tag)``, its model guessing for a word its
    tables lack (what the guesses child answers)."""
    return tuple(_module().getInflection(lemma, tag, True))


_HELPER = None


def _guess_apart(lemma: str, tag: str) -> tuple[str, ...] | None:
    """:func:`guess` asked of a child kept for the run (``apart.Helper``, closed by
    :func:`save`), so that lemminflect, numpy and the model are never this process's; None
    where the child cannot answer."""
    global _HELPER
    if _HELPER is None:
        from . import apart

        _HELPER = apart.Helper(guess)
    answer = _HELPER.ask(lemma, tag)
    if isinstance(answer, list) and all(isinstance(x, str) for x in answer):
        return tuple(answer)
    return None


def save() -> None:
    """Keep the guesses this run added for the next (a cache: never an error); the guesses
    child, if one was started, ends."""
    global _GUESSED
    if _HELPER is not None:
        _HELPER.close()
    path = _guesses_path()
    if not _GUESSED or _GUESSES is None or path is None:
        return
    from .fileio import write_cache

    data = _GUESSES if len(_GUESSES) <= _GUESS_LIMIT else \
        dict(list(_GUESSES.items())[-_GUESS_LIMIT:])
    write_cache(path, marshal.dumps(data))
    _GUESSED = 0


class Lemminflect:
    """What zhen asks lemminflect (``getInflection``, ``getAllLemmas``,
    ``getAllLemmasOOV``; any other name is the module's), answered from the index and
    lemminflect's overrides in it, as lemminflect's own code answers from its tables
    (``Inflections.getInflection``, ``Lemmatizer.getAllLemmas``) — without importing
    lemminflect, which imports numpy (about 17 MB, 0.2 s) for the model that guesses the
    forms of a word its tables lack. Only such a question (and a proper noun's inflection)
    goes to lemminflect itself (:func:`_module`)."""

    def __init__(self, index: "_Index") -> None:
        self._tables = {name: IndexedTable(index, name) for name in _TABLES}

    def __getattr__(self, name: str):
        return getattr(_module(), name)

    def _forms(self, table: str, word: str) -> dict:
        forms = dict(self._tables[table].get(word, {}))
        forms.update(self._tables[table + "_over"].get(word, {}))
        return forms

    def getInflection(self, lemma, tag, inflect_oov=True):          # noqa: N802 (its name)
        if not isinstance(lemma, str) or not isinstance(tag, str) \
                or tag.upper() in ("NNP", "NNPS"):
            return _module().getInflection(lemma, tag, inflect_oov)
        forms = _with_caps(self._forms("infl", lemma.lower()), _caps_style(lemma))
        form = forms.get(tag, None)
        if form is None:
            for alt in _alternatives(tag):
                form = forms.get(alt, None)
                if form:
                    break
        if form is None and inflect_oov:
            return _guessed(lemma, tag)
        return () if form is None else form

    def getAllLemmas(self, word, upos=None):                        # noqa: N802 (its name)
        if not isinstance(word, str) or upos not in (None, "NOUN", "VERB", "ADJ", "ADV", "AUX"):
            return _module().getAllLemmas(word, upos)
        lemmas = self._forms("lemma", word.lower())
        if upos:
            lemmas = {k: v for k, v in lemmas.items() if k == upos}
        return _with_caps(lemmas, _caps_style(word))

    def getAllLemmasOOV(self, word, upos):                          # noqa: N802 (its name)
        return _module().getAllLemmasOOV(word, upos)


def loaded_tables() -> dict[str, dict]:
    """lemminflect's two tables and their overrides as its own readers load them (what the
    index holds)."""
    from lemminflect import config
    from lemminflect.codecs.InflectionLUCodec import InflectionLUCodec
    from lemminflect.codecs.LemmaLUCodec import LemmaLUCodec
    from lemminflect.codecs.OverridesCodec import OverridesCodec

    return {"infl": InflectionLUCodec.load(config.inflection_lu_fn),
            "lemma": LemmaLUCodec.load(config.lemma_lu_fn),
            "infl_over": OverridesCodec.load(config.infl_overrides_fn),
            "lemma_over": OverridesCodec.load(config.lemma_overrides_fn)}


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
    from .fileio import open_cache

    if not path.is_file():
        return None
    try:
        db = open_cache(path)
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
    from .fileio import write_sqlite

    return write_sqlite(path, _fill, "lemminflect-*.sqlite")


def _fill(db) -> None:
    """The index's table from lemminflect's own readers (``fileio.write_sqlite``'s fill,
    which it runs in a child process: neither lemminflect, numpy nor the tables loaded
    here)."""
    tables = loaded_tables()
    db.execute("CREATE TABLE entries (tab TEXT, word TEXT, value BLOB, "
               "PRIMARY KEY (tab, word)) WITHOUT ROWID")
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    for table in _TABLES:
        db.executemany("INSERT INTO entries VALUES (?, ?, ?)",
                       ((table, word, marshal.dumps(value))
                        for word, value in tables[table].items()))
