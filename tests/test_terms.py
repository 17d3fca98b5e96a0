"""Terms that inflect, forbid lists that are scoped and exact, one notion of a term
occurrence (terms.py, glossary.find_prose) — each repro of issue 20 with its exact output,
in text written here."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from zhenglossary import terms
from zhenglossary.engines.gloss import GlossEngine
from zhenglossary.glossary import Term, load_glossary_text
from zhenglossary.render import english_body
from zhenglossary.translate import TranslateOptions, translate_paths
from zhenglossary.validate import check_block

GLOSSARY = """\
source: zh
target: en
terms:
  - zh: 时间步
    en: time step
  - zh: 微批次
    en: micro-batch
  - zh: 循环神经网络
    en: recurrent neural network
  - zh: 梯度
    en: gradient
  - zh: 反向传播
    en: backpropagation
    forbid: [opposite direction disseminate]
  - zh: 量化
    en: quantization
    forbid: [quantification]
  - zh: 矩阵
    en: matrix
    plural: matrices
  - zh: 日志
    en: log
    plural: false
  - zh: 数据传输节点
    en: data transfer node (DTN)
  - zh: 张量算子
    en: tensor operator
  - zh: 混合精度
    en: mixed precision
  - zh: 拥塞窗口
    en: congestion window
"""


def translate(tmp_path: Path, text: str, glossary: str = GLOSSARY):
    (tmp_path / "glossary.yaml").write_text(glossary, "utf-8")
    note = tmp_path / "t.md"
    note.write_text(text, "utf-8")
    loaded = load_glossary_text(glossary)
    report = translate_paths([note], tmp_path / "glossary.yaml", TranslateOptions(use_memory=False),
                             engine=GlossEngine(loaded.form_map))
    body = english_body((tmp_path / "t.en.md").read_text("utf-8"))
    return report, body.split("\n\n", 1)[-1].strip() if body.startswith("> ") else body.strip()


def errors(report) -> list[str]:
    return [f.check for f in report.findings if f.severity == "error"]


# ---------------------------------------------------------------- the repros, exactly


def test_a_count_before_a_term_gives_its_plural_and_passes(tmp_path):
    report, english = translate(tmp_path, "每条样本包含5个时间步。\n")
    assert errors(report) == [] and report.stats["invalid_blocks"] == 0
    assert english == "Every sample contain 5 time steps."


def test_plurals_come_from_english_morphology_and_never_after_an_ordinal(tmp_path):
    report, english = translate(tmp_path, "第2个微批次先到达，两个循环神经网络共享3个微批次。\n")
    assert errors(report) == []
    assert english == ("Second micro-batch early reach, two recurrent neural networks share "
                       "3 micro-batches.")


def test_a_forbid_never_matches_across_a_placeholder(tmp_path):
    report, english = translate(tmp_path, "误差沿网络做反向梯度传播。\n")
    assert errors(report) == [] and report.stats["lock_failures"] == 0
    assert english == "Error along network make opposite direction gradient disseminate."


def test_an_entrys_own_plural_or_none(tmp_path):
    report, english = translate(tmp_path, "这里有3个矩阵和两个日志。\n")
    assert errors(report) == []
    assert english == "Here have 3 matrices and two log."


def test_a_parenthetical_already_said_is_not_said_again(tmp_path):
    report, english = translate(tmp_path, "多个数据传输节点（DTNs）互相备份。\n\n"
                                          "张量算子（Tensor Operator）是基本单元。\n")
    assert errors(report) == []
    assert english == ("Multiple data transfer nodes (DTNs) each other backup.\n\n"
                       "Tensor operator is basic unit.")


def test_a_parenthetical_saying_the_term_then_its_abbreviation_says_only_the_abbreviation(tmp_path):
    """基频（fundamental frequency, F0）: the English and then the abbreviation; the term is
    said once and the abbreviation kept, "tensor operator (TO)", never "tensor operator
    (tensor operator, TO)"."""
    report, english = translate(tmp_path, "张量算子（tensor operator, TO）是基本单元。\n\n"
                                          "每个张量算子（Tensor Operator，TO）都要测。\n")
    assert errors(report) == []
    assert english.count("(TO)") == 2 and english.lower().count("tensor operator") == 2, english


def test_an_emphasised_term_keeps_its_case_mid_sentence(tmp_path):
    report, english = translate(tmp_path, "本文研究了*混合精度*训练。\n\n*混合精度*训练很快。\n")
    assert errors(report) == []
    assert english == ("This paper research *mixed precision* training.\n\n"
                       "*Mixed precision* training very rapid.")


