"""Word alignment of a Chinese span to English, and general-Chinese word statistics.

This is the alignment step of Lin et al., "Mining Parenthetical Translations from the
Web by Word Alignment" (ACL 2008), with CC-CEDICT as the bilingual lexicon:

* a Chinese word aligns to an English word when one of its CC-CEDICT glosses matches
  it (same stem, or a part of an English compound: 屋顶 *roof* in *roofline*); a word
  CC-CEDICT lacks, or whose glosses match nothing, is tried by its parts (检查点 →
  检查 + 点);
* a Chinese word aligns to letters of an abbreviation when the initials of one of its
  glosses spell them (零 → *zero* → the Z of ZeRO; 显卡 → *video card* → VC), with
  the letters taken in order (a monotone alignment, right to left).

:func:`align_words` returns, per Chinese word, which English words and which
abbreviation letters it covers; :mod:`bilingual` turns that into a term boundary.

Numeral prefixes of English (multi-, uni-, bi-, semi- …) are morphology CC-CEDICT does
not list as glosses; :data:`NUMERAL_PREFIXES` maps them to the Chinese numerals they
translate, so 多 aligns to *multi-head*.

The statistics module-level helpers read jieba's own data: :func:`idf` is jieba's IDF
table (``jieba/analyse/idf.txt``: inverse document frequency over a general Chinese
corpus) and :func:`general_idf_cut` the IDF below which a word counts as general
Chinese (the 5th percentile of the table: the 5% most widespread words).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import lru_cache

from .textutil import CHINESE_DIGITS

# English closed-class words: never the content an alignment is about
EN_FUNCTION = frozenset(
    "a an the of to for in on at by with and or from into as via per its it is are be "
    "sb sth one's oneself etc".split())

# English numeral prefixes → Chinese numerals that translate them (morphology, not glosses)
NUMERAL_PREFIXES = {
    "multi": "多", "poly": "多", "many": "多", "mono": "单", "uni": "单", "single": "单",
    "bi": "双二两", "di": "二双", "dual": "双", "double": "双", "two": "二两双",
    "tri": "三", "triple": "三", "quad": "四", "semi": "半", "half": "半", "hemi": "半",
    "zero": "零", "first": "一", "second": "二", "third": "三",
}
_DIGIT_WORDS = {"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5",
                "six": "6", "seven": "7", "eight": "8", "nine": "9"}
# half is 50 per cent, as the abbreviations of pharmacology and toxicology write it
# (IC50, LD50, ED50: 半数抑制浓度, 半数致死量)
HALF_DIGITS = "50"
_NUMBER_DIGITS = {"零": "0", "一": "1", "二": "2", "两": "2", "双": "2", "三": "3",
                  "四": "4", "五": "5", "六": "6", "七": "7", "八": "8", "九": "9"}

_SUFFIXES = ("izations", "ization", "ational", "ations", "ation", "ings", "ing", "edly",
             "ency", "ence", "ancy", "ance", "ion", "ent", "ant", "ers", "ies", "ied", "ed", "er",
             "es", "ive", "ity", "ment", "ness", "ally", "al", "ly", "ous", "s")
_CAMEL = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_DIMENSION = re.compile(r"\d[A-Z]{1,2}")     # 3D, 5G, 4K: one word, not 3 + D
PAREN_NOTE = re.compile(r"\([^()]*\)|\[[^\]]*\]|CL:\S+")
_SENSE_SPLIT = re.compile(r"[^a-z0-9à-öø-ÿā-ž]+")     # El Niño's niño is one word
# senses that only refer to another headword
CROSS_REFERENCE = re.compile(r"(?:(?:old|archaic|erroneous|japanese|taiwan) )?variant of |see |used in |"
                              r"abbr\. for |also written |(?:also )?pr\. ", re.IGNORECASE)


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A light stemmer: enough to equate *paged*/*paging*, *decode*/*decoding*."""
    word = word.lower()
    for suffix in _SUFFIXES:
        if suffix == "s" and word.endswith(("ss", "us", "is")):
            break
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if word.endswith("e") and len(word) > 3:
        word = word[:-1]
    return word


def english_words(phrase: str) -> list[str]:
    """Content words of an English phrase, lower case, CamelCase split
    (``PagedAttention`` → paged, attention)."""
    return [word for word, function in english_tokens(phrase) if not function]


