"""Which characters of a Markdown note are prose: what the translation translates.

``prose_view(text)`` returns a string of the same length in which every character that is
not prose is replaced by a space (newlines are kept), so offsets, lines and columns found
in the view are those of the note itself. It is what the glossary matcher, usage counts
and the checks scan, so a term inside a link title, math, a role, a footnote label or
front matter — all copied unchanged by the translation — is not counted as used.

Prose is found by the Markdown parser (:mod:`.document`'s inline nodes, aligned to the
note's offsets), not by patterns; the only patterns here are the bare URL and e-mail
address inside text (which the translation protects too, :mod:`.locking`), and the
fallback for a region the parser's tokens could not be aligned to.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .document import Raw, Wrap, parse_document
from .markdown import KEEP_CHARS
from .textutil import CJK_CLASS

# A bare URL: ``http://``, ``https://``, ``ftp://`` or ``www.`` and what follows, to white
# space, ``<``, ``>``, a quote, CJK or full-width punctuation (，。（）、“” …) or a Chinese
# character — except that in its path, query or fragment (after the first ``/``, ``?`` or
# ``#``) a run of Chinese characters that starts right after a delimiter (``/ ? # = & : _
# - + ~ (``) is part of it: ``https://wiki.example.org/运维/节点故障``, ``?q=节点&lang=zh``,
# ``/wiki/Linux_内核``. Chinese glued to letters or digits (``…/guide中的说明``,
# ``见https://x.org/a这里``) and Chinese in the host are not. Its trailing ASCII punctuation
# is not part of it either (find_urls). What is Chinese is textutil's one definition
# (astral ideographs too). validate.py reads URLs with its own code, to the same rule.
_URL_CHAR = rf"[^\s<>\"'`\u00b7\u2013-\u2015\u2018-\u201f\u2026\u3000-\u303f\uff00-\uffef{CJK_CLASS}]"
_URL_TAIL = (rf"(?:[/?#](?:{_URL_CHAR}|(?<=[/?#=&:_+~(\-])[{CJK_CLASS}]+)*)?")
_URL_HOST = rf"(?:(?![/?#]){_URL_CHAR})*"
URL_RE = re.compile(rf"(?:https?|ftp)://(?={_URL_CHAR}){_URL_HOST}{_URL_TAIL}"
                    rf"|www\.[A-Za-z0-9-]+\.(?={_URL_CHAR}){_URL_HOST}{_URL_TAIL}")
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


class _Chars:
    """A string being edited in place, one code point per four bytes (UTF-32): a list of
    one-character strings would cost a separate object, about 80 bytes, for every Chinese
    character of the note (a 10 MB note's view: hundreds of MB)."""

    __slots__ = ("buf",)

    def __init__(self, text: str) -> None:
        self.buf = bytearray(_encode(text))

    def __getitem__(self, k: slice) -> str:
        return _decode(self.buf[4 * k.start:4 * k.stop])

    def __setitem__(self, k: slice, value: str) -> None:
        self.buf[4 * k.start:4 * k.stop] = _encode(value)

    def __str__(self) -> str:
        return _decode(self.buf)


def _encode(text: str) -> bytes:
    return text.encode("utf-32-le", "surrogatepass")


def _decode(data) -> str:
    return bytes(data).decode("utf-32-le", "surrogatepass")


_NOT_NEWLINE = re.compile(r"[^\n]")
_NOT_LINE_END = re.compile(r"[^\r\n]")


def _blank(chars: _Chars, start: int, end: int) -> None:
    """Every character of ``[start, end)`` but a newline becomes a space."""
    if end > start:
        chars[start:end] = _NOT_NEWLINE.sub(" ", chars[start:end])


def _show(chars: _Chars, text: str, start: int, end: int) -> None:
    """Put ``text[start:end]`` back into the view, without its bare URLs and e-mails."""
    chars[start:end] = text[start:end]
    piece = text[start:end]
    for s, e in find_urls(piece):
        _blank(chars, start + s, start + e)
    for match in EMAIL_RE.finditer(piece):
        _blank(chars, start + match.start(), start + match.end())


def _absolute(region) -> list[int]:
    """For each line of ``region.raw``: the offset in ``raw`` where it starts (map an
    offset ``o`` on line ``k`` to the note as ``region.starts[k] + o - starts[k]``)."""
    out, pos = [], 0
    for line in region.raw.split("\n"):
        out.append(pos)
        pos += len(line) + 1
    return out


def _hide_protected(chars: _Chars, region, line_starts: list[int], nodes) -> None:
    """Blank the spans of ``nodes`` the translation copies unchanged: code, HTML, math,
    roles, footnote references, autolinks (:class:`document.Raw`) and a link's or image's
    destination, title or reference label (after its ``]``)."""
    def blank(start: int, end: int) -> None:
        k = region.raw.count("\n", 0, start)
        offset = region.starts[k] - line_starts[k]
        _blank(chars, start + offset, end + offset)

    for node in nodes:
        if isinstance(node, Raw):
            blank(node.start, node.end)
        elif isinstance(node, Wrap):            # emphasis, link text, alt text, ^[…]
            _hide_protected(chars, region, line_starts, node.children)
            if node.kind in ("link", "image"):
                blank(node.close[0] + 1, node.close[1])


def _show_unaligned(chars: _Chars, text: str, region) -> None:
    """A region the parser's tokens could not be aligned to (the translation copies it
    as it is, and reports it): its lines, without inline code, HTML and autolinks."""
    for start, end in zip(region.starts, region.ends):
        line = text[start:end]
        _show(chars, text, start, end)
        for pattern in (INLINE_CODE_RE, AUTOLINK_RE, INLINE_HTML_RE):
            for match in pattern.finditer(line):
                _blank(chars, start + match.start(), start + match.end())


# A text with none of these has no Markdown syntax that hides anything: no inline code,
# HTML, math, link, image, footnote or role (` < $ [ \), no table (|), and no line that
# opens anything but a paragraph (#, >, a list marker, a fence, a rule, a setext underline,
# front matter, four spaces), and no white space but spaces and \n or \r\n line ends (the
# parser trims a tab or an ideographic space at a line's end). It is prose as written (bare URLs and e-mail
# addresses aside), and the parser need not be asked: the common case of a block of plain
# sentences. tests/test_prose.py checks this shortcut against the parser.
_SYNTAX = re.compile(r"[`<$\[|\\]|[^\S \n\r]|\r(?!\n)|^(?: {0,3}(?:[#>+*=_~-]|\d{1,9}[.)])| {4})", re.M)


def _plain_view(text: str) -> str:
    chars = _Chars(text)
    _show(chars, text, 0, len(text))
    return str(chars)


def prose_view(text: str) -> str:
    """The prose of a note: the text the translation translates — paragraphs, headings
    and table cells, and inside them the text of emphasis, links, image alt text and
    inline footnotes — located by :func:`document.parse_document` (the one Markdown
    parser, aligned to the note's offsets). Everything it protects and copies unchanged
    is blanked: code and HTML (blocks and inline), math, front matter, MyST and Sphinx
    roles, footnote labels, link and image destinations and titles, autolinks, bare URLs
    and e-mail addresses, and the block markup around the prose (list markers, ``#``,
    ``>``, table pipes). Inline markup around prose (``**``, ``[``…``]``) stays: it
    tells a finder where emphasis or a link's text ends."""
    if len(text) > KEEP_CHARS:          # a long text's view is not kept (markdown.KEEP_CHARS)
        return _view(text)
    return _kept_view(text)


def _view(text: str) -> str:
    if not text:
        return text
    if _SYNTAX.search(text) is None:
        return _plain_view(text)
    return _parsed_view(text)


_kept_view = lru_cache(maxsize=1024)(_view)
prose_view.cache_clear = _kept_view.cache_clear      # type: ignore[attr-defined]


def _parsed_view(text: str) -> str:
    return prose_of(parse_document(text))


def prose_of(doc) -> str:
    """:func:`prose_view` of a note already parsed (a :class:`document.Document`), computed
    once per document; a leaf's prose is its slice (:func:`leaf_prose`)."""
    if doc.prose is not None:
        return doc.prose
    text = doc.text
    if not text or _SYNTAX.search(text) is None:
        doc.prose = _plain_view(text) if text else text
        return doc.prose
    chars = _Chars(_NOT_LINE_END.sub(" ", text))
    for leaf in doc.leaves:
        _show_regions(chars, text, leaf.regions)
    doc.prose = str(chars)
    return doc.prose


def _show_regions(chars, text: str, regions) -> None:
    """Show the prose of ``regions`` in ``chars`` (the whole view's, or one leaf's)."""
    for region in regions:
        if region.error:
            _show_unaligned(chars, text, region)
            continue
        for start, end in zip(region.starts, region.ends):
            _show(chars, text, start, end)
        _hide_protected(chars, region, _absolute(region), region.nodes)


def leaf_prose(doc, leaf) -> str:
    """The prose of one leaf block of ``doc``, as the whole note's view shows it. A long
    note's view is not built (:data:`markdown.KEEP_CHARS`): only the leaf's, the same
    characters (every region lies inside its leaf's lines, and a bare URL or e-mail
    address inside one line)."""
    start, end = doc.span(leaf.start_line, leaf.end_line)
    if doc.prose is not None or len(doc.text) <= KEEP_CHARS:
        return prose_of(doc)[start:end]
    text = doc.text
    if doc.__dict__.get("_plain") is None:      # the whole-note shortcut, asked once
        doc.__dict__["_plain"] = _SYNTAX.search(text) is None
    if doc.__dict__["_plain"]:
        chars = _Shifted(text[start:end], start)
        _show(chars, text, start, end)
        return str(chars)
    chars = _Shifted(_NOT_LINE_END.sub(" ", text[start:end]), start)
    _show_regions(chars, text, leaf.regions)
    return str(chars)


class _Shifted(_Chars):
    """:class:`_Chars` of a slice of a text that starts at ``base``, indexed by offsets
    into the whole text."""

    __slots__ = ("base",)

    def __init__(self, text: str, base: int) -> None:
        super().__init__(text)
        self.base = base

    def __getitem__(self, k: slice) -> str:
        return super().__getitem__(slice(k.start - self.base, k.stop - self.base))

    def __setitem__(self, k: slice, value: str) -> None:
        super().__setitem__(slice(k.start - self.base, k.stop - self.base), value)


# --------------------------------------------------------------------------- Chinese kept

_COMMENT_RE = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)


