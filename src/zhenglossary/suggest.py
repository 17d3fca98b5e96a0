"""``zhen glossary suggest``: candidate entries the glossary lacks, ranked by evidence.

Two kinds of evidence, one ranking:

1. **Bilingual parentheticals** found by :func:`bilingual.find_parentheticals` (the
   finder the note checks use; its term boundary comes from word alignment). Sightings
   that share a Chinese term, an English phrase or an abbreviation are grouped; the
   Chinese is the form seen most often (ties: the best aligned), other forms not
   containing it are variants, and other English forms are kept as alternatives.
2. **Recurring terms**: runs of one to four jieba words outside glossary matches that
   recur (in two notes, or four times in one) and that statistics over general Chinese
   single out as terms, not as discourse or function phrases:

   * the last word is nominal (jieba part of speech), the first is no function word,
     and a verb opening it is not a common verb of general Chinese;
   * it is *key* to the notes: Dunning's log-likelihood ratio of its frequency in the
     notes against jieba's general-Chinese dictionary frequency is above 15.13
     (p < 0.0001), so a general word (读者, 事实上) that the notes merely use is dropped;
   * it is not mostly a clause of its own (discourse openers such as 接下来，简而言之，
     and headings such as 小结), nor a verb CC-CEDICT knows only as "to …" that mostly
     opens a clause (请参阅);
   * it is not a fragment: it is seen next to at least two different neighbours on
     each side (accessor variety; digits and Latin count as one neighbour), so
     字符级语言 (always followed by 模型) and 步预测 (always after a number) are
     dropped, and it never cuts a jieba word of a longer recurring candidate.

   Their English is a CC-CEDICT **dictionary guess**, shown apart from ``en``.

**Evidence** comes with every suggestion (``evidence`` lines, written as comments in the
YAML): the sightings (``file:line``), how often the Chinese is used elsewhere in the notes
and inside which glossary terms, and a **warning** when the parenthetical disagrees with the
term's dominant use — 节点（vertices） once, while 节点 is used 59 times and the glossary's
计算节点 and 登录节点 render it *node* — or with the glossary (its English is already
another entry's).

**Ranking** is by evidence, whatever the source: how often the Chinese occurs in the
notes, in how many notes, and how sure its English is (the alignment score of its
parentheticals; a dictionary guess counts least); each warning halves the score.

Why this module is long: the two sources of candidates (parentheticals and recurring runs),
their evidence and the one ranking they share, and the candidates file; the recurring
statistics (keyness, accessor variety, fragments) are one loop over the notes that the
ranking reads. The next split is the recurring-term statistics into a module of their own.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from .align import gloss, is_general
from .bilingual import HARD_FLAGS, Parenthetical, is_function_word, note_sightings
from .checks import NoteText
from .glossary import Glossary
from .english import normalize_english
from .textutil import CJK_CLASS, LineIndex, is_cjk_char, normalize_abbreviation

MAX_PLACES = 5
KEYNESS = 15.13          # log-likelihood critical value for p < 0.0001 (1 d.f.)


@dataclass
class Suggestion:
    zh: str
    en: str
    source: str                      # parenthetical | recurring
    count: int                       # sightings (parentheticals) or occurrences (recurring)
    files: list[str]
    places: list[str]                # file:line, first MAX_PLACES
    variants: list[str] = field(default_factory=list)
    alternatives: list[str] = field(default_factory=list)   # other English seen
    score: float = 0.0
    occurrences: int = 0             # times the Chinese occurs in the notes' prose
    alignment: float = 0.0           # best alignment score of its parentheticals
    en_guess: str = ""               # CC-CEDICT dictionary guess (recurring terms)
    evidence: list[str] = field(default_factory=list)    # why: one line each
    warnings: list[str] = field(default_factory=list)    # evidence against it

    def to_json(self) -> dict:
        return {"zh": self.zh, "en": self.en, "en_guess": self.en_guess,
                "variants": self.variants, "source": self.source, "count": self.count,
                "occurrences": self.occurrences, "files": self.files, "places": self.places,
                "alternatives": self.alternatives, "alignment": round(self.alignment, 3),
                "score": round(self.score, 3), "evidence": self.evidence,
                "warnings": self.warnings}


class _Groups:
    """Union-find over sighting keys."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, key: str) -> str:
        self.parent.setdefault(key, key)
        while self.parent[key] != key:
            self.parent[key] = self.parent[self.parent[key]]
            key = self.parent[key]
        return key

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra


def _unique(items) -> list[str]:
    out: list[str] = []
    for item in items:
        if item not in out:
            out.append(item)
    return out[:MAX_PLACES]