def english_tokens(phrase: str) -> list[tuple[str, bool]]:
    """Every word of an English phrase as :func:`english_words` splits it, with whether
    it is a function word (*to* of *willingness to pay*)."""
    out = []
    for chunk in re.split(r"[\s\-‐‑–/_.]+", phrase):
        parts = _CAMEL.findall(chunk) if any(c.isupper() for c in chunk[1:]) \
            and not _DIMENSION.fullmatch(chunk) else [chunk]
        for part in parts:
            part = part.lower().strip(".,;:'\"’")
            if part:
                out.append((part, part in EN_FUNCTION))
    return out


def abbreviation_letters(abbr: str) -> str:
    """The letters an abbreviation spells: capitals and digits (``ZeRO`` → ZRO,
    ``EE-DNNs`` → EEDNN, ``2PC`` → 2PC); an all-lower one spells all its letters."""
    abbr = abbr.strip()
    if len(abbr) > 2 and abbr.endswith("s") and abbr[-2].isupper():
        abbr = abbr[:-1]
    if any(c.isupper() for c in abbr):
        return "".join(c for c in abbr if c.isupper() or c.isdigit())
    return "".join(c.upper() for c in abbr if c.isalnum())


@dataclass(frozen=True)
class Gloss:
    words: frozenset[str]           # content words of every sense
    initials: frozenset[str]        # initials of each sense's content words ("VC", "M")
    proper: bool                    # a name (capitalised pinyin) in CC-CEDICT
    verb_only: bool                 # every sense reads "to …": a verb
    known: bool                     # CC-CEDICT has the word


@lru_cache(maxsize=1)
def dictionary_index():
    """CC-CEDICT look-ups: the on-disk index by headword, so a check that aligns a few
    parentheticals never loads the whole dictionary (same answers as ``load_index()``)."""
    from .cedict import lookup

    return lookup()


_LEADING_NOTE = re.compile(r"^(?:\([^()]*\)\s*)+")


def verb_sense(sense: str) -> bool:
    """Does a CC-CEDICT sense read as a verb ("to …"), a note before it aside ("(of a
    computer etc) to read (data)", "(literary) to …")?"""
    return _LEADING_NOTE.sub("", sense).startswith("to ")


@lru_cache(maxsize=65536)
def gloss(word: str) -> Gloss:
    entries = dictionary_index().entries(word)
    words: set[str] = set()
    initials: set[str] = set()
    proper = bool(entries) and all(e.proper for e in entries)
    senses = [s for e in entries if not e.proper for s in e.senses] or \
        [s for e in entries for s in e.senses]
    verbs = 0
    for sense in senses:
        if verb_sense(sense):
            verbs += 1
        if CROSS_REFERENCE.match(sense):
            continue                      # "variant of 懈[xie4]": points at a word, says nothing
        text = PAREN_NOTE.sub(" ", sense).lower()
        tokens = [t for t in _SENSE_SPLIT.split(text) if t and t not in EN_FUNCTION]
        name = PAREN_NOTE.sub(" ", sense).split(",")[0].split()
        if len(tokens) > 5 and len(name) >= 2 and all(w[:1].isupper() for w in name):
            # a name of two words or more and what it is ("El Niño, equatorial climate
            # variation in the Pacific"): the name
            tokens = [t for t in _SENSE_SPLIT.split(" ".join(name).lower())
                      if t and t not in EN_FUNCTION]
        if not tokens or len(tokens) > 5:
            continue
        words.update(tokens)
        initials.add("".join(t[0] for t in tokens).upper())
        if tokens[0] in _DIGIT_WORDS and len(tokens) > 1:
            # "four-dimensional": 4D, as abbreviations write it (4D-Var)
            initials.add(_DIGIT_WORDS[tokens[0]] + "".join(t[0] for t in tokens[1:]).upper())
        initials.add(tokens[0][0].upper())
    for prefix, numerals in NUMERAL_PREFIXES.items():
        if word in numerals or (len(word) == 1 and word in numerals):
            words.add(prefix)
            initials.add(prefix[0].upper())
    if word in _NUMBER_DIGITS:
        initials.add(_NUMBER_DIGITS[word])
    if "half" in words:
        initials.add(HALF_DIGITS)
    return Gloss(frozenset(words), frozenset(initials), proper,
                 bool(senses) and verbs == len(senses), bool(entries))