def _without_comments(html: str) -> str:
    """``html`` with its comments (which no reader sees) blanked, its lines kept."""
    return _COMMENT_RE.sub(lambda m: "\n" * m.group(0).count("\n"), html)


def kept_chinese(doc) -> list[tuple[int, str, str]]:
    """Chinese a reader of the English will still see, because the translation copies it
    unchanged by design and it is not code, math or a URL: front matter, HTML (a
    ``<summary>``, an ``alt=`` or ``title=`` attribute; comments aside, which no reader
    sees) and a link's or image's title. (0-based line, what it is, the Chinese) for each
    place, in the note's order. Chinese in a link's destination (a URL with a Chinese
    path) or a reference label is not shown to readers and is not listed."""
    from .document import Raw, Wrap
    from .textutil import CJK_RUN_RE

    out: list[tuple[int, str, str]] = []

    def add(text: str, line: int, what: str) -> None:
        runs = CJK_RUN_RE.findall(text)
        if runs:
            out.append((line + text[:CJK_RUN_RE.search(text).start()].count("\n"), what,
                        "…".join(runs)))

    def nodes(region, items) -> None:
        for node in items:
            if isinstance(node, Raw) and node.kind == "html":
                add(_without_comments(region.raw[node.start:node.end]),
                    region.line_of(node.start), "HTML")
            elif isinstance(node, Wrap):
                nodes(region, node.children)
                if node.kind in ("link", "image"):
                    start, end = node.close[0] + 1, node.close[1]
                    title = _link_title(region.raw[start:end])
                    if title:
                        add(title, region.line_of(start), f"{node.kind} title")

    for leaf in doc.leaves:
        if leaf.kind == "front_matter":
            add(doc.leaf_text(leaf), leaf.start_line, "front matter")
        elif leaf.kind == "html":
            add(_without_comments(doc.leaf_text(leaf)), leaf.start_line, "HTML")
        for region in leaf.regions:
            nodes(region, region.nodes or ())
    return out


