"""The independent output check: what zhen promises, verified on what it wrote.

The masking code (locking.py, document.py) decides what to translate; this module shares
none of that logic. It re-parses a source block and its English with markdown-it (the one
parser configuration, markdown.py) and walks the tokens itself, comparing:

* **structure** — the sequence of block tokens (type, tag, nesting level);
* **protected spans** — the multiset of fenced and indented code, inline code, math,
  link and image destinations (and titles), autolinks, raw HTML, roles (MyST
  ``{role}`x``` and Sphinx ``:role:`x```), footnote labels and front matter;
* **terms** — every glossary form in the source's prose appears as its ``en`` in the
  English's prose at least as often (case-insensitively: a term may start a sentence),
  and no ``forbid`` rendering appears that the source did not already contain;
* **Chinese** — no CJK ideograph is left in the English's prose, except characters the
  engine reported it could not render.

``check_block`` gives the list of differences (empty: the block keeps every promise).
``check_document`` compares two whole documents (structure and protected spans), which
catches damage that crosses block boundaries.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from .document import dedent_block
from .glossary import Glossary
from .markdown import copy_env, parse_note, parse_tokens

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
# a Sphinx role written before a code span: ":numref:" / ":py:func:" (ASCII, on purpose)
_SPHINX_ROLE = re.compile(r"(?:^|(?<=[^A-Za-z0-9])):[A-Za-z][A-Za-z0-9_.+:-]*:$")
_CODE_BLOCKS = {"fence", "code_block"}
_MATH_BLOCKS = {"math_block", "math_block_label", "amsmath"}


@dataclass
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
    for tok, counted in _counted(tokens):
        if counted:
            _token(tok, out, notes)
    return out


def _inline_notes(env: dict) -> dict:
    """Footnote id → entry; an inline footnote's entry holds the tokens of its text."""
    return env.get("footnotes", {}).get("list", {})


def _counted(tokens):
    """(token, counted): the text of an inline footnote ``^[…]`` is counted where it is
    written (at its reference, :func:`_inline`), not again in the footnote list the parser
    appends to the document."""
    inline_note = False
    for tok in tokens:
        if tok.type == "footnote_open":
            inline_note = (tok.meta or {}).get("label") is None
        elif tok.type == "footnote_close":
            inline_note = False
        yield tok, not (inline_note and tok.type == "inline")


def _token(tok, out: Facts, notes: dict) -> None:
    if tok.type == "inline":
        _inline(tok.children or [], out, notes)
        return
    out.structure.append((tok.type, tok.tag, tok.level))
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


# leaf blocks: the tokens that open one, and the token that closes it (None: one token)
_LEAF_OPEN = {"paragraph_open": "paragraph_close", "heading_open": "heading_close",
              "table_open": "table_close", **{t: None for t in (
                  "fence", "code_block", "html_block", "hr", "math_block", "math_block_label",
                  "amsmath", "front_matter")}}


@dataclass
class Block:
    line: int                    # 0-based first line in the text it was parsed from
    facts: Facts


@dataclass
class Parsed:
    """A whole note as the parser sees it: its block structure (each entry tagged with
    the leaf block it belongs to, or the next one), its leaf blocks, and what lies
    outside them (containers: lists, quotes, footnote definitions)."""

    structure: list[tuple]
    owners: list[int]
    blocks: list[Block]
    outside: Facts


def parse_blocks(text: str, env: dict | None = None) -> Parsed:
    out = Parsed([], [], [], Facts())
    current: Block | None = None
    closer: str | None = None
    if env is None:
        tokens, env = parse_note(text)
    else:
        env = copy_env(env)
        tokens = parse_tokens(text, env)
    notes = _inline_notes(env)
    for tok, counted in _counted(tokens):
        if current is None and tok.type in _LEAF_OPEN:
            current = Block(tok.map[0] if tok.map else -1, Facts())
            out.blocks.append(current)
            closer = _LEAF_OPEN[tok.type]
        if counted:
            _token(tok, current.facts if current is not None else out.outside, notes)
        if tok.type != "inline":
            out.structure.append((tok.type, tok.tag, tok.level))
            out.owners.append(len(out.blocks) - 1 if current is not None else len(out.blocks))
        if current is not None and (closer is None or tok.type == closer):
            current = None
    return out


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
    if "terms" in what and glossary is not None:
        problems += _term_problems(src.text, out.text, glossary)
    if "chinese" in what:
        left = sorted({ch for ch in _HAN.findall(out.text) if ch not in unrendered})
        if left:
            problems.append("Chinese left in the English: " + "".join(left[:12])
                            + ("…" if len(left) > 12 else ""))
    return problems


def _inline(children, out: Facts, notes: dict) -> None:
    prose: list[str] = []
    for k, child in enumerate(children):
        kind = child.type
        if kind == "text":
            content = child.content
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
            out.structure.append(("footnote_inline", "", child.level))
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
    return dedent_block(text)[0].strip("\n")


def _counter_diff(before: Counter, after: Counter) -> list[str]:
    out = []
    for (kind, value), n in (before - after).items():
        out.append(f"{kind} {_show(value)} lost" + (f" ×{n}" if n > 1 else ""))
    for (kind, value), n in (after - before).items():
        out.append(f"{kind} {_show(value)} added" + (f" ×{n}" if n > 1 else ""))
    return out


def _show(value: str, n: int = 40) -> str:
    value = " ".join(value.split())
    return repr(value if len(value) <= n else value[:n - 1] + "…")


def _count(haystack: str, needle: str) -> int:
    return len(re.findall(r"(?<![A-Za-z0-9])" + re.escape(needle.lower()) + r"(?![A-Za-z0-9])",
                          haystack)) if needle else 0


def term_rendered(english: str, en: str) -> bool:
    """Does ``english`` hold the term rendering ``en`` as the output check counts it? (the
    glossary lint asks this of the forms an entry's `note` prescribes)."""
    return _count(" ".join(english.lower().split()), " ".join(en.split())) > 0


ALL = frozenset({"structure", "protected", "terms", "chinese"})


def check_block(source: str, english: str, glossary: Glossary | None = None,
                unrendered: str = "", env: dict | None = None,
                what: frozenset = ALL) -> list[str]:
    """One block parsed on its own (dedented), source against English: what the English
    broke, as short phrases; [] when it keeps every promise. ``unrendered``: characters
    the engine said it could not render; ``what``: which promises to check."""
    return compare_facts(facts(dedent(source), env), facts(dedent(english), env), glossary,
                         unrendered, what)


def _term_problems(source: str, english: str, glossary: Glossary) -> list[str]:
    problems = []
    needed: Counter = Counter()
    terms = {}
    for match in glossary.find(source):
        needed[match.term.en] += 1
        terms[match.term.en] = match.term
    lowered = " ".join(english.lower().split())
    for en, n in needed.items():
        have = _count(lowered, " ".join(en.split()))
        if have < n:
            problems.append(f"term {terms[en].zh} → {en!r} appears {have} of {n} times")
    if glossary.first_forbidden(english) is None:       # one combined scan
        return problems
    for term, phrase, pattern in glossary.forbidden:
        if pattern.search(english) and not pattern.search(source):
            problems.append(f"forbidden rendering {phrase!r} of {term.zh} (write {term.en!r})")
    return problems


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
