"""The independent validator catches each kind of damage: a corrupting renderer and a
corrupting engine are injected, and every damaged block is written as its source, named
at file:line, and the run exits 1. `protected-changed` uses the same validator and never
fires on zhen's own choices."""

from __future__ import annotations

import json

import pytest

import zhenglossary.pipeline as translate_module
from conftest import make_project
from engines import BracketEngine
from zhenglossary.cli import app
from zhenglossary.engines.base import EngineOutput
from zhenglossary.glossary import load_glossary_text
from zhenglossary.translate import TranslateOptions, translate_paths
from zhenglossary.validate import check_block, facts

GLOSSARY_YAML = """terms:
  - zh: 混合精度
    en: mixed precision
    forbid: [hybrid precision]
  - zh: 注意力
    en: attention
"""

NOTE = """# 数值笔记

第一段：混合精度训练把$x_{t'}$存为 `fp16`，见[文档](https://example.org/amp)。

第二段：注意力的细节见:numref:`sec_attn`和脚注[^a]，还有<https://example.org/auto>。

第三段：图像![示意](img/a.png)和<span>标记</span>。

[^a]: 脚注内容。
"""

# (what the corrupting renderer does to the English of the block holding `marker`,
#  a phrase the finding must contain)
CORRUPTIONS = [
    ("第一段", lambda en: en.replace("$x_{t'}$", "$x \\_{t'}$"), "math"),
    ("第一段", lambda en: en.replace("`fp16`", "`fp 16`"), "inline code"),
    ("第一段", lambda en: en.replace("https://example.org/amp", "https://example.org/AMP"), "link"),
    ("第一段", lambda en: en.replace("mixed precision", "blended accuracy"), "mixed precision"),
    ("第一段", lambda en: en.replace("mixed precision", "hybrid precision"), "forbidden"),
    ("第一段", lambda en: "# " + en, "structure"),
    ("第二段", lambda en: en.replace(":numref:`sec_attn`", ": numref: `sec_attn`"), "role"),
    ("第二段", lambda en: en.replace("[^a]", "[^b]"), "footnote"),
    ("第二段", lambda en: en.replace("<https://example.org/auto>", "https://example.org/auto"),
     "autolink"),
    ("第三段", lambda en: en.replace("img/a.png", "img/b.png"), "image"),
    ("第三段", lambda en: en.replace("<span>", "<span class=x>"), "html"),
    ("第三段", lambda en: en + " 中文", "Chinese left"),
]


def run(tmp_path, engine=None):
    (tmp_path / "glossary.yaml").write_text(GLOSSARY_YAML, "utf-8")
    (tmp_path / "n.md").write_text(NOTE, "utf-8")
    return translate_paths([tmp_path / "n.md"], tmp_path / "glossary.yaml",
                           TranslateOptions(use_memory=False), engine=engine or BracketEngine())


@pytest.mark.parametrize("marker, corrupt, phrase", CORRUPTIONS,
                         ids=[c[2] for c in CORRUPTIONS])
def test_a_corrupting_renderer_is_caught(tmp_path, monkeypatch, marker, corrupt, phrase):
    real = translate_module.leaf_texts

    def corrupting(doc, plans, overrides=None):
        leaves = real(doc, plans, overrides)
        for leaf in leaves:
            if marker in leaf.source:
                leaf.english = corrupt(leaf.english)
        return leaves

    monkeypatch.setattr(translate_module, "leaf_texts", corrupting)
    report = run(tmp_path)
    assert report.exit_code == 1
    [bad] = [f for f in report.findings if f.check == "output-invalid"]
    line = NOTE.split("\n").index(next(l for l in NOTE.split("\n") if marker in l)) + 1
    assert (bad.file, bad.line) == (str(tmp_path / "n.md"), line)
    assert phrase in bad.message
    assert report.stats["invalid_blocks"] == 1
    english = (tmp_path / "n.en.md").read_text("utf-8")
    source_line = NOTE.split("\n")[line - 1]
    assert source_line in english                      # the block is its source, not broken
    assert english.count("第") == 1                     # only that block is untranslated


def test_a_renderer_breaking_the_whole_note_gives_the_source(tmp_path, monkeypatch):
    real = translate_module.render_english
    monkeypatch.setattr(translate_module, "render_english",
                        lambda doc, leaves, header, banner="": real(doc, leaves, header, banner)
                        + "\n```\n")
    report = run(tmp_path)
    assert report.exit_code == 1
    assert any(f.check == "output-invalid" and "source" in f.message for f in report.findings)
    english = (tmp_path / "n.en.md").read_text("utf-8")
    assert english.split("\n", 1)[1] == NOTE


