"""The one Markdown parser configuration zhen uses everywhere.

CommonMark + GFM tables and strikethrough, plus the syntax Chinese technical notes carry,
parsed by mdit-py-plugins rather than by hand, with two of its rules replaced where they
cannot be configured to read math as the author's renderer (pandoc, and MathJax behind
it) does:

* ``$…$`` / ``$$…$$`` math, pandoc's rule on both sides of each dollar
  (:func:`inline_math_end`): the opening ``$`` is followed and the closing ``$`` preceded
  by a non-space, and a closing ``$`` followed by a digit closes nothing — so
  ``2$\\times$频率`` is math after a digit, ``价格$5和$6元`` stays money and ``变量$x$的``
  is math touching Chinese on both sides; ``$$…$$`` inside a paragraph (display math, no
  digit rule); ``$$…$$`` blocks and labelled ``$$…$$ (eq1)`` blocks (the plugin's block
  rule);
* amsmath environments (``\\begin{align}…``) as blocks (:func:`amsmath_block`): only where
  a block may start, never inside a ``$``/``$$`` still open in the paragraph, closed by
  the matching ``\\end{…}`` at the end of a line before any blank line;
* YAML front matter; footnotes, referenced (``[^1]`` + ``[^1]: …``) and inline
  (pandoc's ``^[…]``, whose text is prose, translated in place); MyST roles
  (``{cite}`key```); GitHub alerts (``> [!NOTE]``, markdown-it-py's rule, its marker line
  given a line of its own: :func:`use_alerts`).

Sphinx/d2lbook roles (``:numref:`sec_x```) parse as text + ``code_inline``; ``ROLE_PREFIX``
is the one pattern that recognises the ``:role:`` prefix in front of such a code span.

What each token type of this configuration is (``TOKENS``: prose, protected, verbatim,
container, wrap) is said here, once, beside the configuration that emits them, with
``outline``, a block as a person sees it.

Why this module is long: the configuration, the two rules it replaces (pandoc's math,
amsmath where a block may start), and the table of what its tokens are belong together —
a construct added to the parser is a rule here and a row of the table — and splitting
them would put the parser's syntax in two places. How a long note is read (a top-level
block at a time, :func:`stream_note`, or without its inline children, :func:`parse_lean`)
runs this configuration's own rules in their order, so it is here too.

The two replaced rules are tested against the plugin's own fixture cases (where they are
at hand) and against the plugin's configured rules on generated text
(``tests/test_math_syntax.py``); every difference is one of pandoc's.
"""

from __future__ import annotations

import re
from array import array
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from typing import Iterable, Iterator

# ``:numref:`` / ``:py:func:`` right before a code span. ASCII letters only, and no ASCII
# letter or digit before the first colon (never \w: it matches Chinese).
ROLE_PREFIX = re.compile(r"(?<![A-Za-z0-9]):[A-Za-z][A-Za-z0-9_.+-]*(?::[A-Za-z][A-Za-z0-9_.+-]*)*:$")


def starts_with_role(text: str) -> bool:
    """``text`` opens with a Sphinx role and its code span (``:numref:`sec_x` …``): glued
    to a letter or digit before it, the role would read as plain text."""
    head, tick, _ = text.partition("`")
    return bool(tick) and ROLE_PREFIX.match(head) is not None


MAX_NESTING = 100        # markdown-it's nesting limit, in token levels


def _syntax(md):
    """The syntax both configurations read (see the module docstring)."""
    from mdit_py_plugins.footnote import footnote_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin
    from mdit_py_plugins.myst_role import myst_role_plugin

    md.enable(["table", "strikethrough"])
    md.use(front_matter_plugin)
    use_dollar_math(md, allow_labels=True, double_inline=True, allow_blank_lines=False)
    use_amsmath(md)
    md.use(footnote_plugin, inline=True)
    md.use(myst_role_plugin)
    use_alerts(md)
    # lists nested 1,000 deep must not blow the stack or take minutes; what lies deeper is
    # not parsed (see unread_nesting)
    md.options["maxNesting"] = MAX_NESTING
    return md


