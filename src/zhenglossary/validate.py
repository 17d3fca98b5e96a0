"""The independent output check: what zhen promises, verified on what it wrote.

The masking code (locking.py, document.py) decides what to translate; this module shares
none of that logic. It re-parses a source block and its English with markdown-it (the one
parser configuration, markdown.py) and walks the tokens itself, comparing:

* **structure** — the sequence of block tokens (type, tag, nesting level);
* **protected spans** — the multiset of fenced and indented code, inline code, math,
  link and image destinations (and titles), autolinks, bare URLs (read by
  :func:`bare_urls`, code of this module's own), raw HTML, roles (MyST ``{role}`x``` and
  Sphinx ``:role:`x```), footnote labels, alert markers (``[!WARNING]``) and front matter;
  what they hold (a term, Chinese) is not prose;
* **terms** — every glossary form in the source's prose appears as its ``en`` in the
  English's prose at least as often (case-insensitively: a term may start a sentence;
  in any of its forms — plural, possessive, hyphenated — as ``terms.count`` says),
  and no ``forbid`` rendering appears that the source did not already contain;
* **Chinese** — no CJK ideograph is left in the English's prose, except characters the
  engine reported it could not render.

``check_block`` gives the list of differences (empty: the block keeps every promise).
``check_document`` compares two whole documents (structure and protected spans), which
catches damage that crosses block boundaries. ``second_reading`` reads the English again
with no Markdown parser at all (plain scans), for what the parser configuration itself
misreads on both sides.

Why this module is long: it holds two independent readings of one output (the parser's
token walk and the plain scan); both must stay apart from the masking code, and the
second must not lean on the first, so neither can move into a module the translator uses.
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections import Counter
from dataclasses import dataclass, field
from itertools import zip_longest
from typing import Iterator

from .document import dedent_block
from . import terms
from .glossary import Glossary, Term
from . import markdown
from .markdown import copy_env, inline_children, note_pieces, parse_tokens
from .sentences import align

# A Han ideograph, defined here on purpose and not imported from textutil (the checker must
# not share the translator's idea of what Chinese is): every block of Unicode's Blocks.txt
# named "CJK Unified Ideographs…" or "CJK Compatibility Ideographs…", the astral ones
# (Extensions B–J, the Compatibility Supplement: rare surnames, place names, chemistry)
# included. tests/test_astral.py checks it against Unicode's character names.
_HAN_BLOCKS = {
    "CJK Unified Ideographs Extension A": "\u3400-\u4dbf",
    "CJK Unified Ideographs": "\u4e00-\u9fff",
    "CJK Compatibility Ideographs": "\uf900-\ufaff",
    "CJK Unified Ideographs Extension B": "\U00020000-\U0002a6df",
    "CJK Unified Ideographs Extension C": "\U0002a700-\U0002b73f",
    "CJK Unified Ideographs Extension D": "\U0002b740-\U0002b81f",
    "CJK Unified Ideographs Extension E": "\U0002b820-\U0002ceaf",
    "CJK Unified Ideographs Extension F": "\U0002ceb0-\U0002ebef",
    "CJK Unified Ideographs Extension I": "\U0002ebf0-\U0002ee5f",
    "CJK Compatibility Ideographs Supplement": "\U0002f800-\U0002fa1f",
    "CJK Unified Ideographs Extension G": "\U00030000-\U0003134f",
    "CJK Unified Ideographs Extension H": "\U00031350-\U000323af",
    "CJK Unified Ideographs Extension J": "\U000323b0-\U0003347f",
}
_HAN = re.compile("[" + "".join(_HAN_BLOCKS.values()) + "]")
_HAN_RUN = re.compile(f"(?:{_HAN.pattern})+")
# a Sphinx role written before a code span: ":numref:" / ":py:func:" (ASCII, on purpose)
_SPHINX_ROLE = re.compile(r"(?:^|(?<=[^A-Za-z0-9])):[A-Za-z][A-Za-z0-9_.+:-]*:$")
_CODE_BLOCKS = {"fence", "code_block"}
_MATH_BLOCKS = {"math_block", "math_block_label", "amsmath"}


@dataclass(slots=True)
class Facts:
    """What one Markdown text holds, as the parser sees it."""

    structure: list[tuple] = field(default_factory=list)
    protected: Counter = field(default_factory=Counter)
    prose: list[str] = field(default_factory=list)     # prose of each inline run

    @property
    def text(self) -> str:
        return "\n".join(self.prose)


def facts(text: str, env: dict | None = None) -> Facts:
    out = Facts()
    env = copy_env(env)
    tokens = parse_tokens(text, env)
    notes = _inline_notes(env)
    for tok, counted, opens in _counted(tokens):
        if counted:
            _token(tok, out, notes, opens)
    return out


def _inline_notes(env: dict) -> dict:
    """Footnote id → entry; an inline footnote's entry holds the tokens of its text."""
    return env.get("footnotes", {}).get("list", {})


def _counted(tokens):
    """(token, counted, opens a paragraph): the text of an inline footnote ``^[…]`` is
    counted where it is written (at its reference, :func:`_inline`), not again in the
    footnote list the parser appends to the document; an inline token that is a
    paragraph's text may open with a callout marker."""
    inline_note = False
    before = ""
    for tok in tokens:
        if tok.type == "footnote_open":
            inline_note = (tok.meta or {}).get("label") is None
        elif tok.type == "footnote_close":
            inline_note = False
        yield tok, not (inline_note and tok.type == "inline"), \
            before == "paragraph_open" and tok.type == "inline"
        before = tok.type


