"""What English renders a glossary term: the one owner of that notion.

A locked term is written as its ``en`` or an inflected form of it, never as a different
word:

* **plural** — the glossary entry's ``plural:`` when it gives one (``plural: false``: the
  term has none, like *hardware*), else the plural English morphology gives the head noun
  (:func:`plural_of`: the last word, or the word before ``of``; an abbreviation takes
  ``s``; ``data transfer node (DTN)`` → ``data transfer nodes (DTNs)``);
* **possessive** — ``'s`` after it, ``'`` after a plural in ``s``.

Between the words of ``en`` any white space or a hyphen may stand (``mixed-precision
training`` renders *mixed precision*); no letter or digit may touch it on either side.
Readers compare ignoring case; zhen *writes* a term in its glossary case, with a capital
only where it starts a sentence (:func:`capitalise_start`).

Who asks: the validator (each term of the source appears in the English as often as its
forms), ``glossary check`` (term-missing), the review page's term highlighting, the
locking layer (a placeholder the engine wrote with a plural ``s`` — ``5 ZX1s`` — becomes
the term's plural; a parenthetical that repeats a term is said once), the gloss engine
(plurals of its own words) and the forbid lists (:func:`forbidden`: a ``forbid`` is
matched only in the English of the text its term occurs in, piece by piece between
placeholders, never across one).

The morphology is lemminflect's (MIT; its lexicon is inside the wheel, so nothing is
downloaded): it knows irregular and Latin plurals (*matrices*, *criteria*, *vertices*)
and mass nouns (*hardware*, *traffic*); its tables are read word by word from an index in
the cache folder (:mod:`lexicon`), so a plural costs a look-up, not lemminflect's import. ``inflect`` 7 was measured at 1.5 s per import here (its typeguard
decorators re-parse the module, jaraco/inflect#212); ``simplemma`` lemmatises but does not
inflect. Comparing two English phrases as one term (lemmas, case, hyphens) is
:mod:`english`'s, which reads the same lemminflect.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable

from .textutil import whole_phrase_re

_LATIN = "A-Za-z0-9"
_ABBREVIATION = re.compile(r"^[A-Z0-9][A-Za-z0-9&/.\-]*$")
_WITH_ABBREVIATION = re.compile(r"^(?P<words>.*\S)\s*\((?P<abbr>[A-Za-z0-9&/.\-]+)\)$")
_MARKUP_START = re.compile(r"^[*_~\[(\"'“‘]*")


# --------------------------------------------------------------------------- morphology

def _is_abbreviation(word: str) -> bool:
    return bool(_ABBREVIATION.match(word)) and sum(c.isupper() for c in word) >= 2


@lru_cache(maxsize=8192)
def noun_plurals(word: str) -> tuple[str, ...]:
    """The plural forms of one English noun, the usual one first; () when it has none
    (a mass noun such as *hardware*, or a word that is not a noun head)."""
    if not word or not any(c.isalpha() for c in word):
        return ()
    if _is_abbreviation(word):
        return (word + "s",)                         # GPU → GPUs, FFT → FFTs
    if not word.isalpha():
        return ()
    from .lexicon import lemminflect

    lower = word.lower()
    forms = [f for f in lemminflect().getInflection(lower, "NNS") if f]
    if not forms or forms[0] == lower:
        return ()                                    # uncountable: hardware, traffic
    if word[0].isupper():                            # Tensor Core → Tensor Cores
        forms = [f[0].upper() + f[1:] for f in forms]
    return tuple(dict.fromkeys(f for f in forms if f.lower() != lower))


@lru_cache(maxsize=8192)
def plural_of(phrase: str) -> tuple[str, ...]:
    """Plural forms of a noun phrase, the usual one first: its head noun inflected (the
    last word, or the last before ``of``; after a hyphen, the last part); an abbreviation
    in parentheses follows its words. () when the head has no plural."""
    phrase = phrase.strip()
    with_abbr = _WITH_ABBREVIATION.match(phrase)
    if with_abbr and _is_abbreviation(with_abbr.group("abbr")):
        words = plural_of(with_abbr.group("words"))
        abbr = with_abbr.group("abbr")
        return tuple(f"{w} ({abbr}s)" for w in words)
    if " of " in phrase:
        head, _, tail = phrase.partition(" of ")
        return tuple(f"{h} of {tail}" for h in plural_of(head))
    before, space, last = phrase.rpartition(" ")
    stem, hyphen, part = last.rpartition("-")
    if hyphen and part:
        return tuple(f"{before}{space}{stem}-{p}" for p in noun_plurals(part))
    return tuple(f"{before}{space}{p}" for p in noun_plurals(last))


def lemma(word: str) -> str:
    """The lemma an English word is compared by (*vertices* → *vertex*, *caching* →
    *cache*), lower-cased: english.py owns comparing English as English."""
    from .english import lemma as english_lemma

    return english_lemma(word)


# --------------------------------------------------------------------------- a term's English

def plurals(term) -> tuple[str, ...]:
    """The plurals of a glossary term: its own ``plural:`` ("" in the entry: none), else
    :func:`plural_of` its ``en``."""
    own = getattr(term, "plurals", None)
    return tuple(own) if own is not None else plural_of(term.en)


def plural(term) -> str:
    """What zhen writes for a term the grammar makes plural: its first plural, or its
    ``en`` when it has none."""
    forms = plurals(term)
    return forms[0] if forms else term.en


def forms(term) -> tuple[str, ...]:
    """Every English form that renders ``term``: its ``en``, then its plurals."""
    return tuple(dict.fromkeys((term.en, *plurals(term))))


@lru_cache(maxsize=16384)
def _pattern(english: tuple[str, ...]) -> re.Pattern[str]:
    bodies = []
    for form in sorted(english, key=len, reverse=True):
        words = [re.escape(w) for w in re.split(r"[\s\-‐‑]+", form.strip()) if w]
        if words:
            bodies.append(r"[\s\-‐‑]+".join(words))
    body = "|".join(bodies) or r"(?!x)x"
    return re.compile(rf"(?<![{_LATIN}])(?:{body})(?:['’]s?)?(?![{_LATIN}])", re.IGNORECASE)


def pattern(term) -> re.Pattern[str]:
    """Where English renders ``term``: any of its forms (:func:`forms`), possessive or not,
    ignoring case, any white space or hyphen between its words, whole words only."""
    return _pattern(forms(term))


def count(term, text: str) -> int:
    """How many times ``text`` renders ``term``."""
    return sum(1 for _ in pattern(term).finditer(text))


def spans(term, text: str) -> list[tuple[int, int]]:
    return [m.span() for m in pattern(term).finditer(text)]


def capitalise_start(text: str) -> str:
    """A sentence starting with a term: its first letter upper-cased, after any opening
    markup (``*mixed precision* …`` → ``*Mixed precision* …``)."""
    k = _MARKUP_START.match(text).end()
    if k < len(text) and text[k].islower():
        return text[:k] + text[k].upper() + text[k + 1:]
    return text


def says(term, english: str) -> bool:
    """Does ``english`` (a parenthesis after the term) say what the term's ``en`` already
    says: one of its forms, or the abbreviation its ``en`` ends in, singular or plural
    (``(DTNs)`` after *data transfer node (DTN)*)."""
    text = english.strip()
    if not text:
        return False
    if pattern(term).fullmatch(text):
        return True
    with_abbr = _WITH_ABBREVIATION.match(term.en)
    if with_abbr:
        abbr = with_abbr.group("abbr")
        if text in (abbr, abbr + "s"):
            return True
        # the words without their abbreviation, singular or plural (the term's own plurals,
        # so that no morphology is looked up here)
        words = [with_abbr.group("words")] + [m.group("words") for m in map(
            _WITH_ABBREVIATION.match, plurals(term)) if m]
        return _pattern(tuple(dict.fromkeys(words))).fullmatch(text) is not None
    return False


def says_plural(term, english: str) -> bool:
    """Does ``english`` say the term in the plural (``Early Exits`` after *early exit*)?"""
    forms = plurals(term)
    return bool(forms) and _pattern(forms).fullmatch(english.strip()) is not None


# --------------------------------------------------------------------------- forbid lists

def forbidden(text: str, terms: Iterable, extra: Iterable[str] = (), pieces=None):
    """The first forbidden rendering in ``text``: a ``forbid`` of one of ``terms`` (the
    terms the text's source holds) or one of ``extra`` (the glossary's corpus-wide list),
    as (term or None, phrase, match). ``pieces`` cuts ``text`` where a phrase must not
    run across (placeholders, entries): each piece is searched on its own."""
    chunks = pieces(text) if pieces is not None else [text]
    rules = [(t, p) for t in dict.fromkeys(terms) for p in getattr(t, "forbid", ())]
    rules += [(None, p) for p in extra]
    for term, phrase in rules:
        rule = forbid_pattern(phrase)
        for chunk in chunks:
            match = rule.search(chunk)
            if match:
                return term, phrase, match
    return None


def forbid_pattern(phrase: str) -> re.Pattern[str]:
    """A forbid phrase as whole words, ignoring case; only the white space between its
    words may vary (textutil.whole_phrase_re)."""
    return whole_phrase_re(phrase)
