"""Exchange formats: zhen's pairs and glossary out to CAT tools, other glossaries in.

* ``export_tm(pairs, "tmx" | "xliff")`` — every translated block pair of the parallel files
  as a translation unit (zh source, en target), marked approved or machine, with the note,
  block and lines as context, for OmegaT, memoQ, Trados, Okapi, Weblate, ...
* ``export_glossary(glossary, "tbx" | "tsv")`` — the glossary as TBX (one ``termEntry`` per
  term) or as the two-column TSV that DeepL's glossary API accepts.
* ``import_glossary(path)`` reads TBX, TSV and CSV (DeepL and Amazon Translate forms) into
  :class:`Candidate` entries; ``merge(glossary, candidates)`` sorts them into new, already
  identical and conflicting; ``apply_merge`` appends the new ones to ``glossary.yaml``.

Pure functions: nothing here prints. Bad input raises a :class:`~zhenglossary.errors.ZhenError`
(``GlossaryError`` for a glossary or import file, ``UsageError`` for an unsupported format)
whose message says what to do.

Why Translate Toolkit (``translate-toolkit``, module ``translate.storage``) and not
hand-written ``xml.etree``:

* It is the maintained reference implementation of these formats (it is what Pootle and
  Weblate use): ``tmx.tmxfile``, ``xliff.xlifffile`` and ``tbx.tbxfile`` know the element
  order each DTD requires (TMX ``note``/``prop`` before ``tuv``), ``xml:lang`` and language
  codes, XLIFF ``state``/``approved`` as one workflow state (``set_state_n``), XLIFF location
  context groups, and TBX term alternatives with their ``administrativeStatus``
  (``TBXTerm.deprecated``) and notes by scope.
* Reading files made by *other* tools is the hard half: TBX from termbases comes with
  ``ntig``/``termGrp``, inherited ``xml:space``, notes at three levels, statuses spelled
  several ways; Translate Toolkit reads all of that, and reads XML with a hardened lxml parser
  (no entity expansion, no network), so a hostile file costs nothing.
* Cost (measured on this machine, Python 3.11, a fresh venv): 3 wheels, 6.4 MB downloaded
  (translate-toolkit 0.9 MB, lxml 5.2 MB, unicode-segmentation-rs 0.3 MB), about 20 MB
  installed, about 2 s to install; importing the three storage modules takes about 35 ms,
  and zhen imports them only inside these functions, so other commands do not pay it.
  Licence: Translate Toolkit is GPL-3.0-or-later (lxml is BSD).

What it cannot do, and how it is done instead (on the lxml tree it builds, so the documents
stay Translate Toolkit documents):

* It writes XLIFF 1.1; zhen writes XLIFF 1.2 (what OmegaT/Okapi and the 1.2 ``state-qualifier``
  ``mt-suggestion`` need) by giving ``xlifffile.parsestring`` a 1.2 skeleton, which it keeps.
* Per-unit TMX attributes (``tuid``), the ``x-zhen-status`` prop, the TMX header's tool
  name, XLIFF's ``state-qualifier``, and TBX ``termNote``/``descrip`` elements (status,
  term type, subject field) have no API: they are set on the units' lxml elements.
* TBX v3 (ISO 30042:2019, root ``<tbx>``, ``conceptEntry/langSec/termSec``) is not read by
  Translate Toolkit's ``tbxfile``; a DCA-style v3 file is renamed element by element to the
  2008 (``martif``) form it reads.
* CSV/TSV use the standard library ``csv`` module, not ``translate.storage.csvl10n``: that
  store is for Translate Toolkit's own location/source/target CSV and neither writes DeepL's
  headerless TSV nor knows Amazon's language-code header.

TSV (``export_glossary(g, "tsv")``) is DeepL's glossary form: ``source<TAB>target`` per line,
UTF-8, no header, no quoting, one line per Chinese form (``zh`` and each variant, all with the
entry's ``en``). A value with a tab, a line break or another control character, or longer
than DeepL's 1024 bytes, cannot be written and is refused. (Amazon Translate's custom
terminology wants a header line of language codes, ``zh<TAB>en``; add it by hand for Amazon —
``import_glossary`` reads both.)
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import __version__
from .errors import GlossaryError, NoteReadError, UsageError
from .fileio import write_atomic
from .glossary import MAX_GLOSSARY_BYTES, Glossary, Term, load_glossary_text
from .notes import collect_notes, read_note
from .parallel import NotePairs, Pair, output_paths, pairs_for
from .textutil import has_cjk

TM_FORMATS = ("tmx", "xliff")
GLOSSARY_EXPORT_FORMATS = ("tbx", "tsv")
GLOSSARY_IMPORT_FORMATS = ("tbx", "tsv", "csv")
MAX_IMPORT_BYTES = MAX_GLOSSARY_BYTES
DEEPL_MAX_BYTES = 1024            # DeepL: each glossary source and target at most 1024 bytes
NEW_GLOSSARY = "# zhen glossary, schema v1.\nsource: zh\ntarget: en\nterms:\n"

# How each zhen status is written: (XLIFF state, XLIFF approved, XLIFF state-qualifier).
XLIFF_STATES = {
    "approved": ("final", True, None),
    "edited": ("translated", True, None),
    "machine": ("needs-review-translation", False, "mt-suggestion"),
    "stale": ("needs-review-translation", False, None),
}
STATUS_NOTES = {
    "approved": "approved: a person's English, taken in by zhen translate",
    "edited": "edited: a person changed the English (zhen translate has not run since)",
    "machine": "machine: English as zhen's engine wrote it, not reviewed",
    "stale": "stale: the source changed after this English was written; review it",
}

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_LANG_CODE = re.compile(r"^[a-z]{2,3}([-_][a-z0-9]{2,8})*$", re.IGNORECASE)


# --------------------------------------------------------------------------- pairs


def collect_pairs(paths: list[Path], glossary: Glossary, encoding: str | None = None,
                  out_dir: Path | None = None) -> tuple[list[NotePairs], list[str]]:
    """Pairs of every note under ``paths`` that has ``x.zh-en.md`` beside it (or under
    ``out_dir``, where ``zhen translate --out-dir`` wrote it).

    Returns the pairs and warnings (one line each, for stderr): a note without a parallel
    file, or one that cannot be read, is skipped and named.
    """
    out: list[NotePairs] = []
    warnings: list[str] = []
    for note in collect_notes(paths):
        _, parallel = output_paths(note.path, note.relative, out_dir)
        if not parallel.is_file():
            warnings.append(f"{note.display}: skipped, no parallel file {parallel}; "
                            f"run `zhen translate {note.display}` first")
            continue
        try:
            note_text = read_note(note.path, encoding)
            parallel_text = read_note(parallel)
        except NoteReadError as exc:
            warnings.append(f"skipped: {exc}")
            continue
        out.append(pairs_for(note.path, note.display, note_text, parallel, parallel_text,
                             glossary))
    return out, warnings


def exported_status(pair: Pair) -> str:
    """The status a pair is exported with: ``stale`` also when the note changed since."""
    if pair.status != "same" and not pair.current:
        return "stale"
    return pair.status


def exportable(pairs: list[NotePairs]) -> list[tuple[NotePairs, Pair, str]]:
    """(note, pair, status) of every pair with a source and an English, ``same`` left out."""
    out = []
    for note in pairs:
        for pair in note.pairs:
            if pair.status == "same" or not pair.source.strip() or not pair.english.strip():
                continue
            out.append((note, pair, exported_status(pair)))
    return out


def _term_note(pair: Pair) -> str:
    seen: dict[str, str] = {}
    for match in pair.terms:
        seen.setdefault(match.form, match.term.en)
    return "glossary: " + "; ".join(f"{zh} = {en}" for zh, en in seen.items()) if seen else ""


def _lines(pair: Pair) -> str:
    return pair.lines or "?"


# --------------------------------------------------------------------------- TM export


def require_toolkit() -> None:
    """Translate Toolkit is the optional ``exchange`` extra (it is GPL-3.0; zhen is MIT)."""
    try:
        import lxml  # noqa: F401
        import translate.storage  # noqa: F401
    except ImportError as exc:
        raise UsageError("TMX, XLIFF and TBX need Translate Toolkit, an optional extra: "
                         "pip install 'zhenglossary[exchange]' (TSV and CSV work without it)") from exc


def export_tm(pairs: list[NotePairs], fmt: str) -> str:
    """TMX 1.4 or XLIFF 1.2 of every non-``same`` pair (zh source, en target)."""
    require_toolkit()
    if fmt == "tmx":
        return _export_tmx(pairs)
    if fmt == "xliff":
        return _export_xliff(pairs)
    raise UsageError(f"unknown translation-memory format {fmt!r}; use one of "
                     f"{', '.join(TM_FORMATS)}")


def _export_tmx(pairs: list[NotePairs]) -> str:
    from lxml import etree
    from translate.storage import tmx

    store = tmx.tmxfile(sourcelanguage="zh", targetlanguage="en")
    header = store.document.getroot().find("header")
    header.set("creationtool", "zhen")
    header.set("creationtoolversion", __version__)
    header.set("segtype", "paragraph")         # a Markdown block: paragraph, heading, cell
    header.set("o-tmf", "zhen-parallel-v1")
    header.set("datatype", "plaintext")
    for note, pair, status in exportable(pairs):
        unit = store.addsourceunit(pair.source, "zh")
        unit.settarget(pair.english, "en")
        unit.xmlelement.set("tuid", f"{note.note}#{pair.id}")
        unit.addnote(f"{note.note} {_lines(pair)}, block {pair.index}")
        unit.addnote(STATUS_NOTES[status])
        terms = _term_note(pair)
        if terms:
            unit.addnote(terms)
        unit.setcontext(f"{note.note}#{pair.id}")           # <prop type="x-context">
        prop = etree.Element("prop", type="x-zhen-status")
        prop.text = status
        unit.xmlelement.find("tuv").addprevious(prop)
    return bytes(store).decode("utf-8")


XLIFF12_SKELETON = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
    '<file original="NoName" source-language="zh" target-language="en" datatype="plaintext">'
    "<body/></file></xliff>")


def _export_xliff(pairs: list[NotePairs]) -> str:
    from lxml import etree
    from translate.storage import xliff

    store = xliff.xlifffile.parsestring(XLIFF12_SKELETON.encode("utf-8"))
    store.setsourcelanguage("zh")
    store.settargetlanguage("en")
    for note, pair, status in exportable(pairs):
        unit = store.addsourceunit(pair.source, filename=note.note, createifmissing=True)
        unit.setid(pair.id)
        unit.settarget(pair.english)
        state, approved, qualifier = XLIFF_STATES[status]
        unit.set_state_n(unit.statemap[state])
        unit.markapproved(approved)
        target = unit.xmlelement.find(unit.namespaced("target"))
        if qualifier:
            target.set("state-qualifier", qualifier)
        unit.addnote(f"{note.note} {_lines(pair)}, block {pair.index}", origin="zhen")
        unit.addnote(STATUS_NOTES[status], origin="zhen")
        terms = _term_note(pair)
        if terms:
            unit.addnote(terms, origin="zhen")
        unit.addlocation(f"{note.note}:{pair.line}" if pair.line else note.note)
    store.settargetlanguage("en")            # also on the <file>s made per note
    # units are made in the 1.1 namespace and moved to the store's 1.2 one: drop the
    # declarations of 1.1 left on them
    etree.cleanup_namespaces(store.document.getroot())
    return bytes(store).decode("utf-8")


# --------------------------------------------------------------------------- glossary export


def export_glossary(glossary: Glossary, fmt: str) -> str:
    """TBX (2008, ``martif``, TBX-Basic data categories) or DeepL's headerless TSV."""
    if fmt == "tbx":
        return _export_tbx(glossary)
    if fmt == "tsv":
        return _export_tsv(glossary)
    raise UsageError(f"unknown glossary format {fmt!r}; use one of "
                     f"{', '.join(GLOSSARY_EXPORT_FORMATS)}")


