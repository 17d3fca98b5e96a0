"""The glossary lint (checks/lint.py): each defect class of issue 22's audit, found on any
glossary and named at both lines; measured on the planted-defect projects of
tests/gold/lint/ (scripts/eval_checks.py)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from conftest import write
from zhenglossary.api import check_project
from zhenglossary.cli import app

ROOT = Path(__file__).resolve().parent.parent
HEAD = "source: zh\ntarget: en\nterms:\n"


def run(tmp_path, glossary: str, notes: dict[str, str] | None = None):
    write(tmp_path / "glossary.yaml", HEAD + glossary)
    for name, text in (notes or {"a.md": "# 空\n\n没有术语。\n"}).items():
        write(tmp_path / "notes" / name, text)
    return check_project([tmp_path / "notes"], tmp_path / "glossary.yaml")


def of(report, check_id):
    return [f for f in report.findings if f.check == check_id]


def test_abbreviation_in_en_that_the_notes_also_give(tmp_path):
    report = run(tmp_path, "  - zh: 工作组\n    en: workgroup (WG)\n"
                           "  - zh: 可并行张量集合\n    en: parallelizable tensor collection (PTC)\n",
                 {"a.md": "# 内核\n\n每个工作组（WGs）处理一张表。可并行张量集合（PTC）是抽象。\n"})
    [f] = of(report, "abbreviation-in-en")
    assert f.severity == "warning" and f.line == 5                    # the en's line
    assert "notes/a.md:3" in f.message and "（WGs）" in f.message      # and the note's
    assert "write `en: workgroup`" in f.message
    # （PTC） is said once: the lock drops a byte-identical parenthetical


def test_locked_term_repeating_the_latin_beside_it(tmp_path):
    report = run(tmp_path, "  - zh: 显存\n    en: GPU memory\n  - zh: 核心\n    en: core\n",
                 {"a.md": "# 内存\n\n参数超出GPU显存时，CPU核心会空转。\n"})
    [f] = of(report, "term-repeats-latin")
    assert f.line == 4 and "GPU显存" in f.message and "'GPU GPU memory'" in f.message
    assert "notes/a.md:3" in f.message and "(line 5)" in f.message


def test_forbid_that_is_right_english_elsewhere(tmp_path):
    report = run(tmp_path, (
        "  - zh: 量化\n    en: quantization\n    forbid: [quantification]\n"   # its own sense
        "  - zh: 算子\n    en: operator\n    forbid: [operand]\n"              # technical term
        "  - zh: 检查点\n    en: checkpoint\n    forbid: [snapshot]\n"         # the notes say it
        "  - zh: 混合精度\n    en: mixed precision\n    forbid: [hybrid precision]\n"  # fine
        "  - zh: 幻方\n    en: High-Flyer\n    forbid: [magic square]\n"),         # fine
        {"a.md": "# 笔记\n\n量化和算子。检查点之外，文件系统的 snapshot 也能备份。混合精度。幻方。\n"})
    found = {f.extra["zh"]: f for f in of(report, "forbid-too-broad")}
    assert set(found) == {"量化", "算子", "检查点"}
    assert "(line 6;" in found["量化"].message and "line 5" in found["量化"].message
    assert "sense of 量化 itself" in found["量化"].message
    assert "technical term of its own" in found["算子"].message
    assert "the notes write 'snapshot' in a sentence that holds 检查点 (" in found["检查点"].message
    assert "notes/a.md:3)" \
        in found["检查点"].message


def test_forbid_held_by_another_entrys_en_inflected_is_a_conflict(tmp_path):
    report = run(tmp_path, "  - zh: 缓存\n    en: cache\n    forbid: [buffers]\n"
                           "  - zh: 缓冲区\n    en: buffer\n")
    [f] = of(report, "forbid-conflict")
    assert f.extra["lines"] == [6, 8] and "inflected form" in f.message
    assert not of(report, "forbid-too-broad")                  # one finding per cause


def test_note_prescribing_a_form_the_check_rejects(tmp_path):
    report = run(tmp_path, (
        "  - zh: 量化\n    en: quantization\n    note: \"Verb use: 'quantize'.\"\n"
        "  - zh: 混合精度\n    en: mixed precision\n    note: \"Hyphenate when attributive: mixed-precision X.\"\n"
        "  - zh: 并行\n    en: parallel\n    note: \"write 'in parallel' when adverbial\"\n"
        "  - zh: 推理\n    en: inference\n    note: \"never 'reasoning' here\"\n"
        "  - zh: 热激活\n    en: hot activation\n    note: \"PowerInfer: the small set of neurons activated across most inputs.\"\n"))
    found = {f.extra["zh"]: f for f in of(report, "note-form-rejected")}
    # mixed-precision X renders mixed precision (terms.py: a hyphen may stand between the
    # words of `en`), so that advice is one the check accepts
    assert set(found) == {"量化"}
    assert found["量化"].line == 6 and "(line 6)" in found["量化"].message
    assert "(line 5)" in found["量化"].message                       # the en's line


def test_two_entries_naming_one_concept_are_info(tmp_path):
    report = run(tmp_path, (
        "  - zh: 前馈网络\n    en: feed-forward network\n"
        "  - zh: 前馈神经网络\n    en: feed-forward neural network\n"
        "  - zh: 大模型\n    en: large model\n"
        "  - zh: 大型语言模型\n    en: large language model\n"))
    [f] = of(report, "same-concept")
    assert f.severity == "info" and f.extra["lines"] == [4, 6] and "'neural'" in f.message


def test_overlapping_forms_reported_only_where_the_lock_changes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "glossary.yaml", HEAD + (
        "  - zh: 数据并行\n    en: data parallelism\n  - zh: 并行策略\n    en: parallelization strategy\n"
        "  - zh: 输入序列\n    en: input sequence\n  - zh: 序列长度\n    en: sequence length\n"
        "  - zh: 并行\n    en: parallel\n"))
    report = check_project([], tmp_path / "glossary.yaml")          # the glossary alone
    found = [f.extra["forms"] for f in of(report, "overlapping-terms")]
    # 并行 inside 数据并行 is structure; 输入序列 + 序列长度 read on as input sequence length
    assert found == [["数据并行", "并行策略"]]


def test_audited_glossary_defect_classes_on_planted_projects():
    spec = importlib.util.spec_from_file_location("eval_checks", ROOT / "scripts" / "eval_checks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for rule, r in module.evaluate().items():
        assert r["planted"] >= 2, rule
        assert r["precision"] >= 0.9 and r["recall"] >= 0.9, (rule, r)


def test_cli_lint_findings_are_warnings_exit_0_strict_1(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "glossary.yaml", HEAD + "  - zh: 显存\n    en: GPU memory\n")
    write(tmp_path / "notes" / "a.md", "# 内存\n\n超出GPU显存时。\n")
    result = runner.invoke(app, ["glossary", "check", "--format", "json"])
    assert result.exit_code == 0
    assert [f["check"] for f in json.loads(result.stdout)["findings"]] == ["term-repeats-latin"]
    result = runner.invoke(app, ["glossary", "check", "--strict"])
    assert result.exit_code == 1 and "term-repeats-latin" in result.stdout


@pytest.mark.slow
def test_every_check_on_notes_in_other_fields_is_actionable():
    """scripts/eval_checks.py --notes: the gold passages as 12 notes, translated with the
    gloss engine; every finding is one of the labelled actionable ones, and each is found."""
    spec = importlib.util.spec_from_file_location("eval_checks", ROOT / "scripts" / "eval_checks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    result = module.evaluate_notes()
    assert result["false_alarms"] == [] and result["missed"] == [], result


# ------------------------------------------------ forbid-too-broad's indexes (5,000 terms)

from hypothesis import given, settings, strategies as st  # noqa: E402

# English with the case-insensitive corners: ı (dotless i) matches i under re.IGNORECASE but
# does not casefold to it, U+212A (KELVIN SIGN) matches k; É is non-ASCII; space, hyphen
_EN_CHARS = "abik K\u212aA-\u0131\u00c9\u00e9"
_EN = st.text(_EN_CHARS, min_size=1, max_size=14)


@settings(max_examples=300, deadline=None)
@given(ens=st.lists(_EN, min_size=1, max_size=12), phrase=_EN)
def test_renderings_index_finds_the_entries_a_search_of_each_finds(ens, phrase):
    from bisect import bisect_right
    from itertools import accumulate

    from zhenglossary.checks.lint import _Renderings
    from zhenglossary.glossary import Term
    from zhenglossary.textutil import whole_phrase_re

    if not phrase.split():
        return
    terms = [Term(f"术语{k}", en) for k, en in enumerate(ens)]
    pattern = whole_phrase_re(phrase)
    naive = {k for k, t in enumerate(terms) if pattern.search(t.en)}
    assert _Renderings(terms).holding(phrase, pattern) == naive
    # and what the one search of all entries joined found before the index
    joined = "\0".join(t.en for t in terms)
    starts = list(accumulate((len(t.en) + 1 for t in terms[:-1]), initial=0))
    assert {bisect_right(starts, m.start()) - 1 for m in pattern.finditer(joined)} == naive


_WORDS = ("cache", "caches", "caching", "cached", "index", "indices", "run", "ran", "running",
          "network", "networks", "GPU", "GPUs", "data", "early-exit")


@settings(max_examples=150, deadline=None)
@given(ens=st.lists(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=3), min_size=1,
                    max_size=15),
       phrases=st.lists(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=2), min_size=1,
                        max_size=4))
def test_lemma_index_of_the_forbids_keys_gives_the_full_indexes_candidates(ens, phrases):
    from zhenglossary.checks.lint import _candidates, _lemma_index, _lemma_keys
    from zhenglossary.glossary import Term

    terms = [Term(f"术语{k}", " ".join(ws)) for k, ws in enumerate(ens)]
    phrases = [" ".join(ws) for ws in phrases]
    full = _lemma_index(terms)
    wanted = _lemma_index(terms, {key for p in phrases for key in _lemma_keys(p)})
    for phrase in phrases:
        assert _candidates(wanted, phrase) == _candidates(full, phrase)
