"""Person names for the gloss engine: written in pinyin (赖海斌 → Lai Haibin), not glossed.

A dictionary gloss of a name is nonsense (赖 "to depend on", 海 "ocean"). A word of a
Chinese run is spelled as a name when all of these hold:

* jieba's part-of-speech tagger calls it a person name (``nr``) in its sentence;
* it is 2–4 characters, and no dictionary knows it as an ordinary word: not the
  function words, the domain list or the glossary, and CC-CEDICT has at most proper-noun
  entries for it;
* it starts with a surname CC-CEDICT lists (an entry with the sense ``surname Lai`` or
  ``two-character surname Ouyang``), which also gives the surname's reading (单 → Shan,
  曾 → Zeng, where the ordinary reading differs);
* the rest (the given name) is not itself an ordinary word (高带宽 is "high bandwidth",
  not Mr Gao Daikuan) and holds no function word (库中 is "in the library").

The given name is written with ``pypinyin``, syllables joined, an apostrophe before a
syllable that starts with a vowel (Xi'an), first letter capitalised.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable

from .. import cedict
from ..pinyin import given_name

_SURNAME = re.compile(r"^(?:two-character )?surname ([A-Z][a-zü]+)$")


def surname_reading(index: cedict.CedictIndex, chars: str) -> str | None:
    """The reading CC-CEDICT gives ``chars`` as a surname, or None."""
    for entry in index.entries(chars):
        if entry.proper:
            for sense in entry.senses:
                match = _SURNAME.match(sense)
                if match:
                    return match.group(1)
    return None


def spell_name(word: str, index: cedict.CedictIndex, common: Callable[[str], bool],
               grammatical: Callable[[str], bool]) -> str | None:
    """``word`` in pinyin when it has the shape of a person's name (see the module
    docstring; the part-of-speech test is the caller's), else None."""
    if not 2 <= len(word) <= 4 or common(word):
        return None
    for cut in (2, 1):
        if len(word) - cut < 1:
            continue
        surname = surname_reading(index, word[:cut])
        if surname is None:
            continue
        given = word[cut:]
        if (len(given) > 1 and common(given)) or any(grammatical(c) for c in given):
            return None
        return f"{surname} {given_name(given)}"
    return None


def person_names(run: str, words: Iterable[str], posseg: Callable[[str], list[tuple[str, str]]],
                 spell: Callable[[str], str | None]) -> dict[str, str]:
    """Words of ``run`` (as the caller's tokenizer cut it into ``words``) to write as names:
    word → pinyin. ``spell(word)`` is :func:`spell_name` (the caller keeps its answers per
    word: a word's shape does not depend on its sentence); ``posseg(run)`` (jieba's tagger,
    :func:`segment.posseg`) runs only when a word has a name's shape."""
    candidates = {w: spelled for w in set(words) if (spelled := spell(w)) is not None}
    if not candidates:
        return {}
    tagged = {word for word, flag in posseg(run) if flag == "nr"}
    return {w: spelled for w, spelled in candidates.items() if w in tagged}