def kept_chinese_findings(doc, display: str, en_name: str) -> list:
    """One ``chinese-kept`` finding for a note whose English will show Chinese the
    translation copies unchanged by design (:func:`kept_chinese`), naming each place."""
    from .findings import Finding

    places = kept_chinese(doc)
    if not places:
        return []
    shown = [f"{what} (line {line + 1}) '{chinese if len(chinese) <= 24 else chinese[:23] + '…'}'"
             for line, what, chinese in places[:5]]
    more = f"; and {len(places) - 5} more" if len(places) > 5 else ""
    return [Finding("chinese-kept", "info",
                    f"{en_name} shows this Chinese as written, since zhen copies front matter, "
                    f"HTML and link titles unchanged: {'; '.join(shown)}{more} — write them in "
                    "English in the note if its English should show none",
                    display, places[0][0] + 1,
                    extra={"places": [{"line": line + 1, "what": what, "chinese": chinese}
                                      for line, what, chinese in places]})]


def _link_title(tail: str) -> str:
    """The title of an inline link's or image's tail ``(destination "title")``; "" for a
    reference (``[label]``) or a tail with no title."""
    if not tail.startswith("(") or not tail.endswith(")"):
        return ""
    inner = tail[1:-1].strip()
    if inner.startswith("<"):
        close = inner.find(">")
        rest = inner[close + 1:] if close >= 0 else ""
    else:
        parts = inner.split(None, 1)
        rest = parts[1] if len(parts) > 1 else ""
    return rest.strip()
