"""Markdown → leaf blocks and inline regions, located byte-exactly in the source.

zhen never re-renders Markdown from a syntax tree: it replaces the *inline content* of
paragraphs, headings and table cells in place and copies every other byte (list
markers, indentation, block quote markers, table pipes, code blocks, HTML, blank lines)
unchanged. That is what keeps structure, code and URLs byte-identical.

markdown-it-py gives each block its line range (``token.map``). For each content line
the inline content is a suffix of the source line (modulo trailing whitespace), which
locates it exactly; table rows are split on unescaped pipes. The inline content of a
region is re-parsed with ``parseInline`` and every child token is aligned to its raw
offsets, giving a small tree of :class:`Text`, :class:`Raw` (code, HTML, images,
autolinks), :class:`Break` and :class:`Wrap` (emphasis, strong, strikethrough, links,
inline footnotes ``^[…]``) nodes. A region that cannot be aligned is left verbatim and
reported, never corrupted.

Why this module is long: aligning every inline token kind (text with escapes and
entities, code, math, roles, footnote references, HTML, links and images with their
reference forms, emphasis) to its exact bytes is one concern, and splitting it would
spread the offsets bookkeeping over several files.
"""

from __future__ import annotations

import hashlib
import html
import re
import unicodedata
from array import array
from dataclasses import dataclass, field

from . import markdown
from .markdown import ROLE_PREFIX, TOKENS, TokenKind, copy_env, note_pieces, parser, role_of

# ---------------------------------------------------------------- inline nodes


@dataclass(slots=True)
class Text:
    start: int
    end: int


@dataclass(slots=True)
class Raw:
    start: int
    end: int
    kind: str          # code | html | autolink | entity | math | role | footnote


@dataclass(slots=True)
class Break:
    start: int
    end: int
    hard: bool


@dataclass(slots=True)
class Wrap:
    kind: str                              # em | strong | s | link | image | note (^[…])
    open: tuple[int, int]
    close: tuple[int, int]
    children: list = field(default_factory=list)
    label: str | None = None               # shortcut/collapsed reference: the label's raw text

    @property
    def start(self) -> int:
        return self.open[0]

    @property
    def end(self) -> int:
        return self.close[1]


class AlignError(Exception):
    pass


_ENTITY_RE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_ASCII_PUNCT = set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