def _token(tok, out: Facts, notes: dict, paragraph: bool = False) -> None:
    if tok.type == "inline":
        _inline(tok.children or [], out, notes, paragraph)
        return
    out.structure.append(_shape(tok.type, tok.tag, tok.level))
    if tok.type in _CODE_BLOCKS:
        out.protected[("code", tok.info + "\n" + tok.content)] += 1
    elif tok.type in _MATH_BLOCKS:
        out.protected[("math", tok.info + "\n" + tok.content)] += 1
    elif tok.type == "html_block":
        out.protected[("html", tok.content.strip())] += 1
    elif tok.type == "front_matter":
        out.protected[("front matter", tok.content)] += 1
    elif tok.type == "footnote_open":
        out.protected[("footnote", str((tok.meta or {}).get("label", "")))] += 1
    elif tok.type == "alert_open":      # > [!WARNING]: a block quote to the parser without it
        out.protected[("alert", f"[!{tok.info}]")] += 1


_SHAPES: dict[tuple, tuple] = {}


def _shape(kind: str, tag: str, level: int) -> tuple:
    """A token's place in the block structure, one tuple for each distinct one (a big
    note's structure is hundreds of thousands of entries of a few hundred shapes)."""
    key = (kind, tag, level)
    return _SHAPES.setdefault(key, key)


# leaf blocks: the tokens that open one, and the token that closes it (None: one token)
_LEAF_OPEN = {"paragraph_open": "paragraph_close", "heading_open": "heading_close",
              "table_open": "table_close", "alert_title_open": "alert_title_close", **{t: None for t in (
                  "fence", "code_block", "html_block", "hr", "math_block", "math_block_label",
                  "amsmath", "front_matter")}}


@dataclass(slots=True)
class Block:
    line: int                    # 0-based first line in the text it was parsed from
    facts: Facts


@dataclass(slots=True)
class Parsed:
    """A whole note as the parser sees it: its block structure (each entry tagged with
    the leaf block it belongs to, or the next one), its leaf blocks, and what lies
    outside them (containers: lists, quotes, footnote definitions)."""

    structure: list[tuple]
    owners: array                # of ints
    blocks: list[Block]
    outside: Facts


def parse_blocks(text: str, env: dict | None = None) -> Parsed:
    out = Parsed([], array("l"), [], Facts())     # owners: plain ints, no object each
    for item in walk_blocks(text, env):
        if isinstance(item, tuple):
            out.structure.append(item)
            out.owners.append(len(out.blocks))    # the block it is in, or the next one
        elif isinstance(item, Block):
            out.blocks.append(item)
        else:
            out.outside = item
    return out


def walk_blocks(text: str, env: dict | None = None) -> Iterator:
    """What :func:`parse_blocks` holds of ``text``, handed over as it is read: each entry
    of the block structure (a tuple), each leaf block (a :class:`Block`) once its last
    entry is read, and what lies outside them (a :class:`Facts`) last — so a reader that
    needs one block at a time holds one block's facts, not the note's."""
    outside = Facts()
    current: Block | None = None
    closer: str | None = None
    if env is None:                       # a long note: a top-level block at a time
        pieces, env = note_pieces(text)
        tokens = (token for piece in pieces for token in piece)
    else:
        env = copy_env(env)
        tokens = parse_tokens(text, env)
    for tok, counted, opens in _counted(tokens):
        if current is None and tok.type in _LEAF_OPEN:
            current = Block(tok.map[0] if tok.map else -1, Facts())
            closer = _LEAF_OPEN[tok.type]
        if counted:
            into = current.facts if current is not None else outside
            if tok.type == "inline":
                # a long note's tokens keep no children: each block's are read and let go
                children, notes = inline_children(tok, env)
                _inline(children, into, notes, opens)
            else:
                _token(tok, into, {})
        if tok.type != "inline":
            yield _shape(tok.type, tok.tag, tok.level)
        if current is not None and (closer is None or tok.type == closer):
            yield current
            current = None
    if current is not None:
        yield current
    yield outside


class StructureDiffers(Exception):
    """:func:`paired_blocks`: the two texts' block structures differ."""


def paired_blocks(source: str, english: str) -> Iterator[tuple]:
    """(source block, English block) for each leaf block of two texts read side by side
    (:func:`walk_blocks`, a block of each at a time), then (source outside, English
    outside) — while their block structures are the same: at the first entry where they
    differ, :class:`StructureDiffers` (what was handed over until then is the caller's to
    drop: the block structure as a whole differs)."""
    done = object()
    for a, b in zip_longest(walk_blocks(source), walk_blocks(english), fillvalue=done):
        if isinstance(a, tuple) and isinstance(b, tuple):
            if a != b:
                raise StructureDiffers
        elif type(a) is type(b) and isinstance(a, (Block, Facts)):
            yield a, b
        else:
            raise StructureDiffers


def first_difference(source: Parsed, english: Parsed) -> int | None:
    """The leaf block (index into ``source.blocks``) where the block structure first
    differs, len(blocks) when only the end differs, None when it is the same."""
    if source.structure == english.structure:
        return None
    for k, (a, b) in enumerate(zip(source.structure, english.structure)):
        if a != b:
            return source.owners[k]
    n = min(len(source.structure), len(english.structure))
    return source.owners[n] if n < len(source.owners) else len(source.blocks)


