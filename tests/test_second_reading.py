"""The second reading (validate.second_reading): x.en.md read with no Markdown parser, so
a span the parser configuration misreads on both sides still fails the check.

The end-to-end tests put the parser back the way it misread math before (the plugin's
amsmath rule, allow_digits=False on both sides of a dollar) and check that the notes it
misread are errors naming file:line, not silent passes."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from zhenglossary import markdown, prose
from zhenglossary.engines.gloss import GlossEngine
from zhenglossary.glossary import load_glossary_text
from zhenglossary.translate import TranslateOptions, translate_paths
from zhenglossary.validate import plain_math, second_reading

GLOSSARY_TEXT = "source: zh\ntarget: en\nterms:\n  - zh: 卷积层\n    en: convolution layer\n"
GLOSSARY = load_glossary_text(GLOSSARY_TEXT)

# the CI runs these properties again with ZHEN_DEEP_PROPERTIES=1 (-n 0): three times the
# examples the default run tries
DEEP = 3 if os.environ.get("ZHEN_DEEP_PROPERTIES") == "1" else 1



def messages(source: str, english: str, **kw) -> list[tuple[int, str]]:
    return [(p.line or -p.source_line, p.message) for p in second_reading(source, english, **kw)]


# ---------------------------------------------------------------- the reading itself


def test_plain_math_follows_pandocs_dollars_and_whole_environments():
    text = "a 2$x$3 b $y$. c$5 和 $6元 \\begin{bmatrix}1\\end{bmatrix} 与 $$z$$"
    assert [text[s:e] for s, e in plain_math(text)] == [
        "$y$", "\\begin{bmatrix}1\\end{bmatrix}", "$$z$$"]


def test_chinese_left_outside_math_is_found_and_its_line_named():
    source = "第一段。\n\n设$$A=\n\\begin{bmatrix}1\\end{bmatrix}$$，每层一列。\n"
    english = "First paragraph.\n\nLet $$A=\n\\begin{bmatrix}1\\end{bmatrix}$$，每层一列。\n"
    assert messages(source, english) == [
        (4, "Chinese left in the English (read without the Markdown parser): 每层一列")]


def test_chinese_inside_math_outside_text_is_found_unless_the_source_wrote_it():
    source = "令$\\text{步长}=\\eta$，且$x_{最大}$。\n\n另一段$a$。\n"
    english = ("Let $\\text{步长}=\\eta$ and $x_{最大}$.\n\nAnother paragraph $a$.\n")
    assert messages(source, english) == []
    damaged = english.replace("$a$", "$a 段$")
    assert messages(source, damaged) == [
        (3, "math '$a 段$' is not in the source (read without the Markdown parser)"),
        (-3, "math '$a$' of the source is missing from the English")]


def test_math_changed_in_the_english_is_named_on_both_sides():
    source = "带宽为2$\\times$通道数。\n"
    english = "Bandwidth is 2$\\\\times$ channel count.\n"
    assert messages(source, english) == [
        (1, "math '$\\\\times$' is not in the source (read without the Markdown parser)"),
        (-1, "math '$\\times$' of the source is missing from the English")]


@pytest.mark.parametrize("kept", [
    "```\n# 注释\n```\n", "    缩进代码\n", "<div>\n原样的中文\n</div>\n", "---\ntitle: 标题\n---\n",
    "见[link](https://x.org/路径 \"标题\")。\n", "`代码`\n", "<!-- 注释 -->\n",
    "[mixed precision][混合精度]\n\n[混合精度]: https://x.org\n", "引用[^脚注]。\n",
])
def test_what_is_copied_verbatim_is_not_chinese_left(kept):
    english = kept.replace("。", ".").replace("见", "See ").replace("引用", "Cited")
    assert messages(kept, english) == []


def test_characters_the_engine_reported_are_not_reported_again():
    assert messages("𠮷野。\n", "𠮷 field.\n", unrendered="𠮷") == []


def test_what_the_parser_reads_as_prose_is_left_to_the_first_reading():
    english = "Some 中文 left.\n"
    assert messages("一些中文。\n", english) != []
    assert messages("一些中文。\n", english, parser_prose=lambda: english) == []


# ---------------------------------------------------------------- a misreading parser


@pytest.fixture
def misreading_parser(monkeypatch):
    """markdown.py as it was: the plugin's amsmath rule (it interrupts open $$ and closes
    only at a line ending \\end{…}) and allow_digits=False on both sides of a dollar."""
    from mdit_py_plugins.amsmath import amsmath_plugin
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    def dollars(md, **options):
        return md.use(dollarmath_plugin, **{**options, "allow_space": False,
                                            "allow_digits": False, "allow_blank_lines": True})

    def caches():
        for cached in (markdown.parser, markdown.display_parser, markdown.parse_note,
                       prose.prose_view):
            cached.cache_clear()

    monkeypatch.setattr(markdown, "use_dollar_math", dollars)
    monkeypatch.setattr(markdown, "use_amsmath", lambda md: md.use(amsmath_plugin))
    caches()
    yield
    monkeypatch.undo()
    caches()


def _translate(tmp_path, text: str):
    (tmp_path / "glossary.yaml").write_text(GLOSSARY_TEXT, "utf-8")
    note = tmp_path / "m.md"
    note.write_text(text, "utf-8")
    report = translate_paths([note], tmp_path / "glossary.yaml", TranslateOptions(use_memory=False),
                             engine=GlossEngine(GLOSSARY.form_map))
    return report, [(f.check, Path(f.file).name, f.line) for f in report.findings
                    if f.severity == "error"]


AMSMATH_NOTE = ("设$$A=\n\\begin{bmatrix}1\\end{bmatrix}$$，每个卷积层对应一列，$$B=\n"
                "\\begin{bmatrix}2\\end{bmatrix}\n$$\n")
DIGIT_NOTE = "峰值带宽约为2$\\times$通道数$\\times$位宽。\n"


def test_the_amsmath_misreading_fails_the_check(tmp_path, misreading_parser):
    report, errors = _translate(tmp_path, AMSMATH_NOTE)
    assert report.exit_code == 1
    assert ("output-invalid", "m.md", 2) in errors
    message = next(f.message for f in report.findings if f.check == "output-invalid")
    assert "每个卷积层对应一列" in message


def test_the_digit_misreading_fails_the_check(tmp_path, misreading_parser):
    report, errors = _translate(tmp_path, DIGIT_NOTE)
    assert report.exit_code == 1 and errors == [("output-invalid", "m.md", 1)]
    # the block is written as its source: the damaged math never reaches x.en.md
    assert "2$\\times$通道数" in (tmp_path / "m.en.md").read_text("utf-8")


@pytest.mark.parametrize("text", [AMSMATH_NOTE, DIGIT_NOTE])
def test_with_the_real_parser_both_notes_pass(tmp_path, text):
    report, errors = _translate(tmp_path, text)
    assert errors == [] and report.exit_code == 0


def test_glossary_check_reads_x_en_md_a_second_time(tmp_path, misreading_parser):
    from zhenglossary.api import check_project

    _translate(tmp_path, AMSMATH_NOTE)
    # the English that parser gives: the Chinese the amsmath rule swallowed is left in it,
    # and every check that reads with the parser passes it
    lines = (tmp_path / "m.en.md").read_text("utf-8").split("\n")
    assert "Set up$$A=" in lines
    at = next(k for k, line in enumerate(lines, 1) if "每个卷积层" in line)
    found = [f for f in check_project([tmp_path / "m.md"], tmp_path / "glossary.yaml").findings
             if f.check in ("plain-reading", "untranslated")]
    assert [(f.check, Path(f.file).name, f.line) for f in found] == [
        ("plain-reading", "m.en.md", at)]
    assert "每个卷积层对应一列" in found[0].message


# ---------------------------------------------------------------- a long note, in sections
# A note over markdown.KEEP_CHARS is read a section at a time (validate._read_in_sections);
# here the sections are a few characters long, so that random Markdown — and English with
# the fragments that open what the plain reading's patterns read (a comment, a code span, a
# tag, a link target or title, a reference or definition label, math, a fence) put
# anywhere — is cut everywhere it can be, and the reading must give what the whole does.

from hypothesis import HealthCheck, example, given, settings, strategies as st  # noqa: E402

from test_sections import notes as markdown_notes  # noqa: E402
from zhenglossary import validate  # noqa: E402

FRAGMENTS = ["`", "``", "```\n", "~~~\n", "<!--", "-->", "<a ", "<div>\n", ">", "](", "](<",
             "(", ")", '"', "'", "][", "[", "]", "[x]: ", "$", "$$", "\\begin{x}", "\\end{x}",
             "\\", "\n\n", "\n", "\r\n", "    ", "\t", "中文", "留下", "https://x.y/中",
             "---\n", "word", " ", "\\text{字}"]
fragments = st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join)


@st.composite
def damaged(draw, text):
    """``text`` with fragments put in at random places, CJK runs now and then words."""
    text = draw(text)
    for _ in range(draw(st.integers(0, 6))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(fragments) + text[at:]
    if draw(st.booleans()):
        text = re.sub("[\u4e00-\u9fff]+", "words", text, count=draw(st.integers(0, 20)))
    return text


texts = st.one_of(markdown_notes, fragments, damaged(markdown_notes))
# what opens and closes each pattern's multi-line reads, with blank lines, mostly mid-line
NOISE = ["\n\n", "\n", "  \n\n", " ", "w", "中"]
OPENERS = [["<!--", "-->"], ["`", "``"], ["<a ", "<", ">", "="],
           ["](", "](<", "(", ")", '"', "'", "<", ">"], ["][", "[", "]"], ["\n[", "[", "]", "]:"],
           ["$", "$$", "\\begin{x}", "\\end{x}", "\\"]]
pieces = st.one_of(*(st.lists(st.sampled_from(kind + NOISE), max_size=10).map("".join)
                      for kind in OPENERS + [sum(OPENERS, [])]))
# an opener before a blank line, its closer after: where a cut must not be taken
openers = st.lists(pieces, min_size=2, max_size=4).map(lambda t: "a " + "\n\n".join(t))
texts = st.one_of(texts, openers, openers, openers)


def problems(found):
    return None if found is None else [(p.line, p.message, p.source_line, p.kind)
                                       for p in found]


def _sections_read_as_whole(text: str, size: int) -> None:
    """``text`` read in sections of about ``size`` characters gives the whole text's plain
    view and math spans, section starts in order, the spans alone too."""
    whole, spans = validate._plain_view(text)
    parts = list(validate._plain_sections(text, size))
    assert "".join(view for _, view, _ in parts) == whole
    assert [span for _, _, found in parts for span in found] == spans
    assert [start for start, _, _ in parts] == sorted({start for start, _, _ in parts})
    assert [s for _, _, found in validate._plain_sections(text, size, with_view=False)
            for s in found] == spans


@settings(max_examples=100 * DEEP, deadline=None, suppress_health_check=list(HealthCheck))
@given(texts, st.integers(1, 80))
@example("a <!--\n\nb 中 -->\n", 1)
@example("a <b\n\nc=d>中\n", 1)
@example("a ](<x)\n\nb>中\n", 1)
@example('a ](x "t\n\n中" )\n', 1)
@example("a ][\n\n中]\n", 1)
@example("a\n[x\n\n中]: y\n", 1)
@example("a `x\n\n中` b\n", 1)
def test_a_text_read_in_sections_has_the_whole_texts_view(text, size):
    _sections_read_as_whole(text, size)


@settings(max_examples=400 * DEEP, deadline=None, suppress_health_check=list(HealthCheck))
@given(openers, st.integers(1, 12))
def test_a_section_is_cut_only_where_no_pattern_is_open(text, size):
    """The same property, on the fragments that open and close each pattern's reads."""
    _sections_read_as_whole(text, size)


