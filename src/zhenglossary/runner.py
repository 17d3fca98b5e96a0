"""Every translation goes through here: :class:`Runner` (engine calls through the
translation memory, counting hits and misses) and :func:`lock_segments` (the term-lock
ladder: a hypothesis that keeps every placeholder and no ``forbid``, else the next one,
else the pieces between placeholders translated on their own, then restored)."""

from __future__ import annotations

from typing import Callable

from .engines.base import Engine, EngineOutput
from .findings import Finding
from .glossary import Glossary
from .locking import (Segment, check_hypothesis, copy_english, forbidden_in, join_pieces,
                      restore, split_pieces)
from .memory import memory_key
from .textutil import has_cjk

Progress = Callable[[str, int, int], None]        # (phase, done, total)


class Runner:
    """Engine calls through the memory, counting hits and misses: what every translation
    goes through (``translate_note``, ``zhen translate``, the benchmarks)."""

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
            try:
                if self.glossary_aware:
                    results = self.engine.translate(batch, num_hypotheses=n,
                                                    terms=[terms.get(t, {}) for t in batch])
                else:
                    results = self.engine.translate(batch, num_hypotheses=n)
            except BaseException as exc:     # the part of the call the engine finished
                finished = getattr(exc, "finished", None) or {}
                self.memory.put_many(self._rows(keys, [(batch[i], r) for i, r in finished.items()]))
                raise
            for text, result in zip(batch, results):
                out[text] = result
            self.memory.put_many(self._rows(keys, zip(batch, results)))   # a killed run keeps these
            self.misses += len(batch)
            self.missed.update(batch)
            if self.progress:
                self.progress(phase, min(start + len(batch), total), total)
        return out

    def _rows(self, keys: dict[str, str], results) -> list[tuple[str, str, str, dict]]:
        """Memory rows for (text, EngineOutput) pairs; another engine's stand-in (fallback)
        is not kept, so the next run asks again."""
        return [(keys[text], self.identity, text,
                 {"hypotheses": result.hypotheses, "unrendered": result.unrendered})
                for text, result in results if not result.fallback]


def lock_segments(segments: list[Segment], glossary: Glossary, runner: Runner, n: int) -> list[Finding]:
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
        seg.unrendered = list(output.unrendered)
        if output.fallback:
            findings.append(Finding("engine-fallback", "warning",
                                    f"segment {seg.id}: translated by {output.fallback}; review "
                                    "it in the parallel file", seg.file, seg.line,
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
            seg.unrendered += [u for p in ps if p.strip() in piece_out
                               for u in piece_out[p.strip()].unrendered]
            bad = next((hit for p in ps if (hit := forbidden_in(translated.get(p.strip(), ""),
                                                                glossary, seg))), None)
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
