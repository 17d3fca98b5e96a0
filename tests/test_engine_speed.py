"""Engine work done once: the argos engine decodes a short piece no longer than its length
asks (chunks by length), and the gloss engine asks whether a word is a name once per word."""

from __future__ import annotations

from hypothesis import given, strategies as st

from zhenglossary.engines.argos import length_buckets


@given(st.lists(st.integers(1, 300), max_size=400), st.integers(1, 64))
def test_length_buckets_keep_every_text_once_and_bound_each_chunk(lengths, size):
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    chunks = length_buckets(order, lengths, size)
    assert [i for chunk in chunks for i in chunk] == order
    for chunk in chunks:
        assert 1 <= len(chunk) <= size
        shortest, longest = lengths[chunk[0]], lengths[chunk[-1]]
        assert longest <= max(1.5 * shortest, shortest + 8)


def test_a_short_piece_is_decoded_for_its_own_length():
    lengths = [4, 5, 6, 200, 210]
    chunks = length_buckets(list(range(5)), lengths, 256)
    assert chunks == [[0, 1, 2], [3, 4]]          # never one chunk decoding 430 tokens


def test_the_gloss_engine_spells_each_word_as_a_name_once(monkeypatch):
    from zhenglossary.engines import gloss
    from zhenglossary.engines.gloss import GlossEngine

    asked = []
    real = gloss.spell_name
    monkeypatch.setattr(gloss, "spell_name", lambda word, *a: asked.append(word) or real(word, *a))
    engine = GlossEngine()
    text = "赖海斌和王小明讨论了编译器的寄存器分配。"
    first = engine.translate([text, text + "赖海斌同意。"])
    assert asked and len(asked) == len(set(asked))              # each word once
    count = len(asked)
    again = engine.translate(["赖海斌又讨论了一次。"])
    assert len(asked) - count <= len(set(asked[count:]))
    assert "Lai Haibin" in first[0].hypotheses[0] and "Lai Haibin" in again[0].hypotheses[0]
