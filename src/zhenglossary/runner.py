"""Every translation goes through here: :class:`Runner` (engine calls through the
translation memory, counting hits and misses) and :func:`lock_segments` (the term-lock
ladder: a hypothesis that keeps every placeholder and no ``forbid``, else the next one,
else the pieces between placeholders translated on their own, then restored).

What of a text's terms and context an engine reads (its capabilities, engines/base.py) is
part of the memory key; for an engine that reads the context, texts stay in note order and
a call never splits a block (:func:`batches`)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Callable

from .engines.base import Engine, EngineOutput, capabilities_of, TermSlot
from .findings import Finding
from .glossary import Glossary
from .locking import (Segment, check_hypothesis, copy_english, forbidden_in, join_pieces,
                      restore, split_pieces)
from .memory import memory_key
from .textutil import has_cjk

Progress = Callable[[str, int, int], None]        # (phase, done, total)
PIECES = "re-translating pieces"                  # the phase of the piece-wise fallback


def _reported(unrendered: list[str], english: str, source: str) -> list[str]:
    """Of what an engine said it could not render for a text (every hypothesis's), what
    the English chosen holds (Chinese a model copied into it) or the source holds (a piece
    the gloss engine left out): not a copied run of a hypothesis not taken, which is in
    neither and would be reported as left out of a source that never had it."""
    return [u for u in unrendered if u in english or u in source]


class Runner:
    """Engine calls through the memory, counting hits and misses: what every translation
    goes through (``translate_note``, ``zhen translate``, the benchmarks)."""

    def __init__(self, engine: Engine, memory, batch_size: int, progress: Progress | None):
        self.engine = engine
        self.memory = memory
        self.capabilities = caps = capabilities_of(engine)      # engines/base.py
        self.batch_size = caps.preferred_batch or batch_size
        self.glossary_aware = caps.glossary_aware
        self.terms_in_prompt = caps.terms_in_prompt
        self.uses_context = caps.uses_context
        self.progress = progress
        self.identity = engine.identity()
        self.hits = 0
        self.misses = 0
        self.missed: set[str] = set()         # texts the engine translated in this run
        self.via: Counter = Counter()         # which rung gave the English (EngineOutput.via)

    def _key(self, text: str, legend: dict, context, n: int) -> str:
        if legend and self.terms_in_prompt:   # the entries are in the prompt
            text += "\n" + "\n".join(
                f"{k}=" + json.dumps([t.source, t.zh, t.en, list(t.forbid), t.note],
                                     ensure_ascii=False) for k, t in sorted(legend.items()))
        elif legend:
            text += "\n" + "\n".join(f"{k}={t.en}" for k, t in sorted(legend.items()))
        if context is not None:
            text += "\ncontext=" + context.key()
        return memory_key(self.identity, text, n)

    def run(self, texts: list[str], n: int, phase: str, terms: list[dict] | None = None,
            contexts: list | None = None) -> list[EngineOutput]:
        """English for each text, in order. ``terms`` (per text: placeholder number →
        TermSlot) reach glossary-aware engines and ``contexts`` (per text: its
        context.BlockContext) context-aware ones; what the engine reads of them is part of
        the memory key."""
        terms = terms if self.glossary_aware and terms else [{}] * len(texts)
        contexts = contexts if self.uses_context and contexts else [None] * len(texts)
        keys = [self._key(t, legend, c, n) for t, legend, c in zip(texts, terms, contexts)]
        unit = {}                             # key → (text, legend, context), first seen
        for key, text, legend, context in zip(keys, texts, terms, contexts):
            unit.setdefault(key, (text, legend, context))
        cached = self.memory.get_many(unit)
        out: dict[str, EngineOutput] = {}
        for key in unit:
            if key in cached:
                out[key] = EngineOutput(cached[key]["hypotheses"], cached[key].get("unrendered", []))
        self.hits += len(out)
        misses = [k for k in unit if k not in out]
        if not self.uses_context:             # similar lengths in one batch waste less padding
            misses.sort(key=lambda k: len(unit[k][0]))
        total = len(misses)
        if self.progress and total:
            self.progress(phase, 0, total)
        done = 0
        for batch in self._batches(misses, unit):
            try:
                kwargs = {}
                if self.glossary_aware:
                    kwargs["terms"] = [unit[k][1] for k in batch]
                if self.uses_context:
                    kwargs["contexts"] = [unit[k][2] for k in batch]
                results = self.engine.translate([unit[k][0] for k in batch], num_hypotheses=n,
                                                **kwargs)
            except BaseException as exc:     # the part of the call the engine finished
                finished = getattr(exc, "finished", None) or {}
                self.memory.put_many(self._rows(unit, [(batch[i], r) for i, r in finished.items()]))
                raise
            for key, result in zip(batch, results):
                out[key] = result
                if result.fallback:
                    self.via["fallback"] += 1
                elif result.via:
                    self.via[result.via] += 1
            self.memory.put_many(self._rows(unit, zip(batch, results)))   # a killed run keeps these
            self.misses += len(batch)
            self.missed.update(unit[k][0] for k in batch)
            done += len(batch)
            if self.progress:
                self.progress(phase, done, total)
        return [out[key] for key in keys]

    def _batches(self, misses: list[str], unit: dict) -> list[list[str]]:
        return batches(misses, {k: unit[k][2] for k in misses}, self.batch_size,
                      self.uses_context)

    def _rows(self, unit: dict, results) -> list[tuple[str, str, str, dict]]:
        """Memory rows for (key, EngineOutput) pairs; another engine's stand-in (fallback)
        is not kept, so the next run asks again."""
        return [(key, self.identity, unit[key][0],
                 {"hypotheses": result.hypotheses, "unrendered": result.unrendered})
                for key, result in results if not result.fallback]


def batches(keys: list, context_of: dict, size: int, by_block: bool) -> list[list]:
    """Engine calls of ``size`` texts; ``by_block``: whole blocks (a block larger than that
    is one call of its own), so a call never splits one."""
    if not by_block:
        return [keys[k:k + size] for k in range(0, len(keys), size)]
    blocks: list[list] = []
    for key in keys:
        block = context_of[key].block_id if context_of[key] is not None else None
        last = context_of[blocks[-1][-1]] if blocks else None
        if block is not None and last is not None and last.block_id == block:
            blocks[-1].append(key)
        else:
            blocks.append([key])
    calls: list[list] = []
    for block in blocks:
        if calls and len(calls[-1]) + len(block) <= size:
            calls[-1].extend(block)
        else:
            calls.append(list(block))
    return calls


def lock_segments(segments: list[Segment], glossary: Glossary, runner: Runner, n: int,
                  contexts: dict[int, object] | None = None) -> list[Finding]:
    """Translate, verify and restore every segment; fall back where the lock broke
    (:func:`lock_parts`: its findings in the order they are reported)."""
    fallbacks, failures, empties = lock_parts(segments, glossary, runner, n, contexts)
    return fallbacks + failures + empties


def lock_parts(segments: list[Segment], glossary: Glossary, runner: Runner, n: int,
               contexts: dict[int, object] | None = None
               ) -> tuple[list[Finding], list[Finding], list[Finding]]:
    """Translate, verify and restore every segment; fall back where the lock broke. Its
    findings in three lists, each in the order it is reported — the engine's stand-ins
    (segment order), the broken locks (segment order), the empty translations (reverse
    segment order) — so that segments locked in several calls (a big note's sections)
    report as when locked in one: each list joined in turn, the last one reversed.

    Three phases: choose a hypothesis for each segment (or mark it for the piece-wise
    fallback), translate the pieces, then restore — children (text inside emphasis and
    links, which follow their parent in walk order) before their parents. ``contexts``:
    id(segment) → its block's context, for engines that read it.
    """
    findings: list[Finding] = []          # the engine's stand-ins
    failures: list[Finding] = []
    empties: list[Finding] = []
    mt = [s for s in segments if s.needs_mt]
    terms = [{k: TermSlot(slot.term, slot.raw) for k, slot in enumerate(s.slots, 1)
              if slot.kind == "term"} for s in mt]
    where = [(contexts or {}).get(id(s)) for s in mt]
    results = runner.run([s.masked for s in mt], n, "translating", terms, where) if mt else []
    outputs = {id(s): r for s, r in zip(mt, results)}
    chosen: dict[int, tuple[str, bool]] = {}         # id(segment) → (English with ZXn, escape)
    need_pieces: list[tuple[Segment, list[str], list[str]]] = []
    for seg in segments:
        if not seg.needs_mt:
            continue
        output = outputs[id(seg)]
        seg.unrendered = list(output.unrendered)
        if output.fallback:
            findings.append(Finding("engine-fallback", "warning",
                                    f"segment {seg.id}: translated by {output.fallback}; review "
                                    "it in the parallel file", seg.file, seg.line,
                                    extra={"segment": seg.id, "source": seg.source}))
        reasons = []
        for k, hypothesis in enumerate(output.hypotheses):
            reason = check_hypothesis(seg, hypothesis, glossary, runner.terms_in_prompt)
            if reason is None:
                chosen[id(seg)] = (hypothesis, True)
                seg.unrendered = _reported(output.unrendered, hypothesis, seg.source)
                seg.status = "ok" if k == 0 else "hypothesis"
                break
            reasons.append(reason)
        else:
            seg.problems = reasons
            need_pieces.append((seg, split_pieces(seg), reasons))
    if need_pieces:
        pieces = [p.strip() for _, ps, _ in need_pieces for p in ps if has_cjk(p)]
        piece_out = dict(zip(pieces, runner.run(pieces, 1, PIECES)))
        translated = {p: o.hypotheses[0] if o.hypotheses else "" for p, o in piece_out.items()}
        for seg, ps, reasons in need_pieces:
            chosen[id(seg)] = (join_pieces(ps, translated), False)
            seg.unrendered = [u for p in ps if p.strip() in piece_out
                              for u in _reported(piece_out[p.strip()].unrendered,
                                                 translated[p.strip()], p)]
            bad = next((hit for p in ps if (hit := forbidden_in(translated.get(p.strip(), ""),
                                                                glossary, seg))), None)
            seg.status = "failed" if bad else "pieces"
            if bad:
                failures.append(Finding(
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
            empties.append(Finding("empty-translation", "warning",
                                    f"segment {seg.id}: the engine returned no English; the "
                                    "source is kept — translate it in the parallel file",
                                    seg.file, seg.line, extra={"segment": seg.id, "source": seg.source}))
    return findings, failures, empties
