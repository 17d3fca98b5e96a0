"""Does this English render that glossary term? The one rule, behind :func:`count`.

A locked term may be written in its inflected forms, never as another word: its ``en``,
its plural (the head noun — the last word, or the word before ``of`` — with English's
regular plural: ``-s``, ``-es`` after s/x/z/ch/sh, ``-ies`` after a consonant and ``y``; an
abbreviation takes ``s``, inside its parentheses too: ``data transfer nodes (DTNs)``), and
the possessive of either (``'s``, ``'``). Any white space or a hyphen may stand between its
words (``mixed-precision training`` renders *mixed precision*); case is ignored; no letter
or digit may touch it on either side.

Who asks: the validator (each term of the source appears in the English as often as it
occurs), and the output check of engines that write the terms themselves (the llm engine
sees the terms as Chinese, with their glossary entries, and is checked with this rule), so
what an engine is told it may write is what the validator accepts.

This module is a stand-in with one public function, :func:`count`; when the term module of
issue 20 (``terms.py``: the entry's own ``plural:``, irregular plurals from lemminflect)
is on main, :func:`count` points at ``terms.count`` and this rule goes.
"""

from __future__ import annotations

import re
from functools import lru_cache

_LATIN = "A-Za-z0-9"
_ABBREVIATION = re.compile(r"^[A-Z0-9][A-Za-z0-9&/.\-]*$")
_WITH_ABBREVIATION = re.compile(r"^(?P<words>.*\S)\s*\((?P<abbr>[A-Za-z0-9&/.\-]+)\)$")
_SIBILANT = re.compile(r"(?:s|x|z|ch|sh)$", re.IGNORECASE)
_CONSONANT_Y = re.compile(r"[^aeiou]y$", re.IGNORECASE)


def _plural_word(word: str) -> str | None:
    if not word or not word[-1].isalpha():
        return None
    if _ABBREVIATION.match(word) and sum(c.isupper() for c in word) >= 2:
        return word + "s"                                   # GPU → GPUs
    if _CONSONANT_Y.search(word):
        return word[:-1] + "ies"                            # latency → latencies
    if _SIBILANT.search(word):
        return word + "es"                                  # cache → caches; batch → batches
    return word + "s"


def _plural(phrase: str) -> str | None:
    phrase = phrase.strip()
    with_abbr = _WITH_ABBREVIATION.match(phrase)
    if with_abbr:
        words = _plural(with_abbr.group("words"))
        abbr = _plural_word(with_abbr.group("abbr"))
        return f"{words} ({abbr})" if words and abbr else None
    if " of " in phrase:
        head, _, tail = phrase.partition(" of ")
        plural = _plural(head)
        return f"{plural} of {tail}" if plural else None
    before, space, last = phrase.rpartition(" ")
    plural = _plural_word(last)
    return f"{before}{space}{plural}" if plural else None


@lru_cache(maxsize=16384)
def _pattern(en: str) -> re.Pattern[str]:
    forms = [en] + [p for p in [_plural(en)] if p and p.lower() != en.lower()]
    bodies = []
    for form in sorted(forms, key=len, reverse=True):
        words = [re.escape(w) for w in re.split(r"[\s\-‐‑]+", form.strip()) if w]
        if words:
            bodies.append(r"[\s\-‐‑]+".join(words))
    body = "|".join(bodies) or r"(?!x)x"
    return re.compile(rf"(?<![{_LATIN}])(?:{body})(?:['’]s?)?(?![{_LATIN}])", re.IGNORECASE)


def count(term, text: str) -> int:
    """How many times ``text`` renders ``term`` (anything with an ``en``): its ``en`` or an
    inflected form of it, as the module docstring says."""
    en = " ".join(term.en.split())
    return sum(1 for _ in _pattern(en).finditer(text)) if en else 0
