"""Lint of the glossary against what it does to the notes: entries that are valid YAML and
valid schema, yet make wrong English or block right English. Each finding names the
glossary line and the other line it is about (a note's, or another entry's).

* ``abbreviation-in-en`` — an `en` ending in an abbreviation (``workgroup (WG)``) printed
  at every use, where the notes give their own parenthetical after the term: the output
  says it twice (``workgroup (WG) (WGs)``);
* ``term-repeats-latin`` — a term whose locked English repeats the Latin text beside it
  in a note (GPU显存 → ``GPU GPU memory``);
* ``forbid-too-broad`` — a `forbid` that is right English where its term is: a sense
  CC-CEDICT gives the term's own Chinese (量化 *quantification*: 不确定性量化 holds 量化 and
  is uncertainty quantification), a technical term of its own (*operand*: 算子的操作数), or
  English the notes write in a sentence that holds the term (the translation copies it, so
  that sentence can never pass). A forbid is matched in the English of every sentence
  whose source holds its term (terms.forbidden); ``forbid-conflict``, which finds a forbid
  another entry's `en` holds, is extended here to inflected forms;
* ``note-form-rejected`` — a `note` asking for a form of the term (*quantize*,
  *mixed-precision X*) that the output check does not count as the term;
* ``same-concept`` (info) — two entries that look like one concept: one Chinese form is
  the other with characters left out, and its English the other's with only adjectives
  left out (前馈网络 *feed-forward network*, 前馈神经网络 *feed-forward neural network*);
  an inserted noun makes another concept (大模型 *large model*, 大型语言模型 *large
  language model*);
* ``overlapping-terms`` — with no notes to look at, forms of two entries that overlap
  where their English does not read on (in the notes, ``term-overlap`` says where).

Why this module is long: each rule is a check across the glossary and the notes, and the
ones that read the notes split into a note's reading (made in its shard under
``glossary check --jobs``, ``@warms``) and the project's verdict; the rules share the
English comparisons and the places they print, so one module owns the glossary's lint.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate
from typing import Iterable

from ..english import chains, contains_term, lemma, lemmas, same_term, term_key, words
from ..findings import Finding
from ..glossary import Term
from ..textutil import CJK_RE, LineIndex, split_abbreviation, whole_phrase_re
from .registry import CheckContext, check, warms

MAX_PLACES = 3


def _en_line(term: Term) -> int:
    return term.positions.get("en", (term.line, None))[0]


def _places(items: list[tuple[str, int]]) -> str:
    shown = [f"{display}:{line}" for display, line in items[:MAX_PLACES]]
    more = f" and {len(items) - MAX_PLACES} more" if len(items) > MAX_PLACES else ""
    return ", ".join(shown) + more


# ------------------------------------------------------------------ abbreviation in en

_PAREN_AFTER = re.compile(r"[ \t]?[（(]([^（）()\n]{1,80})[）)]")


def _with_abbreviation(ctx: CheckContext) -> dict[str, Term]:
    return {t.zh: t for t in ctx.glossary.terms if split_abbreviation(t.en)[1]}


def _note_abbreviations(ctx: CheckContext, note, with_abbr: dict[str, Term]):
    """One note's part of ``abbreviation-in-en``: (term, line, the parenthetical) where a
    parenthetical other than the abbreviation follows a term whose `en` has one; (term,
    line) of each use of such a term; and how often each abbreviation is written."""
    given, uses = [], []
    index = None
    for match in ctx.matches(note):
        term = match.term
        if term.zh not in with_abbr:
            continue
        index = index or LineIndex(note.text)
        line = index.position(match.start)[0]
        uses.append((term.zh, line))
        after = _PAREN_AFTER.match(note.prose, match.end)
        if after is None or CJK_RE.search(after.group(1)):
            continue
        if after.group(1).strip() == split_abbreviation(term.en)[1]:
            continue                          # the lock says it once (byte-identical)
        given.append((term.zh, line, after.group(0).strip()))
    written = {}
    for abbr in {split_abbreviation(t.en)[1] for t in with_abbr.values()}:
        if abbr in note.prose:
            found = len(re.findall(rf"(?<![A-Za-z0-9]){re.escape(abbr)}s?(?![A-Za-z0-9])",
                                   note.prose))
            if found:
                written[abbr] = found
    return given, uses, written


def _abbreviations(ctx: CheckContext, note, with_abbr: dict[str, Term]):
    return ctx.fact("abbreviations", note.display,
                    lambda: _note_abbreviations(ctx, note, with_abbr))


@warms
def _warm_abbreviations(ctx: CheckContext) -> None:
    """abbreviation-in-en's reading of each note, made in its shard."""
    with_abbr = _with_abbreviation(ctx)
    if with_abbr:
        for note in ctx.notes:
            _abbreviations(ctx, note, with_abbr)


