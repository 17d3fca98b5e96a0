"""Line endings (and container prefixes) are kept inside every span that crosses a line:
math, inline code and HTML written over two lines of a paragraph, a quote or a list item,
in CRLF, CR-less and mixed notes."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from zhenglossary.document import Raw, parse_document
from zhenglossary.engines.gloss import GlossEngine
from zhenglossary.glossary import load_glossary_text
from zhenglossary.locking import plan_document
from zhenglossary.render import english_body
from zhenglossary.translate import TranslateOptions, translate_paths

GLOSSARY = load_glossary_text("source: zh\ntarget: en\nterms:\n  - zh: 步长\n    en: step size\n")

# (Markdown before the span's line break, after it) in three containers
SPANS = [("$$u=", "\\sum_i v_i$$"), ("$a", "+b$"), ("`x", "y`"), ('<span', 'title="t">')]
CONTAINERS = ["", "> ", "- "]


def _note(endings: list[str], span: tuple[str, str], container: str) -> str:
    cont = "  " if container == "- " else container
    first, second = span
    lines = [f"{container}更新时步长取{first}", f"{cont}{second}为宜。", "", "第二段。"]
    return "".join(line + end for line, end in zip(lines, endings))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["\n", "\r\n", "\r\n"]), min_size=4, max_size=4),
       st.sampled_from(SPANS), st.sampled_from(CONTAINERS))
def test_a_span_across_lines_keeps_the_notes_bytes(endings, span, container):
    text = _note(endings, span, container)
    cont = "  " if container == "- " else container
    doc = parse_document(text)
    crossing = 0
    for plan in plan_document(doc, GLOSSARY, "x.md"):
        region = plan.region
        for node in region.nodes:
            if isinstance(node, Raw) and "\n" in region.raw[node.start:node.end]:
                crossing += 1
                exact = span[0] + endings[0] + cont + span[1]
                assert text[region.absolute(node.start):region.absolute(node.end)] == exact
                slots = [s.raw for top in plan.segments for seg in top.walk() for s in seg.slots]
                assert exact in slots
    assert crossing == 1


def test_crlf_math_over_two_lines_comes_out_whole_and_check_agrees(tmp_path):
    from zhenglossary.api import check_project

    text = ("设更新量为$$\\Delta w=\r\n-\\eta\\,g$$，其中步长取0.1。\r\n\r\n"
            "> 引用中的$a\r\n> +b$也一样。\r\n\r\n- 列表里$$x\r\n  y$$同理。\r\n")
    (tmp_path / "glossary.yaml").write_text("source: zh\ntarget: en\nterms:\n"
                                            "  - zh: 步长\n    en: step size\n", "utf-8")
    note = tmp_path / "n.md"
    note.write_bytes(text.encode("utf-8"))
    report = translate_paths([note], tmp_path / "glossary.yaml", TranslateOptions(use_memory=False),
                             engine=GlossEngine(GLOSSARY.form_map))
    assert report.exit_code == 0, [f.message for f in report.findings]
    body = english_body((tmp_path / "n.en.md").read_bytes().decode("utf-8"))
    for span in ("$$\\Delta w=\r\n-\\eta\\,g$$", "$a\r\n> +b$", "$$x\r\n  y$$"):
        assert span in body
    assert "\n" not in body.replace("\r\n", "")
    result = check_project([note], tmp_path / "glossary.yaml")
    assert [f.check for f in result.findings if f.severity != "info"] == []