class _Aligner:
    def __init__(self, raw: str, notes: dict | None = None) -> None:
        self.raw = raw
        self.pos = 0
        self.notes = notes or {}       # footnote id → entry (an inline one holds its tokens)
        self.role_start: int | None = None

    def fail(self, what: str):
        raise AlignError(f"{what} at {self.pos}: {self.raw[self.pos:self.pos + 20]!r}")

    def skip_spaces(self) -> None:
        while self.pos < len(self.raw) and self.raw[self.pos] in " \t":
            self.pos += 1

    def text(self, content: str) -> Text:
        raw, i, start = self.raw, 0, self.pos
        while i < len(content):
            if self.pos >= len(raw):
                self.fail("text runs past the content")
            ch = raw[self.pos]
            if ch == "\\" and self.pos + 1 < len(raw) and raw[self.pos + 1] in _ASCII_PUNCT \
                    and raw[self.pos + 1] == content[i]:
                self.pos += 2
                i += 1
                continue
            if ch == "&":
                match = _ENTITY_RE.match(raw, self.pos)
                if match:
                    decoded = html.unescape(match.group(0))
                    if decoded != match.group(0) and content.startswith(decoded, i):
                        self.pos = match.end()
                        i += len(decoded)
                        continue
            if ch == content[i]:
                self.pos += 1
                i += 1
                continue
            if ch == "\n" and content[i] == " ":     # should not happen; be explicit
                self.fail("newline in text")
            self.fail(f"text mismatch ({content[i]!r})")
        return Text(start, self.pos)

    def expect(self, literal: str) -> tuple[int, int]:
        if not self.raw.startswith(literal, self.pos):
            self.fail(f"expected {literal!r}")
        start = self.pos
        self.pos += len(literal)
        return start, self.pos

    def code(self, markup: str) -> Raw:
        start = self.pos
        self.expect(markup)
        pattern = re.compile(rf"(?<!`){re.escape(markup)}(?!`)")
        match = pattern.search(self.raw, self.pos)
        if not match:
            self.fail("unclosed code span")
        self.pos = match.end()
        return Raw(start, self.pos, "code")

    def bracketed(self, open_ch: str, close_ch: str) -> None:
        """Advance over a balanced (...) or [...] group starting at pos, honouring escapes,
        <...> destinations and quoted titles."""
        raw = self.raw
        if not raw.startswith(open_ch, self.pos):
            self.fail(f"expected {open_ch!r}")
        depth = 0
        quote = None
        while self.pos < len(raw):
            ch = raw[self.pos]
            if ch == "\\":
                self.pos += 2
                continue
            if quote:
                if ch == quote:
                    quote = None
            elif ch in "\"'" and open_ch == "(" and depth == 1 and raw[self.pos - 1] in " \t\n":
                quote = ch
            elif ch == "<" and open_ch == "(" and depth == 1 and raw[self.pos - 1] == "(":
                end = raw.find(">", self.pos)
                if end < 0:
                    self.fail("unclosed <destination>")
                self.pos = end
            elif ch == open_ch:
                depth += 1
            elif ch == close_ch:
                depth -= 1
                if depth == 0:
                    self.pos += 1
                    return
            self.pos += 1
        self.fail(f"unbalanced {open_ch}")

    def link_tail(self) -> bool:
        """After the link text: ``](dest "title")``, ``][label]``, ``][]`` or ``]``. True for
        a shortcut or collapsed reference (the text is the label)."""
        self.expect("]")
        if self.raw.startswith("(", self.pos):
            self.bracketed("(", ")")
            return False
        if self.raw.startswith("[]", self.pos):
            self.pos += 2
            return True
        if self.raw.startswith("[", self.pos):
            self.bracketed("[", "]")
            return False
        return True

    def wrapped(self, kind: str, opener: str, tokens, i: int, stop: str | None, out: list) -> int:
        """A link or image: ``[text]…`` / ``![alt]…``; the text is prose (alt text is a
        figure's caption), the destination or label is kept."""
        opened = self.expect(opener)
        if stop is None:                          # image: alt text tokens are its children
            children, _ = self.nodes(tokens[i].children or [], 0, None)
        else:
            children, i = self.nodes(tokens, i + 1, stop)
        close_start = self.pos
        reference = self.link_tail()
        label = self.raw[opened[1]:close_start] if reference else None
        out.append(Wrap(kind, opened, (close_start, self.pos), children, label))
        return i

    def role_prefix(self, out: list) -> None:
        """``:numref:`` right before the code span at pos becomes part of that span."""
        if not out or not isinstance(out[-1], Text) or out[-1].end != self.pos:
            return
        last = out[-1]
        match = ROLE_PREFIX.search(self.raw, last.start, last.end)
        if match is None:
            return
        if match.start() > last.start:
            out[-1] = Text(last.start, match.start())
        else:
            out.pop()
        self.role_start = match.start()

    def nodes(self, tokens, i: int, stop: str | None) -> tuple[list, int]:
        """The nodes of inline ``tokens`` from ``i`` to the token of type ``stop``: each
        token aligned as what :data:`markdown.TOKENS` says it is."""
        out: list = []
        while i < len(tokens):
            tok = tokens[i]
            if stop is not None and tok.type == stop:
                return out, i
            role = role_of(tok)
            align = self._ALIGN.get(role.name) if role is not None and \
                role.kind is not TokenKind.CONTAINER else None
            if align is None:
                self.fail(f"unsupported inline token {tok.type}")
            i = align(self, tokens, i, out)
            i += 1
        if stop is not None:
            self.fail(f"missing {stop}")
        return out, i

    # one aligner per inline node kind of the token table; each appends its node(s) to
    # ``out`` and returns the index of the last token it read

    def _text(self, tokens, i: int, out: list) -> int:
        if tokens[i].content:
            out.append(self.text(tokens[i].content))
        return i

    def _break(self, tokens, i: int, out: list) -> int:
        start = self.pos
        if tokens[i].type == "hardbreak" and self.raw.startswith("\\\n", self.pos):
            self.pos += 2
        else:
            self.skip_spaces()
            self.expect("\n")
        self.skip_spaces()
        out.append(Break(start, self.pos, tokens[i].type == "hardbreak"))
        return i

    def _code(self, tokens, i: int, out: list) -> int:
        self.role_start = None
        self.role_prefix(out)
        code = self.code(tokens[i].markup)
        if self.role_start is not None:
            code = Raw(self.role_start, code.end, "role")
        out.append(code)
        return i

    def _html(self, tokens, i: int, out: list) -> int:
        start, end = self.expect(tokens[i].content)
        out.append(Raw(start, end, "html"))
        return i

    def _math(self, tokens, i: int, out: list) -> int:
        tok = tokens[i]
        start, end = self.expect(tok.markup + tok.content + tok.markup)
        out.append(Raw(start, end, "math"))
        return i

    def _role(self, tokens, i: int, out: list) -> int:
        start = self.pos
        self.expect("{" + tokens[i].meta.get("name", "") + "}")
        ticks = len(self.raw[self.pos:]) - len(self.raw[self.pos:].lstrip("`"))
        self.code("`" * max(1, ticks))
        out.append(Raw(start, self.pos, "role"))
        return i

    def _note(self, tokens, i: int, out: list) -> int:
        # an inline footnote ^[…]: markup around prose, like a link's text
        opened = self.expect("^[")
        children, _ = self.nodes(self.notes.get(tokens[i].meta.get("id"), {}).get("tokens", []),
                                 0, None)
        out.append(Wrap("note", opened, self.expect("]"), children))
        return i

    def _footnote(self, tokens, i: int, out: list) -> int:
        start, end = self.expect(f"[^{tokens[i].meta.get('label', '')}]")
        out.append(Raw(start, end, "footnote"))
        return i

    def _image(self, tokens, i: int, out: list) -> int:
        return self.wrapped("image", "![", tokens, i, None, out)

    def _emphasis(self, tokens, i: int, out: list) -> int:
        kind = tokens[i].type
        opened = self.expect(tokens[i].markup)
        children, i = self.nodes(tokens, i + 1, kind.replace("_open", "_close"))
        closed = self.expect(tokens[i].markup)
        out.append(Wrap(kind[:-5], opened, closed, children))
        return i

    def _autolink(self, tokens, i: int, out: list) -> int:
        start = self.pos
        self.expect("<")
        end = self.raw.find(">", self.pos)
        if end < 0:
            self.fail("unclosed autolink")
        self.pos = end + 1
        _, i = self.nodes_skip(tokens, i + 1, "link_close")
        out.append(Raw(start, self.pos, "autolink"))
        return i

    def _link(self, tokens, i: int, out: list) -> int:
        return self.wrapped("link", "[", tokens, i, "link_close", out)

    _ALIGN = {"text": _text, "break": _break, "code": _code, "html": _html, "math": _math,
              "role": _role, "note": _note, "footnote": _footnote, "image": _image,
              "em": _emphasis, "strong": _emphasis, "s": _emphasis, "autolink": _autolink,
              "link": _link}

    @staticmethod
    def nodes_skip(tokens, i: int, stop: str) -> tuple[None, int]:
        while i < len(tokens) and tokens[i].type != stop:
            i += 1
        return None, i


