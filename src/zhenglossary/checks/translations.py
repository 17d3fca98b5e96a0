"""Checks over translations, pair by pair, across all notes.

Pairs come from the parallel files ``x.zh-en.md`` (see the ``parallel`` package), each with
the status :func:`parallel.decide` gives it. Each promise is checked on every pair's English,
a machine's or a person's (``zhen translate`` reports a person's English that breaks one as
``edit-invalid``, at the same severity). ``x.en.md`` is always read too: ``term-forbidden`` scans it when
there is no parallel file or when it was changed by hand (``english-edited``: the next
``zhen translate`` carries the change into the parallel file; ``english-conflict``: it
cannot, and refuses to write over the file). Every finding about a pair points where it is
fixed, the English in ``x.zh-en.md`` (file and line; in ``x.en.md`` for a change made there, which the
next translate takes in), and names the source too (``note``,
``note_line``), the block (``segment``), and carries both texts in full in JSON; the message
shows them truncated.
"""

from __future__ import annotations

import hashlib
import re
from typing import Iterable

from ..findings import Finding, unrendered_message
from .. import terms
from ..parallel import Pair, PairStatus, english_body, english_changes
from ..prose import prose_view
from ..sentences import align
from ..textutil import CJK_CLASS, CJK_RE, LineIndex, whole_phrase_re
from ..validate import compare_facts, dedent, facts, note_env, second_reading
from .registry import CheckContext, check, warms

SNIPPET = 40


def _short(text: str, n: int = SNIPPET) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[:n - 1] + "…"


def _finding(check_id: str, severity: str, message: str, pair: Pair, *,
             at: tuple[int, int] | None = None, **extra) -> Finding:
    """A finding about ``pair``, placed where it is fixed: the English in the parallel file
    (``x.zh-en.md``, line of the block's English; ``at`` = (line, column) inside that
    English). The source line is named too: ``note`` and ``note_line``."""
    data = {"segment": pair.id, "source": pair.source, "english": pair.english,
            "parallel": f"{pair.parallel}:{pair.en_line}", "status": pair.status,
            "note": pair.note, "note_line": pair.line}
    data.update(extra)
    file, first = pair.where                   # x.en.md, for a change made there
    if not first:                              # no English line known: the source line
        return Finding(check_id, severity, message, pair.note, pair.line, None, data)
    line, column = at if at is not None else (1, None)
    return Finding(check_id, severity, message, file, first + line - 1, column, data)


def _translated(ctx: CheckContext) -> Iterable[Pair]:
    """Pairs with English, a machine's or a person's, for the source and glossary entries as
    they are now: each promise is checked on both (a person's English breaking one is what
    ``zhen translate`` reports as ``edit-invalid``). Not a pending pair, nor a stale one whose
    English was for an older source or glossary entry: ``zhen translate`` replaces it, which
    the one ``stale`` finding says (a term check of it against the new entry would say it
    again, as an error)."""
    for note in ctx.pairs:
        for pair in note.pairs:
            if pair.status not in (PairStatus.SAME, PairStatus.PENDING) and pair.fits:
                yield pair


def _left_in_chinese(pair: Pair) -> str:
    """The Chinese left in a pair's English prose ('' when none): one ``untranslated``
    finding says it, so no ``term-missing`` repeats it for each term inside."""
    return "\u3000".join(re.findall(f"[{CJK_CLASS}]+", facts(pair.english).text))


@check("term-missing", "error", "translations", per_note=True)
def term_missing(ctx: CheckContext) -> Iterable[Finding]:
    """A glossary term in the source, its `en` (in any of its forms) absent from the English
    (a term left in Chinese is the block's one `untranslated` finding, not one of these)."""
    for pair in _translated(ctx):
        english = " ".join(pair.english.split())
        needed: dict[str, int] = {}
        first: dict[str, object] = {}
        for match in pair.terms:
            needed[match.term.en] = needed.get(match.term.en, 0) + 1
            first.setdefault(match.term.en, match.term)
        missing = [first[en] for en in needed if terms.count(first[en], english) == 0]
        left = _left_in_chinese(pair) if missing and CJK_RE.search(pair.english) else ""
        for term in missing:
            if left and any(form in left for form in term.forms):
                continue                  # untranslated: said once for the block
            yield _finding("term-missing", "error",
                           f"{term.zh} must be rendered {term.en!r}, which the English "
                           f"{_short(pair.english)!r} lacks", pair, zh=term.zh, en=term.en)


