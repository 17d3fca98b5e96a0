"""jieba word segmentation with every glossary form added as a user word.

One dictionary per process, jieba's own (``jieba.dt``'s dictionary file), but not loaded
whole: ``jieba.initialize()`` unmarshals a 600,000-entry frequency table (about 0.6 s and
70 MB) before cutting a word, although a ``glossary check`` cuts only a few thousand
characters. Here the table is :class:`FreqTable`, which answers each word jieba asks
about from a SQLite word index (built once from the dictionary file with jieba's own
``gen_pfdict``, so the table and the words cut are jieba's) and remembers the answer.
``tokenizer_for(())`` is the tokenizer over that table. ``tokenizer_for(forms)`` is a
thin tokenizer over the same table plus the glossary's forms (and their prefixes) in a
small dict of its own, in front of the shared table, which is never copied. Each form
gets a frequency high enough that jieba never splits it.

Part-of-speech tagging (``posseg``) reuses ``jieba.posseg``'s tagger code but not its
eager tag table: importing ``jieba.posseg`` normally reads jieba's whole ``dict.txt``
(about 0.5 s and 40 MB) to build a word → tag dict, and every new ``POSTokenizer`` reads it
again. Here the import is made without that read, and every tagger shares one
:class:`TagTable`, which answers ``get(word)`` from the same index. The index also holds
jieba's IDF table (``idf``, ``idf_cut``), which would otherwise be parsed every run. It
lives in ``paths.cache_dir()``; a missing, stale or corrupt index is rebuilt, and where
the cache folder cannot be written the tables are loaded into memory as jieba loads them.

Why this module is long: it is the one place that knows jieba's internals (its
``FREQ``/``total`` contract, ``get_DAG`` and ``calc``, ``jieba.posseg``'s import-time
read, the dictionary file's format) and the index that stands in for its tables; split,
each half would have to know the other's assumptions.

jieba logs to stderr when it loads; the core never prints, so its logger is silenced.
"""

from __future__ import annotations

import logging
import os
import re
import sqlite3
import threading
from collections import ChainMap
from functools import lru_cache
from importlib import metadata
from math import log
from pathlib import Path
from typing import Iterable

from .textutil import CJK_CLASS

_lock = threading.Lock()


@lru_cache(maxsize=1)
def _base():
    """zhen's tokenizer over jieba's own dictionary (the one ``jieba.posseg`` wraps too).

    Its frequency table is :class:`FreqTable`: jieba's ``FREQ`` read word by word from
    the word index, not the whole table loaded at start-up. Where the index cannot be
    written, jieba's table is loaded as ``jieba.initialize()`` loads it."""
    import jieba

    jieba.setLogLevel(logging.WARNING)
    logging.getLogger("jieba").setLevel(logging.WARNING)
    index = _word_index()
    table, total = index.freq_table()
    return _table_class()(table, total, jieba.dt.dictionary)


