"""``zhen glossary suggest``: candidate entries the glossary lacks, ranked, with places.

Two sources:

1. **Bilingual parentheticals** (``图神经网络（Graph Neural Network, GNN）``). Sightings that
   share an English phrase or an abbreviation are grouped; the Chinese term is the longest
   common suffix of the sightings when that is itself a sighting (so ``使用图神经网络`` and
   ``传统的图神经网络`` give 图神经网络), else the most frequent sighting with the others as
   variants (大型语言模型 / 大语言模型).
2. **Recurring terms**: jieba words and runs of two or three adjacent words, outside
   existing glossary matches, that recur (in two notes, or four times in one), are rare in
   general Chinese (jieba's dictionary frequency) and neither start nor end with a
   function word. Their English is left empty for the curator.
"""

from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from functools import lru_cache
from importlib import resources

from .bilingual import STOP_FLAGS, Parenthetical, boundary_words, common_suffix, find_parentheticals
from .checks import NoteText
from .glossary import Glossary
from .textutil import CJK_CLASS, LineIndex, normalize_abbreviation, normalize_english

MAX_PLACES = 5


@dataclass
class Suggestion:
    zh: str
    en: str
    source: str                      # parenthetical | recurring
    count: int
    files: list[str]
    places: list[str]                # file:line, first MAX_PLACES
    variants: list[str] = field(default_factory=list)
    alternatives: list[str] = field(default_factory=list)   # other English seen
    score: float = 0.0

    def to_json(self) -> dict:
        return {"zh": self.zh, "en": self.en, "variants": self.variants, "source": self.source,
                "count": self.count, "files": self.files, "places": self.places,
                "alternatives": self.alternatives, "score": round(self.score, 3)}


class _Groups:
    """Union-find over parenthetical sightings keyed by English and abbreviation."""

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


def from_parentheticals(glossary: Glossary, notes: list[NoteText]) -> list[Suggestion]:
    forms = glossary.form_map
    sightings: list[tuple[NoteText, LineIndex, Parenthetical]] = []
    for note in notes:
        index = LineIndex(note.text)
        for par in find_parentheticals(note.prose, frozenset(forms)):
            if len(par.zh) >= 2:
                sightings.append((note, index, par))
    groups = _Groups()
    keys_of = []
    for _, _, par in sightings:
        keys = []
        if par.english:
            keys.append("en:" + normalize_english(par.english))
        if par.abbr:
            keys.append("abbr:" + normalize_abbreviation(par.abbr).lower())
        for key in keys[1:]:
            groups.union(keys[0], key)
        keys_of.append(keys[0])
    clusters: dict[str, list[int]] = defaultdict(list)
    for i, key in enumerate(keys_of):
        clusters[groups.find(key)].append(i)

    out = []
    for members in clusters.values():
        items = [sightings[i] for i in members]
        spans = Counter(par.zh for _, _, par in items)
        suffix = common_suffix(list(spans))
        if suffix in spans:
            zh, variants = suffix, []
        else:
            ranked = sorted(spans, key=lambda s: (-spans[s], len(s)))
            zh, variants = ranked[0], ranked[1:]
        if zh in forms or any(v in forms for v in variants) or len(zh) < 2 \
                or zh in general_words():
            continue
        english = Counter(par.english for _, _, par in items if par.english)
        abbrs = Counter(par.abbr for _, _, par in items if par.abbr)
        abbr = abbrs.most_common(1)[0][0] if abbrs else ""
        if english:
            best = english.most_common(1)[0][0]
            en = f"{best} ({abbr})" if abbr else best
        else:
            en = normalize_abbreviation(abbr)   # DTNs → DTN: a glossary entry is singular
        alternatives = sorted({e for e in english if normalize_english(e) != normalize_english(
            english.most_common(1)[0][0])}) if english else []
        files = sorted({note.display for note, _, _ in items})
        places = _unique(_place(note, index, par.offset) for note, index, par in items)
        # parentheticals carry their English: they rank above every recurring term
        score = 1000.0 + 10 * len(items) + (5.0 if english else 0.0) + (2.0 if abbr else 0.0)
        out.append(Suggestion(zh, en, "parenthetical", len(items), files, places, variants,
                              alternatives, score))
    return out


@lru_cache(maxsize=1)
def general_words() -> frozenset[str]:
    text = resources.files("zhenglossary").joinpath("data/general_words.txt").read_text("utf-8")
    return frozenset(w for line in text.splitlines() for w in line.split("#", 1)[0].split())


