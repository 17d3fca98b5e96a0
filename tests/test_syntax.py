"""Syntax Chinese notes carry, parsed by the real parsers (mdit-py-plugins): math touching
Chinese, roles of both kinds, footnotes, front matter, reference links, alt text, and
CommonMark edge cases with Chinese put in. Each is translated and must keep its block
structure and every protected byte (checked by validate.py, which shares no masking code).
"""

from __future__ import annotations

import pytest

from engines import BracketEngine
from test_document import translate_text
from zhenglossary.document import Raw, Wrap, align_inline
from zhenglossary.glossary import load_glossary_text
from zhenglossary.validate import check_document, facts

GLOSSARY = load_glossary_text("""terms:
  - zh: 混合精度
    en: mixed precision
  - zh: 注意力
    en: attention
    forbid: [notice]
  - zh: 查询
    en: query
""")


def _engine(name: str):
    if name == "gloss":
        from zhenglossary.engines.gloss import GlossEngine
        return GlossEngine(GLOSSARY.form_map)
    return BracketEngine()


def kinds(raw: str) -> list[str]:
    return [n.kind for n in align_inline(raw) if isinstance(n, (Raw, Wrap))]


@pytest.mark.parametrize("raw, expected", [
    ("上下文变量$\\mathbf{c}_{t'}$的形状", ["math"]),
    ("若$a$和$b$都为正", ["math", "math"]),
    ("段落$$\na+b\n$$继续", ["math"]),
    ("前$\\text{中文}$后", ["math"]),
    ("见:numref:`sec_attention`和{cite}`Vaswani.2017`。", ["role", "role"]),
    ("脚注[^note]。", []),                   # no definition: text, as CommonMark says
    ("价格$5和$6元", []),                     # money, not math (a digit after `$`)
    ("![注意力权重](img/attn.png)", ["image"]),
])
def test_inline_kinds(raw, expected):
    assert kinds(raw) == expected


def test_math_and_roles_come_out_byte_identical():
    text = ("注意力$\\alpha_{t,i}$是查询$\\mathbf{q}$和键的函数，见:numref:`sec_attn`。\n\n"
            "其中$\\text{注意力}(x)$不翻译，混合精度见{cite}`Micikevicius.2018`。\n")
    english, _, _, _ = translate_text(text, GLOSSARY)
    for span in ["$\\alpha_{t,i}$", "$\\mathbf{q}$", ":numref:`sec_attn`", "$\\text{注意力}(x)$",
                 "{cite}`Micikevicius.2018`"]:
        assert span in english
    assert ": numref" not in english
    body = english.split("\n", 1)[1]
    assert check_document(text, body) == []


def test_chinese_between_two_math_spans_is_translated_and_its_term_locked():
    english, _, _, _ = translate_text("设$x$为混合精度的输入$y$。\n", GLOSSARY)
    assert "$x$" in english and "$y$" in english and "mixed precision" in english
    assert "混合精度" not in english


@pytest.mark.parametrize("text", [
    "参见[混合精度]。\n\n[混合精度]: https://example.org/amp\n",
    "参见[混合精度][]。\n\n[混合精度]: https://example.org/amp\n",
    "参见[这篇文章][amp]。\n\n[amp]: https://example.org/amp \"标题\"\n",
    "![注意力][fig]\n\n[fig]: img/attention.png\n",
])
def test_reference_links_keep_their_target(text):
    english, _, _, _ = translate_text(text, GLOSSARY)
    body = english.split("\n", 1)[1]
    assert check_document(text, body) == []
    assert facts(body).protected == facts(text).protected


def test_shortcut_reference_is_written_as_a_full_reference():
    english, _, _, _ = translate_text("参见[混合精度]。\n\n[混合精度]: https://example.org/amp\n",
                                      GLOSSARY)
    assert "[mixed precision][混合精度]" in english.lower()


def test_image_alt_text_is_translated_and_src_kept():
    english, _, _, _ = translate_text("![混合精度的吞吐](img/amp_吞吐.png \"图一\")\n", GLOSSARY)
    assert "![mixed precision" in english.lower() and "(img/amp_吞吐.png \"图一\")" in english


