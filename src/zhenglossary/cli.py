"""The `zhen` command: parse options, call the core, print, map errors to exit codes.

Exit codes: 0 clean; 1 findings (or failed files); 2 cannot run (bad usage, no glossary,
missing model for an explicit engine). No user sees a traceback for bad input.
"""

from __future__ import annotations

import functools
import json
import sys
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.table import Table

from . import __version__
from .errors import ZhenError

app = typer.Typer(
    help="Offline Chinese→English translation of technical notes, terms locked to one glossary.",
    no_args_is_help=True, add_completion=False, rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]})
glossary_app = typer.Typer(help="Check the glossary and the notes; suggest new terms.",
                           no_args_is_help=True)
app.add_typer(glossary_app, name="glossary")

class _Out:
    """stdout console made at print time (so CliRunner's captured stdout is used); wide when
    piped, so each table row stays one greppable line."""

    def __getattr__(self, name):
        console = Console(highlight=False, width=None if sys.stdout.isatty() else 400)
        return getattr(console, name)


out = _Out()
err = Console(stderr=True, highlight=False, soft_wrap=True)


def fail(message: str, code: int = 2) -> None:
    err.print(f"[bold red]error:[/] {message}", markup=True, highlight=False)
    raise typer.Exit(code)


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
    return wrapper


def print_json(data) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


class CheckFormat(str, Enum):
    text = "text"
    json = "json"


class SuggestFormat(str, Enum):
    yaml = "yaml"
    json = "json"


def _version(value: bool) -> None:
    if value:
        out.print(f"zhen {__version__}")
        raise typer.Exit(0)


@app.callback()
def main_callback(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                 help="Show the version and exit."),
) -> None:
    """Offline Chinese→English translation of technical notes, terms locked to one glossary."""


PathsArg = typer.Argument(None, help="Notes: .md files or directories (default: notes/).",
                          show_default=False)
GlossaryOpt = typer.Option(None, "--glossary", "-g",
                           help="glossary.yaml to use (default: found upwards from here).")

_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


@glossary_app.command("check")
@handle_errors
def glossary_check(
    paths: Optional[List[Path]] = PathsArg,
    glossary: Optional[Path] = GlossaryOpt,
    format: CheckFormat = typer.Option(CheckFormat.text, "--format", "-f", help="text or json."),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 on warnings too."),
    show_info: bool = typer.Option(False, "--info", help="Also list info findings in the table."),
    usage: bool = typer.Option(False, "--usage", help="Print how often each term is used per note."),
    list_checks: bool = typer.Option(False, "--list-checks", help="List every check and exit."),
) -> None:
    """Check the glossary, the notes and their translations for terminology problems."""
    from .api import check_project
    from .checks import all_checks
    from .findings import exit_code_for

    if list_checks:
        checks = all_checks()
        if format is CheckFormat.json:
            print_json([{"id": c.id, "severity": c.severity, "scope": c.scope, "title": c.title}
                        for c in checks])
        else:
            table = Table("check", "severity", "scope", "title", box=None)
            for c in checks:
                table.add_row(c.id, c.severity, c.scope, c.title, style=_STYLE[c.severity])
            out.print(table)
        raise typer.Exit(0)

    report = check_project(paths, glossary)
    code = exit_code_for(report.findings, strict=strict)
    if format is CheckFormat.json:
        print_json({"findings": [f.to_json() for f in report.findings],
                    "summary": {**report.summary, "exit_code": code},
                    "usage": report.usage})
        raise typer.Exit(code)

    shown = [f for f in report.findings if show_info or f.severity != "info"]
    if shown:
        table = Table("severity", "check", "where", "message", box=None, show_lines=False,
                      pad_edge=False)
        for f in shown:
            table.add_row(f.severity, f.check, f.where, f.message, style=_STYLE[f.severity])
        out.print(table)
    if usage:
        _print_usage(report)
    s = report.summary
    info_hint = " (list them with --info)" if s["info"] and not show_info else ""
    out.print(f"{s['error']} error(s), {s['warning']} warning(s), {s['info']} info{info_hint} — "
              f"{s['notes']} note(s), {s['translations']} translation(s), "
              f"{s['terms_used']}/{s['terms']} terms used")
    raise typer.Exit(code)


def _print_usage(report) -> None:
    files = [n.display for n in report.notes]
    table = Table("term", "en", *files, "total", box=None)
    by_term = {t.zh: t for t in report.glossary.terms}
    rows = sorted(report.usage.items(), key=lambda kv: -sum(kv[1].values()))
    for zh, per_file in rows:
        term = by_term.get(zh)
        table.add_row(zh, term.en if term else "", *[str(per_file.get(f, 0)) for f in files],
                      str(sum(per_file.values())))
    out.print(table)


@glossary_app.command("suggest")
@handle_errors
def glossary_suggest(
    paths: Optional[List[Path]] = PathsArg,
    glossary: Optional[Path] = GlossaryOpt,
    format: SuggestFormat = typer.Option(SuggestFormat.yaml, "--format", "-f", help="yaml or json."),
    limit: Optional[int] = typer.Option(None, "--limit", "-n", min=1, help="At most N candidates."),
) -> None:
    """Suggest terms the glossary lacks, ready to paste as v1 YAML."""
    from .api import suggest_project
    from .suggest import to_yaml

    suggestions, problems = suggest_project(paths, glossary, limit)
    for problem in problems:
        err.print(f"warning: {problem.where}: {problem.message}", markup=False)
    if format is SuggestFormat.json:
        print_json({"suggestions": [s.to_json() for s in suggestions],
                    "summary": {"candidates": len(suggestions),
                                "from_parentheticals": sum(s.source == "parenthetical" for s in suggestions),
                                "recurring": sum(s.source == "recurring" for s in suggestions)}})
    else:
        sys.stdout.write(to_yaml(suggestions))


def main() -> None:
    app(prog_name="zhen")
