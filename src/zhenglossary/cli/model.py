"""`zhen model list` and `zhen model install`: the argos zh→en packages."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from .console import (CheckFormat, Table, allow_remote_option, err, handle_errors,
                      llm_endpoint_option, out, print_json, say, warn)

model_app = typer.Typer(help="List the engines and their models; install argos zh→en models.",
                        no_args_is_help=True)


@model_app.command("list")
@handle_errors
def model_list(
    format: CheckFormat = typer.Option(CheckFormat.text, "--format", "-f", help="text or json."),
    endpoint: Optional[str] = llm_endpoint_option(),
    allow_remote: bool = allow_remote_option(),
) -> None:
    """List the engines (plugins too; for llm, whether the server answers and the models it
    serves) and the installed argos packages."""
    from ..api import engine_statuses, list_models

    engines, problems = engine_statuses({"endpoint": endpoint,
                                         "allow_remote": True if allow_remote else None})
    for problem in problems:
        warn(problem)
    dirs, packages = list_models()
    if format is CheckFormat.json:
        print_json({"engines": [{"name": spec.name, "origin": spec.origin, "summary": spec.summary,
                                 "ready": status.ready, "status": status.summary, **status.details}
                                for spec, status in engines],
                    "package_dirs": [str(p) for p in dirs],
                    "packages": [{"name": p.name, "path": str(p.path), "from": p.from_code,
                                  "to": p.to_code, "version": p.version, "usable": p.usable,
                                  "problems": p.problems} for p in packages]})
        return
    table = Table("engine", "ready", "status", "from", box=None, pad_edge=False)
    for spec, status in engines:
        table.add_row(spec.name, "yes" if status.ready else "no", status.summary, spec.origin)
    out.print(table)
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
