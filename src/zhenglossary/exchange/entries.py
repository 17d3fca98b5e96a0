"""What an imported glossary entry is, and the checks every imported value passes, whatever
the format it came in (tbx.py, table.py read into these)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import GlossaryError, UsageError
from ..glossary import Term
from ..textutil import has_cjk

CONTROL_CHARS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def require_toolkit() -> None:
    """Translate Toolkit is the optional ``exchange`` extra (it is GPL-3.0; zhen is MIT)."""
    try:
        import lxml  # noqa: F401
        import translate.storage  # noqa: F401
    except ImportError as exc:
        raise UsageError("TMX, XLIFF and TBX need Translate Toolkit, an optional extra: "
                         "pip install 'zhenglossary[exchange]' (TSV and CSV work without it)") from exc


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


def check_value(value: str, what: str, display: str, line: int) -> str:
    if "\t" in value:
        raise GlossaryError(f"{what} {value!r} contains a tab; a glossary value cannot hold one "
                            "— remove it, or if this is TSV, check that the line has exactly "
                            "one tab between the Chinese and the English", path=display, line=line)
    if "\n" in value or "\r" in value or "\u2028" in value or "\u2029" in value:
        raise GlossaryError(f"{what} {value!r} contains a line break; put each term on one line",
                            path=display, line=line)
    if CONTROL_CHARS.search(value):
        raise GlossaryError(f"{what} {value!r} contains a control character; remove it",
                            path=display, line=line)
    if value.strip().startswith("="):
        raise GlossaryError(f"{what} {value[:60]!r} starts with '=' like a spreadsheet formula; "
                            "a glossary value is plain text — remove the formula", path=display,
                            line=line)
    return value.strip()


def make_candidate(zh: str, en: str, display: str, line: int, *, variants=(), forbid=(), note="",
               tags=()) -> Candidate:
    zh = check_value(zh, "Chinese", display, line)
    en = check_value(en, "English", display, line)
    variants = tuple(check_value(v, "Chinese", display, line) for v in variants)
    forbid = tuple(check_value(v, "English", display, line) for v in forbid)
    tags = tuple(check_value(v, "tag", display, line) for v in tags)
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


def is_zh_code(value: str) -> bool:
    value = value.strip().lower().replace("_", "-")
    return value == "zh" or value.startswith("zh-") or value in ("zho", "chi", "cmn")


def is_en_code(value: str) -> bool:
    value = value.strip().lower().replace("_", "-")
    return value == "en" or value.startswith("en-") or value == "eng"
