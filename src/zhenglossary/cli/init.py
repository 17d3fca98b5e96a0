"""`zhen init`: start a project in the current directory.

Exit codes: 0 done (also when glossary.yaml was already there: it is kept); 1 a file cannot
be written.
"""

from __future__ import annotations

from pathlib import Path

import typer

from .console import handle_errors, say


@handle_errors
def init(
    force: bool = typer.Option(False, "--force", help="Replace an existing glossary.yaml."),
) -> None:
    """Write a commented starter glossary.yaml here and add zhen's generated outputs
    (x.en.md, .zhen/, review.html) to .gitignore. The parallel files x.zh-en.md stay in
    git: they hold the English people reviewed."""
    from ..api import init_project

    report = init_project(Path("."), force=force)
    if report.glossary_written:
        say(f"wrote {report.glossary} — a starter glossary with two example terms; "
            "replace them with yours (`zhen glossary suggest` lists candidates)")
    else:
        say(f"kept {report.glossary} (it exists; --force replaces it)")
    if report.ignored:
        say(f"added to {report.gitignore}: {' '.join(report.ignored)}")
    else:
        say(f"{report.gitignore} already ignores zhen's generated outputs")
    say("next: put your notes in notes/, then `zhen translate notes/` and `zhen glossary check`")