def align_inline(raw: str, env: dict | None = None) -> list:
    """Parse ``raw`` as inline Markdown and return nodes with offsets into ``raw``."""
    # a view of the note's env (costs nothing): the footnote plugin's tail then walks only
    # the footnotes this region touches, not every footnote of the note
    env = copy_env(env)
    tokens = parser().parseInline(raw, env)
    children = tokens[0].children if tokens else []
    aligner = _Aligner(raw, env.get("footnotes", {}).get("list"))
    nodes, _ = aligner.nodes(children or [], 0, None)
    aligner.skip_spaces()
    if aligner.pos != len(raw) and raw[aligner.pos:].strip():
        raise AlignError(f"unaligned tail {raw[aligner.pos:aligner.pos + 20]!r}")
    return nodes


# ---------------------------------------------------------------- blocks


@dataclass(slots=True)
class Region:
    """One inline content area: a paragraph, a heading or a table cell."""

    kind: str
    line: int                    # 0-based line of the first content line
    starts: list[int]            # absolute offset where each content line starts
    ends: list[int]              # absolute offset where each content line ends
    prefixes: list[str]          # source text before the content on each line
    raw: str                     # the content lines joined with "\n"
    nodes: list = field(default_factory=list)
    error: str | None = None     # set when the region could not be aligned (left verbatim)
    endings: list[str] = field(default_factory=list)   # the source's line ending after each line
    text: str = ""               # the note's bytes from the first content line's start to
                                 # the last one's end (line endings and prefixes included)

    def let_go(self) -> None:
        """Keep of a region planned and translated only where it lies (where its first
        line starts and its last ends, its first line, its error): its inline nodes, its
        text and its other lines' offsets are let go (a big note is planned a section at a
        time, and what its regions hold is most of its Document). Only its rendering
        (``render.region_replacements``) reads it after that."""
        self.nodes, self.raw, self.text, self.prefixes, self.endings = (), "", "", (), ()
        self.starts, self.ends = (self.starts[0],), (self.ends[-1],)     # (not lists)

    def absolute(self, offset: int) -> int:
        """The note offset of an offset into ``raw``."""
        k = self.raw.count("\n", 0, offset)
        return self.starts[k] + offset - (self.raw.rfind("\n", 0, offset) + 1)

    def exact(self, start: int, end: int) -> str:
        """The note's own bytes for ``raw[start:end]``: a span across lines (math, code,
        HTML) keeps its line endings (CRLF, CR, mixed) and the container prefix of each
        continuation line (``> ``, a list item's indentation)."""
        if not self.text or "\n" not in self.raw[start:end]:
            return self.raw[start:end]
        base = self.starts[0]
        return self.text[self.absolute(start) - base:self.absolute(end) - base]

    def ending_before(self, offset: int) -> str:
        """The source line ending of the line that ends before ``offset``."""
        k = self.raw.count("\n", 0, offset) - 1
        return self.endings[k] if 0 <= k < len(self.endings) and self.endings[k] else "\n"

    def line_of(self, offset: int) -> int:
        """0-based document line of an offset into ``raw``."""
        return self.line + self.raw.count("\n", 0, offset)

    def prefix_after(self, offset: int) -> str:
        """Prefix of the content line that starts after the newline before ``offset``."""
        return self.prefixes[self.raw.count("\n", 0, offset)]