def _entry_id(term: Term) -> str:
    return "t" + hashlib.sha256(term.zh.encode("utf-8")).hexdigest()[:12]


def _export_tbx(glossary: Glossary) -> str:
    require_toolkit()
    from lxml import etree
    from translate.storage import tbx

    store = tbx.tbxfile(sourcelanguage="zh", targetlanguage="en")
    root = store.document.getroot()
    desc = root.find("martifHeader/fileDesc/sourceDesc/p")
    desc.text = f"zhen {__version__}: {Path(glossary.path).name} (schema v1), zh → en"
    for term in glossary.terms:
        unit = store.UnitClass(None)
        store.addunit(unit)
        unit.setid(_entry_id(term))
        unit.set_source_terms(list(term.forms), "zh")
        unit.set_target_terms([term.en, *term.forbid], "en")
        zh_set, en_set = unit.getlanguageNodes()
        for i, tig in enumerate(zh_set.findall("tig")):
            if i:
                _add_term_note(tig, "termType", "variant")
            _add_term_note(tig, "administrativeStatus",
                       "admittedTerm-admn-sts" if i else "preferredTerm-admn-sts")
        for i, tig in enumerate(en_set.findall("tig")):
            _add_term_note(tig, "administrativeStatus",
                       "deprecatedTerm-admn-sts" if i else "preferredTerm-admn-sts")
        # concept-level data categories come before the langSets (TBX/martif order)
        for tag in term.tags:
            node = etree.Element("descrip", type="subjectField")
            node.text = tag
            zh_set.addprevious(node)
        if term.note:
            node = etree.Element("note")
            node.text = term.note
            zh_set.addprevious(node)
    etree.indent(store.document, space="    ")       # one element per line, also in langSets
    return bytes(store).decode("utf-8")


