"""Which characters of a Markdown note are prose: code, HTML and URLs are not.

``prose_view(text)`` returns a string of the same length in which every character that is
not prose is replaced by a space (newlines are kept), so offsets, lines and columns found
in the view are those of the note itself.
"""

from __future__ import annotations

import re

from .textutil import CJK_CLASS

# A bare URL ends at white space, a quote, CJK punctuation or full-width forms, or the first
# Chinese character (textutil's one definition: astral ideographs end it too).
_URL_BODY = rf"[^\s<>\"'`\u3000-\u303f\uff00-\uffef{CJK_CLASS}（）]+"
URL_RE = re.compile(rf"(?:https?|ftp)://{_URL_BODY}|www\.[A-Za-z0-9-]+\.{_URL_BODY}")
_URL_TRAIL = ".,;:!?)]}'\""
EMAIL_RE = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}")
INLINE_CODE_RE = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)
INLINE_HTML_RE = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>|<!--.*?-->", re.DOTALL)
AUTOLINK_RE = re.compile(r"<(?:https?|ftp|mailto):[^<>\s]+>")


def find_urls(text: str) -> list[tuple[int, int]]:
    spans = []
    for match in URL_RE.finditer(text):
        start, end = match.span()
        while end > start and text[end - 1] in _URL_TRAIL:
            # keep a closing paren that belongs to the URL: (https://x/a_(b))
            if text[end - 1] == ")" and text[start:end].count("(") >= text[start:end].count(")"):
                break
            end -= 1
        spans.append((start, end))
    return spans


def _blank(chars: list[str], start: int, end: int) -> None:
    for i in range(start, end):
        if chars[i] != "\n":
            chars[i] = " "


def code_block_lines(text: str) -> list[tuple[int, int]]:
    """0-based [start, end) line ranges of fenced/indented code and HTML blocks."""
    from .markdown import parse_tokens

    ranges = []
    for token in parse_tokens(text):
        if token.type in ("fence", "code_block", "html_block") and token.map:
            ranges.append((token.map[0], token.map[1]))
    return ranges


def prose_view(text: str) -> str:
    chars = list(text)
    if not text:
        return text
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)
    starts.append(len(text))
    for first, last in code_block_lines(text):
        _blank(chars, starts[first], starts[min(last, len(starts) - 1)])
    view = "".join(chars)
    for pattern in (INLINE_CODE_RE, AUTOLINK_RE, INLINE_HTML_RE):
        for match in pattern.finditer(view):
            _blank(chars, *match.span())
        view = "".join(chars)
    for span in find_urls(view):
        _blank(chars, *span)
    view = "".join(chars)
    for match in EMAIL_RE.finditer(view):
        _blank(chars, *match.span())
    return "".join(chars)