def use_alerts(md):
    """GitHub's alerts, markdown-it-py's own rule (``alerts``, 4.1 and later): a block quote
    whose first line is ``[!NOTE]``, ``[!TIP]``, ``[!IMPORTANT]``, ``[!WARNING]`` or
    ``[!CAUTION]`` alone. The rule gives the marker line's tokens (``alert_title_open``, an
    inline token holding the kind's name, not the note's bytes) no line; here they get it,
    so the marker is a block of its own, copied byte for byte."""
    md.options["alerts"] = True
    rule = _rule(md.block.ruler, "blockquote")

    def blockquote(state, start_line: int, end_line: int, silent: bool) -> bool:
        first = len(state.tokens)
        found = rule(state, start_line, end_line, silent)
        if found and not silent:
            for k in range(first, len(state.tokens) - 1):
                token = state.tokens[k]
                if token.type == "alert_open" and token.map \
                        and state.tokens[k + 1].type == "alert_title_open":
                    line = [token.map[0], token.map[0] + 1]
                    state.tokens[k + 1].map = line
                    if state.tokens[k + 2].type == "inline":
                        state.tokens[k + 2].map = line
        return found

    md.block.ruler.at("blockquote", blockquote, {"alt": _alt(md.block.ruler, "blockquote")})
    return md


# ---------------------------------------------------------------- what each token is


class TokenKind(StrEnum):
    """What zhen does with a token of the parser's output."""
    PROSE = "prose"            # translated: a block whose inline content is prose, a text run
    PROTECTED = "protected"    # an inline span copied byte for byte (code, math, HTML, a role…)
    VERBATIM = "verbatim"      # a block copied byte for byte (code, HTML, math, a rule…)
    CONTAINER = "container"    # a block holding blocks (quote, list, item, footnote, table part):
    #                            its markers are copied, the blocks inside read one by one
    WRAP = "wrap"              # inline markup around prose (emphasis, a link's or image's text)


@dataclass(frozen=True)
class TokenRole:
    kind: TokenKind
    name: str     # blocks: the leaf kind; inline: the node kind document.py aligns it as


_P, _K, _V, _C, _W = (TokenKind.PROSE, TokenKind.PROTECTED, TokenKind.VERBATIM,
                      TokenKind.CONTAINER, TokenKind.WRAP)

# The one table of the token types this configuration emits (the opening token of a pair;
# its ``_close`` partner ends it). A new construct (a MyST directive, a definition list) is
# added here, and, if it is PROSE, PROTECTED or WRAP inline, aligned in document.py;
# ``tests/test_token_table.py`` parses a note with every construct and fails on a type
# missing here.
TOKENS: dict[str, TokenRole] = {
    # blocks
    "paragraph_open": TokenRole(_P, "paragraph"), "heading_open": TokenRole(_P, "heading"),
    "table_open": TokenRole(_P, "table"),            # its cells are prose, read by row
    "fence": TokenRole(_V, "code"), "code_block": TokenRole(_V, "code"),
    "html_block": TokenRole(_V, "html"), "hr": TokenRole(_V, "hr"),
    "math_block": TokenRole(_V, "math"), "math_block_label": TokenRole(_V, "math"),
    "amsmath": TokenRole(_V, "math"), "front_matter": TokenRole(_V, "front_matter"),
    "blockquote_open": TokenRole(_C, "quote"), "alert_open": TokenRole(_C, "quote"),
    "alert_title_open": TokenRole(_V, "alert"),      # the [!NOTE] line (use_alerts)
    "bullet_list_open": TokenRole(_C, "list"),
    "ordered_list_open": TokenRole(_C, "list"), "list_item_open": TokenRole(_C, "item"),
    "footnote_block_open": TokenRole(_C, "footnotes"), "footnote_open": TokenRole(_C, "footnote"),
    "footnote_anchor": TokenRole(_C, "footnote"),
    "thead_open": TokenRole(_C, "table"), "tbody_open": TokenRole(_C, "table"),
    "tr_open": TokenRole(_C, "table"), "th_open": TokenRole(_C, "table"),
    "td_open": TokenRole(_C, "table"), "inline": TokenRole(_C, "inline"),
    # inline
    "text": TokenRole(_P, "text"), "softbreak": TokenRole(_P, "break"),
    "hardbreak": TokenRole(_P, "break"),
    "code_inline": TokenRole(_K, "code"), "html_inline": TokenRole(_K, "html"),
    "math_inline": TokenRole(_K, "math"), "math_inline_double": TokenRole(_K, "math"),
    "myst_role": TokenRole(_K, "role"), "footnote_ref": TokenRole(_K, "footnote"),
    "em_open": TokenRole(_W, "em"), "strong_open": TokenRole(_W, "strong"),
    "s_open": TokenRole(_W, "s"), "link_open": TokenRole(_W, "link"),
    "image": TokenRole(_W, "image"),
}
_INLINE_FOOTNOTE = TokenRole(_W, "note")          # ^[…]: its text is prose
_AUTOLINK = TokenRole(_K, "autolink")             # <https://…>