def compare_facts(src: Facts, out: Facts, glossary: Glossary | None = None,
                  unrendered: str = "", what: frozenset = frozenset(
                      {"protected", "terms", "chinese"})) -> list[str]:
    """What ``out`` (the English) broke of ``src``'s promises, as short phrases."""
    problems: list[str] = []
    if "structure" in what and src.structure != out.structure:
        problems.append("block structure changed ("
                        + _structure_diff(src.structure, out.structure) + ")")
    if "protected" in what:
        problems += _counter_diff(src.protected, out.protected)
    if glossary is not None and ("terms" in what or "forbid" in what):
        problems += _term_problems(src.text, out.text, glossary, counts="terms" in what)
    if "chinese" in what:
        left = chinese_left(out.text, unrendered)
        if left:
            shown = "、".join(left)
            problems.append("Chinese left in the English: " + shown[:30]
                            + ("…" if len(shown) > 30 else ""))
    return problems


def chinese_left(prose: str, unrendered: str = "") -> list[str]:
    """The runs of Chinese in ``prose`` as they are written, in order, each once, without
    the characters in ``unrendered`` (a run they cut is two runs)."""
    runs: dict[str, None] = {}
    for match in _HAN_RUN.finditer(prose):
        for run in re.split("[" + re.escape(unrendered) + "]+", match.group(0)) \
                if unrendered else (match.group(0),):
            if run:
                runs[run] = None
    return list(runs)


# ``> [!NOTE] 标题``: a callout marker opening a paragraph, text after it (the check's own
# pattern, ASCII; the marker alone on a quote's first line is an alert, a block of its own)
_CALLOUT = re.compile(r"\[![A-Za-z][A-Za-z0-9_-]*\][+-]?(?=[ \t]|$)")
# a task box that opens a paragraph (a task-list item's, checked or not): kept as written,
# so English that ticks or unticks it is a changed span, not an edit of prose
_TASK_BOX = re.compile(r"\[[ xX]\](?=\s|$)")


def _inline(children, out: Facts, notes: dict, paragraph: bool = False) -> None:
    prose: list[str] = []
    autolink = False
    for k, child in enumerate(children):
        kind = child.type
        if autolink:                    # <https://…>: its text is its destination, kept
            autolink = kind != "link_close"
            continue
        if kind == "text":
            content = _without_urls(child.content, out)
            box = _TASK_BOX.match(content) if k == 0 and paragraph else None
            if box:
                out.protected[("task box", box.group(0))] += 1
                content = "\x00" + content[box.end():]
            marker = _CALLOUT.match(content) if k == 0 and paragraph and not box else None
            if marker:
                out.protected[("callout", marker.group(0))] += 1
                content = "\x00" + content[marker.end():]
            nxt = children[k + 1] if k + 1 < len(children) else None
            if nxt is not None and nxt.type == "code_inline":
                role = _SPHINX_ROLE.search(content)
                if role:
                    out.protected[("role", role.group(0) + nxt.content)] += 1
                    content = content[:role.start()]
            prose.append(content)
        elif kind == "softbreak":
            prose.append("\n")
        elif kind == "hardbreak":
            prose.append("\n\n")
        elif kind == "code_inline":
            out.protected[("inline code", child.content)] += 1
            prose.append("\x00")
        elif kind in ("math_inline", "math_inline_double"):
            out.protected[("math", child.content)] += 1
            prose.append("\x00")
        elif kind == "myst_role":
            out.protected[("role", f"{{{(child.meta or {}).get('name', '')}}}{child.content}")] += 1
            prose.append("\x00")
        elif kind == "footnote_ref" and "label" not in (child.meta or {}):
            # an inline footnote ^[…]: structure, and its text is prose of this block
            out.structure.append(_shape("footnote_inline", "", child.level))
            inner = Facts()
            _inline(notes.get(child.meta.get("id"), {}).get("tokens", []), inner, notes)
            out.structure += inner.structure
            out.protected.update(inner.protected)
            prose.append("\x00" + inner.text + "\x00")
        elif kind == "footnote_ref":
            out.protected[("footnote", str((child.meta or {}).get("label", "")))] += 1
            prose.append("\x00")
        elif kind == "html_inline":
            out.protected[("html", child.content)] += 1
            prose.append("\x00")
        elif kind == "link_open":
            href = child.attrs.get("href", "")
            if child.markup == "autolink" or child.info == "auto":
                out.protected[("autolink", href)] += 1
                autolink = True
            else:
                out.protected[("link", f"{href} {child.attrs.get('title', '')}".rstrip())] += 1
            prose.append("\x00")
        elif kind == "image":
            out.protected[("image", f"{child.attrs.get('src', '')} "
                                    f"{child.attrs.get('title', '')}".rstrip())] += 1
            inner = Facts()
            _inline(child.children or [], inner, notes)
            out.protected.update(inner.protected)
            prose.append("\x00" + inner.text + "\x00")
        else:
            prose.append("\x00")
    out.prose.append(_join_lines("".join(prose)))


# A bare URL, read with code of the check's own (the translator's is prose.URL_RE) to the
# rule the README states: ``http://``, ``https://``, ``ftp://`` or ``www.`` + a name + ``.``,
# then everything to white space, a quote, ``<``, ``>``, CJK or full-width punctuation or a
# Chinese character, except that after the first ``/``, ``?`` or ``#`` a run of Chinese
# that starts right after one of ``_HAN_MAY_FOLLOW`` is part of the URL; then its trailing
# ASCII punctuation is not (a ``)`` that closes a ``(`` of the URL is).
_URL_OPEN = re.compile(r"(?:https?|ftp)://|www\.[A-Za-z0-9-]+\.")
_URL_STOPS = frozenset("<>\"'`\u00b7\u2013\u2014\u2015\u2018\u2019\u201a\u201b"
                       "\u201c\u201d\u201e\u201f\u2026")
