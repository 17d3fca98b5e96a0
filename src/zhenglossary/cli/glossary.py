"""`zhen glossary check` and `zhen glossary suggest` (`export`/`import` live in cli/exchange.py).

Exit codes: 0 clean; 1 findings (errors, or warnings with --strict); 2 cannot run.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from .console import (STYLE, FindingsFormat, Table, encoding_option, err, glossary_option,
                      handle_errors,
                      note, out, out_dir_option, print_findings, print_json, warn)

glossary_app = typer.Typer(help="Check the glossary and the notes; suggest new terms.",
                           no_args_is_help=True)

PathsArg = typer.Argument(None, help="Notes: .md files or directories (default: notes/).",
                          show_default=False)
GlossaryOpt = glossary_option()


class SuggestFormat(str, Enum):
    yaml = "yaml"
    json = "json"


@glossary_app.command("check")
@handle_errors
def glossary_check(
    paths: Optional[List[Path]] = PathsArg,
    glossary: Optional[Path] = GlossaryOpt,
    format: FindingsFormat = typer.Option(
        FindingsFormat.text, "--format", "-f",
        help="text (a table), json, concise (one `path:line:col: severity check message` line "
             "per finding) or github (GitHub Actions annotations)."),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 on warnings too."),
    show_info: bool = typer.Option(False, "--info", help="Also list info findings."),
    usage: bool = typer.Option(False, "--usage", help="Print how often each term is used per note."),
    list_checks: bool = typer.Option(False, "--list-checks", help="List every check and exit."),
    out_dir: Optional[Path] = out_dir_option(),
    encoding: Optional[str] = encoding_option(),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1,
                                       help="Processes to check the notes in (default: the "
                                            "machine's cores, when there is enough to check)."),
) -> None:
    """Check the glossary, the notes and their translations for terminology problems."""
    from ..api import check_project, list_checks as registered_checks
    from ..findings import exit_code_for

    if list_checks:
        checks = registered_checks()
        if format is FindingsFormat.json:
            print_json([{"id": c.id, "severity": c.severity, "scope": c.scope, "title": c.title}
                        for c in checks])
        else:
            table = Table("check", "severity", "scope", "title", box=None)
            for c in checks:
                table.add_row(c.id, c.severity, c.scope, c.title, style=STYLE[c.severity])
            out.print(table)
        raise typer.Exit(0)

    report = check_project(paths, glossary, out_dir=out_dir, encoding=encoding, jobs=jobs)
    for message in report.notices:
        warn(message)
    code = exit_code_for(report.findings, strict=strict)
    if format is FindingsFormat.json:
        print_json({"findings": [f.to_json() for f in report.findings],
                    "summary": {**report.summary, "exit_code": code},
                    "usage": report.usage})
        raise typer.Exit(code)

    shown = [f for f in report.findings if show_info or f.severity != "info"]
    if shown:
        print_findings(shown, format.value)
    if usage:
        _print_usage(report)
    s = report.summary
    info_hint = " (list them with --info)" if s["info"] and not show_info else ""
    summary = (f"{s['error']} error(s), {s['warning']} warning(s), {s['info']} info{info_hint} — "
               f"{s['notes']} note(s), {s['translations']} translation(s), "
               f"{s['terms_used']}/{s['terms']} terms used")
    # the line formats keep stdout to one line per finding; the summary goes to stderr
    if format in (FindingsFormat.concise, FindingsFormat.github):
        note(summary)
    else:
        out.print(summary)
    raise typer.Exit(code)


def _print_usage(report) -> None:
    files, rows = report.usage_rows()
    table = Table("term", "en", *files, "total", box=None)
    for zh, en, counts, total in rows:
        table.add_row(zh, en, *[str(n) for n in counts], str(total))
    out.print(table)


@glossary_app.command("suggest")
@handle_errors
def glossary_suggest(
    paths: Optional[List[Path]] = PathsArg,
    glossary: Optional[Path] = GlossaryOpt,
    format: SuggestFormat = typer.Option(SuggestFormat.yaml, "--format", "-f", help="yaml or json."),
    limit: Optional[int] = typer.Option(None, "--limit", "-n", min=1, help="At most N candidates."),
    out_file: Optional[Path] = typer.Option(
        None, "--out", help="Write a candidates file to review, then `zhen glossary import` it.",
        show_default=False),
    interactive: bool = typer.Option(
        False, "--interactive", "-i",
        help="Review each candidate with its evidence: a accept, e edit, s skip, q quit."),
    encoding: Optional[str] = encoding_option(),
) -> None:
    """Suggest terms the glossary lacks, ready to paste as v1 YAML."""
    from ..api import suggest_project, suggest_summary, write_candidates
    from ..suggest import to_yaml

    suggestions, problems = suggest_project(paths, glossary, limit, encoding=encoding)
    for problem in problems:
        err.print(f"warning: {problem.where}: {problem.message}", markup=False)
    if interactive:
        _review_interactively(suggestions, glossary)
        return
    if out_file is not None:
        write_candidates(out_file, suggestions)
        waiting = sum(1 for s in suggestions if not s.en)
        note(f"wrote {len(suggestions)} candidate(s) to {out_file} ({waiting} without English "
             f"yet); review it, then run `zhen glossary import {out_file}`")
        return
    if format is SuggestFormat.json:
        print_json({"suggestions": [s.to_json() for s in suggestions],
                    "summary": suggest_summary(suggestions)})
    else:
        sys.stdout.write(to_yaml(suggestions))


_KEYS = {"a": "accept", "e": "edit", "s": "skip", "q": "quit"}


def _key(click) -> str:
    """One key: from the terminal without Enter, or the next character of piped input
    (end of input, Ctrl-C or Ctrl-D: quit)."""
    try:
        key = click.getchar() if sys.stdin.isatty() else sys.stdin.read(1)
    except (EOFError, KeyboardInterrupt):
        return "q"
    return "q" if key in ("", "\x03", "\x04") else key.lower()


def _review_interactively(suggestions, glossary: Optional[Path]) -> None:
    """One candidate at a time, its evidence and warnings shown; one key each."""
    import click
    from rich.panel import Panel
    from rich.text import Text

    from ..api import accept_suggestions

    accepted: list[tuple[str, str, tuple[str, ...]]] = []
    for n, s in enumerate(suggestions, start=1):
        body = Text()
        body.append(f"{s.zh}", style="bold")
        body.append(f"  →  {s.en or '(no English yet)'}")
        if not s.en and s.en_guess:
            body.append(f"   dictionary guess: {s.en_guess}", style="dim")
        for line in s.evidence:
            body.append("\n" + line, style="dim")
        for line in s.alternatives[:3]:
            body.append("\nalso written: " + line, style="dim")
        for line in s.warnings:
            body.append("\nWARNING: " + line, style="bold red")
        out.print(Panel(body, title=f"{n}/{len(suggestions)}", title_align="left"))
        out.print("[a]ccept  [e]dit  [s]kip  [q]uit: ", end="", markup=False)
        key = ""
        while key not in _KEYS:
            key = _key(click)
        out.print(_KEYS[key])
        if key == "q":
            break
        if key == "s":
            continue
        english = s.en
        if key == "e" or not english:
            english = typer.prompt("English", default=s.en or s.en_guess or "").strip()
        if english:
            accepted.append((s.zh, english, tuple(s.variants)))
    if not accepted:
        note("nothing accepted; glossary.yaml is unchanged")
        return
    result = accept_suggestions(accepted, glossary)
    for cand in result.report.added:
        out.print(f"  + {cand.zh} → {cand.en}", markup=False)
    for conflict in result.report.conflicts:
        warn(conflict.message)
    note(f"{result.path}: added {len(result.report.added)}, skipped "
         f"{len(result.report.skipped)} identical, {len(result.report.conflicts)} conflict(s)")
    if result.report.conflicts:
        raise typer.Exit(1)
