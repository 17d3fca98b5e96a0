"""English compared as English: one owner of "these two English forms are the same term".

A word's lemmas come from ``lemminflect`` (MIT; its dictionary ships in the wheel, so
nothing is fetched): *caching* and *caches* are *cache*, *vertices* is *vertex*,
*quantizes* is *quantize*. Case does not matter, hyphens and spaces are one separator
(*Early-Exit Networks* is *early exit network*), and an acronym's plural is the acronym
(*GPUs* is *GPU*). Derivation is not inflection: *tenant* and *tenancy*, *quantize* and
*quantization* stay different terms.

* :func:`lemma` — the one lemma a word is compared by (the word itself when it is a
  lemma of any part of speech, else its noun lemma, else its verb, adjective, adverb one);
* :func:`term_key` — a phrase's comparison key (each word's lemma, lower case);
* :func:`same_term` — do two phrases name the same term (word by word, any shared lemma);
* :func:`words` — the words of a phrase, as compared.

The note checks (``inconsistent-rendering``, ``parenthetical-disagrees``), the glossary
lint and ``zhen glossary suggest`` compare through here; the output check's own term
count is the validator's.
"""

from __future__ import annotations

import re
from functools import lru_cache

_SPLIT = re.compile(r"[\s\-‐‑–—_/]+")
_STRIP = ".,;:!?\"'“”‘’()[]{}*`"
_POS_ORDER = ("NOUN", "VERB", "ADJ", "ADV", "PROPN", "AUX")


def words(phrase: str) -> list[str]:
    """The words of ``phrase`` as compared: split at spaces, hyphens, dashes and slashes,
    outer punctuation removed."""
    return list(_words(phrase))


@lru_cache(maxsize=65536)
def _words(phrase: str) -> tuple[str, ...]:
    out = []
    for part in _SPLIT.split(phrase.strip()):
        part = part.strip(_STRIP)
        if part:
            out.append(part)
    return tuple(out)


def _lemmatizer():
    from .lexicon import lemminflect

    return lemminflect()


# lemminflect reads its whole lexicon (0.6 s here) at its first question. What it answered is
# kept in the cache folder (``lemmas-<version>.marshal``: word → its lemmas by part of
# speech), so a later run asks it nothing it was asked before; :func:`save` writes what this
# run added (the commands that compare English call it once, at their end).
_MEMO: dict | None = None
_ADDED = 0
_MEMO_LIMIT = 200_000


def _memo_path():
    from importlib.metadata import version

    from .paths import cache_dir

    try:
        release = version("lemminflect")
    except Exception:
        release = "unknown"
    return cache_dir() / f"lemmas-{release}.marshal"


def _memo() -> dict:
    global _MEMO
    if _MEMO is None:
        import marshal

        try:
            data = marshal.loads(_memo_path().read_bytes())
            _MEMO = data if isinstance(data, dict) else {}
        except (OSError, ValueError, EOFError, TypeError):
            _MEMO = {}
    return _MEMO


def _all_lemmas(word: str, oov_noun: bool = False) -> dict[str, tuple[str, ...]]:
    """lemminflect's ``getAllLemmas(word)`` (or, with ``oov_noun``, its rule-based noun
    lemma of a word its lexicon lacks), answered from the memo when it can be."""
    global _ADDED
    key = ("N:" if oov_noun else "") + word
    memo = _memo()
    found = memo.get(key)
    if isinstance(found, dict):
        return found
    lem = _lemmatizer()
    raw = lem.getAllLemmasOOV(word, upos="NOUN") if oov_noun else lem.getAllLemmas(word)
    value = {str(pos): tuple(str(x) for x in forms) for pos, forms in raw.items()}
    memo[key] = value
    _ADDED += 1
    return value


def save() -> None:
    """Keep what lemminflect answered this run for the next (a cache: never an error)."""
    global _ADDED
    from . import lexicon

    lexicon.save()                       # the inflections its model guessed
    if not _ADDED or _MEMO is None:
        return
    import marshal

    from .fileio import write_cache

    data = _MEMO if len(_MEMO) <= _MEMO_LIMIT else dict(list(_MEMO.items())[-_MEMO_LIMIT:])
    write_cache(_memo_path(), marshal.dumps(data))
    _ADDED = 0


def _acronym_core(word: str) -> str | None:
    """``GPUs`` → ``GPU``, ``DTNs`` → ``DTN``, ``QoIs`` → ``QoI``; None for other words (a
    word written in capitals, CACHES, is the word)."""
    if word.isupper() and word.isalpha() and _all_lemmas(word.lower()):
        return None
    if len(word) > 2 and word.endswith("s") and sum(c.isupper() for c in word[:-1]) >= 2:
        return word[:-1]
    if sum(c.isupper() for c in word) >= 2:
        return word
    return None


