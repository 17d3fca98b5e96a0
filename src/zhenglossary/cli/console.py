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
    from rich.table import Table as RichTable

    return RichTable(*columns, **options)


out = _Out()
err = _Err()

STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def say(message: str) -> None:
    """One plain line on stdout (no markup, no highlighting)."""
    out.print(message, markup=False, highlight=False)


def note(message: str) -> None:
    """One plain line on stderr (progress and summaries of commands that write to stdout)."""
    err.print(message, markup=False, highlight=False)


def warn(message: str) -> None:
    note("warning: " + message)


def error_line(message: str) -> None:
    note("error: " + message)


def print_json(data) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def print_findings(findings) -> None:
    """The one findings table (severity, check, where, message), coloured by severity."""
    table = Table("severity", "check", "where", "message", box=None, pad_edge=False)
    for f in findings:
        table.add_row(f.severity, f.check, f.where, f.message, style=STYLE[f.severity])
    out.print(table)


def handle_errors(fn):
    """Turn ZhenError into one line on stderr and its exit code."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except ZhenError as exc:
            err.print("error: ", style="bold red", end="")
            err.print(str(exc), markup=False, highlight=False)
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