@check("abbreviation-in-en", "warning", "glossary")
def abbreviation_in_en(ctx: CheckContext) -> Iterable[Finding]:
    """An `en` with an abbreviation the notes also give in a parenthetical (said twice)."""
    with_abbr = _with_abbreviation(ctx)
    if not with_abbr:
        return
    seen: dict[str, list[tuple[str, int, str]]] = {}
    uses: dict[str, list[tuple[str, int]]] = {}
    written: dict[str, int] = {}
    for note in ctx.notes:
        given, used, counts = _abbreviations(ctx, note, with_abbr)
        for zh, line, paren in given:
            seen.setdefault(zh, []).append((note.display, line, paren))
        for zh, line in used:
            uses.setdefault(zh, []).append((note.display, line))
        for abbr, n in counts.items():
            written[abbr] = written.get(abbr, 0) + n
    # where the abbreviation is printed at every use while the notes write it far less
    for zh, places in uses.items():
        if zh in seen:
            continue
        term = with_abbr[zh]
        abbr = split_abbreviation(term.en)[1]
        if len(places) < 3 or 2 * written.get(abbr, 0) >= len(places):
            continue
        line = _en_line(term)
        yield Finding("abbreviation-in-en", "warning",
                      f"{zh}: `en` {term.en!r} (line {line}) prints ({abbr}) at each of its "
                      f"{len(places)} uses ({_places(places)}), while the notes write {abbr} "
                      f"{written.get(abbr, 0)} time(s); write `en: {split_abbreviation(term.en)[0]}` "
                      "and let the notes say the abbreviation where they define it",
                      ctx.glossary.path, line, None,
                      {"zh": zh, "en": term.en, "places": [f"{d}:{n}" for d, n in places]})
    for zh, places in seen.items():
        places = list(dict.fromkeys(places))
        term = with_abbr[zh]
        words_en, abbr = split_abbreviation(term.en)
        line = _en_line(term)
        where = _places([(d, n) for d, n, _ in places])
        yield Finding("abbreviation-in-en", "warning",
                      f"{zh}: `en` {term.en!r} (line {line}) prints ({abbr}) at every use, and "
                      f"the notes give their own {places[0][2]} after it ({where}), so the "
                      f"English says it twice; write `en: {words_en}` and let the notes' "
                      "parentheticals carry the abbreviation",
                      ctx.glossary.path, line, None,
                      {"zh": zh, "en": term.en, "places": [f"{d}:{n}" for d, n, _ in places]})


# ------------------------------------------------------------- locked English repeats

_LATIN_BEFORE = re.compile(r"([A-Za-z][A-Za-z0-9\-]*)[ \t]?$")
_LATIN_AFTER = re.compile(r"[ \t]?([A-Za-z][A-Za-z0-9\-]*)")


def _same_word(a: str, b: str) -> bool:
    return a.lower() == b.lower() or bool(lemmas(a) & lemmas(b))


def _note_repeats(ctx: CheckContext, note) -> list[tuple[str, str, int]]:
    """One note's part of ``term-repeats-latin``: (term, the form with its Latin, line)."""
    out = []
    index = None
    for match in ctx.matches(note):
        en_words = words(split_abbreviation(match.term.en)[0])
        if not en_words:
            continue
        before = _LATIN_BEFORE.search(note.prose, max(0, match.start - 40), match.start)
        after = _LATIN_AFTER.match(note.prose, match.end)
        hit = None
        if before and _same_word(before.group(1), en_words[0]):
            hit = f"{before.group(1)}{match.form}"
        elif after and _same_word(after.group(1), en_words[-1]):
            hit = f"{match.form}{after.group(1)}"
        if hit is None:
            continue
        index = index or LineIndex(note.text)
        out.append((match.term.zh, hit, index.position(match.start)[0]))
    return out