@lru_cache(maxsize=65536)
def lemmas(word: str) -> frozenset[str]:
    """Every lemma of ``word`` (lower case), under every part of speech the dictionary
    knows; a word it does not know is its own lemma, plus a noun singular by rule."""
    acronym = _acronym_core(word)
    if acronym is not None:
        return frozenset({acronym.lower()})
    low = word.lower()
    if not low.isalpha():
        return frozenset({low})
    found = {x.lower() for group in _all_lemmas(low).values() for x in group}
    if not found and low.endswith("s") and len(low) > 3:
        found = {x.lower() for x in _all_lemmas(low, oov_noun=True).get("NOUN", ())}
    return frozenset(found | {low}) if not found else frozenset(found)


def noun_lemma(word: str) -> str | None:
    """The lemmatiser's first noun lemma of a lower-case ``word`` it knows (species →
    species, caches → cache), None for a word it does not know as a noun."""
    found = _all_lemmas(word).get("NOUN", ())
    return found[0].lower() if found else None


@lru_cache(maxsize=65536)
def lemma(word: str) -> str:
    """The one lemma ``word`` is compared by (lower case)."""
    acronym = _acronym_core(word)
    if acronym is not None:
        return acronym.lower()
    low = word.lower()
    if not low.isalpha():
        return low
    found = _all_lemmas(low)
    if not found:
        options = lemmas(word)
        return low if low in options else min(options)
    if any(low in group for group in found.values()):
        return low
    for pos in _POS_ORDER:
        if found.get(pos):
            return found[pos][0].lower()
    return low


@lru_cache(maxsize=65536)
def parts_of_speech(word: str) -> frozenset[str]:
    """The parts of speech (Universal POS tags) the dictionary knows ``word`` as; empty for
    a word it does not know."""
    return frozenset(_all_lemmas(word.lower()))


def verb_lemmas(word: str) -> frozenset[str]:
    """The lemmas the dictionary gives ``word`` as a verb (*pinned* → pin); empty for a
    word it knows as no verb."""
    return frozenset(_all_lemmas(word.lower()).get("VERB", ()))


def term_key(phrase: str) -> str:
    """A phrase's comparison key: its words' lemmas, lower case, run together
    (``Caching Policies`` → ``cachepolicy``, ``multi-version`` = ``multiversion``)."""
    ws = words(phrase)
    return _joined(ws) if ws else ""


def same_term(a: str, b: str) -> bool:
    """Do ``a`` and ``b`` name the same term? Word by word, each pair sharing a lemma
    (*Caching* ↔ *cache*, *Early-Exit Networks* ↔ *early exit network*)."""
    wa, wb = words(a), words(b)
    if not wa or not wb:
        return False
    if len(wa) != len(wb):
        # one compound written joined or apart: multiversion / multi-version
        return _joined(wa) == _joined(wb)
    return all(x.lower() == y.lower() or lemmas(x) & lemmas(y) for x, y in zip(wa, wb))


def _joined(ws: list[str]) -> str:
    return "".join(lemma(w) for w in ws)


def contains_term(longer: str, shorter: str) -> bool:
    """Does ``longer`` hold ``shorter`` as a run of its words, compared as terms?"""
    wl, ws = _words(longer), _words(shorter)
    if not ws or len(ws) > len(wl):
        return False
    for i in range(len(wl) - len(ws) + 1):
        if all(x.lower() == y.lower() or lemmas(x) & lemmas(y)
               for x, y in zip(wl[i:i + len(ws)], ws)):
            return True
    return False


def is_inflection(form: str, of: str) -> bool:
    """Is ``form`` an inflection of the phrase ``of`` (or ``of`` itself)? *quantizes* of
    *quantize*; not *quantize* of *quantization*."""
    return same_term(form, of)


def chains(first: str, second: str) -> bool:
    """Does ``first`` end with the words ``second`` starts with (compared as terms), so
    that the two read as one phrase when their Chinese overlaps? *input sequence* and
    *sequence length* chain (*input sequence length*); *graph parallelism* and
    *parallelization strategy* do not."""
    wa, wb = words(first), words(second)
    for k in range(min(len(wa), len(wb)), 0, -1):
        if all(x.lower() == y.lower() or lemmas(x) & lemmas(y) for x, y in zip(wa[-k:], wb[:k])):
            return True
    return False


# ------------------------------------------------------------- comparing renderings

_WORD_SPLIT = re.compile(r"[\s\-‐‑–_/]+")


def _singular(word: str) -> str:
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        lemma = noun_lemma(word) if word.isalpha() and word.islower() else None
        if lemma:                         # the lemmatiser's noun first: bias stays bias,
            return lemma                  # boxes is box, analyses analysis
        if word.endswith("ies") and len(word) > 4:
            return word[:-3] + "y"
        return word[:-1]
    return word


def normalize_english(text: str) -> str:
    """Compare English renderings ignoring case, hyphen/space and plural -s.

    ``Early-Exit Networks`` and ``early exit network`` normalise to the same string.
    """
    words = [w for w in _WORD_SPLIT.split(text.strip().lower()) if w]
    words = [w.strip(".,;:\"'“”‘’") for w in words]
    return " ".join(_singular(w) for w in words if w)