def _add_term_note(tig, kind: str, value: str) -> None:
    from lxml import etree

    node = etree.SubElement(tig, "termNote", type=kind)
    node.text = value


def _deepl_problem(value: str) -> str | None:
    if "\t" in value:
        return "contains a tab"
    if "\n" in value or "\r" in value or "\u2028" in value or "\u2029" in value:
        return "contains a line break"
    if _CONTROL.search(value):
        return "contains a control character"
    if value != value.strip():
        return "has leading or trailing spaces"
    if len(value.encode("utf-8")) > DEEPL_MAX_BYTES:
        return f"is longer than DeepL's {DEEPL_MAX_BYTES} bytes"
    if not value:
        return "is empty"
    return None


def _export_tsv(glossary: Glossary) -> str:
    lines: list[str] = []
    seen: dict[str, Term] = {}
    for term in glossary.terms:
        for form in term.forms:
            for name, value in (("Chinese form", form), ("en", term.en)):
                problem = _deepl_problem(value)
                if problem:
                    raise GlossaryError(
                        f"{name} {value!r} of the entry {term.zh} {problem}; a TSV glossary "
                        "line is `source<TAB>target`, so fix the value in the glossary first",
                        path=glossary.path, line=term.line)
            if form in seen:
                if seen[form].en != term.en:
                    raise GlossaryError(
                        f"Chinese form {form} has two English renderings ({seen[form].en!r} at "
                        f"line {seen[form].line}, {term.en!r}); keep one (run `zhen glossary "
                        "check`)", path=glossary.path, line=term.line)
                continue
            seen[form] = term
            lines.append(f"{form}\t{term.en}")
    return "\n".join(lines) + "\n" if lines else ""


# --------------------------------------------------------------------------- import


@dataclass(frozen=True)
class Candidate:
    """An entry read from an import file: a glossary Term without its YAML positions."""

    zh: str
    en: str
    variants: tuple[str, ...] = ()
    forbid: tuple[str, ...] = ()
    note: str = ""
    tags: tuple[str, ...] = ()
    line: int = 0              # where it starts in the import file
    source: str = field(default="", compare=False)    # the import file

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}" if self.source else f"line {self.line}"

    @property
    def forms(self) -> tuple[str, ...]:
        return (self.zh, *self.variants)

    def to_term(self) -> Term:
        return Term(self.zh, self.en, self.variants, self.forbid, self.note, self.tags, self.line)

    def to_json(self) -> dict:
        data = {"zh": self.zh, "en": self.en}
        for key in ("variants", "forbid", "tags"):
            if getattr(self, key):
                data[key] = list(getattr(self, key))
        if self.note:
            data["note"] = self.note
        data["line"] = self.line
        return data


@dataclass
class ImportedGlossary:
    path: str
    format: str                         # tbx | tsv | csv
    candidates: list[Candidate]
    warnings: list[str] = field(default_factory=list)


def import_glossary(path: Path, fmt: str | None = None) -> list[Candidate]:
    """The entries of a TBX, TSV or CSV glossary (format from the extension and content)."""
    return read_import(path, fmt).candidates


def read_import(path: Path, fmt: str | None = None) -> ImportedGlossary:
    path = Path(path)
    display = str(path)
    text = _read_text(path)
    fmt = fmt or detect_format(path, text)
    if fmt == "tbx":
        return _read_tbx(text, display)
    if fmt in ("tsv", "csv"):
        return _read_table(text, display, fmt)
    raise UsageError(f"cannot import {fmt!r} glossaries; zhen reads "
                     f"{', '.join(GLOSSARY_IMPORT_FORMATS)}")


def _read_text(path: Path) -> str:
    display = str(path)
    try:
        if path.is_dir():
            raise GlossaryError("is a directory; pass the glossary file to import", path=display)
        size = path.stat().st_size
        if size > MAX_IMPORT_BYTES:
            raise GlossaryError(f"is {size // (1024 * 1024)} MB; zhen imports glossaries up to "
                                f"{MAX_IMPORT_BYTES // (1024 * 1024)} MB", path=display)
        raw = path.read_bytes()
    except OSError as exc:
        raise GlossaryError(f"cannot be read: {exc.strerror}; check the path and its "
                            "permissions", path=display) from exc
    if raw.startswith(b"PK\x03\x04"):
        raise UsageError("is a zip file (a spreadsheet?); save it as CSV UTF-8 or as tab-"
                         "separated text and import that", path=display)
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):     # Excel's "Unicode text" is UTF-16
        return raw.decode("utf-16")
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if b"\x00" in raw[:8192]:
        raise GlossaryError("looks binary (it contains NUL bytes); pass a TBX, TSV or CSV file",
                            path=display)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise GlossaryError(
            f"is not UTF-8 (byte {exc.start}); if it is GBK, convert it with "
            f"`iconv -f GB18030 -t UTF-8 {display} > converted{path.suffix}`",
            path=display) from exc


