"""jieba word segmentation with every glossary form added as a user word.

jieba's default dictionary is loaded once per process (from jieba's own cache); each
glossary gets its own :class:`jieba.Tokenizer` that shares the loaded frequency table
and adds the glossary's forms with a frequency high enough that jieba never splits them.
jieba logs to stderr when it loads; the core never prints, so its logger is silenced.
"""

from __future__ import annotations

import logging
import threading
from functools import lru_cache
from typing import Iterable

_lock = threading.Lock()


@lru_cache(maxsize=1)
def _base():
    import jieba

    jieba.setLogLevel(logging.WARNING)
    logging.getLogger("jieba").setLevel(logging.WARNING)
    tokenizer = jieba.Tokenizer()
    tokenizer.initialize()
    return tokenizer


def _fresh():
    import jieba

    base = _base()
    tokenizer = jieba.Tokenizer()
    tokenizer.FREQ = dict(base.FREQ)
    tokenizer.total = base.total
    tokenizer.initialized = True
    return tokenizer


_cache: dict[frozenset[str], object] = {}


def tokenizer_for(forms: Iterable[str]):
    """A jieba tokenizer that keeps each of ``forms`` whole."""
    key = frozenset(forms)
    with _lock:
        tokenizer = _cache.get(key)
        if tokenizer is None:
            tokenizer = _base() if not key else _fresh()
            for form in sorted(key, key=len):
                # suggest_freq(tune=False) computes the frequency that makes jieba keep the
                # word whole in its own context; a floor keeps short forms competitive.
                freq = max(tokenizer.suggest_freq(form, False), 1000)
                tokenizer.add_word(form, freq)
            if len(_cache) > 8:
                _cache.clear()
            _cache[key] = tokenizer
    return tokenizer


def cut(text: str, forms: Iterable[str] = ()) -> list[str]:
    return list(tokenizer_for(forms).cut(text, HMM=True))


def posseg(text: str, forms: Iterable[str] = ()) -> list[tuple[str, str]]:
    """(word, part-of-speech flag) pairs, glossary forms tagged ``nz``."""
    forms = frozenset(forms)
    pos = _pos_tokenizer(forms)
    return [(p.word, "nz" if p.word in forms else p.flag) for p in pos.cut(text)]


@lru_cache(maxsize=4)
def _pos_tokenizer(forms: frozenset[str]):
    import jieba.posseg

    return jieba.posseg.POSTokenizer(tokenizer_for(forms))