def role_of(token) -> TokenRole | None:
    """What ``token`` is (None: a type this configuration was not known to emit)."""
    kind = token.type
    if kind == "footnote_ref" and "label" not in token.meta:
        return _INLINE_FOOTNOTE
    if kind == "link_open" and (token.markup == "autolink" or token.info == "auto"):
        return _AUTOLINK
    return TOKENS.get(kind)


@dataclass(frozen=True)
class Outline:
    """One block as a person sees it (:func:`outline`)."""
    shape: str          # heading | paragraph (one, in a list item or quote too) | other
    level: int          # a heading's level
    text: str | None    # its inline Markdown without the container (``#``, ``- ``, ``> ``,
    #                     a task box); None for anything but one paragraph or heading
    lead: str           # what the container shows first: a bullet, ``3.``, a task box
    quoted: bool        # inside a block quote


_TASK = re.compile(r"^\[([ xX])\]\s+")


@lru_cache(maxsize=4096)
def outline(markdown: str) -> Outline:
    """A block's shape, text and container, from one reading with the display parser."""
    tokens = display_parser().parse(markdown)
    inline = [t for t in tokens if t.type == "inline"]
    roles = [r for r in map(role_of, tokens) if r is not None]
    copied = any(r.kind is TokenKind.VERBATIM or r.name == "table" for r in roles)
    prose_blocks = [r for r in roles if r.kind is TokenKind.PROSE]
    single = len(inline) == 1 and not copied and bool(prose_blocks)
    if tokens and tokens[0].type == "heading_open":
        shape, level = "heading", int(tokens[0].tag[1])
    elif single and prose_blocks[0].name == "paragraph":
        shape, level = "paragraph", 0
    else:
        shape, level = "other", 0
    lead, task = "", None
    for t in tokens:
        if t.type == "list_item_open":
            lead = f"{t.info}{t.markup}" if t.markup in (".", ")") else "•"
            if "task-list-item" in str(t.attrGet("class") or ""):   # the tasklists plugin's
                box = (inline[0].children or [None])[0] if inline else None
                task = box is not None and "checked" in box.content
    content = inline[0].content if inline else ""
    written = _TASK.match(content)              # a box the plugin did not take
    if written:
        task = written.group(1) != " "
    if task is not None:
        lead = "☑" if task else "☐"
        content = _TASK.sub("", content).lstrip(" ")
    text = content if single else None
    return Outline(shape, level, text, lead,
                   any(t.type in ("blockquote_open", "alert_open") for t in tokens))


# ---------------------------------------------------------------- math, as pandoc reads it


def use_dollar_math(md, **options):
    """mdit-py-plugins' dollarmath (its block rule, renderers and ``options``) with its
    inline rule replaced by pandoc's (:func:`inline_math_end`)."""
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    md.use(dollarmath_plugin, **{**options, "allow_space": False, "allow_digits": False})
    md.inline.ruler.at("math_inline", _math_inline)
    return md


def use_amsmath(md):
    """mdit-py-plugins' amsmath (its renderer) with its block rule replaced by
    :func:`amsmath_block`."""
    from mdit_py_plugins.amsmath import amsmath_plugin

    md.use(amsmath_plugin)
    md.block.ruler.at("amsmath", amsmath_block,
                      {"alt": ["paragraph", "reference", "blockquote", "list", "footnote_def"]})
    for name in ("paragraph", "lheading"):       # amsmath_block asks where a paragraph began
        md.block.ruler.at(name, _remember_paragraph(_rule(md.block.ruler, name)),
                          {"alt": _alt(md.block.ruler, name)})
    return md


def _escaped(src: str, pos: int) -> bool:
    """An odd number of backslashes right before ``pos``."""
    k = pos
    while k > 0 and src[k - 1] == "\\":
        k -= 1
    return (pos - k) % 2 == 1


