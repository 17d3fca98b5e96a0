"""`zhen review`: write one self-contained HTML page to review translations.

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

from .console import encoding_option, glossary_option, handle_errors, out_dir_option, say, warn

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
    encoding: Optional[str] = encoding_option(),
) -> None:
    """Write an HTML page to review translations: source and English side by side,
    glossary terms highlighted, findings at their blocks, filters."""
    from ..api import review_page

    page = review_page(paths, glossary, generated=time.strftime("%Y-%m-%d %H:%M"),
                       out_dir=out_dir, encoding=encoding)
    for problem in page.inputs.glossary.errors[:1]:
        warn(f"the glossary has errors ({problem.where}: {problem.message}); "
             "the page lists them — run `zhen glossary check`")
    for n in page.inputs.untranslated:
        warn(f"{n.note}: {n.problem}")
    page.write(out)
    c = page.counts
    say(f"wrote {out} — {c['notes']} note(s), {c['blocks']} blocks, "
        f"{c['locked_terms']} locked terms, {c['error']} error(s), "
        f"{c['warning']} warning(s), {c['info']} info")


def register(app: typer.Typer) -> None:
    """Add `review` to ``app`` (once: calling it again changes nothing)."""
    if any(c.name == "review" for c in app.registered_commands):
        return
    app.command("review")(handle_errors(review))
