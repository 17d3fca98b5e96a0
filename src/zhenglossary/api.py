"""What the CLI calls: pure functions from paths and options to reports. No printing."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .checks import CheckContext, NoteText, declare, run_checks
from .errors import NoteReadError, PathNotFound
from .findings import Finding, sort_findings, summarize
from .glossary import Glossary, load_glossary, resolve_glossary
from .notes import collect_notes, read_note
from .pairs import pairs_for, parallel_path
from .prose import prose_view

declare("note-unreadable", "error", "notes", "Every note can be read as UTF-8 text")


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


def load_notes(paths: list[Path], encoding: str | None = None) -> tuple[list[NoteText], list[Finding]]:
    notes: list[NoteText] = []
    findings: list[Finding] = []
    for note in collect_notes(paths):
        try:
            text = read_note(note.path, encoding)
        except NoteReadError as exc:
            findings.append(Finding("note-unreadable", "error", exc.detail, note.display))
            continue
        notes.append(NoteText(note.path, note.display, text, prose_view(text)))
    return notes, findings


def translation_path(note: Path) -> Path:
    return note.with_name(note.name[:-len(".md")] + ".en.md")


@dataclass
class CheckReport:
    glossary: Glossary
    notes: list[NoteText]
    findings: list[Finding]
    usage: dict[str, dict[str, int]] = field(default_factory=dict)
    translations: int = 0
    pairs: dict = field(default_factory=dict)     # note display → pairs.NotePairs
    problems: dict = field(default_factory=dict)  # note display → why it has no pairs

    @property
    def summary(self) -> dict:
        counts = summarize(self.findings)
        used = sum(1 for per_file in self.usage.values() if per_file)
        return {**counts, "notes": len(self.notes), "terms": len(self.glossary.terms),
                "terms_used": used,
                "translations": self.translations}


def check_project(paths: list[Path] | None, glossary_option: Path | None,
                  only: set[str] | None = None) -> CheckReport:
    glossary_path = resolve_glossary(glossary_option)
    glossary = load_glossary(glossary_path)
    if not paths:
        paths = default_note_paths(glossary_path)
    notes, findings = load_notes(paths)
    translations, pairs, untranslated, problems = {}, [], {}, {}
    for note in notes:
        parallel = parallel_path(note.path)
        en = translation_path(note.path)
        try:
            if parallel.is_file():
                note_pairs = pairs_for(note.path, note.display, note.text, parallel,
                                       read_note(parallel), glossary)
                pairs.append(note_pairs)
                untranslated[note.display] = _untranslated_lines(note.text, note_pairs)
            else:
                problems[note.display] = f"not translated yet — run `zhen translate {note.display}`"
                if en.is_file():
                    translations[note.display] = (str(en), read_note(en))
        except NoteReadError as exc:
            findings.append(Finding("note-unreadable", "error", exc.detail, exc.path))
            problems[note.display] = f"cannot read its translation: {exc.detail}"
    ctx = CheckContext(glossary, notes, translations, pairs=pairs,
                       untranslated_blocks=untranslated)
    findings += [f for f in glossary.findings if only is None or f.check in only]
    findings += run_checks(ctx, only)
    from .checks.notes import usage_counts

    return CheckReport(glossary, notes, sort_findings(findings), usage_counts(ctx),
                       len(translations) + len(pairs), {p.note: p for p in pairs}, problems)


def _untranslated_lines(text: str, note_pairs) -> list[tuple[int, int]]:
    """(line, block number) of the note's Chinese blocks that its parallel file does not
    hold."""
    from .document import parse_document
    from .render import short_hash
    from .textutil import has_cjk

    known = {p.source_sha for p in note_pairs.pairs}
    doc = parse_document(text)
    out = []
    for number, leaf in enumerate(doc.leaves, start=1):
        start, end = doc.span(leaf.start_line, leaf.end_line)
        block = text[start:end]
        if short_hash(block) not in known and leaf.kind != "code" and has_cjk(prose_view(block)):
            out.append((leaf.start_line + 1, number))
    return out


def suggest_project(paths: list[Path] | None, glossary_option: Path | None,
                    limit: int | None = None):
    from .suggest import suggest

    glossary_path = resolve_glossary(glossary_option)
    glossary = load_glossary(glossary_path, strict=True)
    if not paths:
        paths = default_note_paths(glossary_path)
    notes, findings = load_notes(paths)
    return suggest(glossary, notes, limit=limit), findings