def inline_math_end(src: str, pos: int) -> int | None:
    r"""The offset just past the math that opens with the ``$`` at ``pos`` (``$…$`` or
    ``$$…$$``), or None when the ``$`` opens nothing — pandoc's ``tex_math_dollars``:

    * ``$$…$$``: display math; any text up to the next unescaped ``$$`` (no blank line);
    * ``$…$``: the opening ``$`` is followed by a non-space; the first unescaped ``$``
      closes, and then it must follow a non-space and not be followed by a digit (else
      nothing opened here: ``$5 和 $6`` is money); no blank line inside.

    The character before the opening ``$`` does not matter (``2$\times$3`` is math)."""
    if src.startswith("$$", pos):
        if _escaped(src, pos):
            return None
        k = pos + 2
        while True:
            end = src.find("$$", k)
            if end < 0 or _blank_line(src, pos, end):
                return None
            if _escaped(src, end):
                k = end + 1
                continue
            return end + 2 if end > pos + 2 else None
    if src[pos:pos + 1] != "$" or _escaped(src, pos):
        return None
    if pos + 1 >= len(src) or src[pos + 1].isspace():
        return None
    k = pos + 1
    while k < len(src):
        ch = src[k]
        if ch == "\\":
            k += 2
            continue
        if ch == "$":
            if src[k - 1].isspace() or _blank_line(src, pos, k):
                return None
            if k + 1 < len(src) and src[k + 1].isdigit():
                return None
            return k + 1
        k += 1
    return None


_BLANK_LINE = re.compile(r"\n[ \t]*\n")


def _blank_line(src: str, start: int, end: int) -> bool:
    return _BLANK_LINE.search(src, start, end) is not None


def _math_inline(state, silent: bool) -> bool:
    """markdown-it inline rule for :func:`inline_math_end` (tokens as the plugin's)."""
    pos = state.pos
    if state.src[pos] != "$":
        return False
    end = inline_math_end(state.src, pos)
    if end is None:
        return False
    double = state.src.startswith("$$", pos)
    if not silent:
        token = state.push("math_inline_double" if double else "math_inline", "math", 0)
        token.content = state.src[pos + 2:end - 2] if double else state.src[pos + 1:end - 1]
        token.markup = "$$" if double else "$"
    state.pos = end
    return True


def math_spans(text: str) -> list[tuple[int, int]]:
    """The ``$``/``$$`` math spans of inline text, left to right, as :func:`_math_inline`
    finds them (code spans and backslash escapes skipped as markdown-it skips them)."""
    spans, pos = [], 0
    while pos < len(text):
        ch = text[pos]
        if ch == "\\":
            pos += 2
            continue
        if ch == "`":
            run = len(text[pos:]) - len(text[pos:].lstrip("`"))
            close = re.compile(rf"(?<!`){'`' * run}(?!`)").search(text, pos + run)
            pos = close.end() if close else pos + run
            continue
        if ch == "$":
            end = inline_math_end(text, pos)
            if end is not None:
                spans.append((pos, end))
                pos = end
                continue
        pos += 1
    return spans


def _rule(ruler, name: str):
    return next(rule.fn for rule in ruler.__rules__ if rule.name == name)


def _alt(ruler, name: str) -> list[str]:
    return list(next(rule.alt for rule in ruler.__rules__ if rule.name == name))


def _remember_paragraph(rule):
    """Wrap the paragraph (or setext heading) rule so that a rule it asks whether a line
    interrupts it knows the line the paragraph began on."""
    def wrapped(state, start_line: int, end_line: int, silent: bool) -> bool:
        stack = state.__dict__.setdefault("_zhen_paragraphs", [])
        stack.append(start_line)
        try:
            return rule(state, start_line, end_line, silent)
        finally:
            stack.pop()
    return wrapped


def _environments() -> list[str]:
    from mdit_py_plugins.amsmath import ENVIRONMENTS

    return ENVIRONMENTS


_AMS_OPEN = re.compile(r"\\begin\{(" + "|".join(map(re.escape, _environments())) + r")(\*?)\}")


