"""segment.py: one jieba dictionary per process, read on demand from a rebuildable SQLite
index (frequencies, part-of-speech tags, IDF), glossary words in an overlay; the words cut
are jieba's own, checked against jieba's fully loaded tokenizer."""

from __future__ import annotations

import jieba
import pytest

from zhenglossary import segment

TEXTS = [
    "土壤微生物群落的宏基因组测序揭示了碳循环的关键基因。",
    "本研究采用双盲随机对照试验，评估新型疫苗的免疫原性。",
    "桥梁结构健康监测系统通过光纤光栅传感器采集应变数据。",
    "我们在嵌入式处理器上部署了轻量级目标检测网络，功耗降低百分之三十。",
]
FORMS = ("宏基因组测序", "光纤光栅", "轻量级目标检测", "免疫原性", "碳循环")


def reference_tokenizer(forms):
    """jieba as a user has it: its whole table loaded, the forms added to a copy."""
    tok = jieba.Tokenizer()
    tok.initialize()
    for form in sorted(forms, key=lambda f: (len(f), f)):
        tok.add_word(form, max(tok.suggest_freq(form, False), 1000))
    return tok


def test_overlay_cuts_like_a_full_copy_and_keeps_forms_whole():
    reference = reference_tokenizer(FORMS)
    for text in TEXTS:
        for hmm in (True, False):
            assert segment.tokenizer_for(FORMS).lcut(text, HMM=hmm) == reference.lcut(text, HMM=hmm)
    words = [w for t in TEXTS for w in segment.cut(t, FORMS)]
    assert set(FORMS) <= set(words)


def test_overlay_leaves_the_shared_dictionary_alone():
    base = segment.tokenizer_for(())
    before = (dict(base.own), base.total)
    tok = segment.tokenizer_for(("一个从未见过的新术语词",))
    assert tok.FREQ.get("一个从未见过的新术语词")
    assert "一个从未见过的新术语词" not in base.FREQ
    assert tok.shared is base.shared                   # one table, not a copy
    assert (dict(base.own), base.total) == before


def test_tags_match_jiebas_dictionary():
    table = segment.tag_table()
    expected = dict(segment._read_tags(segment.tokenizer_for(())))
    sample = list(expected)[::997] + ["的", "计算", "不存在的词语组合"]
    for word in sample:
        assert table.get(word, "x") == expected.get(word, "x"), word
    assert "计算" in table and table["计算"] == expected["计算"]
    tagged = segment.posseg("我们提出了一种新的算法", ())
    assert "".join(w for w, _ in tagged) == "我们提出了一种新的算法"
    assert dict(tagged)["算法"] == expected["算法"]