def _repeats(ctx: CheckContext, note) -> list[tuple[str, str, int]]:
    return ctx.fact("latin-repeats", note.display, lambda: _note_repeats(ctx, note))


@warms
def _warm_repeats(ctx: CheckContext) -> None:
    """term-repeats-latin's reading of each note, made in its shard."""
    for note in ctx.notes:
        _repeats(ctx, note)


@check("term-repeats-latin", "warning", "glossary")
def term_repeats_latin(ctx: CheckContext) -> Iterable[Finding]:
    """A term whose locked English repeats the Latin text beside it (GPU显存 → GPU GPU memory)."""
    found: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for note in ctx.notes:
        for zh, hit, line in _repeats(ctx, note):
            found.setdefault((zh, hit), []).append((note.display, line))
    for (zh, hit), places in found.items():
        term = ctx.glossary.by_zh(zh)
        yield Finding("term-repeats-latin", "warning",
                      f"{zh} is locked to {term.en!r} (line {_en_line(term)}), which repeats the "
                      f"Latin beside it in {hit} ({_places(places)}): the English reads "
                      f"{_doubled(hit, term)!r}; add {hit} as its own entry (or a variant) so the "
                      "longer form wins",
                      ctx.glossary.path, term.line, None,
                      {"zh": zh, "form": hit, "places": [f"{d}:{n}" for d, n in places]})


def _doubled(hit: str, term: Term) -> str:
    latin = CJK_RE.sub("", hit)
    en = split_abbreviation(term.en)[0]
    return f"{latin} {en}" if hit[:1].isascii() else f"{en} {latin}"


# ----------------------------------------------------------------------- forbid

def _senses(form: str) -> list[str]:
    from ..align import PAREN_NOTE, dictionary_index

    out = []
    for entry in dictionary_index().entries(form):
        for sense in entry.senses:
            text = " ".join(PAREN_NOTE.sub(" ", sense).split()).removeprefix("to ")
            if text:
                out.append(text)
    return out


def _is_sense(phrase: str, senses: list[str]) -> str | None:
    for sense in senses:
        if same_term(phrase, sense):
            return sense
    return None


_SENTENCE_END = re.compile(r"[。！？；\n]+")


def _sentences_with_latin(ctx: CheckContext) -> list[tuple[str, str, set[str]]]:
    """(note:line, sentence, entries it holds) for each sentence of the notes that has
    Latin text: where a forbid would meet English the translation copies."""
    return [item for note in ctx.notes
            for item in ctx.fact("latin-sentences", note.display,
                                 lambda note=note: _note_latin_sentences(ctx, note))]


def _note_latin_sentences(ctx: CheckContext, note) -> list[tuple[str, str, set[str]]]:
    out = []
    index = None
    pos = 0
    for piece in _SENTENCE_END.split(note.prose):
        start = note.prose.find(piece, pos)
        pos = start + len(piece)
        if not re.search(r"[A-Za-z]{2}", piece):
            continue
        held = {m.term.zh for m in ctx.glossary.find_prose(piece)}
        if held:
            index = index or LineIndex(note.text)
            out.append((f"{note.display}:{index.position(start)[0]}", piece, held))
    return out


@warms
def _warm_latin_sentences(ctx: CheckContext) -> None:
    if any(t.forbid for t in ctx.glossary.terms):       # forbid-too-broad's only reader
        _sentences_with_latin(ctx)


def _lemma_index(terms, wanted: set[str] | None = None) -> dict[str, set[int]]:
    """Each word form and lemma of the entries' English → the entries holding it; with
    ``wanted``, only those keys (what :func:`_candidates` asks about the forbids): each
    distinct word's lemmas are looked up once, and a key no forbid has is not stored."""
    from ..english import lemmas, words

    by_word: dict[str, list[int]] = {}
    for k, term in enumerate(terms):
        for word in words(term.en):
            by_word.setdefault(word, []).append(k)
    out: dict[str, set[int]] = {}
    for word, holders in by_word.items():
        for key in {word.lower(), *lemmas(word)}:
            if wanted is None or key in wanted:
                out.setdefault(key, set()).update(holders)
    return out


def _lemma_keys(phrase: str) -> set[str]:
    """What :func:`_candidates` looks up in the index for ``phrase``."""
    from ..english import lemmas, words

    return {key for word in words(phrase) for key in {word.lower(), *lemmas(word)}}


