"""tests/corpus: notes written for zhen in the shapes Chinese technical notes take, from
several fields (compilers, databases, networking, numerics, biology ML, operating systems,
distributed systems, graphics, security, HPC, signal processing, storage). Each goes
through the gloss engine and the hostile noise engine; the independent validator must
pass on every block and on the whole note, and every glossary term must be locked."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from engines import NoiseEngine
from zhenglossary import terms
from zhenglossary.engines.gloss import GlossEngine
from zhenglossary.glossary import load_glossary
from zhenglossary.translate import TranslateOptions, translate_paths
from zhenglossary.render import english_body
from zhenglossary.validate import check_document, facts

CORPUS = Path(__file__).parent / "corpus"
NOTES = sorted(p.name for p in CORPUS.glob("*.md"))
GLOSSARY = load_glossary(CORPUS / "glossary.yaml")


def test_the_corpus_has_the_promised_shapes():
    texts = {name: (CORPUS / name).read_bytes().decode("utf-8") for name in NOTES}
    joined = "\n".join(texts.values())
    assert len(NOTES) >= 12
    assert sum("\r\n" in t for t in texts.values()) >= 2                     # CRLF files
    for shape in ["$\\text{", ":numref:`", ":cite:`", "{cite}`", "[^", "---\ntitle:", "<!--",
                  "<div", "> ```", "*查询*（query）", "![", "\\begin{align}", "$$\n", "]: http",
                  "][]", "    ---", "<混合精度>",
                  # issue 20: matrices in $$ inside a paragraph, an environment closed mid-line,
                  # digits next to $ (math and money), CRLF math, counts before terms
                  "$$J=\n\\begin{bmatrix}", "\\end{bmatrix}$$，", "\\begin{bmatrix}1\\end{bmatrix} ",
                  "2$\\sigma$", "约为$5，", "$$\r\n", "\\partial\r\n> ", "3个关节", "第2个关节",
                  "多个协方差矩阵", "这些集合成员",
                  # bare URLs with Chinese in the path and query, an autolink holding
                  # Chinese, GitHub alerts, a callout marker with a title
                  "https://wiki.example.org/运维/", "?站点=玉龙&仪器=风速计", "<https://tickets.",
                  "> [!WARNING]\n", "> [!note] "]:
        assert shape in joined, shape


@pytest.mark.parametrize("name", NOTES)
@pytest.mark.parametrize("engine_name", ["gloss", "noise"])
def test_every_note_passes_the_validator(tmp_path, name, engine_name):
    shutil.copy(CORPUS / name, tmp_path / name)
    shutil.copy(CORPUS / "glossary.yaml", tmp_path / "glossary.yaml")
    engine = GlossEngine(GLOSSARY.form_map) if engine_name == "gloss" else NoiseEngine(seed=7)
    report = translate_paths([tmp_path / name], tmp_path / "glossary.yaml",
                             TranslateOptions(use_memory=False), engine=engine)
    problems = [f for f in report.findings if f.severity == "error"]
    assert problems == [], [f.message for f in problems]
    assert report.stats["invalid_blocks"] == 0 and report.stats["validated_blocks"] > 0
    source = (tmp_path / name).read_bytes().decode("utf-8")
    english = (tmp_path / name.replace(".md", ".en.md")).read_bytes().decode("utf-8")
    body = english_body(english)
    # checked again here, from the files on disk
    assert check_document(source, body) == []
    assert ("\r\n" in source) == ("\r\n" in body)
    # every term of the note is locked: its en (or an inflected form, terms.py) appears
    # at least as often as its forms
    prose = " ".join(facts(body).prose)
    needed = Counter(m.term for m in GLOSSARY.find(" ".join(facts(source).prose)))
    for term, n in needed.items():
        assert terms.count(term, prose) >= n, term.zh


def test_a_term_hard_wrapped_across_lines_is_locked(tmp_path):
    name = "networking_tcp.md"
    assert "拥塞\n窗口" in (CORPUS / name).read_text("utf-8")
    shutil.copy(CORPUS / name, tmp_path / name)
    report = translate_paths([tmp_path / name], CORPUS / "glossary.yaml",
                             TranslateOptions(use_memory=False),
                             engine=GlossEngine(GLOSSARY.form_map))
    assert report.exit_code == 0
    english = (tmp_path / "networking_tcp.en.md").read_text("utf-8")
    assert english.lower().count("congestion window") >= 2
