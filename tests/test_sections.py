"""A big note is translated a section of blocks at a time and must not change a byte.

A note over ``markdown.KEEP_CHARS`` is planned, translated, settled and checked a section
at a time (``sections.translate_sections``, ``sections.SECTION_CHARS``): here both are
lowered so that small, varied notes — footnotes defined after their use, inline
footnotes, reference links defined anywhere, math, tables, nested lists, quotes, code
fences — go through in sections of a few blocks, and each is compared with the same note
translated whole: both outputs byte for byte, the findings and the counts, with no last
parallel file and with one a person edited and reviewed before the note changed.
"""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from engines import BracketEngine, NoiseEngine
from test_big_note import notes as global_notes
from test_fuzz import GLOSSARY, block as fuzz_block, text_line
from zhenglossary import markdown, prose, sections, validate
from zhenglossary.parallel import read_parallel_file, set_status
from zhenglossary.translate import TranslateOptions, translate_note, translate_paths

more_blocks = st.one_of(
    st.tuples(text_line, text_line).map(lambda t: f"$$\n{t[0]}\n$$\n\n{t[1]}"),
    st.sampled_from([
        "\\begin{align}\na &= b \\\\\n\\text{中文} &= c\n\\end{align}",
        "$$ x^2 $$ (eq1)",
        "- 第一层\n  - 第二层[^1]\n    - 第三层 `代码`\n\n  第一层的第二段。",
        "1. 有序\n   > 引用里的段落\n2. 第二项\n\n   ```\n   代码\n   ```",
        "| 表头 | 第二列 |\n|:--|--:|\n| 混合精度[^note] | $x$ |\n| [链接][ref] | **粗体** |",
        "见[论文][ref]和[Ref]。\n\n[ref]: https://example.org/r",
        "[^note]: 后面定义的脚注，带 `code` 和 [链接](https://a.b/c)。",
        "```python\n# 中文注释\n[^1]: 不是定义\n```",
        "<!-- 注释\n\n中文 -->",
        "正文没有空行\n# 紧跟的标题\n中文段落\n```\n代码\n```",
        "> 引用[^1]\n> - 列表在引用里\n>   继续",
    ]),
)
notes = st.lists(st.one_of(global_notes.map(str.strip), fuzz_block, more_blocks),
                 min_size=1, max_size=14).map(lambda bs: "\n\n".join(bs) + "\n")


class BreakerEngine:
    """Machine English that breaks what the output check guards, now and then (seeded
    per text): block structure (a fence, a heading, a list, a table, an HTML block, a
    footnote definition, a blank line), math, code, Chinese left. The output check puts
    the source in place of such blocks, whole or in sections alike."""

    name = "breaker"
    reliable_placeholders = True
    BREAKS = ["\n\n```", "\n# heading", "\n- item", "\n| a | b |\n|--|--|", "<div>\n",
              "\n\n[^9]: defined", "\n\n", "$x$", "`code`", "留下", "\n    indented",
              "\n> quote", "[ref]: https://x.y", "\n$$\n"]

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def identity(self) -> str:
        return f"breaker:{self.seed}"

    def describe(self) -> str:
        return "breaker (test)"

    def translate(self, texts, *, num_hypotheses=1):
        from zhenglossary.engines.base import EngineOutput
        from zhenglossary.textutil import CJK_RUN_RE

        out = []
        for text in texts:
            rng = random.Random(f"{self.seed}:{text}")
            english = CJK_RUN_RE.sub("words", text)
            if rng.random() < 0.3:
                english = (english + rng.choice(self.BREAKS)) if rng.random() < 0.5 else \
                    (rng.choice(self.BREAKS).lstrip("\n") + " " + english)
            out.append(EngineOutput([english] * num_hypotheses))
        return out


# examples per property: few by default (the default suite stays under three minutes),
# more for a soak (ZHEN_SECTION_EXAMPLES=10 runs ten times as many)
SCALE = int(os.environ.get("ZHEN_SECTION_EXAMPLES", "1"))


def _whole_and_sectioned(text: str, engine_of, size: int, last=None):
    """Both outputs, the findings and the counts of ``text`` translated whole and in
    sections of about ``size`` characters."""
    def run():
        result = translate_note(text, GLOSSARY, engine_of(), name="big.md",
                                last=read_parallel_file(last) if last else None)
        return (result.english, result.parallel,
                [f.to_json() for f in result.findings], result.stats)

    whole = run()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(markdown, "KEEP_CHARS", 0)
        mp.setattr(prose, "KEEP_CHARS", 0)
        mp.setattr(sections, "SECTION_CHARS", size)
        mp.setattr(validate, "_READ_CHARS", size)      # the second reading's sections too
        markdown.parse_note.cache_clear()
        prose.prose_view.cache_clear()
        sectioned = run()
    markdown.parse_note.cache_clear()
    prose.prose_view.cache_clear()
    return whole, sectioned