def _place(note: NoteText, index: LineIndex, offset: int) -> str:
    return f"{note.display}:{index.position(offset)[0]}"


def evidence_score(occurrences: int, files: int, confidence: float) -> float:
    """How strongly the notes support a candidate: occurrences (log), spread over notes,
    and how sure its English is (0..1)."""
    return math.log2(1 + occurrences) * (1 + 0.5 * (files - 1)) * (0.5 + confidence)


def _occurrences(zh: str, notes: list[NoteText]) -> tuple[int, int]:
    per_file = [note.prose.count(zh) for note in notes]
    return sum(per_file), sum(1 for c in per_file if c)


def from_parentheticals(glossary: Glossary, notes: list[NoteText]) -> list[Suggestion]:
    forms = glossary.form_map
    found = [s for s in note_sightings(notes, frozenset(forms)) if len(s[2].zh) >= 2]
    groups = _Groups()
    for _, _, par in found:
        keys = ["zh:" + par.zh]
        if par.english:
            keys.append("en:" + normalize_english(par.english))
        if par.abbr:
            keys.append("abbr:" + normalize_abbreviation(par.abbr).lower())
        for key in keys[1:]:
            groups.union(keys[0], key)
    clusters: dict[str, list[tuple[NoteText, LineIndex, Parenthetical]]] = defaultdict(list)
    for item in found:
        clusters[groups.find("zh:" + item[2].zh)].append(item)

    out = []
    for items in clusters.values():
        spans = Counter(par.zh for _, _, par in items)
        quality = defaultdict(float)
        for _, _, par in items:
            quality[par.zh] = max(quality[par.zh], par.score)
        ranked = sorted(spans, key=lambda s: (-spans[s], -quality[s], len(s)))
        zh = ranked[0]
        # other forms are variants (大型语言模型 / 大语言模型); one holding or held by
        # the term is a boundary slip of a single sighting, not a variant
        variants = [v for v in ranked[1:] if zh not in v and v not in zh]
        if any(span in forms for span in spans):
            continue                      # the glossary has it (in one sighting's cut)
        english = Counter(par.english for _, _, par in items if par.english)
        abbrs = Counter(normalize_abbreviation(par.abbr) for _, _, par in items if par.abbr)
        abbr = abbrs.most_common(1)[0][0] if abbrs else ""
        best = english.most_common(1)[0][0] if english else ""
        en = f"{best} ({abbr})" if best and abbr else (best or abbr)
        seen = {par.english_seen for _, _, par in items if par.english_seen} | set(english)
        alternatives = sorted(e for e in seen if e != best)
        files = sorted({note.display for note, _, _ in items})
        places = _unique(_place(note, index, par.offset) for note, index, par in items)
        occurrences, in_files = _occurrences(zh, notes)
        alignment = max(par.score for _, _, par in items)
        score = evidence_score(max(occurrences, len(items)), max(in_files, len(files)),
                               0.5 + 0.5 * alignment)
        evidence, warnings = _parenthetical_evidence(zh, best or abbr, len(items), occurrences,
                                                     places, glossary)
        score *= 0.5 ** len(warnings)
        out.append(Suggestion(zh, en, "parenthetical", len(items), files, places, variants,
                              alternatives, score, occurrences, alignment,
                              evidence=evidence, warnings=warnings))
    return out


def _parenthetical_evidence(zh: str, english: str, sightings: int, occurrences: int,
                            places: list[str], glossary: Glossary) -> tuple[list[str], list[str]]:
    """(evidence, warnings) of a candidate read from parentheticals."""
    from .english import contains_term, same_term, words
    from .textutil import split_abbreviation

    evidence = [f"{sightings} parenthetical(s): " + ", ".join(places)]
    warnings: list[str] = []
    others = max(0, occurrences - sightings)
    holders = [t for t in glossary.terms if any(zh in f and zh != f for f in t.forms)]
    if others:
        line = f"{zh} is used {others} more time(s) in the notes"
        if holders:
            shown = ", ".join(f"{t.zh} {t.en!r}" for t in holders[:4])
            line += f", inside glossary terms such as {shown}"
        evidence.append(line)
    if english and holders:
        # what the glossary's longer terms render the Chinese as: the English words they
        # share (计算节点 compute node, 登录节点 login node → node)
        from .english import lemma

        counts = Counter()
        for t in holders:
            counts.update({lemma(x) for x in words(split_abbreviation(t.en)[0])})
        top = counts.most_common(1)
        said = [t for t in holders if contains_term(t.en, english)]
        if not said and top and 2 * top[0][1] >= len(holders):
            dominant = top[0][0]
            warnings.append(f"the notes' parenthetical says {english!r}, but {len(holders)} "
                            f"glossary term(s) holding {zh} render it {dominant!r} "
                            f"({', '.join(t.zh for t in holders[:4])}); check which sense the "
                            f"notes mean before adding it")
    if english and others >= 5 * sightings and not warnings:
        warnings.append(f"one rendering from {sightings} parenthetical(s) against {others} "
                        f"other uses of {zh}: check that {english!r} is the sense they mean")
    if english:
        twin = next((t for t in glossary.terms if same_term(split_abbreviation(t.en)[0],
                                                           split_abbreviation(english)[0])), None)
        if twin is not None:
            warnings.append(f"the glossary already renders {twin.en!r} as {twin.zh} (line "
                            f"{twin.line}): a variant of it, or a different sense?")
    return evidence, warnings


