"""`zhen translate`: translate notes to x.en.md and the parallel x.zh-en.md.

Exit codes: 0 clean; 1 findings or failed files; 2 cannot run (bad usage, no glossary,
missing model for an explicit engine).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import List, Optional

import typer

from .console import (CheckFormat, allow_remote_option, encoding_option, error_line,
                      glossary_option, handle_errors, llm_endpoint_option, print_findings,
                      print_json, raw, say, warn)


@handle_errors
def translate(
    paths: List[Path] = typer.Argument(..., help="Notes: .md files or directories.",
                                       show_default=False),
    glossary: Optional[Path] = glossary_option(),
    engine: str = typer.Option("auto", "--engine", "-e",
                               help="auto (argos if a zh→en model is installed, else gloss), argos, "
                                    "gloss, llm or a plugin's engine; `zhen model list` lists them."),
    out_dir: Optional[Path] = typer.Option(None, "--out-dir",
                                           help="Write outputs here, at each note's path from the project root."),
    no_memory: bool = typer.Option(False, "--no-memory", help="Neither read nor write the memory."),
    threads: int = typer.Option(0, "--threads", "-t", min=0, help="CTranslate2 threads (0: all cores)."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1,
                                       help="Processes for the gloss engine (default: the "
                                            "machine's cores; argos and llm use their own)."),
    device: Optional[str] = typer.Option(None, "--device",
                                         help="argos: auto (CUDA when CTranslate2 sees a GPU, "
                                              "else the CPU), cpu or cuda."),
    encoding: Optional[str] = encoding_option(),
    format: CheckFormat = typer.Option(CheckFormat.text, "--format", "-f", help="text or json."),
    model: Optional[str] = typer.Option(None, "--model", help="llm: the model to ask."),
    endpoint: Optional[str] = llm_endpoint_option(),
    temperature: Optional[float] = typer.Option(None, "--temperature", min=0,
                                                help="llm: sampling temperature (default 0)."),
    timeout: Optional[float] = typer.Option(None, "--timeout", help="llm: seconds per request."),
    concurrency: Optional[int] = typer.Option(None, "--concurrency", min=1,
                                              help="llm: requests in flight."),
    batch: Optional[int] = typer.Option(None, "--batch", min=1,
                                        help="llm: sentences per request (default 8)."),
    max_tokens: Optional[int] = typer.Option(None, "--max-tokens", min=1,
                                             help="llm: answer length limit per request "
                                                  "(default 4096)."),
    allow_remote: bool = allow_remote_option(),
    force: bool = typer.Option(False, "--force",
                               help="Write over outputs zhen did not write, or that a person "
                                    "changed in a way it cannot carry into the parallel file."),
    dry_run: bool = typer.Option(False, "--dry-run",
                                 help="llm: print the requests a first run sends (every "
                                      "sentence), without contacting the server; writes "
                                      "nothing."),
) -> None:
    """Translate notes to English: writes x.en.md and the parallel x.zh-en.md."""
    from ..api import translate_project
    from ..workers import default_jobs

    settings = {"device": device, "model": model, "endpoint": endpoint, "temperature": temperature,
                "timeout": timeout, "concurrency": concurrency, "batch": batch,
                "max_tokens": max_tokens,
                "allow_remote": True if allow_remote else None}
    if dry_run:
        planned = translate_project(paths, glossary, dry_run=True, engine=engine,
                                    out_dir=out_dir, encoding=encoding,
                                    engine_settings=settings, force=force)
        for notice in planned.notices:
            warn(notice)
        if format is CheckFormat.json:
            print_json(planned.to_json())
            return
        for k, request in enumerate(planned.requests, 1):
            assumed = (" — assumed: [llm] server is auto, and the kind is detected only when "
                       "zhen connects") if request.get("assumed") else ""
            raw(f"# request {k} of {len(planned.requests)}: {request['method']} {request['url']} "
                f"(server: {request['server']}{assumed})")
            raw(json.dumps(request["body"], ensure_ascii=False, indent=2))
        raw(f"# {len(planned.requests)} request(s) for {planned.sentences} sentence(s); nothing "
            "was sent")
        return
    with _progress(format is CheckFormat.text) as progress:
        # notices (no glossary, no model: a dictionary gloss) print as soon as they are known
        report = translate_project(paths, glossary, engine=engine, out_dir=out_dir,
                                   use_memory=not no_memory, threads=threads,
                                   encoding=encoding, engine_settings=settings, force=force,
                                   jobs=jobs or default_jobs(),
                                   progress=progress, notify=warn)
    if format is CheckFormat.json:
        print_json(report.to_json())
        raise typer.Exit(report.exit_code)
    for f in report.files:
        if f.error:
            error_line(f.error)
    if report.findings:
        print_findings(report.findings)
    s = report.stats
    for f in report.files:
        if not f.error and not f.unchanged:
            say(f"wrote {f.english} and {f.parallel}")
    say(f"{s['files']} file(s)" + (f" ({s['unchanged_files']} unchanged since the last run, "
                                  "not read again)" if s["unchanged_files"] else "")
        + f", {s['segments']} segments: {s['from_memory']} from memory, "
        f"{s['translated']} translated, {s['copied']} copied; {s['terms_locked']} terms locked, "
        f"{s['lock_fallbacks']} lock fallbacks, {s['lock_failures']} lock failures; "
        f"{s['validated_blocks']} blocks validated, {s['invalid_blocks']} failed"
        + (f", {s['invalid_edits']} hand edit(s) failing it (kept)" if s["invalid_edits"] else "")
        + f" — engine: {s['engine']}")
    met = s.get("glossary_met")
    if met and sum(met.values()):
        say(f"llm: {met['first']} sentence(s) met the glossary on the first answer, "
            f"{met['retry']} on a retry, {met['masked']} with their terms masked; "
            f"{met['fallback']} translated by the fallback engine")
    b = s["blocks"]
    say(f"blocks: {b['machine']} machine, {b['reviewed']} reviewed, {b['edited']} edited, "
        f"{b['stale']} stale, {b['invalid']} invalid"
        + (f", {s['orphaned_edits']} orphaned edit(s)" if s["orphaned_edits"] else "")
        + (f"; {s['kept_by_person']} segment(s) kept as a person wrote or reviewed them, not "
           "sent to the engine" if s["kept_by_person"] else ""))
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