# ---------------------------------------------------------------- what renders a term


def test_forms_and_the_pattern():
    term = Term("循环神经网络", "recurrent neural network")
    assert terms.forms(term) == ("recurrent neural network", "recurrent neural networks")
    text = ("Two recurrent neural networks; the recurrent-neural-network's state; "
            "recurrent neural networking; a recurrent neural net.")
    assert terms.count(term, text) == 2
    assert terms.plural(Term("矩阵", "matrix")) == "matrices"
    assert terms.plural(Term("数据传输节点", "data transfer node (DTN)")) == \
        "data transfer nodes (DTNs)"
    assert terms.plural(Term("专家混合", "mixture of experts")) == "mixtures of experts"
    assert terms.plural(Term("图形处理器", "GPU")) == "GPUs"
    assert terms.plural(Term("硬件", "hardware")) == "hardware"          # a mass noun
    assert terms.plural(Term("日志", "log", plurals=())) == "log"        # plural: false


def test_the_validator_counts_plural_forms_and_still_finds_a_missing_term():
    glossary = load_glossary_text(GLOSSARY)
    source = "两个循环神经网络和三个循环神经网络，以及一个循环神经网络。"
    english = ("Two recurrent neural networks and three recurrent neural networks, and a "
               "recurrent neural network.")
    assert check_block(source, english, glossary, what=frozenset({"terms"})) == []
    assert check_block(source, english.replace("three recurrent neural networks", "three RNNs"),
                       glossary, what=frozenset({"terms"})) == [
        "term 循环神经网络 → 'recurrent neural network' appears 2 of 3 times"]


def test_the_glossary_schema_for_plural():
    glossary = load_glossary_text(
        "source: zh\ntarget: en\nforbid: [number crunching]\nterms:\n"
        "  - zh: 矩阵\n    en: matrix\n    plural: matrices\n"
        "  - zh: 日志\n    en: log\n    plural: false\n"
        "  - zh: 硬件\n    en: hardware\n"
        "  - zh: 批次\n    en: batch\n    plural: true\n")
    plurals = {t.zh: t.plurals for t in glossary.terms}
    assert plurals == {"矩阵": ("matrices",), "日志": (), "硬件": (), "批次": ("batches",)}
    assert glossary.forbid == ("number crunching",)
    [bad] = [f for f in glossary.findings if f.severity == "error"]
    assert bad.check == "glossary-schema" and "plural: true" in bad.message and bad.line == 15


# ---------------------------------------------------------------- forbid: scoped and exact


def test_forbid_conflict_never_runs_across_two_entries_in_any_order():
    entries = ["  - zh: 卷积\n    en: convolution\n", "  - zh: 神经网络\n    en: neural network\n",
               "  - zh: 卷积神经网络\n    en: convolutional neural network\n"
               "    forbid: [convolution neural network]\n"]
    for order in itertools.permutations(entries):
        glossary = load_glossary_text("source: zh\ntarget: en\nterms:\n" + "".join(order))
        assert [f.check for f in glossary.findings if f.check == "forbid-conflict"] == []
    real = load_glossary_text("source: zh\ntarget: en\nterms:\n" + entries[2]
                              + "  - zh: 错误\n    en: convolution neural network model\n")
    assert [f.check for f in real.findings if f.check == "forbid-conflict"] == ["forbid-conflict"]


def test_a_forbid_applies_only_where_its_term_is():
    glossary = load_glossary_text(GLOSSARY)
    english = "Uncertainty quantification is hard."
    assert check_block("不确定性估计很难。", english, glossary, what=frozenset({"terms"})) == []
    assert check_block("不确定性量化很难。", english, glossary, what=frozenset({"terms"})) == [
        "term 量化 → 'quantization' appears 0 of 1 times",
        "forbidden rendering 'quantification' of 量化 (write 'quantization')"]
    # sentence by sentence when the sentences align
    source = "我们做量化。不确定性估计很难。"
    assert check_block(source, "We do quantization. Uncertainty quantification is hard.",
                       glossary, what=frozenset({"terms"})) == []


def test_a_corpus_wide_forbid_applies_everywhere():
    glossary = load_glossary_text(GLOSSARY.replace("terms:\n", "forbid: [number crunching]\nterms:\n"))
    assert check_block("这是计算。", "This is number crunching.", glossary,
                       what=frozenset({"terms"})) == [
        "forbidden rendering 'number crunching' (banned in every note)"]