_RUN_RE = re.compile(f"[{CJK_CLASS}]+")
NOUNISH = {"n", "nz", "vn", "nt", "nl", "ng", "an", "l", "j", "i", "eng"}


def from_recurring(glossary: Glossary, notes: list[NoteText], *, min_files: int = 2,
                   min_count_one_file: int = 4, max_general_freq: int = 3000) -> list[Suggestion]:
    from .segment import posseg, tokenizer_for

    forms = frozenset(glossary.form_map)
    freq = tokenizer_for(()).FREQ
    total = tokenizer_for(()).total
    stops = boundary_words()
    counts: Counter[str] = Counter()
    word_counts: Counter[str] = Counter()
    files: dict[str, set[str]] = defaultdict(set)
    places: dict[str, list[str]] = defaultdict(list)
    for note in notes:
        masked = list(note.prose)
        for match in glossary.matcher.finditer(note.prose):
            for i in range(match.start, match.end):
                masked[i] = "|"
        masked_text = "".join(masked)
        index = LineIndex(note.text)
        for run in _RUN_RE.finditer(masked_text):
            words = posseg(run.group(0), forms)
            offsets = []
            pos = run.start()
            for word, _ in words:
                offsets.append(pos)
                pos += len(word)
            for i in range(len(words)):
                word_counts[words[i][0]] += 1
                for n in (1, 2, 3):
                    gram = words[i:i + n]
                    if len(gram) < n:
                        break
                    text = "".join(w for w, _ in gram)
                    if len(text) < 2 or (n == 1 and len(text) < 2):
                        continue
                    first, last = gram[0], gram[-1]
                    if first[0] in stops or last[0] in stops:
                        continue
                    if first[1] in STOP_FLAGS or last[1] in STOP_FLAGS or last[1] not in NOUNISH:
                        continue
                    if any(w in stops for w, _ in gram):
                        continue
                    counts[text] += 1
                    files[text].add(note.display)
                    place = _place(note, index, offsets[i])
                    if len(places[text]) < MAX_PLACES and place not in places[text]:
                        places[text].append(place)
    out = []
    general_list = general_words()
    for text, count in counts.items():
        if text in forms or text in general_list:
            continue
        recurs = len(files[text]) >= min_files or count >= min_count_one_file
        if not recurs or count < 3:
            continue
        general = freq.get(text, 0)
        if general > max_general_freq:
            continue
        specificity = math.log((total + 1) / (general + 1))
        score = count * specificity / 10.0 * (1 + 0.5 * (len(files[text]) - 1)) * min(len(text), 6) / 4
        out.append(Suggestion(text, "", "recurring", count, sorted(files[text]), places[text],
                              score=score))
    # keep only maximal candidates: drop one contained in a longer one seen as often
    out.sort(key=lambda s: -len(s.zh))
    kept: list[Suggestion] = []
    for cand in out:
        if any(cand.zh in longer.zh and longer.count >= cand.count * 0.8 for longer in kept):
            continue
        kept.append(cand)
    return kept


def suggest(glossary: Glossary, notes: list[NoteText], *, limit: int | None = None) -> list[Suggestion]:
    found = from_parentheticals(glossary, notes)
    taken = {s.zh for s in found} | {v for s in found for v in s.variants}
    for cand in from_recurring(glossary, notes):
        if cand.zh in taken or any(cand.zh in t for t in taken):
            continue
        found.append(cand)
    found.sort(key=lambda s: (-s.score, s.zh))
    return found[:limit] if limit else found


def to_yaml(suggestions: list[Suggestion]) -> str:
    """Ready to paste under ``terms:`` (entries without English need ``en`` filled in)."""
    import yaml

    from .glossary import entry_yaml

    lines = [f"# zhen glossary suggest: {len(suggestions)} candidates, best first.",
             "# Paste the ones you accept under `terms:` in glossary.yaml; fill in every empty `en`."]
    for s in suggestions:
        lines.append(f"  # {s.source}, seen {s.count}x in {len(s.files)} file(s): "
                     + ", ".join(s.places))
        if s.alternatives:
            lines.append("  # also written: " + "; ".join(s.alternatives))
        lines.append(entry_yaml(s).rstrip("\n"))
    text = "\n".join(lines) + "\n"
    yaml.safe_load(text)   # what we print must paste cleanly
    return text

