"""Checks over the notes, across files: term usage, bilingual parentheticals, text the
Markdown parser does not read."""

from __future__ import annotations

from typing import Iterable

from ..bilingual import Parenthetical, note_sightings
from .. import terms
from ..findings import Finding
from ..glossary import Match, Term
from ..markdown import MAX_NESTING, unread_nesting
from ..textutil import (LineIndex, normalize_abbreviation, normalize_english,
                        split_abbreviation)
from .registry import CheckContext, NoteText, check


def _finding(check_id, severity, message, note: NoteText, offset: int, index: LineIndex,
             **extra) -> Finding:
    line, column = index.position(offset)
    return Finding(check_id, severity, message, note.display, line, column, extra)


def usage_counts(ctx: CheckContext) -> dict[str, dict[str, int]]:
    """term zh → note → number of matches in its prose (cached on the context)."""
    if not ctx.usage:
        usage: dict[str, dict[str, int]] = {t.zh: {} for t in ctx.glossary.terms}
        for note in ctx.notes:
            for match in ctx.glossary.find_prose(note.prose):
                per_file = usage.setdefault(match.term.zh, {})
                per_file[note.display] = per_file.get(note.display, 0) + 1
        ctx.usage = usage
    return ctx.usage


@check("term-unused", "info", "notes")
def unused_terms(ctx: CheckContext) -> Iterable[Finding]:
    """Glossary terms that no note uses."""
    if not ctx.notes:
        return
    usage = usage_counts(ctx)
    for term in ctx.glossary.terms:
        if not usage.get(term.zh):
            yield Finding("term-unused", "info",
                          f"{term.zh} ({term.en}) appears in none of the {len(ctx.notes)} notes",
                          ctx.glossary.path, term.line)


def _parentheticals(ctx: CheckContext) -> list[tuple[NoteText, LineIndex, Parenthetical]]:
    """The notes' parentheticals, found once per run by the finder suggest uses."""
    if ctx.parentheticals is None:
        ctx.parentheticals = note_sightings(ctx.notes, frozenset(ctx.glossary.form_map))
    return ctx.parentheticals


def _glossary_term_at(ctx: CheckContext, par: Parenthetical) -> tuple[str, Term] | None:
    """The longest glossary form that ends where the parenthetical's Chinese ends."""
    forms = ctx.glossary.form_map
    for k in range(len(par.run)):
        tail = par.run[k:]
        if tail in forms:
            return tail, forms[tail]
    return None


def _contains(a: str, b: str) -> bool:
    return f" {b} " in f" {a} " or f" {a} " in f" {b} "


def agrees(par: Parenthetical, term: Term) -> bool:
    """Does the parenthetical's English (or abbreviation) fit the glossary's `en`?"""
    en_words, en_abbr = split_abbreviation(term.en)
    if par.abbr and en_abbr and normalize_abbreviation(par.abbr) != normalize_abbreviation(en_abbr):
        return False
    if par.english:
        if terms.says(term, par.english):       # one of its forms (terms.py)
            return True
        a, b = normalize_english(par.english), normalize_english(en_words)
        return a == b or _contains(a, b)
    return True


@check("parenthetical-disagrees", "warning", "notes")
def parenthetical_disagrees(ctx: CheckContext) -> Iterable[Finding]:
    """A bilingual parenthetical in a note gives English the glossary does not use."""
    for note, index, par in _parentheticals(ctx):
        hit = _glossary_term_at(ctx, par)
        if hit is None:
            continue
        form, term = hit
        if par.zh != form or agrees(par, term):
            continue
        yield _finding("parenthetical-disagrees", "warning",
                       f"{par.raw} gives {par.rendering()!r}, but the glossary (line {term.line}) "
                       f"says {form} is {term.en!r}; align the note or the glossary",
                       note, par.offset, index, zh=form, note_en=par.rendering(), glossary_en=term.en)


@check("inconsistent-rendering", "warning", "notes")
def inconsistent_rendering(ctx: CheckContext) -> Iterable[Finding]:
    """The same Chinese term is given different English in different places."""
    groups: dict[str, list[tuple[NoteText, LineIndex, Parenthetical]]] = {}
    forms = ctx.glossary.form_map
    for note, index, par in _parentheticals(ctx):
        key = forms[par.zh].zh if par.zh in forms else par.zh
        groups.setdefault(key, []).append((note, index, par))
    for key, items in groups.items():
        for kind in ("english", "abbr"):
            renderings: dict[str, list[tuple[NoteText, LineIndex, Parenthetical]]] = {}
            for item in items:
                par = item[2]
                value = par.english if kind == "english" else par.abbr
                if not value:
                    continue
                norm = normalize_english(value) if kind == "english" else normalize_abbreviation(value)
                renderings.setdefault(norm, []).append(item)
            if len(renderings) < 2:
                continue
            places = []
            for group in renderings.values():
                for note, index, par in group:
                    line, column = index.position(par.offset)
                    shown = (par.english_seen or par.english) if kind == "english" else par.abbr
                    places.append(f"{shown!r} at {note.display}:{line}")
            first_note, first_index, first_par = next(iter(renderings.values()))[0]
            files = sorted({note.display for group in renderings.values() for note, _, _ in group})
            across = f" across {len(files)} notes" if len(files) > 1 else ""
            yield _finding("inconsistent-rendering", "warning",
                           f"{key} is rendered {len(renderings)} ways{across}: " + "; ".join(places)
                           + "; pick one and add it to the glossary",
                           first_note, first_par.offset, first_index, zh=key,
                           places=places, files=files)


