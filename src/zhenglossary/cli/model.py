"""`zhen model list` and `zhen model install`: the argos zh→en packages."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from .console import CheckFormat, Table, err, handle_errors, out, print_json, say

model_app = typer.Typer(help="List and install argos zh→en translation models.",
                        no_args_is_help=True)


@model_app.command("list")
@handle_errors
def model_list(
    format: CheckFormat = typer.Option(CheckFormat.text, "--format", "-f", help="text or json."),
) -> None:
    """List installed argos translation packages."""
    from ..api import list_models

    dirs, packages = list_models()
    if format is CheckFormat.json:
        print_json({"package_dirs": [str(p) for p in dirs],
                    "packages": [{"name": p.name, "path": str(p.path), "from": p.from_code,
                                  "to": p.to_code, "version": p.version, "usable": p.usable,
                                  "problems": p.problems} for p in packages]})
        return
    if not packages:
        out.print(f"no argos packages in {', '.join(str(p) for p in dirs)}; "
                  "install one with `zhen model install`", markup=False)
        return
    table = Table("package", "from", "to", "version", "zhen uses it", "path", box=None)
    for p in packages:
        status = "yes" if p.usable else ("broken: " + "; ".join(p.problems) if p.problems else "no (not zh→en)")
        table.add_row(p.name, p.from_code, p.to_code, p.version, status, str(p.path))
    out.print(table)


@model_app.command("install")
@handle_errors
def model_install(
    file: Optional[Path] = typer.Option(None, "--file", help="Install this local .argosmodel."),
) -> None:
    """Install the argos zh→en model (downloads it), or a local package with --file."""
    from ..api import install_model

    if file is None:
        err.print("downloading translate-zh_en from the argos package index ...")
    package = install_model(file)
    say(f"installed {package.name} ({package.from_code}→{package.to_code} "
        f"{package.version}) in {package.path}")
