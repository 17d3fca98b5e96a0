"""Checks over the notes, across files: term usage, bilingual parentheticals, text the
Markdown parser does not read."""

from __future__ import annotations

import re

from typing import Iterable

from ..bilingual import Parenthetical, note_sightings
from .. import terms
from ..findings import Finding
from ..glossary import Match, Term
from ..markdown import MAX_NESTING, unread_nesting
from ..english import chains, contains_term, same_term, term_key
from ..textutil import LineIndex, normalize_abbreviation, split_abbreviation
from .registry import CheckContext, NoteText, check, warms


def _finding(check_id, severity, message, note: NoteText, offset: int, index: LineIndex,
             **extra) -> Finding:
    line, column = index.position(offset)
    return Finding(check_id, severity, message, note.display, line, column, extra)


def _note_usage(ctx: CheckContext, note: NoteText) -> dict[str, int]:
    counted: dict[str, int] = {}
    for match in ctx.matches(note):
        counted[match.term.zh] = counted.get(match.term.zh, 0) + 1
    return counted


def usage_counts(ctx: CheckContext) -> dict[str, dict[str, int]]:
    """term zh → note → number of matches in its prose (cached on the context)."""
    if not ctx.usage:
        usage: dict[str, dict[str, int]] = {t.zh: {} for t in ctx.glossary.terms}
        for note in ctx.notes:
            counted = ctx.fact("usage", note.display, lambda note=note: _note_usage(ctx, note))
            for zh, n in counted.items():
                usage.setdefault(zh, {})[note.display] = n
        ctx.usage = usage
    return ctx.usage


@warms
def _warm_usage(ctx: CheckContext) -> None:
    """Each note's count of term matches (the report's terms used), made in its shard."""
    for note in ctx.notes:
        ctx.fact("usage", note.display, lambda note=note: _note_usage(ctx, note))


def occurrence_counts(ctx: CheckContext, notes) -> dict[str, int]:
    """term zh → occurrences of any of its forms in ``notes``' prose, inside longer terms
    too (协同设计 in 软硬件协同设计 is a use of the word, though the longer term is locked)."""
    counts: dict[str, int] = {}
    for note in notes:
        for zh, n in ctx.fact("occurrences", note.display,
                              lambda note=note: _note_occurrences(ctx.glossary, note)).items():
            counts[zh] = counts.get(zh, 0) + n
    return counts


def _note_occurrences(glossary, note) -> dict[str, int]:
    counted: dict[str, int] = {}
    for match in glossary.matcher.occurrences(note.prose):
        counted[match.term.zh] = counted.get(match.term.zh, 0) + 1
    return counted


@warms
def _warm_occurrences(ctx: CheckContext) -> None:
    """term-unused's counts of each note, made in its shard."""
    occurrence_counts(ctx, ctx.notes)


@check("term-unused", "info", "notes")
def unused_terms(ctx: CheckContext) -> Iterable[Finding]:
    """Glossary terms that no note of the project uses (inside longer terms counts)."""
    notes = ctx.project_notes if ctx.project_notes is not None else ctx.notes
    if not notes:
        return
    counts = occurrence_counts(ctx, notes)
    for term in ctx.glossary.terms:
        if not counts.get(term.zh):
            yield Finding("term-unused", "info",
                          f"{term.zh} ({term.en}) appears in none of the project's {len(notes)} "
                          "notes, not even inside a longer term; remove it if no note will",
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


def agrees(par: Parenthetical, term: Term) -> bool:
    """Does the parenthetical's English (or abbreviation) fit the glossary's `en`? English
    is compared as English (:mod:`english`: case, hyphens and inflections do not matter),
    and a parenthetical that holds the `en`, or is held by it, agrees."""
    en_words, en_abbr = split_abbreviation(term.en)
    if par.abbr and en_abbr and normalize_abbreviation(par.abbr) != normalize_abbreviation(en_abbr):
        return False
    if par.english:
        if terms.says(term, par.english):       # one of its forms (terms.py)
            return True
        # English compared as English (english.py): case, hyphens, inflections
        return same_term(par.english, en_words) or contains_term(par.english, en_words) \
            or contains_term(en_words, par.english)
    return True


def _unmarked(raw: str) -> str:
    """A sighting as a reader sees it: without the emphasis mark that closes its Chinese
    (``*瓦螨*（Varroa destructor）`` is shown 瓦螨（Varroa destructor）, not 瓦螨*（…）)."""
    return re.sub(r"(?:\*{1,3}|_{1,2})(?=[ \t]*[（(])", "", raw)


@check("parenthetical-disagrees", "warning", "notes", per_note=True)
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
                       f"{_unmarked(par.raw)} gives {par.rendering()!r}, but the glossary (line {term.line}) "
                       f"says {form} is {term.en!r}; align the note or the glossary",
                       note, par.offset, index, zh=form, note_en=par.rendering(), glossary_en=term.en)


