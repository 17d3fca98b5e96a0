"""An EXPERIMENT (round fourteen, not part of zhen): the left edge of a parenthetical's
Chinese term as a learned choice among candidate starts. See README, Round fourteen: it
gains on fresh text in aggregate but makes errors the rules do not (a clause taken as a
term), so zhen does not use it; ``bilingual.start_hook`` is the seam it is measured through.

``bilingual.term_span`` and the rules after it (``bilingual._zh_first``) pick one start in
the Chinese run before a parenthesis by hand-written rules (alignment with the English,
part of speech, clause openers). Thirteen rounds of such rules reached 90–99% on the text
they were developed on and 75–80% on text written after them: each rule fits its words.
This module tries the one decision they most often get wrong, the left edge, as a
conditional log-linear model (a softmax over the run's candidate starts), trained on the
hand-labelled gold sets (``train.py`` beside it, weights in ``weights.json``). The rules' start is one feature among general ones: the length
of the span, how much of the English its words say (CC-CEDICT glosses, ``align``), jieba's
part of speech and general-Chinese IDF at the edge, whether the edge cuts a jieba word.

The model never sees the words of the gold sets as features (no lexical feature), so it
learns shapes of Chinese technical writing, not their vocabulary.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

WINDOW = 14          # candidate starts: the last WINDOW characters of the run, and 0

_POS = ("n", "v", "a", "d", "p", "c", "u", "m", "q", "r", "f", "t", "s", "b", "x", "hy")


def _pos(flag: str) -> str:
    if flag == "hy":
        return "hy"
    if flag in ("vn", "an"):
        return flag
    head = flag[:1]
    return head if head in _POS else "o"


def _idf_bucket(word: str) -> str:
    from zhenglossary.align import idf

    value = idf(word)
    if value is None:
        return "none"
    if value < 6:
        return "lt6"
    if value < 9:
        return "lt9"
    return "ge9"


def _onset(char: str, english: str) -> str:
    """How the pinyin of ``char`` matches the start of an English word: "syllable" (its
    first two letters, dinoprostone 地 di), "initial" (its first letter), or ""."""
    from pypinyin import Style, lazy_pinyin

    syllable = lazy_pinyin(char, style=Style.NORMAL)[0]
    if not syllable.isalpha() or not english:
        return ""
    if english.startswith(syllable[:2]):
        return "syllable"
    if english[0] == syllable[0]:
        return "initial"
    return ""


@dataclass
class Sighting:
    """What the finder knows when it chooses: the run, the rules' start, the English."""
    run: str
    rule_start: int
    english: str
    abbr: str
    clause_start: bool      # the run opens a clause (punctuation or a line start before it)


def candidates(run: str, rule_start: int) -> list[int]:
    n = len(run)
    out = sorted({0, rule_start, *range(max(0, n - WINDOW), n)})
    return out