def _scopes(source: str, english: str) -> list[tuple[str, str, int]]:
    """(source, English, offset of that English in ``english``): the aligned sentences of a
    block when their counts agree, else the whole block."""
    zh, en = source.replace("\n", ""), english.replace("\n", " ")
    aligned = align(zh, en, (zh, en))           # prose views already: their own views
    if aligned is None or len(aligned) < 2:
        return [(source, english, 0)]
    out, pos = [], 0
    flat = english.replace("\n", " ")
    for zh, en in aligned:
        at = flat.find(en, pos)
        at = pos if at < 0 else at
        out.append((zh, english[at:at + len(en)], at))
        pos = at + len(en)
    return out


@check("term-forbidden", "error", "translations", per_note=True)
def forbidden_rendering(ctx: CheckContext) -> Iterable[Finding]:
    """A `forbid` rendering in the English of a sentence (or block) whose source holds its
    term, or one of the glossary's corpus-wide `forbid` list anywhere."""
    glossary = ctx.glossary
    for pair in _translated(ctx):
        english = prose_view(pair.english)
        reported: set[str] = set()
        for zh, en, offset in _scopes(_source_prose(ctx, pair), english):
            for term, phrase in glossary.forbids(m.term for m in glossary.find_prose(zh)):
                pattern = whole_phrase_re(phrase)
                match = pattern.search(en)
                if match and not pattern.search(pair.source) and phrase not in reported:
                    reported.add(phrase)
                    yield _forbidden(term, phrase, match.group(0), glossary, pair=pair,
                                     at=LineIndex(english).position(offset + match.start()))
    # x.en.md itself, when no parallel file covers it or its changes by hand cannot be
    # carried into one (carried changes are their pairs' English, checked above): the forbids
    # of the terms its note holds
    changed = hand_changed(ctx)
    with_pairs = {p.note for p in ctx.pairs}
    sources = {note.display: note for note in ctx.notes}
    for note, (display, text) in ctx.translations.items():
        if note in with_pairs and not (note in changed and changed[note][1].problem):
            continue
        prose = prose_view(text)
        index = LineIndex(text)
        held = (m.term for m in (ctx.matches(sources[note]) if note in sources else ()))
        for term, phrase in glossary.forbids(held):
            for match in whole_phrase_re(phrase).finditer(prose):
                line, column = index.position(match.start())
                yield _forbidden(term, phrase, match.group(0), glossary, file=display,
                                 line=line, column=column)


def _forbidden(term, phrase: str, seen: str, glossary, *, pair: Pair | None = None, at=None,
               file: str = "", line: int = 0, column: int = 0) -> Finding:
    if term is None:
        message = (f"{seen!r} is banned in every note (the glossary's top-level `forbid`, "
                   f"{glossary.path})")
        data = {"forbidden": phrase}
    else:
        message = (f"{seen!r} is forbidden for {term.zh}; write {term.en!r} (glossary line "
                   f"{term.line})")
        data = {"zh": term.zh, "en": term.en, "forbidden": phrase}
    if pair is not None:
        return _finding("term-forbidden", "error", message, pair, at=at, **data)
    return Finding("term-forbidden", "error", message, file, line, column, data)


def _source_prose(ctx: CheckContext, pair: Pair) -> str:
    """The prose of a pair's source: a slice of its note's one parse when the note still
    has the block, else the block read on its own."""
    memo = ctx.__dict__.get("_leaf_prose")
    if memo is None:
        from ..prose import leaf_prose

        memo = ctx.__dict__["_leaf_prose"] = {
            (note.display, note.doc.leaf_hash(leaf)): leaf_prose(note.doc, leaf)
            for note in ctx.notes if note.doc is not None for leaf in note.doc.leaves}
    found = memo.get((pair.note, pair.source_sha)) if pair.current else None
    return found if found is not None else prose_view(pair.source)


def _envs(ctx: CheckContext) -> dict:
    """note display → its env (footnotes, link definitions), from the one parse of it."""
    return {note.display: (note.doc.env if note.doc is not None else note_env(note.text))
            for note in ctx.notes}


def _english_facts(ctx: CheckContext, pair: Pair, env: dict | None):
    """The validator's reading of a pair's English (the block on its own, in its note's
    footnote context), read once for every check that asks."""
    memo = ctx.__dict__.setdefault("_english_facts", {})
    key = (pair.parallel, pair.index, pair.english)
    if key not in memo:
        memo[key] = facts(dedent(pair.english), env)
    return memo[key]


