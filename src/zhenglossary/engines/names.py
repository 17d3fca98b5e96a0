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

import json
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable

from .. import cedict

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


def given_name(chars: str) -> str:
    if len(chars) <= SHORT:
        _put(chars)
    syllables = _pinyin(len(chars))(chars, v_to_u=True)
    out = syllables[0] if syllables else ""
    for syllable in syllables[1:]:
        out += ("'" if syllable[:1] in "aoe" else "") + syllable
    return out[:1].upper() + out[1:]


# pypinyin reads its whole phrase dictionary (about 47,000 phrases: some 40 MB of lists and
# strings, and its segmenter's set of their prefixes) when it is imported. A given name is
# one to three characters, and what pypinyin says of a text that long depends only on which
# of its substrings are phrases (their readings) and which begin one (where the segmenter
# cuts). So the phrases of at most SHORT characters are kept compact (their readings as
# JSON text) and put in pypinyin's dictionary when a name holds one, the segmenter learns
# where every phrase begins (its first SHORT characters), and pypinyin gives the same
# syllables (tests/test_names.py). A longer text loads every phrase, as pypinyin does.
SHORT = 3


def _pinyin(length: int) -> Callable:
    """pypinyin's ``lazy_pinyin`` for a text of ``length`` characters (:func:`_put`
    must have put the short phrases it holds in pypinyin's dictionary)."""
    return _short()[0] if length <= SHORT else _full()


def _put(text: str) -> None:
    """The short phrases among ``text``'s substrings in pypinyin's dictionary."""
    lazy, index, phrases = _short()
    for i in range(len(text)):
        for j in range(i + 1, min(len(text), i + SHORT) + 1):
            word = text[i:j]
            if word not in phrases and word in index:
                phrases[word] = json.loads(index[word])


@lru_cache(maxsize=1)
def _short() -> tuple[Callable, dict[str, str], dict]:
    """pypinyin with none of its phrases but one, its segmenter told where every phrase
    begins; the short phrases' readings, compact; pypinyin's phrase dictionary."""
    pypinyin, mmseg, phrases = _imported()
    source = Path(pypinyin.__file__).with_name("phrases_dict.json")
    if phrases or not source.is_file():      # loaded whole already, or stored otherwise
        _full()
        return pypinyin.lazy_pinyin, {}, phrases
    index, starts = short_phrases(source.read_text("utf-8"), SHORT)
    first = next(iter(index), None)
    if first is not None:                    # a dictionary with phrases segments its text
        phrases[first] = json.loads(index[first])
    mmseg.seg.train(starts)
    return pypinyin.lazy_pinyin, index, phrases


@lru_cache(maxsize=1)
def _full() -> Callable:
    """pypinyin with every phrase, as it loads them."""
    pypinyin, _, _ = _imported()
    from pypinyin import phrases_dict

    pypinyin.load_phrases_dict(phrases_dict.phrases_dict)      # (retrains the segmenter)
    return pypinyin.lazy_pinyin


@lru_cache(maxsize=1)
def _imported():
    """pypinyin imported without its phrase dictionary (an empty one, unless another part
    of the process imported it first) and without copies of its dictionaries (it copies
    them only so that a caller's additions stay apart)."""
    flags = {"PYPINYIN_NO_PHRASES": "1", "PYPINYIN_NO_DICT_COPY": "1"}
    saved = {k: os.environ.get(k) for k in flags}
    os.environ.update(flags)             # read once, when pypinyin is first imported
    try:
        import pypinyin
        from pypinyin.constants import PHRASES_DICT
        from pypinyin.seg import mmseg
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return pypinyin, mmseg, PHRASES_DICT


_WS = re.compile(r"[ \t\n\r]*")


def short_phrases(text: str, longest: int) -> tuple[dict[str, str], set[str]]:
    """Of pypinyin's phrase dictionary (``text``, a JSON object: phrase → readings), the
    phrases of at most ``longest`` characters with their readings (as compact JSON), and
    the first ``longest`` characters of every phrase. Read one entry at a time: the whole
    dictionary is never held."""
    from json.decoder import scanstring

    decoder = json.JSONDecoder()
    phrases: dict = {}
    starts: set[str] = set()
    pos = _WS.match(text, 0).end()
    if text[pos:pos + 1] != "{":
        raise ValueError("pypinyin's phrase dictionary is not a JSON object")
    pos = _WS.match(text, pos + 1).end()
    while text[pos:pos + 1] != "}":
        if text[pos:pos + 1] != '"':
            raise ValueError(f"pypinyin's phrase dictionary: a key expected at {pos}")
        key, pos = scanstring(text, pos + 1)
        pos = _WS.match(text, pos).end()
        if text[pos:pos + 1] != ":":
            raise ValueError(f"pypinyin's phrase dictionary: ':' expected at {pos}")
        value, pos = decoder.raw_decode(text, _WS.match(text, pos + 1).end())
        if len(key) <= longest:
            phrases[key] = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
        starts.add(key[:longest])
        pos = _WS.match(text, pos).end()
        if text[pos:pos + 1] == ",":
            pos = _WS.match(text, pos + 1).end()
    return phrases, starts


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
