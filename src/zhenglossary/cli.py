"""The `zhen` command: parse options, call the core, print, map errors to exit codes.

Exit codes: 0 clean; 1 findings (or failed files); 2 cannot run (bad usage, no glossary,
missing model for an explicit engine). No user sees a traceback for bad input.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

from . import __version__
from .cli_options import CheckFormat, glossary_option
from .errors import ZhenError

app = typer.Typer(
    help="Offline Chinese→English translation of technical notes, terms locked to one glossary.",
    no_args_is_help=True, add_completion=False, rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]})
glossary_app = typer.Typer(help="Check the glossary and the notes; suggest new terms.",
                           no_args_is_help=True)
model_app = typer.Typer(help="List and install argos zh→en translation models.",
                        no_args_is_help=True)

class _Out:
    """stdout console made at print time (so CliRunner's captured stdout is used); wide when
    piped, so each table row stays one greppable line. rich loads on first use, not at
    start-up (`zhen --help` stays fast)."""

    def __getattr__(self, name):
        from rich.console import Console

        console = Console(highlight=False, width=None if sys.stdout.isatty() else 400)
        return getattr(console, name)


class _Err:
    """stderr console, made at print time like _Out."""

    def __getattr__(self, name):
        from rich.console import Console

        return getattr(Console(stderr=True, highlight=False, soft_wrap=True), name)


def Table(*columns, **options):
    from rich.table import Table as RichTable

    return RichTable(*columns, **options)


out = _Out()
err = _Err()


def fail(message: str, code: int = 2) -> None:
    err.print(f"[bold red]error:[/] {message}", markup=True, highlight=False)
    raise typer.Exit(code)


def handle_errors(fn):
    """Turn ZhenError into one line on stderr and its exit code."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except ZhenError as exc:
            err.print("error: ", style="bold red", end="")
            err.print(str(exc), markup=False, highlight=False)
            raise typer.Exit(exc.exit_code) from None
        except KeyboardInterrupt:
            err.print("interrupted", style="bold red")
            raise typer.Exit(130) from None
        except (typer.Exit, typer.Abort, SystemExit):
            raise
        except Exception as exc:                      # a bug: say so, briefly
            if os.environ.get("ZHEN_DEBUG"):
                raise
            err.print("error: ", style="bold red", end="")
            err.print(f"unexpected failure ({type(exc).__name__}: {exc}). This is a bug in zhen; "
                      "please report it with the command you ran (ZHEN_DEBUG=1 shows the "
                      "traceback)", markup=False, highlight=False)
            raise typer.Exit(3) from None
    return wrapper


def print_json(data) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


class SuggestFormat(str, Enum):
    yaml = "yaml"
    json = "json"


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


LLMEndpointOpt = typer.Option(None, "--endpoint", help="llm: the server's OpenAI-compatible URL "
                              "(default http://127.0.0.1:11434/v1, Ollama's).")
AllowRemoteOpt = typer.Option(False, "--allow-remote",
                              help="llm: allow an endpoint that is not on this machine.")
PathsArg = typer.Argument(None, help="Notes: .md files or directories (default: notes/).",
                          show_default=False)
GlossaryOpt = glossary_option()

_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


@glossary_app.command("check")
@handle_errors
def glossary_check(
    paths: Optional[List[Path]] = PathsArg,
    glossary: Optional[Path] = GlossaryOpt,
    format: CheckFormat = typer.Option(CheckFormat.text, "--format", "-f", help="text or json."),
    strict: bool = typer.Option(False, "--strict", help="Exit 1 on warnings too."),
    show_info: bool = typer.Option(False, "--info", help="Also list info findings in the table."),
    usage: bool = typer.Option(False, "--usage", help="Print how often each term is used per note."),
    list_checks: bool = typer.Option(False, "--list-checks", help="List every check and exit."),
) -> None:
    """Check the glossary, the notes and their translations for terminology problems."""
    from .api import check_project
    from .checks import all_checks
    from .findings import exit_code_for

    if list_checks:
        checks = all_checks()
        if format is CheckFormat.json:
            print_json([{"id": c.id, "severity": c.severity, "scope": c.scope, "title": c.title}
                        for c in checks])
        else:
            table = Table("check", "severity", "scope", "title", box=None)
            for c in checks:
                table.add_row(c.id, c.severity, c.scope, c.title, style=_STYLE[c.severity])
            out.print(table)
        raise typer.Exit(0)

    report = check_project(paths, glossary)
    code = exit_code_for(report.findings, strict=strict)
    if format is CheckFormat.json:
        print_json({"findings": [f.to_json() for f in report.findings],
                    "summary": {**report.summary, "exit_code": code},
                    "usage": report.usage})
        raise typer.Exit(code)

    shown = [f for f in report.findings if show_info or f.severity != "info"]
    if shown:
        table = Table("severity", "check", "where", "message", box=None, show_lines=False,
                      pad_edge=False)
        for f in shown:
            table.add_row(f.severity, f.check, f.where, f.message, style=_STYLE[f.severity])
        out.print(table)
    if usage:
        _print_usage(report)
    s = report.summary
    info_hint = " (list them with --info)" if s["info"] and not show_info else ""
    out.print(f"{s['error']} error(s), {s['warning']} warning(s), {s['info']} info{info_hint} — "
              f"{s['notes']} note(s), {s['translations']} translation(s), "
              f"{s['terms_used']}/{s['terms']} terms used")
    raise typer.Exit(code)


def _print_usage(report) -> None:
    files = [n.display for n in report.notes]
    table = Table("term", "en", *files, "total", box=None)
    by_term = {t.zh: t for t in report.glossary.terms}
    rows = sorted(report.usage.items(), key=lambda kv: -sum(kv[1].values()))
    for zh, per_file in rows:
        term = by_term.get(zh)
        table.add_row(zh, term.en if term else "", *[str(per_file.get(f, 0)) for f in files],
                      str(sum(per_file.values())))
    out.print(table)


@glossary_app.command("suggest")
@handle_errors
def glossary_suggest(
    paths: Optional[List[Path]] = PathsArg,
    glossary: Optional[Path] = GlossaryOpt,
    format: SuggestFormat = typer.Option(SuggestFormat.yaml, "--format", "-f", help="yaml or json."),
    limit: Optional[int] = typer.Option(None, "--limit", "-n", min=1, help="At most N candidates."),
) -> None:
    """Suggest terms the glossary lacks, ready to paste as v1 YAML."""
    from .api import suggest_project
    from .suggest import to_yaml

    suggestions, problems = suggest_project(paths, glossary, limit)
    for problem in problems:
        err.print(f"warning: {problem.where}: {problem.message}", markup=False)
    if format is SuggestFormat.json:
        print_json({"suggestions": [s.to_json() for s in suggestions],
                    "summary": {"candidates": len(suggestions),
                                "from_parentheticals": sum(s.source == "parenthetical" for s in suggestions),
                                "recurring": sum(s.source == "recurring" for s in suggestions)}})
    else:
        sys.stdout.write(to_yaml(suggestions))


@app.command("translate")
@handle_errors
def translate(
    paths: List[Path] = typer.Argument(..., help="Notes: .md files or directories.",
                                       show_default=False),
    glossary: Optional[Path] = GlossaryOpt,
    engine: str = typer.Option("auto", "--engine", "-e",
                               help="auto (argos if a zh→en model is installed, else gloss), argos, "
                                    "gloss, llm or a plugin's engine; `zhen model list` lists them."),
    out_dir: Optional[Path] = typer.Option(None, "--out-dir", "-o",
                                           help="Write outputs here, mirroring relative paths."),
    no_memory: bool = typer.Option(False, "--no-memory", help="Neither read nor write the memory."),
    threads: int = typer.Option(0, "--threads", "-t", min=0, help="CTranslate2 threads (0: all cores)."),
    encoding: Optional[str] = typer.Option(None, "--encoding",
                                           help="Read notes in this encoding (e.g. gb18030)."),
    format: CheckFormat = typer.Option(CheckFormat.text, "--format", "-f", help="text or json."),
    model: Optional[str] = typer.Option(None, "--model", help="llm: the model to ask."),
    endpoint: Optional[str] = LLMEndpointOpt,
    temperature: Optional[float] = typer.Option(None, "--temperature", min=0,
                                                help="llm: sampling temperature (default 0)."),
    timeout: Optional[float] = typer.Option(None, "--timeout", help="llm: seconds per request."),
    concurrency: Optional[int] = typer.Option(None, "--concurrency", min=1,
                                              help="llm: requests in flight."),
    allow_remote: bool = AllowRemoteOpt,
) -> None:
    """Translate notes to English: writes x.en.md and the parallel x.zh-en.md."""
    from .translate import TranslateOptions, translate_paths

    settings = {"model": model, "endpoint": endpoint, "temperature": temperature,
                "timeout": timeout, "concurrency": concurrency,
                "allow_remote": True if allow_remote else None}
    options = TranslateOptions(engine=engine, out_dir=out_dir, use_memory=not no_memory,
                               threads=threads, encoding=encoding, engine_settings=settings)
    with _progress(format is CheckFormat.text) as progress:
        report = translate_paths(paths, glossary, options, progress=progress)
    for notice in report.notices:
        err.print("warning: " + notice, markup=False, highlight=False)
    if format is CheckFormat.json:
        print_json(report.to_json())
        raise typer.Exit(report.exit_code)
    for f in report.files:
        if f.error:
            err.print("error: " + f.error, markup=False, highlight=False)
    if report.findings:
        table = Table("severity", "check", "where", "message", box=None, pad_edge=False)
        for finding in report.findings:
            table.add_row(finding.severity, finding.check, finding.where, finding.message,
                          style=_STYLE[finding.severity])
        out.print(table)
    s = report.stats
    for f in report.files:
        if not f.error:
            out.print(f"wrote {f.english} and {f.parallel}", markup=False, highlight=False)
    out.print(f"{s['files']} file(s), {s['segments']} segments: {s['from_memory']} from memory, "
              f"{s['translated']} translated, {s['copied']} copied; {s['terms_locked']} terms locked, "
              f"{s['lock_fallbacks']} lock fallbacks, {s['lock_failures']} lock failures — engine: "
              f"{s['engine']}", markup=False, highlight=False)
    raise typer.Exit(report.exit_code)


class _progress:
    """A rich progress bar on stderr when it is a terminal; nothing otherwise."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.bar = None
        self.tasks: dict[str, int] = {}

    def __enter__(self):
        if not self.enabled:
            return None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        self.bar = Progress("[progress.description]{task.description}", BarColumn(),
                            MofNCompleteColumn(), TimeRemainingColumn(),
                            console=Console(stderr=True), transient=True)
        self.bar.start()
        return self.update

    def update(self, phase: str, done: int, total: int) -> None:
        if phase not in self.tasks:
            self.tasks[phase] = self.bar.add_task(phase, total=total)
        self.bar.update(self.tasks[phase], completed=done, total=total)

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()


@model_app.command("list")
@handle_errors
def model_list(
    format: CheckFormat = typer.Option(CheckFormat.text, "--format", "-f", help="text or json."),
    endpoint: Optional[str] = LLMEndpointOpt,
    allow_remote: bool = AllowRemoteOpt,
) -> None:
    """List the engines (with the llm server's models) and installed argos packages."""
    from .api import engine_statuses
    from .engines.argos import installed_packages, package_dirs

    engines, problems = engine_statuses({"endpoint": endpoint,
                                         "allow_remote": True if allow_remote else None})
    for problem in problems:
        err.print("warning: " + problem, markup=False, highlight=False)
    packages = installed_packages()
    if format is CheckFormat.json:
        print_json({"engines": [{"name": spec.name, "origin": spec.origin, "summary": spec.summary,
                                 "ready": status.ready, "status": status.summary, **status.details}
                                for spec, status in engines],
                    "package_dirs": [str(p) for p in package_dirs()],
                    "packages": [{"name": p.name, "path": str(p.path), "from": p.from_code,
                                  "to": p.to_code, "version": p.version, "usable": p.usable,
                                  "problems": p.problems} for p in packages]})
        return
    table = Table("engine", "ready", "status", "from", box=None, pad_edge=False)
    for spec, status in engines:
        table.add_row(spec.name, "yes" if status.ready else "no", status.summary, spec.origin)
    out.print(table)
    if not packages:
        out.print(f"no argos packages in {', '.join(str(p) for p in package_dirs())}; "
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
    import tempfile

    from .engines.argos import download_zh_en, install_package_file

    if file is None:
        with tempfile.TemporaryDirectory() as tmp:
            err.print("downloading translate-zh_en from the argos package index ...")
            package = install_package_file(download_zh_en(Path(tmp)))
    else:
        package = install_package_file(file)
    out.print(f"installed {package.name} ({package.from_code}→{package.to_code} "
              f"{package.version}) in {package.path}", markup=False, highlight=False)


app.add_typer(glossary_app, name="glossary")
app.add_typer(model_app, name="model")

from .cli_exchange import register as _register_exchange  # noqa: E402

_register_exchange(app, glossary_app)

from .cli_review import register as _register_review  # noqa: E402

_register_review(app)


def main() -> None:
    app(prog_name="zhen")
