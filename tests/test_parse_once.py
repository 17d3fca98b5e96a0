"""Each note is parsed once per command (plus the validator's one reading of the source and
of the output), whatever the number of notes: counted at markdown-it itself, on more notes
than any cache of recent parses holds."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from zhenglossary.cli import app

CORPUS = Path(__file__).parent / "corpus"


@pytest.fixture
def parses(monkeypatch):
    """Every markdown-it parse of a whole text: (its text)."""
    seen: list[str] = []
    original = MarkdownIt.parse

    def counting(self, src, env=None):
        seen.append(src)
        return original(self, src, env)
    monkeypatch.setattr(MarkdownIt, "parse", counting)
    return seen


@pytest.fixture
def corpus(tmp_path, monkeypatch):
    notes = sorted(CORPUS.glob("*.md"))[:6]          # more than any cache of recent notes
    for note in notes:
        shutil.copy(note, tmp_path / note.name)
    shutil.copy(CORPUS / "glossary.yaml", tmp_path / "glossary.yaml")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ZHEN_HOME", str(tmp_path / ".zhen"))
    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(tmp_path / "no-models"))
    return tmp_path, [n.read_bytes().decode("utf-8") for n in notes]     # CRLF kept


def test_translate_parses_each_note_once_and_its_english_once(runner, corpus, parses):
    root, texts = corpus
    result = runner.invoke(app, ["translate", ".", "--engine", "gloss", "--no-memory"])
    assert result.exit_code in (0, 1), result.output
    for text in texts:
        assert parses.count(text) <= 2          # the note once, and the validator's reading
    # nothing else but the validator's reading of each x.en.md
    assert len(parses) <= 3 * len(texts)


def test_check_parses_each_note_once(runner, corpus, parses):
    root, texts = corpus
    assert runner.invoke(app, ["translate", ".", "--engine", "gloss"]).exit_code in (0, 1)
    parses.clear()
    runner.invoke(app, ["glossary", "check", "."])
    for text in texts:
        assert parses.count(text) == 1
    # the rest are the validator's and the checks' readings of single blocks: at most
    # four per block of the parallel files (the validator's reading of its source and its
    # English, and their prose for the sentence and term checks)
    blocks = sum((root / f"{Path(n).stem}.zh-en.md").read_text("utf-8").count("<!-- zhen:en ")
                 for n in sorted(p.name for p in root.glob("*.md")
                                 if not p.name.endswith((".en.md", ".zh-en.md"))))
    whole = len(texts) * 2                               # each note, and each x.en.md's plain reading
    assert len(parses) - whole <= 4 * blocks
