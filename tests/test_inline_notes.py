"""Inline footnotes ``^[…]`` (pandoc; mdit-py-plugins' footnote plugin with ``inline=True``):
the Chinese inside is translated, the ``^[`` ``]`` markup and the structure are kept, and the
validator counts them as structure. Golden files in tests/data/inline_notes*.md (geology,
cooking chemistry, law, zoology; regenerate with ZHEN_UPDATE_GOLDEN=1).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engines import BracketEngine
from mdcheck import protected, structure
from test_document import golden, translate_text
from zhenglossary.document import Raw, Wrap, align_inline
from zhenglossary.glossary import load_glossary_text
from zhenglossary.textutil import has_cjk
from zhenglossary.validate import check_block, check_document, facts

DATA = Path(__file__).parent / "data"
GLOSSARY = load_glossary_text("terms:\n  - zh: 风化\n    en: weathering\n"
                              "  - zh: 美拉德反应\n    en: Maillard reaction\n"
                              "  - zh: 焦糖化\n    en: caramelization\n")
SOURCE = (DATA / "inline_notes.md").read_text("utf-8")


def inline_notes(text: str) -> int:
    return sum(1 for s in facts(text).structure if s[0] == "footnote_inline")


def test_golden_round_trip():
    english, parallel, findings, _ = translate_text(SOURCE, GLOSSARY, name="inline_notes.md")
    assert findings == []
    golden("inline_notes.en.md", english)
    golden("inline_notes.zh-en.md", parallel)
    body = english.split("\n", 1)[1]
    assert check_document(SOURCE, body) == []
    assert structure(body) == structure(SOURCE) and protected(body) == protected(SOURCE)
    assert inline_notes(SOURCE) == inline_notes(body) == 12


@pytest.mark.parametrize("engine", ["gloss", "bracket"])
def test_the_chinese_inside_is_translated_and_the_markup_kept(engine):
    from zhenglossary.engines.gloss import GlossEngine
    eng = GlossEngine(GLOSSARY.form_map) if engine == "gloss" else BracketEngine()
    english, _, findings, _ = translate_text(SOURCE, GLOSSARY, engine=eng)
    body = english.split("\n", 1)[1]
    assert check_document(SOURCE, body) == [] and findings == []
    assert body.count("^[") == SOURCE.count("^[")
    # nothing Chinese is left inside a footnote (the title of a link is kept, as everywhere)
    for note in facts(body).prose:
        assert not has_cjk(note), note
    if engine == "gloss":
        assert "caramelization" in body.lower() and "^[no Chinese here.]" in body


def test_an_inline_footnote_is_markup_around_prose():
    [text, note, tail] = align_inline("花岗岩^[长石变成**黏土**。]风化")
    assert isinstance(text, type(tail)) and isinstance(note, Wrap) and note.kind == "note"
    assert ("花岗岩^[长石变成**黏土**。]风化"[note.open[0]:note.open[1]],
            "花岗岩^[长石变成**黏土**。]风化"[note.close[0]:note.close[1]]) == ("^[", "]")
    assert [type(n).__name__ for n in note.children] == ["Text", "Wrap", "Text"]
    # a referenced footnote stays one protected span
    [_, ref] = align_inline("见[^a]", {"footnotes": {"refs": {":a": 0},
                                                     "list": {0: {"label": "a", "count": 0}}}})
    assert isinstance(ref, Raw) and ref.kind == "footnote"


def test_aligning_a_region_does_not_change_the_notes_env():
    from zhenglossary.markdown import parse_note
    text = "一段^[注。]文字。\n"
    _, env = parse_note(text)
    before = {k: dict(v) for k, v in env["footnotes"]["list"].items()}
    align_inline("一段^[注。]文字。", env)
    assert env["footnotes"]["list"].keys() == before.keys()


@pytest.mark.parametrize("english, problem", [
    ("Granite weathers.\n", "block structure changed"),               # the footnote dropped
    ("Granite[feldspar turns to clay.] weathers.\n", "block structure changed"),  # ^ lost
    ("Granite^[长石 turns to clay.] weathers.\n", "Chinese left in the English: 长石"),
    ("Granite^[feldspar^[clay.]] weathers.\n", "block structure changed"),  # one more
])
def test_the_validator_counts_inline_footnotes(english, problem):
    source = "花岗岩^[长石变成黏土。]风化。\n"
    assert check_block(source, "Granite^[feldspar turns to clay.] weathers.\n") == []
    problems = check_block(source, english)
    assert problems and problems[0].startswith(problem), problems


def test_the_validator_checks_terms_inside_an_inline_footnote():
    source = "岩石^[由于风化而松散。]很软。\n"
    assert check_block(source, "The rock^[loose due to weathering.] is soft.\n", GLOSSARY) == []
    problems = check_block(source, "The rock^[loose due to erosion.] is soft.\n", GLOSSARY)
    assert problems and "weathering" in problems[0]


def test_a_footnote_moved_to_another_block_is_seen():
    source = "第一段^[注。]\n\n第二段\n"
    assert check_document(source, "First^[Note.]\n\nSecond\n") == []
    assert check_document(source, "First\n\nSecond^[Note.]\n") != []