@lru_cache(maxsize=65536)        # pure, and asked for the same pairs again and again
def words_match(gloss_word: str, english: str) -> bool:
    """Same word, same stem, or a part of an English compound (roof ⊂ roofline)."""
    if gloss_word == english:
        return True
    if len(gloss_word) < 3 or len(english) < 3:
        return False
    a, b = stem(gloss_word), stem(english)
    if a == b and len(a) >= 3:
        return True
    short, long_ = sorted((a, b), key=len)
    if len(short) >= 5 and len(long_) - len(short) <= 2 and long_.startswith(short):
        return True
    # a part of a compound leaves a part of two letters or more (roof of roofline, load
    # of upload; not take of s|take, whose s is no word)
    if len(gloss_word) >= 4 and (english.startswith(gloss_word)
                                 or english.endswith(gloss_word)
                                 and len(english) - len(gloss_word) >= 2):
        return True
    if says_suffix(gloss_word, english):
        return True                       # able ~ satisfiability, extensible (可 of 可满足性)
    if len(gloss_word) == 3 and english.startswith(gloss_word) and len(english) <= 7:
        return True                       # mix ~ mixture, run ~ runtime
    if len(gloss_word) >= 5 and len(a) >= 5 and a in english:
        return True
    if derived(gloss_word, english):
        return True
    if english.endswith(("ance", "ence")) and len(gloss_word) >= 6 \
            and len(os.path.commonprefix([gloss_word, english])) >= 5 \
            and _verb_only(gloss_word):
        return True                       # maintain ~ maintenance: the verb's noun in -ance
    if _adjective_of(gloss_word, english):
        return True
    return english.startswith(gloss_word) and gloss_word in NUMERAL_PREFIXES


def says_suffix(gloss_word: str, english: str) -> bool:
    """Does ``gloss_word`` say only the suffix of ``english``: -ble as -bility (*able* of
    *satisfiability*), *able* as -ible (*extensible*), *ability* itself (of *durability*)?
    (可 of 可满足性, 可扩展; 不能 "inability" says nothing of *durability*.)"""
    if gloss_word.endswith("ble") and english.endswith(gloss_word[:-2] + "ility"):
        return True
    if gloss_word in ("ability", "ibility") and english.endswith(gloss_word) \
            and len(english) > len(gloss_word) + 2:
        return True                       # the noun suffix as a gloss word: 能 *ability*
    return gloss_word == "able" and english.endswith(("ible", "ibility")) and len(english) > 6


@lru_cache(maxsize=4096)
def _only_part_of_speech(word: str, tag: str) -> bool:
    """The lemmatiser reads ``word`` as that one part of speech and no other."""
    from .english import parts_of_speech

    return parts_of_speech(word) == frozenset({tag})


def _verb_only(word: str) -> bool:
    return _only_part_of_speech(word, "VERB")


def _adjective_only(word: str) -> bool:
    return _only_part_of_speech(word, "ADJ")


def _adjective_of(gloss_word: str, english: str) -> bool:
    """An adjective in -y and the word under it: fuzzy ~ fuzzing (not party ~ parting)."""
    return gloss_word.endswith("y") and len(gloss_word) >= 5 and len(english) >= 5 \
        and gloss_word[:-1] == stem(english) and _adjective_only(gloss_word)


def derived(a: str, b: str) -> bool:
    """One word derived from the other by a suffix the stemmer does not undo: they share
    all but the last letter of the shorter, six letters at least (topology ~
    topological, economy ~ economic)."""
    k = 0
    while k < min(len(a), len(b)) and a[k] == b[k]:
        k += 1
    return k >= 6 and k >= min(len(a), len(b)) - 1


def word_pieces(word: str) -> list[str]:
    """The parts a word is tried by when it aligns as a whole to nothing: its longest
    CC-CEDICT-known prefix and the rest, recursively, down to characters."""
    out = []
    i = 0
    while i < len(word):
        for j in range(len(word), i, -1):
            if j - i == 1 or (j - i < len(word) and word[i:j] in dictionary_index()):
                out.append(word[i:j])
                i = j
                break
    return out


