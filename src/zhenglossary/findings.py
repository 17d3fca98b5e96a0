"""Finding records: what every check, the glossary loader and the translator report."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

SEVERITIES = ("error", "warning", "info")
_RANK = {name: rank for rank, name in enumerate(SEVERITIES)}


@dataclass(frozen=True)
class Finding:
    check: str
    severity: str
    message: str
    file: str | None = None
    line: int | None = None
    column: int | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.severity not in _RANK:
            raise ValueError(f"unknown severity {self.severity!r}")

    @property
    def where(self) -> str:
        if self.file is None:
            return ""
        out = self.file
        if self.line is not None:
            out += f":{self.line}"
            if self.column is not None:
                out += f":{self.column}"
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Finding":
        """The finding :meth:`to_json` wrote."""
        data = dict(data)
        core = {k: data.pop(k, None) for k in ("check", "severity", "message", "file", "line",
                                               "column")}
        return cls(core["check"], core["severity"], core["message"], core["file"],
                   core["line"], core["column"], data)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        extra = data.pop("extra")
        data.update(extra)
        return data


def sort_findings(findings: list[Finding]) -> list[Finding]:
    """Errors first, then by place, so the most important line is on top."""
    return sorted(findings, key=lambda f: (_RANK[f.severity], f.file or "", f.line or 0,
                                           f.column or 0, f.check, f.message))


def summarize(findings: list[Finding]) -> dict[str, int]:
    counts = {name: 0 for name in SEVERITIES}
    for finding in findings:
        counts[finding.severity] += 1
    return counts


def exit_code_for(findings: list[Finding], *, strict: bool = False) -> int:
    """0 clean; 1 when an error was found (or any warning under ``strict``)."""
    counts = summarize(findings)
    if counts["error"] or (strict and counts["warning"]):
        return 1
    return 0


def unrendered_message(pieces: list[str], english: str) -> str:
    """What the ``unrendered`` finding says of an engine's unrendered pieces, the same in
    ``zhen translate``, ``check`` and ``review``: the pieces it left out of the English
    (the gloss engine drops a character nobody knows) apart from those it copied into the
    English in Chinese (a model copying what it cannot translate), each quoted."""
    pieces = list(dict.fromkeys(p for p in pieces if p))
    copied = [p for p in pieces if p in english]
    dropped = [p for p in pieces if p not in english]
    parts = []
    if dropped:
        parts.append(f"could not render {', '.join(repr(p) for p in dropped)}, left out of the "
                     "English")
    if copied:
        parts.append(f"copied {', '.join(repr(p) for p in copied)} into the English untranslated")
    return f"the engine {' and '.join(parts)} — write the English for it in the parallel file"
