"""Markdown round trips: golden files, structure and protected spans survive translation.

Regenerate the golden files after an intended change with ZHEN_UPDATE_GOLDEN=1.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import MINI_GLOSSARY, NOTES
from engines import BracketEngine
from mdcheck import protected, structure
from zhenglossary.document import align_inline, parse_document
from zhenglossary.glossary import load_glossary, load_glossary_text
from zhenglossary.locking import plan_document
from zhenglossary.memory import NoMemory
from zhenglossary.parallel import read_parallel, render_parallel
from zhenglossary.render import leaf_texts, render_english
from zhenglossary.runner import Runner, lock_segments

DATA = Path(__file__).parent / "data"
GLOSSARY = load_glossary_text(MINI_GLOSSARY + "  - zh: 键值缓存\n    en: KV cache\n")


def translate_text(text: str, glossary=GLOSSARY, engine=None, name="x.md"):
    engine = engine or BracketEngine()
    doc = parse_document(text)
    plans = plan_document(doc, glossary, name)
    segments = [s for p in plans for top in p.segments for s in top.walk()]
    findings = lock_segments(segments, glossary, Runner(engine, NoMemory(), 512, None), 1)
    leaves = leaf_texts(doc, plans)
    return (render_english(doc, leaves, f"<!-- zhen: English of {name} -->"),
            render_parallel(leaves, name, engine.describe()), findings, segments)


def golden(name: str, actual: str) -> None:
    path = DATA / name
    if os.environ.get("ZHEN_UPDATE_GOLDEN"):
        path.write_text(actual, "utf-8")
    assert actual == path.read_text("utf-8"), f"{name} differs (ZHEN_UPDATE_GOLDEN=1 to accept)"


@pytest.mark.parametrize("name, glossary", [
    ("blocks.md", GLOSSARY),
    ("sosp24.md", None),
])
def test_golden_round_trip(name, glossary):
    source_path = DATA / name if (DATA / name).exists() else NOTES / name
    source = source_path.read_text("utf-8")
    glossary = glossary or load_glossary(NOTES.parent / "glossary.yaml")
    english, parallel, findings, _ = translate_text(source, glossary, name=name)
    assert findings == []
    golden(name.replace(".md", ".en.md"), english)
    golden(name.replace(".md", ".zh-en.md"), parallel)


@pytest.mark.parametrize("path", [DATA / "blocks.md", NOTES / "sc24.md", NOTES / "sosp24.md"],
                         ids=lambda p: p.name)
def test_structure_and_protected_spans_survive(path):
    source = path.read_text("utf-8")
    glossary = load_glossary(NOTES.parent / "glossary.yaml")
    english, _, _, _ = translate_text(source, glossary)
    assert structure(english) == structure(source)
    assert protected(english) == protected(source)


def test_blocks_fixture_covers_every_block_kind():
    kinds = {t[0] for t in structure((DATA / "blocks.md").read_text("utf-8"))}
    for kind in ("heading_open", "paragraph_open", "bullet_list_open", "ordered_list_open",
                 "blockquote_open", "table_open", "fence", "code_block", "html_block", "hr"):
        assert kind in kinds, kind
    inline = {t[1] for t in structure((DATA / "blocks.md").read_text("utf-8")) if t[0] == "inline"}
    assert {"strong_open", "em_open", "s_open", "link_open", "image", "code_inline",
            "html_inline", "hardbreak"} <= inline


def test_code_comments_and_html_stay_chinese():
    english, _, _, _ = translate_text((DATA / "blocks.md").read_text("utf-8"))
    assert "# 注释：这里是中文注释，不能翻译" in english
    assert "    缩进代码块：也不能翻译" in english
    assert "<b>HTML 块里的中文</b>" in english


def test_hard_wrapped_sentence_becomes_one_line():
    text = ("这是一个被硬换行的很长的中文句子，作者在编辑器里把它折成了两行，所以第一行没有任何标点"
            "并且足够长，长到超过门槛\n需要合并成一句话来翻译。\n\n短标题行\n下一行。\n")
    english, _, _, segments = translate_text(text)
    first = english.split("\n")[1]
    assert first.endswith(".") and "‹T" in first          # both lines in one sentence
    assert [s.line for s in segments] == [1, 4, 5]        # the short line is its own segment


def test_crlf_is_preserved():
    text = "# 标题\r\n\r\n第一句。\r\n第二行\r\n"
    english, _, _, _ = translate_text(text)
    assert "\r\n" in english and "\n" not in english.replace("\r\n", "")


def test_already_english_paragraph_is_copied_byte_for_byte():
    text = "中文。\n\nThis is English, keep  its   spacing_and *stars*.\n"
    engine = BracketEngine()
    english, _, _, _ = translate_text(text, engine=engine)
    assert "This is English, keep  its   spacing_and *stars*.\n" in english
    assert all("English" not in t for t in engine.texts)


def test_latin_runs_are_protected_and_never_sent():
    engine = BracketEngine()
    english, _, _, segments = translate_text(
        "MixQ同时量化权重和激活，使用低精度张量核心（INT8/INT4 Tensor Core）实现推理加速。\n", engine=engine)
    assert "MixQ" in english and "INT8/INT4 Tensor Core" in english
    assert not any("INT8" in t or "MixQ" in t for t in engine.texts)
    [seg] = segments
    assert [s.kind for s in seg.slots] == ["latin", "term", "latin"]


def test_parallel_file_reads_back_pair_by_pair():
    english, parallel, _, _ = translate_text((DATA / "blocks.md").read_text("utf-8"))
    blocks = read_parallel(parallel)
    pairs = [b for b in blocks if not b.same]
    assert pairs[0].source == "# 混合精度推理 #"
    assert pairs[0].english.startswith("# Mixed precision")
    assert not any(b.edited for b in blocks)
    code = [b for b in blocks if b.same and b.source.startswith("```python")]
    assert code and "中文字符串" in code[0].source
    # an edit is recognised
    edited = parallel.replace(pairs[0].english, "# My own title", 1)
    assert read_parallel(edited)[0].edited


def test_align_inline_offsets():
    raw = "文字 **粗** [链接](http://a.b/c_(d)) `x_y` \\* &amp;"
    nodes = align_inline(raw)
    kinds = [type(n).__name__ for n in nodes]
    assert kinds == ["Text", "Wrap", "Text", "Wrap", "Text", "Raw", "Text"]
    link = nodes[3]
    assert raw[link.open[0]:link.close[1]] == "[链接](http://a.b/c_(d))"
    assert raw[nodes[5].start:nodes[5].end] == "`x_y`"


def test_abbreviation_given_twice_is_said_once():
    from zhenglossary.glossary import load_glossary_text

    glossary = load_glossary_text(
        "terms:\n  - zh: 可并行张量集合\n    en: parallelizable tensor collection (PTC)\n"
        "  - zh: 数据传输节点\n    en: data transfer node (DTN)\n", "g.yaml")
    english, _, _, _ = translate_text(
        "Tenplex通过引入可并行张量集合（PTC）来实现这一点。\n\n数据传输节点 DTN 是关键设施。\n", glossary)
    assert english.count("(PTC)") == 1 and "parallelizable tensor collection (PTC)" in english
    assert "ata transfer node (DTN) ‹" in english      # not "(DTN) DTN"