@check("untranslated", "error", "translations", per_note=True)
def untranslated(ctx: CheckContext) -> Iterable[Finding]:
    """Chinese left in the English prose (the parser's inline text: code, math, link
    destinations and titles, HTML and roles are copied from the source, Chinese or not)."""
    envs = _envs(ctx)
    for pair in _translated(ctx):
        left = re.findall(f"[{CJK_CLASS}]+", _english_facts(ctx, pair, envs.get(pair.note)).text)
        if left and pair.unrendered and not PairStatus(pair.status).owned:
            # Chinese the engine said it copied is the block's one `unrendered` warning (as
            # `zhen translate` reports it), not also an error here
            reported = "".join(pair.unrendered)
            left = [run for run in left if any(ch not in reported for ch in run)]
        if left:
            joined = "\u3000".join(left)
            terms = list(dict.fromkeys(m.term.zh for m in pair.terms
                                       if any(f in joined for f in m.term.forms)))
            also = (f"; it holds the glossary term(s) {'、'.join(terms)}, whose English is "
                    "missing with it") if terms else ""
            yield _finding("untranslated", "error",
                           f"Chinese left in the English: {_short('、'.join(left), 30)}{also}",
                           pair, chinese=left, terms=terms)


@check("protected-changed", "error", "translations", per_note=True)
def protected_changed(ctx: CheckContext) -> Iterable[Finding]:
    """Code, math, a link or image destination, an autolink, HTML, a role or a footnote
    label of the source is missing or altered in the English, or the block structure
    changed (the same validator `zhen translate` runs)."""
    envs = _envs(ctx)
    for pair in _translated(ctx):
        env = envs.get(pair.note)
        problems = compare_facts(facts(dedent(pair.source), env), _english_facts(ctx, pair, env),
                                 what=frozenset({"structure", "protected"}))
        if problems:
            shown = "; ".join(problems[:4]) + (" …" if len(problems) > 4 else "")
            yield _finding("protected-changed", "error", f"the English changed: {shown}",
                           pair, missing=problems)


@check("plain-reading", "error", "translations", per_note=True)
def plain_reading(ctx: CheckContext) -> Iterable[Finding]:
    """x.en.md read without the Markdown parser: math lost, changed or added, or Chinese
    left where the parser saw none (math, code or HTML it misread)."""
    texts = {note.display: note.text for note in ctx.notes}
    unrendered = {note.note: "".join(u for p in note.pairs for u in p.unrendered)
                  for note in ctx.pairs}
    for note, (display, text) in ctx.translations.items():
        if note not in texts:
            continue
        body = english_body(text)
        above = len(re.findall(r"\r\n|\n|\r", text[:len(text) - len(body)]))
        problems = second_reading(texts[note], body, unrendered.get(note, ""),
                                  parser_prose=lambda body=body: prose_view(body))
        if any(p.kind == "math" for p in problems) and _parser_sees_math_change(texts[note], body):
            problems = [p for p in problems if p.kind != "math"]    # protected-changed says it
        for problem in problems:
            yield Finding("plain-reading", "error",
                          f"{problem.message}; the Markdown parser misses this — check the "
                          f"math and Markdown of {note}" + (f":{problem.source_line}"
                                                            if problem.source_line else ""),
                          display, problem.line + above if problem.line else None, None,
                          {"note": note, "note_line": problem.source_line or None})


def _parser_sees_math_change(source: str, english: str) -> bool:
    def math(text: str):
        return sorted(v for (kind, v), n in facts(text).protected.items() if kind == "math"
                      for _ in range(n))
    return math(source) != math(english)


@check("english-edited", "info", "translations", per_note=True)
def english_edited(ctx: CheckContext) -> Iterable[Finding]:
    """x.en.md changed by hand: the next `zhen translate` takes the changes in as edits."""
    for note, (display, state) in hand_changed(ctx).items():
        if not state.problem and state.edits:
            blocks = ", ".join(str(k) for k in sorted(state.edits))
            yield Finding("english-edited", "info",
                          f"changed by hand in block(s) {blocks}; the next `zhen translate` "
                          f"takes them into {_parallel_of(ctx, note)} as edits", display, None,
                          extra={"blocks": sorted(state.edits)})


@check("english-conflict", "error", "translations", per_note=True)
def english_conflict(ctx: CheckContext) -> Iterable[Finding]:
    """x.en.md holds changes `zhen translate` cannot carry into the parallel file (or was not
    written by zhen): it refuses to write over it."""
    for note, (display, state) in hand_changed(ctx).items():
        if state.problem:
            yield Finding("english-conflict", "error",
                          f"{state.problem}; `zhen translate` will not write over it — make the "
                          f"change in {_parallel_of(ctx, note)} instead, or pass --force",
                          display, state.line or None)