def test_idf_matches_jiebas_table():
    table = dict(segment._read_idf())
    for word in list(table)[::5003] + ["计算", "不存在的词语组合"]:
        assert segment.idf(word) == table.get(word), word
    values = sorted(table.values())
    assert segment.idf_cut() == values[len(values) // 20]


def test_posseg_tags_glossary_forms_nz():
    tagged = dict(segment.posseg(TEXTS[2], FORMS))
    assert tagged["光纤光栅"] == "nz"


@pytest.mark.slow            # builds the caches from scratch (CI runs it)
@pytest.mark.parametrize("damage", [b"not a database at all", b""])
def test_a_damaged_tag_index_is_rebuilt(tmp_path, monkeypatch, damage):
    monkeypatch.setenv("ZHEN_HOME", str(tmp_path))
    base = jieba.dt
    path = segment._tags_path(base)
    assert str(path).startswith(str(tmp_path))
    path.parent.mkdir(parents=True)
    path.write_bytes(damage)
    index = segment._WordIndex(base)
    assert index.tag("计算") == dict(segment._read_tags(base))["计算"]
    assert index.idf("计算") == dict(segment._read_idf())["计算"]
    assert segment._open_tags(path) is not None         # rebuilt, complete


@pytest.mark.slow            # builds the caches from scratch (CI runs it)
def test_an_unwritable_cache_falls_back_to_memory(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("ZHEN_HOME", str(blocker))        # cache dir under a file: unwritable
    index = segment._WordIndex(jieba.dt)
    assert index.tag("计算") and index.tag("不存在的词语组合") is None
    table, total = index.freq_table()
    assert isinstance(table, dict) and table["计算"] > 0 and total > 0
    assert index.idf("计算") and index.idf_cut > 0


@pytest.mark.slow            # builds the caches from scratch (CI runs it)
def test_glossary_check_loads_one_dictionary_and_no_cedict(project, tmp_path):
    """A fresh process: `check_project` on the shipped notes never loads jieba's whole
    frequency table (jieba.dt stays uninitialised: the words come from the index), never
    builds jieba.posseg's eager tag dict, nor CC-CEDICT's whole
    index: the parenthetical finder (the shipped notes have bilingual parentheticals)
    looks its words up in the on-disk headword file once the caches are warm, and a note
    without one opens not even that."""
    import json
    import os
    import subprocess
    import sys

    script = """
import json, sys
from pathlib import Path
from zhenglossary import cedict
from zhenglossary.api import check_project
check_project([Path("notes")], Path("glossary.yaml"))
import jieba, jieba.posseg
from zhenglossary.segment import TagTable
print(json.dumps({"cedict": bool(cedict._loaded), "lookup": bool(cedict._lookups),
                  "tags_lazy": isinstance(jieba.posseg.dt.word_tag_tab, TagTable),
                  "jieba_loaded": jieba.dt.initialized}))
"""
    for _ in range(2):          # the first run builds the caches (and may load the index)
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                             cwd=project, env=dict(os.environ), check=True)
    assert json.loads(out.stdout.splitlines()[-1]) == {
        "cedict": False, "lookup": True, "tags_lazy": True, "jieba_loaded": False}
    for note in (project / "notes").glob("*.md"):
        note.unlink()
    (project / "notes" / "plain.md").write_text("# 笔记\n\n我们使用混合精度训练模型（见图 3）。\n", "utf-8")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         cwd=project, env=dict(os.environ), check=True)
    loaded = json.loads(out.stdout.splitlines()[-1])
    # the glossary lint reads the senses of one-word forbids from the headword file
    # (forbid-too-broad); the whole index is still never loaded
    assert loaded["cedict"] is False


@pytest.mark.slow            # builds the caches from scratch (CI runs it)
def test_cedict_lookup_answers_as_the_index_and_survives_damage(tmp_path, monkeypatch):
    """`cedict.lookup()` answers `in` and `entries` exactly as the loaded index, from a
    SQLite file built once; with the file in place no index is loaded; a damaged or
    partial file is rebuilt; an unwritable cache falls back to the index in memory."""
    import itertools

    from zhenglossary import cedict, fileio

    monkeypatch.setenv("ZHEN_HOME", str(tmp_path))
    cedict.forget_loaded()
    index = cedict.load_index()
    words = list(itertools.islice(index.words(), 0, None, 97)) + [
        "了", "行", "计算机", "不存在的词语组合", "x", ""]
    expected = [(w in index, index.entries(w)) for w in words]
    assert any(e for _, e in expected) and not all(k for k, _ in expected)
    assert cedict.lookup() is index                     # loaded already: the index answers
    path = cedict.lookup_path()
    for damage in ("missing", "sound", b"", b"partial", b"SQLite format 3\x00garbage"):
        if damage == b"partial":
            damage = path.read_bytes()[:4096]
        if isinstance(damage, bytes):
            path.write_bytes(damage)
        cedict.forget_loaded()
        found = cedict.lookup()
        assert isinstance(found, cedict.CedictLookup) and path.is_file()
        assert [(w in found, found.entries(w)) for w in words] == expected
        if damage == "sound":
            assert not cedict._loaded                   # a sound file needs no index
    found._db.close()                                   # damaged under a running process
    found._rows.clear()
    assert [(w in found, found.entries(w)) for w in words] == expected
    cedict.forget_loaded()
    monkeypatch.setattr(cedict, "_build_lookup", lambda path: False)
    monkeypatch.setattr(fileio, "_BUILT", {})          # and no built copy to take
    path.unlink()
    found = cedict.lookup()                             # cache not writable: the index
    assert isinstance(found, cedict.CedictIndex)
    assert [(w in found, found.entries(w)) for w in words] == expected
    cedict.forget_loaded()


