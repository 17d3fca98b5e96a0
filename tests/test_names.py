"""Person names in the gloss engine: pinyin, not a word-by-word gloss."""

from __future__ import annotations

import pytest

from zhenglossary import cedict
from zhenglossary.engines.gloss import GlossEngine
from zhenglossary.engines.names import given_name, spell_name, surname_reading


@pytest.fixture(scope="module")
def engine():
    return GlossEngine()


def english(engine, text: str) -> str:
    [out] = engine.translate([text])
    return out.hypotheses[0]


@pytest.mark.parametrize("source, name", [
    ("作者：赖海斌，2023年", "Lai Haibin"),
    ("田永鸿，北京大学教授。", "Tian Yonghong"),
    ("感谢李华教授的帮助。", "Li Hua"),
    ("单雄信和曾国藩。", "Shan Xiongxin"),        # the surname reading, not dan
    ("单雄信和曾国藩。", "Zeng Guofan"),          # not ceng
])
def test_person_names_are_written_in_pinyin(engine, source, name):
    assert name in english(engine, source)


@pytest.mark.parametrize("source, gloss", [
    ("在库中查找高带宽内存。", "high bandwidth"),   # 高 is a surname, 高带宽 is no name
    ("我们使用张量并行。", "tensor"),               # 张 is a surname, 张量 a word
])
def test_ordinary_words_are_not_names(engine, source, gloss):
    out = english(engine, source)
    assert gloss in out.lower() and "Gao " not in out and "Zhang " not in out


def test_name_parts():
    index = cedict.load_index()
    assert surname_reading(index, "欧阳") == "Ouyang"
    assert surname_reading(index, "库") is None
    assert given_name("海安") == "Hai'an" and given_name("永鸿") == "Yonghong"
    never = lambda word: False  # noqa: E731
    assert spell_name("赖海斌", index, never, never) == "Lai Haibin"
    assert spell_name("赖海斌", index, lambda w: w == "海斌", never) is None
    assert spell_name("赖中", index, never, lambda c: c == "中") is None
    assert spell_name("赖", index, never, never) is None


_NAMES_PROBE = r"""
import json, random, sys
from pathlib import Path
mode = sys.argv[1]
from importlib.util import find_spec
path = Path(find_spec("pypinyin").origin).with_name("phrases_dict.json")    # not imported
keys = [k for k in json.loads(path.read_text("utf-8")) if len(k) <= 3]
rng = random.Random(7)
chars = "长行重乐单曾朝解覃区仇查缪翟和华强薄种任都传调率奇称藏宿那大一不了地得着"
texts = keys[::3] + ["".join(rng.choice(chars) for _ in range(rng.randint(1, 3)))
                     for _ in range(3000)] + [k[:2] for k in rng.sample(keys, 2000)]
if mode == "full":
    import pypinyin
    out = [pypinyin.lazy_pinyin(t, v_to_u=True) for t in texts]
else:
    from zhenglossary import pinyin
    out = []
    for t in texts:
        pinyin._put(t)
        out.append(pinyin._pinyin(len(t))(t, v_to_u=True))
    from pypinyin.constants import PHRASES_DICT
    out.append(len(PHRASES_DICT) < 20000)            # only the short phrases asked for
print(json.dumps(out, ensure_ascii=False))
"""


@pytest.mark.slow
def test_given_names_read_as_with_pypinyins_whole_phrase_dictionary():
    """``pinyin._pinyin`` loads only the phrases a one-to-three-character text needs:
    pypinyin gives what it gives with every phrase loaded (each in a fresh process)."""
    import json
    import subprocess
    import sys

    full, short = (json.loads(subprocess.run([sys.executable, "-c", _NAMES_PROBE, mode],
                                             capture_output=True, text=True, check=True).stdout)
                   for mode in ("full", "short"))
    assert short[-1] is True
    assert short[:-1] == full


@pytest.mark.slow            # builds the index from pypinyin's dictionary (about 2 s)
def test_the_phrase_index_holds_what_short_phrases_reads(tmp_path, monkeypatch):
    """The cached index of pypinyin's short phrases and characters: every reading and
    every prefix the in-memory tables have, nothing else (a fresh index in an empty cache
    folder)."""
    from pathlib import Path

    import pypinyin

    from zhenglossary import fileio
    from zhenglossary import pinyin

    monkeypatch.setenv("ZHEN_HOME", str(tmp_path))
    monkeypatch.setattr(fileio, "_BUILT", {})
    source = Path(pypinyin.__file__).with_name("phrases_dict.json")
    index = pinyin.PhraseIndex.open(source)
    assert index is not None and str(tmp_path) in str(list(tmp_path.rglob("pypinyin-*"))[0])
    phrases, starts = pinyin.short_phrases(source.read_text("utf-8"), pinyin.SHORT)
    assert index.first == next(iter(phrases))
    assert all(p in index and index[p] == reading for p, reading in phrases.items())
    prefixes = {s[:i + 1] for s in starts for i in range(len(s))}
    assert all(index.is_prefix(p) for p in prefixes)
    chars = pinyin._char_dict(source)             # pypinyin's character table, as it loads it
    assert index.has_chars and all(index.char(k) == v for k, v in chars.items())
    table = pinyin.CharTable(index)
    assert 0x4E2D in table and table[0x4E2D] == chars[0x4E2D] and 0x41 not in table
    probes = [p + "丨" for p in list(phrases)[::97]] + ["丨", "丨丨", "長行重"]
    for probe in probes:
        assert (probe in index) == (probe in phrases)
        assert index.is_prefix(probe) == (probe in prefixes)
