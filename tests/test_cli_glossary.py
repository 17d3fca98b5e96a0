"""`zhen glossary check|suggest` through typer's CliRunner: exact exit codes and messages."""

from __future__ import annotations

import json
import re

import pytest

from conftest import MINI_GLOSSARY, write
from zhenglossary import __version__
from zhenglossary.cli import app


def invoke(runner, *args):
    return runner.invoke(app, list(args), catch_exceptions=False)


def test_version_and_help(runner):
    result = invoke(runner, "--version")
    assert result.exit_code == 0 and result.stdout.strip() == f"zhen {__version__}"
    result = invoke(runner, "--help")
    assert result.exit_code == 0
    assert re.search(r"glossary\s+Check the glossary", result.stdout)
    result = invoke(runner, "glossary", "--help")
    assert "check" in result.stdout and "suggest" in result.stdout


def test_shipped_notes_and_glossary_check_clean(runner, project):
    result = invoke(runner, "glossary", "check", "--format", "json")
    assert result.exit_code == 0, result.stdout
    data = json.loads(result.stdout)
    assert data["summary"]["error"] == 0
    # the one warning is real: the note glosses 节点 as vertices where the glossary (and
    # 59 other uses) say node; the notes are the user's words, so it stays for a person
    warnings = [f for f in data["findings"] if f["severity"] == "warning"]
    assert [(f["check"], f["zh"], f["note_en"]) for f in warnings] == \
        [("parenthetical-disagrees", "节点", "vertices")]
    # at most 5 findings at info or above, all real (issue 22)
    assert data["summary"]["error"] + data["summary"]["warning"] + data["summary"]["info"] <= 5
    assert data["summary"]["notes"] == 2
    assert data["summary"]["terms"] >= 150
    assert not [f for f in data["findings"] if f["check"] == "term-unused"]
    result = invoke(runner, "glossary", "check", "--strict")
    assert result.exit_code == 1
    assert "0 error(s), 1 warning(s)" in result.stdout


def test_duplicate_chinese_term_exits_1_naming_both_lines(runner, project):
    text = (project / "glossary.yaml").read_text("utf-8")
    (project / "glossary.yaml").write_text(text + "  - zh: 混合精度\n    en: mixed precision\n", "utf-8")
    last = text.count("\n") + 1
    first = next(i for i, line in enumerate(text.splitlines(), 1) if line.strip() == "- zh: 混合精度")
    result = invoke(runner, "glossary", "check")
    assert result.exit_code == 1
    assert f"Chinese form 混合精度 is listed twice: line {first} and line {last}" in result.stdout
    assert f"glossary.yaml:{last}:9" in result.stdout


def test_yaml_indentation_error_names_line_and_column(runner, project):
    lines = (project / "glossary.yaml").read_text("utf-8").splitlines(keepends=True)
    at = next(i for i, line in enumerate(lines) if line.startswith("    en: ") and i > 10)
    lines[at] = "   " + lines[at].lstrip()             # one space short
    (project / "glossary.yaml").write_text("".join(lines), "utf-8")
    result = invoke(runner, "glossary", "check", "--format", "json")
    assert result.exit_code == 1
    [finding] = [f for f in json.loads(result.stdout)["findings"] if f["check"] == "yaml-syntax"]
    assert finding["line"] == at + 1 and finding["column"] == 4
    assert finding["file"].endswith("glossary.yaml")


