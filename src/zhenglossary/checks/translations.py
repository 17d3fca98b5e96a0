"""Checks over existing translations (``x.en.md`` beside ``x.md``)."""

from __future__ import annotations

from typing import Iterable

from ..findings import Finding
from ..prose import prose_view
from ..textutil import LineIndex
from . import CheckContext, check


@check("term-forbidden", "error", "translations")
def forbidden_rendering(ctx: CheckContext) -> Iterable[Finding]:
    """A `forbid` rendering appears in a translation."""
    patterns = [(term, phrase, pattern) for term in ctx.glossary.terms
                for phrase, pattern in term.forbid_patterns()]
    for display, text in ctx.translations.values():
        prose = prose_view(text)
        index = LineIndex(text)
        for term, phrase, pattern in patterns:
            for match in pattern.finditer(prose):
                line, column = index.position(match.start())
                yield Finding("term-forbidden", "error",
                              f"{match.group(0)!r} is forbidden for {term.zh}; write "
                              f"{term.en!r} (glossary line {term.line})",
                              display, line, column,
                              {"zh": term.zh, "en": term.en, "forbidden": phrase})
