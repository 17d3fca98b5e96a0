"""The second reading (validate.second_reading): x.en.md read with no Markdown parser, so
a span the parser configuration misreads on both sides still fails the check.

The end-to-end tests put the parser back the way it misread math before (the plugin's
amsmath rule, allow_digits=False on both sides of a dollar) and check that the notes it
misread are errors naming file:line, not silent passes."""

from __future__ import annotations

from pathlib import Path

import pytest

from zhenglossary import markdown, prose
from zhenglossary.engines.gloss import GlossEngine
from zhenglossary.glossary import load_glossary_text
from zhenglossary.translate import TranslateOptions, translate_paths
from zhenglossary.validate import plain_math, second_reading

GLOSSARY_TEXT = "source: zh\ntarget: en\nterms:\n  - zh: 卷积层\n    en: convolution layer\n"
GLOSSARY = load_glossary_text(GLOSSARY_TEXT)


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
        (1, "math '$\\\\\\\\times$' is not in the source (read without the Markdown parser)"),
        (-1, "math '$\\\\times$' of the source is missing from the English")]


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
