"""`zhen status` (each note's blocks by review status) and `zhen mark` (mark blocks
reviewed in the parallel file).

Exit codes: status — 0, or 1 when a status named by ``--fail-on`` has blocks or a note's
outputs cannot be read or carried (``zhen translate`` would stop on it); mark — 0 when every
block asked for was marked (``--all`` passing over blocks whose English a person wrote, each
named), 1 when some were skipped (each named, with why); 2 cannot run (a glossary
``zhen translate`` refuses, too).
"""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from .console import (CheckFormat, Table, encoding_option, error_line, glossary_option, handle_errors, out,
                      out_dir_option, print_json, say, shown, warn)



def status(
    paths: Optional[List[Path]] = typer.Argument(
        None, help="Notes: .md files or directories (default: notes/).", show_default=False),
    glossary: Optional[Path] = glossary_option(),
    out_dir: Optional[Path] = out_dir_option(),
    encoding: Optional[str] = encoding_option(),
    fail_on: str = typer.Option("", "--fail-on",
                                help="Exit 1 if any block has one of these statuses "
                                     "(comma separated, e.g. stale,invalid)."),
    format: CheckFormat = typer.Option(CheckFormat.text, "--format", "-f", help="text or json."),
) -> None:
    """How many blocks of each note are machine, reviewed, edited, stale, invalid or pending
    (and edits orphaned), as `zhen translate` would decide it now."""
    from ..api import STATUS_NAMES as COLUMNS, status_project

    wanted = tuple(s.strip() for s in fail_on.split(",") if s.strip())
    report = status_project(paths, glossary, out_dir=out_dir, encoding=encoding,
                            fail_on=wanted)
    if format is CheckFormat.json:
        print_json(report.to_json())
        raise typer.Exit(report.exit_code)
    for stray in report.strays:
        warn(f"{stray.file}: {stray.message}")
    table = Table(box=None, pad_edge=False)
    table.add_column("note", overflow="fold")
    for name in COLUMNS:
        table.add_column(name, justify="right")
    for note in report.notes:
        if note.problem:
            (error_line if note.parallel else warn)(f"{note.note}: {note.problem}")
            if not note.counts:
                continue
        table.add_row(shown(note.note), *(str(note.counts.get(c, 0)) for c in COLUMNS))
    table.add_row("total", *(str(report.total[c]) for c in COLUMNS), style="bold")
    out.print(table)
    if wanted and report.exit_code:
        failing = [f"{report.total[s]} {s}" for s in wanted if report.total.get(s)]
        if failing:
            say(f"failing: {', '.join(failing)} (--fail-on {','.join(wanted)})")
    raise typer.Exit(report.exit_code)


def mark(
    note: Path = typer.Argument(..., help="The note (x.md) whose parallel file to mark.",
                                show_default=False),
    blocks: Optional[List[str]] = typer.Argument(
        None, help="Block numbers (12 or b12), as the parallel file and the review page show "
        "them.", show_default=False),
    every: bool = typer.Option(False, "--all", help="Every translated block of the note."),
    as_: str = typer.Option("reviewed", "--as",
                            help="reviewed, or machine to take a review back."),
    glossary: Optional[Path] = glossary_option(),
    out_dir: Optional[Path] = out_dir_option(),
    encoding: Optional[str] = encoding_option(),
) -> None:
    """Mark blocks reviewed: their English stays as it is, `zhen translate` keeps it and
    never sends it to the engine, until the source or a glossary entry it uses changes."""
    from ..api import mark_blocks
    from ..errors import UsageError

    numbers = []
    for item in blocks or []:
        text = item.lower().lstrip("b")
        if not text.isdigit():
            raise UsageError(f"{item!r} is not a block number; write 12 or b12")
        numbers.append(int(text))
    if not numbers and not every:
        raise UsageError("name the blocks to mark (e.g. `zhen mark notes/x.md 3 7`), or pass --all")
    report = mark_blocks(note, numbers, as_, glossary_option=glossary, out_dir=out_dir,
                         every=every, encoding=encoding)
    for index, why in report.skipped:
        warn(f"block {index}: not marked — {why}")
    if report.marked:
        say(f"marked {len(report.marked)} block(s) {as_} in {report.parallel}: "
            + ", ".join(str(k) for k in report.marked))
    else:
        say(f"nothing to mark in {report.parallel}")
    for index in report.superseded:
        warn(f"block {index}: the English you had before its source changed, quoted below it, "
             "goes at the next `zhen translate` (you accepted the new machine English); copy "
             "what you keep of it into the English first")
    raise typer.Exit(report.exit_code)


def register(app: typer.Typer) -> None:
    for name, fn in (("status", status), ("mark", mark)):
        if not any(c.name == name for c in app.registered_commands):
            app.command(name)(handle_errors(fn))