def _candidates(index: dict[str, set[int]], phrase: str) -> list[int]:
    """The entries (in glossary order) whose English has a word sharing a form or lemma
    with every word of ``phrase``: the only ones that can hold it (english.contains_term)."""
    from ..english import lemmas, words

    found: set[int] | None = None
    for word in words(phrase):
        having = set().union(*(index.get(key, set()) for key in {word.lower(), *lemmas(word)}))
        found = having if found is None else found & having
        if not found:
            return []
    return sorted(found or ())


class _Renderings:
    """The entries' English, to find which of them a forbid's pattern matches: where the
    phrase and an entry are ASCII (case-insensitive matching is then ``lower()``), only
    the entries whose lower case holds the phrase's longest word are searched, found with
    ``str.find`` over all of them joined; the other entries are searched one by one. The
    entries a ``whole_phrase_re`` search of each entry finds, at any glossary size."""

    def __init__(self, terms) -> None:
        self.terms = terms
        ascii_en = [t.en.isascii() for t in terms]
        self.other = [k for k, a in enumerate(ascii_en) if not a]
        # NUL between: no part of a phrase (split at white space) runs over it, so no hit
        # spans two entries; a non-ASCII entry is an empty place (searched by itself)
        self.lower = "\0".join(t.en.lower() if a else "" for t, a in zip(terms, ascii_en))
        self.starts = list(accumulate((len(t.en) + 1 if a else 1
                                       for t, a in zip(terms[:-1], ascii_en)), initial=0))

    def holding(self, phrase: str, pattern: re.Pattern[str]) -> set[int]:
        terms = self.terms
        parts = phrase.split()
        if not phrase.isascii() or not parts:
            return {k for k, t in enumerate(terms) if pattern.search(t.en)}
        needle = max(parts, key=len).lower()
        maybe: list[int] = []
        text, starts = self.lower, self.starts
        at = text.find(needle)
        while at >= 0:
            k = bisect_right(starts, at) - 1
            maybe.append(k)
            at = text.find(needle, starts[k + 1]) if k + 1 < len(starts) else -1
        return {k for k in (*maybe, *self.other) if pattern.search(terms[k].en)}


@check("forbid-too-broad", "warning", "glossary")
def forbid_too_broad(ctx: CheckContext) -> Iterable[Finding]:
    """A `forbid` that is right English elsewhere (it is matched in every sentence)."""
    from ..cedict import technical_phrases

    terms = ctx.glossary.terms
    if not any(t.forbid for t in terms):
        return
    technical = None
    english = None
    index = None
    renderings = _Renderings(terms)
    # a phrase with a word no entry holds is searched no further
    folded = "\0".join(t.en for t in terms).casefold()
    for term in terms:
        for phrase in term.forbid:
            fline = term.positions.get(f"forbid:{phrase}", (term.line, None))[0]
            pattern = whole_phrase_re(phrase)
            holding = renderings.holding(phrase, pattern) \
                if all(part.casefold() in folded for part in phrase.split()) else set()
            if any(terms[k] is not term for k in holding):
                continue                  # forbid-conflict says it (one finding per cause)
            # another entry's en holding it as an inflected form (the exact form is
            # forbid-conflict's, found when the glossary is read); only entries sharing a
            # lemma with each of its words can (an index of the keys the forbids ask about,
            # so 5,000 entries cost little more)
            if index is None:
                index = _lemma_index(terms, {key for t in terms for p in t.forbid
                                             for key in _lemma_keys(p)})
            maybe = _candidates(index, phrase)
            other = next((terms[k] for k in maybe if terms[k] is not term
                          and k not in holding
                          and contains_term(terms[k].en, phrase)), None)
            if other is not None:
                yield Finding("forbid-conflict", "warning",
                              f"{term.zh} forbids {phrase!r} (line {fline}), and {other.zh} must "
                              f"be rendered {other.en!r} (line {_en_line(other)}), an inflected "
                              "form of it; a sentence with both terms cannot pass",
                              ctx.glossary.path, fline, None,
                              {"lines": [fline, _en_line(other)], "zh": term.zh})
                continue
            why = None
            own = next(((f, s) for f in term.forms if (s := _is_sense(phrase, _senses(f)))),
                       None) if len(words(phrase)) == 1 else None
            if own is not None:
                why = (f"CC-CEDICT gives {own[1]!r} as a sense of {own[0]} itself, so wherever "
                       f"{own[0]} means that (alone or in a longer word), the right English "
                       "is banned")
            elif term_key(phrase) in (technical := technical or
                                      frozenset(term_key(p) for p in technical_phrases())):
                why = (f"{phrase!r} is a technical term of its own (CC-CEDICT), right in any "
                       f"sentence that also means it")
            else:
                if english is None:
                    english = _sentences_with_latin(ctx)
                at = next(((place, m) for place, sentence, held in english
                           if term.zh in held and (m := pattern.search(sentence))), None)
                if at is not None:
                    why = (f"the notes write {at[1].group(0)!r} in a sentence that holds "
                           f"{term.zh} ({at[0]}), and the translation copies it, so that "
                           "sentence can never pass")
            if why is None:
                continue
            yield Finding("forbid-too-broad", "warning",
                          f"{term.zh} forbids {phrase!r} (line {fline}; `en` {term.en!r} at line "
                          f"{_en_line(term)}): a forbid is matched in the English of every "
                          f"sentence that holds {term.zh}, and {why}; drop it, or forbid the "
                          "wrong phrase in full",
                          ctx.glossary.path, fline, None,
                          {"zh": term.zh, "forbidden": phrase, "lines": [fline, _en_line(term)]})