class ChineseLeavingEngine(BracketEngine):
    """Leaves one Chinese character in, and says so only when ``honest``."""

    def __init__(self, honest: bool) -> None:
        super().__init__()
        self.honest = honest

    def translate(self, texts, *, num_hypotheses=1):
        out = []
        for result, text in zip(super().translate(texts, num_hypotheses=num_hypotheses), texts):
            hyps = [h + " 段" for h in result.hypotheses]
            out.append(EngineOutput(hyps, ["段"] if self.honest else []))
        return out


def test_a_corrupting_engine_is_caught(tmp_path):
    report = run(tmp_path, ChineseLeavingEngine(honest=False))
    assert report.exit_code == 1
    bad = [f for f in report.findings if f.check == "output-invalid"]
    assert bad and all("Chinese left" in f.message for f in bad)
    assert report.stats["invalid_blocks"] == len(bad) == report.stats["validated_blocks"]


def test_characters_the_engine_reported_are_allowed(tmp_path):
    report = run(tmp_path, ChineseLeavingEngine(honest=True))
    assert not [f for f in report.findings if f.check == "output-invalid"]
    assert report.stats["invalid_blocks"] == 0


class CopyingEngine(BracketEngine):
    """A model that copies a character of its source into its English (段, in the first
    hypothesis) and writes one the source never had into the others (鲸)."""

    def translate(self, texts, *, num_hypotheses=1):
        out = []
        for result in super().translate(texts, num_hypotheses=num_hypotheses):
            hyps = [h + (" 段" if k == 0 else " 鲸") for k, h in enumerate(result.hypotheses)]
            out.append(EngineOutput(hyps, sorted({"段", "鲸"} if len(hyps) > 1 else {"段"})))
        return out


def test_chinese_a_model_copies_is_one_warning_in_translate_and_check(tmp_path, runner,
                                                                     monkeypatch):
    """What the engine copied into the English is said to be in it (not "left out"), what
    only a hypothesis not taken held is not reported at all, and `glossary check` says the
    same as `zhen translate`: one `unrendered` warning per block, no `untranslated` error,
    exit 0 both."""
    from zhenglossary.cli import app

    report = run(tmp_path, CopyingEngine())
    assert report.exit_code == 0
    said = [f for f in report.findings if f.check == "unrendered"]
    assert said and all("copied '段' into the English" in f.message and "鲸" not in f.message
                        and "left out" not in f.message for f in said)
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["glossary", "check", "n.md", "--format", "json"])
    found = json.loads(result.stdout)["findings"]
    assert result.exit_code == 0, result.stdout
    assert not [f for f in found if f["check"] == "untranslated"]
    checked = [f for f in found if f["check"] == "unrendered"]
    assert len(checked) == len(said)
    assert all("copied '段' into the English" in f["message"] for f in checked)


def test_the_summary_counts_validated_blocks(tmp_path):
    report = run(tmp_path)
    assert report.exit_code == 0
    assert report.stats["validated_blocks"] == 5 and report.stats["invalid_blocks"] == 0


def test_check_block_sees_no_change_in_zhens_own_choices():
    glossary = load_glossary_text("""terms:
  - zh: 分类头
    en: classification head
  - zh: 数据传输节点
    en: data transfer node (DTN)
""")
    # the repeated parenthetical said once; a term capitalised at the start of a sentence
    assert check_block("分类头（classification head）很小。", "The classification head is small.",
                       glossary) == []
    assert check_block("数据传输节点 DTN 在这里。", "Data transfer node (DTN) is here.",
                       glossary) == []
    assert check_block("数据传输节点 DTN 在这里。", "A node is here.", glossary) == [
        "term 数据传输节点 → 'data transfer node (DTN)' appears 0 of 1 times"]


def test_protected_changed_fires_on_real_changes_only(runner, tmp_path, monkeypatch):
    root = make_project(tmp_path, monkeypatch, {
        "a.md": "# 笔记\n\n我们使用混合精度训练，设置 `amp=True` 和$\\alpha$。\n"})
    assert runner.invoke(app, ["translate", "notes/"]).exit_code == 0
    result = runner.invoke(app, ["glossary", "check", "--format", "json"])
    data = json.loads(result.stdout)
    assert not [f for f in data["findings"] if f["check"] == "protected-changed"]
    par = root / "notes" / "a.zh-en.md"
    head, _, tail = par.read_text("utf-8").rpartition("$\\alpha$")      # the English one
    par.write_text(head + "$\\beta$" + tail, "utf-8")
    data = json.loads(runner.invoke(app, ["glossary", "check", "--format", "json"]).stdout)
    [changed] = [f for f in data["findings"] if f["check"] == "protected-changed"]
    assert "math '\\alpha' lost" in changed["message"]


