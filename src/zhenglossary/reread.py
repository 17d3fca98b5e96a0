"""The second reading of a note being translated: ``validate.second_reading`` (no Markdown
parser) applied to the English that the first reading (the parser's) passed.

``translate.verify`` calls :func:`read_again` last. A machine-translated block the second
reading finds fault with is written as its source and reported, like any block that fails
the output check; what remains is a place where the parser and the plain reading disagree
about the source itself (prose the parser takes for math, math it takes for prose) — zhen
cannot translate that safely, so it leaves it and says where (``output-invalid`` at the
note's line, exit 1): a misreading never passes silently.
"""

from __future__ import annotations

import re

from .document import Document
from .findings import Finding
from .markdown import unread_nesting
from .prose import prose_view
from .render import LeafText, render_body
from .validate import second_reading

_ENDS = re.compile(r"\r\n|\n|\r")


def read_again(doc: Document, leaves: list[LeafText], header: str, banner: str,
               unrendered: dict[int, str], skip: set[int], reject, findings: list[Finding],
               display: str, body: str | None = None) -> None:
    """The second reading (``validate.second_reading``: no Markdown parser) of the English
    the first one passed. A machine block it finds fault with is written as its source and
    reported (``reject``); what remains — the parser and the plain reading disagree on the
    source itself, so zhen cannot translate it — is an ``output-invalid`` error at the
    note's line. Blocks already reported (``skip``) are not reported again. ``body``: the
    English's body as the first reading read it, when no block changed since (else it is
    rendered again). x.en.md is then rendered from ``leaves`` as they are left."""
    for _ in range(3):
        if body is None:
            body = render_body(doc, leaves, header, banner)
        problems = second_reading(doc.text, body, "".join(unrendered.values()),
                                  parser_prose=lambda body=body: prose_view(body))
        body = None               # x.en.md is rendered again, not held through the reading
        if not problems:
            return
        where = _english_lines(doc, leaves)
        again = False
        unread: list[int] = []              # source lines no leaf block holds
        for problem in problems:
            if problem.line:
                i, line = next(((k, first + min(problem.line - start, last - first))
                                for k, (start, first, last) in enumerate(where)
                                if start <= problem.line <= start + last - first), (None, 0))
                if i is None:
                    line = _outside(problem.line, where)
            else:                           # math the English lost: its line in the source
                line = problem.source_line
                i = next((k for k, leaf in enumerate(leaves)
                          if leaf.first_line <= line <= max(leaf.first_line, leaf.last_line)),
                         None)
            if i is not None and i in skip:
                continue
            if i is not None and leaves[i].translated:
                again |= reject(i, [problem.message])
                skip.add(i)
                continue
            if i is None and problem.kind == "chinese":
                unread.append(line)         # the parser made no block of it: copied as it is
                continue
            findings.append(Finding(
                "output-invalid", "error",
                f"{problem.message}; the Markdown parser and a plain reading disagree about the "
                "source here, so zhen leaves it as it is — check its math and Markdown",
                display, problem.source_line or line or 1))
            if i is not None:
                skip.add(i)
        if unread:                          # the nesting limit's lines are reported already
            hidden = {line for first, last, _ in unread_nesting(doc.text)
                      for line in range(first, last + 1)}
            unread = [line for line in unread if line not in hidden]
        for first, last in _runs(sorted(set(unread))):
            where_ = f"line {first}" if first == last else f"lines {first}–{last}"
            findings.append(Finding(
                "unparsed", "warning",
                f"{where_}: the Markdown parser reads no block here, so the Chinese is "
                "copied untranslated — translate it in the parallel file", display, first))
        if not again:
            return


def _outside(line: int, where: list[tuple[int, int, int]]) -> int:
    """The source line of an English line between leaf blocks (copied verbatim)."""
    before = [(start, first, last) for start, first, last in where if start <= line]
    if not before:
        return line
    start, first, last = before[-1]
    return last + (line - (start + last - first))


def _runs(lines: list[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for line in lines:
        if out and line == out[-1][1] + 1:
            out[-1] = (out[-1][0], line)
        else:
            out.append((line, line))
    return out


def _english_lines(doc: Document, leaves: list[LeafText]) -> list[tuple[int, int, int]]:
    """For each leaf: (its first line in the English body, its first and last source line),
    all 1-based."""
    out, line, pos = [], 1, 0
    for leaf, block in zip(doc.leaves, leaves):
        start, end = doc.span(leaf.start_line, leaf.end_line)
        line += len(_ENDS.findall(doc.text, pos, start))
        out.append((line, block.first_line, block.first_line + len(_ENDS.findall(
            block.english.rstrip("\r\n"))) if block.english.strip() else block.first_line))
        line += len(_ENDS.findall(block.english))
        pos = end
    return out