@pytest.mark.slow            # builds the caches from scratch (CI runs it)
@pytest.mark.parametrize("kind", ["english", "technical", "traditional"])
def test_cedict_derived_texts_are_cached_and_survive_damage(tmp_path, monkeypatch, kind):
    """What is derived from CC-CEDICT (the English word list `english_known` asks, the
    technical senses, the traditional→simplified pairs) comes from a checked file beside
    the index cache; once written, reading it needs no index; a damaged file is rebuilt."""
    from zhenglossary import cedict

    monkeypatch.setenv("ZHEN_HOME", str(tmp_path))
    read, path_of, probe = {
        "english": (cedict.english_text, cedict.english_path,
                    lambda t: " computer " in t and " the " in t and t == t.lower()),
        "technical": (cedict.technical_phrases, cedict.technical_path,
                      lambda t: "operand" in t and "uninstall" in t),
        "traditional": (lambda: cedict.simplified("分散式儲存常用糾刪碼"), cedict.traditional_path,
                        lambda t: t == "分散式储存常用纠删码"),
    }[kind]
    cedict.forget_loaded()
    text = read()
    assert probe(text)
    path = path_of()
    assert path.is_file()
    cedict.forget_loaded()
    assert read() == text and not cedict._loaded                      # no index needed
    for damage in (b"", path.read_bytes()[:1000], b"garbage\n computer "):
        path.write_bytes(damage)
        cedict.forget_loaded()
        assert read() == text


def _corpus_texts() -> list[str]:
    from pathlib import Path

    root = Path(__file__).parent
    notes = sorted((root / "corpus").glob("*.md")) + sorted((root.parent / "notes").glob("*.md"))
    return [line for note in notes
            for line in note.read_text("utf-8").splitlines() if line.strip()]


def test_the_table_read_on_demand_cuts_every_corpus_line_as_jieba_does():
    """Every line of the test corpus (14 notes, other fields) and of the shipped notes,
    with and without HMM, and tagged: the same words as jieba's own tokenizer with its whole table loaded."""
    import jieba.posseg

    reference = jieba.Tokenizer()
    reference.initialize()
    tagger = jieba.posseg.POSTokenizer(reference)
    ours = segment.tokenizer_for(())
    assert isinstance(ours.shared, segment.FreqTable)
    assert ours.total == reference.total
    lines = _corpus_texts()
    assert len(lines) > 250
    for line in lines:
        for hmm in (True, False):
            assert ours.lcut(line, HMM=hmm) == reference.lcut(line, HMM=hmm), line
        assert segment.posseg(line) == [(p.word, p.flag) for p in tagger.cut(line)], line


def test_frequencies_match_jiebas_table():
    reference = jieba.Tokenizer()
    reference.initialize()
    table = segment.tokenizer_for(()).shared
    words = list(reference.FREQ)
    for word in words[::1009] + ["计", "计算机科", "不存在的词语组合", "", "x"]:
        assert table.get(word) == reference.FREQ.get(word), word
        assert (word in table) == (word in reference.FREQ)


try:
    from hypothesis import given, settings, strategies as st
except ImportError:            # pragma: no cover
    given = None

if given is not None:
    _CHARS = sorted({ch for line in _corpus_texts() for ch in line})

    @settings(max_examples=150, deadline=None)
    @given(st.text(alphabet=_CHARS, max_size=60), st.booleans())
    def test_any_text_of_corpus_characters_cuts_as_jieba_does(text, hmm):
        reference = _jieba_reference()
        assert segment.tokenizer_for(()).lcut(text, HMM=hmm) == reference.lcut(text, HMM=hmm)


    @settings(max_examples=150, deadline=None)
    @given(st.text(alphabet=_CHARS + list(" ab1,.\n（）"), max_size=80))
    def test_each_block_cuts_as_it_does_inside_the_whole_text(text):
        """term-in-word cuts only the runs around its matches: their words, placed at the
        run's offset, are the words of the whole text there."""
        tok = segment.tokenizer_for(())

        def spans(words, at=0):
            out = []
            for word in words:
                out.append((at, word))
                at += len(word)
            return out

        whole = set(spans(tok.cut(text, HMM=False)))
        for lo, hi in segment.blocks(text):
            assert set(spans(tok.cut(text[lo:hi], HMM=False), lo)) <= whole


_reference = []


def _jieba_reference():
    if not _reference:
        tok = jieba.Tokenizer()
        tok.initialize()
        _reference.append(tok)
    return _reference[0]