def amsmath_block(state, start_line: int, end_line: int, silent: bool) -> bool:
    r"""An amsmath environment as a block: its first line starts with ``\begin{env}`` (one
    of the plugin's environments), it ends with the matching ``\end{env}`` (same name,
    nested ones counted) at the end of a line, before any blank line. Interrupting a
    paragraph, it opens only if no ``$``/``$$`` math of that paragraph is still open
    (``设$$A=`` / ``\begin{bmatrix}…\end{bmatrix}$$，…`` is inline math, not a block)."""
    if state.is_code_block(start_line):
        return False
    first = state.bMarks[start_line] + state.tShift[start_line]
    first_end = state.eMarks[start_line]
    opened = _AMS_OPEN.match(state.src, first, first_end)
    if opened is None:
        return False
    name = re.escape(opened.group(1) + opened.group(2))
    marks = re.compile(rf"\\(begin|end)\{{{name}\}}")
    depth, line = 0, start_line
    while True:
        if line >= end_line:
            return False
        start = state.bMarks[line] + state.tShift[line] if line > start_line else first
        if line > start_line and state.isEmpty(line):
            return False            # a blank line ends the paragraph MathJax would see
        if start < first_end and state.sCount[line] < state.blkIndent:
            return False            # the plugin's rule: a line that leaves the list
        stop = state.eMarks[line]
        closed_at = None
        for mark in marks.finditer(state.src, start, stop):
            depth += 1 if mark.group(1) == "begin" else -1
            if depth == 0:
                closed_at = mark.end()
                break
        if closed_at is not None:
            if state.src[closed_at:stop].strip():
                return False        # text after \end{…}: not a block of its own
            break
        line += 1
    if state.parentType == "paragraph" and _inside_open_math(state, start_line):
        return False
    if silent:
        return True
    state.line = line + 1
    token = state.push("amsmath", "math", 0)
    token.block = True
    token.content = state.getLines(start_line, state.line, state.sCount[start_line], False)
    token.meta = {"environment": opened.group(1), "numbered": opened.group(2)}
    token.map = [start_line, state.line]
    return True


def _inside_open_math(state, line: int) -> bool:
    """Does a ``$``/``$$`` span of the paragraph being read cover the start of ``line``?"""
    stack = state.__dict__.get("_zhen_paragraphs")
    if not stack:
        return False
    begin = stack[-1]
    stop = line
    while stop < state.lineMax and not state.isEmpty(stop):
        stop += 1
    before = state.getLines(begin, line, state.blkIndent, True)
    text = before + state.getLines(line, stop, state.blkIndent, False)
    at = len(before)
    return any(start < at < end for start, end in math_spans(text))


@lru_cache(maxsize=1)
def parser():
    from markdown_it import MarkdownIt

    return _syntax(MarkdownIt("commonmark", {"html": True}))


def parse_tokens(text: str, env: dict | None = None):
    return parser().parse(text, env if env is not None else {})


class _Overlay(dict):
    """A dict over a shared ``base`` that parsing may change without changing ``base``:
    a key read is copied here first (an entry, a dict, is copied so that changing it stays
    here), a key written stays here, ``len`` counts both. Iterating gives only the keys
    read or written here — the footnotes one block touched — so a block parsed against a
    note's thousands of footnotes costs what the block holds, not what the note holds."""

    def __init__(self, base: dict) -> None:
        super().__init__()
        self._base = base

    def __missing__(self, key):
        value = self._base[key]
        value = dict(value) if isinstance(value, dict) else value
        self[key] = value
        return value

    def __contains__(self, key) -> bool:
        return dict.__contains__(self, key) or key in self._base

    def get(self, key, default=None):
        try:
            return self[key]
        except KeyError:
            return default

    def __len__(self) -> int:
        return len(self._base) + sum(1 for key in dict.keys(self) if key not in self._base)

    def __bool__(self) -> bool:
        return len(self) > 0


class _Refs(_Overlay):
    """The footnote plugin's ``refs`` (``:label`` → id in ``list``) over a note's: a block
    that defines a footnote (``[^x]: …`` writes ``refs[":x"] = -1``) touches that footnote's
    entry in ``list`` too, so the plugin's tail, which walks only the entries touched, puts
    the definition's text in the block's reading. Without it a footnote definition parsed
    on its own against the note's env reads as nothing: its links, terms and Chinese
    unchecked."""

    def __init__(self, base: dict, notes: _Overlay) -> None:
        super().__init__(base)
        self._notes = notes

    def __setitem__(self, key, value) -> None:
        if not dict.__contains__(self, key) and isinstance(value, int) and value < 0:
            at = self._base.get(key, -1)
            if isinstance(at, int) and at >= 0 and at in self._notes:
                self._notes[at]                     # touched: the tail walks it
        super().__setitem__(key, value)


