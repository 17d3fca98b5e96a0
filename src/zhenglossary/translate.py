"""``zhen translate``: notes in, ``x.en.md`` and ``x.zh-en.md`` out. No printing here.

One pass over all files: parse → segment and mask → look every engine input up in the
translation memory → translate the misses of *all* files in large batches (the model
loads only if something misses) → verify each segment's term lock, falling back to
other hypotheses and then to piece-wise translation → render → write atomically.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from .checks import declare
from .document import parse_document
from .engines import EngineContext, create_engine
from .engines.base import Engine, EngineOutput
from .errors import NoteReadError, OutputError
from .fileio import write_atomic
from .findings import Finding
from .glossary import Glossary, load_glossary, resolve_glossary
from .locking import (Segment, check_hypothesis, copy_english, forbidden_in, join_pieces,
                      plan_document, restore, split_pieces)
from .memory import Memory, NoMemory, memory_key
from .notes import NoteFile, collect_notes, is_generated, read_note
from .paths import state_dir
from .render import (GLOSS_BANNER, leaf_texts, read_parallel, reindent, render_english,
                     render_parallel, short_hash)
from .textutil import has_cjk

Progress = Callable[[str, int, int], None]        # (phase, done, total)

declare("engine-fallback", "warning", "translations",
        "A segment the chosen engine failed on was translated by the fallback engine")

@dataclass
class TranslateOptions:
    engine: str = "auto"                 # auto or a registered engine (engines.engine_names)
    engine_settings: dict = field(default_factory=dict)   # flags for the engine (--model, ...)
    out_dir: Path | None = None
    use_memory: bool = True
    threads: int = 0
    encoding: str | None = None
    num_hypotheses: int = 4              # asked of engines whose placeholders may break
    batch_size: int = 128                # segments per engine call (and per memory commit)


@dataclass
class FileResult:
    source: str
    english: str | None = None
    parallel: str | None = None
    segments: int = 0
    error: str | None = None


@dataclass
class TranslateReport:
    files: list[FileResult]
    findings: list[Finding]
    stats: dict
    notices: list[str] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        failed = any(f.error for f in self.files)
        errors = any(f.severity == "error" for f in self.findings)
        return 1 if failed or errors else 0

    def to_json(self) -> dict:
        return {"files": [vars(f) for f in self.files],
                "findings": [f.to_json() for f in self.findings],
                "summary": {**self.stats, "exit_code": self.exit_code},
                "notices": self.notices}


def kept_edits(doc, par_path: Path, memory, file_key: str, display: str,
               notices: list[str]) -> tuple[dict[int, tuple[str, str]], list[Finding]]:
    """English a person wrote in the parallel file, to keep instead of the machine's.

    An edited English block (its text no longer matches the hash zhen wrote) is approved:
    stored in the memory under its source block's hash and used from then on. Emptying an
    edited block gives the machine translation back. When a source block with approved
    English changes, the English is kept and marked ``stale`` until a person edits it.
    """
    import difflib

    old = []
    if par_path.is_file():
        try:
            old = [b for b in read_parallel(par_path.read_text("utf-8")) if not b.same]
        except (OSError, UnicodeDecodeError) as exc:
            notices.append(f"{par_path}: cannot read it ({exc}); edits in it are not kept")
    approved = memory.approved(file_key)
    stale: dict[str, str] = {}
    for block in old:
        if block.edited:
            if block.english.strip():
                memory.approve(file_key, block.source_sha, block.source, block.english)
                approved[block.source_sha] = block.english
            else:
                memory.unapprove(file_key, block.source_sha)
                approved.pop(block.source_sha, None)
        elif block.status == "approved":
            approved.setdefault(block.source_sha, block.english)
        elif block.status == "stale":
            stale[block.source_sha] = block.english
    leaves = []
    for leaf in doc.leaves:
        start, end = doc.span(leaf.start_line, leaf.end_line)
        leaves.append(doc.text[start:end])
    hashes = [short_hash(text) for text in leaves]
    overrides: dict[int, tuple[str, str]] = {}
    findings: list[Finding] = []
    for i, digest in enumerate(hashes):
        if digest in approved:
            overrides[i] = (reindent(approved[digest], leaves[i]), "approved")
        elif digest in stale:
            overrides[i] = (reindent(stale[digest], leaves[i]), "stale")
    # a changed source block whose English a person wrote: pair old and new blocks
    human_blocks = any(b.source_sha in approved or b.status in ("approved", "stale") for b in old)
    matcher = difflib.SequenceMatcher(None, [b.source_sha for b in old] if human_blocks else [],
                                      hashes, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "replace":
            continue
        for k in range(min(i2 - i1, j2 - j1)):
            block, j = old[i1 + k], j1 + k
            human = block.source_sha in approved or block.status in ("approved", "stale")
            if j not in overrides and human and block.english.strip():
                overrides[j] = (reindent(block.english, leaves[j]), "stale")
    for i, (_, status) in sorted(overrides.items()):
        if status == "stale":
            leaf = doc.leaves[i]
            findings.append(Finding(
                "stale", "warning",
                f"block {i + 1}: its source changed after its English was edited by hand; the "
                f"edited English is kept — review it in {par_path.name} (edit it to approve it, "
                "or empty it for a new machine translation)", display, leaf.start_line + 1,
                extra={"segment": f"b{i + 1}", "source": leaves[i].strip()}))
    return overrides, findings


def _output_paths(note: NoteFile, out_dir: Path | None) -> tuple[Path, Path]:
    base = note.path.name[:-len(".md")]
    folder = (out_dir / note.relative.parent) if out_dir is not None else note.path.parent
    return folder / f"{base}.en.md", folder / f"{base}.zh-en.md"


class _Runner:
    """Engine calls through the memory, counting hits and misses."""

    def __init__(self, engine: Engine, memory, batch_size: int, progress: Progress | None):
        self.engine = engine
        self.memory = memory
        self.batch_size = getattr(engine, "preferred_batch", None) or batch_size
        self.glossary_aware = getattr(engine, "glossary_aware", False)
        self.progress = progress
        self.identity = engine.identity()
        self.hits = 0
        self.misses = 0
        self.missed: set[str] = set()         # texts the engine translated in this run

    def run(self, texts: list[str], n: int, phase: str,
            terms: dict[str, dict] | None = None) -> dict[str, EngineOutput]:
        """English for each text; ``terms`` (text → placeholder number → Term) reaches
        glossary-aware engines, and is then part of the memory key."""
        terms = (terms or {}) if self.glossary_aware else {}

        def key(text: str) -> str:
            legend = terms.get(text)
            if legend:
                text += "\n" + "\n".join(f"{k}={t.en}" for k, t in sorted(legend.items()))
            return memory_key(self.identity, text, n)

        keys = {text: key(text) for text in dict.fromkeys(texts)}
        cached = self.memory.get_many(keys.values())
        out: dict[str, EngineOutput] = {}
        for text, key in keys.items():
            if key in cached:
                out[text] = EngineOutput(cached[key]["hypotheses"], cached[key].get("unrendered", []))
        self.hits += len(out)
        # similar lengths in one batch waste less padding; each batch is committed on its own
        misses = sorted((t for t in keys if t not in out), key=len)
        total = len(misses)
        if self.progress and total:
            self.progress(phase, 0, total)
        for start in range(0, total, self.batch_size):
            batch = misses[start:start + self.batch_size]
            if self.glossary_aware:
                results = self.engine.translate(batch, num_hypotheses=n,
                                                terms=[terms.get(t, {}) for t in batch])
            else:
                results = self.engine.translate(batch, num_hypotheses=n)
            rows = []
            for text, result in zip(batch, results):
                out[text] = result
                if result.fallback:
                    continue                 # another engine's stand-in: ask again next run
                rows.append((keys[text], self.identity, text,
                             {"hypotheses": result.hypotheses, "unrendered": result.unrendered}))
            self.memory.put_many(rows)       # committed per batch: a killed run keeps these
            self.misses += len(batch)
            self.missed.update(batch)
            if self.progress:
                self.progress(phase, min(start + len(batch), total), total)
        return out


def lock_segments(segments: list[Segment], glossary: Glossary, runner: _Runner, n: int) -> list[Finding]:
    """Translate, verify and restore every segment; fall back where the lock broke.

    Three phases: choose a hypothesis for each segment (or mark it for the piece-wise
    fallback), translate the pieces, then restore — children (text inside emphasis and
    links, which follow their parent in walk order) before their parents.
    """
    findings: list[Finding] = []
    to_translate = [s.masked for s in segments if s.needs_mt]
    terms = {s.masked: {k: slot.term for k, slot in enumerate(s.slots, 1) if slot.kind == "term"}
             for s in segments if s.needs_mt}
    outputs = runner.run(to_translate, n, "translating", terms) if to_translate else {}
    chosen: dict[int, tuple[str, bool]] = {}         # id(segment) → (English with ZXn, escape)
    need_pieces: list[tuple[Segment, list[str], list[str]]] = []
    for seg in segments:
        if not seg.needs_mt:
            continue
        output = outputs[seg.masked]
        if output.fallback:
            findings.append(Finding("engine-fallback", "warning",
                                    f"segment {seg.id}: translated by {output.fallback}; review "
                                    "it in the parallel file", seg.file, seg.line,
                                    extra={"segment": seg.id, "source": seg.source}))
        for problem in output.unrendered:
            findings.append(Finding("unrendered", "warning",
                                    f"the engine could not render {problem!r}; it is left out of "
                                    "the English", seg.file, seg.line,
                                    extra={"segment": seg.id, "source": seg.source}))
        reasons = []
        for k, hypothesis in enumerate(output.hypotheses):
            reason = check_hypothesis(seg, hypothesis, glossary)
            if reason is None:
                chosen[id(seg)] = (hypothesis, True)
                seg.status = "ok" if k == 0 else "hypothesis"
                break
            reasons.append(reason)
        else:
            seg.problems = reasons
            need_pieces.append((seg, split_pieces(seg), reasons))
    if need_pieces:
        pieces = [p.strip() for _, ps, _ in need_pieces for p in ps if has_cjk(p)]
        piece_out = runner.run(pieces, 1, "re-translating pieces")
        translated = {p: o.hypotheses[0] if o.hypotheses else "" for p, o in piece_out.items()}
        for seg, ps, reasons in need_pieces:
            chosen[id(seg)] = (join_pieces(ps, translated), False)
            bad = forbidden_in(" ".join(translated.get(p.strip(), "") for p in ps), glossary)
            seg.status = "failed" if bad else "pieces"
            if bad:
                findings.append(Finding(
                    "lock-failed", "error",
                    f"segment {seg.id}: every hypothesis broke the term lock ({'; '.join(reasons)}) "
                    f"and translating the pieces between terms still gives the forbidden {bad!r}; "
                    "edit the English in the parallel file", seg.file, seg.line,
                    extra={"segment": seg.id, "source": seg.source}))
    for seg in reversed(segments):
        if not seg.needs_mt:
            seg.english = copy_english(seg)
            seg.status = "copied"
            continue
        text, escape = chosen[id(seg)]
        seg.english = restore(seg, text, escape=escape)
        if not seg.english.strip(" .,;:!?\"'*_~`"):
            # the engine gave nothing (a lone particle): keep the source, never an empty block
            seg.english = copy_english(seg)
            findings.append(Finding("empty-translation", "warning",
                                    f"segment {seg.id}: the engine returned no English; the "
                                    "source is kept — translate it in the parallel file",
                                    seg.file, seg.line, extra={"segment": seg.id, "source": seg.source}))
    return findings


def translate_paths(paths: list[Path], glossary_option: Path | None,
                    options: TranslateOptions | None = None,
                    progress: Progress | None = None, engine: Engine | None = None) -> TranslateReport:
    options = options or TranslateOptions()
    glossary_path = resolve_glossary(glossary_option)
    glossary = load_glossary(glossary_path, strict=True)
    notes = collect_notes(paths)
    notices: list[str] = []
    if engine is None:
        context = EngineContext(glossary, options.threads, glossary_path.parent,
                                options.engine_settings)
        engine, notices = create_engine(options.engine, context)
    memory = Memory(state_dir(glossary_path.parent) / "memory.sqlite") if options.use_memory \
        else NoMemory()
    notices += memory.notices
    try:
        return _translate(notes, glossary, engine, memory, options, progress, notices,
                          glossary_path.parent)
    finally:
        memory.close()


def _file_key(note: NoteFile, root: Path) -> str:
    """How the memory names a note: its path from the project root."""
    import os

    return os.path.relpath(note.path.resolve(), root.resolve())


def _translate(notes, glossary, engine, memory, options, progress, notices,
               root: Path) -> TranslateReport:
    files: list[FileResult] = []
    findings: list[Finding] = []
    parsed = []
    for note in notes:
        result = FileResult(note.display)
        files.append(result)
        if is_generated(note.path):
            result.error = f"{note.display} is a generated translation; translate its source note"
            continue
        try:
            text = read_note(note.path, options.encoding)
        except NoteReadError as exc:
            result.error = str(exc)
            continue
        doc = parse_document(text)
        plans = plan_document(doc, glossary, note.display)
        for plan in plans:
            if plan.region.error:
                findings.append(Finding("unparsed", "warning",
                                        f"could not locate this block's text ({plan.region.error}); "
                                        "it is copied untranslated", note.display, plan.region.line + 1))
        parsed.append((note, result, doc, plans))

    segments = [s for _, _, _, plans in parsed for plan in plans for top in plan.segments
                for s in top.walk()]
    n = 1 if engine.reliable_placeholders else max(1, options.num_hypotheses)
    runner = _Runner(engine, memory, options.batch_size, progress)
    findings += lock_segments(segments, glossary, runner, n)

    describe = engine.describe()
    kept = stale = 0
    for note, result, doc, plans in parsed:
        en_path, par_path = _output_paths(note, options.out_dir)
        overrides, edit_findings = kept_edits(doc, par_path, memory, _file_key(note, root),
                                              note.display, notices)
        findings += edit_findings
        kept += sum(1 for _, st in overrides.values() if st == "approved")
        stale += sum(1 for _, st in overrides.values() if st == "stale")
        leaves = leaf_texts(doc, plans, overrides)
        header = (f"<!-- zhen: English of {note.path.name}, engine: {describe}. Generated file: "
                  f"edit {par_path.name} instead. -->")
        result.segments = sum(1 for plan in plans for top in plan.segments for _ in top.walk())
        empty = not doc.text.strip()          # an empty note gives empty outputs
        try:
            write_atomic(en_path, "" if empty else render_english(
                doc, leaves, header, GLOSS_BANNER if engine.name == "gloss" else ""))
            write_atomic(par_path, "" if empty else render_parallel(leaves, note.path.name, describe))
        except OutputError as exc:
            result.error = str(exc)
            continue
        result.english, result.parallel = str(en_path), str(par_path)

    statuses = [s.status for s in segments]
    fresh = sum(1 for s in segments if s.needs_mt and (
        s.masked in runner.missed or any(p.strip() in runner.missed for p in split_pieces(s)
                                         if s.status in ("pieces", "failed"))))
    stats = {
        "files": sum(1 for f in files if not f.error),
        "failed_files": sum(1 for f in files if f.error),
        "segments": len(segments),
        "from_memory": sum(1 for s in segments if s.needs_mt) - fresh,
        "translated": fresh,
        "engine_calls": runner.misses,
        "terms_locked": sum(1 for s in segments for slot in s.slots if slot.kind == "term"),
        "lock_fallbacks": sum(st in ("hypothesis", "pieces") for st in statuses),
        "lock_failures": statuses.count("failed"),
        "copied": statuses.count("copied"),
        "kept_edits": kept,
        "stale_edits": stale,
        "engine": describe,
        "model": runner.identity,
    }
    return TranslateReport(files, findings, stats, notices)