def test_user_words_are_cached_and_a_damaged_entry_is_recomputed(tmp_path, monkeypatch):
    """The glossary's words (frequencies that keep each whole) are computed once per set
    of forms and read back after; the tokenizer cuts the same either way, and a damaged
    entry is recomputed, not trusted."""
    monkeypatch.setenv("ZHEN_HOME", str(tmp_path))
    forms = frozenset(FORMS)
    path = segment._words_path(forms)
    assert str(path).startswith(str(tmp_path)) and not path.exists()
    fresh = segment._table_class()(segment._base().shared, segment._base().total, jieba.dt.dictionary)
    segment._add_words(fresh, forms)
    assert path.exists()
    cached = segment._table_class()(segment._base().shared, segment._base().total, jieba.dt.dictionary)
    segment._add_words(cached, forms)
    assert cached.own == fresh.own and cached.total == fresh.total
    for text in TEXTS:
        assert cached.lcut(text) == fresh.lcut(text)
    assert segment._words_path(forms | {"新词"}) != path          # other forms, other entry
    path.write_bytes(b"\x00garbage")
    again = segment._table_class()(segment._base().shared, segment._base().total, jieba.dt.dictionary)
    segment._add_words(again, forms)
    assert again.own == fresh.own and again.total == fresh.total


def test_a_large_text_switches_to_jiebas_whole_table(monkeypatch):
    """Past LOAD_AFTER fragments read, the table is jieba's own, loaded whole, and the words
    cut before and after the switch are jieba's."""
    index = segment._word_index()
    table, total = index.freq_table()
    monkeypatch.setattr(segment.FreqTable, "LOAD_AFTER", 500)
    tok = segment._table_class()(table, total, jieba.dt.dictionary)
    reference = _jieba_reference()
    lines = _corpus_texts()
    switched_at = None
    for n, line in enumerate(lines):
        assert tok.lcut(line) == reference.lcut(line), line
        if table.complete and switched_at is None:
            switched_at = n
    assert switched_at is not None and 0 < switched_at < len(lines) - 1
    assert table.memo is jieba.dt.FREQ and jieba.dt.total == total
    assert table.get("计算") == reference.FREQ["计算"] and table.get("不存在的词语组合") is None


# ------------------------------------------------------------------ the cut cache

from hypothesis import given, settings, strategies as st  # noqa: E402

_RUN_CHARS = "数据集成训练模型并行的在中GPU7"


@settings(max_examples=60, deadline=None)
@given(runs=st.lists(st.text(_RUN_CHARS, min_size=1, max_size=12), max_size=8),
       more=st.lists(st.text(_RUN_CHARS, min_size=1, max_size=12), max_size=8))
def test_cut_runs_answers_as_cutting_them(tmp_path_factory, runs, more):
    # the words of a document's runs, cut, kept, then read back with runs not cut before
    # among them: what cut_all gives for every run, in the order asked (term-in-word's index)
    import os

    os.environ["ZHEN_HOME"] = str(tmp_path_factory.mktemp("cuts"))
    try:
        document = "".join(runs) + "。" + "".join(more)
        for asked in (runs, runs + more, more[::-1] + runs, runs):
            assert segment.cut_runs(document, asked) == segment.cut_all(asked, hmm=False)
        cache = segment.CutCache.for_document(document)
        assert not runs + more or set(cache.read()) == set(runs + more)
    finally:
        del os.environ["ZHEN_HOME"]


def test_cut_cache_ignores_damage_and_an_unwritable_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("ZHEN_HOME", str(tmp_path / "home"))
    runs = ["数据集成", "模型并行训练"]
    want = segment.cut_all(runs, hmm=False)
    assert segment.cut_runs("doc", runs) == want
    cache = segment.CutCache.for_document("doc")
    assert cache.path.is_file() and segment.CutCache.for_document("other").path != cache.path
    for damage in (b"", b"\x00garbage", cache.path.read_bytes()[:9],
                   __import__("marshal").dumps({"数据集成": ("数据", "集")})):   # words ≠ run
        cache.path.write_bytes(damage)
        assert cache.read() == {}                       # ignored, then rewritten
        assert segment.cut_runs("doc", runs) == want
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("ZHEN_HOME", str(blocker))
    assert segment.cut_runs("doc", runs) == want
