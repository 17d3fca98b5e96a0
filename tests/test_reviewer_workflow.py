"""The reviewer's workflow (issue 12): honest output without a model, clickable findings,
a CLI that explains itself."""

from __future__ import annotations

import re
from pathlib import Path

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


# --------------------------------------------------------------------------- findings formats

def plant_forbidden(root):
    parallel = root / "notes" / "opt.zh-en.md"
    text = parallel.read_text("utf-8")
    assert "mixed precision" in text
    parallel.write_text(text.replace("mixed precision", "hybrid precision", 1), "utf-8")
    lines = parallel.read_text("utf-8").split("\n")
    return next(i for i, line in enumerate(lines, 1) if "hybrid precision" in line)


def test_concise_format_points_at_the_parallel_file(runner, tmp_path, monkeypatch):
    root = translated_project(runner, tmp_path, monkeypatch, {"opt.md": NOTE})
    line = plant_forbidden(root)
    result = runner.invoke(app, ["glossary", "check", "--format", "concise"])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    [forbidden] = [x for x in lines if " term-forbidden " in x]
    column = (root / "notes" / "opt.zh-en.md").read_text("utf-8").split("\n")[line - 1].index(
        "hybrid precision") + 1
    assert forbidden.startswith(f"notes/opt.zh-en.md:{line}:{column}: error term-forbidden ")
    assert forbidden.endswith("(source notes/opt.md:3)")
    # stdout holds only finding lines; the summary goes to stderr
    assert all(re.match(r"^[^:]+:\d+:\d+: (error|warning|info) [a-z-]+ ", x) for x in lines)
    assert "error(s)" in result.stderr


def test_github_format_is_workflow_commands(runner, tmp_path, monkeypatch):
    root = translated_project(runner, tmp_path, monkeypatch, {"opt.md": NOTE})
    line = plant_forbidden(root)
    result = runner.invoke(app, ["glossary", "check", "--format", "github"])
    assert result.exit_code == 1
    [forbidden] = [x for x in result.stdout.splitlines() if "title=term-forbidden" in x]
    assert re.match(rf"^::error file=notes/opt\.zh-en\.md,line={line},col=\d+,title=term-forbidden::"
                    r"'hybrid precision' is forbidden", forbidden)


def test_github_escapes_and_levels():
    from zhenglossary.cli.console import github_line
    from zhenglossary.findings import Finding

    f = Finding("same-en", "info", "50% done\nnext, line", "a,b:c.yaml", 3, None)
    assert github_line(f) == "::notice file=a%2Cb%3Ac.yaml,line=3,title=same-en::50%25 done%0Anext, line"


def test_the_table_never_cuts_a_message():
    from io import StringIO

    from rich.console import Console

    from zhenglossary.cli.console import findings_table
    from zhenglossary.findings import Finding

    words = ("the English of this block renders the term with an unusual word that a reviewer "
             "must see whole: supercalifragilisticexpialidocious-precision-arithmetic-units")
    f = Finding("term-forbidden", "error", words, "notes/some/deep/folder/paper.zh-en.md", 120,
                14, {"note": "notes/some/deep/folder/paper.md", "note_line": 44})
    buffer = StringIO()
    Console(file=buffer, width=100, color_system=None).print(findings_table([f]))
    shown = buffer.getvalue()
    assert "…" not in shown
    assert all(len(line) <= 100 for line in shown.splitlines())
    flat = "".join(shown.split())
    for word in words.split():
        assert word in flat or word.replace("-", "") in flat
    assert "notes/some/deep/folder/paper.md:44" in flat


# --------------------------------------------------------------------------- help

def test_help_has_plain_metavars_examples_and_whole_descriptions(runner):
    from zhenglossary.cli.helptext import HELP

    top = runner.invoke(app, ["--help"], env={"COLUMNS": "100"})
    commands = top.stdout.split("Commands:")[1]
    assert top.exit_code == 0 and "..." not in commands and "…" not in commands
    for name in ("init", "translate", "export", "review", "glossary", "model"):
        assert " ".join(HELP[name][0].split()) in " ".join(top.stdout.split())
    for command in (["translate"], ["export"], ["review"], ["init"], ["glossary", "check"],
                    ["glossary", "suggest"], ["glossary", "export"], ["glossary", "import"],
                    ["model", "list"], ["model", "install"]):
        result = runner.invoke(app, [*command, "--help"], env={"COLUMNS": "100"})
        assert result.exit_code == 0, result.output
        text = result.stdout
        assert "<list" not in text and "{" not in text and "<path>" not in text, text
        assert "Examples:" in text and f"zhen {' '.join(command)}" in text.split("Examples:")[1]
    usage = runner.invoke(app, ["translate", "--help"]).stdout
    assert "translate [OPTIONS] PATH...\n" in usage
    assert "--glossary FILE" in usage and "--out-dir DIR" in usage and "--engine ENGINE" in usage


# --------------------------------------------------------------------------- init, no glossary

def test_init_in_an_empty_directory(runner, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ZHEN_HOME", str(tmp_path / ".zhen-home"))
    result = runner.invoke(app, ["init"])
    assert result.exit_code == 0, result.output
    glossary = (tmp_path / "glossary.yaml").read_text("utf-8")
    assert glossary.startswith("# zhen glossary") and "forbid" in glossary
    ignore = (tmp_path / ".gitignore").read_text("utf-8").splitlines()
    assert {"*.en.md", ".zhen/", "review.html", ".*.md.*.tmp"} <= set(ignore)
    assert not any("zh-en" in line for line in ignore)      # reviewed English stays in git
    check = runner.invoke(app, ["glossary", "check", "--format", "json"])
    assert check.exit_code == 0, check.output
    assert "checked the glossary only" in check.stderr
    # again: the glossary is kept and nothing is added twice
    (tmp_path / "glossary.yaml").write_text(glossary + "  - zh: 内核\n    en: kernel\n", "utf-8")
    again = runner.invoke(app, ["init"])
    assert again.exit_code == 0 and "kept glossary.yaml" in again.stdout
    assert "内核" in (tmp_path / "glossary.yaml").read_text("utf-8")
    assert (tmp_path / ".gitignore").read_text("utf-8").splitlines() == ignore
    # the starter's terms are locked when translating
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.md").write_text("编译器的吞吐很高。\n", "utf-8")
    assert runner.invoke(app, ["translate", "notes/"]).exit_code == 0
    english = (tmp_path / "notes" / "a.en.md").read_text("utf-8")
    assert "compiler" in english.lower() and "throughput" in english


def test_translate_without_a_glossary_warns_once_before_the_work(runner, tmp_path, monkeypatch):
    from zhenglossary.api import translate_project

    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "a.md").write_text("# 测试\n\n编译器很快。\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ZHEN_HOME", str(tmp_path / ".zhen"))
    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(tmp_path / "no-models"))
    result = runner.invoke(app, ["translate", "notes/"])
    assert result.exit_code == 0, result.output
    assert result.stderr.count("no glossary.yaml") == 1
    assert result.stderr.count("dictionary gloss") == 1
    assert (tmp_path / "notes" / "a.en.md").is_file()
    # the notices come before the work: before the first progress report
    events = []
    translate_project([Path("notes")], None, progress=lambda *a: events.append("progress"),
                      notify=lambda message: events.append("notice"), use_memory=False)
    assert events[:2] == ["notice", "notice"] and "progress" in events
