"""One convention for usage across every command: commands that read notes take
``--encoding``; a short flag means one thing everywhere; bad usage exits 2; every flag a
message or the README names exists; the README's command lines parse."""

from __future__ import annotations

import ast
import re
import shlex
from pathlib import Path

import pytest
import typer

from zhenglossary.cli import app

SRC = Path(__file__).parent.parent / "src" / "zhenglossary"
README = Path(__file__).parent.parent / "README.md"
READS_NOTES = ["translate", "glossary check", "glossary suggest", "review", "export", "status",
               "mark"]


def _commands() -> dict:
    """Every command, by its path ("glossary check"), as typer built it (typer ships its own
    copy of click, so its classes are known by what they have, not by import)."""
    root = typer.main.get_command(app)
    out = {}

    def walk(group, prefix):
        for name, command in group.commands.items():
            if hasattr(command, "commands"):
                walk(command, f"{prefix}{name} ")
            else:
                out[f"{prefix}{name}"] = command
    walk(root, "")
    return out


def _options(command) -> list:
    return [p for p in command.params if any(o.startswith("-") for o in p.opts)]


def test_every_command_that_reads_notes_takes_encoding():
    commands = _commands()
    for name in READS_NOTES:
        flags = {o for p in _options(commands[name]) for o in p.opts}
        assert "--encoding" in flags, name


def test_a_short_flag_means_one_thing_in_every_command():
    meaning: dict[str, set[str]] = {}
    for name, command in _commands().items():
        for option in _options(command):
            longs = [o for o in option.opts if o.startswith("--")]
            for short in (o for o in option.opts if re.fullmatch(r"-[a-zA-Z]", o)):
                meaning.setdefault(short, set()).update(longs)
    clashes = {short: longs for short, longs in meaning.items() if len(longs) > 1}
    assert not clashes


@pytest.mark.parametrize("name", sorted(_commands()))
def test_bad_usage_exits_2(runner, name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, name.split() + ["--no-such-flag"])
    assert result.exit_code == 2, (name, result.output)
    assert "No such option: --no-such-flag" in result.output


def _strings_in_source() -> list[tuple[str, str]]:
    out = []
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                out.append((f"{path.relative_to(SRC)}:{node.lineno}", node.value))
    return out


# flags of other programs that zhen's messages quote (pip, iconv, tr, git)
OTHER_PROGRAMS = {"--upgrade", "--from-code", "--to-code"}


def test_every_flag_a_message_names_exists():
    known = {o for command in _commands().values() for p in _options(command) for o in p.opts}
    known |= {"--help", "--version"}
    unknown = []
    for where, text in _strings_in_source():
        # a flag: after a space, a quote or a backtick (not a CSS custom property)
        for flag in re.findall(r"(?:^|(?<=[\s`'\"]))--[a-z][a-z0-9-]*[a-z0-9](?![\w:-])", text):
            if flag not in known and flag not in OTHER_PROGRAMS:
                unknown.append((where, flag))
    assert not unknown


def _readme_command_lines() -> list[str]:
    lines, fenced = [], False
    for line in README.read_text("utf-8").split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        text = line.strip()
        if fenced and text.startswith("zhen ") and "[" not in text and "PATH" not in text:
            text = text.split(" #", 1)[0].strip()      # a comment after the command
            lines.append(text)
        if not fenced:                                 # `zhen …` in running text
            lines += [m for m in re.findall(r"`(zhen [^`]+)`", line)
                      if "[" not in m and "…" not in m and "PATH" not in m and "|" not in m]
    return lines


def test_every_command_line_in_the_readme_parses():
    root = typer.main.get_command(app)
    lines = _readme_command_lines()
    assert len(lines) > 30
    bad = []
    for line in lines:
        args = shlex.split(line)[1:]
        command, name = root, "zhen"
        while hasattr(command, "commands") and args and not args[0].startswith("-"):
            name, args = args[0], args[1:]
            command = command.commands.get(name)
            if command is None:
                bad.append((line, f"no command {name}"))
                break
        if command is None:
            continue
        try:
            command.make_context(name, list(args), resilient_parsing=False)
        except Exception as exc:                       # typer's click: known by its name
            if type(exc).__name__ == "Exit":
                continue                               # --help, --version
            if type(exc).__name__ == "MissingParameter" and not args:
                continue                               # a command named in running text
            bad.append((line, f"{type(exc).__name__}: {exc}"))
    assert not bad


HOSTILE = "x--><img src=x onerror=alert(1)><!--"


def test_hostile_note_names_stay_inside_the_comments_zhen_writes(runner, tmp_path, monkeypatch):
    from conftest import write

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ZHEN_HOME", str(tmp_path / ".zhen"))
    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(tmp_path / "no-models"))
    write(tmp_path / "glossary.yaml", "terms:\n  - zh: 编译器\n    en: compiler\n")
    for name in (HOSTILE, "two\nlines", "bidi\u202etxt"):
        write(tmp_path / "notes" / f"{name}.md", "编译器很快。\n")
    result = runner.invoke(app, ["translate", "notes/"])
    assert result.exit_code == 0, result.output
    for name in (HOSTILE, "two\nlines", "bidi\u202etxt"):
        for suffix in (".en.md", ".zh-en.md"):
            first = (tmp_path / "notes" / f"{name}{suffix}").read_text("utf-8").split("\n")[0]
            assert first.count("-->") == 1 and first.endswith(" -->"), first
            assert "<img" not in first and "\u202e" not in first
    # read back as zhen's own: a second run writes over them
    assert runner.invoke(app, ["translate", "notes/"]).exit_code == 0
    result = runner.invoke(app, ["status"])
    assert "notes/two\\x0alines.md" in result.stdout and "\u202e" not in result.stdout