@dataclass(slots=True)
class Leaf:
    kind: str                    # paragraph | heading | table | code | html | hr
    start_line: int              # 0-based, inclusive
    end_line: int                # 0-based, exclusive
    regions: list[Region] = field(default_factory=list)


@dataclass
class Document:
    """A note parsed once: its leaf blocks located byte-exactly, the parser's env (link
    reference definitions, footnotes), and — once asked, by :func:`prose.prose_of` — its
    prose view. Every reader of a note in one command takes this object rather than parse
    the text again."""

    text: str
    line_starts: "list[int] | array"   # an array of a note over markdown.KEEP_CHARS
    leaves: list[Leaf]
    env: dict = field(default_factory=dict, repr=False)     # shared: never change it
    prose: str | None = field(default=None, repr=False)     # prose.prose_of's cache

    def line_text(self, line: int) -> str:
        start = self.line_starts[line]
        end = self.line_starts[line + 1] if line + 1 < len(self.line_starts) else len(self.text)
        return self.text[start:end]

    def leaf_text(self, leaf: "Leaf") -> str:
        """The source lines of a leaf block, line endings included."""
        start, end = self.span(leaf.start_line, leaf.end_line)
        return self.text[start:end]

    def leaf_hash(self, leaf: "Leaf") -> str:
        """The identity of a leaf block: the hash of its source lines."""
        return block_hash(self.leaf_text(leaf))

    def leaf_reading(self, leaf: "Leaf") -> str:
        """The leaf's source as Markdown reads it, for telling a change a reader sees from
        one they do not: each soft line break of its prose (with the spaces around it and
        the next line's container prefix, ``> `` or indentation) is what it renders as —
        nothing between two wide (Chinese) characters, else one space — and trailing
        spaces and line endings are gone. Everything else is the source's bytes: a hard
        break (two spaces or a backslash, written one way), code, math, HTML, markup and
        every other character count. Asked before a big note's regions let go of their
        nodes (:meth:`Region.let_go`): carry-over reads it as the note is prepared."""
        start, end = self.span(leaf.start_line, leaf.end_line)
        out, pos = [], start
        for region in leaf.regions:
            first, last = region.starts[0], region.ends[-1]
            out.append(_gap(self.text[pos:first]))
            out.append(_region_reading(region) if region.raw or first == last
                       else self.text[first:last])
            pos = last
        out.append(_gap(self.text[pos:end]).rstrip(" \t\n"))
        return "".join(out)

    def span(self, first: int, last: int) -> tuple[int, int]:
        """Absolute offsets of lines [first, last)."""
        start = self.line_starts[first] if first < len(self.line_starts) else len(self.text)
        end = self.line_starts[last] if last < len(self.line_starts) else len(self.text)
        return start, end