_XML_ROOT = re.compile(r"<(?![?!])(?:[\w.-]+:)?([\w.-]+)")


def detect_format(path: Path, text: str) -> str:
    """tbx, tsv or csv: XML content is TBX whatever the name; then the extension; then the
    first line (a tab: TSV, a comma: CSV)."""
    display = str(path)
    head = text.lstrip()
    if head.startswith("<"):
        match = _XML_ROOT.search(re.sub(r"<!--.*?-->", "", head[:4096], flags=re.S))
        root = match.group(1).lower() if match else ""
        if root in ("martif", "tbx"):
            return "tbx"
        if root == "tmx":
            raise UsageError("is a TMX translation memory, not a glossary; `zhen glossary "
                             "import` reads TBX, TSV or CSV glossaries", path=display)
        if root == "xliff":
            raise UsageError("is an XLIFF file, not a glossary; `zhen glossary import` reads "
                             "TBX, TSV or CSV glossaries", path=display)
        raise UsageError(f"is XML with root <{root or '?'}>, not TBX; `zhen glossary import` "
                         "reads TBX (<martif> or <tbx>), TSV or CSV glossaries", path=display)
    suffix = path.suffix.lower()
    if suffix in (".tsv", ".tab"):
        return "tsv"
    if suffix == ".csv":
        return "csv"
    if suffix in (".tbx",):
        raise GlossaryError("does not start with XML; is it really a TBX file?", path=display)
    if suffix in (".tmx", ".xlf", ".xliff", ".po", ".xlsx", ".xls", ".ods", ".json", ".yaml",
                  ".yml"):
        raise UsageError(f"{suffix} files cannot be imported; `zhen glossary import` reads TBX "
                         "(.tbx), TSV (.tsv) or CSV (.csv) glossaries", path=display)
    first = next((line for line in text.splitlines() if line.strip()), "")
    if "\t" in first:
        return "tsv"
    if "," in first:
        return "csv"
    raise UsageError("cannot tell its format (no tab or comma on the first line); name it "
                     ".tsv, .csv or .tbx", path=display)


def _check_value(value: str, what: str, display: str, line: int) -> str:
    if "\t" in value:
        raise GlossaryError(f"{what} {value!r} contains a tab; a glossary value cannot hold one "
                            "— remove it, or if this is TSV, check that the line has exactly "
                            "one tab between the Chinese and the English", path=display, line=line)
    if "\n" in value or "\r" in value or "\u2028" in value or "\u2029" in value:
        raise GlossaryError(f"{what} {value!r} contains a line break; put each term on one line",
                            path=display, line=line)
    if _CONTROL.search(value):
        raise GlossaryError(f"{what} {value!r} contains a control character; remove it",
                            path=display, line=line)
    return value.strip()


def _candidate(zh: str, en: str, display: str, line: int, *, variants=(), forbid=(), note="",
               tags=()) -> Candidate:
    zh = _check_value(zh, "Chinese", display, line)
    en = _check_value(en, "English", display, line)
    variants = tuple(_check_value(v, "Chinese", display, line) for v in variants)
    forbid = tuple(_check_value(v, "English", display, line) for v in forbid)
    tags = tuple(_check_value(v, "tag", display, line) for v in tags)
    note = " ".join(note.split())
    if not zh or not en:
        missing = "Chinese" if not zh else "English"
        raise GlossaryError(f"the entry has no {missing}; every entry needs Chinese and English "
                            "(remove the line or fill it in)", path=display, line=line)
    for form in (zh, *variants):
        if not has_cjk(form):
            raise GlossaryError(f"{form!r} has no Chinese character; the first column must be "
                                "the Chinese term (for an English→Chinese file, add a header "
                                "line naming the columns, e.g. `en,zh`)", path=display, line=line)
    for value in (en, *forbid):
        if has_cjk(value):
            raise GlossaryError(f"English {value!r} contains Chinese characters; is the file "
                                "English→Chinese? Add a header line naming the columns, e.g. "
                                "`en,zh`", path=display, line=line)
    forbid = tuple(f for f in forbid if f != en)
    return Candidate(zh, en, tuple(dict.fromkeys(v for v in variants if v != zh)),
                     tuple(dict.fromkeys(forbid)), note, tuple(dict.fromkeys(tags)), line, display)


# ----------------------------------------------------------------------- TSV / CSV

_ZH_HEADERS = {"zh", "source", "src", "chinese", "中文", "source term", "source_term", "term",
               "源", "原文", "源语言"}
_EN_HEADERS = {"en", "target", "tgt", "english", "英文", "target term", "target_term",
               "translation", "译文", "目标语言"}
_NOTE_HEADERS = {"note", "notes", "description", "comment", "comments", "备注"}
_LANG_HEADERS = {"source_lang", "target_lang", "source language", "target language"}


def _is_zh_code(value: str) -> bool:
    value = value.strip().lower().replace("_", "-")
    return value == "zh" or value.startswith("zh-") or value in ("zho", "chi", "cmn")


def _is_en_code(value: str) -> bool:
    value = value.strip().lower().replace("_", "-")
    return value == "en" or value.startswith("en-") or value == "eng"


def _table_rows(text: str, display: str, fmt: str) -> list[tuple[int, list[str]]]:
    """(line number, fields) of each non-blank row."""
    rows = []
    if fmt == "tsv":
        for number, line in enumerate(text.split("\n"), start=1):
            line = line.removesuffix("\r")
            if line.strip():
                rows.append((number, line.split("\t")))
        return rows
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        start = 1
        for fields in reader:
            if any(f.strip() for f in fields):
                rows.append((start, fields))
            start = reader.line_num + 1
    except csv.Error as exc:
        raise GlossaryError(f"is not valid CSV: {exc}; check the quotes on this line",
                            path=display, line=reader.line_num) from exc
    return rows