@lru_cache(maxsize=1)
def _table_class():
    import jieba

    class TableTokenizer(jieba.Tokenizer):
        """jieba's tokenizer over a shared frequency table plus some words of its own.

        ``FREQ`` is a ``ChainMap(own words, shared table)``: ``add_word`` writes into the
        first map only, and the shared table is never copied. The shared table is a
        :class:`FreqTable` (read on demand) or jieba's own dict. The two hot methods read
        the two maps directly (a ChainMap lookup is several times slower than a dict's);
        they are jieba 0.42's ``get_DAG`` and ``calc`` with that one change, so the words
        are jieba's.
        """

        def __init__(self, table, total: int, dictionary) -> None:
            super().__init__(dictionary)
            self.own: dict[str, int] = {}
            self.shared = table
            self.FREQ = ChainMap(self.own, table)
            self.total = total
            self.initialized = True

        def _lookup(self):
            """A function word → frequency (None: not in the table), own words first."""
            own = self.own.get
            shared = self.shared
            if isinstance(shared, FreqTable):
                memo, load = shared.memo.get, shared.load

                def freq(word: str):
                    value = own(word)
                    if value is None:
                        value = memo(word, _MISSING)
                        if value is _MISSING:
                            value = load(word)
                    return value
                return freq
            table = shared.get

            def freq(word: str):
                value = own(word)
                return table(word) if value is None else value
            return freq

        def cut(self, sentence, cut_all=False, HMM=True, use_paddle=False):  # noqa: N803
            """jieba's ``cut``, its runs found by :func:`han_runs` instead of
            ``jieba.re_han_default``: jieba's pattern stops at U+9FD5, so it handed
            Extension A and astral ideographs (𫫇 in 二𫫇英, dioxin) past the dictionary one
            character at a time. For other text the runs, and so the words, are jieba's."""
            if cut_all:
                yield from super().cut(sentence, cut_all, HMM, use_paddle)
                return
            cut_run = self._Tokenizer__cut_DAG if HMM else self._Tokenizer__cut_DAG_NO_HMM
            runs = han_runs()
            for part in runs.split(sentence):
                if not part:
                    continue
                if runs.fullmatch(part):
                    yield from cut_run(part)
                else:
                    yield from super().cut(part, False, HMM)

        def get_DAG(self, sentence: str) -> dict[int, list[int]]:    # noqa: N802 (jieba's name)
            if isinstance(self.shared, FreqTable):
                self.shared.prefetch((sentence,), self.own)
            freq = self._lookup()
            dag = {}
            n = len(sentence)
            for k in range(n):
                ends = []
                i = k
                frag = sentence[k]
                while i < n:
                    value = freq(frag)
                    if value is None:
                        break
                    if value:
                        ends.append(i)
                    i += 1
                    frag = sentence[k:i + 1]
                dag[k] = ends or [k]
            return dag

        def calc(self, sentence: str, DAG, route) -> None:     # noqa: N803 (jieba's name)
            freq = self._lookup()
            n = len(sentence)
            route[n] = (0, 0)
            logtotal = log(self.total)
            for idx in range(n - 1, -1, -1):
                route[idx] = max((log(freq(sentence[idx:x + 1]) or 1) - logtotal
                                  + route[x + 1][0], x) for x in DAG[idx])

    return TableTokenizer


_MISSING = object()


class _Table:
    """A read-only mapping over ``get(word)`` (None: absent), as the jieba dict it stands
    for is used: ``word in table`` and ``table[word]``."""

    def get(self, word: str, default=None):
        raise NotImplementedError

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.get(word) is not None

    def __getitem__(self, word: str):
        value = self.get(word)
        if value is None:
            raise KeyError(word)
        return value


class FreqTable(_Table):
    """jieba's word → frequency table (``Tokenizer.FREQ``: every dictionary word with its
    count, every prefix of one at 0), read on demand from the word index and remembered.

    ``get``, ``in`` and ``[]`` like the dict it stands for; writes go to the memo only
    (jieba's ``add_word`` on a tokenizer over this table writes to its own map instead).

    Reading word by word pays off while the text is small (a check, a note). Once
    :data:`LOAD_AFTER` fragments have been read, the text is large enough that loading the
    whole table, as ``jieba.initialize()`` does, is cheaper than reading on: the memo
    becomes that table and the index is not asked again.
    """

    LOAD_AFTER = 150_000

    def __init__(self, index: "_WordIndex") -> None:
        self.memo: dict[str, int | None] = {}
        self.complete = False           # memo is jieba's whole table
        self._index = index
        self._read = 0
        # sentences already prefetched (a tokenizer with other own words may still ask
        # for a fragment or two more: read when asked)
        self._seen: set[str] = set()

    def _fetched(self, count: int) -> None:
        self._read += count
        if self._read > self.LOAD_AFTER and not self.complete:
            table, _total = self._index.freq_table(whole=True)
            self.memo = table
            self.complete = True

    def prefetch(self, sentences: Iterable[str], own: dict[str, int]) -> None:
        """Read at once every fragment ``get_DAG`` will ask about in ``sentences``, a length
        at a time (one query for all fragments of each length), instead of one query per
        fragment: a fragment is asked about only while its prefix is in the table (or in
        ``own``). Only an optimisation: a fragment not read here is read when asked."""
        if self.complete:
            return
        seen = self._seen
        sentences = [text for text in sentences if text not in seen]
        if len(seen) > 50_000:
            seen.clear()
        seen.update(sentences)
        memo = self.memo
        frontier = [(text, k) for text in sentences for k in range(len(text))]
        size = 1
        read = 0
        while frontier:
            wanted = {frag for frag in (text[k:k + size] for text, k in frontier)
                      if frag not in memo and frag not in own}
            if wanted:
                memo.update(self._index.freqs(wanted))
                read += len(wanted)
            frontier = [(text, k) for text, k in frontier if k + size < len(text)
                        and (text[k:k + size] in own or memo.get(text[k:k + size]) is not None)]
            size += 1
        self._fetched(read)

    def load(self, word: str) -> int | None:
        if self.complete:
            return self.memo.get(word)
        value = self.memo[word] = self._index.freq(word)
        self._fetched(1)
        return value

    def get(self, word: str, default=None):
        value = self.memo.get(word, _MISSING)
        if value is _MISSING:
            value = self.load(word)
        return default if value is None else value

    def __setitem__(self, word: str, value: int) -> None:
        self.memo[word] = value


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
            tokenizer = _table_class()(base.shared, base.total, base.dictionary)
            _add_words(tokenizer, key)
            if len(_cache) > 8:
                _cache.clear()
            _cache[key] = tokenizer
    return tokenizer


