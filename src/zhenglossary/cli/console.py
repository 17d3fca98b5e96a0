"""Everything the `zhen` commands share: the consoles, error handling, JSON output, the one
findings renderer, and the options every command spells the same way.

Nothing here computes; nothing here imports a command module (no circles: the command
modules import this one, ``cli/__init__.py`` imports them).
"""

from __future__ import annotations

import functools
import json
import os
import sys
from enum import Enum

import typer

from ..errors import ZhenError


class CheckFormat(str, Enum):
    """`--format text|json` of the reporting commands."""

    text = "text"
    json = "json"


class FindingsFormat(str, Enum):
    """`--format` of `zhen glossary check`: the table, JSON, or a line per finding in a
    format tools already read (``concise``: gcc/ruff ``path:line:col: severity check
    message``; ``github``: GitHub Actions workflow commands)."""

    text = "text"
    json = "json"
    concise = "concise"
    github = "github"


def out_dir_option():
    return typer.Option(None, "--out-dir",
                        help="Where `zhen translate --out-dir` wrote x.en.md and x.zh-en.md, at "
                        "each note's path from the project root (default: beside each note).")


def encoding_option():
    return typer.Option(None, "--encoding",
                        help="Read notes in this encoding (e.g. gb18030; default UTF-8).")


def glossary_option():
    return typer.Option(None, "--glossary", "-g",
                        help="glossary.yaml to use (default: found upwards from here).")


def llm_endpoint_option():
    return typer.Option(None, "--endpoint", help="llm: the server's OpenAI-compatible URL "
                        "(default http://127.0.0.1:11434/v1, Ollama's).")


def allow_remote_option():
    return typer.Option(False, "--allow-remote",
                        help="llm: allow an endpoint that is not on this machine.")


class _Out:
    """stdout console made at print time (so CliRunner's captured stdout is used); wide when
    piped, so each table row stays one greppable line. rich loads on first use, not at
    start-up (`zhen --help` stays fast)."""

    def __getattr__(self, name):
        from rich.console import Console

        console = Console(highlight=False, width=None if sys.stdout.isatty() else 400)
        return getattr(console, name)


class _Err:
    """stderr console, made at print time like _Out."""

    def __getattr__(self, name):
        from rich.console import Console

        return getattr(Console(stderr=True, highlight=False, soft_wrap=True), name)


def Table(*columns, **options):
    """A rich table whose cells are plain text: a message, a file name or a term holding
    ``[x]`` or ``[draft]`` is shown as written, never read as rich markup."""
    from rich.table import Table as RichTable
    from rich.text import Text

    class PlainTable(RichTable):
        def add_row(self, *cells, **kwargs):
            super().add_row(*(Text(c) if isinstance(c, str) else c for c in cells), **kwargs)

    return PlainTable(*columns, **options)


out = _Out()
err = _Err()

STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def shown(text: str) -> str:
    """``text`` safe on a terminal: a control character, a line break or a bidirectional
    override in it (a hostile file name) is written as an escape, never sent raw."""
    from ..textutil import printable

    return printable(text)


def say(message: str) -> None:
    """One plain line on stdout (no markup, no highlighting)."""
    out.print(shown(message), markup=False, highlight=False)


def note(message: str) -> None:
    """One plain line on stderr (progress and summaries of commands that write to stdout)."""
    err.print(shown(message), markup=False, highlight=False)


def warn(message: str) -> None:
    note("warning: " + message)


def error_line(message: str) -> None:
    note("error: " + message)


def print_json(data) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def raw(text: str) -> None:
    """``text`` on stdout exactly (never wrapped): what must be copied as it is."""
    sys.stdout.write(text + "\n")


def _source_of(f) -> str:
    """The source line a translation finding is about (it is placed in x.zh-en.md)."""
    note = f.extra.get("note")
    if not note or note == f.file:
        return ""
    line = f.extra.get("note_line")
    return f"{note}:{line}" if line else note


def concise_line(f) -> str:
    """``path:line:col: severity check-id message`` (gcc/ruff), the source named after it."""
    where = f"{f.file or '.'}:{f.line or 1}:{f.column or 1}"
    source = _source_of(f)
    return shown(f"{where}: {f.severity} {f.check} {' '.join(f.message.split())}"
                 + (f" (source {source})" if source else ""))


_GITHUB_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def _gh_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_property(text: str) -> str:
    return _gh_data(text).replace(":", "%3A").replace(",", "%2C")


def github_line(f) -> str:
    """A GitHub Actions annotation: ``::error file=…,line=…,col=…,title=…::message``."""
    props = []
    if f.file:
        props.append(f"file={_gh_property(f.file)}")
        if f.line:
            props.append(f"line={f.line}")
            if f.column:
                props.append(f"col={f.column}")
    props.append(f"title={_gh_property(f.check)}")
    source = _source_of(f)
    message = f.message + (f" (source {source})" if source else "")
    return f"::{_GITHUB_LEVEL[f.severity]} {','.join(props)}::{_gh_data(message)}"


def findings_table(findings):
    """The findings table: severity, check, where, message. No cell is ever cut: long
    cells wrap (messages quote at most a short, deliberately shortened snippet)."""
    table = Table(box=None, pad_edge=False)
    table.add_column("severity", no_wrap=True)
    table.add_column("check", no_wrap=True)
    table.add_column("where", overflow="fold", min_width=12)
    table.add_column("message", overflow="fold", ratio=1, min_width=30)
    for f in findings:
        source = _source_of(f)
        where = shown(f.where) + (f"\n(source {shown(source)})" if source else "")
        table.add_row(f.severity, f.check, where, shown(f.message), style=STYLE[f.severity])
    return table


def print_findings(findings, format: str = "text") -> None:
    """The one findings renderer: the table (text), or one line per finding (concise,
    github)."""
    if format == "concise":
        for f in findings:
            say(concise_line(f))
    elif format == "github":
        for f in findings:
            sys.stdout.write(github_line(f) + "\n")
    else:
        out.print(findings_table(findings))


def handle_errors(fn):
    """Turn ZhenError into one line on stderr and its exit code."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except ZhenError as exc:
            err.print("error: ", style="bold red", end="")
            err.print(shown(str(exc)), markup=False, highlight=False)
            raise typer.Exit(exc.exit_code) from None
        except KeyboardInterrupt:
            err.print("interrupted", style="bold red")
            raise typer.Exit(130) from None
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except Exception as exc:                      # a bug: say so, briefly
            if os.environ.get("ZHEN_DEBUG"):
                raise
            err.print("error: ", style="bold red", end="")
            err.print(f"unexpected failure ({type(exc).__name__}: {exc}). This is a bug in zhen; "
                      "please report it with the command you ran (ZHEN_DEBUG=1 shows the "
                      "traceback)", markup=False, highlight=False)
            raise typer.Exit(3) from None
    return wrapper