_HAN_MAY_FOLLOW = frozenset("/?#=&:_-+~(")
_URL_TRAILING = frozenset(".,;:!?)]}'\"")


def _stops_url(ch: str) -> bool:
    return ch.isspace() or ch in _URL_STOPS or "\u3000" <= ch <= "\u303f" \
        or "\uff00" <= ch <= "\uffef"


def bare_urls(text: str) -> list[tuple[int, int]]:
    """The (start, end) of each bare URL in ``text``, left to right."""
    out: list[tuple[int, int]] = []
    pos = 0
    while True:
        opening = _URL_OPEN.search(text, pos)
        if opening is None:
            return out
        start = end = opening.end()
        in_path = False
        while end < len(text):
            ch = text[end]
            if _HAN.match(ch):
                before = text[end - 1]
                if not (in_path and end > start
                        and (before in _HAN_MAY_FOLLOW or _HAN.match(before))):
                    break
            elif _stops_url(ch):
                break
            elif ch in "/?#":
                in_path = True
            end += 1
        if end == start:                 # nothing after the opening: no URL here
            pos = opening.start() + 1
            continue
        pos, start = end, opening.start()
        while end > start and text[end - 1] in _URL_TRAILING:
            if text[end - 1] == ")" and text.count("(", start, end) >= text.count(")", start, end):
                break
            end -= 1
        out.append((start, end))


def _without_urls(content: str, out: Facts) -> str:
    """A text token's content with each bare URL counted as protected and taken out of the
    prose (a term or Chinese in its path is the URL's, not the sentence's)."""
    spans = bare_urls(content) if "://" in content or "www." in content else ()
    if not spans:
        return content
    pieces, pos = [], 0
    for start, end in spans:
        out.protected[("url", content[start:end])] += 1
        pieces += [content[pos:start], "\x00"]
        pos = end
    return "".join(pieces) + content[pos:]


def _join_lines(text: str) -> str:
    """A soft break between two Chinese characters joins them (a hard-wrapped term is one
    term); any other soft break is a space."""
    text = re.sub(f"(?<={_HAN.pattern})\n(?={_HAN.pattern})", "", text)
    return text.replace("\n", " ")


def note_env(text: str) -> dict:
    env: dict = {}
    parse_tokens(text, env)
    return env


def _expand_leading_tabs(line: str) -> str:
    """The line's leading tabs as spaces to the next multiple of 4 columns (CommonMark's
    tab stops), the rest of the line as it is."""
    width = 0
    for i, ch in enumerate(line):
        if ch == " ":
            width += 1
        elif ch == "\t":
            width += 4 - width % 4
        else:
            return " " * width + line[i:]
    return " " * width


def dedent(text: str) -> str:
    """A block's lines without their common indentation and trailing blank lines (a
    paragraph in a nested list parses as itself, not as indented code), a tab counted
    as the columns it reaches (``\t-\t第二项``, a list item nested with a tab, is not
    indented code when its block is parsed alone)."""
    if "\t" in text:
        text = "\n".join(_expand_leading_tabs(line) if line[:1] in " \t" else line
                         for line in text.split("\n"))
    text = dedent_block(text)[0].strip("\n")
    # a block inside a quote: its lines without the quote's markers, read as what they are
    # inside it (``>     text`` after a list item in a quote continues the item; alone, the
    # four spaces after ``> `` would be indented code). Only when every line is quoted: a
    # line that lost its ``>`` stays, and the structure is compared as it is.
    while text and all(_QUOTED.match(line) for line in text.split("\n")):
        text = "\n".join(_unquote(line) for line in text.split("\n"))
        text = "\n".join(_expand_leading_tabs(line) if line[:1] in " \t" else line
                         for line in text.split("\n"))
        text = dedent_block(text)[0].strip("\n")
    return text


_QUOTED = re.compile(r"^ {0,3}>")


def _unquote(line: str) -> str:
    """A quoted line without its ``>`` and the one column of space after it (of a tab, the
    columns it reaches beyond that one)."""
    marker = _QUOTED.match(line)
    column, rest = marker.end(), line[marker.end():]
    if rest.startswith(" "):
        return rest[1:]
    if rest.startswith("\t"):
        return " " * (4 - column % 4 - 1) + rest[1:]
    return rest


def _counter_diff(before: Counter, after: Counter) -> list[str]:
    out = []
    for (kind, value), n in (before - after).items():
        out.append(f"{kind} {_show(value)} lost" + (f" ×{n}" if n > 1 else ""))
    for (kind, value), n in (after - before).items():
        out.append(f"{kind} {_show(value)} added" + (f" ×{n}" if n > 1 else ""))
    return out


def _show(value: str, n: int = 40) -> str:
    """A value quoted as the note writes it: not ``repr``, which doubles a backslash
    (math ``'25\\text{ms}'`` read as two backslashes) and escapes non-printing text."""
    value = " ".join(value.split())
    value = value if len(value) <= n else value[:n - 1] + "…"
    return f'"{value}"' if "'" in value else f"'{value}'"


ALL = frozenset({"structure", "protected", "terms", "chinese"})
FORBIDS = frozenset({"forbid"})      # only the forbids ("terms" checks them and the counts)


def check_block(source: str, english: str, glossary: Glossary | None = None,
                unrendered: str = "", env: dict | None = None,
                what: frozenset = ALL) -> list[str]:
    """One block parsed on its own (dedented), source against English: what the English
    broke, as short phrases; [] when it keeps every promise. ``unrendered``: characters
    the engine said it could not render; ``what``: which promises to check."""
    return compare_facts(facts(dedent(source), env), facts(dedent(english), env), glossary,
                         unrendered, what)