# --------------------------------------------------------------------- recurring terms

_RUN_RE = re.compile(f"[{CJK_CLASS}]+")
_BOUNDARY = "\n。！？；：，、,.;:!?（）()[]【】《》“”\"'#*>|-"
NOMINAL = ("n", "vn", "an", "nz", "eng", "ng", "j")
MAX_GRAM = 4


def _nominal(flag: str) -> bool:
    return flag.startswith(NOMINAL) and not flag.startswith("nr")


def _neighbour(text: str, pos: int) -> str | None:
    """The neighbour class at ``pos``: None for a clause boundary, '0' for digits and
    Latin, else the character."""
    if pos < 0 or pos >= len(text):
        return None
    ch = text[pos]
    if ch.isspace() or ch in _BOUNDARY:
        return None
    if ch.isascii() and ch.isalnum():
        return "0"
    return ch


def _verb(zh: str) -> bool:
    """CC-CEDICT reads the word (or, unknown, its last part) only as a verb ("to …")."""
    from .align import word_pieces

    g = gloss(zh)
    return g.verb_only if g.known else gloss(word_pieces(zh)[-1]).verb_only


def _numeral(ch: str, forms: frozenset[str]) -> bool:
    """A Chinese numeral character (jieba tags it m: 一, 两, 多, 单, 几 …)."""
    from .segment import posseg

    return is_cjk_char(ch) and posseg(ch, forms)[0][1] == "m"


def _names_document_part(zh: str) -> bool:
    """CC-CEDICT glosses ``zh`` as a part of a document (小结 *summary*, 示例 *example*,
    章节 *chapter*): structure words, never glossary candidates."""
    from .bilingual import document_part

    return any(document_part(sense) for sense in _senses(zh))


def log_likelihood(a: int, n1: int, b: int, n2: int) -> float:
    """Dunning's G² for a count ``a`` in ``n1`` tokens against ``b`` in ``n2``; negative
    when the word is rarer in the first corpus."""
    if a == 0:
        return 0.0
    e1 = n1 * (a + b) / (n1 + n2)
    e2 = n2 * (a + b) / (n1 + n2)
    g2 = 2 * (a * math.log(a / e1) + (b * math.log(b / e2) if b else 0.0))
    return g2 if a / n1 > b / n2 else -g2


def notes_english(notes: list[NoteText]) -> Counter:
    """The English words the notes themselves write (their Latin runs), counted by lemma,
    lower case: what a dictionary guess must agree with."""
    from .english import lemma

    out: Counter = Counter()
    for note in notes:
        for word in re.findall(r"[A-Za-z][a-z]+", note.prose):
            out[lemma(word.lower())] += 1
    return out


def _senses(word: str, nouns_only: bool = False) -> list[str]:
    """CC-CEDICT's common senses of ``word``: no names, no cross-references, the leading
    article and the bracketed remarks taken off; the senses that are no verb ("to …")
    first (a candidate's last word is a noun), and only those with ``nouns_only``."""
    from .align import PAREN_NOTE, dictionary_index

    nouns, verbs = [], []
    entries = dictionary_index().entries(word)
    common = [e for e in entries if not e.proper]
    for entry in common or entries:      # a name only where CC-CEDICT has nothing else
        for sense in entry.senses:
            text = " ".join(PAREN_NOTE.sub("", sense).split())
            verb = text.startswith("to ")
            for article in ("to ", "a ", "an ", "the "):
                text = text.removeprefix(article)
            if text and not text.startswith(("variant of", "see ", "classifier", "abbr.",
                                             "old variant", "surname")):
                (verbs if verb else nouns).append(text)
    return nouns if nouns_only else nouns + verbs


