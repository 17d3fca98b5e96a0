"""Word alignment against CC-CEDICT glosses and abbreviation letters (align.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from zhenglossary.align import (abbreviation_letters, align_words, english_known,
                                english_words, is_general, singular, stem, words_match)
from zhenglossary.bilingual import canonical_english


@pytest.mark.parametrize("a, b", [("paged", "paging"), ("decode", "decoding"),
                                  ("consistent", "consistency"), ("compress", "compressed")])
def test_stems_equate_inflections(a, b):
    assert stem(a) == stem(b)


@pytest.mark.parametrize("gloss_word, english, expected", [
    ("roof", "roofline", True),          # part of a compound
    ("line", "roofline", True),
    ("sharp", "shared", False),          # a shared prefix is not a match
    ("multi", "multiversion", True),     # a numeral prefix
    ("mix", "mixture", True),            # a short gloss word starting a short word
    ("set", "settlement", False),
    ("take", "stake", False),            # s|take: what is left is no part of a compound
    ("load", "upload", True),
    ("able", "satisfiability", True),     # -ble as -bility, -ible
    ("able", "extensible", True),
    ("possible", "possibility", True),
])
def test_words_match(gloss_word, english, expected):
    assert words_match(gloss_word, english) is expected


def test_english_words_split_camel_case_and_drop_function_words():
    assert english_words("PagedAttention") == ["paged", "attention"]
    assert english_words("Mixture of Experts") == ["mixture", "experts"]
    assert english_words("write-ahead log") == ["write", "ahead", "log"]


@pytest.mark.parametrize("abbr, letters", [("ZeRO", "ZRO"), ("EE-DNNs", "EEDNN"),
                                           ("2PC", "2PC"), ("MoE", "ME")])
def test_abbreviation_letters(abbr, letters):
    assert abbreviation_letters(abbr) == letters


def test_numeral_aligns_to_the_letter_of_its_english():
    # 零 → zero → the Z of ZeRO; the function word 的 never spells a letter
    links, letters = align_words(["零", "冗余", "优化", "器"], "", "ZeRO")
    assert letters[0] == 1 and sum(letters) == 3


def test_words_align_to_the_english_through_their_glosses():
    links, _ = align_words(["保存", "检查", "点"], "checkpoint", "")
    assert not links[0] and links[1] and links[2]


def test_general_chinese_from_jiebas_idf_table():
    assert is_general("我们") and is_general("使用")
    assert not is_general("梯度") and not is_general("检查点")


def test_singular_uses_the_english_cedict_knows():
    assert singular("vertices") == "vertex"
    assert singular("caches") == "cache"
    assert singular("policies") == "policy"
    assert singular("networks") == "network"
    assert singular("analysis") == "analysis"
    assert english_known("snapshot") and not english_known("tcompute")


@pytest.mark.parametrize("seen, expected", [
    ("Graph Neural Networks", "graph neural network"),   # title case of an expansion
    ("Bloom filter", "Bloom filter"),                   # a capital the writer chose
    ("PagedAttention", "PagedAttention"),               # a name
    ("KV caches", "KV cache"),
    ("Mixture of Experts", "mixture of experts"),       # the head noun is not the last word
])
def test_canonical_english(seen, expected):
    assert canonical_english(seen) == expected


def test_canonical_english_keeps_names_cedict_knows():
    assert canonical_english("Fast Fourier Transform", frozenset({"fourier"})) == \
        "fast Fourier transform"


def _letters_taken_by_sorting(words, letters, blocked):
    """letters_taken's rule as first written: every option sorted by (longer first, the one
    ending the letters left first, then in order), the first found taken."""
    from zhenglossary.align import letter_options

    counts, left = [""] * len(words), letters
    for i in range(len(words) - 1, -1, -1):
        if not left:
            break
        if i in blocked:
            continue
        for opt in sorted(letter_options(words[i]),
                          key=lambda o: (-len(o), not left.endswith(o), o)):
            at = left.rfind(opt)
            if at >= 0:
                counts[i], left = opt, left[:at] + left[at + len(opt):]
                break
    return counts


_WORDS = ["独立", "磁盘", "冗余", "阵列", "变分", "四维", "同化", "卷积", "神经", "网络", "预写",
          "日志", "向量", "自", "回归", "半数", "抑制", "浓度", "矩", "震级", "顶空", "固相"]


@given(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=5), st.data())
def test_letters_taken_by_length_groups_is_the_sorted_rule(words, data):
    from zhenglossary.align import letter_options, letters_taken

    spelt = "".join(data.draw(st.sampled_from(sorted(letter_options(w)) or ["X"])) for w in words)
    letters = data.draw(st.one_of(st.just(spelt), st.text("ABCDEFGHIVXRS0123456789", max_size=6)))
    blocked = frozenset(data.draw(st.sets(st.integers(0, len(words) - 1), max_size=1)))
    assert letters_taken(words, letters, blocked) == _letters_taken_by_sorting(words, letters, blocked)


def test_a_pronunciation_note_is_no_sense():
    # CC-CEDICT's 的 ends one sense with "also pr. [di4] or [di5] in poetry and songs":
    # that says nothing of its meaning, so 的 says no *song* (的 of 画眉的鸣唱, a bird's song)
    from zhenglossary.align import gloss
    from zhenglossary.prose import prose_view
    from zhenglossary.bilingual import find_parentheticals

    assert not gloss("的").words & {"songs", "poetry", "pr", "also"}
    assert "target" in gloss("的").words
    text = "画眉的鸣唱（song）比麻雀复杂。"
    assert [p.zh for p in find_parentheticals(prose_view(text), source=text)] == ["鸣唱"]


def test_a_compound_the_dictionary_lacks_is_made_singular_by_its_last_noun():
    # plant pathology, taxonomy: CC-CEDICT's English lacks the compound, not the noun
    # ending it (nano|viruses, mega|species: *species* is its own singular)
    from zhenglossary.align import singular

    assert singular("nanoviruses") == "nanovirus"
    assert singular("megaspecies") == "megaspecies"
    assert singular("caches") == "cache" and singular("boxes") == "box"
    assert canonical_english("soil megaspecies") == "soil megaspecies"


def test_a_plural_in_es_is_made_singular_by_the_lemmatisers_noun_first():
    # statistics, philosophy, medicine: -ses plurals of -sis nouns (CC-CEDICT's English
    # knows *crise*, *analyse*, *these*, so the first known form was wrong)
    from zhenglossary.align import singular
    from zhenglossary.bilingual import canonical_english

    assert singular("crises") == "crisis" and singular("theses") == "thesis"
    assert singular("diagnoses") == "diagnosis" and singular("emphases") == "emphasis"
    assert canonical_english("sensitivity analyses") == "sensitivity analysis"
    # the usual forms are unchanged
    assert [singular(w) for w in ("vertices", "caches", "policies", "boxes", "species")] \
        == ["vertex", "cache", "policy", "box", "species"]


def test_a_singular_noun_ending_in_s_is_kept_as_the_lemmatiser_knows_it():
    # *position bias* was suggested as "position bia", *lens* as "len"
    for word in ("bias", "lens", "alias", "atlas", "chaos", "corpus", "means"):
        assert singular(word) == word
    assert singular("biases") == "bias" and singular("lenses") == "lens"
    assert singular("kernels") == "kernel" and singular("chiplets") == "chiplet"
