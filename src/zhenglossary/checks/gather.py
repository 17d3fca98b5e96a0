"""What ``zhen glossary check`` reads of a project, note by note, and the checks run on it:
each note parsed once, its ``x.en.md`` and parallel file read back, and — for
``--jobs N`` — the notes checked in shards, in processes.

A shard is a list of notes. :func:`check_shard` reads them and runs every check whose
findings for a note depend on that note alone (``Check.per_note``); what the checks
across notes need (the notes' text and prose, their pairs, their parentheticals) comes
back with those findings, the parsed documents left behind. The main process then runs
the checks across notes on the whole project. The findings are the same for any way of
cutting the notes into shards: a per-note check's findings are its findings note by note
(``tests/test_check_jobs.py`` runs every per-note check on each note alone and on all of
them), and a finding said once per project (``Check.once``) is kept at its first note.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import NoteReadError
from ..findings import Finding
from ..glossary import Glossary
from ..notes import NoteFile, collect_notes, read_note
from .registry import REGISTRY, WARMERS, CheckContext, NoteText


def read_notes(files: list[NoteFile], encoding: str | None = None
               ) -> tuple[list[NoteText], list[Finding]]:
    """The notes of ``files``, each parsed once (the one parse of the note in a command)."""
    from ..document import parse_document
    from ..prose import prose_of

    notes: list[NoteText] = []
    findings: list[Finding] = []
    for note in files:
        try:
            text = read_note(note.path, encoding)
        except NoteReadError as exc:
            findings.append(Finding("note-unreadable", "error", exc.detail, note.display))
            continue
        doc = parse_document(text)
        notes.append(NoteText(note.path, note.display, text, prose_of(doc), doc=doc))
    return notes, findings


def load_notes(paths: list[Path], encoding: str | None = None
               ) -> tuple[list[NoteText], list[Finding]]:
    """Every note under ``paths`` (files, folders walked), read and parsed."""
    return read_notes(collect_notes(paths), encoding)


@dataclass
class Gathered:
    """A shard of notes as the checks read them."""
    notes: list[NoteText]
    findings: list[Finding] = field(default_factory=list)     # reading them, per-note checks
    translations: dict = field(default_factory=dict)  # note display → (x.en.md display, text;
    # None once a shard has run its per-note checks, which alone read it)
    pairs: list = field(default_factory=list)          # parallel.NotePairs per translated note
    untranslated: dict = field(default_factory=dict)   # note display → (line, block number)
    problems: dict = field(default_factory=dict)       # note display → why it has no pairs
    parentheticals: list | None = None                 # bilingual.note_sightings of the notes
    facts: dict = field(default_factory=dict)          # CheckContext.facts, computed ahead


UNCHECKED = ("translation not checked: the glossary has errors, which `zhen translate` refuses "
             "it for; fix them, then check again")


def gather(notes: list[NoteText], glossary: Glossary, layout=None,
           findings: list[Finding] | None = None) -> Gathered:
    """Each note's ``x.en.md`` and parallel file, read back (pairs with their status);
    ``layout``: where they are (a ``parallel.Layout``; None: beside each note)."""
    from ..parallel import Layout, ParallelFileError, carry_english, pairs_for
    from ..parallel.format import read_parallel_file

    layout = layout or Layout()

    out = Gathered(notes, list(findings or []))
    if glossary.errors:
        # `zhen translate` refuses this glossary, and every block's status (and every term
        # check of its English) depends on the entries it uses: judged against it, every
        # translation would look stale; so none is read (check_project says so once)
        for note in notes:
            out.problems[note.display] = UNCHECKED
        return out
    for note in notes:
        en, parallel = layout.paths(note.path)
        english = None
        if en.is_file():            # always read: a forbid typed into x.en.md is found
            try:
                english = read_note(en)
                out.translations[note.display] = (str(en), english)
            except NoteReadError as exc:
                out.findings.append(Finding("note-unreadable", "error", exc.detail, exc.path))
                out.problems[note.display] = f"cannot read its translation: {exc.detail}"
        try:
            if parallel.is_file():
                old = read_parallel_file(read_note(parallel), str(parallel))
                # a person's changes to x.en.md taken in as `zhen translate` takes them in:
                # each block is checked as the next translate will see it
                edits = carry_english(old, english) if english is not None else None
                note_pairs = pairs_for(note.display, note.text, parallel, old, glossary,
                                       note.doc, edits, str(en))
                out.pairs.append(note_pairs)
                out.untranslated[note.display] = _untranslated_lines(note.doc, note_pairs)
            else:
                out.problems.setdefault(note.display, "not translated yet — run `zhen "
                                        f"translate {note.display}`")
        except NoteReadError as exc:
            out.findings.append(Finding("note-unreadable", "error", exc.detail, exc.path))
            out.problems[note.display] = f"cannot read its translation: {exc.detail}"
        except ParallelFileError as exc:
            out.findings.append(Finding("parallel-unreadable", "error", exc.detail, exc.path,
                                        exc.line))
            out.problems[note.display] = f"cannot read its parallel file: {exc}"
    return out


def _untranslated_lines(doc, note_pairs) -> list[tuple[int, int]]:
    """(line, block number) of the note's Chinese blocks that its parallel file does not
    hold."""
    from ..prose import leaf_prose
    from ..textutil import has_cjk

    known = {p.source_sha for p in note_pairs.pairs}
    out = []
    for number, leaf in enumerate(doc.leaves, start=1):
        if doc.leaf_hash(leaf) not in known and leaf.kind != "code" and \
                has_cjk(leaf_prose(doc, leaf)):
            out.append((leaf.start_line + 1, number))
    return out


def context(shard: Gathered, glossary: Glossary, project_notes=None) -> CheckContext:
    return CheckContext(glossary, shard.notes, shard.translations, pairs=shard.pairs,
                        untranslated_blocks=shard.untranslated, project_notes=project_notes,
                        parentheticals=shard.parentheticals, facts=shard.facts)


def _registered() -> dict:
    """The registry with every check module's checks in it (importing them registers them)."""
    from . import lint as _lint, notes as _notes, translations as _translations  # noqa: F401

    return REGISTRY


