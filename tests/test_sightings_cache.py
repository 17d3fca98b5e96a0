"""The parentheticals of a note read before are answered from the cache
(``bilingual.SightingsCache``): the same answer as the finder, and never a stale one."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from zhenglossary import bilingual
from zhenglossary.bilingual import find_parentheticals, note_sightings
from zhenglossary.prose import prose_view


@dataclass
class Note:
    text: str

    @property
    def prose(self) -> str:
        return prose_view(self.text)


NOTES = [
    "# 组会记录\n\n本周讨论了边缘计算（edge computing）与联邦学习（Federated Learning, FL）。\n",
    "- 磁共振弹性成像（MRE）用于评估肝纤维化\n- 见 `mre_fit.py`，参数 $E=3$ kPa\n",
    "| 术语 | 说明 |\n|---|---|\n| 反向传播（backpropagation） | 求梯度 |\n",
    "我们用 [卡尔曼滤波](Kalman filter) 融合轨迹（详见附录 B）。\n",
]


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("ZHEN_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def _fresh(notes, forms=frozenset()):
    return [(n, p) for n in notes for p in find_parentheticals(n.prose, forms, n.text)]


def _pairs(found):
    return [(note, par) for note, _, par in found]


def test_a_second_reading_comes_from_the_cache_and_is_the_same(home, monkeypatch):
    notes = [Note(t) for t in NOTES]
    first = note_sightings(notes)
    assert _pairs(first) == _fresh(notes)
    assert any(p.english == "edge computing" for _, _, p in first)

    def finder_runs(*args, **kwargs):
        raise AssertionError("the finder ran for a note it has read")
    monkeypatch.setattr(bilingual, "find_parentheticals", finder_runs)
    assert _pairs(note_sightings(notes)) == _pairs(first)


def test_other_forms_or_another_text_are_read_again(home, monkeypatch):
    notes = [Note(NOTES[0])]
    note_sightings(notes)
    calls = []
    real = bilingual.find_parentheticals

    def counted(*args, **kwargs):
        calls.append(args[0])
        return real(*args, **kwargs)
    monkeypatch.setattr(bilingual, "find_parentheticals", counted)
    forms = frozenset({"边缘计算"})
    assert _pairs(note_sightings(notes, forms)) == _fresh(notes, forms)
    changed = [Note(NOTES[0].replace("edge computing", "edge compute"))]
    assert _pairs(note_sightings(changed)) == _fresh(changed)
    assert len(calls) == 2


def test_a_damaged_entry_is_ignored_and_written_again(home):
    notes = [Note(NOTES[1])]
    expected = _pairs(note_sightings(notes))
    [entry] = (home / "cache" / "sightings").glob("*/*.marshal")
    for junk in (b"", b"\x00garbage", entry.read_bytes()[:5]):
        entry.write_bytes(junk)
        assert _pairs(note_sightings(notes)) == expected
    import marshal
    assert isinstance(marshal.loads(entry.read_bytes()), list)


def test_a_cache_that_cannot_be_written_is_no_error(home):
    home.mkdir(parents=True)
    (home / "cache").write_text("a file where the cache folder would be")
    notes = [Note(t) for t in NOTES]
    assert _pairs(note_sightings(notes)) == _fresh(notes)


def test_a_new_finder_starts_an_empty_folder_and_removes_the_old(home, monkeypatch):
    notes = [Note(NOTES[2])]
    note_sightings(notes)
    [old] = (home / "cache" / "sightings").iterdir()
    monkeypatch.setattr(bilingual, "_finder_stamp", lambda: "another-finder")
    assert _pairs(note_sightings(notes)) == _fresh(notes)
    assert [p.name for p in (home / "cache" / "sightings").iterdir()] == ["another-finder"]
    assert not old.exists()


def test_the_oldest_entries_go_past_the_limit(home, monkeypatch):
    monkeypatch.setattr(bilingual, "SIGHTINGS_KEEP", 2)
    for k in range(5):
        note_sightings([Note(f"第 {k} 版：张量并行（tensor parallelism）\n")])
    assert len(list((home / "cache" / "sightings").glob("*/*.marshal"))) <= 3


# random notes built from pieces of several fields' writing: the cached answer is the finder's
PIECES = ["本文提出", "用于", "的", "，", "。", "\n\n", "- ", "1. ", "$x^2$", "`ls -l`",
          "图神经网络（graph neural network）", "轴承（Bearing）", "采样率（sampling rate, SR）",
          "（见表 2）", "稀疏矩阵", "（CSR）", "Transformer（变换器）", "[阈值](threshold)",
          "（2019）", "离子阱（ion trap）"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.lists(st.sampled_from(PIECES), max_size=12).map("".join), min_size=1,
                max_size=4))
def test_cached_answers_are_the_finders_on_random_notes(home, texts):
    notes = [Note(t) for t in texts]
    once, twice = note_sightings(notes), note_sightings(notes)
    assert _pairs(once) == _pairs(twice) == _fresh(notes)
