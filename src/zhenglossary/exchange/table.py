"""TSV and CSV glossaries: DeepL's headerless ``source<TAB>target`` TSV out; TSV and CSV in
(DeepL's and Amazon Translate's forms, with or without a header naming the columns).

CSV/TSV use the standard library ``csv`` module, not ``translate.storage.csvl10n``: that
store is for Translate Toolkit's own location/source/target CSV and neither writes DeepL's
headerless TSV nor knows Amazon's language-code header. Both are read with the ``csv``
module's quoting (a value in double quotes may hold the separator; ``""`` is a quote), and
a quote that is never closed is refused, naming the line it opened on; CR, LF and CRLF
line endings are all line endings.

Spreadsheets run a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula, so the
TSV export writes such a value with a leading ``'`` (the spreadsheet convention for "this
is text"), and the import takes that ``'`` off again."""

from __future__ import annotations

import csv
import io

from ..errors import GlossaryError
from ..glossary import Glossary, Term
from ..textutil import has_cjk
from .entries import (CONTROL_CHARS, ImportedGlossary, check_value, is_en_code, is_zh_code,
                      make_candidate)

DEEPL_MAX_BYTES = 1024            # DeepL: each glossary source and target at most 1024 bytes
FORMULA_START = ("=", "+", "-", "@")   # what a spreadsheet runs as a formula


def spreadsheet_safe(value: str) -> str:
    """``value`` as a TSV cell that reads back as itself and that no spreadsheet runs: a
    leading formula character (after any ``'``) gets a ``'``; a leading double quote makes
    the cell quoted (``""`` for each quote in it), as the csv module reads it."""
    if value.lstrip("'").startswith(FORMULA_START):
        value = "'" + value
    if value.startswith('"'):
        value = '"' + value.replace('"', '""') + '"'
    return value


def _from_cell(value: str) -> str:
    """A cell as :func:`spreadsheet_safe` wrote it (after the csv module's unquoting), back
    to the value."""
    if value.startswith("'") and value.lstrip("'").startswith(FORMULA_START):
        return value[1:]
    return value


def _deepl_problem(value: str) -> str | None:
    if "\t" in value:
        return "contains a tab"
    if "\n" in value or "\r" in value or "\u2028" in value or "\u2029" in value:
        return "contains a line break"
    if CONTROL_CHARS.search(value):
        return "contains a control character"
    if value != value.strip():
        return "has leading or trailing spaces"
    if len(value.encode("utf-8")) > DEEPL_MAX_BYTES:
        return f"is longer than DeepL's {DEEPL_MAX_BYTES} bytes"
    if not value:
        return "is empty"
    return None


def export_tsv(glossary: Glossary) -> str:
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
            lines.append(f"{spreadsheet_safe(form)}\t{spreadsheet_safe(term.en)}")
    return "\n".join(lines) + "\n" if lines else ""


_ZH_HEADERS = {"zh", "source", "src", "chinese", "中文", "source term", "source_term", "term",
               "源", "原文", "源语言"}
_EN_HEADERS = {"en", "target", "tgt", "english", "英文", "target term", "target_term",
               "translation", "译文", "目标语言"}
_NOTE_HEADERS = {"note", "notes", "description", "comment", "comments", "备注"}
_LANG_HEADERS = {"source_lang", "target_lang", "source language", "target language"}


def _table_rows(text: str, display: str, fmt: str) -> list[tuple[int, list[str]]]:
    """(line number, fields) of each non-blank row, read with the csv module's quoting."""
    rows = []
    reader = csv.reader(io.StringIO(text, newline=""), strict=True,
                        delimiter="\t" if fmt == "tsv" else ",")
    start = 1
    try:
        for fields in reader:
            if reader.line_num > start and any("\n" in f or "\r" in f for f in fields):
                raise GlossaryError(f"has a quoted value that runs from line {start} to line "
                                    f"{reader.line_num}: a double quote is unbalanced, or a "
                                    "value holds a line break; put each term on one line",
                                    path=display, line=start)
            if any(f.strip() for f in fields):
                rows.append((start, [_from_cell(f) for f in fields]))
            start = reader.line_num + 1
    except csv.Error as exc:
        if "unexpected end of data" in str(exc) or reader.line_num > start:
            raise GlossaryError(f"has a double quote that is never closed (the value opened on "
                                f"line {start}); close it, or write a quote inside a quoted "
                                'value as ""', path=display, line=start) from exc
        reason = str(exc).replace("\t", "<TAB>")
        raise GlossaryError(f"is not valid {fmt.upper()}: {reason}; check the quotes on this line "
                            '(a quoted value must end with a quote, then the separator; a '
                            'quote inside it is written "")', path=display,
                            line=reader.line_num) from exc
    return rows


def read_table(text: str, display: str, fmt: str) -> ImportedGlossary:
    rows = _table_rows(text, display, fmt)
    warnings: list[str] = []
    if not rows:
        raise GlossaryError("is empty; nothing to import", path=display)
    first_line, first = rows[0]
    zh_col, en_col, note_col, width = 0, 1, None, None
    if first and not has_cjk(first[0]):
        header = [c.strip().lower() for c in first]
        zh_cols = [i for i, c in enumerate(header) if c in _ZH_HEADERS or is_zh_code(c)]
        en_cols = [i for i, c in enumerate(header) if c in _EN_HEADERS or is_en_code(c)]
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
            if not (is_zh_code(fields[2]) and is_en_code(fields[3])):
                raise GlossaryError(
                    f"is a {fields[2].strip()}→{fields[3].strip()} entry; zhen imports "
                    "Chinese→English (zh, en) entries only", path=display, line=line)
        zh = check_value(fields[zh_col], "Chinese", display, line)
        en = check_value(fields[en_col], "English", display, line)
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
    candidates = [make_candidate(forms[0], en, display, line, variants=forms[1:],
                             note="; ".join(notes)) for line, forms, en, notes in groups]
    if not candidates:
        raise GlossaryError("has a header but no entries; nothing to import", path=display)
    return ImportedGlossary(display, fmt, candidates, warnings)


def _shown(fields: list[str], fmt: str) -> str:
    return "`" + ("<TAB>" if fmt == "tsv" else ",").join(fields)[:80] + "`"


def read_tsv(text: str, display: str) -> ImportedGlossary:
    return read_table(text, display, "tsv")


def read_csv(text: str, display: str) -> ImportedGlossary:
    return read_table(text, display, "csv")