def _add_words(tokenizer, forms: frozenset[str]) -> None:
    """Add ``forms`` as user words, each with the frequency that keeps it whole.

    ``suggest_freq(tune=False)`` computes the frequency that makes jieba keep a word whole
    in its own context (it cuts the word, so it asks the table about every substring); a
    floor keeps short forms competitive. The resulting own words and total depend only on
    the forms and jieba's dictionary, so they are kept in the cache folder under a hash of
    both (:data:`WORDS_KEEP` newest): a 5,000-term glossary costs that work once, not on
    every run. A missing or unreadable entry is recomputed; an unwritable folder is no
    error."""
    import marshal

    path = _words_path(forms)
    if path is not None:
        try:
            data = marshal.loads(path.read_bytes())
            if isinstance(data, dict) and data.get("format") == WORDS_FORMAT \
                    and isinstance(data.get("own"), dict) and isinstance(data.get("added"), int):
                tokenizer.own.update(data["own"])
                tokenizer.total += data["added"]
                return
        except (OSError, EOFError, ValueError, TypeError):
            pass
    before = tokenizer.total
    for form in sorted(forms, key=lambda f: (len(f), f)):
        tokenizer.add_word(form, max(tokenizer.suggest_freq(form, False), 1000))
    if path is not None:
        from .fileio import prune, write_cache

        data = marshal.dumps({"format": WORDS_FORMAT, "own": dict(tokenizer.own),
                              "added": tokenizer.total - before})
        if write_cache(path, data):
            prune(path.parent, "*.marshal", WORDS_KEEP)


WORDS_FORMAT = 1
WORDS_KEEP = 16


def _words_path(forms: frozenset[str]) -> Path | None:
    import hashlib

    import jieba

    index = _tags_path(jieba.dt)
    if index is None:
        return None
    digest = hashlib.sha256(b"zhen-jieba-words %d\0%s\0" % (WORDS_FORMAT, index.name.encode()))
    digest.update("\n".join(sorted(forms)).encode("utf-8", "surrogatepass"))
    return index.parent / "jieba-user-words" / f"{digest.hexdigest()[:32]}.marshal"


@lru_cache(maxsize=1)
def han_runs() -> "re.Pattern[str]":
    """What jieba segments as one run: ``jieba.re_han_default`` (Han characters up to
    U+9FD5, letters, digits and ``+#&._%-``) with every CJK ideograph of
    ``textutil.CJK_CLASS`` added to its class (Extension A, U+9FD6–U+9FFF, compatibility
    and astral ideographs)."""
    import jieba

    pattern = jieba.re_han_default.pattern
    return re.compile(pattern.replace("[", "[" + CJK_CLASS, 1))


def blocks(text: str) -> list[tuple[int, int]]:
    """(start, end) of each run of ``text`` that zhen's tokenizer segments on its own: its
    cut splits the text on :func:`han_runs` and cuts each run independently, so cutting one
    run gives the words of the whole text there."""
    return [m.span() for m in han_runs().finditer(text)]