@check("term-in-word", "info", "notes")
def term_in_word(ctx: CheckContext) -> Iterable[Finding]:
    """A glossary term matched inside a longer word (jieba), e.g. 数据集 in 数据集成."""
    from bisect import bisect_right

    from ..segment import blocks, cut_all, tokenizer_for

    forms = ctx.glossary.form_map
    if not forms:
        return
    freq = tokenizer_for(()).FREQ   # jieba's own dictionary: which words does a term cut?
    reported: set[tuple[str, str]] = set()
    for note in ctx.notes:
        matches = ctx.glossary.find_prose(note.prose)
        if not matches:
            continue
        index = LineIndex(note.text)
        # jieba cuts each of its runs on its own, so cutting only the runs that hold a
        # term's first or last character gives the words of the whole prose there
        runs = blocks(note.prose)
        run_starts = [lo for lo, _ in runs]

        def run_of(at: int) -> int | None:
            i = bisect_right(run_starts, at) - 1
            return i if i >= 0 and at < runs[i][1] else None

        wanted = sorted({i for m in matches for at in (m.start, m.end - 1)
                         if (i := run_of(at)) is not None})
        words_of: dict[int, tuple[list[int], list[str]]] = {}
        for i, words in zip(wanted, cut_all([note.prose[runs[i][0]:runs[i][1]] for i in wanted],
                                            hmm=False)):
            starts, pos = [], runs[i][0]
            for word in words:
                starts.append(pos)
                pos += len(word)
            words_of[i] = (starts, words)
        for match in matches:
            # the word holding the term's first character, then the one holding its last:
            # one that starts before the term and ends inside it, or starts inside and ends
            # after it, is cut by the term; a longer word that holds the whole term
            # (训练任务 ⊃ 训练) is harmless
            for at in (match.start, match.end - 1):
                i = run_of(at)
                if i is None:
                    continue                # outside every run: jieba makes no word there
                starts, words = words_of[i]
                j = bisect_right(starts, at) - 1
                w_start, word = starts[j], words[j]
                w_end = w_start + len(word)
                crosses = (w_start < match.start < w_end < match.end) or \
                    (match.start < w_start < match.end < w_end)
                if crosses and len(word) > 1 and word not in forms and freq.get(word, 0) > 0:
                    key = (match.form, word)
                    if key in reported:
                        break
                    reported.add(key)
                    lo, hi = max(0, match.start - 6), min(len(note.prose), match.end + 6)
                    window = note.prose[lo:hi]
                    yield _finding("term-in-word", "info",
                                   f"{match.form} ({match.term.en}) cuts the word {word} in "
                                   f"{' '.join(window.split())!r}; if the longer word means something "
                                   "else, add it to the glossary so the longest match wins",
                                   note, match.start, index, zh=match.form, word=word)
                    break


@check("term-overlap", "info", "notes")
def term_overlap(ctx: CheckContext) -> Iterable[Finding]:
    """Two glossary terms overlap in a note; the leftmost-longest match wins."""
    matcher = ctx.glossary.matcher
    reported: set[tuple[str, str]] = set()
    for note in ctx.notes:
        index = None
        longest: dict[int, Match] = {}          # start → the longest occurrence there
        for occurrence in matcher.occurrences(note.prose):
            longest.setdefault(occurrence.start, occurrence)
        for match in ctx.glossary.find_prose(note.prose):
            for p in range(match.start + 1, match.end):
                there = longest.get(p)
                if there is None or there.end <= match.end or there.term is match.term:
                    continue
                other = there.form
                key = (match.form, other)
                if key not in reported:
                    reported.add(key)
                    index = index or LineIndex(note.text)
                    joined = note.prose[match.start:p + len(other)]
                    yield _finding("term-overlap", "info",
                                   f"{match.form} and {other} overlap in {joined}; {match.form} "
                                   f"({match.term.en}) wins, {other} is not locked here",
                                   note, match.start, index, zh=match.form, other=other)
                break


def nesting_findings(text: str, display: str) -> list[Finding]:
    """``nesting-too-deep`` findings for a note's text (``zhen translate`` reports them too)."""
    out = []
    for first, last, count in unread_nesting(text):
        where = f"lines {first}-{last} nest" if last > first else f"line {first} nests"
        their = "their" if last > first else "its"
        out.append(Finding(
            "nesting-too-deep", "error",
            f"{where} deeper than the {MAX_NESTING} levels the Markdown parser reads, so "
            f"{their} Chinese ({count} character{'s' if count > 1 else ''}) is not translated "
            "and is copied as it is; nest it less deeply (fewer `>` or list levels)",
            display, first, extra={"last_line": last, "chinese": count}))
    return out


@check("nesting-too-deep", "error", "notes")
def nesting_too_deep(ctx: CheckContext) -> Iterable[Finding]:
    """No Chinese nested deeper than the Markdown parser reads (100 levels)."""
    for note in ctx.notes:
        yield from nesting_findings(note.text, note.display)