def _parallel_of(ctx: CheckContext, note: str) -> str:
    return next((p.parallel for p in ctx.pairs if p.note == note), "x.zh-en.md")


def hand_changed(ctx: CheckContext) -> dict:
    """note display → (x.en.md display, :class:`parallel.EnglishEdits`) for each x.en.md a
    person changed since zhen wrote it, or that zhen did not write: as the note's pairs read
    it (:func:`parallel.carry_english`, the reading ``zhen translate`` takes it in by), or
    read here when the note has no parallel file."""
    cached = getattr(ctx, "_hand_changed", None)
    if cached is not None:
        return cached
    read = {p.note: p.english for p in ctx.pairs}
    out: dict = {}
    for note, (display, text) in ctx.translations.items():
        if note in read:
            state = read[note]
        elif text is None:
            continue                   # a shard's, its per-note checks done
        else:
            state = english_changes(text, None)
        if state is not None and (state.edits or state.problem):
            out[note] = (display, state)
    ctx._hand_changed = out
    return out


_PUNCT_NORM = str.maketrans("，。！？；：（）“”‘’、", ",.!?;:()\"\"''，")


def _norm_zh(text: str) -> str:
    return re.sub(r"\s+", "", text.translate(_PUNCT_NORM)).strip(".,;:!?").lower()


def _norm_en(text: str) -> str:
    return " ".join(text.split()).strip(" .,;:!?").lower()


def _sentences(pair: Pair) -> list[tuple[str, str, str]]:
    """(source sentence, English sentence, id), aligned when the counts agree, else the
    whole block as one."""
    views = (prose_view(pair.source).replace("\n", ""), prose_view(pair.english).replace("\n", " "))
    aligned = align(pair.source.replace("\n", ""), pair.english.replace("\n", " "), views)
    if aligned is not None and len(aligned) > 1:
        return [(z, e, f"{pair.id}.s{i + 1}") for i, (z, e) in enumerate(aligned)]
    return [(pair.source, pair.english, pair.id)]


def _key_digest(key: str) -> bytes:
    """A sentence's key as a digest: what the checks across notes group by, shipped from a
    shard (``glossary check --jobs``) instead of the key itself (hashlib, not ``hash``:
    the same in every process)."""
    return hashlib.blake2b(key.encode("utf-8"), digest_size=12).digest()


def _sentences_of(ctx: CheckContext, pair: Pair) -> list[tuple[int, bytes, bytes, int]]:
    """The pair's sentences that ``inconsistent`` compares (a key of at least four
    characters with Chinese in it), each as (its index in :func:`_sentences`, the digest
    of the source's key, of the English's key, the English key's length): small enough
    to cross from a shard; the text is read again only for a finding."""
    def compute() -> list[tuple[int, bytes, bytes, int]]:
        out = []
        for i, (zh, en, _) in enumerate(_sentences(pair)):
            key = _norm_zh(zh)
            if len(key) >= 4 and CJK_RE.search(key):
                en_key = _norm_en(en)
                out.append((i, _key_digest(key), _key_digest(en_key), len(en_key)))
        return out
    return ctx.fact("sentences", (pair.note, pair.id), compute)


@warms
def _warm_sentences(ctx: CheckContext) -> None:
    for pair in _translated(ctx):
        _sentences_of(ctx, pair)


@check("inconsistent", "warning", "translations")
def inconsistent(ctx: CheckContext) -> Iterable[Finding]:
    """The same source translated differently in different places (and, as info, one
    English for different sources)."""
    by_source: dict[bytes, list[tuple[Pair, int, bytes]]] = {}
    by_english: dict[bytes, list[tuple[Pair, int, bytes]]] = {}
    long_english: set[bytes] = set()
    for pair in _translated(ctx):
        for i, key, en_key, en_len in _sentences_of(ctx, pair):
            by_source.setdefault(key, []).append((pair, i, en_key))
            by_english.setdefault(en_key, []).append((pair, i, key))
            if en_len >= 12:
                long_english.add(en_key)
    texts: dict[int, list[tuple[str, str, str]]] = {}      # id(pair) → its sentences again

    def text(pair: Pair, i: int) -> tuple[str, str, str]:
        if id(pair) not in texts:
            texts[id(pair)] = _sentences(pair)
        return texts[id(pair)][i]

    for items in by_source.values():
        renderings: dict[bytes, list[tuple[Pair, int]]] = {}
        for pair, i, en_key in items:
            renderings.setdefault(en_key, []).append((pair, i))
        if len(renderings) < 2:
            continue
        places = []
        for group in renderings.values():
            for p, i in group:
                _, en, seg = text(p, i)
                places.append(f"{p.note}:{p.line} ({seg}) {_short(en, 30)!r}")
        pair, i, _ = items[0]
        zh, en, seg_id = text(pair, i)
        yield _finding("inconsistent", "warning",
                       f"{_short(zh, 24)!r} is translated {len(renderings)} ways: "
                       + "; ".join(places), pair, segment=seg_id, places=places,
                       renderings=[text(*group[0])[1] for group in renderings.values()])
    for en_key, items in by_english.items():
        sources = {key for _, _, key in items}
        if len(sources) < 2 or en_key not in long_english:
            continue
        places = []
        for p, i, _ in items:
            zh, _, seg = text(p, i)
            places.append(f"{p.note}:{p.line} ({seg}) {_short(zh, 20)!r}")
        pair, i, _ = items[0]
        zh, en, seg_id = text(pair, i)
        yield _finding("inconsistent", "info",
                       f"one English {_short(en, 30)!r} for {len(sources)} different sources: "
                       + "; ".join(places), pair, segment=seg_id, source=zh, english=en,
                       places=places)


