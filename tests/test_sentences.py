"""Sentence splitting and alignment for review rows, checks and CAT units."""

from __future__ import annotations

from hypothesis import given, strategies as st

from zhenglossary.sentences import align, split_sentences


def test_chinese_and_english_sentences():
    assert split_sentences("编译器先内联。然后展开循环！真的吗？是的；好", "zh") == [
        "编译器先内联。", "然后展开循环！", "真的吗？", "是的；", "好"]
    assert split_sentences("It inlines first. Then it unrolls! Really? Yes; fine", "en") == [
        "It inlines first.", "Then it unrolls!", "Really?", "Yes;", "fine"]


def test_no_end_inside_code_urls_numbers_or_abbreviations():
    zh = "见 https://example.org/a?b=1 和 `x.y();` 的 3.5 版。完"
    assert split_sentences(zh, "zh") == ["见 https://example.org/a?b=1 和 `x.y();` 的 3.5 版。", "完"]
    en = "See e.g. Fig. 3 and Smith et al. for v2.0 at https://x.org/a. Done."
    assert split_sentences(en, "en") == [
        "See e.g. Fig. 3 and Smith et al. for v2.0 at https://x.org/a.", "Done."]


def test_align_pairs_or_gives_up():
    assert align("甲。乙。", "Alpha. Beta.") == [("甲。", "Alpha."), ("乙。", "Beta.")]
    assert align("甲。乙。", "A and B.") is None


@given(st.text(alphabet="甲乙。！？；ab .!?;\n`", max_size=60), st.sampled_from(["zh", "en"]))
def test_sentences_keep_every_non_space_character(text, lang):
    pieces = split_sentences(text, lang)
    assert "".join("".join(p.split()) for p in pieces) == "".join(text.split())
    assert all(p == p.strip() and p for p in pieces)
