"""The `zhen` command: parse options, call the façade (`zhenglossary.api`), print, map
errors to exit codes. The CLI never computes.

One module per command group: ``console`` (output, errors, the findings renderer, shared
options), ``init``, ``translate``, ``glossary``, ``model``, ``exchange``, ``review``; ``helptext``
gives every command its one-line summary, examples and plain metavars. Imports go one
way: this module imports the command modules, they import ``console``, nothing imports back.

Exit codes: 0 clean; 1 findings (or failed files); 2 cannot run (bad usage, no glossary,
missing model for an explicit engine). No user sees a traceback for bad input.
"""

from __future__ import annotations

import typer

from .. import __version__
from . import exchange, helptext, review, status
from .console import out
from .glossary import glossary_app
from .init import init
from .model import model_app
from .translate import translate

app = typer.Typer(
    help="Offline Chinese→English translation of technical notes, terms locked to one glossary.",
    no_args_is_help=True, add_completion=False, rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]})


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


app.command("init")(init)
app.add_typer(glossary_app, name="glossary")
app.command("translate")(translate)
app.add_typer(model_app, name="model")
exchange.register(app, glossary_app)
review.register(app)
status.register(app)
helptext.apply(app)

__all__ = ["app", "main"]


def main() -> None:
    from ..process import tune_gc

    tune_gc()
    app(prog_name="zhen")
