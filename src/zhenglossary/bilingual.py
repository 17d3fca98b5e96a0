"""Bilingual parentheticals in notes: ``中文（English）``, ``中文 (English, ABBR)``,
``中文（English，ABBR）``, ``中文（ABBR）`` and ``中文 English（ABBR）``.

The hard part is where the Chinese term starts: in ``使用图神经网络（GNN）`` the term is
图神经网络, not 使用图神经网络. :func:`term_start` walks the jieba words before the
parenthesis from the right and stops at function words, determiners and verbs of
using/proposing (data in ``data/boundary_words.txt``); the glossary's forms are jieba
user words, so a known term is never cut in half. :func:`common_suffix` then reconciles
several sightings of the same English: the term is the longest common suffix of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from .textutil import (CJK_CLASS, is_abbreviation, normalize_abbreviation,
                       normalize_english)

_OPEN = "（("
_CLOSE = {"（": "））", "(": ")）"}

# CJK run, optional closing quote, optional space, optional Latin phrase, then a paren.
PAREN_RE = re.compile(
    rf"(?P<zh>[{CJK_CLASS}]+)(?P<quote>[”」』\"']?)(?P<sp>[ \t]?)"
    r"(?P<latin>[A-Za-z][A-Za-z0-9\- ]*[A-Za-z0-9] ?)?"
    r"(?P<open>[（(])(?P<body>[^（）()\n]{1,120})(?P<close>[）)])"
)


@lru_cache(maxsize=1)
def boundary_words() -> frozenset[str]:
    text = resources.files("zhenglossary").joinpath("data/boundary_words.txt").read_text("utf-8")
    words = set()
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            words.update(line.split())
    return frozenset(words)


# particles, conjunctions, pronouns, numerals, measure words, interjections; not
# prepositions ("p": jieba tags the 自 of 自适应 as one) — those are listed as words.
STOP_FLAGS = {"c", "u", "uj", "ul", "uz", "ud", "ug", "uv", "r", "rr", "rz", "m", "mq", "q",
              "x", "y", "e", "o"}


def term_start(run: str, forms: frozenset[str] = frozenset()) -> int:
    """Offset in ``run`` where the term that ends ``run`` begins."""
    from .segment import posseg, tokenizer_for

    words = posseg(run, forms)
    freq = tokenizer_for(forms).FREQ
    stops = boundary_words()
    start = len(run)
    for word, flag in reversed(words):
        if word in forms:
            start -= len(word)
            continue
        if len(word) > 1 and word[0] in stops and not freq.get(word):
            # an HMM-made word like 如自 in 如自适应网格细化: keep all but the stop char
            start -= len(word) - 1
            break
        if word in stops or flag in STOP_FLAGS:
            break
        start -= len(word)
    return start


def common_suffix(strings: list[str]) -> str:
    if not strings:
        return ""
    shortest = min(strings, key=len)
    k = 0
    while k < len(shortest) and all(s[-1 - k] == shortest[-1 - k] for s in strings):
        k += 1
    return shortest[len(shortest) - k:]


@dataclass(frozen=True)
class Parenthetical:
    zh: str            # the term as cut by term_start
    run: str           # the whole CJK run before the parenthesis
    english: str       # the English phrase ('' when only an abbreviation is given)
    abbr: str          # the abbreviation ('' when none)
    offset: int        # offset of zh in the text
    end: int           # offset just after the closing parenthesis
    raw: str           # the source text from zh to the closing parenthesis

    @property
    def key(self) -> str:
        """What to compare renderings by: the English, else the abbreviation."""
        if self.english:
            return normalize_english(self.english)
        return normalize_abbreviation(self.abbr)

    def rendering(self) -> str:
        if self.english and self.abbr:
            return f"{self.english} ({normalize_abbreviation(self.abbr)})"
        return self.english or normalize_abbreviation(self.abbr)


def _split_body(body: str) -> tuple[str, str] | None:
    pieces = [p.strip() for p in re.split(r"[,，;；、]", body) if p.strip()]
    if not pieces or len(pieces) > 3:
        return None
    english = ""
    abbr = ""
    for piece in pieces:
        if re.search(f"[{CJK_CLASS}]", piece) or not re.search(r"[A-Za-z]{2}", piece):
            return None
        if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9 .'’/+&\-]*", piece):
            return None
        if is_abbreviation(piece) and not abbr:
            abbr = piece
        elif re.search(r"\b[a-z]+[A-Z]", piece) or re.fullmatch(r"[A-Z][a-z]+[A-Z]\w*", piece):
            return None  # code (updateOutputKernel) or a product name (AlphaFold), not English
        elif not english:
            english = piece
        else:
            return None
    return english, abbr


def find_parentheticals(text: str, forms: frozenset[str] = frozenset()) -> list[Parenthetical]:
    """Every bilingual parenthetical in ``text`` (pass the prose view of a note)."""
    out = []
    for match in PAREN_RE.finditer(text):
        if match.group("close") not in _CLOSE[match.group("open")]:
            continue
        parts = _split_body(match.group("body"))
        if parts is None:
            continue
        english, abbr = parts
        latin = (match.group("latin") or "").strip()
        if latin:
            # 中文 English（ABBR）: the English stands before the parenthesis
            if english or not abbr or not re.fullmatch(r"[A-Za-z][A-Za-z\- ]+", latin) \
                    or not match.group("sp"):
                continue
            english = latin
        run = match.group("zh")
        start = term_start(run, forms)
        if start >= len(run):
            continue
        zh = run[start:]
        offset = match.start("zh") + start
        out.append(Parenthetical(zh, run, english, abbr, offset, match.end(),
                                 text[offset:match.end()]))
    return out
