"""Human edits in x.zh-en.md survive `zhen translate`, flow into x.en.md, and are flagged
stale when their source changes (x.en.md then has machine English for the new source, the
edit kept beside it in the parallel file until a person adopts or drops it)."""

from __future__ import annotations

import json

import pytest

from conftest import make_project
from zhenglossary.cli import app
from zhenglossary.parallel import read_parallel

NOTE = """# 混合精度推理

第一段：我们使用混合精度训练模型。

- 第二段在列表里：数据并行。
  - 嵌套的第三段：张量核心。

第四段：吞吐提升了 2.7 倍。
"""


@pytest.fixture
def proj(tmp_path, monkeypatch):
    return make_project(tmp_path, monkeypatch,
                        {"a.md": NOTE, "b.md": "# 另一个文件\n\n第一段：我们使用混合精度训练模型。\n"})


def translate(runner):
    result = runner.invoke(app, ["translate", "notes/", "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def edit_block(path, contains: str, new_english: str) -> None:
    text = path.read_text("utf-8")
    [block] = [b for b in read_parallel(text) if not b.same and contains in b.source]
    path.write_text(text.replace(block.english, new_english, 1), "utf-8")


def test_an_edit_survives_and_changes_nothing_else(runner, proj):
    translate(runner)
    a_en, b_en = proj / "notes" / "a.en.md", proj / "notes" / "b.en.md"
    before_a, before_b = a_en.read_text("utf-8"), b_en.read_text("utf-8")
    edit_block(proj / "notes" / "a.zh-en.md", "嵌套的第三段", "- Nested third paragraph: a Tensor Core.")
    data = translate(runner)
    assert data["summary"]["kept_edits"] == 1 and data["summary"]["translated"] == 0
    after_a = a_en.read_text("utf-8")
    assert "  - Nested third paragraph: a Tensor Core.\n" in after_a        # re-indented
    changed = [(x, y) for x, y in zip(before_a.splitlines()[1:], after_a.splitlines()[1:])
               if x != y]
    assert len(changed) == 1                           # nothing else (line 1: zhen's header)
    assert b_en.read_text("utf-8") == before_b     # the same sentence in b.md is untouched
    [block] = [b for b in read_parallel((proj / "notes" / "a.zh-en.md").read_text("utf-8"))
               if "嵌套的第三段" in b.source]
    assert block.status == "edited" and not block.edited
    # kept on later runs; the parallel file is the truth: gone, the edit is gone with it
    assert translate(runner)["summary"]["kept_edits"] == 1
    (proj / "notes" / "a.zh-en.md").unlink()
    data = translate(runner)
    assert data["summary"]["kept_edits"] == 0
    assert "Nested third paragraph: a Tensor Core." not in a_en.read_text("utf-8")


def test_edit_goes_stale_when_its_source_changes(runner, proj):
    translate(runner)
    edit_block(proj / "notes" / "a.zh-en.md", "第四段", "Fourth: throughput went up 2.7×.")
    translate(runner)
    note = proj / "notes" / "a.md"
    note.write_text(note.read_text("utf-8").replace("提升了 2.7 倍", "提升了 3.1 倍"), "utf-8")
    data = translate(runner)
    assert data["summary"]["stale_edits"] == 1
    [finding] = [f for f in data["findings"] if f["check"] == "stale"]
    par = proj / "notes" / "a.zh-en.md"
    assert finding["file"] == "notes/a.zh-en.md" and finding["note_line"] == 8
    assert "copy what you keep into the English" in finding["message"]
    english = (proj / "notes" / "a.en.md").read_text("utf-8")
    assert "2.7×" not in english and "3.1" in english      # machine English of the new source
    assert "> Fourth: throughput went up 2.7×." in par.read_text("utf-8")   # the edit, kept
    # still stale next time; adopting it (editing the English) clears it
    data = translate(runner)
    assert data["summary"]["stale_edits"] == 1
    edit_block(par, "第四段", "Fourth: throughput went up 3.1×.")
    data = translate(runner)
    assert data["summary"]["stale_edits"] == 0 and data["summary"]["kept_edits"] == 1
    assert "3.1×." in (proj / "notes" / "a.en.md").read_text("utf-8")


def test_emptying_an_edit_brings_machine_english_back(runner, proj):
    translate(runner)
    machine = (proj / "notes" / "a.en.md").read_text("utf-8")
    edit_block(proj / "notes" / "a.zh-en.md", "第一段", "My own words on mixed precision training.")
    translate(runner)
    edit_block(proj / "notes" / "a.zh-en.md", "第一段", "")
    data = translate(runner)
    assert data["summary"]["kept_edits"] == 0
    assert (proj / "notes" / "a.en.md").read_text("utf-8") == machine


def test_an_edit_in_x_en_md_that_replaces_an_invalid_one_says_so(runner, proj):
    """A person's English failing the output check is kept in the parallel file while
    x.en.md has machine English; a later change of that block in x.en.md replaces it, and
    the finding says which block lost its invalid English."""
    translate(runner)
    par, en = proj / "notes" / "a.zh-en.md", proj / "notes" / "a.en.md"
    edit_block(par, "第四段", "Fourth: throughput went up $2.7$ times.")        # math added
    result = runner.invoke(app, ["translate", "notes/", "--format", "json"])
    assert result.exit_code == 1
    [block] = [b for b in read_parallel(par.read_text("utf-8")) if "第四段" in b.source]
    assert block.status == "invalid"
    machine = [line for line in en.read_text("utf-8").splitlines() if "2.7" in line]
    assert len(machine) == 1 and "$" not in machine[0]
    en.write_text(en.read_text("utf-8").replace(machine[0], "Fourth: throughput rose 2.7×."),
                  "utf-8")
    data = translate(runner)
    [carried] = [f for f in data["findings"] if f["check"] == "english-carried"]
    assert carried["replaced"] == [block.index]
    assert f"the change to block(s) {block.index} replaces the English written for it in " \
           "a.zh-en.md that failed the output check (not kept)" in carried["message"]
    [block] = [b for b in read_parallel(par.read_text("utf-8")) if "第四段" in b.source]
    assert block.status == "edited" and block.english == "Fourth: throughput rose 2.7×."
    # an ordinary change in x.en.md replaces nothing of the kind
    en.write_text(en.read_text("utf-8").replace("Fourth: throughput rose 2.7×.",
                                                "Fourth: throughput rose 2.7 times."), "utf-8")
    [carried] = [f for f in translate(runner)["findings"] if f["check"] == "english-carried"]
    assert carried["replaced"] == [] and "replaces" not in carried["message"]
