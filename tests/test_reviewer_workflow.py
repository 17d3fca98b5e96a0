"""The reviewer's workflow (issue 12): honest output without a model, clickable findings,
a CLI that explains itself."""

from __future__ import annotations

from conftest import translated_project

from zhenglossary.cli import app
from zhenglossary.render import GLOSS_BANNER

NOTE = "# 编译器优化\n\n我们使用混合精度，张量核心很快。\n"


def test_gloss_english_opens_with_a_visible_banner(runner, tmp_path, monkeypatch):
    root = translated_project(runner, tmp_path, monkeypatch, {"opt.md": NOTE})
    lines = (root / "notes" / "opt.en.md").read_text("utf-8").split("\n")
    assert lines[0].startswith("<!-- zhen:")                 # the hidden header stays first
    assert lines[1] == GLOSS_BANNER and lines[1].startswith("> **Dictionary gloss")
    assert "zhen model install" in lines[1] and lines[2] == ""
    assert lines[3].startswith("# ")                          # then the note
    # the banner is not in the parallel file, whose blocks stay the note's blocks
    assert "Dictionary gloss" not in (root / "notes" / "opt.zh-en.md").read_text("utf-8")
    result = runner.invoke(app, ["glossary", "check", "notes/"])
    assert result.exit_code == 0, result.output