@check("stale", "warning", "translations", per_note=True)
def stale(ctx: CheckContext) -> Iterable[Finding]:
    """A person's English (or review) is for a source or glossary entry that has changed;
    notes changed since they were translated."""
    for note in ctx.pairs:
        for pair in note.pairs:
            if pair.orphaned:
                continue                 # its block left the note: `edit-orphaned` says it
            what = pair.cause.changed() if pair.cause is not None else \
                "the source (or a glossary entry it uses) changed"
            if pair.status == PairStatus.STALE and pair.was is not None:
                yield _finding("stale", "warning",
                               f"{what} after this "
                               "English was edited or reviewed by hand; the English is the "
                               "machine's for the block as it is now, and what you had is kept "
                               "below it — copy what you keep into the English, or mark it "
                               "status=reviewed", pair)
            elif pair.status == PairStatus.STALE:
                yield _finding("stale", "warning",
                               f"{what} after this "
                               "English was edited or reviewed by hand; run `zhen translate "
                               f"{note.note}` for machine English of the block as it is now, "
                               "then adopt what you keep of yours", pair)
        pending = note.counts.get("pending", 0)
        if pending:
            lines = sorted({line for line, _ in ctx.untranslated_blocks.get(note.note, [])}
                           | {pair.line for pair in note.pairs
                              if pair.status == PairStatus.PENDING and pair.line})
            where = f" (first at line {lines[0]})" if lines else ""
            yield Finding("stale", "warning",
                          f"{pending} block(s) of {note.note} changed, were added or use a "
                          f"glossary entry that changed since it was translated{where}; run "
                          f"`zhen translate {note.note}`", note.note, lines[0] if lines else None,
                          extra={"lines": lines})


@check("edit-orphaned", "warning", "translations", per_note=True)
def edit_orphaned(ctx: CheckContext) -> Iterable[Finding]:
    """No edit waits in a parallel file's orphans section (its block left the note)."""
    for note in ctx.pairs:
        for orphan in note.orphans:
            if orphan.line:              # in the orphans section already
                yield Finding("edit-orphaned", "warning",
                              f"edited English whose block ({note.note}:"
                              f"{orphan.lines.lstrip('L')} once) is no longer in the note is "
                              "kept here; copy what you need into a block, then delete it",
                              note.parallel, orphan.line,
                              extra={"source": orphan.source, "english": orphan.english})
        for pair in note.pairs:          # orphaned by a change since the last translate
            if pair.orphaned:
                yield _finding("edit-orphaned", "warning",
                               f"edited English whose block ({note.note}:{pair.line} before "
                               "this change) is no longer in the note; the next `zhen "
                               f"translate` keeps it at the end of {note.parallel} — copy what "
                               "you need into a block, then delete it there", pair)


@check("unrendered", "warning", "translations", per_note=True)
def unrendered(ctx: CheckContext) -> Iterable[Finding]:
    """The engine rendered every piece of the source."""
    for pair in _translated(ctx):
        if pair.unrendered and not PairStatus(pair.status).owned:
            yield _finding("unrendered", "warning",
                           unrendered_message(pair.unrendered, pair.english), pair,
                           pieces=list(pair.unrendered))


@check("edited", "info", "translations", per_note=True)
def edited(ctx: CheckContext) -> Iterable[Finding]:
    """A translation edited by a person."""
    for note in ctx.pairs:
        for pair in note.pairs:
            if pair.status == PairStatus.EDITED:     # an invalid one: its errors say it
                yield _finding("edited", "info", "English edited by a person (kept by zhen "
                               "translate)", pair)