def test_facts_of_math_touching_chinese():
    found = facts("上下文变量$\\mathbf{c}_{t'}$的形状，和$x$。").protected
    assert found == {("math", "\\mathbf{c}_{t'}"): 1, ("math", "x"): 1}


_FORBID_TERMS = [("调度器", "scheduler", ["dispatcher"]), ("吞吐量", "throughput", ["output rate"]),
                 ("节点", "node", ["vertex", "knot"]), ("缓存", "cache", []),
                 ("副本", "replica", ["copy"]), ("延迟", "latency", ["delay"])]
_FORBID_WORDS = ["the", "dispatcher", "output rate", "vertex", "knot", "copy", "delay",
                 "scheduler", "throughput", "node", "replica", "latency", "cache", "is", "."]


def _forbid_glossary(extra: list[str]):
    lines = ["terms:"] + [f"  - zh: {zh}\n    en: {en}" + (f"\n    forbid: {forbid}" if forbid else "")
                          for zh, en, forbid in _FORBID_TERMS]
    if extra:
        lines.insert(0, f"forbid: {extra}")
    return load_glossary_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("seed", range(40))
def test_the_forbid_prefilter_changes_no_finding(seed):
    """The term check looks for forbids only when one of the source's terms' forbids (or a
    corpus-wide one) is in the English: the same findings as reading every aligned
    sentence (the reference below, without the shortcut), on random blocks."""
    import random

    from zhenglossary import terms as terms_module
    from zhenglossary.sentences import align
    from zhenglossary.validate import _term_problems

    rng = random.Random(seed)
    glossary = _forbid_glossary(rng.choice([[], ["copy"], ["knot", "delay"]]))
    sentences = rng.randint(1, 3)
    zh = "".join("".join(rng.choice([t[0] for t in _FORBID_TERMS] + ["很快", "和", "的"])
                         for _ in range(rng.randint(1, 4))) + "。" for _ in range(sentences))
    en = " ".join(" ".join(rng.choice(_FORBID_WORDS) for _ in range(rng.randint(1, 6))) + "."
                  for _ in range(sentences))
    got = _term_problems(zh, en, glossary)
    expected = [p for p in got if p.startswith("term ")]            # counting is unchanged
    aligned = align(zh.replace("\n", ""), en.replace("\n", " "))
    scopes = aligned if aligned is not None and len(aligned) > 1 else [(zh, en)]
    for z, e in scopes:
        for term, phrase in glossary.forbids(m.term for m in glossary.find(z)):
            pattern = terms_module.forbid_pattern(phrase)
            if pattern.search(e) and not pattern.search(zh):
                what = f"of {term.zh} (write {term.en!r})" if term else "(banned in every note)"
                expected.append(f"forbidden rendering {phrase!r} {what}")
    assert got == list(dict.fromkeys(expected))


@pytest.mark.parametrize("source, english, problems", [
    ("- [x] 复现基线实验\n", "- [x] Reproduce the baseline experiment", []),
    ("- [ ] 补充消融实验\n", "- [ ] Add the ablation study", []),
    ("1. [X] 检查随机种子\n", "1. [X] Check the random seeds", []),
    ("- [x] 复现基线实验\n", "- [ ] Reproduce the baseline experiment",
     ["task box '[x]' lost", "task box '[ ]' added"]),
    ("- [ ] 补充消融实验\n", "- [x] Add the ablation study",
     ["task box '[ ]' lost", "task box '[x]' added"]),
    ("- [ ] 补充消融实验\n", "- Add the ablation study", ["task box '[ ]' lost"]),
    # brackets later in the text are prose, not a box
    ("- 数组下标 [x] 越界\n", "- The index [ x ] is out of bounds", []),
])
def test_a_task_box_is_kept_as_written(source, english, problems):
    """Ticking or unticking a task in the English is a change the note did not make: the
    output check reports it (a person's edit that does it is invalid), as it does for any
    other kept span."""
    assert [p for p in check_block(source, english) if "task box" in p] == problems


def test_a_message_holding_brackets_is_printed_as_written(runner, tmp_path, monkeypatch):
    """The findings table shows ``[x]`` and ``[ ]`` (rich would read ``[x]`` as markup and
    drop it)."""
    root = make_project(tmp_path, monkeypatch, {"todo.md": "# 待办\n\n- [x] 复现基线实验\n"})
    assert runner.invoke(app, ["translate", "notes/"]).exit_code == 0
    en = root / "notes" / "todo.en.md"
    en.write_text(en.read_text("utf-8").replace("- [x] ", "- [ ] ", 1), "utf-8")
    result = runner.invoke(app, ["translate", "notes/"])
    assert result.exit_code == 1
    assert "task box '[x]' lost" in " ".join(result.stdout.split())