def _term_problems(source: str, english: str, glossary: Glossary, counts: bool = True
                   ) -> list[str]:
    """Each glossary term of the source rendered in the English as often (in any of its
    forms: terms.py; not without ``counts``), and no ``forbid`` of a term in the English of
    the sentence (when the sentences align, else the block) whose source holds it, nor one
    of the glossary's corpus-wide list — unless the source itself already has that phrase."""
    problems = []
    needed: Counter = Counter()
    by_en: dict[str, Term] = {}
    found: dict[Term, None] = {}
    for match in glossary.find(source):
        needed[match.term.en] += 1
        by_en.setdefault(match.term.en, match.term)
        found[match.term] = None
    flat = " ".join(english.split())
    for en, n in needed.items() if counts else ():
        have = terms.count(by_en[en], flat)
        if have < n:
            problems.append(f"term {by_en[en].zh} → {en!r} appears {have} of {n} times")
    if not glossary.forbid and not any(      # the source's terms' forbids (each aligned
            terms.forbid_pattern(phrase).search(english)   # sentence's terms are some of
            for term in found for phrase in term.forbid):    # them) are nowhere
        return problems
    aligned = align(source.replace("\n", ""), english.replace("\n", " "))
    scopes = aligned if aligned is not None and len(aligned) > 1 else [(source, english)]
    for zh, en in scopes:
        for term, phrase in glossary.forbids(m.term for m in glossary.find(zh)):
            pattern = terms.forbid_pattern(phrase)
            if pattern.search(en) and not pattern.search(source):
                what = f"of {term.zh} (write {term.en!r})" if term else "(banned in every note)"
                problems.append(f"forbidden rendering {phrase!r} {what}")
    return list(dict.fromkeys(problems))


def _structure_diff(a: list[tuple], b: list[tuple]) -> str:
    for k, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return f"{x[0]} became {y[0]}"
    if len(a) > len(b):
        return f"{a[len(b)][0]} lost"
    return f"{b[len(a)][0]} added"


def check_document(source: str, english: str) -> list[str]:
    """Whole-note comparison of structure and protected spans (the English without zhen's
    header line)."""
    src, out = facts(source), facts(english)
    problems = []
    if src.structure != out.structure:
        problems.append("block structure changed (" + _structure_diff(src.structure, out.structure)
                        + ")")
    problems += _counter_diff(src.protected, out.protected)
    return problems


# ---------------------------------------------------------------- the second reading
# The checks above read both texts with markdown.py's parser configuration, so a span that
# configuration misreads (prose taken for math, math taken for prose) is misread on both
# sides and passes. This reading uses no Markdown parser at all: a line scan for what is
# copied verbatim (front matter, fences, HTML blocks, indented code), and inline, plain
# patterns for code spans, HTML, link targets, URLs and math as pandoc delimits it (``$…$``
# with its digit rule, ``$$…$$``, ``\begin{env}…\end{env}``). It finds math the English
# lost, changed or added, Chinese in the English's math outside ``\text{…}``-like commands
# that the source's math did not hold, and Chinese left anywhere else.

_PREFIX = re.compile(r"^(?:[ ]{0,3}>[ ]?)*(?:[ ]{0,3}(?:[-+*]|\d{1,9}[.)])[ \t]+)?")
_FENCE = re.compile(r"^[ ]{0,3}(`{3,}|~{3,})")
_HTML_START = re.compile(r"^[ ]{0,3}<(?:[A-Za-z][A-Za-z0-9-]*(?=[\s/>]|$)|/[A-Za-z]|!--|\?|![A-Z])")
_PLAIN_HIDE = [
    re.compile(r"<!--.*?-->", re.S),                                   # HTML comments
    re.compile(r"(?<!`)(`+)(?!`).+?(?<!`)\1(?!`)", re.S),              # code spans
    re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>"),           # tags, autolinks
    re.compile(r"<[A-Za-z][A-Za-z0-9+.-]*:[^<>\s]*>"),
    re.compile(r"\]\((?:<[^>]*>|[^()\s]|\([^()]*\))*(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^()]*\)))?\s*\)"),
    re.compile(r"\]\[[^\[\]]*\]"),                                      # reference labels
    re.compile(r"\[\^[^\[\]\s]+\]:?"),                                  # footnote labels
    re.compile(r"^[ ]{0,3}\[[^\[\]]+\]:[ \t]*\S+.*$", re.M),           # link definitions
    re.compile(r"(?:https?|ftp)://[^\s<>\"'`）]+|www\.[^\s<>\"'`）]+"),  # bare URLs
]
# LaTeX commands whose argument is text, where Chinese belongs
_TEXT_COMMANDS = re.compile(r"\\(?:text|mbox|hbox|fbox|textrm|textbf|textit|textsf|texttt|"
                            r"textnormal|textup|textmd|emph|tag\*?|operatorname\*?|"
                            r"mathrm|intertext|shortintertext|label)\s*\{")
_ENV_OPEN = re.compile(r"\\begin\{([A-Za-z]+\*?)\}")
_BLANK = re.compile(r"(?:\r\n|\n|\r)[ \t]*(?:\r\n|\n|\r)")     # a blank line, any ending


@dataclass
class PlainProblem:
    line: int                    # 1-based line in the English (0: none there)
    message: str
    source_line: int = 0         # 1-based line in the source, for math the English lost
    kind: str = "math"           # math | chinese