def test_check_reports_a_forbid_in_its_terms_block_only(runner, tmp_path, monkeypatch):
    import json

    from conftest import make_project, write
    from zhenglossary.cli import app
    from zhenglossary.parallel import read_parallel

    root = make_project(tmp_path, monkeypatch, {"q.md": "我们研究量化。\n\n不确定性估计很难。\n"})
    write(root / "glossary.yaml", GLOSSARY)
    assert runner.invoke(app, ["translate", "notes/"]).exit_code == 0
    parallel = root / "notes" / "q.zh-en.md"
    text = parallel.read_text("utf-8")
    for block in read_parallel(text):
        if not block.same:
            text = text.replace(block.english, block.english + " Quantification.", 1)
    parallel.write_text(text, "utf-8")
    data = json.loads(runner.invoke(app, ["glossary", "check", "--format", "json"]).stdout)
    forbidden = [f for f in data["findings"] if f["check"] == "term-forbidden"]
    assert [(f["note_line"], f["forbidden"]) for f in forbidden] == [(1, "quantification")]


# ---------------------------------------------------------------- one notion of an occurrence


def test_a_hard_wrapped_term_is_one_occurrence_everywhere(runner, tmp_path, monkeypatch):
    import json

    from conftest import make_project, write
    from zhenglossary.cli import app

    text = "> 发送方的拥塞\n> 窗口会缩小，接收方的拥塞窗口不变。\n"
    root = make_project(tmp_path, monkeypatch, {"w.md": text})
    write(root / "glossary.yaml", GLOSSARY)
    assert runner.invoke(app, ["translate", "notes/"]).exit_code == 0
    data = json.loads(runner.invoke(app, ["glossary", "check", "--format", "json", "--usage"]).stdout)
    assert data["usage"]["拥塞窗口"] == {"notes/w.md": 2}
    assert not [f for f in data["findings"] if f["check"] == "term-unused" and "拥塞窗口" in f["message"]]
    glossary = load_glossary_text(GLOSSARY)
    from zhenglossary.prose import prose_view
    found = glossary.find_prose(prose_view(text))
    assert [(text[m.start:m.end], m.term.en) for m in found] == [
        ("拥塞\n> 窗口", "congestion window"), ("拥塞窗口", "congestion window")]
    # two spaces before the break make it a hard break: no longer one term
    assert glossary.find_prose(prose_view("拥塞  \n窗口\n")) == []


# ---------------------------------------------------------------- a property


COUNTS = ["5个", "两个", "这些", "多个", "各种", "第3个", "一个", "许多", ""]
FILLER = ["数据", "很快", "，", "共享", "在", "中"]
TERM_FORMS = ["时间步", "微批次", "循环神经网络", "矩阵", "日志", "梯度"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(COUNTS), st.sampled_from(TERM_FORMS),
                          st.sampled_from(FILLER)), min_size=1, max_size=5))
def test_every_counted_term_passes_the_output_check(parts):
    from zhenglossary.document import parse_document
    from zhenglossary.locking import assemble, plan_document
    from zhenglossary.memory import NoMemory
    from zhenglossary.runner import Runner, lock_segments

    glossary = load_glossary_text(GLOSSARY)
    source = "".join(c + t + f for c, t, f in parts) + "。"
    plans = plan_document(parse_document(source), glossary, "p.md")
    segments = [s for p in plans for top in p.segments for s in top.walk()]
    findings = lock_segments(segments, glossary, Runner(GlossEngine(glossary.form_map), NoMemory(),
                                                         64, None), 1)
    assert [f for f in findings if f.severity == "error"] == []
    english = assemble(plans[0].segments, plans[0].separators)
    assert check_block(source, english, glossary, what=frozenset({"terms"})) == [], english
    assert "batchs" not in english.lower()              # never a blind "s"


def test_the_review_page_highlights_every_form_the_check_accepts():
    from zhenglossary.glossary import Match
    from zhenglossary.review import english_term_spans

    term = Term("循环神经网络", "recurrent neural network")
    locked = [Match(0, 6, "循环神经网络", term), Match(9, 15, "循环神经网络", term)]
    english = "Two recurrent neural networks and the recurrent-neural-network's state."
    assert [english[s:e] for s, e, _ in english_term_spans(english, locked)] == [
        "recurrent neural networks", "recurrent-neural-network's"]