def _read_table(text: str, display: str, fmt: str) -> ImportedGlossary:
    rows = _table_rows(text, display, fmt)
    warnings: list[str] = []
    if not rows:
        raise GlossaryError("is empty; nothing to import", path=display)
    first_line, first = rows[0]
    zh_col, en_col, note_col, width = 0, 1, None, None
    if first and not has_cjk(first[0]):
        header = [c.strip().lower() for c in first]
        zh_cols = [i for i, c in enumerate(header) if c in _ZH_HEADERS or _is_zh_code(c)]
        en_cols = [i for i, c in enumerate(header) if c in _EN_HEADERS or _is_en_code(c)]
        if not zh_cols or not en_cols:
            if len(first) > 1 and has_cjk(first[1]):
                hint = ("it looks English→Chinese; zhen imports Chinese→English, so add a "
                        "header line naming the columns (`en,zh`)")
            else:
                hint = ("it is neither a header naming a Chinese and an English column (`zh,en`, "
                        "`source,target`) nor an entry with Chinese in the first column")
            raise GlossaryError(f"cannot read the first line {_shown(first, fmt)}: {hint}",
                                path=display, line=first_line)
        zh_col, en_col = zh_cols[0], en_cols[0]
        notes = [i for i, c in enumerate(header) if c in _NOTE_HEADERS]
        note_col = notes[0] if notes else None
        ignored = [first[i] for i in range(len(first))
                   if i not in (zh_col, en_col, note_col) and header[i] not in _LANG_HEADERS]
        if ignored:
            warnings.append(f"{display}: ignored column(s) {', '.join(ignored)}")
        width = len(first)
        rows = rows[1:]
    groups: list[tuple[int, list[str], str, list[str]]] = []   # line, forms, en, notes
    for line, fields in rows:
        expected = width or (4 if len(fields) == 4 else 2)
        if len(fields) != expected:
            if fmt == "tsv" and len(fields) > expected:
                raise GlossaryError(
                    f"has {len(fields)} tab-separated fields where {expected} were expected; a "
                    "value contains a tab, which a TSV glossary cannot hold (a line is "
                    "`source<TAB>target`) — remove the extra tab", path=display, line=line)
            sep = "tab-separated" if fmt == "tsv" else "comma-separated"
            raise GlossaryError(f"has {len(fields)} {sep} fields where {expected} were expected "
                                f"(Chinese, English{', and a header' if width else ''}); fix "
                                "this line" + ("" if fmt == "tsv" else
                                               " — quote a value that contains a comma"),
                                path=display, line=line)
        if width is None and expected == 4:                 # DeepL CSV: source,target,zh,en
            if not (_is_zh_code(fields[2]) and _is_en_code(fields[3])):
                raise GlossaryError(
                    f"is a {fields[2].strip()}→{fields[3].strip()} entry; zhen imports "
                    "Chinese→English (zh, en) entries only", path=display, line=line)
        zh = _check_value(fields[zh_col], "Chinese", display, line)
        en = _check_value(fields[en_col], "English", display, line)
        note = fields[note_col].strip() if note_col is not None and note_col < len(fields) else ""
        # consecutive lines with the same English are one entry: zh, then its variants
        # (how export_glossary writes them)
        if groups and groups[-1][2] == en and en:
            if zh not in groups[-1][1]:
                groups[-1][1].append(zh)
            if note and note not in groups[-1][3]:
                groups[-1][3].append(note)
        else:
            groups.append((line, [zh], en, [note] if note else []))
    candidates = [_candidate(forms[0], en, display, line, variants=forms[1:],
                             note="; ".join(notes)) for line, forms, en, notes in groups]
    if not candidates:
        raise GlossaryError("has a header but no entries; nothing to import", path=display)
    return ImportedGlossary(display, fmt, candidates, warnings)


def _shown(fields: list[str], fmt: str) -> str:
    return "`" + ("<TAB>" if fmt == "tsv" else ",").join(fields)[:80] + "`"


# ----------------------------------------------------------------------- TBX

_TBX3_NAMES = {"tbx": "martif", "tbxHeader": "martifHeader", "conceptEntry": "termEntry",
               "langSec": "langSet", "termSec": "tig"}


def _tbx3_to_2008(data: bytes, display: str) -> bytes:
    """A TBX v3 (DCA style) document renamed to the 2008 ``martif`` form tbxfile reads."""
    from lxml import etree
    from translate.misc.xml_helpers import parse_xml

    root = parse_xml(data)
    for node in root.iter():
        if not isinstance(node.tag, str):
            continue
        qname = etree.QName(node)
        if qname.namespace and qname.namespace != "http://www.w3.org/XML/1998/namespace" \
                and not qname.namespace.startswith("urn:iso:std:iso:30042"):
            raise GlossaryError(
                f"is TBX v3 in DCT style (element {qname.localname} in namespace "
                f"{qname.namespace}); export it as DCA-style TBX or TBX 2008 and import that",
                path=display)
        node.tag = _TBX3_NAMES.get(qname.localname, qname.localname)
    etree.cleanup_namespaces(root)
    return etree.tostring(root, encoding="utf-8", xml_declaration=True)


def _status(term) -> str:
    return (term.administrative_status or "").strip().lower().replace(" ", "")


