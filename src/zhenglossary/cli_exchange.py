"""`zhen export`, `zhen glossary export`, `zhen glossary import`: the exchange formats.

Register them on the command line with (at the end of cli.py, after ``glossary_app`` exists)::

    from .cli_exchange import register
    register(app, glossary_app)

The functions below are plain typer command functions (typer Options as defaults, like
cli.py); ``register`` wraps each in ``handle_errors`` and adds it. Exit codes: 0 done;
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

from .cli_options import CheckFormat, glossary_option, out_dir_option


class TMFormat(str, Enum):
    tmx = "tmx"
    xliff = "xliff"


class GlossaryFormat(str, Enum):
    tbx = "tbx"
    tsv = "tsv"


def _out_opt():
    return typer.Option(None, "--out", "-o", help="Write to FILE (atomically) instead of stdout.")


def _warn(message: str) -> None:
    from .cli import err

    err.print("warning: " + message, markup=False, highlight=False)


def _info(message: str) -> None:
    from .cli import err

    err.print(message, markup=False, highlight=False)


def _emit(text: str, out: Path | None) -> None:
    from .fileio import write_atomic

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
) -> None:
    """Export the translated block pairs as a translation memory (TMX) or XLIFF for CAT tools."""
    from .errors import GlossaryNotFound, UsageError
    from .exchange import collect_pairs, export_tm, exportable
    from .glossary import Glossary, load_glossary, resolve_glossary

    try:
        gloss = load_glossary(resolve_glossary(glossary))
    except GlossaryNotFound:
        if glossary is not None:
            raise
        _warn("no glossary.yaml found; exporting without the glossary-term notes")
        gloss = Glossary([])
    notes, warnings = collect_pairs(paths, gloss, out_dir=out_dir)
    for warning in warnings:
        _warn(warning)
    if not notes:
        raise UsageError("none of the notes has a parallel file (x.zh-en.md) to export; run "
                         "`zhen translate` on them first")
    units = exportable(notes)
    text = export_tm(notes, format.value)
    _emit(text, out)
    counts = {s: sum(1 for _, _, status in units if status == s)
              for s in ("approved", "edited", "machine", "stale")}
    detail = ", ".join(f"{n} {s}" for s, n in counts.items() if n) or "nothing translated"
    _info(f"exported {len(units)} pair(s) ({detail}) from {len(notes)} note(s) as "
          f"{format.value.upper()}" + (f" to {out}" if out else ""))


def glossary_export(
    format: GlossaryFormat = typer.Option(..., "--format", "-f",
                                          help="tbx (TBX-Basic, martif) or tsv (DeepL: "
                                               "source<TAB>target, no header)."),
    out: Optional[Path] = _out_opt(),
    glossary: Optional[Path] = glossary_option(),
) -> None:
    """Export the glossary as TBX (CAT tools, termbases) or TSV (DeepL glossaries)."""
    from .exchange import export_glossary
    from .glossary import load_glossary, resolve_glossary

    path = resolve_glossary(glossary)
    gloss = load_glossary(path, strict=True)
    text = export_glossary(gloss, format.value)
    _emit(text, out)
    lines = f", {text.count(chr(10))} lines" if format is GlossaryFormat.tsv else ""
    _info(f"exported {len(gloss.terms)} term(s){lines} from {path} as {format.value.upper()}"
          + (f" to {out}" if out else ""))


def glossary_import(
    file: Path = typer.Argument(..., help="A TBX, TSV or CSV glossary (DeepL, Amazon Translate, "
                                "`zhen glossary export`).", show_default=False),
    glossary: Optional[Path] = typer.Option(
        None, "--glossary", "-g",
        help="glossary.yaml to add to (default: found upwards from here); a path that does not "
             "exist yet is created."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Report only; write nothing."),
    format: CheckFormat = typer.Option(CheckFormat.text, "--format", "-f", help="text or json."),
) -> None:
    """Add the entries of a TBX/TSV/CSV glossary that glossary.yaml lacks; report conflicts."""
    from .cli import print_json
    from .exchange import apply_merge, load_for_merge, merge, read_import
    from .glossary import find_glossary

    path = glossary if glossary is not None else find_glossary()
    gloss, text = load_for_merge(path)
    created = not text
    imported = read_import(file)
    report = merge(gloss, imported.candidates)
    written = False
    if report.added and not dry_run:
        apply_merge(path, text, report, glossary=gloss,
                    comment=f"--- imported from {file.name} by `zhen glossary import` ---")
        written = True
    code = 1 if report.conflicts else 0
    warnings = imported.warnings + report.warnings
    if format is CheckFormat.json:
        data = report.to_json()
        data["summary"]["exit_code"] = code
        print_json({"glossary": str(path), "file": str(file), "format": imported.format,
                    "dry_run": dry_run, "written": written, "created": written and created,
                    **data, "warnings": warnings})
        raise typer.Exit(code)
    add_word = "would add" if dry_run else "added"
    lines = [f"{path}: {add_word} {len(report.added)}, skipped {len(report.skipped)} identical, "
             f"{len(report.conflicts)} conflict(s) — from {file} ({imported.format})"
             + (" [dry run: nothing written]" if dry_run else "")
             + (" [new glossary]" if written and created else "")]
    for cand in report.added:
        variants = f" (variants: {', '.join(cand.variants)})" if cand.variants else ""
        lines.append(f"  + {cand.zh} → {cand.en}{variants}  [{file}:{cand.line}]")
    for conflict in report.conflicts:
        lines.append(f"  ! {conflict.message}")
    sys.stdout.write("\n".join(lines) + "\n")
    for warning in warnings:
        _warn(warning)
    raise typer.Exit(code)


def register(app: typer.Typer, glossary_app: typer.Typer) -> None:
    """Add `export` to ``app`` and `export`/`import` to ``glossary_app``."""
    from .cli import handle_errors

    app.command("export")(handle_errors(export_pairs))
    glossary_app.command("export")(handle_errors(glossary_export))
    glossary_app.command("import")(handle_errors(glossary_import))