def _verbatim_lines(lines: list[str]) -> list[bool]:
    """Lines copied byte for byte whatever the parser says: front matter, fenced code,
    HTML blocks (to a blank line, or a comment to its end) and indented code after a
    blank line."""
    out = [False] * len(lines)
    k = 0
    if lines and lines[0].rstrip("\r\n") in ("---", "+++"):
        end = next((j for j in range(1, len(lines))
                    if lines[j].rstrip("\r\n") in ("---", "...", "+++")), None)
        if end is not None:
            for j in range(end + 1):
                out[j] = True
            k = end + 1
    blank_before = True
    while k < len(lines):
        body = lines[k].rstrip("\r\n")
        inner = body[_PREFIX.match(body).end():] if body.strip() else ""
        fence = _FENCE.match(inner)
        if fence:
            mark = fence.group(1)
            j = k + 1
            while j < len(lines):
                other = lines[j].rstrip("\r\n")
                other = other[_PREFIX.match(other).end():]
                if other.lstrip(" ").startswith(mark[0] * len(mark)) \
                        and not other.strip().strip(mark[0]):
                    break
                j += 1
            for m in range(k, min(j + 1, len(lines))):
                out[m] = True
            k, blank_before = j + 1, False
            continue
        if _HTML_START.match(inner):
            comment = inner.lstrip().startswith("<!--")
            j = k
            while j < len(lines) and lines[j].strip() and not (
                    comment and "-->" in lines[j] and j > k or comment and j == k
                    and "-->" in inner[inner.index("<!--") + 4:]):
                j += 1
            for m in range(k, min(j + 1, len(lines))):
                out[m] = True
            k, blank_before = j + 1, False
            continue
        if blank_before and (body.startswith("    ") or body.startswith("\t")) and body.strip():
            j = k
            while j < len(lines) and (not lines[j].strip() or lines[j].startswith(("    ", "\t"))):
                out[j] = bool(lines[j].strip())
                j += 1
            k, blank_before = j, True
            continue
        blank_before = not body.strip()
        k += 1
    return out


def plain_math(text: str) -> list[tuple[int, int]]:
    """Math spans as pandoc delimits them, in plain text: ``\\begin{env}…\\end{env}`` (the
    matching end), ``$$…$$``, ``$…$`` (non-space inside both dollars, no digit after the
    closing one, no blank line inside). Escaped dollars and backslash pairs are skipped."""
    spans, pos, n = [], 0, len(text)
    while pos < n:
        ch = text[pos]
        if ch == "\\":
            env = _ENV_OPEN.match(text, pos)
            if env:
                name = re.escape(env.group(1))
                depth, end = 0, None
                for mark in re.finditer(rf"\\(begin|end)\{{{name}\}}", text[pos:]):
                    depth += 1 if mark.group(1) == "begin" else -1
                    if depth == 0:
                        end = pos + mark.end()
                        break
                if end is not None and not _BLANK.search(text, pos, end):
                    spans.append((pos, end))
                    pos = end
                    continue
            pos += 2
            continue
        if ch == "$":
            end = _plain_dollar(text, pos)
            if end is not None:
                spans.append((pos, end))
                pos = end
                continue
        pos += 1
    return spans


def _plain_dollar(text: str, pos: int) -> int | None:
    if text.startswith("$$", pos):
        close = text.find("$$", pos + 2)
        while close > 0 and text[close - 1] == "\\":
            close = text.find("$$", close + 1)
        if close < 0 or close == pos + 2 or _BLANK.search(text, pos, close):
            return None
        return close + 2
    if pos + 1 >= len(text) or text[pos + 1].isspace():
        return None
    k = pos + 1
    while k < len(text):
        if text[k] == "\\":
            k += 2
            continue
        if text[k] == "$":
            if text[k - 1].isspace() or _BLANK.search(text, pos, k) or \
                    (k + 1 < len(text) and text[k + 1].isdigit()):
                return None
            return k + 1
        k += 1
    return None


def _outside_text_commands(math: str) -> str:
    """``math`` with the arguments of text-mode commands (``\\text{中文}``) blanked."""
    out, pos = [], 0
    for command in _TEXT_COMMANDS.finditer(math):
        if command.start() < pos:
            continue
        out.append(math[pos:command.end()])
        depth, k = 1, command.end()
        while k < len(math) and depth:
            depth += {"{": 1, "}": -1}.get(math[k], 0) if math[k - 1] != "\\" else 0
            k += 1
        out.append(" " * (k - command.end()))
        pos = k
    out.append(math[pos:])
    return "".join(out)


class _LineSlices:
    """``text.splitlines(keepends=True)`` as a sequence whose lines are sliced when asked
    (a long note's lines are not held as strings); ``starts[k]``: where line ``k``
    starts (``starts[len]``: the end)."""

    _ENDS = re.compile("\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")   # splitlines'

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = array("q", [0])
        self.starts.extend(m.end() for m in self._ENDS.finditer(text))
        if self.starts[-1] != len(text):
            self.starts.append(len(text))

    def __len__(self) -> int:
        return len(self.starts) - 1

    def __getitem__(self, k: int) -> str:
        if k < 0:
            k += len(self)
        if not 0 <= k < len(self):
            raise IndexError(k)
        return self.text[self.starts[k]:self.starts[k + 1]]