def test_json_shape(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "glossary.yaml", MINI_GLOSSARY)
    write(tmp_path / "notes" / "a.md", "混合精度\n")
    write(tmp_path / "notes" / "a.en.md", "hybrid precision\n")
    result = invoke(runner, "glossary", "check", "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    [f] = [f for f in data["findings"] if f["check"] == "term-forbidden"]
    assert set(f) >= {"check", "severity", "file", "line", "column", "message"}
    assert (f["severity"], f["line"], f["column"]) == ("error", 1, 1)
    # a.en.md has no zhen header: translate would refuse to write over it
    [conflict] = [f for f in data["findings"] if f["check"] == "english-conflict"]
    assert "not written by zhen" in conflict["message"] and conflict["file"] == "notes/a.en.md"
    assert data["summary"]["error"] == 2 and data["summary"]["exit_code"] == 1
    assert data["usage"]["混合精度"] == {"notes/a.md": 1}


def test_warning_exits_0_but_1_with_strict(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "glossary.yaml", MINI_GLOSSARY)
    write(tmp_path / "notes" / "a.md", "数据并行（data parallelism）很常见。\n\n数据并行（parallel data）也是。\n")
    assert invoke(runner, "glossary", "check").exit_code == 0
    result = invoke(runner, "glossary", "check", "--strict")
    assert result.exit_code == 1
    # 数据并行 is in the glossary: the parenthetical that differs from it is the finding
    # (one per cause; inconsistent-rendering is for terms the glossary lacks)
    assert "parenthetical-disagrees" in result.stdout and "inconsistent-rendering" not in result.stdout


def test_missing_path_exits_2(runner, project):
    result = invoke(runner, "glossary", "check", "nope/")
    assert result.exit_code == 2
    assert result.stderr.strip() == \
        "error: nope does not exist; pass a note (.md) or a directory of notes"


def test_directory_without_notes_exits_2(runner, project):
    (project / "empty").mkdir()
    result = invoke(runner, "glossary", "check", "empty")
    assert result.exit_code == 2
    assert "empty holds no Markdown notes" in result.stderr


def test_no_glossary_found_exits_2(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "notes" / "a.md", "混合精度\n")
    result = invoke(runner, "glossary", "check")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: No glossary.yaml found in")
    assert "--glossary FILE" in result.stderr


def test_explicit_missing_glossary_exits_2(runner, project):
    result = invoke(runner, "glossary", "check", "--glossary", "other.yaml")
    assert result.exit_code == 2
    assert "Glossary other.yaml does not exist" in result.stderr


def test_gbk_note_is_named_with_the_fix(runner, project):
    (project / "notes" / "old.md").write_bytes("混合精度计算很重要\n".encode("gbk"))
    result = invoke(runner, "glossary", "check", "--format", "json")
    assert result.exit_code == 1
    [f] = [f for f in json.loads(result.stdout)["findings"] if f["check"] == "note-unreadable"]
    assert f["file"] == "notes/old.md"
    assert "line 1 is not valid UTF-8" in f["message"]
    assert "iconv -f GB18030 -t UTF-8 notes/old.md" in f["message"]


@pytest.mark.parametrize("glossary, message", [
    ("", "the glossary file is empty"),
    ("- zh: 混合精度\n  en: mixed precision\n", "the glossary is a list"),
    ("a: &a [x, x]\nb: [*a, *a]\n", "anchors and aliases"),
])
def test_bad_glossaries_are_one_clear_finding(runner, project, glossary, message):
    (project / "glossary.yaml").write_text(glossary, "utf-8")
    result = invoke(runner, "glossary", "check")
    assert result.exit_code == 1
    assert message in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_list_checks(runner):
    result = invoke(runner, "glossary", "check", "--list-checks", "--format", "json")
    assert result.exit_code == 0
    ids = {c["id"] for c in json.loads(result.stdout)}
    assert {"duplicate-form", "term-forbidden", "parenthetical-disagrees"} <= ids


def test_usage_table(runner, project):
    result = invoke(runner, "glossary", "check", "--usage")
    assert result.exit_code == 0
    assert re.search(r"混合精度\s+mixed precision\s+\d+\s+\d+\s+\d+", result.stdout)


# ------------------------------------------------------------------- suggest

EXPECTED = {
    "自适应网格细化": ("adaptive mesh refinement", "AMR"),
    "图神经网络": ("graph neural network", "GNN"),
    "数据传输节点": ("", "DTN"),
    "显式拥塞通知": ("", "ECN"),
    "兴趣区域": ("", "ROI"),
    "早期退出模型": ("early-exit network", "EE-DNN"),
}


def _without(glossary_text: str, zh_forms) -> str:
    """Drop the entries whose zh is in zh_forms (an entry runs until the next '  - ')."""
    out, skip = [], False
    for line in glossary_text.splitlines(keepends=True):
        if line.startswith("  - "):
            skip = any(line.strip() == f"- zh: {zh}" for zh in zh_forms)
        elif not line.startswith("    "):
            skip = False
        if not skip:
            out.append(line)
    return "".join(out)


def test_suggest_finds_the_notes_pairs_with_exact_boundaries(runner, project):
    path = project / "glossary.yaml"
    path.write_text(_without(path.read_text("utf-8"), EXPECTED), "utf-8")
    result = invoke(runner, "glossary", "suggest", "notes/", "--format", "json")
    assert result.exit_code == 0
    found = {s["zh"]: s for s in json.loads(result.stdout)["suggestions"]}
    for zh, (english, abbr) in EXPECTED.items():
        assert zh in found, zh
        en = found[zh]["en"]
        assert en == (f"{english} ({abbr})" if english else abbr), (zh, en)
        assert found[zh]["source"] == "parenthetical"
        assert found[zh]["places"][0].startswith("notes/")
    for wrong in ("传统图神经网络", "使用图神经网络", "如自适应网格细化", "即早期退出模型"):
        assert wrong not in found


def test_suggest_yaml_pastes_into_the_glossary(runner, project):
    import yaml

    path = project / "glossary.yaml"
    path.write_text(_without(path.read_text("utf-8"), EXPECTED), "utf-8")
    result = invoke(runner, "glossary", "suggest", "--limit", "6")
    assert result.exit_code == 0
    pasted = path.read_text("utf-8").rstrip("\n") + "\n" + result.stdout
    terms = yaml.safe_load(pasted)["terms"]
    added = {t["zh"]: t["en"] for t in terms[-6:]}
    assert added["图神经网络"] == "graph neural network (GNN)"
    assert all(t["zh"] not in ("", None) for t in terms)


def test_suggest_skips_what_the_glossary_has(runner, project):
    result = invoke(runner, "glossary", "suggest", "--format", "json")
    assert result.exit_code == 0
    found = {s["zh"] for s in json.loads(result.stdout)["suggestions"]}
    assert not found & set(EXPECTED)


def test_cross_note_conflict_is_a_warning_that_strict_fails_on(runner, tmp_path, monkeypatch):
    write(tmp_path / "glossary.yaml", MINI_GLOSSARY)
    write(tmp_path / "notes" / "train.md", "# 训练\n\n每隔一小时写出一个检查点（checkpoint）。\n")
    write(tmp_path / "notes" / "serve.md", "# 服务\n\n\n部署前先保存检查点（snapshot）。\n")
    monkeypatch.chdir(tmp_path)
    result = invoke(runner, "glossary", "check", "--format", "json")
    assert result.exit_code == 0
    [finding] = [f for f in json.loads(result.stdout)["findings"]
                 if f["check"] == "inconsistent-rendering"]
    assert "检查点 is rendered 2 ways across 2 notes" in finding["message"]
    assert "train.md:3" in finding["message"] and "serve.md:4" in finding["message"]
    assert invoke(runner, "glossary", "check", "--strict").exit_code == 1


def test_suggest_json_marks_dictionary_guesses(runner, tmp_path, monkeypatch):
    write(tmp_path / "glossary.yaml", MINI_GLOSSARY)
    # the guess is the sense the notes' own English agrees with (issue 22): of 矩阵's
    # senses (array, matrix) the one these notes write
    body = ("稀疏矩阵可以压缩存储。每个分片都有稀疏矩阵。\n\n稀疏矩阵的非零元很少。\n\n"
            "A sparse matrix per shard keeps memory small.\n")
    write(tmp_path / "notes" / "a.md", "# 存储\n\n" + body)
    write(tmp_path / "notes" / "b.md", "# 索引\n\n" + body)
    monkeypatch.chdir(tmp_path)
    result = invoke(runner, "glossary", "suggest", "--format", "json")
    assert result.exit_code == 0
    found = {s["zh"]: s for s in json.loads(result.stdout)["suggestions"]}
    bloom = found["稀疏矩阵"]
    assert bloom["source"] == "recurring" and bloom["en"] == "" and bloom["en_guess"] == "sparse matrix"


def test_curators_workflow_suggest_out_then_import(runner, tmp_path, monkeypatch):
    """suggest --out writes candidates with their evidence; the curator fills in English
    and deletes what they reject; import appends the rest below a comment, every byte of
    glossary.yaml above it kept, and names the entries still waiting for English."""
    monkeypatch.chdir(tmp_path)
    original = MINI_GLOSSARY.replace("terms:\n", "terms:\n  # my own comment, kept\n")
    write(tmp_path / "glossary.yaml", original)
    write(tmp_path / "notes" / "a.md", "# 调度\n\n组调度（gang scheduling）让进程同时运行，"
          "工作窃取（work stealing）让空闲线程拿任务。\n\n回填队列很长。回填队列在内存里。"
          "回填队列有上限。回填队列会变短。\n")
    result = invoke(runner, "glossary", "suggest", "--out", "cand.yaml")
    assert result.exit_code == 0 and not result.stdout
    assert "wrote 3 candidate(s) to cand.yaml (1 without English yet)" in result.stderr
    text = (tmp_path / "cand.yaml").read_text("utf-8")
    assert "# in 1 parenthetical(s)" in text and "notes/a.md:3" in text
    # the curator rejects 工作窃取 and leaves 回填队列 for later
    kept = "\n".join(line for line in text.splitlines()
                     if "工作窃取" not in line and "work stealing" not in line)
    (tmp_path / "cand.yaml").write_text(kept + "\n", "utf-8")
    result = invoke(runner, "glossary", "import", "cand.yaml")
    assert result.exit_code == 0, result.stdout
    assert "added 1" in result.stdout and "+ 组调度 → gang scheduling" in result.stdout
    assert "回填队列 has no English yet" in result.stderr
    after = (tmp_path / "glossary.yaml").read_text("utf-8")
    assert after.startswith(original)
    assert after[len(original):] == ("  # --- imported from cand.yaml by `zhen glossary import` ---\n"
                                     "  - zh: 组调度\n    en: gang scheduling\n")
    # importing again adds nothing and still exits 0
    result = invoke(runner, "glossary", "import", "cand.yaml")
    assert result.exit_code == 0 and "added 0" in result.stdout


def test_yaml_import_refuses_what_is_not_a_glossary(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "glossary.yaml", MINI_GLOSSARY)
    write(tmp_path / "x.yaml", "just: text\n")
    result = invoke(runner, "glossary", "import", "x.yaml")
    assert result.exit_code == 2
    assert "holds no `terms:` list" in result.stderr
    write(tmp_path / "y.yaml", "terms:\n  - zh: 组调度\n    en: gang scheduling\n    colour: red\n")
    result = invoke(runner, "glossary", "import", "y.yaml")
    assert result.exit_code == 2 and "unknown key 'colour'" in result.stderr and "y.yaml:4" in result.stderr


def test_interactive_review_one_key_each(runner, tmp_path, monkeypatch):
    """suggest --interactive: each candidate with its evidence; a accepts, e edits the
    English, s skips, q stops; the accepted ones are appended below a comment."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "glossary.yaml", MINI_GLOSSARY)
    write(tmp_path / "notes" / "a.md", "# 调度\n\n组调度（gang scheduling）让进程同时运行，"
          "工作窃取（work stealing）让空闲线程拿任务，回填（backfilling）填满空档。\n")
    found = [s["zh"] for s in json.loads(invoke(runner, "glossary", "suggest", "--format",
                                                "json").stdout)["suggestions"]]
    assert found[:3] == sorted(found[:3], key=found.index) and len(found) == 3
    # first accepted as it is, second edited, third skipped ("x" is no key: ignored)
    result = runner.invoke(app, ["glossary", "suggest", "--interactive"],
                           input="xa" + "e" + "task stealing\n" + "s")
    assert result.exit_code == 0, result.output
    assert "1/3" in result.stdout and "1 parenthetical(s): notes/a.md:3" in result.stdout
    assert "[a]ccept  [e]dit  [s]kip  [q]uit: skip" in result.stdout
    text = (tmp_path / "glossary.yaml").read_text("utf-8")
    assert text.startswith(MINI_GLOSSARY)
    added = text[len(MINI_GLOSSARY):]
    assert added.startswith("  # --- accepted in `zhen glossary suggest --interactive` ---\n")
    assert f"  - zh: {found[0]}\n" in added and "    en: task stealing\n" in added
    assert found[2] not in added
    # q stops at once; nothing accepted leaves the file as it is
    before = (tmp_path / "glossary.yaml").read_text("utf-8")
    result = runner.invoke(app, ["glossary", "suggest", "--interactive"], input="q")
    assert result.exit_code == 0 and "nothing accepted" in result.stderr
    assert (tmp_path / "glossary.yaml").read_text("utf-8") == before
