"""Small text helpers shared by the glossary, the checks and the translator."""

from __future__ import annotations

import bisect
import re
from functools import lru_cache

# What "Chinese text" means here: a CJK ideograph, i.e. a code point of one of the Unicode
# blocks whose characters are all named "CJK UNIFIED IDEOGRAPH-…" or "CJK COMPATIBILITY
# IDEOGRAPH-…" (Blocks.txt, Unicode 17/18), whole blocks so that characters a later Unicode
# adds to them count too. Astral ones (rare surnames and place names such as 𠮷 U+20BB7,
# chemistry characters) are Chinese as much as the BMP ones. tests/test_astral.py checks
# every code point against unicodedata (and the newer unicodedata2) both ways.
CJK_BLOCKS = (
    (0x3400, 0x4DBF),     # Extension A
    (0x4E00, 0x9FFF),     # CJK Unified Ideographs
    (0xF900, 0xFAFF),     # CJK Compatibility Ideographs
    (0x20000, 0x2A6DF),   # Extension B
    (0x2A700, 0x2EE5F),   # Extensions C, D, E, F, I (adjacent blocks)
    (0x2F800, 0x2FA1F),   # CJK Compatibility Ideographs Supplement
    (0x30000, 0x3347F),   # Extensions G, H, J (adjacent blocks)
)
CJK_CLASS = "".join(f"{chr(a)}-{chr(b)}" for a, b in CJK_BLOCKS)
CJK_RE = re.compile(f"[{CJK_CLASS}]")
CJK_RUN_RE = re.compile(f"[{CJK_CLASS}]+")


@lru_cache(maxsize=None)
def marks(*tags: str) -> str:
    """A regex character-class body of the characters whose Unicode decomposition starts
    with one of ``tags``: ``marks("<super>")`` the superscripts (² ³ ⁻ ⁺ …), ``"<sub>"`` the
    subscripts (₂ ₃ …), ``"<fraction>"`` the vulgar fractions (½ ¼ …); all lie below
    U+3000. Asked when first needed (about 1.5 ms), not at import."""
    import unicodedata

    return "".join(re.escape(chr(i)) for i in range(0x80, 0x3000)
                   if unicodedata.decomposition(chr(i)).startswith(tags))


# Chinese / full-width punctuation, also not allowed to be left in English output.
CJK_PUNCT = "，。！？；：、（）【】《》「」『』“”‘’…—～·〈〉〔〕"


def has_cjk(text: str) -> bool:
    return CJK_RE.search(text) is not None


def is_cjk_char(ch: str) -> bool:
    return CJK_RE.match(ch) is not None


class LineIndex:
    """Offsets ↔ 1-based (line, column) for one text."""

    def __init__(self, text: str) -> None:
        self.starts = [0]
        for match in re.finditer("\n", text):
            self.starts.append(match.end())

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.starts, offset) - 1
        return line + 1, offset - self.starts[line] + 1

    def offset(self, line: int) -> int:
        """Offset of the first character of 1-based ``line``."""
        return self.starts[line - 1]


# Chinese digits, as numbers are written with them (two forms of 0 and of 2): the gloss
# engine reads numbers by them, the aligner a word opening with one (两|位 *2-bit*)
CHINESE_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5,
                  "六": 6, "七": 7, "八": 8, "九": 9}


_ABBR_PLURAL = re.compile(r"^(.*[A-Z0-9])s$")


def normalize_abbreviation(abbr: str) -> str:
    """``DTNs`` → ``DTN``, ``EE-DNNs`` → ``EE-DNN``, ``QoIs`` → ``QoI``."""
    abbr = abbr.strip()
    match = _ABBR_PLURAL.match(abbr)
    if match and sum(c.isupper() for c in match.group(1)) >= 2:
        return match.group(1)
    return abbr


@lru_cache(maxsize=4096)
def letter_words(letters: str, en: tuple[str, ...], at: int = 0, last: int | None = None
                 ) -> tuple[int | None, ...]:
    """The English word each abbreviation letter stands for, in order: the next word it
    starts, or a later part of the word before (the O of intraOcular, the S of
    HeadSpace in *headspace solid-phase microextraction*, HS-SPME). The first reading
    that spells every letter; without one, the greedy reading up to where it fails
    (None from there)."""
    if not letters:
        return ()
    letter = letters[0]
    j = next((j for j in range(at, len(en)) if en[j][:1].upper() == letter), None)
    greedy: tuple[int | None, ...] | None = None
    if j is not None:
        rest = letter_words(letters[1:], en, j + 1, j)
        if None not in rest:
            return (j,) + rest
        greedy = (j,) + rest
    if last is not None and letter.lower() in en[last][1:]:
        rest = letter_words(letters[1:], en, at, last)
        if None not in rest or greedy is None:
            return (last,) + rest
    return greedy if greedy is not None else (None,) * len(letters)