def _gap(text: str) -> str:
    """Bytes of a leaf outside its inline regions (markers, pipes, a setext underline) as
    :meth:`Document.leaf_reading` keeps them: line endings one way, no trailing spaces."""
    return _TRAILING_RE.sub("\n", text) if "\n" in text or "\r" in text else text


_TRAILING_RE = re.compile(r"[ \t]*(?:\r\n|\n|\r)")


def wide(ch: str) -> bool:
    """A character a soft line break next to another renders nothing beside (CSS Text's
    segment break rule, pandoc's ``east_asian_line_breaks``): East Asian Wide, Fullwidth
    or Halfwidth, and not Hangul (Korean separates words with spaces)."""
    return unicodedata.east_asian_width(ch) in ("W", "F", "H") and not (
        "\uac00" <= ch <= "\ud7a3" or "\u1100" <= ch <= "\u11ff" or "\u3130" <= ch <= "\u318f")


def _flat(nodes, out: list) -> list:
    """The inline nodes in order, as (kind, start, end): ``content`` (text, code, math…),
    ``mark`` (emphasis and link markup around prose), ``soft`` and ``hard`` breaks."""
    for node in nodes:
        if isinstance(node, Wrap):
            out.append(("mark", *node.open))
            _flat(node.children or [], out)
            out.append(("mark", *node.close))
        elif isinstance(node, Break):
            out.append(("hard" if node.hard else "soft", node.start, node.end))
        else:
            out.append(("content", node.start, node.end))
    return out


def _region_reading(region: "Region") -> str:
    raw = region.raw
    if region.error or not region.nodes:
        return raw
    items = _flat(region.nodes, [])

    def beside(k: int, step: int) -> str:
        """The rendered character next to break ``k`` (markup skipped), or ""."""
        k += step
        while 0 <= k < len(items):
            kind, s, e = items[k]
            if kind == "content" and e > s:
                return raw[e - 1] if step < 0 else raw[s]
            if kind != "mark":
                return ""
            k += step
        return ""

    out, pos = [], 0
    for k, (kind, s, e) in enumerate(items):
        out.append(raw[pos:s])
        if kind == "soft":
            a, b = beside(k, -1), beside(k, 1)
            out.append("" if a and b and wide(a) and wide(b) else " ")
        elif kind == "hard":
            out.append("\\\n")
        else:
            out.append(raw[s:e])
        pos = max(pos, e)
    out.append(raw[pos:])
    return "".join(out)