def _agreeing(senses: list[str], english: Counter) -> str:
    """The sense all of whose words the notes' English uses, the one they use most."""
    from .english import lemma

    best, best_count = "", 0
    for sense in senses:
        ws = [lemma(w) for w in re.findall(r"[A-Za-z]+", sense.lower()) if w not in ("of", "and")]
        count = min((english.get(w, 0) for w in ws), default=0)
        if count > best_count:
            best, best_count = sense, count
    return best


def dictionary_guess(zh: str, english: Counter | None = None) -> str:
    """An English form from CC-CEDICT, only where it is likely right: the sense (or, for a
    word CC-CEDICT lacks, the senses of its parts) that the notes' own English agrees with
    (算法: *algorithm*, not *arithmetic*; 矩阵: *matrix*, not *array*); a word with one sense
    that is no verb gets that one; otherwise no guess (子图: no *son diagram*)."""
    from .align import word_pieces

    english = english or Counter()
    senses = _senses(zh)
    if senses:
        agreed = _agreeing(senses, english)
        if agreed:
            return agreed
        if len(senses) == 1 and not gloss(zh).verb_only:
            return senses[0]
        return ""
    parts = []
    for piece in word_pieces(zh):
        agreed = _agreeing(_senses(piece, nouns_only=True), english)
        if not agreed:
            return ""
        parts.append(agreed)
    return " ".join(parts)


def from_recurring(glossary: Glossary, notes: list[NoteText], *, min_files: int = 2,
                   min_count_one_file: int = 4, min_count: int = 3) -> list[Suggestion]:
    from .align import dictionary_index
    from .segment import posseg, tokenizer_for

    forms = frozenset(glossary.form_map)
    english = notes_english(notes)
    tokenizer = tokenizer_for(())
    freq, total = tokenizer.FREQ, tokenizer.total
    counts: Counter[str] = Counter()
    files: dict[str, set[str]] = defaultdict(set)
    places: dict[str, list[str]] = defaultdict(list)
    left: dict[str, set] = defaultdict(set)
    right: dict[str, set] = defaultdict(set)
    initial: Counter[str] = Counter()      # at the start of a clause
    alone: Counter[str] = Counter()        # a whole clause: 接下来， / a heading 小结
    numeral_left: Counter[str] = Counter()
    glued_left: Counter[str] = Counter()    # its first character ends a word before it
    words_of: dict[str, tuple[str, ...]] = {}
    tokens = 0
    for note in notes:
        masked = list(note.prose)
        for match in glossary.find_prose(note.prose):     # hard-wrapped ones too
            for i in range(match.start, match.end):
                masked[i] = "|"
        text = "".join(masked)
        index = LineIndex(note.text)
        for run in _RUN_RE.finditer(text):
            words = posseg(run.group(0), forms)
            tokens += len(words)
            offsets = []
            pos = run.start()
            for word, _ in words:
                offsets.append(pos)
                pos += len(word)
            for i in range(len(words)):
                word, flag = words[i]
                numeral_head = flag == "m" and len(word) == 1 and i + 1 < len(words) \
                    and not words[i + 1][1].startswith(("q", "m"))     # 多步, 单精度
                if is_function_word(flag, word) and not numeral_head:
                    continue
                if words[i][1].startswith("v") and is_general(words[i][0]):
                    continue
                for n in range(1, MAX_GRAM + 1):
                    gram = words[i:i + n]
                    if len(gram) < n:
                        break
                    if any(f.startswith(HARD_FLAGS) for _, f in gram[1:]):
                        break                 # a particle, pronoun or conjunction inside
                    cand = "".join(w for w, _ in gram)
                    if len(cand) < 2 or len(cand) > 10 or not _nominal(gram[-1][1]) \
                            or gram[-1][1].startswith("uj"):
                        continue
                    start, end = offsets[i], offsets[i] + len(cand)
                    counts[cand] += 1
                    files[cand].add(note.display)
                    words_of.setdefault(cand, tuple(w for w, _ in gram))
                    before, after = _neighbour(text, start - 1), _neighbour(text, end)
                    left[cand].add(before if before is not None else ("|", counts[cand]))
                    right[cand].add(after if after is not None else ("|", counts[cand]))
                    if before is None:
                        initial[cand] += 1
                        if after is None:
                            alone[cand] += 1
                    elif before == "0" and text[start - 1].isdigit() or _numeral(before, forms):
                        numeral_left[cand] += 1
                    if before is not None and len(gram[0][0]) == 1 \
                            and before + cand[0] in dictionary_index():
                        glued_left[cand] += 1     # 期优化 after 长: 长期 is the word
                    place = _place(note, index, start)
                    if len(places[cand]) < MAX_PLACES and place not in places[cand]:
                        places[cand].append(place)
    tokens = max(tokens, 1)
    kept: dict[str, int] = {}
    for cand, count in counts.items():
        if cand in forms or count < min_count:
            continue
        if len(files[cand]) < min_files and count < min_count_one_file:
            continue
        if is_general(cand):
            continue                      # general Chinese (jieba's IDF table)
        if numeral_left[cand] * 2 >= count:
            continue                      # 步预测 of 1步预测, 多步预测: it needs its numeral
        if glued_left[cand] * 2 >= count:
            continue                      # 期优化 of 长期优化, 后期优化: a fragment
        if _names_document_part(cand):
            continue                      # 小结, 示例, 章节: the note's own structure
        general = freq.get(cand, 0)
        if log_likelihood(count, tokens, general, total) < KEYNESS:
            continue
        if alone[cand] * 2 > count:
            continue                      # a discourse opener (接下来，) or a heading (小结)
        if initial[cand] * 2 > count and _verb(cand):
            continue                      # an instruction opening a clause (请参阅)
        if len(left[cand]) < 2 or len(right[cand]) < 2:
            continue                      # a fragment of something longer
        kept[cand] = count
    # never a fragment that cuts a jieba word of a longer candidate, nor one seen
    # mostly inside a longer candidate
    out = []
    by_length = sorted(kept, key=len, reverse=True)
    for cand in by_length:
        fragment = False
        for longer in by_length:
            if len(longer) <= len(cand):
                break
            at = longer.find(cand)
            if at < 0:
                continue
            bounds = {0}
            pos = 0
            for word in words_of[longer]:
                pos += len(word)
                bounds.add(pos)
            if at not in bounds or at + len(cand) not in bounds or kept[longer] >= 0.8 * kept[cand]:
                fragment = True
                break
        if fragment:
            continue
        occurrences, in_files = _occurrences(cand, notes)
        score = evidence_score(occurrences, in_files, 0.0)
        out.append(Suggestion(cand, "", "recurring", kept[cand], sorted(files[cand]),
                              places[cand], score=score, occurrences=occurrences,
                              en_guess=dictionary_guess(cand, english),
                              evidence=[f"recurring: {kept[cand]} time(s) in "
                                        f"{len(files[cand])} note(s)"]))
    return out