def run(ctx: CheckContext, only: set[str] | None, part: str = "all") -> list[Finding]:
    """The findings of the registered checks (``part``: ``all``, ``per_note`` or
    ``project``, the checks across notes)."""
    findings: list[Finding] = []
    for item in _registered().values():
        if item.fn is None or (only is not None and item.id not in only):
            continue
        if part == "all" or (part == "per_note") == item.per_note:
            findings.extend(item.fn(ctx))
    return findings


def check_shard(files: list[NoteFile], glossary: Glossary, layout,
                encoding: str | None, only: set[str] | None) -> Gathered:
    """A shard read and its per-note checks run; returned without the parsed documents
    and what only the per-note checks read (what crosses to the main process is the
    notes' text, their pairs, the facts the checks across notes read, and findings)."""
    from ..bilingual import note_sightings

    notes, findings = read_notes(files, encoding)
    shard = gather(notes, glossary, layout, findings)
    shard.parentheticals = note_sightings(notes, frozenset(glossary.form_map))
    ctx = context(shard, glossary)
    shard.findings += run(ctx, only, "per_note")
    for warm in WARMERS:                 # what the checks across notes will ask of these
        warm(ctx)
    for note in notes:
        note.matched = tuple((m.start, m.end, m.form) for m in ctx.matches(note))
        note.doc = None
    # what only the per-note checks read stays behind too: each parallel file as read
    # (the pairs keep what the checks across notes and the review page read of it) and
    # the text of each x.en.md (the report counts them)
    for note_pairs in shard.pairs:
        note_pairs.file = None
    shard.translations = {note: (display, None) for note, (display, _) in
                          shard.translations.items()}
    return shard


def merge(shards: list[Gathered], order: list[str]) -> Gathered:
    """The shards as one, in the notes' order (``order``: note displays); a finding said
    once per project kept at its first note only."""
    rank = {display: k for k, display in enumerate(order)}
    shards = sorted(shards, key=lambda s: min((rank.get(n.display, len(rank)) for n in s.notes),
                                              default=len(rank)))
    notes = sorted((n for s in shards for n in s.notes), key=lambda n: rank[n.display])
    out = Gathered(notes, parentheticals=[])
    registry = _registered()        # in the main process, the checks may not be imported yet
    firsts: dict[tuple, Finding] = {}
    for shard in shards:
        out.translations.update(shard.translations)
        out.pairs += shard.pairs
        out.untranslated.update(shard.untranslated)
        out.problems.update(shard.problems)
        out.parentheticals += shard.parentheticals or []
        for name, table in shard.facts.items():
            out.facts.setdefault(name, {}).update(table)
        for f in shard.findings:
            once = registry[f.check].once if f.check in registry else ()
            if not once:
                out.findings.append(f)
                continue
            key = (f.check, *(f.extra.get(k) for k in once))
            if key not in firsts or rank.get(f.file, 0) < rank.get(firsts[key].file, 0):
                firsts[key] = f
    out.findings += firsts.values()
    note_rank = {id(n): rank[n.display] for n in notes}
    out.pairs.sort(key=lambda p: rank.get(p.note, len(rank)))
    out.parentheticals.sort(key=lambda item: note_rank[id(item[0])])  # stable: offsets kept
    return out