def features(s: Sighting, forms: frozenset[str] = frozenset()) -> list[tuple[int, dict[str, float]]]:
    """Each candidate start with its features (names to values)."""
    from zhenglossary.align import abbreviation_letters, english_links, english_words, gloss, is_general
    from zhenglossary.bilingual import (_copula, _naming_verb, _resegment, _units, _using_verb, is_function_word,
                            transliterated)

    run = s.run
    n = len(run)
    units = _resegment(_units(run, forms), s.english, s.abbr, forms)
    bounds = []            # (start, end, word, flag)
    at = 0
    for word, flag in units:
        bounds.append((at, at + len(word), word, flag))
        at += len(word)
    starts = {b[0] for b in bounds}
    en = english_words(s.english) if s.english else []
    letters = abbreviation_letters(s.abbr) if s.abbr else ""
    n_en = len(en)

    def unit_of(i: int):
        for b in bounds:
            if b[0] <= i < b[1]:
                return b
        return bounds[-1]

    @lru_cache(maxsize=None)
    def links(i: int) -> frozenset[tuple[int, str]]:
        """(English word index, the part said) for the units from character i on."""
        if i >= n or not en:
            return frozenset()
        b = unit_of(i)
        return frozenset(english_links(run[i:b[1]], en)) | links(b[1])

    @lru_cache(maxsize=None)
    def said(i: int) -> frozenset[int]:
        """English word indices the units from character i on say."""
        return frozenset(j for j, _ in links(i))

    @lru_cache(maxsize=None)
    def spelled(i: int) -> int:
        """Abbreviation letters the pieces from i on may spell (first letters of glosses)."""
        if i >= n or not letters:
            return 0
        b = unit_of(i)
        piece = run[i:b[1]]
        initials = {x[:1] for x in gloss(piece).initials}
        return (1 if initials & set(letters) else 0) + spelled(b[1])

    def n_units(i: int) -> int:
        return 1 + sum(1 for b in bounds if b[0] > i)

    full = said(0)
    english_raw = (s.english or "").strip()
    one_word = bool(english_raw) and " " not in english_raw and not full
    word0 = english_raw.lower().lstrip("*_")
    trans = transliterated(word0) if one_word else 0
    out = []
    for i in candidates(run, s.rule_start):
        f: dict[str, float] = {}
        d = s.rule_start - i
        if d == 0:
            f["rule"] = 1.0
        elif d > 0:
            f["longer_%d" % min(d, 4)] = 1.0
            f["longer_units"] = float(sum(1 for b in bounds if i <= b[0] < s.rule_start))
        else:
            f["shorter_%d" % min(-d, 3)] = 1.0
        length = n - i
        f["len_%s" % (length if length <= 4 else "5_6" if length <= 6 else "7_9" if length <= 9
                      else "10p")] = 1.0
        if i == 0:
            f["whole_run"] = 1.0
            if s.clause_start:
                f["whole_clause"] = 1.0
        b = unit_of(i)
        if i in starts:
            f["at_boundary"] = 1.0
        else:
            f["mid_word"] = 1.0
            f["mid_word_len_%d" % min(len(b[2]), 4)] = 1.0
        first_piece = run[i:b[1]]
        first_flag = b[3] if i in starts else "mid"
        f["first_pos_" + (_pos(first_flag) if first_flag != "mid" else "mid")] = 1.0
        f["first_len_%d" % min(len(first_piece), 3)] = 1.0
        f["first_idf_" + _idf_bucket(first_piece)] = 1.0
        if gloss(first_piece).known:
            f["first_known"] = 1.0
        if len(first_piece) > 1 and is_general(first_piece):
            f["first_general"] = 1.0
        if gloss(first_piece).verb_only:
            f["first_verb_only"] = 1.0
        if _copula(first_piece) or _naming_verb(first_piece, forms) or _using_verb(first_piece):
            f["first_clause_verb"] = 1.0
        if i in starts and first_flag.startswith("v") and first_flag != "vn":
            f["first_verb_%s" % ("long" if len(first_piece) > 1 else "one")] = 1.0
        if one_word and i < n:
            onset = _onset(run[i], word0)
            if onset:
                f["first_sound_" + onset] = 1.0
            if i > 0 and _onset(run[i - 1], word0):
                f["prev_sound"] = 1.0
            if trans:
                f["trans_diff_%d" % max(-2, min(length - trans, 2))] = 1.0
        if i > 0:
            pb = unit_of(i - 1)
            prev_piece = run[pb[0]:i]
            pflag = pb[3] if pb[1] == i else "mid"
            f["prev_pos_" + (_pos(pflag) if pflag != "mid" else "mid")] = 1.0
            if pflag != "mid" and is_function_word(pflag, prev_piece):
                f["prev_function"] = 1.0
            f["prev_len_%d" % min(len(prev_piece), 3)] = 1.0
            f["prev_idf_" + _idf_bucket(prev_piece)] = 1.0
            if len(prev_piece) > 1 and is_general(prev_piece):
                f["prev_general"] = 1.0
            if gloss(prev_piece).verb_only:
                f["prev_verb_only"] = 1.0
            if _copula(prev_piece) or _naming_verb(prev_piece, forms) or _using_verb(prev_piece):
                f["prev_clause_verb"] = 1.0
            if pflag.startswith("v") and pflag != "vn":
                f["prev_verb"] = 1.0
            if pflag.startswith("m") or pflag.startswith("q"):
                f["prev_count"] = 1.0
            if prev_piece == "的":
                f["prev_de"] = 1.0
            # does the character just left of the edge say an English word the span does not?
            extra = said(pb[0]) - said(i)
            if extra:
                f["prev_says_more"] = 1.0
            elif links(pb[0]) - links(i):
                f["prev_says_part"] = 1.0     # 多 *multi-* of 多版本 *multiversion*
        if en:
            cov = len(said(i)) / n_en
            f["cov"] = cov
            if said(i) == full and full:
                f["cov_all_run"] = 1.0
            if cov == 1.0:
                f["cov_full"] = 1.0
            if 0 in said(i):
                f["says_first_en"] = 1.0
            if n_en - 1 in said(i):
                f["says_head_en"] = 1.0
            mine = said(i) - said(b[1])
            if mine:
                f["first_aligned"] = 1.0
            elif said(i):
                f["first_unaligned"] = 1.0
            diff = n_units(i) - n_en
            f["units_minus_en_%d" % max(-2, min(diff, 3))] = 1.0
            if n_en == 1:
                f["one_en_len_%d" % min(length, 5)] = 1.0
        elif letters:
            sp = spelled(i)
            f["spelled_frac"] = sp / len(letters)
            diff = n_units(i) - len(letters)
            f["units_minus_letters_%d" % max(-2, min(diff, 3))] = 1.0
        # what the span holds besides its head: clause verbs, counts, function words, and
        # how many of its words stand left of the first that says the English
        inner = [(run[max(i, b0):b1], fl if b0 >= i else "mid") for b0, b1, _, fl in bounds
                 if b1 > i][:-1]
        verbs = [w for w, fl in inner if fl.startswith("v") and fl != "vn"]
        if verbs:
            f["inner_verbs_%d" % min(len(verbs), 2)] = 1.0
            if any(is_general(w) for w in verbs):
                f["inner_general_verb"] = 1.0
        if any(fl.startswith(("m", "q")) for _, fl in inner):
            f["inner_count"] = 1.0
        if any(fl != "mid" and fl != "uj" and is_function_word(fl, w) for w, fl in inner):
            f["inner_function"] = 1.0
        if en and said(i):
            left = 0
            for b0, b1, _, _ in bounds:
                if b1 <= i:
                    continue
                if links(max(i, b0)) - links(b1):
                    break
                left += 1
            f["unaligned_left_%d" % min(left, 3)] = 1.0
        hyphens = "-‐–"
        if any(h in english_raw for h in hyphens):
            if any(h in run[i:] for h in hyphens):
                f["hyphen_both"] = 1.0
            if i > 0 and run[i - 1] in hyphens:
                f["after_hyphen"] = 1.0
        # pairs: what starts the span with what stands before it, and with its length
        fp = next((k[10:] for k in f if k.startswith("first_pos_")), "")
        pp = next((k[9:] for k in f if k.startswith("prev_pos_")), "start")
        f["pair_%s_%s" % (fp, pp)] = 1.0
        f["first_%s_len_%s" % (fp, min(length, 5))] = 1.0
        if en:
            f["cov_%s_len_%s" % (int(f["cov"] * 2 + 0.5) / 2, min(length, 5))] = 1.0
        out.append((i, f))
    return out