def cut_all(texts: list[str], forms: Iterable[str] = (), hmm: bool = True) -> list[list[str]]:
    """The words of each of ``texts``, as ``cut`` gives them; the table is read for all the
    texts at once (many short texts cost a few queries, not a few per text)."""
    tokenizer = tokenizer_for(forms)
    if isinstance(tokenizer.shared, FreqTable):
        tokenizer.shared.prefetch(texts, tokenizer.own)
    return [list(tokenizer.cut(text, HMM=hmm)) for text in texts]


def cut_runs(document: str, runs: list[str]) -> list[list[str]]:
    """``cut_all(runs, hmm=False)`` for runs of ``document`` (a note's prose: the runs of
    :func:`blocks`), with the words of each run cut before for the same document kept in
    the cache folder (:class:`CutCache`): a note read again cuts only runs it has not
    cut, whatever the glossary (``term-in-word`` cuts the runs that hold a term)."""
    cache = CutCache.for_document(document)
    known = cache.read() if cache is not None else {}
    missing = list(dict.fromkeys(run for run in runs if run not in known))
    if missing:
        known.update(zip(missing, (tuple(words) for words in cut_all(missing, hmm=False))))
        if cache is not None:
            cache.write(known)
    return [list(known[run]) for run in runs]


class CutCache:
    """The words of a document's runs (jieba's dictionary, no user words, no HMM), one
    ``marshal`` file per document in ``cache_dir()/jieba-cuts/<stamp>/``, named by the
    SHA-256 of the document; the stamp is jieba's dictionary (its word index's name) and
    the source of this module, whose cut rules shape the words, so a new jieba, dictionary
    or zhen starts a new folder (the old ones are removed). A file that cannot be read, or
    holds anything but run → words, is ignored and rewritten; a cache folder that cannot
    be written is no error. At most :data:`CUTS_KEEP` files, the oldest go first."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @classmethod
    def for_document(cls, document: str) -> "CutCache | None":
        import hashlib

        import jieba

        from .fileio import add_sources

        index = _tags_path(jieba.dt)
        if index is None:
            return None
        stamp = hashlib.sha256(b"zhen-jieba-cuts %d\0%s\0" % (CUTS_FORMAT, index.name.encode()))
        add_sources(stamp, (__file__,))
        digest = hashlib.sha256(document.encode("utf-8", "surrogatepass")).hexdigest()[:40]
        return cls(index.parent / "jieba-cuts" / stamp.hexdigest()[:24] / f"{digest}.marshal")

    def read(self) -> dict[str, tuple[str, ...]]:
        import marshal

        try:
            data = marshal.loads(self.path.read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            return {}
        if not isinstance(data, dict) or not all(
                isinstance(run, str) and isinstance(words, tuple)
                and all(isinstance(w, str) for w in words) and "".join(words) == run
                for run, words in data.items()):
            return {}
        return data

    def write(self, known: dict[str, tuple[str, ...]]) -> None:
        global _CUTS_PRUNED
        import marshal
        import shutil

        from .fileio import prune, write_cache

        folder = self.path.parent
        new_folder = not folder.is_dir()
        if not write_cache(self.path, marshal.dumps(known)):
            return
        if new_folder:                    # a new stamp: the older stamps' folders go
            for other in folder.parent.iterdir():
                if other.is_dir() and other != folder:
                    shutil.rmtree(other, ignore_errors=True)
        if not _CUTS_PRUNED:              # once a process: at most CUTS_KEEP files
            _CUTS_PRUNED = True
            prune(folder, "*.marshal", CUTS_KEEP)


_CUTS_PRUNED = False
CUTS_FORMAT = 1
CUTS_KEEP = 20_000          # documents' files kept (the oldest go first)


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

    import jieba

    base = _base()
    if "jieba.posseg" in sys.modules:          # someone imported it the ordinary way
        module = sys.modules["jieba.posseg"]
    else:
        # the import builds ``POSTokenizer(jieba.dt)``, which reads jieba.dt's dictionary
        # file for its tags; for the import only, that file is empty (the attribute is
        # restored at once; jieba.dt's own dictionary and cache are unaffected)
        saved = jieba.dt.dictionary
        jieba.dt.dictionary = os.devnull
        try:
            import jieba.posseg as module
        finally:
            jieba.dt.dictionary = saved
    if not isinstance(module.dt.word_tag_tab, TagTable):
        module.dt.word_tag_tab = TagTable(module.dt.word_tag_tab)
    module.dt.tokenizer = base                 # not jieba.dt, which would load its table
    return module


TAGS_FORMAT = 3


class TagTable(_Table):
    """jieba's word → part-of-speech tag table, read on demand (:func:`word_index`).

    ``get(word, default)``, ``word in table`` and ``table[word]``, like the dict it
    replaces. ``loaded`` is the dict ``jieba.posseg`` built, if it built one (then it is
    used as is).
    """

    def __init__(self, loaded: dict[str, str] | None = None) -> None:
        self._dict: dict[str, str] | None = loaded or None
        self._memo: dict[str, str | None] = {}

    def get(self, word: str, default=None):
        value = self._memo.get(word, self)
        if value is self:
            value = self._dict.get(word) if self._dict is not None else \
                _word_index().tag(word)
            if len(self._memo) > 100_000:
                self._memo.clear()
            self._memo[word] = value
        return default if value is None else value

    def update(self, other) -> None:            # jieba's user-word tags (makesure_userdict_loaded)
        for word, tag in dict(other).items():
            self._memo[word] = tag


def idf(word: str) -> float | None:
    """jieba's IDF of ``word`` (``jieba/analyse/idf.txt``); None when jieba lacks it."""
    return _word_index().idf(word)