def copy_env(env: dict | None) -> dict:
    """A view of a note's env (link reference definitions, footnotes) that parsing one
    block or region may change: the footnote plugin counts references in it and registers
    each inline footnote ``^[…]`` in ``env["footnotes"]["list"]``, and a note's env, once
    parsed, is shared (:func:`parse_note`) and must not change. The view costs nothing to
    make (:class:`_Overlay`), and the plugin's footnote list then holds only the footnotes
    the block touched: referenced, or defined (:class:`_Refs`)."""
    if not env:
        return {}
    out: dict = {}
    if "references" in env:
        out["references"] = _Overlay(env["references"])
    if "footnotes" in env:
        notes = env["footnotes"]
        listed = _Overlay(notes.get("list", {}))
        out["footnotes"] = {"refs": _Refs(notes.get("refs", {}), listed), "list": listed}
    return out


# A note longer than this is not kept between its readers: its tokens (and their inline
# children) cost about ten times the text, and keeping them from the segmenter's reading to
# the validator's, and the English's beside them, is most of what one big note's translation
# holds. Such a note is parsed again by each reader instead (the segmenter's reading and the
# validator's: twice, its English once or twice), a top-level block at a time for those that
# walk the tokens once (note_pieces), without inline children for the others (parse_lean).
KEEP_CHARS = 400_000


def parse_note(text: str) -> tuple[tuple, dict]:
    """Tokens and env of a whole note, parsed once for everyone who reads it (the
    segmenter and the validator); callers must not change them. A note over
    ``KEEP_CHARS`` characters is parsed for each caller and not kept, and lean
    (:func:`parse_lean`): a reader of an inline token's children asks
    :func:`inline_children` for them."""
    if len(text) > KEEP_CHARS:
        return parse_lean(text)
    return _parse_kept(text)


def note_pieces(text: str) -> tuple[Iterable[list], dict]:
    """A whole note's tokens for a reader that walks them once, in order, and its env:
    a short note's kept parse (:func:`parse_note`) as one piece; a note over
    ``KEEP_CHARS``, a top-level block at a time (:func:`stream_note`; the env is complete
    once every piece is read)."""
    if len(text) > KEEP_CHARS:
        env: dict = {}
        return stream_note(text, env), env
    tokens, env = parse_note(text)
    return (tokens,), env


def parse_lean(text: str) -> tuple[tuple, dict]:
    """The whole parse's tokens and env, but the inline tokens the block parse made keep
    no children: each is parsed in its turn, as the whole parse does it (link references
    looked up, footnote references counted, inline footnotes registered: the env and the
    footnote tail come out the same), and its children let go — they are most of what a
    whole note's tokens hold. :func:`inline_children` gives them again. The footnote
    tail's own inline tokens (an inline footnote's text) keep theirs."""
    md = parser()
    env: dict = {}
    rules = [rule for rule in md.core.ruler.__rules__ if rule.enabled]
    if [rule.fn for rule in rules] != md.core.ruler.getRules(""):   # not the chain we know
        return _parse(text)
    from markdown_it.rules_core import StateCore

    state = StateCore(text, md, env)
    for rule in rules:
        if rule.name == "normalize" and "\r" not in text and "\0" not in text:
            continue                          # it would copy the text, unchanged
        if rule.name != "inline":
            rule.fn(state)
            continue
        for token in state.tokens:
            if token.type == "inline":
                md.inline.parse(token.content, md, env, [])
                token.children = []
    return tuple(state.tokens), env


_CORE = ["normalize", "block", "inline", "footnote_tail", "text_join"]


class _Defined(dict):
    """A note's footnote definitions (``env["footnotes"]["refs"]``) in
    :func:`stream_note`'s second pass: a definition's ``-1`` (the block rule's, met again)
    does not undo the id a reference before it was given. The whole parse sets every
    ``-1`` before any id (all blocks are read before any inline text)."""

    def __setitem__(self, key, value) -> None:
        if value == -1 and self.get(key, -1) != -1:
            return
        super().__setitem__(key, value)


