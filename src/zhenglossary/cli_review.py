"""`zhen review`: write one self-contained HTML page to review translations.

Register it on the command line with (at the end of cli.py)::

    from .cli_review import register as register_review
    register_review(app)

Exit codes: 0 the page was written (findings are shown in the page, not an exit code);
1 the page cannot be written; 2 cannot run (a missing path, a directory without notes,
no glossary). A note without a parallel file is listed in the page as not translated yet
and reported on stderr; it is not an error.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import List, Optional

import typer

from .cli_options import glossary_option, out_dir_option

DEFAULT_OUT = Path("review.html")


def review(
    paths: Optional[List[Path]] = typer.Argument(
        None, help="Notes: .md files or directories (default: notes/), translated with "
        "`zhen translate` (each x.md needs its x.zh-en.md beside it).", show_default=False),
    out: Path = typer.Option(DEFAULT_OUT, "--out", "-o",
                             help="Write the page here (atomically); default review.html in "
                             "the current directory."),
    glossary: Optional[Path] = glossary_option(),
    out_dir: Optional[Path] = out_dir_option(),
) -> None:
    """Write an HTML page to review translations: source and English side by side,
    glossary terms highlighted, findings at their blocks, filters."""
    from .cli import err, out as stdout
    from .fileio import write_atomic
    from .review import gather_review, render_review, review_counts

    inputs = gather_review(paths, glossary, out_dir)
    for problem in inputs.glossary.errors[:1]:
        err.print(f"warning: the glossary has errors ({problem.where}: {problem.message}); "
                  "the page lists them — run `zhen glossary check`", markup=False, highlight=False)
    for note in inputs.untranslated:
        err.print(f"warning: {note.note}: {note.problem}", markup=False, highlight=False)
    html = render_review(inputs, generated=time.strftime("%Y-%m-%d %H:%M"))
    write_atomic(out, html)
    c = review_counts(inputs)
    stdout.print(f"wrote {out} — {c['notes']} note(s), {c['blocks']} blocks, "
                 f"{c['locked_terms']} locked terms, {c['error']} error(s), "
                 f"{c['warning']} warning(s), {c['info']} info", markup=False, highlight=False)


def register(app: typer.Typer) -> None:
    """Add `review` to ``app`` (once: calling it again changes nothing)."""
    from .cli import handle_errors

    if any(c.name == "review" for c in app.registered_commands):
        return
    app.command("review")(handle_errors(review))