def idf_cut() -> float:
    """The IDF below which a word is among the 5% most widespread of jieba's IDF table."""
    return _word_index().idf_cut


@lru_cache(maxsize=1)
def _word_index() -> "_WordIndex":
    """The index of jieba's dictionary (``jieba.dt``'s, set by ``jieba.set_dictionary``)."""
    import jieba

    return _WordIndex(jieba.dt)


class _WordIndex:
    """One SQLite file per jieba dictionary: every word's part-of-speech tag and frequency
    (from the dictionary file, with every prefix of a word at frequency 0, as jieba's own
    ``gen_pfdict`` makes its ``FREQ``) and IDF (from ``jieba/analyse/idf.txt``), with the
    frequency total and the IDF cut in ``meta`` rows. Built once into
    ``paths.cache_dir()`` (temp file, then rename); a missing, partial or corrupt file is
    rebuilt; where it cannot be written or read, the tables are loaded into memory for
    this process (the frequencies as ``jieba.initialize()`` loads them)."""

    def __init__(self, tokenizer) -> None:
        self._tokenizer = tokenizer
        self._lock = threading.Lock()
        self._db: sqlite3.Connection | None = None
        self._tags: dict[str, str] | None = None
        self._idf: dict[str, float] | None = None
        self._freq: dict[str, int] | None = None
        self.idf_cut = 0.0
        self.total = 0
        self._open()

    def tag(self, word: str) -> str | None:
        return self._get(word, 0)

    def idf(self, word: str) -> float | None:
        return self._get(word, 1)

    def freq(self, word: str) -> int | None:
        """jieba's ``FREQ[word]``: its count, 0 for a prefix of a word, None if neither."""
        return self._get(word, 2)

    def freqs(self, words) -> dict[str, int | None]:
        """``freq`` of each of ``words``, in as few queries as SQLite allows."""
        words = list(words)
        if self._db is None:
            table = self._memory(2)
            return {w: table.get(w) for w in words}
        found: dict[str, int | None] = dict.fromkeys(words)
        with self._lock:
            try:
                for i in range(0, len(words), 900):
                    chunk = words[i:i + 900]
                    found.update(self._db.execute(
                        "SELECT word, freq FROM words WHERE word IN (%s)" % ",".join("?" * len(chunk)),
                        chunk).fetchall())
            except (sqlite3.Error, AttributeError):     # damaged under us: go to memory
                self._db = None
                table = self._memory(2)
                return {w: table.get(w) for w in words}
        return found

    def freq_table(self, whole: bool = False):
        """(frequency table, total) for a tokenizer: a :class:`FreqTable` over the index,
        or jieba's own loaded dict when the index is not available (or ``whole``)."""
        if self._db is not None and not whole:
            return FreqTable(self), self.total
        return self._memory(2), self.total

    def _get(self, word: str, column: int):
        if self._db is None:
            return self._memory(column).get(word)
        with self._lock:
            try:
                row = self._db.execute("SELECT tag, idf, freq FROM words WHERE word = ?",
                                       (word,)).fetchone()
            except (sqlite3.Error, AttributeError):     # damaged under us: go to memory
                self._db = None
                return self._memory(column).get(word)
        return row[column] if row else None

    def _open(self) -> None:
        from .fileio import copy_built

        path = _tags_path(self._tokenizer)
        if path is not None:
            db = _open_tags(path)
            if db is None and copy_built(path):          # built in another cache folder
                db = _open_tags(path)
            if db is None:
                _build_tags(path, self._tokenizer)
                db = _open_tags(path)
            if db is not None:
                self._db = db
                meta = dict(db.execute("SELECT key, value FROM meta"))
                self.idf_cut = float(meta["idf_cut"])
                self.total = int(meta["total"])
                return
        self._memory(0)

    def _memory(self, column: int) -> dict:
        """The in-memory table of ``column`` (tag, idf, freq), loaded on first use."""
        if column == 0:
            if self._tags is None:
                self._tags = dict(_read_tags(self._tokenizer))
            return self._tags
        if column == 1:
            if self._idf is None:
                self._idf = dict(_read_idf())
                self.idf_cut = _cut(self._idf.values())
            return self._idf
        if self._freq is None:
            tokenizer = self._tokenizer
            tokenizer.initialize()                 # jieba's own load, from its cache
            self._freq, self.total = tokenizer.FREQ, tokenizer.total
        return self._freq


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
    from .fileio import open_cache

    if not path.is_file():
        return None
    try:
        db = open_cache(path)
        done = db.execute("SELECT value FROM meta WHERE key = 'complete'").fetchone()
        float(db.execute("SELECT value FROM meta WHERE key = 'idf_cut'").fetchone()[0])
        int(db.execute("SELECT value FROM meta WHERE key = 'total'").fetchone()[0])
        db.execute("SELECT tag, idf, freq FROM words WHERE word = ?", ("的",)).fetchone()
    except (sqlite3.Error, TypeError, ValueError):
        return None
    if not done or done[0] != "1":
        db.close()
        return None
    return db


