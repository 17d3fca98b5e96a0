"""Chinese outside the Basic Multilingual Plane (Extensions B–J, the Compatibility Ideographs
Supplement: rare surnames such as 𠮷 U+20BB7, place names such as 𡈼 U+2123C, chemistry
characters such as 𫫇 U+2AEC7 in 二𫫇英 "dioxin") is Chinese to every part of zhen.

The two independent definitions of "a CJK ideograph" (``textutil.CJK_CLASS`` for the
translator, ``validate._HAN`` for the output check) are tested against Unicode's character
names, code point by code point, in both directions: every character Unicode names
"CJK UNIFIED IDEOGRAPH-…" or "CJK COMPATIBILITY IDEOGRAPH-…" is in the class, and every
assigned character of the class has such a name. Python 3.11's ``unicodedata`` is Unicode
14, which does not name Extensions H, I and J (Unicode 15, 15.1, 17); ``unicodedata2`` (a
test dependency: the same module with the newest Unicode data) checks those. Code points a
block reserves but Unicode has not yet assigned are in the class on purpose (a whole block
is Chinese); they are checked against the Blocks.txt Perl ships (Unicode 14) where it has them.
"""

from __future__ import annotations

import json
import re
import unicodedata

import pytest

from conftest import make_project, write
from engines import BracketEngine
from test_document import translate_text
from test_review import browser  # noqa: F401 (the headless Chromium fixture)
from zhenglossary.cli import app
from zhenglossary.glossary import load_glossary_text
from zhenglossary.parallel import decode_pieces, encode_pieces, read_parallel
from zhenglossary.prose import find_urls, prose_view
from zhenglossary.sentences import split_sentences
from zhenglossary.textutil import CJK_CLASS, CJK_RE, has_cjk
from zhenglossary.validate import _HAN, check_block, compare_facts, facts

NAMES = ("CJK UNIFIED IDEOGRAPH-", "CJK COMPATIBILITY IDEOGRAPH-")
SURNAME, PLACE, OXA = "\U00020BB7", "\U0002123C", "\U0002AEC7"     # 𠮷 𡈼 𫫇
EXT_H = "\U00031350"        # the first character of Extension H (Unicode 15)
EXT_I = "\U0002EBF0"        # the first character of Extension I (Unicode 15.1)


def _databases():
    out = [pytest.param(unicodedata, id=f"unicodedata-{unicodedata.unidata_version}")]
    try:
        import unicodedata2
    except ImportError:      # the [test] extra installs it; without it only Unicode 14 is checked
        out.append(pytest.param(None, id="unicodedata2",
                                marks=pytest.mark.skip("unicodedata2 is not installed")))
    else:
        out.append(pytest.param(unicodedata2, id=f"unicodedata2-{unicodedata2.unidata_version}"))
    return out


@pytest.fixture(scope="module")
def named_ideographs():
    cache: dict = {}

    def named(db) -> tuple[set[int], set[int]]:
        """(code points named as CJK ideographs, all assigned code points) in ``db``."""
        if db not in cache:
            ideographs, assigned = set(), set()
            for cp in range(0x110000):
                name = db.name(chr(cp), "")
                if name or db.category(chr(cp)) != "Cn":
                    assigned.add(cp)
                if name.startswith(NAMES):
                    ideographs.add(cp)
            cache[db] = ideographs, assigned
        return cache[db]
    return named


@pytest.mark.parametrize("db", _databases())
@pytest.mark.parametrize("pattern", [re.compile(f"[{CJK_CLASS}]"), _HAN],
                         ids=["textutil.CJK_CLASS", "validate._HAN"])
def test_the_class_is_exactly_the_named_cjk_ideographs(pattern, db, named_ideographs):
    ideographs, assigned = named_ideographs(db)
    inside = {cp for cp in range(0x110000) if pattern.match(chr(cp))}
    missing = sorted(ideographs - inside)
    assert not missing, f"named CJK ideographs outside the class: U+{missing[0]:X} … ({len(missing)})"
    wrong = sorted(cp for cp in (inside & assigned) - ideographs)
    assert not wrong, (f"the class holds U+{wrong[0]:X} {db.name(chr(wrong[0]), '?')} "
                       f"({len(wrong)} such)")
    # every range of the class starts a block that holds named ideographs (no stray range)
    starts = [cp for cp in sorted(inside) if cp - 1 not in inside]
    for start in starts:
        if db is unicodedata and start > 0x2EBEF and start not in ideographs:
            continue      # Extensions H, I, J are unnamed in Unicode 14: unicodedata2 checks them
        assert start in ideographs, f"U+{start:X} starts a range but is not a CJK ideograph"


