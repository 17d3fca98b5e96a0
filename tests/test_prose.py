"""prose.prose_view: the prose of a note is what the translation translates — found by the
Markdown parser — and the view keeps the note's offsets."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import assume, given, settings, strategies as st

from conftest import english_file, write
from zhenglossary.cli import app
from zhenglossary.prose import _SYNTAX, _parsed_view, _plain_view, prose_view

GLOSSARY = """\
source: zh
target: en
terms:
  - zh: 沉积岩
    en: sedimentary rock
    forbid: [deposit rock]
  - zh: 断层
    en: fault
"""

# the term 沉积岩 only where the translation copies the bytes unchanged
HIDDEN = """\
---
title: 沉积岩的分布
---
# 野外记录

见[剖面图](https://example.org/a "沉积岩剖面")和![照片](p.png "沉积岩照片")。
孔隙度$\\phi_{\\text{沉积岩}}$与$$\\text{沉积岩}$$有关，参见{term}`沉积岩`和:ref:`沉积岩`。
这里有脚注[^沉积岩]，还有 `沉积岩` 与 <span title="沉积岩">标注</span>。

$$
\\rho_{\\text{沉积岩}} = 2.5
$$

[^沉积岩]: 见附录二。
"""


def test_protected_spans_are_blank_and_their_prose_is_kept():
    view = prose_view(HIDDEN)
    assert "沉积岩" not in view
    for prose in ("野外记录", "剖面图", "照片", "孔隙度", "有关", "参见", "这里有脚注",
                  "标注", "见附录二。"):
        assert prose in view, prose
    # the same places: view[i] is the note's character or a space, newlines kept
    assert len(view) == len(HIDDEN)
    assert all(v == c or (v == " " and c != "\n") for v, c in zip(view, HIDDEN))


def test_prose_inside_markup_is_prose():
    text = ("- **沉积岩**的层理^[沉积岩常见层理]，[沉积岩](https://x.org/沉积岩 \"t\")。\n\n"
            "| 岩石 | 说明 |\n|---|---|\n| 沉积岩 | `沉积岩` |\n\n"
            "> 引用里的沉积岩，网址 https://example.org/rock 和 a.b@example.org 不是。\n")
    view = prose_view(text)
    # emphasis, inline footnote, link text, table cell, quote: five; code and URL: none
    assert view.count("沉积岩") == 5
    assert "**沉积岩**" in view and "^[沉积岩常见层理]" in view       # inline markup stays
    assert "example.org" not in view and "https" not in view
    assert view.startswith("  ") and "> " not in view and "|" not in view


def test_crlf_and_unaligned_text_keep_offsets():
    text = "# 断层\r\n\r\n断层的走向[^1]见图。\r\n\r\n[^1]: 断层 `代码`\r\n"
    view = prose_view(text)
    assert len(view) == len(text) and view.count("\n") == text.count("\n")
    assert view.count("断层") == 3 and "代码" not in view and "[^1]" not in view


# --------------------------------------------------------------------------- properties

PIECES = st.sampled_from([
    "沉积岩", "断层", "岩石", "。", "，", "rock", "fault", " ", "  ", "\n", "\n\n", "\r\n",
    "1.", "2)", "- ", "* ", "+ ", "> ", "# ", "=", "-", "_", "*", "**", "~", "~~", "&amp;",
    "&", ";", "!", "^", "{", "}", ":", "@", "/", "(", ")", "https://example.org/x",
    "a.b@example.org", "`", "<b>", "</b>", "$", "$$", "[", "]", "[^1]", "^[", "|", "\\",
    "\t", "    ", "---", "```", ":ref:", "{term}", "](u \"t\")", "\u3000", "\r", "\xa0", "\f",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(PIECES, max_size=30).map("".join))
def test_the_view_keeps_length_newlines_and_characters(text):
    view = prose_view(text)
    assert len(view) == len(text)
    assert [i for i, c in enumerate(view) if c == "\n"] == [i for i, c in enumerate(text) if c == "\n"]
    assert all(v == c or v == " " for v, c in zip(view, text))


# the pieces that are not syntax wherever they stand (most texts drawn from them pass the
# shortcut's test, so hypothesis need not throw most examples away); the line-start
# pieces stay, so the shortcut's line-start rule is still tried
PLAIN = PIECES.filter(lambda piece: re.search(r"[`<$\[|\\\t\f\xa0\u3000]", piece) is None)


def _no_parser_needed(text):
    assume(_SYNTAX.search(text) is None)
    assert _plain_view(text) == _parsed_view(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(PLAIN, max_size=30).map("".join))
def test_text_without_syntax_needs_no_parser(text):
    """The shortcut for text with no Markdown syntax gives what the parser gives."""
    _no_parser_needed(text)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(st.lists(PLAIN, max_size=30).map("".join))
def test_text_without_syntax_needs_no_parser_many_more(text):
    """The same, ten times the examples (the default run keeps 300)."""
    _no_parser_needed(text)


# --------------------------------------------------------------------------- the checks

def test_check_counts_no_term_in_a_protected_span(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "glossary.yaml", GLOSSARY)
    write(tmp_path / "notes" / "a.md", HIDDEN + "\n断层很长。\n")
    write(tmp_path / "notes" / "a.en.md", english_file(
          "See [the section](https://example.org/a \"deposit rock\") and $\\text{deposit rock}$, "
          "`deposit rock`; the fault is long.\n"))
    result = runner.invoke(app, ["glossary", "check", "--format", "json", "--info"])
    data = json.loads(result.stdout)
    assert data["usage"].get("沉积岩", {}) == {} and data["usage"]["断层"] == {"notes/a.md": 1}
    assert [f["check"] for f in data["findings"] if f["check"] == "term-forbidden"] == []
    assert [f["message"] for f in data["findings"] if f["check"] == "term-unused"
            and "沉积岩" in f["message"]]
    assert result.exit_code == 0, result.output
    # in prose it counts, and a forbidden rendering in prose is an error
    write(tmp_path / "notes" / "b.md", "沉积岩分布很广。\n")
    write(tmp_path / "notes" / "b.en.md", english_file("Deposit rock is widespread.\n", "b.md"))
    result = runner.invoke(app, ["glossary", "check", "--format", "json"])
    data = json.loads(result.stdout)
    assert data["usage"]["沉积岩"] == {"notes/b.md": 1}
    [forbidden] = [f for f in data["findings"] if f["check"] == "term-forbidden"]
    assert forbidden["file"] == "notes/b.en.md" and result.exit_code == 1


@pytest.mark.parametrize("note, places", [
    # front matter: its first line with Chinese, every run of it
    ("---\ntitle: Notes\nsummary: 岩土工程的渗流计算\n---\n\n正文。\n",
     [(2, "front matter", "岩土工程的渗流计算")]),
    ("---\ntitle: Seepage notes\ntags: [geotech]\n---\n\n正文。\n", []),
    # HTML blocks and inline HTML; comments are not shown to a reader
    ("<details>\n<summary>推导过程</summary>\n\n推导如下。\n\n</details>\n",
     [(1, "HTML", "推导过程")]),
    ("<!-- 待补充：实验数据 -->\n\n正文。\n", []),
    ("见 <abbr title=\"有限元方法\">FEM</abbr> 一节。<!-- 内部备注 -->\n",
     [(0, "HTML", "有限元方法")]),
    # link and image titles, in each of CommonMark's three title quotes
    ("参见[手册](https://example.org/m \"操作手册\")。\n", [(0, "link title", "操作手册")]),
    ("参见[手册](<https://example.org/a b> '第二版')。\n", [(0, "link title", "第二版")]),
    ("![流程](flow.svg (数据流程图))\n", [(0, "image title", "数据流程图")]),
    # a title nested in emphasis, on a later line of its paragraph
    ("第一行。\n**见[图](x.png \"网格划分\")**\n", [(1, "link title", "网格划分")]),
    # not shown to readers as text: a URL's Chinese path, a reference label, code, math
    ("见[维基](https://zh.wikipedia.org/wiki/渗流) 与 [手册][操作手册]。\n\n"
     "[操作手册]: https://example.org/m\n", []),
    ("用 `print(\"你好\")` 和 $\\text{速度}$ 表示。\n", []),
])
def test_kept_chinese_names_what_a_reader_still_sees_in_chinese(note, places):
    from zhenglossary.document import parse_document
    from zhenglossary.prose import kept_chinese

    assert kept_chinese(parse_document(note)) == places