@settings(max_examples=50 * DEEP, deadline=None, suppress_health_check=list(HealthCheck))
@given(markdown_notes, st.data(), st.integers(1, 80), st.sampled_from(["", "中", "留下文"]),
       st.booleans())
def test_the_sectioned_reading_finds_what_the_whole_one_does(source, data, size, unrendered,
                                                            with_prose):
    english = data.draw(st.one_of(damaged(st.just(source)), texts))
    prose_of = (lambda: prose.prose_view(english)) if with_prose else None
    whole = problems(validate._read_whole(source, english, unrendered, prose_of))
    sectioned = problems(validate._read_in_sections(source, english, unrendered, prose_of,
                                                    size))
    assert sectioned is None or sectioned == whole
    if sectioned is None:           # only when the math differs: then there is a math problem
        assert any(p[3] == "math" for p in whole)


def test_a_long_note_is_read_in_sections_and_its_problems_named_at_their_lines(monkeypatch):
    source = "".join(f"第{k}段，见$x_{k}$和`代码`。\n\n" for k in range(200))
    english = "".join(f"Paragraph {k}, see $x_{k}$ and `代码`.\n\n" for k in range(200))
    english = english.replace("Paragraph 150,", "Paragraph 150 留下,")
    monkeypatch.setattr(markdown, "KEEP_CHARS", 100)
    monkeypatch.setattr(validate, "_READ_CHARS", 300)
    assert len(list(validate._plain_sections(english, 300))) > 10
    assert validate._read_in_sections(source, english, size=300) is not None
    assert messages(source, english) == [
        (301, "Chinese left in the English (read without the Markdown parser): 留下")]
    lost = english.replace("$x_7$", "x_7")          # math lost: read whole, named as ever
    assert validate._read_in_sections(source, lost, size=300) is None
    assert messages(source, lost) == [
        (-15, "math '$x_7$' of the source is missing from the English"),
        (301, "Chinese left in the English (read without the Markdown parser): 留下")]