def _read_tbx(text: str, display: str) -> ImportedGlossary:
    require_toolkit()
    from lxml import etree
    from translate.misc.xml_helpers import getXMLlang
    from translate.storage import tbx

    data = text.encode("utf-8")
    data = re.sub(rb"^<\?xml[^>]*\?>", b'<?xml version="1.0" encoding="UTF-8"?>', data.lstrip())
    try:
        if re.search(rb"<(?:\w+:)?tbx[\s>]", data[:4096]):
            data = _tbx3_to_2008(data, display)
        store = tbx.tbxfile.parsestring(data)
    except etree.XMLSyntaxError as exc:
        raise GlossaryError(f"is not well-formed XML: {exc.msg}; fix the file or export it "
                            "again", path=display, line=getattr(exc, "lineno", None)) from exc
    except (AssertionError, ValueError, StopIteration, AttributeError) as exc:
        raise GlossaryError("is not a TBX file this reader understands (root <martif> with "
                            "termEntry/langSet/tig, or TBX v3 <tbx> with conceptEntry/langSec/"
                            "termSec); export TBX-Basic and try again", path=display) from exc
    warnings: list[str] = []
    candidates: list[Candidate] = []
    for unit in store.units:
        line = unit.xmlelement.sourceline or 0
        codes = [getXMLlang(node) or "" for node in unit.getlanguageNodes()]
        zh_codes = [c for c in codes if _is_zh_code(c)]
        en_codes = [c for c in codes if _is_en_code(c)]
        if not zh_codes or not en_codes:
            warnings.append(f"{display}:{line}: skipped an entry without both a Chinese and an "
                            f"English term (languages: {', '.join(codes) or 'none'})")
            continue
        zh_code = min(zh_codes, key=lambda c: (c.lower() not in ("zh", "zh-cn", "zh-hans"), c))
        en_code = min(en_codes, key=lambda c: (c.lower() != "en", c))
        if len(set(zh_codes)) > 1:
            warnings.append(f"{display}:{line}: several Chinese languages ({', '.join(zh_codes)});"
                            f" read {zh_code}")
        zh_terms = [t for t in unit.get_target_terms(zh_code) if t.text.strip()]
        en_terms = [t for t in unit.get_target_terms(en_code) if t.text.strip()]
        zh_ok = [t for t in zh_terms if not t.deprecated]
        en_ok = [t for t in en_terms if not t.deprecated]
        if not zh_ok or not en_ok:
            warnings.append(f"{display}:{line}: skipped an entry whose Chinese or English terms "
                            "are all deprecated")
            continue
        zh_main = next((t for t in zh_ok if "preferred" in _status(t)), zh_ok[0])
        en_main = next((t for t in en_ok if "preferred" in _status(t)), en_ok[0])
        others = [t.text.strip() for t in en_ok if t is not en_main]
        if others:
            warnings.append(f"{display}:{line}: {zh_main.text.strip()}: kept "
                            f"{en_main.text.strip()!r}; dropped the other English "
                            f"{', '.join(map(repr, others))} (a zhen entry has one English form)")
        tags, notes = [], []
        for note in unit.get_common_notes(source=True):
            if note.scope != "concept" or not note.text.strip():
                continue
            if (note.category or "").lower() == "subjectfield":
                tags.append(note.text.strip())
            elif note.origin != "pos":
                notes.append(note.text.strip())
        candidates.append(_candidate(
            zh_main.text, en_main.text, display, line,
            variants=[t.text for t in zh_ok if t is not zh_main],
            forbid=[t.text for t in en_terms if t.deprecated],
            note="; ".join(dict.fromkeys(notes)), tags=tags))
    if not candidates:
        raise GlossaryError("has no entry with both a Chinese (zh) and an English (en) term; "
                            "nothing to import", path=display)
    return ImportedGlossary(display, "tbx", candidates, warnings)


# --------------------------------------------------------------------------- merge


@dataclass
class Skipped:
    candidate: Candidate
    reason: str

    def to_json(self) -> dict:
        return {**self.candidate.to_json(), "reason": self.reason}


@dataclass
class Conflict:
    kind: str              # different-en | new-form | forbid-differs | import-disagrees
    form: str              # the Chinese form in question
    incoming: Candidate
    existing_en: str | None
    glossary_line: int | None       # line of the glossary entry (None: between import lines)
    message: str
    other_line: int | None = None   # import-disagrees: the other line of the import file

    def to_json(self) -> dict:
        return {"kind": self.kind, "form": self.form, "incoming_en": self.incoming.en,
                "existing_en": self.existing_en, "glossary_line": self.glossary_line,
                "import_line": self.incoming.line, "other_import_line": self.other_line,
                "message": self.message, "incoming": self.incoming.to_json()}


@dataclass
class MergeReport:
    added: list[Candidate] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)   # checks the added entries would trip

    def to_json(self) -> dict:
        return {"added": [c.to_json() for c in self.added],
                "skipped": [s.to_json() for s in self.skipped],
                "conflicts": [c.to_json() for c in self.conflicts],
                "warnings": self.warnings,
                "summary": {"added": len(self.added), "skipped": len(self.skipped),
                            "conflicts": len(self.conflicts)}}