# ------------------------------------------------------------------ notes' forms

_QUOTED = re.compile(r"'([^'\n]{2,60})'|\"([^\"\n]{2,60})\"|“([^”\n]{2,60})”|`([^`\n]{2,60})`"
                     r"|(?:=|:)\s*([A-Za-z][A-Za-z\- ]{1,60}[A-Za-z])")


def _related(form: str, en: str) -> bool:
    """Does ``form`` use a word of ``en`` in another form (quantize ~ quantization)?"""
    from ..align import stem

    for a in words(form):
        for b in words(en):
            if a.lower() == b.lower() or lemmas(a) & lemmas(b):
                return True
            sa, sb = stem(a), stem(b)
            if len(sa) >= 4 and len(sb) >= 4 and (sa.startswith(sb) or sb.startswith(sa)):
                return True
    return False


def prescribed_forms(note: str) -> list[str]:
    """English forms a note asks for: quoted ones, and the phrase after ``=`` or ``:``."""
    out = []
    for match in _QUOTED.finditer(note):
        form = next(g for g in match.groups() if g)
        form = form.strip(" .,;")
        if match.group(5) and len(form.split()) > 4:
            continue                      # "Mechanism: the small set of …" explains, not prescribes
        if form and not re.search(r"[（）()\[\]]", form) and not CJK_RE.search(form) \
                and re.search(r"[A-Za-z]{2}", form):
            out.append(form)
    return out


@check("note-form-rejected", "warning", "glossary")
def note_form_rejected(ctx: CheckContext) -> Iterable[Finding]:
    """A `note` prescribing a form of the term the output check does not count as it."""
    from .. import terms as rendering

    for term in ctx.glossary.terms:
        if not term.note:
            continue
        en = split_abbreviation(term.en)[0]
        rejected = [f for f in prescribed_forms(term.note)
                    if _related(f, en) and not rendering.count(term, f)
                    and not re.search(rf"(?:never|not|no)\W+\W?{re.escape(f)}", term.note,
                                      re.IGNORECASE)]
        if not rejected:
            continue
        nline = term.positions.get("note", (term.line, None))[0]
        shown = ", ".join(repr(f) for f in dict.fromkeys(rejected))
        yield Finding("note-form-rejected", "warning",
                      f"{term.zh}: the note (line {nline}) asks for {shown}, but the output check "
                      f"counts only {term.en!r} (line {_en_line(term)}) for {term.zh}, so English "
                      "written that way is term-missing (edit-invalid in a person's edit); drop "
                      "that advice, or add an entry for the compound that needs the form",
                      ctx.glossary.path, nline, None,
                      {"zh": term.zh, "forms": list(dict.fromkeys(rejected)),
                       "lines": [nline, _en_line(term)]})


# ------------------------------------------------------------------- one concept

def _subsequence(short: str, long: str) -> bool:
    it = iter(long)
    return all(ch in it for ch in short)


