"""Math read as the author's renderer reads it (markdown.py's own ``$`` and amsmath rules).

Three kinds of evidence: cases written here (Chinese next to dollars and digits, matrices
in ``$$``, environments that must not swallow prose); the plugin's configured rules on
generated text, which must agree wherever pandoc's rule and the plugin's options agree;
and, when they are at hand, the plugin's own fixture files (mdit-py-plugins keeps them in
its repository, not in its packages: point ``ZHEN_MDIT_FIXTURES`` at a folder holding
``dollar_math.md`` and ``amsmath.md``; each difference must be one of pandoc's, listed in
``PANDOC_DIFFERS``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from markdown_it import MarkdownIt

from zhenglossary.markdown import inline_math_end, math_spans, parse_tokens, use_amsmath, use_dollar_math


def kinds(text: str) -> list:
    """Block token types, and each inline token's (type, content) for math and text."""
    out = []
    for tok in parse_tokens(text):
        if tok.type == "inline":
            out.append([(c.type, c.content) for c in tok.children or [] if c.type != "softbreak"])
        elif tok.type.endswith("_close"):
            continue
        else:
            out.append(tok.type)
    return out


# ---------------------------------------------------------------- dollars


def test_a_dollar_right_after_a_digit_opens_math():
    assert kinds("峰值带宽约为2$\\times$通道数$\\times$位宽。") == [
        "paragraph_open", [("text", "峰值带宽约为2"), ("math_inline", "\\times"),
                           ("text", "通道数"), ("math_inline", "\\times"), ("text", "位宽。")]]


def test_money_stays_text():
    # a closing $ followed by a digit closes nothing: pandoc's $20,000 and $30,000
    assert kinds("门票$8和$9两档。") == ["paragraph_open", [("text", "门票$8和$9两档。")]]
    assert kinds("预算从$20,000涨到$30,000。") == [
        "paragraph_open", [("text", "预算从$20,000涨到$30,000。")]]


def test_math_touching_chinese_on_both_sides():
    assert kinds("令$n$为层数") == ["paragraph_open", [("text", "令"), ("math_inline", "n"),
                                                      ("text", "为层数")]]


def test_spaces_inside_the_dollars_are_not_math():
    assert kinds("收益 $ 5 $ 左右") == ["paragraph_open", [("text", "收益 $ 5 $ 左右")]]


def test_display_math_inside_a_paragraph_after_a_digit():
    assert kinds("共3$$k^2$$项") == ["paragraph_open", [("text", "共3"),
                                                        ("math_inline_double", "k^2"),
                                                        ("text", "项")]]


def test_inline_math_end_by_offsets():
    assert inline_math_end("2$x$3", 1) is None            # closing $ before a digit
    assert inline_math_end("2$x$.", 1) == 4
    assert inline_math_end("$$a$b$$", 0) == 7
    assert inline_math_end("$a\n\nb$", 0) is None         # no blank line inside
    assert inline_math_end("\\$a$", 1) is None            # escaped


def test_math_spans_skip_code_and_escapes():
    text = "`$a$` \\$b$ $c$"
    assert [text[s:e] for s, e in math_spans(text)] == ["$c$"]


# ---------------------------------------------------------------- amsmath


def test_an_environment_inside_open_display_math_is_math_not_a_block():
    text = ("记$$W=\n\\begin{pmatrix}a&b\\end{pmatrix}$$，其中每一行对应一个样本，$$V=\n"
            "\\begin{pmatrix}c\\end{pmatrix}\n$$\n")
    assert kinds(text) == ["paragraph_open", [
        ("text", "记"), ("math_inline_double", "W=\n\\begin{pmatrix}a&b\\end{pmatrix}"),
        ("text", "，其中每一行对应一个样本，"),
        ("math_inline_double", "V=\n\\begin{pmatrix}c\\end{pmatrix}\n")]]


def test_an_environment_interrupts_a_paragraph_when_no_math_is_open():
    text = "前文如下\n\\begin{align}\nx &= 1\n\\end{align}\n后文继续\n"
    assert kinds(text) == ["paragraph_open", [("text", "前文如下")], "amsmath",
                           "paragraph_open", [("text", "后文继续")]]


def test_an_environment_closed_mid_line_is_not_a_block_and_swallows_nothing():
    text = ("\\begin{bmatrix}1\\end{bmatrix} 是单位阵\n中间这一行是正文\n"
            "\\begin{bmatrix}2\\end{bmatrix}\n")
    tokens = kinds(text)
    assert tokens[:2] == ["paragraph_open", [("text", "\\begin{bmatrix}1\\end{bmatrix} 是单位阵"),
                                             ("text", "中间这一行是正文")]]
    assert tokens[2:] == ["amsmath"]


def test_a_blank_line_ends_an_environment_that_did_not_close():
    text = "\\begin{align}\nx\n\n\\end{align}\n\n正文。\n"
    assert "amsmath" not in kinds(text)