@check("inconsistent-rendering", "warning", "notes")
def inconsistent_rendering(ctx: CheckContext) -> Iterable[Finding]:
    """The same Chinese term is given different English in different places."""
    groups: dict[str, list[tuple[NoteText, LineIndex, Parenthetical]]] = {}
    forms = ctx.glossary.form_map
    for note, index, par in _parentheticals(ctx):
        if par.zh in forms:
            continue      # a glossary term: parenthetical-disagrees names each that differs
        groups.setdefault(par.zh, []).append((note, index, par))
    for key, items in groups.items():
        for kind in ("english", "abbr"):
            renderings: dict[str, list[tuple[NoteText, LineIndex, Parenthetical]]] = {}
            for item in items:
                par = item[2]
                value = par.english if kind == "english" else par.abbr
                if not value:
                    continue
                norm = term_key(value) if kind == "english" else normalize_abbreviation(value)
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


def cuts_word(prose: str, start: int, end: int, word_start: int, word: str,
              run: tuple[int, int]) -> bool:
    """Is a term at ``prose[start:end]`` really cutting the jieba word ``word`` (at
    ``word_start``), or did jieba merely cut there? Evidence beyond that one cut, from
    the dictionaries (CC-CEDICT headwords, jieba's frequencies and part of speech):

    * the word is a CC-CEDICT headword and a content word (not an adverb such as 的确,
      nor another function word), not a compound only jieba lists (计算资源);
    * the piece of the word outside the term is no function word: a term followed by 中
      or 的 (数据集中, 端到端的) is the ordinary reading;
    * what the term keeps outside the word is a word itself (数据|集成, not 端到|端的);
    * the text beyond the term does not read on as a longer word from the term's edge
      (数据库|存储 reads on as 存储, so the term's boundary is a word boundary there).
    """
    from ..align import dictionary_index
    from ..bilingual import is_function_word
    from ..segment import cut_all, posseg, tokenizer_for

    word_end = word_start + len(word)
    if word not in dictionary_index():
        return False
    flag = posseg(word)[0][1] if len(posseg(word)) == 1 else "x"
    if flag in ("d", "z") or is_function_word(flag, word):
        return False
    right = start < word_start < end < word_end
    outside = prose[end:word_end] if right else prose[word_start:start]
    kept = prose[start:word_start] if right else prose[word_end:end]
    pieces = posseg(outside)
    near = pieces[0] if right else pieces[-1]
    if is_function_word(near[1], near[0]) or near[1] in ("d", "f"):
        return False
    freq = tokenizer_for(()).FREQ
    if kept not in dictionary_index() and not freq.get(kept):
        return False
    lo, hi = run
    if right:
        beyond = cut_all([prose[end:hi]], hmm=False)[0]
        return not beyond or len(beyond[0]) <= len(outside)
    before = cut_all([prose[lo:start]], hmm=False)[0]
    return not before or len(before[-1]) <= len(outside)


@check("term-in-word", "info", "notes", once=("zh", "word"))
def term_in_word(ctx: CheckContext) -> Iterable[Finding]:
    """A glossary term matched inside a longer word with another meaning (数据集 in 数据集成)."""
    from bisect import bisect_right

    from ..segment import blocks, cut_runs

    forms = ctx.glossary.form_map
    if not forms:
        return
    reported: set[tuple[str, str]] = set()
    for note in ctx.notes:
        matches = ctx.matches(note)
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
        for i, words in zip(wanted, cut_runs(note.prose, [note.prose[runs[i][0]:runs[i][1]]
                                                          for i in wanted])):
            starts, pos = [], runs[i][0]
            for word in words:
                starts.append(pos)
                pos += len(word)
            words_of[i] = (starts, words)
        for match in matches:
            # the word holding the term's first character, then the one holding its last:
            # one that starts before the term and ends inside it, or starts inside and ends
            # after it, crosses the term; a longer word that holds the whole term
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
                if not crosses or len(word) < 2 or word in forms:
                    continue
                key = (match.form, word)
                if key in reported or not cuts_word(note.prose, match.start, match.end,
                                                    w_start, word, runs[i]):
                    continue
                reported.add(key)
                lo, hi = max(0, match.start - 6), min(len(note.prose), match.end + 6)
                window = note.prose[lo:hi]
                yield _finding("term-in-word", "info",
                               f"{match.form} ({match.term.en}) cuts the word {word} in "
                               f"{' '.join(window.split())!r}; if the longer word means something "
                               "else, add it to the glossary so the longest match wins",
                               note, match.start, index, zh=match.form, word=word)
                break


@check("term-overlap", "info", "notes", once=("zh", "other"))
def term_overlap(ctx: CheckContext) -> Iterable[Finding]:
    """Two glossary terms overlap in a note and the winner's English does not read on into
    the loser's (数据并行策略: data parallelism, not parallelization strategy)."""
    matcher = ctx.glossary.matcher
    reported: set[tuple[str, str]] = set()
    for note in ctx.notes:
        index = None
        longest: dict[int, Match] = {}          # start → the longest occurrence there
        for occurrence in matcher.occurrences(note.prose):
            longest.setdefault(occurrence.start, occurrence)
        for match in ctx.matches(note):
            for p in range(match.start + 1, match.end):
                there = longest.get(p)
                if there is None or there.end <= match.end or there.term is match.term:
                    continue
                other = there.form
                key = (match.form, other)
                if chains(match.term.en, there.term.en):
                    break       # input sequence + sequence length: the English reads on
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


@check("nesting-too-deep", "error", "notes", per_note=True)
def nesting_too_deep(ctx: CheckContext) -> Iterable[Finding]:
    """No Chinese nested deeper than the Markdown parser reads (100 levels)."""
    for note in ctx.notes:
        yield from nesting_findings(note.text, note.display)