def stream_note(text: str, env: dict) -> Iterator[list]:
    """The whole parse's tokens of ``text`` a piece at a time — each top-level block's
    tokens, then the footnote tail — with their inline children (text joined), so that a
    reader holds one block's tokens, not the note's. ``env`` (empty) is filled as the
    whole parse fills it, complete once every piece is read.

    Two passes over the blocks: the first only for the env's link references and
    footnote definitions (the whole parse reads every block before any inline text, so a
    reference defined at the end is known at the start); the second reads each block,
    then its inline text, in the whole parse's order, sets aside footnote definitions
    for the tail (as the footnote plugin's tail rule does, which then makes the tail
    from them) and joins each block's text (``text_join``) as it goes."""
    from types import SimpleNamespace

    from markdown_it.rules_core import StateCore
    from markdown_it.token import Token

    md = parser()
    rules = {rule.name: rule.fn for rule in md.core.ruler.__rules__ if rule.enabled}
    if list(rules) != _CORE or list(rules.values()) != md.core.ruler.getRules(""):
        yield list(md.parse(text, env))           # not the chain this reading knows
        return
    state = StateCore(text, md, env)
    if "\r" in text or "\0" in text:          # else normalizing copies the text, unchanged
        rules["normalize"](state)
    src = state.src
    first: dict = {}
    for _ in _top_level(md, src, first):          # the definitions, blocks let go
        pass
    for key, value in first.items():
        if key == "footnotes":
            value = {"refs": _Defined(value.get("refs", {})), "list": {}}
        env[key] = value
    duplicates = len(first.get("duplicate_refs", ()))   # the second pass meets every
    #                                             reference again: no duplicate of its own
    held: list = []                               # footnote definitions, for the tail
    joined: dict = {}                             # an inline footnote's id → its tail text
    depth = 0
    for piece in _top_level(md, src, env):
        out = []
        for token in piece:
            if token.type == "inline":
                notes = env.get("footnotes", {}).get("list", {})
                before = len(notes)
                token.children = []
                md.inline.parse(token.content, md, env, token.children)
                notes = env.get("footnotes", {}).get("list", {})
                for key in range(before, len(notes)):    # registered here: joined as the
                    if "tokens" in notes[key]:             # tail's text_join joins them
                        tail = Token("inline", "", 0)
                        tail.children = notes[key]["tokens"]
                        rules["text_join"](SimpleNamespace(tokens=[tail]))
                        joined[key] = tail.children
            if token.type == "footnote_reference_open":
                depth += 1
            if depth:
                held.append(token)
            else:
                if token.type == "inline":
                    rules["text_join"](SimpleNamespace(tokens=[token]))
                out.append(token)
            if token.type == "footnote_reference_close":
                depth -= 1
        yield out
    if "duplicate_refs" in first:
        del env["duplicate_refs"][duplicates:]
    else:
        env.pop("duplicate_refs", None)
    tail = SimpleNamespace(tokens=held, env=env)
    rules["footnote_tail"](tail)
    notes = env.get("footnotes", {}).get("list", {})
    by_list = {id(entry["tokens"]): key for key, entry in notes.items() if "tokens" in entry}
    for token in tail.tokens:                     # an inline footnote's text: joined once
        key = by_list.get(id(token.children)) if token.type == "inline" else None
        if key is not None and key in joined:
            token.children = joined[key]
    rules["text_join"](SimpleNamespace(tokens=tail.tokens))
    yield tail.tokens


_MARKS = ("bMarks", "eMarks", "tShift", "sCount", "bsCount")


_INDENT = re.compile(r"[ \t]*")


def block_state(md, src: str, env: dict):
    """markdown-it's ``StateBlock`` of ``src`` with its per-line marks (``_MARKS``) in
    arrays of machine ints, computed as its constructor computes them but without its
    lists (an int object each: about 10 MB for a 10 MB note's 100,000 lines, held at once
    beside the arrays when converted afterwards)."""
    from markdown_it.rules_block import StateBlock

    state = StateBlock("", md, env, [])      # the constructor's other fields; no lines
    state.src = src
    begin, end_, shift, count = array("q"), array("q"), array("q"), array("q")
    start, length, find, indent = 0, len(src), src.find, _INDENT.match
    while start < length:
        end = find("\n", start)
        if end < 0:
            end = length
        pos = indent(src, start, end).end()
        if pos == end == length:
            break
        offset = pos - start
        if "\t" in src[start:pos]:
            offset = 0
            for character in src[start:pos]:
                offset += 4 - offset % 4 if character == "\t" else 1
        begin.append(start)
        end_.append(end)
        shift.append(pos - start)
        count.append(offset)
        start = end + 1 if end < length else length
    for marks, last in ((begin, length), (end_, length), (shift, 0), (count, 0)):
        marks.append(last)
    state.bMarks, state.eMarks, state.tShift, state.sCount = begin, end_, shift, count
    state.bsCount = array("q", bytes(8 * len(begin)))
    state.lineMax = len(begin) - 1
    return state