def reading(text: str) -> str:
    """A block's text, parsed on its own, as Markdown reads it
    (:meth:`Document.leaf_reading` of each of its leaves): two texts that read the same
    differ only where no reader sees it (a re-wrap, trailing spaces)."""
    doc = parse_document(text)
    return "\n\n".join(doc.leaf_reading(leaf) for leaf in doc.leaves)


def block_hash(text: str) -> str:
    """Short hash of a block's text (the parallel file's ``sha=``)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def dedent_block(text: str) -> tuple[str, int]:
    """A block's lines (``\\n`` endings) without their common indentation, and its width."""
    lines = text.replace("\r\n", "\n").split("\n")
    widths = [len(line) - len(line.lstrip(" ")) for line in lines if line.strip()]
    n = min(widths) if widths else 0
    return "\n".join(line[n:] for line in lines), n


_LINE_END_RE = re.compile(r"\r?\n|\r")


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for match in _LINE_END_RE.finditer(text):
        starts.append(match.end())
    if starts[-1] == len(text) and len(starts) > 1:
        starts.pop()
    return starts


def _content_line(text: str, starts: list[int], line: int) -> tuple[int, int]:
    """(start, end) offsets of ``line`` without its line ending."""
    start = starts[line]
    end = starts[line + 1] if line + 1 < len(starts) else len(text)
    while end > start and text[end - 1] in "\r\n":
        end -= 1
    return start, end


_ATX_RE = re.compile(r"^(?P<prefix>.*?#{1,6})(?P<sp>[ \t]+|$)(?P<body>.*?)(?P<close>(?:[ \t]+#+)?[ \t]*)$")


def _region(text, starts, kind, first_line, content_lines, env) -> Region:
    """Locate each content line as a suffix of its source line."""
    r_starts, r_ends, prefixes = [], [], []
    for k, content in enumerate(content_lines):
        line_start, line_end = _content_line(text, starts, first_line + k)
        source_line = text[line_start:line_end]
        body = content.rstrip(" \t")
        trimmed = source_line.rstrip(" \t")
        if k < len(content_lines) - 1:
            # keep trailing spaces of inner lines (a hard break "  \n" lives there)
            body, trimmed = content, source_line
        if not trimmed.endswith(body):
            raise AlignError(f"line {first_line + k + 1}: content not found")
        start = line_start + len(trimmed) - len(body)
        r_starts.append(start)
        r_ends.append(start + len(body))
        prefixes.append(text[line_start:start])
    raw = "\n".join(text[s:e] for s, e in zip(r_starts, r_ends))
    # one line: the note's bytes are the content itself (one string, not two)
    region = Region(kind, first_line, r_starts, r_ends, prefixes, raw,
                    text=raw if len(r_starts) == 1 else text[r_starts[0]:r_ends[-1]])
    region.endings = [_ending(text, starts, first_line + k) for k in range(len(content_lines))]
    region.nodes = align_inline(raw, env)
    return region


def _ending(text: str, starts: list[int], line: int) -> str:
    _, end = _content_line(text, starts, line)
    stop = starts[line + 1] if line + 1 < len(starts) else len(text)
    return text[end:stop]


