"""lexicon.py: lemminflect's inflection and lemma tables read word by word from a
rebuildable SQLite index; every answer is lemminflect's own, checked against lemminflect
with its tables loaded whole."""

from __future__ import annotations

from functools import lru_cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from zhenglossary import lexicon

TAGS = ("NN", "NNS", "NNP", "NNPS", "VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "JJ", "JJR",
        "JJS", "RB", "RBR", "RBS", "MD")
UPOS = (None, "NOUN", "PROPN", "VERB", "ADJ", "ADV", "AUX")


@lru_cache(maxsize=1)
def loaded():
    return lexicon.loaded_tables()


@lru_cache(maxsize=1)
def words():
    tables = loaded()
    return sorted(set(tables["infl"]) | set(tables["lemma"]))


def reference(name, *args):
    """lemminflect's answer with its own tables, loaded whole, in its singletons."""
    from lemminflect.core.Inflections import Inflections
    from lemminflect.core.Lemmatizer import Lemmatizer

    module = lexicon._module()
    infl, lem = Inflections(), Lemmatizer()
    saved = infl.infl_dict, lem.lemma_dict
    infl.infl_dict, lem.lemma_dict = loaded()["infl"], loaded()["lemma"]
    try:
        return getattr(module, name)(*args)
    finally:
        infl.infl_dict, lem.lemma_dict = saved


def indexed(name, *args):
    return getattr(lexicon.lemminflect(), name)(*args)


def test_lemminflect_reads_the_index():
    from lemminflect.core.Inflections import Inflections
    from lemminflect.core.Lemmatizer import Lemmatizer

    assert isinstance(lexicon.lemminflect(), lexicon.Lemminflect)
    lexicon._module()
    assert isinstance(Inflections().infl_dict, lexicon.IndexedTable)
    assert isinstance(Lemmatizer().lemma_dict, lexicon.IndexedTable)


def _case(word):
    return st.sampled_from([word, word.upper(), word.capitalize()])


WORD = st.one_of(st.sampled_from(words()).flatmap(_case),
                 st.text("abcdefghijklmnopqrstuvwxyzAEIOUSY-'", min_size=1, max_size=12))


def test_a_word_the_tables_know_imports_neither_lemminflect_nor_numpy(tmp_path):
    """A plural or a lemma the tables hold is answered from the index alone (a fresh
    process over a built index): lemminflect, and the numpy it imports, stay unimported."""
    import os
    import subprocess
    import sys

    assert lexicon._index() is not None                  # built in this ZHEN_HOME
    probe = ("import sys\nfrom zhenglossary import english, terms\n"
             "print(terms.plural_of('vertex'), english.lemma('caching'), "
             "english.lemma('vertices'), 'numpy' in sys.modules, 'lemminflect' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True, env=dict(os.environ)).stdout.split()
    assert out == ["('vertexes',", "'vertices')", "cache", "vertex", "False", "False"]


@settings(max_examples=300)
@given(word=WORD, tag=st.sampled_from(TAGS), upos=st.sampled_from(UPOS))
def test_answers_are_lemminflects(word, tag, upos):
    assert indexed("getInflection", word, tag) == reference("getInflection", word, tag)
    assert indexed("getAllInflections", word, upos) == reference("getAllInflections", word, upos)
    assert indexed("getAllLemmas", word, upos) == reference("getAllLemmas", word, upos)
    if upos not in (None, "PROPN"):
        assert indexed("getAllLemmasOOV", word, upos) == reference("getAllLemmasOOV", word, upos)
    if upos is not None:
        assert indexed("getLemma", word, upos) == reference("getLemma", word, upos)


@pytest.mark.slow            # every entry of both tables (about 120,000), a fresh index
def test_every_entry_is_the_readers(tmp_path, monkeypatch):
    monkeypatch.setenv("ZHEN_HOME", str(tmp_path))
    path = lexicon._path()
    assert str(path).startswith(str(tmp_path)) and lexicon.build(path)
    index = lexicon._Index(lexicon._open(path), lexicon.loaded_tables)
    for name, table in loaded().items():
        fresh = lexicon.IndexedTable(index, name)
        for word, value in table.items():
            assert fresh.get(word) == value, (name, word)
        assert fresh.get("zzqxnotaword") is None and "zzqxnotaword" not in fresh


@pytest.mark.slow            # builds the index from scratch (CI runs it)
@pytest.mark.parametrize("damage", [b"not a database at all", b""])
def test_a_damaged_index_is_rebuilt(tmp_path, monkeypatch, damage):
    monkeypatch.setenv("ZHEN_HOME", str(tmp_path))
    path = lexicon._path()
    path.parent.mkdir(parents=True)
    path.write_bytes(damage)
    index = lexicon._index()
    assert index is not None and lexicon._open(path) is not None
    assert lexicon.IndexedTable(index, "infl").get("vertex") == loaded()["infl"]["vertex"]


def test_an_unwritable_cache_leaves_lemminflect_as_it_is(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("ZHEN_HOME", str(blocker))        # cache dir under a file: unwritable
    monkeypatch.setattr(lexicon, "loaded_tables", lambda: pytest.fail("built"))
    monkeypatch.setattr("zhenglossary.fileio._BUILT", {})
    assert lexicon._index() is None


def test_a_guess_is_remembered_across_runs(tmp_path, monkeypatch):
    """A word the tables lack: lemminflect's model's answer, kept in the cache folder and
    given again (without asking lemminflect) by a later run."""
    want = reference("getInflection", "optimize", "NNS")
    monkeypatch.setenv("ZHEN_HOME", str(tmp_path))
    monkeypatch.setattr(lexicon, "_GUESSES", None)
    assert indexed("getInflection", "optimize", "NNS") == want
    lexicon.save()
    assert lexicon._guesses_path().is_file()
    monkeypatch.setattr(lexicon, "_GUESSES", None)
    monkeypatch.setattr(lexicon, "_module", lambda: pytest.fail("lemminflect asked"))
    assert lexicon.lemminflect().getInflection("optimize", "NNS") == want