def own_links(word: str, english: list[str]) -> set[tuple[int, str]]:
    """(English word index, what matched it) for every English word ``word`` aligns to by
    its own glosses (:func:`english_links` tries its pieces too);
    the part is ``""`` for the whole word (same stem) or the gloss word that matched a
    part of an English compound (``roof`` of *roofline*)."""
    out = set()
    for gloss_word in gloss(word).words:
        for i, en in enumerate(english):
            if words_match(gloss_word, en) or gloss_word == "less" and en == "free":
                # (*X-free* says what *X-less* does: 无, CC-CEDICT "-less", of 无冲突
                # *conflict-free*, 无数据竞争 *data-race-free*)
                whole = stem(gloss_word) == stem(en) or gloss_word == en \
                    or derived(gloss_word, en) or _adjective_of(gloss_word, en)
                out.add((i, "" if whole else gloss_word))
    value = CHINESE_DIGITS.get(word[0])
    if value:
        # a number written in digits (*2-bit*, *2D*, *3-way*): the word opening with its
        # numeral says it (两|位, 二维; 维 says the *D* of *dimensional*)
        for i, en in enumerate(english):
            if en == str(value) or en == f"{value}d" and word[1:] == "维":
                out.add((i, ""))
    return out


def english_links(word: str, english: list[str]) -> set[tuple[int, str]]:
    hits = own_links(word, english)
    if hits or len(word) == 1:
        return hits
    for piece in word_pieces(word):
        if piece != word:
            hits |= own_links(piece, english)
    if not hits:
        # read from the right too: the longest CC-CEDICT word ending it and what is left
        # (外|行星 *planet* of exoplanet, where the longest prefix 外行 *layman* says nothing)
        for k in range(1, len(word) - 1):
            if word[k:] in dictionary_index():
                hits = own_links(word[k:], english) | english_links(word[:k], english)
                break
    return hits


def letter_options(word: str) -> set[str]:
    """Letter strings a word can stand for in an abbreviation."""
    options = set(gloss(word).initials)
    if len(word) > 1 and not gloss(word).known:
        pieces = word_pieces(word)
        if len(pieces) > 1:
            seqs = {""}
            for piece in pieces:
                opts = set(gloss(piece).initials) | {""}
                seqs = {s + o for s in seqs for o in opts}
            options |= {s for s in seqs if s}
            if len(pieces) == 2:          # compounds reorder: 预写 ↔ Write-Ahead
                options |= {s[::-1] for s in seqs if len(s) == 2}
    return options


def align_words(words: list[str], english: str, abbr: str,
                blocked: frozenset[int] = frozenset()
                ) -> tuple[list[set[tuple[int, str]]], list[int]]:
    """Align Chinese ``words`` to the English phrase and the abbreviation.

    Returns, per word, its English links (see :func:`own_links`) and the number of
    abbreviation letters it spells. Words whose index is in ``blocked`` (function words)
    align to nothing."""
    en_words = english_words(english) if english else []
    en_links = [english_links(w, en_words) if en_words and i not in blocked else set()
                for i, w in enumerate(words)]
    letters = abbreviation_letters(abbr) if abbr else ""
    counts = [0] * len(words)
    if letters:
        counts = align_letters(words, letters, blocked)
    return en_links, counts


def covers(links: set[tuple[int, str]], english: str) -> tuple[int, bool]:
    """(English words covered, whether every English word is wholly covered)."""
    en_words = english_words(english) if english else []
    parts: dict[int, list[str]] = {}
    for i, part in links:
        parts.setdefault(i, []).append(part)
    whole = 0
    for i, word in enumerate(en_words):
        got = parts.get(i)
        if got is None:
            continue
        if "" in got or sum(len(p) for p in got) >= len(word) - 2:
            whole += 1
    return len(parts), whole == len(en_words)


def align_letters(words: list[str], letters: str, blocked: frozenset[int]) -> list[int]:
    """Right to left, each word takes the longest of its letter options still unspelt in
    the abbreviation (Chinese may order the words differently from the English:
    独立磁盘冗余阵列 ↔ RAID); a word that spells none takes none."""
    return [len(taken) for taken in letters_taken(words, letters, blocked)]