def _plain_view(text: str, with_view: bool = True) -> tuple[str, list[tuple[int, int]]]:
    """``text`` with everything the reading exempts blanked (newlines kept), and its math
    spans (blanked too). ``with_view=False``: the spans only (the view returned is "": a
    reader that needs only the spans does not build the last copy of the text)."""
    # built from slices (never a list of one-character strings: an object per Chinese
    # character, about 80 bytes each, is hundreds of MB for a 10 MB note)
    lines = _LineSlices(text)            # text.splitlines(keepends=True), not held
    verbatim = _verbatim_lines(lines)
    runs, first = [], 0                  # the lines in runs, verbatim or not: slices of text
    for k in range(1, len(verbatim) + 1):
        if k == len(verbatim) or verbatim[k] != verbatim[first]:
            piece = text[lines.starts[first]:lines.starts[k]]
            runs.append(_blanked(piece) if verbatim[first] else piece)
            first = k
    view = "".join(runs) if runs else text[:0]
    del lines, verbatim, runs
    for pattern in _PLAIN_HIDE:
        view = pattern.sub(lambda m: _blanked(m.group(0)), view)
    spans = plain_math(view)
    if not with_view:
        return "", spans
    parts, pos = [], 0
    for start, end in spans:
        parts += [view[pos:start], _blanked(view[start:end])]
        pos = end
    parts.append(view[pos:])
    return "".join(parts), spans


_NOT_LINE_END = re.compile(r"[^\r\n]")


def _blanked(text: str) -> str:
    """``text`` with every character but ``\r`` and ``\n`` a space."""
    return _NOT_LINE_END.sub(" ", text)


def second_reading(source: str, english: str, unrendered: str = "",
                   parser_prose=None) -> list[PlainProblem]:
    """What a reading without the Markdown parser finds wrong in ``english`` (the body of
    x.en.md) against ``source`` (the note): math lost, changed or added; Chinese in the
    English's math outside ``\\text{…}`` that the source's math did not hold; Chinese left
    outside math, code, HTML and link targets, except characters in ``unrendered``.

    ``parser_prose``: a function giving the parser's prose view of ``english`` (same
    length, non-prose blanked); when given, Chinese the parser reads as prose is left to
    the first reading, and only what it hides (its blind spot) is reported here.

    A note over ``markdown.KEEP_CHARS`` is read a section at a time
    (:func:`_read_in_sections`: the same problems, without a whole-note copy of either
    text's plain view); where that cannot vouch for the same answer, it is read whole."""
    if len(source) > markdown.KEEP_CHARS:
        found = _read_in_sections(source, english, unrendered, parser_prose)
        if found is not None:
            return found
    return _read_whole(source, english, unrendered, parser_prose)


def _read_whole(source: str, english: str, unrendered: str = "",
                parser_prose=None) -> list[PlainProblem]:
    """:func:`second_reading` of both texts whole."""
    problems: list[PlainProblem] = []
    src_spans = _plain_view(source, with_view=False)[1]      # (the source's view is not kept)
    out_view, out_spans = _plain_view(english)
    index = _Lines(english)
    have = Counter(source[s:e] for s, e in src_spans)
    found = Counter(english[s:e] for s, e in out_spans)
    for start, end in out_spans:
        math = english[start:end]
        if found[math] > have[math]:
            found[math] -= 1
            problems.append(PlainProblem(index.line(start), f"math {_show(math)} is not in the "
                                         "source (read without the Markdown parser)"))
        elif _HAN.search(_outside_text_commands(math)) and math not in have:
            problems.append(PlainProblem(index.line(start), f"Chinese inside math {_show(math)} "
                                         "outside \\text{…}"))
    lost = have - Counter(english[s:e] for s, e in out_spans)
    src_index = _Lines(source)
    for math, n in lost.items():
        at = next(s for s, e in src_spans if source[s:e] == math)
        problems.append(PlainProblem(0, f"math {_show(math)} of the source is missing from the "
                                        "English" + (f" ×{n}" if n > 1 else ""),
                                     src_index.line(at)))
    runs = [(m.start(), m.group(0)) for m in _HAN_RUN.finditer(out_view)
            if any(ch not in unrendered for ch in m.group(0))]
    del out_view
    return problems + _chinese_left(runs, unrendered, parser_prose, index)



def _chinese_left(runs: list[tuple[int, str]], unrendered: str, parser_prose,
                  index: "_Lines") -> list[PlainProblem]:
    """The problems of the Chinese runs (offset in the English, run) the plain view shows:
    a line's runs in one problem, without what ``unrendered`` holds or the parser reads as
    prose (``parser_prose``, asked only when there is a run)."""
    left: dict[int, list[str]] = {}
    prose = parser_prose() if runs and parser_prose is not None else None
    for start, found in runs:
        run = "".join(ch for k, ch in enumerate(found, start)
                      if ch not in unrendered and (prose is None or prose[k] != ch))
        if run:
            left.setdefault(index.line(start), []).append(run)
    problems = []
    for line, found_runs in left.items():
        shown = "、".join(found_runs)
        problems.append(PlainProblem(line, "Chinese left in the English (read without the "
                                           f"Markdown parser): {shown[:30]}"
                                           + ("…" if len(shown) > 30 else ""), kind="chinese"))
    return problems


# ------------------------------------------- the second reading of a long note, in sections
# A long note's plain view is built a section at a time: both texts are cut after a blank
# line, at about _READ_CHARS, where nothing the plain reading's own patterns read can be
# open. The line scan (_verbatim_lines) is run once over the whole text and its lines are
# taken as they are; a math span never holds a blank line (plain_math); a Chinese run never
# holds a line end; and each of _PLAIN_HIDE's patterns is checked, on the section as the
# patterns before it left it, for a reading that could run to the section's end (an
# unclosed comment, code span, tag, link target or title, reference label, definition
# label) — then the section grows to a later cut. Every other match lies inside the
# section, and so each section's view is the whole view's slice (tests/test_second_reading.py
# checks the problems against the whole reading on random Markdown). Math is compared by
# its totals: equal, the whole reading finds no math problem either; not equal, the note
# has a math problem, and it is read whole, which names each the way it always has.