def test_whole_blocks_as_unicodes_blocks_file_names_them():
    """Code points a block reserves can't be checked by name: the block bounds are checked
    against a Blocks.txt on this machine (Perl ships one; Unicode 14 in Debian 12, so
    Extensions H, I and J are not in it)."""
    import glob

    from zhenglossary.validate import _HAN_BLOCKS
    files = sorted(glob.glob("/usr/share/perl/*/unicore/Blocks.txt"))
    if not files:
        pytest.skip("no Blocks.txt on this machine (Debian: perl-modules)")
    blocks = {}
    for line in open(files[-1], encoding="utf-8"):
        match = re.match(r"([0-9A-F]+)\.\.([0-9A-F]+); (CJK (?:Unified|Compatibility) Ideographs.*)$",
                         line.strip())
        if match:
            blocks[match.group(3)] = (int(match.group(1), 16), int(match.group(2), 16))
    assert len(blocks) >= 10
    for name, (first, last) in blocks.items():
        assert _HAN_BLOCKS[name] == f"{chr(first)}-{chr(last)}", name
        outside = [cp for cp in range(first, last + 1) if not CJK_RE.match(chr(cp))]
        assert not outside, f"{name}: U+{outside[0]:X} is not in textutil.CJK_CLASS"


def test_the_two_definitions_are_independent_but_agree():
    import ast
    import inspect

    from zhenglossary import validate
    imported = {node.module for node in ast.walk(ast.parse(inspect.getsource(validate)))
                if isinstance(node, ast.ImportFrom)}
    assert not any("textutil" in (name or "") for name in imported), imported
    for cp in list(range(0x3000, 0xA000)) + list(range(0xF800, 0xFB00)) + list(range(0x1F000, 0x40000)):
        assert bool(_HAN.match(chr(cp))) == bool(CJK_RE.match(chr(cp))), f"U+{cp:X}"


# --------------------------------------------------------------------------- text in, text out

@pytest.mark.parametrize("ch", [SURNAME, PLACE, OXA, EXT_H, EXT_I, "\U0002F800", "\u3400"])
def test_astral_and_extension_ideographs_are_chinese(ch):
    assert has_cjk(f"abc{ch}def") and _HAN.search(f"x{ch}")


def test_a_bare_url_ends_at_an_astral_ideograph():
    text = f"见https://example.org/a{SURNAME}氏和www.example.cn/p{PLACE}村"
    assert [text[a:b] for a, b in find_urls(text)] == ["https://example.org/a", "www.example.cn/p"]
    assert SURNAME in prose_view(text) and PLACE in prose_view(text)


def test_sentences_split_around_astral_characters():
    text = f"他姓{SURNAME}。她住在{PLACE}村！二{OXA}英有毒？"
    assert [s.strip() for s in split_sentences(text, "zh")] == [f"他姓{SURNAME}。", f"她住在{PLACE}村！",
                                                          f"二{OXA}英有毒？"]


def test_jieba_cuts_a_run_holding_astral_ideographs_with_the_dictionary():
    from zhenglossary import segment
    # jieba's own run pattern stops at U+9FD5: a user word holding 𫫇 was never found
    assert segment.cut(f"二{OXA}英是一种污染物", [f"二{OXA}英"])[0] == f"二{OXA}英"
    assert segment.blocks(f"a{SURNAME}b，c") == [(0, 3), (4, 5)]
    # text without such characters is cut exactly as jieba cuts it
    import jieba
    plain = "我们在实验室里测量了溶液的酸碱度和T恤的颜色，结果见表3。"
    assert segment.cut(plain) == list(jieba.cut(plain))


def test_glossary_terms_with_astral_characters_are_matched_and_locked():
    glossary = load_glossary_text(f"terms:\n  - zh: 二{OXA}英\n    en: dioxin\n"
                                  f"  - zh: {SURNAME}野\n    en: Yoshino\n")
    found = glossary.find(f"土壤里的二{OXA}英来自{SURNAME}野工厂。")
    assert [(m.start, m.end, m.term.en) for m in found] == [(4, 7, "dioxin"), (9, 11, "Yoshino")]
    english, _, findings, _ = translate_text(f"土壤里的二{OXA}英超标。\n", glossary)
    assert "dioxin" in english and OXA not in english.split("\n", 1)[1] and findings == []


def test_the_gloss_engine_reports_astral_characters_it_cannot_render():
    from zhenglossary.engines.gloss import GlossEngine
    [out] = GlossEngine({}).translate([f"他姓{SURNAME}，住在{PLACE}村。"])
    assert out.unrendered == [SURNAME, PLACE]
    assert not re.search(f"[{CJK_CLASS}]", out.hypotheses[0])