@check("same-concept", "info", "glossary")
def same_concept(ctx: CheckContext) -> Iterable[Finding]:
    """Two entries whose English names one concept (make one a variant of the other)."""
    terms = ctx.glossary.terms
    reported: set[tuple[str, str]] = set()
    # one Chinese form the other with characters left out, and one English the other with
    # words left out, first and last words kept: 前馈网络 / 前馈神经网络
    by_head: dict[tuple[str, str], list[Term]] = {}
    for term in terms:
        w = words(split_abbreviation(term.en)[0])
        if len(w) >= 2:
            by_head.setdefault((lemma(w[0]), lemma(w[-1])), []).append(term)
    for group in by_head.values():
        if len(group) < 2 or len(group) > 40:
            continue
        for a in group:
            for b in group:
                if a is b or len(a.zh) >= len(b.zh) or (a.zh, b.zh) in reported:
                    continue
                if a.zh[0] != b.zh[0] or a.zh[-1] != b.zh[-1] or a.zh in b.zh \
                        or not _subsequence(a.zh, b.zh):
                    continue
                wa, wb = words(split_abbreviation(a.en)[0]), words(split_abbreviation(b.en)[0])
                extra = _extra_words(wa, wb)
                # the words spelled out only describe (feed-forward *neural* network): an
                # inserted noun makes another concept (large *language* model, HPC *data* center)
                if len(wa) < len(wb) and _subsequence([lemma(x) for x in wa],
                                                      [lemma(x) for x in wb]) \
                        and extra and all(_adjective_only(x) for x in extra):
                    reported.add((a.zh, b.zh))
                    yield _concept(ctx, a, b, f"{b.zh} is {a.zh} with {_extra(a.zh, b.zh)} "
                                   f"spelled out, and {b.en!r} is {a.en!r} with "
                                   f"{' '.join(_extra_words(wa, wb))!r}")


def _adjective_only(word: str) -> bool:
    """An English adjective that is no noun or verb (lemminflect's dictionary)."""
    from ..english import parts_of_speech

    pos = parts_of_speech(word)
    return bool(pos) and pos <= {"ADJ", "ADV"}


def _extra(short: str, long: str) -> str:
    out, it = [], iter(short)
    want = next(it, None)
    for ch in long:
        if ch == want:
            want = next(it, None)
        else:
            out.append(ch)
    return "".join(out)


def _extra_words(short: list[str], long: list[str]) -> list[str]:
    want = [lemma(x) for x in short]
    out, i = [], 0
    for word in long:
        if i < len(want) and lemma(word) == want[i]:
            i += 1
        else:
            out.append(word)
    return out


def _concept(ctx: CheckContext, a: Term, b: Term, why: str) -> Finding:
    return Finding("same-concept", "info",
                   f"{a.zh} (line {a.line}, {a.en!r}) and {b.zh} (line {b.line}, {b.en!r}) name "
                   f"one concept: {why}; keep one entry with the other as a variant, so one "
                   "English is used", ctx.glossary.path, b.line, None,
                   {"lines": [a.line, b.line], "zh": [a.zh, b.zh]})


# -------------------------------------------------------------- overlapping forms

@check("overlapping-terms", "info", "glossary")
def overlapping_terms(ctx: CheckContext) -> Iterable[Finding]:
    """Forms of two entries overlapping where their English does not read on (checked
    with no notes; in notes, term-overlap says where it happens)."""
    if ctx.notes:
        return
    forms = ctx.glossary.form_map
    by_prefix: dict[str, list[str]] = {}
    for form in forms:
        for k in range(1, len(form)):
            by_prefix.setdefault(form[:k], []).append(form)
    reported = set()
    for form, term in forms.items():
        for k in range(1, len(form)):
            tail = form[k:]
            for other in by_prefix.get(tail, ()):
                oterm = forms[other]
                if oterm is term or form in other or other in form:
                    continue
                joined = form + other[len(tail):]
                if joined in forms or chains(term.en, oterm.en) or (form, other) in reported:
                    continue
                reported.add((form, other))
                line = term.form_lines.get(form, (term.line, None))[0]
                oline = oterm.form_lines.get(other, (oterm.line, None))[0]
                yield Finding("overlapping-terms", "info",
                              f"{form} (line {line}) and {other} (line {oline}) overlap in "
                              f"{joined}: {form} wins and reads {term.en!r}, so {oterm.en!r} is "
                              f"not used there; if {joined} occurs, add it as an entry",
                              ctx.glossary.path, line, None,
                              {"forms": [form, other], "lines": [line, oline]})