WEIGHTS_FILE = Path(__file__).with_name("weights.json")

recorder: list | None = None      # set to a list to collect (Sighting, features) while finding
_weights: list = [None]


def shipped() -> dict[str, float]:
    """The weights ``train.py --write`` last wrote (``weights.json`` beside this file)."""
    return json.loads(WEIGHTS_FILE.read_text("utf-8"))["weights"]


def use_weights(weights: dict[str, float] | None) -> None:
    """Score the finder's left edge with ``weights`` (None: the rules' start, but still
    recorded when ``recorder`` is set), through ``bilingual.start_hook``."""
    from zhenglossary import bilingual

    _weights[0] = weights
    bilingual.start_hook = _hook


def clear_weights() -> None:
    from zhenglossary import bilingual

    _weights[0] = None
    bilingual.start_hook = None


def _hook(run, start, english, abbr, clause_start, forms) -> int:
    return choose(Sighting(run, start, english, abbr, clause_start), forms)


CONSTRAIN = [True]


def admissible(s: Sighting, forms: frozenset[str] = frozenset()) -> set[int]:
    """Starts the model may choose: the rules' own, and any other whose span, beyond what
    the rules' span holds, takes in no function word, pronoun or count (jieba's tags), no
    clause verb (a copula, a verb of naming or using, a widespread verb CC-CEDICT reads
    only as a verb) and no widespread word of two or more characters that starts it."""
    from zhenglossary.align import gloss, is_general
    from zhenglossary.bilingual import (HARD_FLAGS, _copula, _naming_verb, _resegment, _units,
                                        _using_verb)

    run = s.run
    units = _resegment(_units(run, forms), s.english, s.abbr, forms)
    at, bounds = 0, []
    for word, flag in units:
        bounds.append((at, at + len(word), word, flag))
        at += len(word)

    def bad(word: str, flag: str) -> bool:
        return (word not in forms and flag.startswith(HARD_FLAGS + ("m", "q")) and flag != "uj") \
            or _copula(word) or _naming_verb(word, forms) or _using_verb(word) \
            or (len(word) > 1 and is_general(word) and gloss(word).verb_only)

    out = {s.rule_start}
    for i in candidates(run, s.rule_start):
        if i > s.rule_start:
            out.add(i)                    # shorter: takes nothing new in
            continue
        pieces = [(run[max(i, b0):min(b1, s.rule_start)], fl) for b0, b1, _, fl in bounds
                  if b1 > i and b0 < s.rule_start]
        if any(bad(w, fl) for w, fl in pieces if w):
            continue
        first = pieces[0][0] if pieces else ""
        if len(first) > 1 and is_general(first) and i < s.rule_start:
            continue
        out.add(i)
    return out