@pytest.mark.parametrize("pieces", [[SURNAME, PLACE], [f"二{OXA}英", EXT_H + EXT_I], ["a,b", "%-->"]])
def test_the_unrendered_marker_round_trips_astral_pieces(pieces):
    value = encode_pieces(pieces)
    assert not re.search(r"[\s,>]|--", value.replace(",", "", len(pieces) - 1))
    assert decode_pieces(value) == pieces


def test_the_validator_rejects_english_that_still_holds_an_astral_ideograph():
    source = f"他姓{SURNAME}。\n"
    assert check_block(source, f"His surname is {SURNAME}.\n") == [f"Chinese left in the English: {SURNAME}"]
    assert check_block(source, "His surname is Ji.\n") == []
    # unless the engine reported it could not render it
    assert compare_facts(facts(source), facts(f"His surname is {SURNAME}.\n"), unrendered=SURNAME) == []
    # a hard-wrapped term of astral characters joins like any other
    assert f"二{OXA}英" in facts(f"二{OXA}\n英\n").text


# --------------------------------------------------------------------------- the commands

NOTE = f"# 土壤检测\n\n第一段没有生僻字。\n\n样品来自{PLACE}村，采样人姓{SURNAME}。\n"


def test_translate_then_check_reports_the_astral_characters_at_their_line(runner, tmp_path, monkeypatch):
    root = make_project(tmp_path, monkeypatch, {"soil.md": NOTE})
    result = runner.invoke(app, ["translate", "notes/", "--engine", "gloss"])
    assert result.exit_code == 0, result.output
    english = (root / "notes" / "soil.en.md").read_text("utf-8")
    assert SURNAME not in english and PLACE not in english
    blocks = read_parallel((root / "notes" / "soil.zh-en.md").read_text("utf-8"))
    [block] = [b for b in blocks if SURNAME in b.source]
    assert block.unrendered == [PLACE, SURNAME]
    result = runner.invoke(app, ["glossary", "check", "notes/", "--format", "json"])
    findings = [f for f in json.loads(result.stdout)["findings"] if f["check"] == "unrendered"]
    assert len(findings) == 1, result.stdout
    [finding] = findings
    assert finding["file"] == "notes/soil.zh-en.md" and finding["line"] == block.en_line
    assert (finding["note"], finding["note_line"]) == ("notes/soil.md", 5)
    assert finding["pieces"] == [PLACE, SURNAME] and SURNAME in finding["message"]


def test_an_english_file_holding_an_astral_ideograph_is_an_error(runner, tmp_path, monkeypatch):
    root = make_project(tmp_path, monkeypatch, {"soil.md": NOTE})
    assert runner.invoke(app, ["translate", "notes/", "--engine", "gloss"]).exit_code == 0
    parallel = root / "notes" / "soil.zh-en.md"
    text = parallel.read_text("utf-8")
    blocks = read_parallel(text)
    [block] = [b for b in blocks if b.source.startswith("第一段")]
    write(parallel, text.replace(block.english, block.english.rstrip(".") + f" {SURNAME}."))
    result = runner.invoke(app, ["glossary", "check", "notes/", "--format", "json"])
    assert result.exit_code == 1, result.stdout
    report = json.loads(result.stdout)["findings"]
    assert any(SURNAME in f["message"] and f["severity"] == "error" for f in report), report


def test_review_page_pairs_an_astral_term_in_a_real_browser(runner, tmp_path, monkeypatch, browser):
    """JavaScript strings are UTF-16: an astral character is two code units there. The page
    must keep it whole (text, data-zh attribute, CSS selector) and pair the term on hover."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    root = make_project(tmp_path, monkeypatch, {"soil.md": f"# 检测\n\n土壤里的二{OXA}英来自{PLACE}村。\n"})
    write(root / "glossary.yaml", f"terms:\n  - zh: 二{OXA}英\n    en: dioxin\n")
    assert runner.invoke(app, ["translate", "notes/", "--engine", "gloss"]).exit_code == 0
    result = runner.invoke(app, ["review", "notes/", "--out", "page.html"])
    assert result.exit_code == 0, result.output
    browser.get((root / "page.html").as_uri())
    assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-filtered") == "yes"
    mark = browser.find_element(By.CSS_SELECTOR, f".src mark.term[data-zh='二{OXA}英']")
    partner = browser.find_element(By.CSS_SELECTOR, f".en mark.term[data-zh='二{OXA}英']")
    assert browser.execute_script(
        "var t = arguments[0].textContent; return [t.length, t.codePointAt(1)];", mark) == [4, ord(OXA)]
    assert mark.text == f"二{OXA}英" and partner.text.lower() == "dioxin"
    ActionChains(browser).move_to_element(mark).perform()
    assert "hot" in partner.get_attribute("class").split()
    finding = browser.find_element(By.CSS_SELECTOR, '.finding[data-check="unrendered"]')
    assert PLACE in finding.text