def merge(glossary: Glossary, candidates: list[Candidate]) -> MergeReport:
    """Sort ``candidates`` into new entries, entries the glossary already has, and conflicts.

    Nothing is overwritten: a conflict is reported, never applied. Conflicts are

    * ``different-en`` — a Chinese form (zh or variant) the glossary renders differently;
    * ``new-form`` — an entry mixing forms the glossary has with forms it lacks (the new forms
      belong in that entry's ``variants``, which only a person should edit);
    * ``forbid-differs`` — an entry the glossary has, with ``forbid`` renderings it lacks;
    * ``import-disagrees`` — two entries of the import file render one form differently
      (neither is applied).

    An entry whose every form the glossary already maps to the same English is skipped as
    identical, whichever entry of the glossary holds each form; so is an entry repeating an
    earlier one of the same import.
    """
    report = MergeReport()
    gpath = glossary.path
    existing = glossary.form_map
    incoming_en: dict[str, list[Candidate]] = {}
    for cand in candidates:
        for form in cand.forms:
            incoming_en.setdefault(form, []).append(cand)
    disagree: dict[int, Conflict] = {}
    for form, cands in incoming_en.items():
        if len({c.en for c in cands}) > 1:
            for c in cands:
                other = next(o for o in cands if o.en != c.en)
                disagree.setdefault(id(c), Conflict(
                    "import-disagrees", form, c, None, None,
                    f"{form}: the import file gives two English renderings, {c.en!r} "
                    f"({c.where}) and {other.en!r} ({other.where}); neither is imported — "
                    "keep one in the file", other.line))
    pending: dict[str, Candidate] = {}
    for cand in candidates:
        if id(cand) in disagree:
            report.conflicts.append(disagree[id(cand)])
            continue
        known = {f: existing[f] for f in cand.forms if f in existing}
        differing = [(f, t) for f, t in known.items() if t.en != cand.en]
        if differing:
            form, term = differing[0]
            line = term.form_lines.get(form, (term.line, 0))[0] or term.line
            where = "" if form == term.zh else f" (a variant of {term.zh})"
            report.conflicts.append(Conflict(
                "different-en", form, cand, term.en, line,
                f"{form}{where}: the glossary has {term.en!r} ({gpath}:{line}), the import has "
                f"{cand.en!r} ({cand.where}); not imported — change one of them by hand"))
            continue
        new_forms = [f for f in cand.forms if f not in existing]
        if known and new_forms:
            term = next(iter(known.values()))
            report.conflicts.append(Conflict(
                "new-form", new_forms[0], cand, term.en, term.line,
                f"{', '.join(new_forms)}: the import makes {'them' if len(new_forms) > 1 else 'it'}"
                f" a form of {term.en!r} ({cand.where}), which the glossary entry {term.zh} "
                f"({gpath}:{term.line}) has; not imported — add {', '.join(new_forms)} to that "
                "entry's variants by hand"))
            continue
        if known:
            terms = list(dict.fromkeys(known.values()))
            have = {f for t in terms for f in t.forbid}
            extra = [f for f in cand.forbid if f not in have]
            if extra:
                term = terms[0]
                report.conflicts.append(Conflict(
                    "forbid-differs", cand.zh, cand, term.en, term.line,
                    f"{cand.zh}: the import ({cand.where}) also forbids "
                    f"{', '.join(map(repr, extra))}, the glossary entry {term.zh} "
                    f"({gpath}:{term.line}) does not; not imported — add it to that entry's "
                    "forbid by hand"))
                continue
            holders = ", ".join(f"{t.zh} ({gpath}:{t.line})" for t in terms)
            report.skipped.append(Skipped(cand, f"already in the glossary: {holders}"))
            continue
        earlier = next((pending[f] for f in cand.forms if f in pending), None)
        if earlier is not None:
            if all(f in pending for f in cand.forms) and set(cand.forbid) <= set(earlier.forbid):
                report.skipped.append(Skipped(cand, f"repeats {earlier.where}"))
            else:
                report.conflicts.append(Conflict(
                    "import-disagrees", cand.zh, cand, earlier.en, None,
                    f"{cand.zh}: {cand.where} and {earlier.where} list overlapping Chinese forms "
                    "differently; only the first is imported — merge them in the file",
                    earlier.line))
            continue
        for form in cand.forms:
            pending[form] = cand
        report.added.append(cand)
    if report.added:
        report.warnings = _new_warnings(glossary, report.added)
    return report


def _new_warnings(glossary: Glossary, added: list[Candidate]) -> list[str]:
    """The ``forbid-conflict`` warnings the added entries would bring (a forbid of one entry
    that another entry's English contains: a sentence with both can never pass). Only pairs
    involving a new entry are checked, so this costs nothing on a large glossary."""
    from .textutil import normalize_english, whole_phrase_re

    out: list[str] = []
    new_terms = [c.to_term() for c in added]
    everyone = [*glossary.terms, *new_terms]

    def check(term: Term, others: list[Term]) -> None:
        for phrase in term.forbid:
            if normalize_english(phrase) == normalize_english(term.en):
                continue
            pattern = whole_phrase_re(phrase)
            for other in others:
                if other is not term and pattern.search(other.en):
                    out.append(f"{term.zh} forbids {phrase!r}, but {other.zh} must be rendered "
                               f"{other.en!r}; a sentence with both terms cannot pass")

    for term in new_terms:
        check(term, everyone)
    for term in glossary.terms:
        if term.forbid:
            check(term, new_terms)
    return list(dict.fromkeys(out))


# --------------------------------------------------------------------------- applying


def _plain_ok(value: str, in_flow: bool) -> bool:
    import yaml

    if not value or value != value.strip() or value[0] in "!&*\"'%@`|>#-?:[]{},":
        return False
    if in_flow and any(c in value for c in ",[]{}"):
        return False
    doc = f"k: [{value}]" if in_flow else f"k: {value}"
    try:
        loaded = yaml.safe_load(doc)
    except yaml.YAMLError:
        return False
    return loaded == {"k": [value] if in_flow else value}


def yaml_scalar(value: str, in_flow: bool = False) -> str:
    """``value`` as a one-line YAML scalar: plain when that reads back as the same string,
    else double-quoted (JSON's escaping is valid YAML)."""
    if _plain_ok(value, in_flow):
        return value
    return json.dumps(value, ensure_ascii=False)


def entry_yaml(cand: Candidate, dash_col: int = 2, key_col: int | None = None,
               newline: str = "\n") -> str:
    """One v1 entry as block YAML, the style of the shipped glossary.yaml."""
    key_col = dash_col + 2 if key_col is None else key_col
    first = " " * dash_col + "-" + " " * (key_col - dash_col - 1)
    pad = " " * key_col
    lines = [f"{first}zh: {yaml_scalar(cand.zh)}", f"{pad}en: {yaml_scalar(cand.en)}"]
    for key in ("variants", "forbid"):
        values = getattr(cand, key)
        if values:
            lines.append(f"{pad}{key}: [" + ", ".join(yaml_scalar(v, True) for v in values) + "]")
    if cand.note:
        lines.append(f"{pad}note: {yaml_scalar(cand.note)}")
    if cand.tags:
        lines.append(f"{pad}tags: [" + ", ".join(yaml_scalar(v, True) for v in cand.tags) + "]")
    return newline.join(lines) + newline


def _scalar_ends(node, out: list) -> None:
    import yaml

    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            _scalar_ends(key, out)
            _scalar_ends(value, out)
    elif isinstance(node, yaml.SequenceNode) and not node.flow_style:
        for item in node.value:
            _scalar_ends(item, out)
    else:
        out.append(node.end_mark)