def spelled_by(piece: str, english: str) -> bool:
    """A short lower-case or hyphenated abbreviation written after the English whose
    letters the English spells in order from its first word (cwnd *congestion window*,
    ssthresh *slow start threshold*, P-gp *P-glycoprotein*), or an abbreviation joined by
    a hyphen or a space to the English's last word (LSM-tree *log-structured merge-tree*,
    G-Counter *grow-only counter*, P/E cycles *program/erase cycles*)."""
    if not 2 <= len(piece) <= 12 or not re.fullmatch(r"[A-Za-z][A-Za-z0-9/]*(?:[- ][A-Za-z0-9/]+)?",
                                                      piece):
        return False
    words = [w for w in re.split(r"[\s\-‐–/]+", english.lower()) if w]
    if len(words) < 2:
        return False

    def spells(letters: str, among: list[str]) -> bool:
        taken = letter_words(letters, tuple(among))
        return bool(taken) and None not in taken and taken[0] == 0

    parts = re.split(r"[- ]", piece, 1)
    if len(parts) == 2 and parts[1].lower().removesuffix("s") == words[-1].removesuffix("s"):
        letters = "".join(c for c in parts[0].upper() if c.isalpha())
        if letters and parts[0][:1].isupper() and spells(letters, words[:-1]):
            return True                   # LSM-tree, G-Counter, P/E cycles
    if " " in piece or len(parts) == 2 and parts[1].lower() in words:
        return False                      # (B-spline after *basis spline curve*: a letter
        #                                   and a word, its other name, not its letters)
    letters = "".join(c for c in piece.upper() if c.isalpha())
    return len(letters) >= 2 and spells(letters, words)


_EN_WITH_ABBR = re.compile(r"^(?P<en>.*?)\s*\((?P<abbr>[^()]+)\)\s*$")


def split_abbreviation(en: str) -> tuple[str, str | None]:
    """``data transfer node (DTN)`` → (``data transfer node``, ``DTN``)."""
    if "(" not in en:                 # the lint asks this of every entry, several times
        return en, None
    match = _EN_WITH_ABBR.match(en)
    if match and (is_abbreviation(match.group("abbr"))
                  or spelled_by(match.group("abbr"), match.group("en"))):
        return match.group("en"), match.group("abbr")     # (and cwnd, G-Counter, P/E cycles)
    return en, None


_ABBR_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9\-/&.]*\+?$")    # (a plus after: DF+)


def is_abbreviation(text: str) -> bool:
    """An all-caps-ish token: DNN, EE-DNNs, QoI, C2S, FP16, DF+ — not ``Patching``."""
    text = text.strip()
    if not text or " " in text or not _ABBR_RE.match(text):
        return False
    core = text[:-1] if text.endswith("s") else text
    upper = sum(c.isupper() for c in core)
    lower = sum(c.islower() for c in core)
    return upper >= 2 and upper >= lower


@lru_cache(maxsize=None)
def whole_phrase_re(phrase: str) -> re.Pattern[str]:
    """A case-insensitive pattern for ``phrase`` as whole words (spaces may vary)."""
    parts = [re.escape(p) for p in phrase.split()]
    body = r"\s+".join(parts)
    return re.compile(rf"(?<![A-Za-z0-9]){body}(?![A-Za-z0-9])", re.IGNORECASE)


def _escaped(ch: str) -> str:
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else (f"\\u{code:04x}" if code < 0x10000
                                                 else f"\\U{code:08x}")


def printable(text: str) -> str:
    """``text`` (a file name, a path) shown on one line with nothing hidden: every character
    Python does not call printable — control characters, line breaks, bidirectional
    overrides, zero-width characters, spaces other than " " — is written as an escape
    (``\\n`` as ``\\x0a``). For comments and attributes zhen writes (YAML, XML, HTML)."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escaped(ch) for ch in text)


_XML_ILLEGAL = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(text: str) -> str:
    """``text`` with the characters XML 1.0 cannot hold at all (most C0 controls, lone
    surrogates, U+FFFE/U+FFFF) written as escapes; everything else unchanged."""
    return _XML_ILLEGAL.sub(lambda m: _escaped(m.group(0)), text)


class Pieces:
    """A long text kept as the pieces it is joined from, ``sep`` between them (a big note's
    outputs: their pieces are held already, so the text is not joined beside them).
    ``str()`` joins it; :func:`fileio.write_atomic` and ``manifest.text_hash`` read it a
    piece at a time."""

    __slots__ = ("parts", "sep")

    def __init__(self, parts: list[str], sep: str = "") -> None:
        self.parts, self.sep = parts, sep

    def __iter__(self):
        """The text, in order, a piece (or a separator) at a time."""
        sep = self.sep
        for k, part in enumerate(self.parts):
            if k and sep:
                yield sep
            yield part

    def __len__(self) -> int:
        return sum(map(len, self.parts)) + len(self.sep) * max(0, len(self.parts) - 1)

    def __str__(self) -> str:
        return self.sep.join(self.parts)

    def __eq__(self, other) -> bool:
        return str(self) == str(other) if isinstance(other, (str, Pieces)) else NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))
