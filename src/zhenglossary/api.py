"""The façade: every `zhen` command calls one function here (sqlite-utils' one-object idea,
as plain functions). Paths and options in, reports out; no printing, no exiting. The CLI
formats what these return and nothing else.

Why this module is long: one small function per command, and each command's report type
beside it; they share the path, glossary and notes resolution at the top. Splitting it by
command would spread that shared resolution over many modules.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .checks import NoteText
from .checks.gather import context, gather, load_notes, read_notes
from .checks.gather import run as run_checks
from .errors import NoteReadError, PathNotFound, ZhenError
from .findings import Finding, sort_findings, summarize
from .glossary import Glossary, load_glossary, resolve_glossary
from .notes import ENGLISH_SUFFIX, collect_notes, read_note
from .parallel import COUNTED as STATUS_NAMES  # the statuses `zhen status` counts
from .parallel import Layout, ParallelFileError


def layout_of(out_dir: Path | None, glossary_path: Path | None) -> Layout:
    """Where the notes' outputs are: beside each note, or under ``out_dir`` mirroring the
    project — the folder of the glossary, else the current directory."""
    return Layout(out_dir, glossary_path.parent if glossary_path is not None else Path("."))


def stray_findings(layout: Layout, paths: list[Path], notes) -> list[Finding]:
    """``output-stray`` for each parallel file whose note is gone, where the outputs of
    ``notes`` (the ``NoteFile``s read from ``paths``) are."""
    from .parallel.strays import find_strays

    return [stray.finding() for stray in find_strays(layout, paths, [n.path for n in notes])]


def default_note_paths(glossary_path: Path) -> list[Path]:
    """``notes/`` in the current directory, else beside the glossary."""
    here = Path("notes")
    if here.exists():
        return [here]
    beside = glossary_path.parent / "notes"
    if beside.exists():
        return [beside]
    raise PathNotFound(f"no notes/ directory here or beside {glossary_path}; pass the notes to "
                       "check, e.g. `zhen glossary check path/to/notes`")


@dataclass
class CheckReport:
    glossary: Glossary
    notes: list[NoteText]
    findings: list[Finding]
    usage: dict[str, dict[str, int]] = field(default_factory=dict)
    translations: int = 0
    pairs: dict = field(default_factory=dict)     # note display → pairs.NotePairs
    problems: dict = field(default_factory=dict)  # note display → why it has no pairs
    notices: list[str] = field(default_factory=list)   # said once, before the findings

    def usage_rows(self) -> tuple[list[str], list[tuple[str, str, list[int], int]]]:
        """(note columns, rows of (zh, en, count per note, total)), most used first."""
        files = [n.display for n in self.notes]
        by_term = {t.zh: t for t in self.glossary.terms}
        rows = sorted(self.usage.items(), key=lambda kv: -sum(kv[1].values()))
        return files, [(zh, by_term[zh].en if zh in by_term else "",
                        [per_file.get(f, 0) for f in files], sum(per_file.values()))
                       for zh, per_file in rows]

    @property
    def summary(self) -> dict:
        counts = summarize(self.findings)
        used = sum(1 for per_file in self.usage.values() if per_file)
        return {**counts, "notes": len(self.notes), "terms": len(self.glossary.terms),
                "terms_used": used,
                "translations": self.translations}


def check_project(paths: list[Path] | None, glossary_option: Path | None,
                  only: set[str] | None = None, out_dir: Path | None = None,
                  encoding: str | None = None, jobs: int | None = 1) -> CheckReport:
    """``jobs`` > 1: the notes checked in that many processes when there is enough to
    check (the same findings as one process, :mod:`.checks.gather`); None: the machine's
    cores."""
    glossary_path = resolve_glossary(glossary_option)
    glossary = load_glossary(glossary_path)
    notices: list[str] = []
    explicit = bool(paths)
    if not paths:
        try:
            paths = default_note_paths(glossary_path)
        except PathNotFound as exc:          # a new project: the glossary alone is checked
            paths = []
            notices.append(f"{exc} — checked the glossary only")
    files = collect_notes(paths) if paths else []
    if files and glossary.errors:
        notices.append(f"the notes' translations were not checked: {glossary.path} has "
                       f"{len(glossary.errors)} error(s), and `zhen translate` refuses it until "
                       "they are fixed (each block's status depends on the entries it uses)")
    from .workers import check_in_processes, default_jobs

    layout = layout_of(out_dir, glossary_path)
    shard = check_in_processes(files, glossary, glossary_path, layout, encoding, only,
                               default_jobs() if jobs is None else jobs)
    if shard is None:                                    # one process
        notes, findings = read_notes(files, encoding)
        shard = gather(notes, glossary, layout, findings)
        part = "all"
    else:
        part = "project"
    ctx = context(shard, glossary, _project_notes(glossary_path, shard.notes, explicit,
                                                  encoding))
    findings = [f for f in glossary.findings if only is None or f.check in only]
    findings += shard.findings + run_checks(ctx, only, part)
    if only is None or "output-stray" in only:
        findings += stray_findings(layout, paths, files)
    from . import english
    from .checks.notes import usage_counts

    english.save()                  # what the English comparisons asked lemminflect, for next time
    return CheckReport(glossary, shard.notes, sort_findings(findings), usage_counts(ctx),
                       len(set(shard.translations) | {p.note for p in shard.pairs}),
                       {p.note: p for p in shard.pairs}, shard.problems, notices)


def _project_notes(glossary_path: Path, notes: list[NoteText], explicit: bool,
                   encoding: str | None = None):
    """Every note of the project (``notes/`` here or beside the glossary) when only some were
    asked for: a term another note uses is not unused (term-unused). None: ``notes`` are
    the project."""
    if not explicit:
        return None
    beside = glossary_path.parent / "notes"
    try:
        project, _ = load_notes([beside] if beside.is_dir() else default_note_paths(glossary_path),
                                encoding)
    except (PathNotFound, ZhenError):
        return None
    checked = {n.path.resolve() for n in notes}
    return notes + [n for n in project if n.path.resolve() not in checked]


def suggest_project(paths: list[Path] | None, glossary_option: Path | None,
                    limit: int | None = None, encoding: str | None = None):
    from . import english
    from .suggest import suggest

    glossary_path = resolve_glossary(glossary_option)
    glossary = load_glossary(glossary_path, strict=True)
    if not paths:
        paths = default_note_paths(glossary_path)
    notes, findings = load_notes(paths, encoding)
    found = suggest(glossary, notes, limit=limit)
    english.save()                  # what the English comparisons asked lemminflect, for next time
    return found, findings


def write_candidates(path: Path, suggestions) -> None:
    """`zhen glossary suggest --out FILE`: the candidates file a curator reviews and then
    imports (``zhen glossary import FILE``)."""
    from .fileio import write_atomic
    from .suggest import to_yaml

    write_atomic(path, to_yaml(suggestions, candidates_file=True))


def engine_statuses(overrides: dict | None = None):
    """Every registered engine with its status (can it run here, with what), and the
    plugins that could not be loaded. Settings come from the project of the glossary
    found from the current directory (or the current directory)."""
    from .engines import EngineContext, engine_specs
    from .errors import GlossaryNotFound

    try:
        root = resolve_glossary(None).parent
    except GlossaryNotFound:
        root = Path.cwd()
    registry = engine_specs()
    context = EngineContext(None, root=root, overrides={k: v for k, v in (overrides or {}).items()
                                                        if v is not None})
    statuses = []
    for spec in registry.specs.values():
        try:
            status = spec.status(context) if spec.status else None
        except Exception as exc:           # a plugin's status must not break the listing
            from .engines import EngineStatus

            status = EngineStatus(False, f"its status check failed ({type(exc).__name__}: {exc})")
        if status is None:
            from .engines import EngineStatus

            status = EngineStatus(True, spec.summary)
        statuses.append((spec, status))
    return statuses, registry.problems


def suggest_summary(suggestions) -> dict:
    return {"candidates": len(suggestions),
            "from_parentheticals": sum(s.source == "parenthetical" for s in suggestions),
            "recurring": sum(s.source == "recurring" for s in suggestions)}


def list_checks():
    """Every registered check (the rows of `zhen glossary check --list-checks`)."""
    from .checks import all_checks

    return all_checks()


def translate_project(paths: list[Path], glossary_option: Path | None, *, progress=None,
                      notify=None, dry_run=False, **options):
    """`zhen translate`: ``options`` are the fields of ``translate.TranslateOptions``;
    ``notify(message)`` hears each notice as soon as it is known (they are also in the
    report). ``dry_run``: the requests a first run sends instead (translate.DryRun)."""
    from .translate import TranslateOptions, dry_run as planned, translate_paths

    if dry_run:
        return planned(paths, glossary_option, TranslateOptions(**options))
    from . import english

    try:
        return translate_paths(paths, glossary_option, TranslateOptions(**options),
                               progress=progress, notify=notify)
    finally:
        english.save()              # what lemminflect was asked (its guesses), for next time


def list_models():
    """(the directories argos packages are looked for in, the packages found there)."""
    from .engines.argos import installed_packages, package_dirs

    return package_dirs(), installed_packages()


def install_model(file: Path | None = None):
    """Install a local .argosmodel, or download and install translate-zh_en (``file`` None)."""
    from .engines.argos import download_zh_en, install_package_file

    if file is not None:
        return install_package_file(file)
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        return install_package_file(download_zh_en(Path(tmp)))


@dataclass
class PairsExport:
    text: str
    units: int
    notes: int
    counts: dict[str, int]     # exported status → number of pairs


def export_project_pairs(paths: list[Path], glossary_option: Path | None, fmt: str,
                         warn=lambda message: None, out_dir: Path | None = None,
                         encoding: str | None = None) -> PairsExport:
    """`zhen export`: the translated block pairs of ``paths`` as TMX or XLIFF text. Problems
    that do not stop the export go to ``warn`` as they are found."""
    from .errors import UsageError
    from .exchange import collect_pairs, export_tm, exportable

    # each pair's status is decided against the glossary as `zhen translate` reads it
    glossary_path, gloss = _glossary_as_translate_reads_it(glossary_option)
    if glossary_path is None:
        warn("no glossary.yaml found; exporting without the glossary-term notes")
    notes, warnings = collect_pairs(paths, gloss, encoding=encoding,
                                    layout=layout_of(out_dir, glossary_path))
    for warning in warnings:
        warn(warning)
    if not notes:
        raise UsageError("none of the notes has a parallel file (x.zh-en.md) to export; run "
                         "`zhen translate` on them first")
    units = exportable(notes)
    text = export_tm(notes, fmt)
    from .exchange.tm import XLIFF_STATES

    counts = {s: sum(1 for _, _, status in units if status == s) for s in XLIFF_STATES}
    return PairsExport(text, len(units), len(notes), counts)


def export_glossary_file(glossary_option: Path | None, fmt: str) -> tuple[Path, int, str]:
    """`zhen glossary export`: (glossary path, number of terms, TBX or TSV text)."""
    from .exchange import export_glossary

    path = resolve_glossary(glossary_option)
    gloss = load_glossary(path, strict=True)
    return path, len(gloss.terms), export_glossary(gloss, fmt)


@dataclass
class GlossaryImport:
    path: Path
    format: str
    report: object             # exchange.MergeReport
    warnings: list[str]
    written: bool
    created: bool


def import_glossary_file(file: Path, glossary_option: Path | None,
                         dry_run: bool = False) -> GlossaryImport:
    """`zhen glossary import`: add what ``file`` has and the glossary lacks (unless dry_run)."""
    from .exchange import apply_merge, load_for_merge, merge, read_import
    from .glossary import find_glossary

    path = glossary_option if glossary_option is not None else find_glossary()
    gloss, text = load_for_merge(path)
    imported = read_import(file)
    report = merge(gloss, imported.candidates)
    written = False
    if report.added and not dry_run:
        apply_merge(path, text, report, glossary=gloss,
                    comment=f"--- imported from {file.name} by `zhen glossary import` ---")
        written = True
    return GlossaryImport(path, imported.format, report, imported.warnings + report.warnings,
                          written, not text)


def accept_suggestions(accepted: list[tuple[str, str, tuple[str, ...]]],
                       glossary_option: Path | None) -> GlossaryImport:
    """`zhen glossary suggest --interactive`: append the (zh, en, variants) a curator accepted
    to glossary.yaml, as `glossary import` does (below a comment, every byte above it
    kept; conflicts reported, never applied)."""
    from .exchange import apply_merge, load_for_merge, merge
    from .exchange.entries import make_candidate
    from .glossary import find_glossary

    path = glossary_option if glossary_option is not None else find_glossary()
    gloss, text = load_for_merge(path)
    where = "zhen glossary suggest --interactive"
    candidates = [make_candidate(zh, en, where, i + 1, variants=variants)
                  for i, (zh, en, variants) in enumerate(accepted)]
    report = merge(gloss, candidates)
    written = False
    if report.added:
        apply_merge(path, text, report, glossary=gloss,
                    comment="--- accepted in `zhen glossary suggest --interactive` ---")
        written = True
    return GlossaryImport(path, "suggest", report, report.warnings, written, not text)


@dataclass
class ReviewPage:
    inputs: object             # review.ReviewInputs
    html: str
    counts: dict

    def write(self, out: Path) -> None:
        from .fileio import write_atomic

        write_atomic(out, self.html)


def review_page(paths: list[Path] | None, glossary_option: Path | None,
                generated: str, out_dir: Path | None = None,
                encoding: str | None = None) -> ReviewPage:
    """`zhen review`: the page for ``paths`` (not written: ``ReviewPage.write``)."""
    from .review import render_review, review_counts, review_inputs

    inputs = review_inputs(check_project(paths, glossary_option, out_dir=out_dir,
                                         encoding=encoding))
    return ReviewPage(inputs, render_review(inputs, generated=generated), review_counts(inputs))


# --------------------------------------------------------------------------- init

# what `zhen init` adds to .gitignore: the outputs zhen can always write again. The
# parallel files (x.zh-en.md) stay in git: they hold the English people reviewed.
GITIGNORE_BLOCK = ("# zhen: generated English (write it again with `zhen translate`), the memory "
                   "and cache, the review page, temp files a killed run left", "*" + ENGLISH_SUFFIX,
                   ".zhen/", "review.html", ".*.md.*.tmp")


@dataclass
class InitReport:
    glossary: Path
    glossary_written: bool        # False: one was there already (and --force not given)
    gitignore: Path
    ignored: list[str]            # the lines added to .gitignore (empty: all there already)


def starter_glossary() -> str:
    """The commented starter glossary `zhen init` writes (package data)."""
    from importlib import resources

    return (resources.files("zhenglossary") / "data" / "starter_glossary.yaml").read_text("utf-8")


def init_project(root: Path, force: bool = False) -> InitReport:
    """`zhen init`: a starter ``glossary.yaml`` in ``root`` (kept if there, unless
    ``force``), and the generated outputs added to ``root/.gitignore`` (lines it has are
    not added twice)."""
    from .fileio import write_atomic
    from .glossary import GLOSSARY_NAME

    glossary = root / GLOSSARY_NAME
    written = force or not glossary.exists()
    if written:
        write_atomic(glossary, starter_glossary())
    gitignore = root / ".gitignore"
    text = gitignore.read_text("utf-8") if gitignore.is_file() else ""
    have = {line.strip() for line in text.splitlines()}
    missing = [line for line in GITIGNORE_BLOCK[1:] if line not in have]
    if missing:
        block = "\n".join([GITIGNORE_BLOCK[0], *missing]) + "\n"
        write_atomic(gitignore, text + ("\n" if text and not text.endswith("\n") else "")
                     + ("\n" if text.strip() else "") + block)
    return InitReport(glossary, written, gitignore, missing)


@dataclass
class NoteStatus:
    note: str
    parallel: str | None
    counts: dict[str, int]            # PairStatus value (and "orphaned") → blocks
    problem: str = ""                 # why there are no counts (not translated, unreadable)
    stops: bool = False               # `zhen translate` stops on this note (an output beside
    #                                   it that it cannot read, or x.en.md changes it cannot carry)


@dataclass
class StatusReport:
    notes: list[NoteStatus]
    fail_on: tuple[str, ...] = ()
    strays: list[Finding] = field(default_factory=list)   # parallel files whose note is gone

    @property
    def total(self) -> dict[str, int]:
        return {k: sum(n.counts.get(k, 0) for n in self.notes) for k in STATUS_NAMES}

    @property
    def exit_code(self) -> int:
        """1 when a note has blocks in a ``fail_on`` status (or its outputs cannot be read
        or carried), else 0."""
        failing = any(self.total.get(s, 0) for s in self.fail_on)
        return 1 if failing or any(n.stops for n in self.notes) else 0

    def to_json(self) -> dict:
        return {"notes": [vars(n) for n in self.notes], "total": self.total,
                "fail_on": list(self.fail_on), "exit_code": self.exit_code,
                "strays": [f.to_json() for f in self.strays]}


def _glossary_as_translate_reads_it(glossary_option: Path | None) -> tuple[Path | None, Glossary]:
    """The glossary as `zhen translate` loads it: one with an error finding is refused
    (:class:`GlossaryError`, exit 2, naming the first), since every block's status is
    decided against the entries it uses; none found is an empty glossary, unless one was
    named."""
    from .errors import GlossaryNotFound

    try:
        path = resolve_glossary(glossary_option)
    except GlossaryNotFound:
        if glossary_option is not None:
            raise
        return None, Glossary([])
    return path, load_glossary(path, strict=True)


def status_project(paths: list[Path] | None, glossary_option: Path | None, *,
                   out_dir: Path | None = None, encoding: str | None = None,
                   fail_on: tuple[str, ...] = ()) -> StatusReport:
    """`zhen status`: each note's blocks by review status, decided as `zhen translate` would
    (:func:`parallel.decide`), against the note, its outputs (``x.en.md``'s changes by hand
    taken in: :func:`parallel.read_prior`) and the glossary as they are now. Nothing is
    written."""
    from .errors import UsageError
    from .parallel import carry_over, edit_check, read_prior, status_counts

    unknown = [s for s in fail_on if s not in STATUS_NAMES]
    if unknown:
        raise UsageError(f"--fail-on {','.join(unknown)}: not a status; use a comma-separated "
                         f"list of {', '.join(STATUS_NAMES)}")
    glossary_path, gloss = _glossary_as_translate_reads_it(glossary_option)
    if not paths:
        paths = default_note_paths(glossary_path or Path("glossary.yaml"))
    from .document import parse_document

    out: list[NoteStatus] = []
    layout = layout_of(out_dir, glossary_path)
    files = collect_notes(paths)
    for note in files:
        en, par = layout.paths(note.path)
        shown = str(par) if par.exists() else None
        try:
            text = read_note(note.path, encoding)
        except NoteReadError as exc:
            out.append(NoteStatus(note.display, shown, {}, str(exc), stops=shown is not None))
            continue
        try:
            prior = read_prior(en, par, note=note.path if out_dir is not None else None)
        except ParallelFileError as exc:
            out.append(NoteStatus(note.display, shown, {}, f"{exc}; `zhen translate` stops "
                                  "on this note", stops=True))
            continue
        doc = parse_document(text)
        counts = status_counts(carry_over(doc, prior.parallel, gloss, edit_check(doc, gloss)))
        if prior.parallel is None:          # every block pending
            out.append(NoteStatus(note.display, None, counts,
                                  f"not translated yet — run `zhen translate {note.display}`"))
        else:
            out.append(NoteStatus(note.display, shown, counts))
    return StatusReport(out, tuple(fail_on), stray_findings(layout, paths, files))


@dataclass
class MarkReport:
    parallel: str
    marked: list[int]
    skipped: list[tuple[int, str]]    # (block, why it was not marked)
    superseded: list[int] = field(default_factory=list)   # marked stale blocks whose quoted
    #                                   earlier English (a person's) the next translate drops
    passed_over: list[int] = field(default_factory=list)  # of ``skipped``, blocks --all passes
    #                                   over by design: a person's English already, or a block
    #                                   no longer in the note

    @property
    def exit_code(self) -> int:
        """1 when a block asked for was skipped; --all passing over a person's English (or a
        block the note no longer has) is no failure."""
        return 1 if any(k not in self.passed_over for k, _ in self.skipped) else 0


def mark_blocks(note_path: Path, blocks: list[int], status: str = "reviewed", *,
                glossary_option: Path | None = None, out_dir: Path | None = None,
                every: bool = False, encoding: str | None = None) -> MarkReport:
    """`zhen mark`: set ``status`` (reviewed, or machine to take a review back) on blocks of a
    note's parallel file; only their ``en`` markers' lines change."""
    from .document import parse_document
    from .errors import UsageError
    from .fileio import write_atomic
    from .parallel import PairStatus, carry_over, edit_check, read_prior, set_status

    if status not in ("reviewed", "machine"):
        raise UsageError(f"--as {status}: use reviewed or machine")
    notes = collect_notes([note_path])
    if len(notes) != 1:
        raise UsageError(f"{note_path}: `zhen mark` takes one note, not a folder")
    note = notes[0]
    glossary_path, gloss = _glossary_as_translate_reads_it(glossary_option)
    en, par = layout_of(out_dir, glossary_path).paths(note.path)
    if not par.exists():
        raise PathNotFound(f"{par}: no parallel file; run `zhen translate {note.display}` first")
    # as `zhen translate` will see each block: x.en.md's changes by hand are a person's English
    prior = read_prior(en, par, note=note.path if out_dir is not None else None)
    old = prior.parallel
    doc = parse_document(read_note(note.path, encoding))
    carry = carry_over(doc, old, gloss, edit_check(doc, gloss))
    by_block = {s.old.index: s for s in carry.states.values() if s.old is not None}
    known = {b.index: b for b in old.blocks}
    current = {doc.leaf_hash(leaf) for leaf in doc.leaves}
    wanted = sorted(known) if every else blocks
    targets, skipped, persons = set(), [], []      # persons: passed over by design
    for index in wanted:
        block, state = known.get(index), by_block.get(index)
        if block is None:
            skipped.append((index, "no such block in the parallel file"))
        elif block.same:
            if not every:
                skipped.append((index, "nothing to translate in it"))
        elif state is None and block.source_sha not in current:
            skipped.append((index, "its block is no longer in the note"))
            persons.append(index)            # nothing of the note's to mark
        elif state is None or state.status is PairStatus.PENDING:
            skipped.append((index, "its source changed since it was translated; run "
                                   f"`zhen translate {note.display}` first"))
        elif state.status in (PairStatus.EDITED, PairStatus.INVALID):
            where = (f" (in {en.name})" if prior.english is not None
                     and index in prior.english.edits else "")
            skipped.append((index, f"its English was edited by hand{where} (a person's "
                                   "already)"))
            persons.append(index)
        elif str(state.status) != status or block.status == "stale":
            targets.add(index)
    text = par.read_text("utf-8")
    new, marked = set_status(text, targets, status)
    if marked:
        write_atomic(par, new)
    superseded = sorted(k for k in marked if known[k].status == "stale" and known[k].was is not None)
    return MarkReport(str(par), sorted(marked), skipped, superseded,
                      persons if every else [])