def _score(weights, f: dict[str, float]) -> float:
    if "names" not in weights:
        return sum(weights.get(k, 0.0) * v for k, v in f.items() if not k.startswith("_"))
    index = weights.setdefault("_index", {k: j for j, k in enumerate(weights["names"])})
    hot = [(index[k], v) for k, v in f.items() if k in index]
    W, b, u, w = weights["W"], weights["b"], weights["u"], weights["w"]
    total = sum(w[j] * v for j, v in hot) + weights.get("alpha", 0.0) * f.get("rule", 0.0)
    for h in range(len(b)):
        total += u[h] * math.tanh(b[h] + sum(W[j][h] * v for j, v in hot))
    return total


def choose(s: Sighting, forms: frozenset[str] = frozenset()) -> int:
    """The start the model gives the highest score (the rules' start without weights)."""
    weights = _weights[0]
    if weights is None and recorder is None:
        return s.rule_start
    feats = features(s, forms)
    if recorder is not None:
        recorder.append((s, feats))
    if weights is None:
        return s.rule_start
    best, best_score = s.rule_start, -math.inf
    allowed = admissible(s, forms) if CONSTRAIN[0] else None
    for i, f in feats:
        if allowed is not None and i not in allowed:
            continue
        score = _score(weights, f)
        if score > best_score + 1e-12:
            best, best_score = i, score
    return best
