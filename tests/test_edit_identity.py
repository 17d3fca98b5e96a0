"""Hand edits are data: an edit stays with its own block, an edit breaking a promise is an
error at x.zh-en.md:line (kept, never dropped), edits never leak between projects, and
`glossary check` reads x.en.md (a forbid there is an error; a hand-changed x.en.md is a
warning). Also: check, review and export find what `translate --out-dir` wrote."""

from __future__ import annotations

import json

from conftest import make_project
from zhenglossary.cli import app
from zhenglossary.parallel import read_parallel

# an English-only heading, then the Chinese block a person edits (the shape of the bug:
# the edit moved to the heading's block and replaced the heading)
NOTE = """# 编译器笔记

### LoopNest: Polyhedral Tiling for Sparse Kernels

第一段：我们用混合精度训练模型。

第二段：数据并行。
"""


def run(runner, *args):
    result = runner.invoke(app, [*args, "--format", "json"])
    return result.exit_code, json.loads(result.stdout)


def edit(path, contains, new):
    text = path.read_text("utf-8")
    [block] = [b for b in read_parallel(text) if not b.same and contains in b.source]
    path.write_text(text.replace(block.english, new, 1), "utf-8")


def test_an_edit_stays_with_its_block_when_that_block_changes(runner, tmp_path, monkeypatch):
    root = make_project(tmp_path, monkeypatch, {"c.md": NOTE})
    assert run(runner, "translate", "notes/")[0] == 0
    par, en = root / "notes" / "c.zh-en.md", root / "notes" / "c.en.md"
    edit(par, "第一段", "First: mixed precision training of the model (by hand).")
    assert run(runner, "translate", "notes/")[0] == 0
    note = root / "notes" / "c.md"
    note.write_text(note.read_text("utf-8").replace("训练模型", "训练这个模型"), "utf-8")
    code, data = run(runner, "translate", "notes/")
    assert code == 0 and data["summary"]["stale_edits"] == 1
    english = en.read_text("utf-8")
    assert "### LoopNest: Polyhedral Tiling for Sparse Kernels\n" in english
    assert "(by hand)" not in english          # machine English of the new source meanwhile
    [stale] = [b for b in read_parallel(par.read_text("utf-8")) if b.status == "stale"]
    assert "第一段" in stale.source and "(by hand)" in stale.was.english
    assert "训练模型" in stale.was.source and "训练这个模型" in stale.source


def test_a_forbidden_edit_is_kept_and_an_error_at_the_parallel_file(runner, tmp_path, monkeypatch):
    root = make_project(tmp_path, monkeypatch, {"c.md": NOTE})
    run(runner, "translate", "notes/")
    par = root / "notes" / "c.zh-en.md"
    edit(par, "第一段", "First: hybrid precision training of the model.")
    code, data = run(runner, "translate", "notes/")
    assert code == 1
    [bad] = [f for f in data["findings"] if f["check"] == "edit-invalid"]
    assert bad["file"] == "notes/c.zh-en.md"
    assert par.read_text("utf-8").split("\n")[bad["line"] - 1] == \
        "First: hybrid precision training of the model."
    assert "hybrid precision" in bad["message"] and "mixed precision" in bad["message"]
    english = (root / "notes" / "c.en.md").read_text("utf-8")
    assert "hybrid precision" not in english and "mixed precision" in english   # machine's
    assert "First: hybrid precision training of the model." in par.read_text("utf-8")  # kept
    assert data["summary"]["invalid_edits"] == 1
    text = runner.invoke(app, ["translate", "notes/"])
    assert text.exit_code == 1 and "1 hand edit(s) failing it (kept)" in text.stdout
    code, data = run(runner, "glossary", "check")
    assert code == 1
    [forbidden] = [f for f in data["findings"] if f["check"] == "term-forbidden"]
    assert forbidden["file"] == "notes/c.zh-en.md" and forbidden["line"] == bad["line"]


def test_edits_do_not_leak_between_projects(runner, tmp_path, monkeypatch):
    home = tmp_path / "shared-home"
    a = make_project(tmp_path / "a", monkeypatch, {"c.md": NOTE})
    monkeypatch.setenv("ZHEN_HOME", str(home))
    run(runner, "translate", "notes/")
    edit(a / "notes" / "c.zh-en.md", "第一段", "Project A's own mixed precision training words.")
    assert run(runner, "translate", "notes/")[1]["summary"]["kept_edits"] == 1
    b = make_project(tmp_path / "b", monkeypatch, {"c.md": NOTE})
    monkeypatch.setenv("ZHEN_HOME", str(home))
    code, data = run(runner, "translate", "notes/")
    assert code == 0 and data["summary"]["kept_edits"] == 0
    assert "Project A" not in (b / "notes" / "c.en.md").read_text("utf-8")


def test_check_reads_the_english_file(runner, tmp_path, monkeypatch):
    root = make_project(tmp_path, monkeypatch, {"c.md": NOTE})
    run(runner, "translate", "notes/")
    assert run(runner, "glossary", "check")[0] == 0
    en = root / "notes" / "c.en.md"
    text = en.read_text("utf-8")
    en.write_text(text.replace("mixed precision", "hybrid precision", 1), "utf-8")
    code, data = run(runner, "glossary", "check")
    assert code == 1
    [hand] = [f for f in data["findings"] if f["check"] == "english-edited"]
    assert hand["file"] == "notes/c.en.md" and "c.zh-en.md" in hand["message"]
    [forbidden] = [f for f in data["findings"] if f["check"] == "term-forbidden"]
    assert forbidden["file"] == "notes/c.en.md"
    assert en.read_text("utf-8").split("\n")[forbidden["line"] - 1].count("hybrid precision")


def test_check_review_and_export_find_out_dir_outputs(runner, tmp_path, monkeypatch):
    root = make_project(tmp_path, monkeypatch, {"sub/c.md": NOTE})
    assert run(runner, "translate", "notes/", "--out-dir", "out")[0] == 0
    assert (root / "out" / "notes" / "sub" / "c.zh-en.md").is_file()
    # a forbid counts where its term is: 混合精度 is in 第一段
    edit(root / "out" / "notes" / "sub" / "c.zh-en.md", "第一段",
         "First: we train models in hybrid precision.")
    code, data = run(runner, "glossary", "check", "--out-dir", "out")
    assert code == 1 and any(f["check"] == "term-forbidden" for f in data["findings"])
    code, _ = run(runner, "glossary", "check")          # without it: not translated yet
    result = runner.invoke(app, ["review", "--out-dir", "out", "--out", "r.html"])
    assert result.exit_code == 0, result.output
    assert "hybrid precision" in (root / "r.html").read_text("utf-8")
    result = runner.invoke(app, ["export", "notes/", "--out-dir", "out", "--format", "tmx",
                                 "--out", "m.tmx"])
    assert result.exit_code == 0, result.output
    assert "hybrid precision" in (root / "m.tmx").read_text("utf-8")


def test_the_text_summary_counts_validated_blocks(runner, tmp_path, monkeypatch):
    make_project(tmp_path, monkeypatch, {"c.md": NOTE})
    result = runner.invoke(app, ["translate", "notes/"])
    assert result.exit_code == 0
    assert "3 blocks validated, 0 failed" in result.stdout     # the English heading is not
