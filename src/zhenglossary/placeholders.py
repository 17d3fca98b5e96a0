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