def letters_taken(words: list[str], letters: str, blocked: frozenset[int]) -> list[str]:
    """The letters each word spells in :func:`align_letters` ('' for none)."""
    counts = [""] * len(words)
    left = letters
    for i in range(len(words) - 1, -1, -1):
        if not left:
            break
        if i in blocked:
            continue
        # the longest option, of those as long the one ending the letters still unspelt
        # (right to left, in order: 变分 spells the V of 4D-Var, not its D, which 四维 spells),
        # then the others of that length in their order
        for size, opts, held in _option_groups(words[i]):
            if size > len(left):
                continue
            end = left[-size:]
            opt = end if end in held else next((o for o in opts if o in left), None)
            if opt is not None:
                at = left.rfind(opt)
                counts[i] = opt
                left = left[:at] + left[at + len(opt):]
                break
    return counts


@lru_cache(maxsize=65536)
def _option_groups(word: str) -> tuple[tuple[int, tuple[str, ...], frozenset[str]], ...]:
    """``letter_options(word)`` by length, longest first: (length, the options sorted, the
    same as a set)."""
    by_size: dict[int, list[str]] = {}
    for opt in letter_options(word):
        by_size.setdefault(len(opt), []).append(opt)
    return tuple((size, tuple(sorted(opts)), frozenset(opts))
                 for size, opts in sorted(by_size.items(), reverse=True))


def _english_text() -> str:
    from .cedict import english_text

    return english_text()


@lru_cache(maxsize=4096)
def english_known(word: str) -> bool:
    """Is ``word`` an English word CC-CEDICT's glosses use?"""
    return f" {word.lower()} " in _english_text()


def singular(word: str) -> str:
    """The singular of a lower-case English noun: for a word in -es, the lemmatiser's
    noun lemma when CC-CEDICT's English knows it (crises → crisis, vertices → vertex),
    else the first of the usual singular forms that CC-CEDICT's English knows (caches →
    cache, policies → policy), else the word without its -s."""
    if not word.isalpha() or not word.islower() or len(word) <= 3 or not word.endswith("s") \
            or word.endswith(("ss", "us", "is", "ics")):
        return word
    from .english import noun_lemma

    lemma = noun_lemma(word)
    if not word.endswith("es"):
        # networks → network; but a singular noun the lemmatiser knows ends in s as
        # well (bias, lens, alias, atlas, chaos: its lemma is the word itself)
        return word if lemma == word else word[:-1]
    if lemma == word:
        return word                       # species, diabetes, series: singular already
    if lemma and english_known(lemma):
        return lemma                      # the lemmatiser's noun first: crises → crisis,
        #                                   analyses → analysis, theses → thesis (not these)
    candidates = []
    if word.endswith("ies"):
        candidates.append(word[:-3] + "y")
    if word.endswith("ices"):
        candidates += [word[:-4] + "ex", word[:-4] + "ix"]
    if word.endswith("es"):
        candidates += [word[:-1], word[:-2]]
    candidates.append(word[:-1])
    for candidate in candidates:
        if english_known(candidate):
            return candidate
    # a compound CC-CEDICT's English lacks, ending with a noun of five letters or more
    # that it knows: that noun's singular (herpes|viruses → herpesvirus, quasi|species →
    # quasispecies), the longest such noun first
    for k in range(2, len(word) - 4):
        tail = noun_lemma(word[k:])
        if tail and tail != word[k:-1] and english_known(tail):
            return word[:k] + tail
    return word[:-1]


# --------------------------------------------------------------- general-Chinese statistics

def idf(word: str) -> float | None:
    """jieba's IDF of ``word`` over general Chinese; None when jieba's table lacks it."""
    from .segment import idf as jieba_idf

    return jieba_idf(word)


def general_idf_cut() -> float:
    from .segment import idf_cut

    return idf_cut()


def is_general(word: str) -> bool:
    """A word among the 5% most widespread of general Chinese (jieba's IDF table)."""
    value = idf(word)
    return value is not None and value < general_idf_cut()


def is_classifier(word: str) -> bool:
    """A measure word: CC-CEDICT gives ``word`` a sense "classifier for …" (种, 株, 台, 只)."""
    return any(sense.lstrip("(").startswith("classifier")
               for entry in dictionary_index().entries(word) for sense in entry.senses)