def _split_row(row: str) -> list[tuple[int, int]]:
    """Cell content spans of a GFM table row (pipes escaped with a backslash stay)."""
    cells, start, i = [], 0, 0
    # leading pipe
    stripped = len(row) - len(row.lstrip())
    i = stripped
    if row.startswith("|", i):
        i += 1
    start = i
    while i < len(row):
        ch = row[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "|":
            cells.append((start, i))
            start = i + 1
        i += 1
    tail = row[start:]
    if tail.strip():
        cells.append((start, len(row)))
    out = []
    for s, e in cells:
        while s < e and row[s] in " \t":
            s += 1
        while e > s and row[e - 1] in " \t":
            e -= 1
        out.append((s, e))
    return out




def parse_document(text: str) -> Document:
    """Leaf blocks with their inline regions, in document order."""
    pieces, env = note_pieces(text)       # a long note: a top-level block at a time
    starts = _line_starts(text)
    if len(text) > markdown.KEEP_CHARS:   # a long note's line starts: machine ints, not a
        starts = array("q", starts)       # list of int objects (about 40 bytes a line)
    leaves: list[Leaf] = []
    for tokens in pieces:
        _leaves(text, starts, tokens, env, leaves)
    # footnote definitions come last in the token stream: put every leaf in line order
    leaves.sort(key=lambda leaf: leaf.start_line)
    return Document(text, starts, leaves, env)


def _leaves(text: str, starts: list[int], tokens, env: dict, leaves: list[Leaf]) -> None:
    """The leaf blocks of ``tokens`` (whole blocks), appended to ``leaves``."""
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        role = TOKENS.get(tok.type)           # what each block token is: markdown.TOKENS
        if role is None or not tok.map:
            i += 1                            # a container's markers, a closing token
            continue
        if role.kind is TokenKind.PROSE and role.name in ("paragraph", "heading"):
            inline = tokens[i + 1]
            leaf_kind = role.name
            leaf = Leaf(leaf_kind, tok.map[0], tok.map[1])
            first = inline.map[0] if inline.map else tok.map[0]
            lines = inline.content.split("\n")
            try:
                if leaf_kind == "heading" and tok.markup.startswith("#"):
                    region = _atx_region(text, starts, first, env)
                else:
                    region = _region(text, starts, leaf_kind, first, lines, env)
            except AlignError as exc:
                region = _verbatim_region(text, starts, leaf_kind, first, len(lines), str(exc))
            leaf.regions.append(region)
            leaves.append(leaf)
            i += 3
            continue
        if role.kind is TokenKind.PROSE and role.name == "table":
            leaf = Leaf("table", tok.map[0], tok.map[1])
            for line in range(tok.map[0], tok.map[1]):
                line_start, line_end = _content_line(text, starts, line)
                row = text[line_start:line_end]
                if line == tok.map[0] + 1 or not row.strip():
                    continue        # the delimiter row
                for s, e in _split_row(row):
                    if s >= e:
                        continue
                    raw = row[s:e]
                    region = Region("cell", line, [line_start + s], [line_start + e],
                                    [row[:s]], raw)
                    try:
                        region.nodes = align_inline(raw, env)
                    except AlignError as exc:
                        region.error = str(exc)
                    leaf.regions.append(region)
            leaves.append(leaf)
            while tokens[i].type != "table_close":
                i += 1
            i += 1
            continue
        if role.kind is TokenKind.VERBATIM:
            leaves.append(Leaf(role.name, tok.map[0], tok.map[1]))
        i += 1


def _atx_region(text, starts, line, env) -> Region:
    line_start, line_end = _content_line(text, starts, line)
    source_line = text[line_start:line_end]
    match = _ATX_RE.match(source_line)
    if not match:
        raise AlignError("heading not recognised")
    body = match.group("body")
    start = line_start + match.start("body")
    region = Region("heading", line, [start], [start + len(body)], [source_line[:match.start("body")]],
                    body)
    region.nodes = align_inline(body, env) if body else []
    return region


def _verbatim_region(text, starts, kind, first, count, error) -> Region:
    r_starts, r_ends, prefixes = [], [], []
    for k in range(count):
        s, e = _content_line(text, starts, first + k)
        r_starts.append(s)
        r_ends.append(e)
        prefixes.append("")
    raw = "\n".join(text[s:e] for s, e in zip(r_starts, r_ends))
    return Region(kind, first, r_starts, r_ends, prefixes, raw, [], error)