def _top_level(md, src: str, env: dict) -> Iterator[list]:
    """markdown-it's block tokenizer (``ParserBlock.tokenize``) at the top level, handing
    over each top-level block's tokens as the rule that read it returns."""
    if not src:
        return
    state = block_state(md, src, env)
    rules = md.block.ruler.getRules("")
    line, end = state.line, state.lineMax
    empty_lines = False
    while line < end:
        state.line = line = state.skipEmptyLines(line)
        if line >= end or state.sCount[line] < state.blkIndent:
            break
        if state.level >= md.options.maxNesting:
            state.line = end
            break
        for rule in rules:
            if rule(state, line, end, False):
                if state.line <= line:
                    raise RuntimeError("block rule didn't increment state.line")
                break
        else:
            raise RuntimeError("none of the block rules matched")
        state.tight = not empty_lines
        line = state.line
        if (line - 1) < end and state.isEmpty(line - 1):
            empty_lines = True
        if line < end and state.isEmpty(line):
            empty_lines = True
            line += 1
            state.line = line
        yield state.tokens
        state.tokens = []


def inline_children(token, env: dict) -> tuple[list, dict]:
    """An inline token's children as the whole parse gives them (text joined as the
    ``text_join`` rule joins it), and the footnote list their inline footnotes are in:
    ``token``'s own when it has them, else parsed again against a view of the note's
    ``env`` (:func:`copy_env`: the note's env does not change; an inline footnote is
    registered in the view, its tokens joined as the whole parse joins them)."""
    if token.children:
        return token.children, env.get("footnotes", {}).get("list", {})
    from types import SimpleNamespace

    from markdown_it.rules_core import text_join
    from markdown_it.token import Token

    md = parser()
    view = copy_env(env)
    own = Token("inline", "", 0)
    own.children = []
    md.inline.parse(token.content, md, view, own.children)
    joined = [own]                           # text_join's: an image's alt text too
    notes = view.get("footnotes", {}).get("list", {})
    base = env.get("footnotes", {}).get("list", {})
    for key in list(dict.keys(notes)):       # the footnotes this token registered: the
        if key not in base:                  # whole parse's text_join reaches their tokens
            tail = Token("inline", "", 0)    # through the footnote tail's token (their
            tail.children = notes[key].get("tokens", [])  # images' alt joined, the list's
            joined.append(tail)              # own tokens changed in place, the joined
    text_join(SimpleNamespace(tokens=joined))   # list the tail's token's only)
    return own.children, notes


def _parse(text: str) -> tuple[tuple, dict]:
    env: dict = {}
    return tuple(parser().parse(text, env)), env


_parse_kept = lru_cache(maxsize=4)(_parse)
parse_note.cache_clear = _parse_kept.cache_clear      # type: ignore[attr-defined]


@lru_cache(maxsize=1)
def display_parser():
    """For showing a note's blocks to a person (the review page): the same syntax, raw
    HTML escaped instead of passed through, task-list items as (disabled) checkboxes."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.tasklists import tasklists_plugin

    return _syntax(MarkdownIt("commonmark", {"html": False})).use(tasklists_plugin)


_DEEP_PREFIX = re.compile(r"^[>\s*+\-.)0-9]{%d,}" % (MAX_NESTING // 2 - 10), re.M)


def unread_nesting(text: str) -> list[tuple[int, int, int]]:
    """Where the parser's nesting limit hid text: (first line, last line, Chinese characters)
    of each container (block quote, list item, footnote) it opened at the limit but did not
    read, 1-based; only those holding Chinese. markdown-it skips a container's content once
    ``MAX_NESTING`` levels are open, silently, so this looks for containers at that depth with
    no children and counts the Chinese in their lines of the raw text."""
    from .textutil import CJK_RE

    # every container costs its opening line at least one character of prefix (a `>`, a
    # list marker, indentation): a note without a line opening with MAX_NESTING // 2 - 10
    # such characters cannot reach the limit, and is not parsed again for it
    if not _DEEP_PREFIX.search(text):
        return []
    tokens, _ = parse_note(text)
    lines = text.splitlines()
    out: list[tuple[int, int, int]] = []
    covered = -1
    for k, token in enumerate(tokens[:-1]):
        if token.nesting != 1 or token.level < MAX_NESTING - 2 or not token.map:
            continue
        after = tokens[k + 1]
        first, end = token.map
        if after.nesting != -1 or after.level != token.level or first < covered:
            continue                        # it has children, or is inside one already named
        count = sum(len(CJK_RE.findall(line)) for line in lines[first:end])
        if count:
            out.append((first + 1, end, count))
            covered = end
    return out