def append_terms(text: str, candidates: list[Candidate], comment: str | None = None,
                 path: str = "glossary.yaml") -> str:
    """``text`` with ``candidates`` appended to the end of its ``terms:`` list. Every byte
    before the insertion point (the end of the last entry's last line) is kept, and so is
    everything after it (trailing comments, later keys)."""
    import yaml

    if not candidates:
        return text
    newline = "\r\n" if "\r\n" in text else "\n"
    body = text[1:] if text.startswith("\ufeff") else text
    bom = text[:len(text) - len(body)]
    try:
        root = yaml.compose(body, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        raise GlossaryError(f"cannot be read as YAML ({exc}); run `zhen glossary check`",
                            path=path) from exc
    terms = None
    if isinstance(root, yaml.MappingNode):
        for key, value in root.value:
            if isinstance(key, yaml.ScalarNode) and key.value == "terms":
                terms = (key, value)
    if terms is None:
        raise GlossaryError("has no top-level `terms:` list to append to; add `terms:` (see "
                            "the README)", path=path)
    key, seq = terms
    dash_col, key_col = key.start_mark.column + 2, None
    if isinstance(seq, yaml.SequenceNode) and seq.value and not seq.flow_style:
        dash_col = seq.start_mark.column
        if isinstance(seq.value[0], yaml.MappingNode):
            key_col = seq.value[0].start_mark.column
        ends: list = []
        _scalar_ends(seq.value[-1], ends)
        end = max(ends, key=lambda m: m.index)
    elif isinstance(seq, yaml.ScalarNode) and seq.tag == "tag:yaml.org,2002:null":
        end = key.end_mark
    else:
        raise GlossaryError("writes `terms` in flow style ([...]); write it as a block list "
                            "(one `- zh:` entry per line group, as in the README) to import "
                            "into it", path=path)
    pos = end.index
    if end.column != 0 or pos == 0:
        nl = body.find("\n", pos)
        pos = len(body) if nl < 0 else nl + 1
    before, after = body[:pos], body[pos:]
    if before and not before.endswith("\n"):
        before += newline
    block = "".join(entry_yaml(c, dash_col, key_col, newline) for c in candidates)
    if comment:
        block = " " * dash_col + "# " + " ".join(comment.split()) + newline + block
    return bom + before + block + after


def _same_terms(old: list[Term], new: list[Term]) -> bool:
    fields = ("zh", "en", "variants", "forbid", "note", "tags")
    key = lambda t: tuple(getattr(t, f) for f in fields)    # noqa: E731
    return [key(t) for t in old] == [key(t) for t in new[:len(old)]]


def read_glossary_text(path: Path) -> str:
    """The glossary's text exactly as stored (line endings and BOM kept)."""
    try:
        size = Path(path).stat().st_size
        if size > MAX_GLOSSARY_BYTES:
            raise GlossaryError(f"the glossary is {size // (1024 * 1024)} MB; zhen reads "
                                f"glossaries up to {MAX_GLOSSARY_BYTES // (1024 * 1024)} MB",
                                path=str(path))
        return Path(path).read_bytes().decode("utf-8")
    except OSError as exc:
        raise GlossaryError(f"cannot read the glossary: {exc.strerror}", path=str(path)) from exc
    except UnicodeDecodeError as exc:
        raise GlossaryError(f"the glossary is not UTF-8 (byte {exc.start}); convert it with "
                            "iconv first", path=str(path)) from exc


def load_for_merge(path: Path) -> tuple[Glossary, str]:
    """The glossary at ``path`` and its exact text, refusing one with errors (as
    ``load_glossary(strict=True)`` does). A path that does not exist is a new, empty glossary
    (text ``""``)."""
    path = Path(path)
    if not path.exists() and not path.is_symlink():
        return Glossary([], str(path)), ""
    if path.is_dir():
        raise GlossaryError("is a directory; pass the glossary YAML file itself", path=str(path))
    text = read_glossary_text(path)
    glossary = load_glossary_text(text.removeprefix("\ufeff"), str(path))
    if glossary.errors:
        first = glossary.errors[0]
        raise GlossaryError(f"{first.message} (run `zhen glossary check` for all problems; fix "
                            "the glossary before importing into it)", path=str(path),
                            line=first.line, column=first.column)
    return glossary, text


def apply_merge(path: Path, text: str, report: MergeReport, comment: str | None = None,
                glossary: Glossary | None = None) -> Glossary | None:
    """Append ``report.added`` to the glossary at ``path`` whose text was ``text`` when it was
    merged (an empty string: a new file; ``glossary``: what that text loaded as, to save loading
    it again). The result is loaded and checked *before* anything is written: nothing is
    written when there is nothing to add, when the result would not load without errors or
    would change an existing entry, or when the file changed meanwhile (the last two raise
    GlossaryError). Returns the new glossary as it loads from the written file (None: nothing
    written)."""
    path = Path(path)
    if not report.added:
        return None
    base = text or NEW_GLOSSARY
    if not text:
        old = []
    elif glossary is not None:
        old = glossary.terms
    else:
        old = load_glossary_text(base.removeprefix("\ufeff"), str(path)).terms
    new_text = append_terms(base, report.added, comment, str(path))
    check = load_glossary_text(new_text.lstrip("\ufeff"), str(path))
    if check.errors or not _same_terms(old, check.terms) \
            or len(check.terms) != len(old) + len(report.added):
        first = check.errors[0].message if check.errors else "the existing entries would change"
        raise GlossaryError(f"importing would break the glossary ({first}); nothing was written",
                            path=str(path))
    current = read_glossary_text(path) if path.exists() else ""
    if current != text:
        raise GlossaryError("changed while importing; nothing was written — run the import "
                            "again", path=str(path))
    write_atomic(path, new_text)
    if read_glossary_text(path) != new_text:         # what a later load_glossary will read
        raise GlossaryError("was not written as expected; check the file and the disk",
                            path=str(path))
    return check