_READ_CHARS = 250_000
_TAG_TO_END = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*\s[^<>]*\Z")
_LINK_TO_END = re.compile(
    r"\]\((?:<[^>]*>|[^()\s]|\([^()]*\))*(?:<[^>]*|\([^()]*|\s+(?:\"[^\"]*|'[^']*|\([^()]*)"
    r"|(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^()]*\)))?\s*)\Z")
_BRACKET = re.compile(r"[\[\]]")


def _open_at_end(k: int, view: str) -> bool:
    """Whether pattern ``_PLAIN_HIDE[k]``, applied to ``view`` (a section, as the patterns
    before ``k`` left it; it ends with a line end), could read on past its end: then the
    whole text's match there might not be the section's."""
    if k == 0:                                   # a comment not closed in the section
        at = view.rfind("<!--")
        return at >= 0 and view.find("-->", at + 4) < 0
    if k == 1:                                   # a code span: any backtick (see below)
        return False
    if k == 2:                                   # a tag's attributes, to the end
        at = view.rfind("<")
        return at >= 0 and _TAG_TO_END.match(view, at) is not None
    if k == 4:                                   # a link target or title, to the end
        return any(_LINK_TO_END.match(view, m.start()) for m in re.finditer(r"\]\(", view))
    if k == 5:                                   # a reference label, to the end
        at = view.rfind("][")
        return at >= 0 and _BRACKET.search(view, at + 2) is None
    if k == 7:                                   # a definition's label, to the end
        at = view.rfind("[")
        if at < 0 or view.find("]", at) >= 0:
            return False
        indent = view[view.rfind("\n", 0, at) + 1:at]
        return len(indent) <= 3 and not indent.strip(" ")
    return False                                 # no white space or one line: bounded


def _section_view(view: str) -> str | None:
    """:func:`_plain_view`'s blanking of one section of a text (its verbatim lines blanked
    already), or None when some pattern could read on past the section's end."""
    for k, pattern in enumerate(_PLAIN_HIDE):
        if _open_at_end(k, view):
            return None
        view = pattern.sub(lambda m: _blanked(m.group(0)), view)
        if k == 1 and "`" in view:       # a backtick left: a code span's search went on to
            return None                  # the end (a span found stops at its first closer)
    return view


def _plain_sections(text: str, size: int | None = None, with_view: bool = True):
    """:func:`_plain_view` of ``text`` a section of about ``size`` characters at a time
    (:data:`_READ_CHARS`): (where the section starts, its view — "" when not
    ``with_view`` — and its math spans, offsets into ``text``)."""
    size = _READ_CHARS if size is None else size
    lines = _LineSlices(text)
    verbatim = _verbatim_lines(lines)
    starts = lines.starts
    first, want = 0, size
    while first < len(text):
        cut = _BLANK.search(text, first + want)
        while cut is not None and text[cut.end() - 1] != "\n":
            cut = _BLANK.search(text, cut.end())
        end = len(text) if cut is None or cut.end() >= len(text) else cut.end()
        a, b = bisect.bisect_left(starts, first), bisect.bisect_left(starts, end)
        runs, k0 = [], a
        for k in range(a + 1, b + 1):
            if k == b or verbatim[k] != verbatim[k0]:
                piece = text[starts[k0]:starts[k]]
                runs.append(_blanked(piece) if verbatim[k0] else piece)
                k0 = k
        view = "".join(runs)
        del runs
        section = _section_view(view)
        if section is None and end < len(text):
            want = 2 * (end - first)             # read on to a later cut
            continue
        if section is None:                      # on to the text's end: read as it is
            for pattern in _PLAIN_HIDE:
                view = pattern.sub(lambda m: _blanked(m.group(0)), view)
            section = view
        view = section
        del section
        spans = plain_math(view)
        if with_view:
            parts, pos = [], 0
            for start, stop in spans:
                parts += [view[pos:start], _blanked(view[start:stop])]
                pos = stop
            parts.append(view[pos:])
            view = "".join(parts)
        yield first, view if with_view else "", [(s + first, e + first) for s, e in spans]
        first, want = end, size


def _read_in_sections(source: str, english: str, unrendered: str = "", parser_prose=None,
                      size: int | None = None) -> list[PlainProblem] | None:
    """:func:`second_reading` of both texts a section at a time; None when their math
    differs (the whole reading names what)."""
    math: Counter = Counter()           # source's math spans less the English's, by text
    runs: list[tuple[int, str]] = []

    def count(text: str, spans, step: int) -> None:
        for s, e in spans:
            span = text[s:e]
            math[span] += step
            if not math[span]:
                del math[span]

    for src, out in zip_longest(_plain_sections(source, size, with_view=False),
                                _plain_sections(english, size)):
        if src is not None:
            count(source, src[2], 1)
        if out is not None:
            base, view, spans = out
            count(english, spans, -1)
            runs += [(base + m.start(), m.group(0)) for m in _HAN_RUN.finditer(view)
                     if any(ch not in unrendered for ch in m.group(0))]
            del view, out
    if math:
        return None
    return _chinese_left(runs, unrendered, parser_prose, _Lines(english))


class _Lines:
    """1-based line numbers of offsets (any line ending)."""

    def __init__(self, text: str) -> None:
        self.starts = array("q", [0])        # machine ints: a long note's lines are many
        self.starts.extend(m.end() for m in re.finditer(r"\r\n|\n|\r", text))

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)
