"""The placeholder contract between the masking (locking.py) and every engine.

A glossary term or a protected span in a masked segment is written ``ZX1``, ``ZX2``, …
(:func:`placeholder`). Masking writes them exactly (:data:`EXACT_RE`); an engine must
give each one back exactly once. Models may damage them a little — split (``ZX 3``) or
lowercase (``zx3``) — and :data:`PLACEHOLDER_RE` still reads those. This module is the
only place that spells the format; everything else asks it.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Iterable, Mapping

from .textutil import CJK_CLASS

PREFIX = "ZX"
PLACEHOLDER = PREFIX + "{}"
# exactly as masking writes it (engines that copy placeholders through use this)
EXACT = rf"{PREFIX}\d+"                  # a regex fragment without groups
EXACT_RE = re.compile(rf"{PREFIX}(\d+)")
# tolerant: models may split or lowercase a placeholder ("ZX 3", "zx3"); never inside a word
_Z, _X = (f"[{c.upper()}{c.lower()}]" for c in PREFIX)
PLACEHOLDER_RE = re.compile(rf"(?<![A-Za-z0-9]){_Z}\s?{_X}\s?(\d{{1,3}})(?![0-9])")


def placeholder(n: int) -> str:
    return PLACEHOLDER.format(n)


def is_placeholder(text: str) -> bool:
    """Is ``text`` exactly one placeholder as masking writes it?"""
    return EXACT_RE.fullmatch(text) is not None


def number_of(text: str) -> int:
    """The number of an exact placeholder (``ZX12`` → 12)."""
    return int(EXACT_RE.fullmatch(text).group(1))


def ends_with_placeholder(text: str) -> bool:
    return re.search(rf"{EXACT_RE.pattern}$", text) is not None


def starts_with_placeholder(text: str) -> bool:
    return EXACT_RE.match(text) is not None


def split_exact(text: str) -> list[str]:
    """``text`` cut at exact placeholders, which are kept as pieces of their own."""
    return re.split(f"({EXACT})", text)


def exact_in(text: str) -> list[str]:
    """Every exact placeholder of ``text``, in order."""
    return [m.group(0) for m in EXACT_RE.finditer(text)]


def placeholders_in(text: str) -> list[int]:
    """The numbers of every placeholder in ``text``, tolerantly read, in order."""
    return [int(m.group(1)) for m in PLACEHOLDER_RE.finditer(text)]


def without_placeholders(text: str) -> str:
    return PLACEHOLDER_RE.sub(" ", text)


def between_placeholders(text: str) -> list[str]:
    """The engine's own text: the pieces between placeholders (tolerantly read), each on
    its own, so that a phrase looked for in them never runs across a placeholder."""
    return [piece for piece in PLACEHOLDER_RE.sub("\x00", text).split("\x00") if piece.strip()]


def placeholder_problem(expected: list[int], text: str) -> str | None:
    """None when ``text`` holds each expected placeholder exactly once and no other; else
    what is wrong, said so a person (or a model asked to retry) can act on it."""
    found = placeholders_in(text)
    if sorted(found) == sorted(expected):
        return None
    counts = Counter(found)
    missing = sorted(set(expected) - set(found))
    extra = sorted(set(found) - set(expected))
    dup = sorted(n for n, c in counts.items() if c > 1)
    reasons = []
    if missing:
        reasons.append("lost " + ", ".join(placeholder(n) for n in missing))
    if dup:
        reasons.append("duplicated " + ", ".join(placeholder(n) for n in dup))
    if extra:
        reasons.append("invented " + ", ".join(placeholder(n) for n in extra))
    return "; ".join(reasons) or "placeholders changed"


# ---------------------------------------------------------------- engines told the terms
# An engine with ``terms_in_prompt`` (engines/base.py) sees each glossary term as the
# Chinese the note writes, with its entry in the prompt, and writes the term's English
# itself, inflected as English needs; only protected spans (code, math, links, names) stay
# placeholders. These three functions are that contract.


def show_terms(masked: str, sources: Mapping[int, str]) -> tuple[str, list[int]]:
    """``masked`` with each term placeholder put back as its Chinese (``sources``: number →
    the Chinese as the note writes it) and the other placeholders numbered 1, 2, … in
    order; and, for each new number, the old one (``numbers[k - 1]``). The space masking
    put between two placeholders goes where a term's Chinese now touches Chinese."""
    numbers: list[int] = []

    def put(match: re.Match) -> str:
        n = int(match.group(1))
        if n in sources:
            return "\x01" + sources[n].replace("\r", "").replace("\n", "") + "\x01"
        numbers.append(n)
        return placeholder(len(numbers))

    text = EXACT_RE.sub(put, masked)
    text = re.sub(f"(?<=[{CJK_CLASS}]\x01) (?=\x01[{CJK_CLASS}])", "", text)
    return text.replace("\x01", ""), numbers


def renumber(text: str, numbers: list[int]) -> str:
    """The placeholders of an answer to :func:`show_terms`'s text (read tolerantly) written
    back as the masked text numbers them; one it did not hold is left as it is (the answer
    was checked against what it was shown before this)."""
    def put(match: re.Match) -> str:
        k = int(match.group(1))
        return placeholder(numbers[k - 1]) if 1 <= k <= len(numbers) else match.group(0)

    return PLACEHOLDER_RE.sub(put, text)


def answer_problem(english: str, protected: Iterable[int], tokens: Mapping[int, object] = {},
                   written: Iterable[object] = ()) -> str | None:
    """None when ``english`` keeps the placeholder and term contract; else what is wrong,
    said so a model asked again can act on it.

    ``protected``: placeholders that must each appear exactly once. ``tokens``: placeholders
    that stand for a glossary term (number → term): each at most once — or, instead, the
    term's English written out. ``written``: terms shown as Chinese, whose English must be
    written. A term's English is its ``en`` or an inflected form of it (terms.count),
    counted per ``en`` as the validator counts it: as often as the terms occur."""
    from . import terms as term_forms

    protected = list(protected)
    found = placeholders_in(english)
    counts = Counter(found)
    known = set(protected) | set(tokens)
    reasons = []
    lost = sorted(n for n in set(protected) if counts[n] == 0)
    dup = sorted(n for n, c in counts.items() if c > 1 and n in known)
    extra = sorted(set(found) - known)
    if lost:
        reasons.append("lost " + ", ".join(placeholder(n) for n in lost))
    if dup:
        reasons.append("duplicated " + ", ".join(placeholder(n) for n in dup))
    if extra:
        reasons.append("invented " + ", ".join(placeholder(n) for n in extra))
    needed: dict[str, list] = {}
    for term in written:
        needed.setdefault(" ".join(term.en.split()), []).append(term)
    for n, term in sorted(tokens.items()):
        if counts[n] == 0:
            needed.setdefault(" ".join(term.en.split()), []).append(term)
    text = without_placeholders(english)
    for en, terms in needed.items():
        have = term_forms.count(terms[0], text)
        if have < len(terms):
            times = "" if len(terms) == 1 else f" {len(terms)} times (found {have})"
            reasons.append(f"the term {terms[0].zh} must be written {en!r}{times} (a plural or "
                           "possessive of it is fine, another word is not)")
    return "; ".join(reasons) or None