# CommonMark-style cases written for zhen, with Chinese in them
COMMONMARK_CASES = [
    # reference links: shortcut, collapsed, full, case-insensitive label, title
    "[混合精度]\n\n[混合精度]: /url \"标题\"\n",
    "[混合精度][]\n\n[混合精度]: /url\n",
    "[查询][Q]\n\n[q]: /query\n",
    "[*查询*（query）][q]\n\n[q]: <查询 地址>\n",
    "[混合\n精度]\n\n[混合 精度]: /wrapped\n",
    # an indented continuation line must not become a setext underline
    "混合精度的段落\n    ---\n",
    "注意力的段落\n    ===\n继续\n",
    # setext headings, Chinese and English
    "混合精度\n===\n\n注意力\n---\n",
    "English heading\n---\n\n中文段落。\n",
    # text in <…> that is not HTML stays text
    "<注意力>是查询的一部分。\n",
    "<混合精度>\n",
    "a <查询> b\n",
    # HTML blocks and comments
    "<div>\n混合精度\n</div>\n\n注意力。\n",
    "<!-- 注释：混合精度 -->\n\n查询。\n",
    "<details>\n<summary>注意力</summary>\n\n查询的段落。\n\n</details>\n",
    # an autolink and a link with a Chinese title
    "见<https://example.org/混合>和[查询](https://q.org \"查询的标题\")。\n",
    # definitions with the title on the next line, used from a list and a quote
    "[混合精度]: /url\n  \"标题\"\n\n- 列表里的[混合精度]\n\n> 引用里的[混合精度][]\n",
    # an image by collapsed reference; English text with a Chinese label
    "![混合精度][]\n\n[Mixed][混合精度]\n\n[混合精度]: /img.png\n",
    # a destination in angle brackets with a space, and a nested link text
    "[查询的*注意力*](</my uri> \"题\")\n",
    # a setext heading over two lines; an HTML block of type 1 and one of type 7
    "多行的\n混合精度标题\n===\n",
    "<pre>\n混合精度\n</pre>\n\n<span class=\"x\">\n注意力\n</span>\n",
    # a thematic break between Chinese paragraphs, and a hard break
    "查询一\n\n***\n\n注意力二  \n混合精度三\n",
]


@pytest.mark.parametrize("text", COMMONMARK_CASES)
@pytest.mark.parametrize("engine", ["gloss", "bracket"])
def test_commonmark_cases_keep_structure_and_destinations(text, engine):
    english, _, _, _ = translate_text(text, GLOSSARY, engine=_engine(engine))
    body = english.split("\n", 1)[1]
    assert check_document(text, body) == [], body


def test_english_words_chinese_wrote_without_a_space_are_spaced():
    # found by the validator on a shipped note: "Transformer编码器" → "Transformerencoder"
    glossary = load_glossary_text("terms:\n  - zh: 编码器\n    en: encoder\n"
                                  "  - zh: 训练\n    en: training\n")
    for source, english in [("4. Transformer编码器\n", "4. Transformer encoder"),
                            ("编码器训练\n", "Encoder training"), ("编码器2\n", "Encoder 2")]:
        out, _, _, _ = translate_text(source, glossary)
        assert out.split("\n")[1] == english


@pytest.mark.parametrize("engine", ["gloss", "bracket"])
@pytest.mark.parametrize("text", [
    "# 混合精度:numref:`sec_mp`\n",                       # a heading of a term and a role
    "推导过程参见查询:eq:`eq_q`与注意力:numref:`fig_attn`。\n",
    "- 编译器前端:ref:`frontend`\n",                          # no term: the engine's word
])
def test_a_role_chinese_wrote_right_after_a_word_stays_a_role(text, engine):
    # found by the fuzz test: "混合精度:numref:`x`" → "Mixed precision:numref:`x`", where
    # a letter before the colon makes the role plain text; the role needs a space
    english, _, _, _ = translate_text(text, GLOSSARY, engine=_engine(engine))
    body = english.split("\n", 1)[1]
    assert check_document(text, body) == [], body
    assert facts(body).protected == facts(text).protected


@pytest.mark.parametrize("text, said_once", [
    ("**查询**（query）是一个向量。\n", "**query**"),
    ("*注意力*（attention）很重要。\n", "*attention*"),
    ("我们把**查询**（query）与键比较。\n", "**query**"),
])
def test_an_emphasised_term_followed_by_its_own_english_is_said_once(text, said_once):
    english, _, _, _ = translate_text(text, GLOSSARY)
    body = english.split("\n", 1)[1]
    assert "(query)" not in body and "(attention)" not in body, body
    assert said_once.lower() in body.lower(), body
    assert check_document(text, body) == []


def test_an_emphasised_phrase_or_other_english_keeps_its_parenthesis():
    # emphasis around more than the term, or English that is not the term's, is kept
    for text, kept in [("**查询向量**（query vector）\n", "(query vector)"),
                       ("**查询**（Q）\n", "(Q)")]:
        english, _, _, _ = translate_text(text, GLOSSARY)
        assert kept in english, english
