"""The one Markdown parser configuration zhen uses everywhere.

CommonMark + GFM tables and strikethrough, plus the syntax Chinese technical notes carry,
parsed by mdit-py-plugins rather than by hand:

* ``$…$`` / ``$$…$$`` math (dollarmath, pandoc's rules: the opening ``$`` is followed and
  the closing ``$`` preceded by a non-space, and a ``$`` next to a digit is money, not
  math — so ``价格$5和$6元`` stays text while ``变量$x$的`` is math on both sides of CJK),
  ``$$…$$`` inside a paragraph, labelled ``$$…$$ (eq1)`` blocks;
* amsmath environments (``\\begin{align}…``);
* YAML front matter; footnotes, referenced (``[^1]`` + ``[^1]: …``) and inline
  (pandoc's ``^[…]``, whose text is prose, translated in place); MyST roles
  (``{cite}`key```).

Sphinx/d2lbook roles (``:numref:`sec_x```) parse as text + ``code_inline``; ``ROLE_PREFIX``
is the one pattern that recognises the ``:role:`` prefix in front of such a code span.
"""

from __future__ import annotations

import re
from functools import lru_cache

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
    from mdit_py_plugins.amsmath import amsmath_plugin
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.footnote import footnote_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin
    from mdit_py_plugins.myst_role import myst_role_plugin

    md.enable(["table", "strikethrough"])
    md.use(front_matter_plugin)
    md.use(dollarmath_plugin, allow_labels=True, allow_space=False, allow_digits=False,
           double_inline=True)
    md.use(amsmath_plugin)
    md.use(footnote_plugin, inline=True)
    md.use(myst_role_plugin)
    # lists nested 1,000 deep must not blow the stack or take minutes; what lies deeper is
    # not parsed (see unread_nesting)
    md.options["maxNesting"] = MAX_NESTING
    return md


@lru_cache(maxsize=1)
def parser():
    from markdown_it import MarkdownIt

    return _syntax(MarkdownIt("commonmark", {"html": True}))


def parse_tokens(text: str, env: dict | None = None):
    return parser().parse(text, env if env is not None else {})


def copy_env(env: dict | None) -> dict:
    """A copy of a note's env (link reference definitions, footnotes) that parsing one
    block or region may change: the footnote plugin counts references in it and registers
    each inline footnote ``^[…]`` in ``env["footnotes"]["list"]``, and a note's env, once
    parsed, is shared (:func:`parse_note`) and must not change."""
    if not env:
        return {}
    out: dict = {}
    if "references" in env:
        out["references"] = dict(env["references"])
    if "footnotes" in env:
        notes = env["footnotes"]
        out["footnotes"] = {"refs": dict(notes.get("refs", {})),
                            "list": {k: dict(v) for k, v in notes.get("list", {}).items()}}
    return out


@lru_cache(maxsize=4)
def parse_note(text: str) -> tuple[tuple, dict]:
    """Tokens and env of a whole note, parsed once for everyone who reads it (the
    segmenter and the validator); callers must not change them."""
    env: dict = {}
    return tuple(parser().parse(text, env)), env


@lru_cache(maxsize=1)
def display_parser():
    """For showing a note's blocks to a person (the review page): the same syntax, raw
    HTML escaped instead of passed through, task-list items as (disabled) checkboxes."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.tasklists import tasklists_plugin

    return _syntax(MarkdownIt("commonmark", {"html": False})).use(tasklists_plugin)


def unread_nesting(text: str) -> list[tuple[int, int, int]]:
    """Where the parser's nesting limit hid text: (first line, last line, Chinese characters)
    of each container (block quote, list item, footnote) it opened at the limit but did not
    read, 1-based; only those holding Chinese. markdown-it skips a container's content once
    ``MAX_NESTING`` levels are open, silently, so this looks for containers at that depth with
    no children and counts the Chinese in their lines of the raw text."""
    from .textutil import CJK_RE

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