@settings(max_examples=15 if SCALE == 1 else 30 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(notes, st.integers(1, 400), st.integers(0, 100))
@example("正文[^1]。\n\n- 列表\n  - 嵌套[ref]\n\n[^1]: 后定义。\n\n[ref]: https://a.b\n", 1, 0)
def test_a_note_translated_in_sections_is_byte_identical(text, size, seed):
    for engine_of in (BracketEngine, lambda: NoiseEngine(seed), lambda: BreakerEngine(seed)):
        whole, sectioned = _whole_and_sectioned(text, engine_of, size)
        assert sectioned == whole


def _edited(parallel: str, rng: random.Random) -> str:
    """``parallel`` with a few blocks' English edited (valid and not) and one reviewed."""
    blocks = [b for b in read_parallel_file(parallel).blocks if not b.same]
    if not blocks:
        return parallel
    lines = parallel.split("\n")
    for b in rng.sample(blocks, min(len(blocks), 3)):
        lines[b.en_line - 1] += rng.choice([" EDIT", " 中文留下", " `新代码`", " EDIT2"])
    text = "\n".join(lines)
    text, _ = set_status(text, {rng.choice(blocks).index}, "reviewed")
    return text


@settings(max_examples=25 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(notes, st.integers(1, 400), st.integers(0, 1000))
def test_edits_and_reviews_carry_over_alike_in_sections(text, size, seed):
    rng = random.Random(seed)
    first = translate_note(text, GLOSSARY, BracketEngine(), name="big.md")
    last = _edited(first.parallel, rng)
    blocks = text.split("\n\n")                  # the note changes: a block moved or changed
    if len(blocks) > 2:
        k = rng.randrange(len(blocks) - 1)
        blocks[k], blocks[k + 1] = blocks[k + 1], blocks[k]
    blocks[rng.randrange(len(blocks))] += "新句子。" if rng.random() < 0.5 else ""
    changed = "\n\n".join(blocks)
    whole, sectioned = _whole_and_sectioned(changed, BracketEngine, size, last=last)
    assert sectioned == whole


def test_a_run_with_a_big_note_among_small_ones_writes_the_same(tmp_path, monkeypatch):
    """Through ``zhen translate`` (the window of notes, the memory): a big note among small
    ones, translated in sections, writes what it writes translated whole."""
    text = "\n\n".join(["# 标题[^1]", "我们使用混合精度训练模型。", "| 列 | 列二 |\n|--|--|\n| 推理 | 模型 |",
                        "- 数据并行\n  - 张量核心", "$$\nx\n$$", "见[论文][ref]。"] * 12
                       + ["[^1]: 脚注在后。", "[ref]: https://example.org"]) + "\n"
    outputs = {}
    for mode in ("whole", "sections"):
        root = tmp_path / mode
        (root / "notes").mkdir(parents=True)
        (root / "glossary.yaml").write_text("terms:\n  - zh: 混合精度\n    en: mixed precision\n",
                                            "utf-8")
        (root / "notes" / "a.md").write_text("短的推理。\n", "utf-8")
        (root / "notes" / "big.md").write_text(text, "utf-8")
        (root / "notes" / "z.md").write_text("模型很大。\n", "utf-8")
        monkeypatch.setenv("ZHEN_HOME", str(root / "home"))
        if mode == "sections":
            monkeypatch.setattr(markdown, "KEEP_CHARS", 100)
            monkeypatch.setattr(prose, "KEEP_CHARS", 100)
            monkeypatch.setattr(sections, "SECTION_CHARS", 57)
            monkeypatch.setattr(validate, "_READ_CHARS", 57)
        markdown.parse_note.cache_clear()
        report = translate_paths([root / "notes"], root / "glossary.yaml", TranslateOptions(),
                                 engine=BracketEngine())
        summary = report.to_json()
        for f in summary["files"]:
            f["english"] = f["parallel"] = f["source"] = None
        outputs[mode] = ({p.name: p.read_text("utf-8") for p in (root / "notes").glob("*.*.md")},
                         [{**f, "file": f["file"].rsplit("/", 1)[-1]} for f in summary["findings"]],
                         summary["summary"])
    markdown.parse_note.cache_clear()
    assert outputs["sections"] == outputs["whole"]
    assert len(outputs["whole"][0]) == 6


@settings(max_examples=60 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(notes, notes.map(lambda t: t.replace("\n", "\r\n")),
                 st.lists(st.sampled_from(["我们用混合精度。", "见 https://a.b/c_(d) 和 x@y.org。",
                                           "第二行\n接着", "www.example.com/路径 结尾"]),
                          min_size=1, max_size=6).map("\n\n".join)))
@example("第一段 https://a.b/c。\n\n第二段 mail@x.org。\n")
def test_a_big_notes_leaf_prose_is_its_slice_of_the_whole_view(text):
    """A note over ``KEEP_CHARS`` builds each leaf's prose alone (the carry-over's
    context hashes), never the whole note's view: the same characters as its slice."""
    from zhenglossary.document import parse_document

    whole = parse_document(text)
    expected = [prose.prose_of(whole)[slice(*whole.span(leaf.start_line, leaf.end_line))]
                for leaf in whole.leaves]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(prose, "KEEP_CHARS", 0)
        doc = parse_document(text)
        assert [prose.leaf_prose(doc, leaf) for leaf in doc.leaves] == expected
        assert doc.prose is None


@settings(max_examples=80 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(notes, notes.map(lambda t: t.replace("\n", "\r\n")),
                 notes.map(lambda t: t.replace("\n", "\r"))),
       st.sampled_from(["", "---\ntitle: 标题\n---\n", "---\na: b\n---", "+++\nx = 1\n+++\n"]),
       st.sampled_from(["", "banner", "lead"]))
@example("\n正文。\n".replace("\n", "\r"), "", "")
def test_the_body_the_check_reads_is_the_written_englishs(text, front, extra):
    """``render.render_body`` (joined from its parts) is ``english_body`` of the English
    rendered whole, with or without the banner, after front matter (ending in a line end
    or not), with any line ending, and for a note that itself opens with the banner."""
    from zhenglossary.document import parse_document
    from zhenglossary.parallel import GLOSS_BANNER, english_body
    from zhenglossary.render import front_matter_end, leaf_texts, render_body, render_english
    from zhenglossary.locking import plan_document

    if extra == "lead":
        text = GLOSS_BANNER + "\n\n" + text
    doc = parse_document(front + text)
    leaves = leaf_texts(doc, plan_document(doc, GLOSSARY, "x.md"))
    header = "<!-- zhen: English of x.md, engine: test. -->"
    for banner in ("", GLOSS_BANNER):
        assert render_body(doc, leaves, header, banner) == english_body(
            render_english(doc, leaves, header, banner), front_matter_end(doc))


@settings(max_examples=40 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(notes, notes.map(lambda t: t.replace("\n", "\r\n"))),
       st.sampled_from(["", "---\ntitle: 标题\n---\n", "---\na: b\n---"]))
def test_a_big_notes_outputs_in_pieces_are_its_joined_outputs(tmp_path_factory, text, front):
    """A big note's leaves slice their source from the note (not copied), and its outputs
    are kept unjoined (``textutil.Pieces``) and written and hashed a piece at a time: the
    same leaves, the same text, the same bytes on disk and the same hash as joined."""
    from zhenglossary.document import parse_document
    from zhenglossary.fileio import write_atomic
    from zhenglossary.locking import plan_document
    from zhenglossary.manifest import text_hash
    from zhenglossary.parallel import GLOSS_BANNER, render_parallel
    from zhenglossary.render import leaf_texts, render_english
    from zhenglossary.textutil import Pieces

    doc = parse_document(front + text)
    plans = plan_document(doc, GLOSSARY, "x.md")
    leaves = leaf_texts(doc, plans)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(render_module(), "KEEP_CHARS", 0)
        sliced = leaf_texts(doc, plans)
    assert [(x.source, x.english) for x in sliced] == [(x.source, x.english) for x in leaves]
    assert not any(isinstance(x.held, str) for x in sliced)
    header = "<!-- zhen: English of x.md, engine: test. -->"
    folder = tmp_path_factory.mktemp("pieces")
    for banner in ("", GLOSS_BANNER):
        for seal in (False, True):
            joined = render_english(doc, leaves, header, banner, seal=seal)
            pieces = render_english(doc, sliced, header, banner, seal=seal, unjoined=True)
            assert str(pieces) == joined and len(pieces) == len(joined)
    joined = render_parallel(leaves, "x.md", "test")
    pieces = render_parallel(sliced, "x.md", "test", unjoined=True)
    assert isinstance(pieces, Pieces) and str(pieces) == joined and len(pieces) == len(joined)
    assert text_hash(pieces) == text_hash(joined)
    write_atomic(folder / "a.md", joined)
    write_atomic(folder / "b.md", pieces)
    assert (folder / "a.md").read_bytes() == (folder / "b.md").read_bytes()


def render_module():
    from zhenglossary import render

    return render