def _build_tags(path: Path, tokenizer) -> bool:
    """Write the index to a temp file and rename it into place; False if that fails."""
    from .fileio import write_sqlite

    return write_sqlite(path, _fill_tags, args=(tokenizer.dictionary,))


def _fill_tags(db, dictionary: str | None) -> None:
    """The index's tables from jieba's dictionary file ``dictionary`` (``jieba.dt``'s
    ``dictionary``: None for jieba's own), ``fileio.write_sqlite``'s fill, which it runs in
    a child process.

    jieba's FREQ goes into the table as ``gen_pfdict`` makes it, then is let go; the tags
    and the IDF are streamed into it (an upsert each), and the IDF cut is asked of the
    table: no second word → row dict beside jieba's (about 70 MB at the first run)."""
    import jieba

    tokenizer = jieba.Tokenizer(dictionary)
    with tokenizer.get_dict_file() as handle:
        freq, total = tokenizer.gen_pfdict(handle)      # jieba's own FREQ, prefixes and all
    db.execute("CREATE TABLE words (word TEXT PRIMARY KEY, tag TEXT, idf REAL, "
               "freq INTEGER) WITHOUT ROWID")
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    db.executemany("INSERT INTO words (word, freq) VALUES (?, ?)", freq.items())
    del freq
    db.executemany("INSERT INTO words (word, tag) VALUES (?, ?) ON CONFLICT(word) "
                   "DO UPDATE SET tag = excluded.tag", _read_tags(tokenizer))
    db.executemany("INSERT INTO words (word, idf) VALUES (?, ?) ON CONFLICT(word) "
                   "DO UPDATE SET idf = excluded.idf", _read_idf())
    # _cut's value: the IDF at position len // 20 of the sorted IDFs
    row = db.execute(
        "SELECT idf FROM words WHERE idf IS NOT NULL ORDER BY idf LIMIT 1 "
        "OFFSET (SELECT COUNT(*) / 20 FROM words WHERE idf IS NOT NULL)"
    ).fetchone()
    cut = float(row[0]) if row else 0.0
    db.executemany("INSERT INTO meta VALUES (?, ?)",
                   (("idf_cut", repr(cut)), ("total", str(total))))
