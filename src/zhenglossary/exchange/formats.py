"""The format table: every exchange format zhen knows, what it can do (export pairs, export
the glossary, import a glossary), its file extensions, and the function for each — Translate
Toolkit's store factory, for zhen's formats. Adding a format is adding a module and a row.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..errors import GlossaryError, UsageError
from ..glossary import Glossary, read_glossary_file
from ..parallel import NotePairs
from . import candidates, table, tbx, tm
from .entries import Candidate, ImportedGlossary, require_toolkit


@dataclass(frozen=True)
class Format:
    name: str
    extensions: tuple[str, ...]
    export_pairs: Callable[[list[NotePairs]], str] | None = None
    export_glossary: Callable[[Glossary], str] | None = None
    read_glossary: Callable[[str, str], ImportedGlossary] | None = None   # (text, display)


FORMATS: dict[str, Format] = {f.name: f for f in (
    Format("tmx", (".tmx",), export_pairs=tm.export_tmx),
    Format("xliff", (".xlf", ".xliff"), export_pairs=tm.export_xliff),
    Format("tbx", (".tbx",), export_glossary=tbx.export_tbx, read_glossary=tbx.read_tbx),
    Format("tsv", (".tsv", ".tab"), export_glossary=table.export_tsv,
           read_glossary=table.read_tsv),
    Format("csv", (".csv",), read_glossary=table.read_csv),
    Format("yaml", (".yaml", ".yml"), read_glossary=candidates.read_yaml),
)}
TM_FORMATS = tuple(n for n, f in FORMATS.items() if f.export_pairs)
GLOSSARY_EXPORT_FORMATS = tuple(n for n, f in FORMATS.items() if f.export_glossary)
GLOSSARY_IMPORT_FORMATS = tuple(n for n, f in FORMATS.items() if f.read_glossary)
# files people try to import that are not glossaries in any format zhen reads
_NOT_GLOSSARIES = (".po", ".xlsx", ".xls", ".ods", ".json")


def export_tm(pairs: list[NotePairs], fmt: str) -> str:
    """TMX 1.4 or XLIFF 1.2 of every non-``same`` pair (zh source, en target)."""
    require_toolkit()
    exporter = FORMATS[fmt].export_pairs if fmt in FORMATS else None
    if exporter is None:
        raise UsageError(f"unknown translation-memory format {fmt!r}; use one of "
                         f"{', '.join(TM_FORMATS)}")
    return exporter(pairs)


def export_glossary(glossary: Glossary, fmt: str) -> str:
    """TBX (2008, ``martif``, TBX-Basic data categories) or DeepL's headerless TSV."""
    exporter = FORMATS[fmt].export_glossary if fmt in FORMATS else None
    if exporter is None:
        raise UsageError(f"unknown glossary format {fmt!r}; use one of "
                         f"{', '.join(GLOSSARY_EXPORT_FORMATS)}")
    return exporter(glossary)


def import_glossary(path: Path, fmt: str | None = None) -> list[Candidate]:
    """The entries of a TBX, TSV or CSV glossary (format from the extension and content)."""
    return read_import(path, fmt).candidates


def read_import(path: Path, fmt: str | None = None) -> ImportedGlossary:
    path = Path(path)
    text = read_glossary_file(path)
    fmt = fmt or detect_format(path, text)
    reader = FORMATS[fmt].read_glossary if fmt in FORMATS else None
    if reader is None:
        raise UsageError(f"cannot import {fmt!r} glossaries; zhen reads "
                         f"{', '.join(GLOSSARY_IMPORT_FORMATS)}")
    return reader(text, str(path))


_XML_ROOT = re.compile(r"<(?![?!])(?:[\w.-]+:)?([\w.-]+)")


def detect_format(path: Path, text: str) -> str:
    """tbx, tsv, csv or yaml: XML content is TBX whatever the name; then the extension; then
    the first line (a tab: TSV, a comma: CSV)."""
    display = str(path)
    head = text.lstrip()
    if head.startswith("<"):
        match = _XML_ROOT.search(re.sub(r"<!--.*?-->", "", head[:4096], flags=re.S))
        root = match.group(1).lower() if match else ""
        if root in ("martif", "tbx"):
            return "tbx"
        if root == "tmx":
            raise UsageError("is a TMX translation memory, not a glossary; `zhen glossary "
                             "import` reads TBX, TSV, CSV or YAML glossaries", path=display)
        if root == "xliff":
            raise UsageError("is an XLIFF file, not a glossary; `zhen glossary import` reads "
                             "TBX, TSV, CSV or YAML glossaries", path=display)
        raise UsageError(f"is XML with root <{root or '?'}>, not TBX; `zhen glossary import` "
                         "reads TBX (<martif> or <tbx>), TSV or CSV glossaries", path=display)
    suffix = path.suffix.lower()
    by_extension = next((f for f in FORMATS.values() if suffix in f.extensions), None)
    if by_extension is not None and by_extension.read_glossary:
        if by_extension.name == "tbx":              # TBX is XML: it started with "<" above
            raise GlossaryError("does not start with XML; is it really a TBX file?",
                                path=display)
        return by_extension.name
    if by_extension is not None or suffix in _NOT_GLOSSARIES:
        raise UsageError(f"{suffix} files cannot be imported; `zhen glossary import` reads TBX "
                         "(.tbx), TSV (.tsv), CSV (.csv) or YAML (.yaml) glossaries", path=display)
    first = next((line for line in text.splitlines() if line.strip()), "")
    if "\t" in first:
        return "tsv"
    if "," in first:
        return "csv"
    raise UsageError("cannot tell its format (no tab or comma on the first line); name it "
                     ".tsv, .csv or .tbx", path=display)
