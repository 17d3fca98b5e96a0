"""english.py: English compared as English (lemmas from lemminflect, case, hyphens)."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from zhenglossary.english import chains, contains_term, lemma, same_term, term_key


def test_inflections_and_case_are_one_term():
    assert same_term("Caching", "cache")
    assert same_term("caches", "cache")
    assert same_term("Early-Exit Networks", "early exit network")
    assert same_term("vertices", "vertex")
    assert same_term("GPUs", "GPU") and same_term("DTNs", "DTN")
    assert same_term("multiversion concurrency control", "Multi-Version Concurrency Control")
    assert term_key("Caching Policies") == term_key("cache policy")


def test_derivation_is_not_inflection():
    assert not same_term("Multi-Tenant", "multi-tenancy")
    assert not same_term("quantize", "quantization")
    assert not same_term("pipeline", "pipe")


def test_lemma_keeps_words_that_are_lemmas():
    assert lemma("data") == "data" and lemma("analyses") == "analysis"
    assert lemma("better") == "better" and lemma("QoIs") == "qoi"


def test_contains_and_chains():
    assert contains_term("uncertainty quantifications", "quantification")
    assert not contains_term("quantization", "quantize")
    assert chains("input sequence", "sequence lengths")
    assert not chains("graph parallelism", "parallelization strategy")


_WORD = st.sampled_from(["cache", "node", "vertex", "index", "policy", "batch", "analysis",
                         "matrix", "process", "query", "leaf", "datum", "schedule"])


@settings(max_examples=60, deadline=None)
@given(st.lists(_WORD, min_size=1, max_size=3), st.sampled_from(["lower", "upper", "title"]))
def test_a_phrase_and_its_plural_in_any_case_are_one_term(words, case):
    # lemminflect as zhen asks it (its tables from the index): the module's own functions
    # would load its tables whole into its singletons, for every later test in the process
    from zhenglossary.lexicon import lemminflect

    getInflection, getAllLemmas = lemminflect().getInflection, lemminflect().getAllLemmas  # noqa: N806
    plural = words[:-1] + [getInflection(words[-1], "NNS")[0]]
    phrase = " ".join(words)
    other = getattr(" ".join(plural), case)()
    assert same_term(phrase, other) and same_term(other, phrase)
    if len(getAllLemmas(plural[-1]).get("NOUN", ())) == 1:
        # the key is one lemma per word; a plural with two noun lemmas (leaves: leaf,
        # leave) keys to the first, so only same_term promises equality there
        assert term_key(phrase) == term_key(other)
    assert same_term("-".join(words), phrase)
