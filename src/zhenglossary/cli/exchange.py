"""`zhen export`, `zhen glossary export`, `zhen glossary import`: the exchange formats.

``cli/__init__.py`` adds them with ``register(app, glossary_app)``. Exit codes: 0 done;
1 ``glossary import`` found conflicts (the other entries are still added); 2 cannot run
(a missing path, no parallel file at all, an unreadable or unsupported file, a broken
glossary).
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from .console import (CheckFormat, encoding_option, glossary_option, handle_errors, note,
                      out_dir_option,
                      print_json, warn)


class TMFormat(str, Enum):
    tmx = "tmx"
    xliff = "xliff"


class GlossaryFormat(str, Enum):
    tbx = "tbx"
    tsv = "tsv"


def _out_opt():
    return typer.Option(None, "--out", "-o", help="Write to FILE (atomically) instead of stdout.")


def _emit(text: str, out: Path | None) -> None:
    from ..fileio import write_atomic

    if out is None:
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        write_atomic(out, text)


def export_pairs(
    paths: List[Path] = typer.Argument(..., help="Notes: .md files or directories (each needs "
                                       "its x.zh-en.md from `zhen translate`).",
                                       show_default=False),
    format: TMFormat = typer.Option(..., "--format", "-f",
                                    help="tmx (TMX 1.4) or xliff (XLIFF 1.2)."),
    out: Optional[Path] = _out_opt(),
    glossary: Optional[Path] = glossary_option(),
    out_dir: Optional[Path] = out_dir_option(),
    encoding: Optional[str] = encoding_option(),
) -> None:
    """Export the translated block pairs as a translation memory (TMX) or XLIFF for CAT tools."""
    from ..api import export_project_pairs

    result = export_project_pairs(paths, glossary, format.value, warn=warn,
                                  out_dir=out_dir, encoding=encoding)
    _emit(result.text, out)
    detail = ", ".join(f"{n} {s}" for s, n in result.counts.items() if n) or "nothing translated"
    note(f"exported {result.units} pair(s) ({detail}) from {result.notes} note(s) as "
         f"{format.value.upper()}" + (f" to {out}" if out else ""))


def glossary_export(
    format: GlossaryFormat = typer.Option(..., "--format", "-f",
                                          help="tbx (TBX-Basic, martif) or tsv (DeepL: "
                                               "source<TAB>target, no header)."),
    out: Optional[Path] = _out_opt(),
    glossary: Optional[Path] = glossary_option(),
) -> None:
    """Export the glossary as TBX (CAT tools, termbases) or TSV (DeepL glossaries)."""
    from ..api import export_glossary_file

    path, terms, text = export_glossary_file(glossary, format.value)
    _emit(text, out)
    lines = f", {text.count(chr(10))} lines" if format is GlossaryFormat.tsv else ""
    note(f"exported {terms} term(s){lines} from {path} as {format.value.upper()}"
         + (f" to {out}" if out else ""))


def glossary_import(
    file: Path = typer.Argument(..., help="A TBX, TSV, CSV or YAML glossary (DeepL, Amazon "
                                "Translate, `zhen glossary export`, the candidates `zhen glossary "
                                "suggest --out FILE` writes).", show_default=False),
    glossary: Optional[Path] = typer.Option(
        None, "--glossary", "-g",
        help="glossary.yaml to add to (default: found upwards from here); a path that does not "
             "exist yet is created."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Report only; write nothing."),
    format: CheckFormat = typer.Option(CheckFormat.text, "--format", "-f", help="text or json."),
) -> None:
    """Add the entries of a TBX/TSV/CSV/YAML glossary that glossary.yaml lacks; report conflicts."""
    from ..api import import_glossary_file

    result = import_glossary_file(file, glossary, dry_run)
    report, path = result.report, result.path
    code = 1 if report.conflicts else 0
    if format is CheckFormat.json:
        data = report.to_json()
        data["summary"]["exit_code"] = code
        print_json({"glossary": str(path), "file": str(file), "format": result.format,
                    "dry_run": dry_run, "written": result.written,
                    "created": result.written and result.created,
                    **data, "warnings": result.warnings})
        raise typer.Exit(code)
    add_word = "would add" if dry_run else "added"
    lines = [f"{path}: {add_word} {len(report.added)}, skipped {len(report.skipped)} identical, "
             f"{len(report.conflicts)} conflict(s) — from {file} ({result.format})"
             + (" [dry run: nothing written]" if dry_run else "")
             + (" [new glossary]" if result.written and result.created else "")]
    for cand in report.added:
        variants = f" (variants: {', '.join(cand.variants)})" if cand.variants else ""
        lines.append(f"  + {cand.zh} → {cand.en}{variants}  [{file}:{cand.line}]")
    for conflict in report.conflicts:
        lines.append(f"  ! {conflict.message}")
    sys.stdout.write("\n".join(lines) + "\n")
    for warning in result.warnings:
        warn(warning)
    raise typer.Exit(code)


def register(app: typer.Typer, glossary_app: typer.Typer) -> None:
    """Add `export` to ``app`` and `export`/`import` to ``glossary_app``."""
    app.command("export")(handle_errors(export_pairs))
    glossary_app.command("export")(handle_errors(glossary_export))
    glossary_app.command("import")(handle_errors(glossary_import))