def test_nested_environments_of_one_name_close_at_the_outer_end():
    text = "\\begin{matrix}\n\\begin{matrix}a\\end{matrix}\n\\end{matrix}\n"
    tokens = parse_tokens(text)
    assert [t.type for t in tokens] == ["amsmath"]
    assert tokens[0].content == text.rstrip("\n")
    assert tokens[0].map == [0, 3]


# ---------------------------------------------------------------- against the plugin

def _plugin():
    from mdit_py_plugins.amsmath import amsmath_plugin
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    return MarkdownIt("commonmark").use(dollarmath_plugin, allow_space=False, allow_digits=False,
                                        double_inline=True, allow_blank_lines=False
                                        ).use(amsmath_plugin)


def _ours():
    return use_amsmath(use_dollar_math(MarkdownIt("commonmark"), double_inline=True,
                                       allow_blank_lines=False))


def _digit_next_to_a_dollar(text: str) -> bool:
    """Where pandoc's rule and the plugin's allow_digits=False differ: a digit before an
    opening dollar, or after a closing $$."""
    return any(text[k].isdigit() and text[k + 1] == "$" for k in range(len(text) - 1)) or \
        any(text[k:k + 2] == "$$" and text[k + 2].isdigit() for k in range(len(text) - 2))


def _plugin_wraps_around(text: str) -> bool:
    """The plugin reads ``src[pos - 1]`` for a ``$`` at offset 0, which is the paragraph's
    last character: a paragraph that starts with ``$`` and ends in a backslash or a digit
    has its first dollar taken as escaped or as money there; ours reads no such character."""
    import re

    for chunk in re.split(r"\n[ \t]*\n", text):
        body = chunk.strip()
        if body.startswith("$") and body[-1:] in set("0123456789\\"):
            return True
    return False


def _escaped_backslash_before_a_dollar(text: str) -> bool:
    """Where the plugin and pandoc differ on escapes: the plugin takes a ``$`` after any
    backslash as escaped, pandoc (and ours) only after an odd run of them (``\\\\$``
    is a literal backslash, then a dollar that may open math)."""
    import re

    return any(len(m.group(1)) % 2 == 0 for m in re.finditer(r"(\\+)\$", text))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="$$$ab1 \\\n`中{}", max_size=24))
def test_dollars_agree_with_the_plugin_where_pandoc_agrees(text):
    if _digit_next_to_a_dollar(text) or "\\begin" in text:
        return
    if _plugin_wraps_around(text) or _escaped_backslash_before_a_dollar(text):
        return
    plugin, ours = _plugin(), _ours()
    assert ours.render(text) == plugin.render(text)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(["\\begin{align}", "\\end{align}", "x &= 1", "正文", "",
                                 "- ", "> "]), max_size=6))
def test_environments_agree_with_the_plugin_on_well_formed_blocks(lines):
    # well formed: each \begin line is closed by an \end line of its own before any blank
    # line and with no $ open — there the two rules must read the same blocks
    text = "\n".join(lines) + "\n"
    depth, ok = 0, True
    for line in lines:
        if line == "\\begin{align}":
            depth += 1
        elif line == "\\end{align}":
            depth -= 1
        elif line == "" and depth:
            ok = False
        if depth < 0 or depth > 1:
            ok = False
    if not ok or depth or any(x in ("- ", "> ") for x in lines):
        return
    assert _ours().render(text) == _plugin().render(text)


# differences from the plugin's own fixture cases, each one of pandoc's rules
PANDOC_DIFFERS = {
    "use of currency symbol, i.e. digits before/after opening/closing":
        "pandoc has no rule about the character before an opening $: 3$1+2$ is math",
}
FIXTURES = Path(os.environ.get("ZHEN_MDIT_FIXTURES", "/nonexistent"))


def _fixture_cases():
    from markdown_it.utils import read_fixture_file

    cases = []
    for name in ("dollar_math.md", "amsmath.md"):
        if (FIXTURES / name).is_file():
            cases += [pytest.param(name, title.strip(), given_, expected, id=f"{name}:{line}")
                      for line, title, given_, expected in read_fixture_file(FIXTURES / name)]
    return cases or [pytest.param(None, "", "", "", id="no-fixtures")]


@pytest.mark.parametrize("name,title,given_,expected", _fixture_cases())
def test_the_plugins_own_fixture_cases(name, title, given_, expected):
    if name is None:
        pytest.skip("set ZHEN_MDIT_FIXTURES to a folder with mdit-py-plugins' dollar_math.md "
                    "and amsmath.md (tests/fixtures in its repository)")
    md = _ours() if name == "dollar_math.md" else use_amsmath(MarkdownIt("commonmark"))
    if "DISABLE-CODEBLOCKS" in title:
        md.disable("code")
    md.options["xhtmlOut"] = False
    got = md.render(given_).rstrip()
    if any(title.startswith(k) for k in PANDOC_DIFFERS):
        assert got != expected.rstrip()          # the difference is still there, on purpose
    else:
        assert got == expected.rstrip()