def suggest(glossary: Glossary, notes: list[NoteText], *, limit: int | None = None) -> list[Suggestion]:
    found = from_parentheticals(glossary, notes)
    taken = {s.zh for s in found} | {v for s in found for v in s.variants}
    for cand in from_recurring(glossary, notes):
        if cand.zh in taken or any(cand.zh in t or t in cand.zh for t in taken):
            continue
        found.append(cand)
    found.sort(key=lambda s: (-s.score, s.zh))
    return found[:limit] if limit else found


def to_yaml(suggestions: list[Suggestion], candidates_file: bool = False) -> str:
    """Ready to paste under ``terms:`` (entries without English need ``en`` filled in);
    with ``candidates_file``, a whole file for the curator's review (``terms:`` and the
    entries) that ``zhen glossary import`` reads back."""
    import yaml

    from .glossary import entry_yaml
    from .textutil import printable

    lines = [f"# zhen glossary suggest: {len(suggestions)} candidates, best first."]
    if candidates_file:
        lines += ["# Review each: delete the ones you reject, fill in or correct `en` (an entry",
                  "# whose `en` is empty is not imported), then run",
                  "#   zhen glossary import <this file>",
                  "# to append them to glossary.yaml (its comments and order are kept).",
                  "terms:"]
    else:
        lines.append("# Paste the ones you accept under `terms:` in glossary.yaml; fill in "
                     "every empty `en`.")
    for s in suggestions:
        evidence = (f"in {s.count} parenthetical(s)" if s.source == "parenthetical"
                    else "recurring")
        # comments hold note names and note text: one line each, nothing unprintable
        lines.append(f"  # {evidence}, {s.occurrences}x in {len(s.files)} file(s): "
                     + printable(", ".join(s.places)))
        for line in s.evidence[1:]:
            lines.append("  # " + printable(line))
        for line in s.warnings:
            lines.append("  # WARNING: " + printable(line))
        if s.alternatives:
            lines.append("  # also written: " + printable("; ".join(s.alternatives)))
        lines.append(entry_yaml(s).rstrip("\n"))
    text = "\n".join(lines) + "\n"
    yaml.safe_load(text)   # what we print must paste cleanly
    return text

