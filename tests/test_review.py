"""`zhen review`: the HTML review page — pure rendering, the command, and a real browser."""

from __future__ import annotations

import base64
import hashlib
import os
import re
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import MINI_GLOSSARY, translated_project, write
from zhenglossary.cli import app
from zhenglossary.findings import Finding
from zhenglossary.glossary import load_glossary, load_glossary_text
from zhenglossary.parallel import Pair
from zhenglossary.prose import prose_view
from zhenglossary.parallel import read_parallel
from zhenglossary.review import (ReviewInputs, ReviewNote, english_term_spans, render_review,
                                 review_counts)

GLOSS = load_glossary_text(MINI_GLOSSARY.replace(
    "    en: Tensor Core\n", "    en: Tensor Core\n    note: NVIDIA's matrix units <fast>\n"),
    "glossary.yaml")


def pair(index: int, source: str, english: str, status: str = "machine", note: str = "notes/a.md",
         lines: str | None = None) -> Pair:
    return Pair(note, note.replace(".md", ".zh-en.md"), index, lines or f"L{index * 2 - 1}",
                source, english, status, f"sha{index}", en_line=index * 4,
                terms=[] if status == "same" else GLOSS.find(prose_view(source)))


def inputs(*notes: ReviewNote, findings=()) -> ReviewInputs:
    return ReviewInputs(GLOSS, list(notes), list(findings))


def note(pairs, name="notes/a.md", engine="gloss (dictionary, not machine translation)"):
    return ReviewNote(name, name.replace(".md", ".zh-en.md"), engine, pairs)


def _columns(page: str, side: str, lang: str) -> list[str]:
    """Per translated block: its cells on one side (sentence rows joined)."""
    out = []
    for block in re.split(r'(?=<div class="pair )', page)[1:]:
        cells = re.findall(rf'<div class="{side} md" lang="{lang}">(.*?)</div>', block, re.S)
        if cells:
            out.append("\n".join(cells))
    return out


def en_columns(page: str) -> list[str]:
    return _columns(page, "en", "en")


def src_columns(page: str) -> list[str]:
    return _columns(page, "src", "zh-CN")


def count(page: str, key: str) -> int:
    return int(re.search(rf'id="count-{key}">(\d+)<', page).group(1))


def row(page: str, note_id: str, block: str) -> str:
    start = page.index(f'id="{note_id}-{block}"')
    end = page.find('<div class="pair', start)
    return page[start:end if end > 0 else len(page)]


CORRECT = [
    pair(1, "# 混合精度推理", "# Mixed precision inference"),
    pair(2, "我们使用混合精度训练模型，混合精度计算很快。",
         "We train the model with mixed precision; mixed precision is fast."),
    pair(3, "数据并行和并行，张量核心。", "Data parallelism and parallel, Tensor Core."),
    pair(4, "```python\nx = 1  # 混合精度\n```", "```python\nx = 1  # 混合精度\n```", status="same"),
    pair(5, "张量核心提升了 2.7 倍。", "The Tensor Core gives 2.7 times (tensor core is nice).",
         status="edited"),
]


# --------------------------------------------------------------------------- render_review

def test_highlights_in_the_english_equal_the_locked_terms():
    page = render_review(inputs(note(CORRECT)))
    locked = sum(len(p.terms) for p in CORRECT if p.status != "same")
    assert locked == 7
    assert sum(col.count('<mark class="term ') for col in en_columns(page)) == locked
    assert sum(col.count('<mark class="term ') for col in src_columns(page)) == locked
    assert count(page, "locked_terms") == count(page, "terms_in_english") == locked
    # at most as many as locked: "tensor core" is in b5 twice, locked once
    assert en_columns(page)[3].count("<mark") == 1
    # longest rendering first: "parallel" is the free-standing one, not inside "parallelism"
    b3 = en_columns(page)[2]
    assert re.search(r'<mark [^>]*data-zh="数据并行"[^>]*>Data parallelism</mark>', b3)
    assert re.search(r'and <mark [^>]*data-zh="并行"[^>]*>parallel</mark>,', b3)


def test_highlight_has_zh_en_and_note_in_its_tooltip():
    page = render_review(inputs(note(CORRECT)))
    mark = re.search(r'<mark class="term t\d" data-zh="张量核心"[^>]*>', page).group(0)
    assert 'data-en="Tensor Core"' in mark
    assert 'title="张量核心 → Tensor Core\nNVIDIA&#x27;s matrix units &lt;fast&gt;' in mark
    # a variant belongs to its entry, and the tooltip is the whole entry
    variant = re.search(r'<mark class="term t\d" data-zh="混合精度"[^>]*>混合精度计算</mark>', page)
    assert variant and "混合精度 → mixed precision\nvariants: 混合精度计算" in variant.group(0)


def test_a_term_and_its_english_share_a_colour_in_their_block():
    page = render_review(inputs(note(CORRECT)))
    block = row(page, "note-1", "b3")
    colours = {}
    for cls, zh in re.findall(r'<mark class="term (t\d)" data-zh="([^"]+)"', block):
        colours.setdefault(zh, set()).add(cls)
    assert set(colours) == {"数据并行", "并行", "张量核心"}
    assert all(len(c) == 1 for c in colours.values())                # same colour both sides
    assert len({next(iter(c)) for c in colours.values()}) == 3       # different terms differ


def test_english_spans_are_capped_and_whitespace_flexible():
    [m] = GLOSS.find("混合精度")
    spans = english_term_spans("Mixed\nprecision, mixed precision and `mixed precision`", [m])
    assert [(s, e) for s, e, _ in spans] == [(0, 15)]
    twice = GLOSS.find("混合精度和混合精度")
    spans = english_term_spans("x `mixed precision` mixed precision, MIXED PRECISION", twice)
    assert [s for s, _, _ in spans] == [20, 37]        # never inside inline code


def test_a_missing_term_shows_short_and_in_the_counts():
    broken = CORRECT[:2] + [pair(3, "数据并行和并行，张量核心。", "Data-parallel stuff and parallel, Tensor Core.")]
    page = render_review(inputs(note(broken)))
    assert count(page, "locked_terms") == 6 and count(page, "terms_in_english") == 5
    assert 'class="count terms-short"' in row(page, "note-1", "b3")
    assert "terms 2/3" in row(page, "note-1", "b3")
    assert 'class="mismatch"' in page


def test_everything_is_escaped():
    evil = [pair(1, "注意 <script>alert('zh')</script> 和 <b>粗</b>",
                 "Note <script>alert('en')</script> and <b>bold</b> & more")]
    finding = Finding("untranslated", "error", "Chinese left: <script>alert(1)</script>",
                      "notes/<i>x</i>.md", 1, None, {"segment": "b1"})
    page = render_review(inputs(note(evil, name="notes/<i>x</i>.md"), findings=[finding]),
                         title="<title>")
    assert page.count("<script") == 1                        # ours, at the end
    # the blocks are rendered Markdown whose raw HTML is escaped, not passed through
    assert "&lt;script&gt;alert('zh')&lt;/script&gt;" in page
    assert "&lt;script&gt;alert('en')&lt;/script&gt;" in page
    assert "&lt;b&gt;粗&lt;/b&gt;" in page and "<b>" not in page
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; more" in page
    assert "Chinese left: &lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "notes/&lt;i&gt;x&lt;/i&gt;.md" in page and "<i>" not in page
    assert "<title>&lt;title&gt;</title>" in page


def test_the_outline_shows_setext_and_atx_headings_as_their_text():
    page = render_review(inputs(note([
        pair(1, "沉积相分析\n==========", "Sedimentary facies analysis\n=========="),
        pair(2, "## 河道砂体 ##", "## Channel sand bodies ##"),
        pair(3, "取样方法\n---", "Sampling\n---"),
        pair(4, "砂体很厚。", "The sand bodies are thick.")])))
    nav = re.search(r'<nav class="outline".*?</nav>', page, re.S).group(0)
    assert re.findall(r'<a href="[^"]*">([^<]*)</a> <span class="zh" lang="zh-CN">([^<]*)<',
                      nav) == [("Sedimentary facies analysis", "沉积相分析"),
                               ("Channel sand bodies", "河道砂体"), ("Sampling", "取样方法")]
    assert "===" not in nav and "---" not in nav


def test_counts_in_the_header():
    two = [note(CORRECT), note([pair(1, "数据并行。", "Data parallelism.", status="edited",
                                     note="notes/b.md")], name="notes/b.md"),
           ReviewNote("notes/c.md", problem="not translated yet — run `zhen translate notes/c.md`")]
    findings = [Finding("term-missing", "error", "m", "notes/a.md", 3, None, {"segment": "b2"}),
                Finding("stale", "warning", "s", "notes/a.md", 5),
                Finding("edited", "info", "e", "notes/a.md", 9, None, {"segment": "b5"}),
                Finding("same-en", "info", "g", "glossary.yaml", 4)]
    data = inputs(*two, findings=findings)
    page = render_review(data)
    expected = {"notes": 3, "translated_notes": 2, "blocks": 5, "unchanged_blocks": 1,
                "locked_terms": 8, "terms_in_english": 8, "error": 1, "warning": 1, "info": 2,
                "edited_blocks": 2}
    assert {key: count(page, key) for key in expected} == expected
    assert {k: v for k, v in review_counts(data).items() if k in expected} == expected
    assert "engine: gloss (dictionary, not machine translation)" in page
    # several notes: an index linking to each section
    index = re.search(r'<nav class="index" id="index">(.*?)</nav>', page, re.S).group(1)
    assert [h for h in re.findall(r'href="#(note-\d)"', index)] == ["note-1", "note-2", "note-3"]
    assert all(f'id="{n}"' in page for n in ("note-1", "note-2", "note-3"))
    assert "not translated yet — run `zhen translate notes/c.md`" in page
    # one note: no index
    assert 'class="index"' not in render_review(inputs(note(CORRECT)))


def test_findings_are_placed_at_their_block():
    findings = [
        Finding("term-missing", "error", "数据并行 must be 'data parallelism'", "notes/a.md", 5,
                None, {"segment": "b3"}),
        Finding("inconsistent", "warning", "two ways", "notes/a.md", 3, None, {"segment": "b2.s1"}),
        Finding("parenthetical-disagrees", "warning", "by line", "notes/a.md", 9),
        Finding("stale", "warning", "no translation yet", "notes/a.md", 40),
        Finding("same-en", "info", "glossary thing", "glossary.yaml", 4),
    ]
    page = render_review(inputs(note(CORRECT), findings=findings))
    b3 = row(page, "note-1", "b3")
    assert ('<li class="finding sev-error" data-check="term-missing" data-severity="error">'
            in b3 and "数据并行 must be &#x27;data parallelism&#x27;" in b3)
    assert 'data-findings="1" data-checks="term-missing" data-worst="error"' in b3
    assert "two ways" in row(page, "note-1", "b2")
    assert "by line" in row(page, "note-1", "b5")               # L9 is b5's line
    section = page[page.index('id="note-1"'):page.index('id="note-1-b1"')]
    assert "no translation yet" in section                      # the note's, at no block
    other = page[page.index('id="other-findings"'):page.index('id="note-1"')]
    assert "glossary thing" in other and "glossary.yaml:4" in other
    assert 'data-findings="0"' in row(page, "note-1", "b1")


def test_filters_and_script_are_in_the_page_and_allowed_by_its_policy():
    findings = [Finding("term-missing", "error", "m", "notes/a.md", 3, None, {"segment": "b2"}),
                Finding("edited", "info", "e", "notes/a.md", 9, None, {"segment": "b5"})]
    page = render_review(inputs(note(CORRECT), findings=findings))
    for control in ('id="f-findings"', 'id="f-edited"', 'id="f-check"', 'id="f-severity"',
                    'id="f-same"', 'id="shown"'):
        assert control in page
    assert '<option value="term-missing">term-missing (1)</option>' in page
    assert '<option value="edited">edited (1)</option>' in page
    # no network: nothing external, and the CSP allows exactly our style and script
    assert not re.search(r'(?:src|href)="(?:https?:)?//', page)
    assert "@import" not in page and "url(" not in page
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1)
    assert "default-src &#x27;none&#x27;" in csp
    for tag in ("style", "script"):
        body = re.search(rf"<{tag}>(.*?)</{tag}>", page, re.S).group(1)
        digest = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
        assert f"sha256-{digest}" in csp
    # same blocks: dimmed, collapsed, one column; edited rows carry their status
    assert '<details><summary>unchanged: ```python' in row(page, "note-1", "b4")
    assert 'data-status="edited"' in row(page, "note-1", "b5")


class _Anchors(HTMLParser):
    """Every element id of a page (with how often it occurs), its in-page links, and the
    text of each element with an id."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids: dict[str, int] = {}
        self.links: list[tuple[str, str]] = []           # (id of the link, target)
        self.text: dict[str, str] = {}
        self.block: dict[str, str] = {}                  # element id → its block's id
        self._open: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        ident = attrs.get("id")
        if ident:
            self.ids[ident] = self.ids.get(ident, 0) + 1
            self.text.setdefault(ident, "")
            pairs = [i for t, i in self._open if i and re.fullmatch(r"note-\d+-b\d+", i)]
            self.block[ident] = pairs[-1] if pairs else ""
        if (attrs.get("href") or "").startswith("#"):
            self.links.append((ident or "", attrs["href"][1:]))
        if tag not in ("hr", "br", "img", "input", "meta"):
            self._open.append((tag, ident))

    def handle_endtag(self, tag):
        while any(t == tag for t, _ in self._open):
            if self._open.pop()[0] == tag:
                break

    def handle_data(self, data):
        for _, ident in self._open:
            if ident:
                self.text[ident] += data


def anchors(page: str) -> _Anchors:
    parsed = _Anchors()
    parsed.feed(page)
    return parsed


FOOTNOTED = [
    pair(1, "# 矿物鉴定", "# Identifying minerals"),
    pair(2, "矿物的硬度[^h]很重要^[按莫氏硬度计]。", "Hardness[^h] matters^[on the Mohs scale]."),
    pair(3, "岩石的颜色[^c]和纹理^[肉眼观察]也重要。", "Colour[^c] and texture^[seen by eye] matter too."),
    pair(4, "[^h]: 硬度用小刀测试。", "[^h]: Hardness is tested with a knife."),
    pair(5, "[^c]: Munsell colour chart.", "[^c]: Munsell colour chart.", status="same"),
    pair(6, "第一句提到硬度[^h]。第二句没有脚注。",
         "The first sentence names hardness[^h]. The second has no footnote."),
]


def test_footnote_ids_are_unique_on_the_page_and_every_link_resolves():
    page = render_review(inputs(note(FOOTNOTED), note(FOOTNOTED, name="notes/b.md")))
    found = anchors(page)
    assert {i: n for i, n in found.ids.items() if n > 1} == {}
    assert [t for _, t in found.links if t not in found.ids] == []
    footnote_links = [(ref, t) for ref, t in found.links if "-fn" in t]
    assert len(footnote_links) >= 2 * 14                # refs and backrefs, in both notes
    for prefix in ("note-1", "note-2"):                 # each note links to its own footnotes
        assert all(t.startswith(prefix) for ref, t in footnote_links if ref.startswith(prefix))

    def target(block: str, caption: str, side: str) -> str:
        cell = re.search(rf'id="{block}".*?<div class="{side} md"[^>]*>(.*?)</div>',
                         page, re.S).group(1)
        return re.search(rf'<a href="#([^"]+)" id="[^"]+">\[{re.escape(caption)}\]</a>',
                         cell).group(1)

    # a referenced footnote links to the block that defines it, on its own side
    h_src, h_en = target("note-1-b2", "h", "src"), target("note-1-b2", "h", "en")
    assert found.block[h_src] == found.block[h_en] == "note-1-b4"
    assert "小刀" in found.text[h_src] and "knife" in found.text[h_en]
    assert 'data-mode="sentences"' in row(page, "note-1", "b6")
    assert target("note-1-b6", "h", "en") == h_en     # also from a sentence row
    # … and from a block shown once (same): both sides link to its one definition
    c_src, c_en = target("note-1-b3", "c", "src"), target("note-1-b3", "c", "en")
    assert c_src == c_en and found.block[c_src] == "note-1-b5"
    assert "Munsell" in found.text[c_src]
    # an inline footnote is shown in its own block, not in the first block that has one
    inline2 = target("note-1-b3", "^1", "src")
    assert found.block[inline2] == "note-1-b3" and "肉眼观察" in found.text[inline2]
    assert "seen by eye" in found.text[target("note-1-b3", "^1", "en")]
    # a paragraph with an inline footnote is shown whole: sentences would cut the footnote
    assert 'data-mode="block"' in row(page, "note-1", "b3")
    # the definitions link back to every reference (b2 and the sentence row of b6)
    backrefs = re.search(rf'id="{h_en}".*?</li>', page, re.S).group(0)
    assert sorted(found.block[t] for t in re.findall(r'href="#([^"]+)"', backrefs)) == [
        "note-1-b2", "note-1-b6"]


# --------------------------------------------------------------------------- the command

A = """# 混合精度推理

第一段：我们使用混合精度训练模型。

第二段：数据并行。

第三段：张量核心提升了 2.7 倍，见 `max_batch_size` 和 https://example.org/a/very/long/path/that/should/wrap/in/the/column/without/overflowing/anything/at/all?x=1&y=2 。

第四段：注意 <script>alert('x')</script> 不是代码，混合精度也不是。

```python
print("混合精度")  # 代码不翻译
```

## 实验设置

第五段：我们在四张显卡上训练。每张卡都使用混合精度。数据并行把批次分到各张卡上。

- [ ] 检查张量核心的利用率。
- 记录吞吐和显存占用。
"""
B = "# 另一个文件\n\n第一段：我们使用混合精度训练模型，张量核心很快。\n"


FOOTNOTES_NOTE = """# 野外地质

本文介绍区域地质调查的方法[^a]，以及野外记录^[记录要及时]。

第二段讲岩石分类[^b]和地层^[地层按年代划分]。

[^a]: 参见地质调查规范。

[^b]: 岩石分为三大类。
"""


@pytest.fixture
def translated(runner, tmp_path, monkeypatch):
    return translated_project(runner, tmp_path, monkeypatch, {"a.md": A, "b.md": B})


def drop_term(parallel: Path, contains: str, en: str, instead: str) -> None:
    text = parallel.read_text("utf-8")
    [block] = [b for b in read_parallel(text) if not b.same and contains in b.source]
    assert en in block.english
    parallel.write_text(text.replace(block.english, block.english.replace(en, instead), 1), "utf-8")


def locked_in_sources(root: Path) -> int:
    """Independently of the page: glossary matches in the translated source blocks."""
    glossary = load_glossary(root / "glossary.yaml")
    return sum(len(glossary.find(prose_view(b.source)))
               for parallel in sorted((root / "notes").glob("*.zh-en.md"))
               for b in read_parallel(parallel.read_text("utf-8")) if not b.same)


def test_review_command_writes_the_page(runner, translated):
    write(translated / "notes" / "c.md", "# 未翻译\n\n还没有翻译。\n")
    result = runner.invoke(app, ["review", "notes/"])
    assert result.exit_code == 0, result.output
    page_path = translated / "review.html"              # default: the current directory
    assert result.stdout.startswith("wrote review.html — 3 note(s)")
    assert "warning: notes/c.md: not translated yet — run `zhen translate notes/c.md`" in result.stderr
    page = page_path.read_text("utf-8")
    assert "not translated yet — run `zhen translate notes/c.md`" in page
    assert count(page, "notes") == 3 and count(page, "translated_notes") == 2
    assert count(page, "locked_terms") == count(page, "terms_in_english") == locked_in_sources(translated)
    assert "&lt;script&gt;alert('x')&lt;/script&gt;" in page and page.count("<script") == 1
    assert not list(translated.glob(".review.html.*"))   # written atomically, no temp left


def test_review_command_errors(runner, translated, tmp_path, monkeypatch):
    result = runner.invoke(app, ["review", "missing/", "--out", "x.html"])
    assert result.exit_code == 2 and "missing does not exist" in result.stderr
    assert not (translated / "x.html").exists()
    bare = tmp_path / "bare"
    write(bare / "notes" / "a.md", A)
    monkeypatch.chdir(bare)
    result = runner.invoke(app, ["review", "notes/"])
    assert result.exit_code == 2 and "glossary.yaml" in result.stderr


# --------------------------------------------------------------------------- in a browser

CHROMIUM, CHROMEDRIVER = Path("/usr/bin/chromium"), Path("/usr/bin/chromedriver")


@pytest.fixture
def browser(tmp_path):
    if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
        pytest.skip("needs /usr/bin/chromium and /usr/bin/chromedriver (Debian packages chromium "
                    "and chromium-driver; .ci/apt-packages lists them)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--no-first-run", "--window-size=1400,1000",
                f"--user-data-dir={tmp_path / 'chromium-profile'}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def visible(driver, selector: str) -> list:
    return driver.execute_script(
        "return Array.prototype.filter.call(document.querySelectorAll(arguments[0]),"
        " function (e) { return e.getClientRects().length > 0; });", selector)


def hidden_text(driver, element) -> str:
    return driver.execute_script("return arguments[0].textContent", element)


@pytest.mark.slow          # 7.5 s; the review loop's and the astral term's browser tests stay
def test_review_page_in_headless_chromium(runner, translated, browser, tmp_path):
    from selenium.common.exceptions import NoAlertPresentException
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    started = time.monotonic()
    page = translated / "page.html"
    shots = Path(os.environ.get("ZHEN_SCREENSHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    locked = locked_in_sources(translated)
    assert locked >= 8

    # 1. a correct translation: as many highlighted terms in the English as locked terms
    result = runner.invoke(app, ["review", "notes/", "--out", "page.html"])
    assert result.exit_code == 0, result.output
    browser.get(page.as_uri())
    assert browser.find_element(By.TAG_NAME, "body").get_attribute("data-filtered") == "yes"
    src = browser.find_element(By.CSS_SELECTOR, "#note-1 .pair .src")
    en = browser.find_element(By.CSS_SELECTOR, "#note-1 .pair .en")
    for column in (src, en):
        assert column.is_displayed() and column.size["width"] > 100 and column.size["height"] > 10
    assert src.location["x"] < en.location["x"] and src.location["y"] == en.location["y"]
    # the same type metrics in both columns
    metrics = "var s = getComputedStyle(arguments[0]); return [s.fontSize, s.lineHeight];"
    assert browser.execute_script(metrics, src) == browser.execute_script(metrics, en)
    assert len(visible(browser, ".pair .en mark.term")) == locked
    assert len(visible(browser, ".pair .src mark.term")) == locked
    assert int(browser.find_element(By.ID, "count-locked_terms").text) == locked
    assert int(browser.find_element(By.ID, "count-terms_in_english").text) == locked
    # nothing overflows the page; the note's <script> is text, not code
    assert browser.execute_script(
        "return document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    with pytest.raises(NoAlertPresentException):
        browser.switch_to.alert.text
    assert "<script>alert('x')</script>" in browser.find_element(By.ID, "note-1").text

    # rendered Markdown: headings are headings, a task item a checkbox, and an outline
    h1 = browser.find_element(By.CSS_SELECTOR, "#note-1 .pair .src h1")
    assert h1.text == "混合精度推理" and "#" not in h1.text
    assert browser.find_element(By.CSS_SELECTOR, "#note-1 .pair .en h1").text.lower().startswith("mixed")
    assert browser.find_elements(By.CSS_SELECTOR, "#note-1 .src h2")
    assert browser.find_elements(By.CSS_SELECTOR, "#note-1 .src input[type=checkbox][disabled]")
    outline = browser.find_elements(By.CSS_SELECTOR, "#note-1 nav.outline a")
    assert len(outline) == 2 and outline[1].get_attribute("href").endswith(
        browser.find_element(By.CSS_SELECTOR, "#note-1 .pair:has(.src h2)").get_attribute("id"))

    # sentence rows: 第五段 has three sentences, each row aligned with its English
    fifth = browser.find_element(By.CSS_SELECTOR, "#note-1 .pair[data-mode=sentences]")
    assert "第五段" in fifth.text
    srows = fifth.find_elements(By.CSS_SELECTOR, ".srow")
    assert len(srows) == 3
    for srow in srows:
        zh, english = srow.find_element(By.CSS_SELECTOR, ".src"), srow.find_element(By.CSS_SELECTOR, ".en")
        assert zh.location["y"] == english.location["y"] and english.text.strip()
        assert zh.text.strip()[-1] in "。！？；" and english.text.strip()[-1] in ".!?;"

    # term pairing: a term and its English share a colour and light up together on hover
    mark = fifth.find_element(By.CSS_SELECTOR, ".src mark.term[data-zh='混合精度']")
    partner = fifth.find_element(By.CSS_SELECTOR, ".en mark.term[data-zh='混合精度']")
    colour = "return getComputedStyle(arguments[0]).backgroundColor"
    assert browser.execute_script(colour, mark) == browser.execute_script(colour, partner)
    other = fifth.find_element(By.CSS_SELECTOR, ".src mark.term:not([data-zh='混合精度'])")
    assert browser.execute_script(colour, other) != browser.execute_script(colour, mark)
    assert "混合精度 → mixed precision" in mark.get_attribute("title")
    ActionChains(browser).move_to_element(mark).perform()
    assert "hot" in partner.get_attribute("class").split()
    ActionChains(browser).move_to_element(h1).perform()
    assert "hot" not in partner.get_attribute("class").split()

    # every block links to its file and line
    b1 = browser.find_element(By.ID, "note-1-b1")
    assert "notes/a.md:1" in b1.text
    links = [a.get_attribute("href") for a in b1.find_elements(By.CSS_SELECTOR, "a.open")]
    assert links[0].startswith("vscode://file/") and links[0].endswith("/notes/a.md:1")
    parallel_lines = (translated / "notes" / "a.zh-en.md").read_text("utf-8").split("\n")
    en_line = next(i for i, line in enumerate(parallel_lines, 1) if line.startswith("<!-- zhen:en 1 ")) + 1
    assert links[1].endswith(f"/notes/a.zh-en.md:{en_line}")

    browser.save_screenshot(str(shots / "review-desktop.png"))
    browser.set_window_size(390, 844)                            # a phone
    assert browser.execute_script(
        "return document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    zh, english = srows[0].find_element(By.CSS_SELECTOR, ".src"), srows[0].find_element(By.CSS_SELECTOR, ".en")
    assert zh.location["y"] < english.location["y"]            # stacked, source first
    browser.execute_script("arguments[0].scrollIntoView()", fifth)
    browser.save_screenshot(str(shots / "review-phone.png"))
    browser.set_window_size(1400, 1000)

    # 2. plant a finding: the English of 第二段 loses "data parallelism"
    drop_term(translated / "notes" / "a.zh-en.md", "第二段", "data parallelism", "data-parallel stuff")
    # and an edit that passes the output check in b.md: an `edited` finding (info) at its block
    b_par = translated / "notes" / "b.zh-en.md"
    text = b_par.read_text("utf-8")
    [b_block] = [b for b in read_parallel(text) if not b.same and "第一段" in b.source]
    b_par.write_text(text.replace(b_block.english, b_block.english.rstrip() + " Indeed.", 1),
                     "utf-8")
    result = runner.invoke(app, ["review", "notes/", "--out", "page.html"])
    assert result.exit_code == 0, result.output
    browser.get(page.as_uri())
    assert len(visible(browser, ".pair .en mark.term")) == locked - 1
    assert int(browser.find_element(By.ID, "count-terms_in_english").text) == locked - 1
    planted = browser.find_element(By.CSS_SELECTOR, "#note-1 .pair:has(.finding[data-check=term-missing])")
    assert planted.get_attribute("id") == "note-1-b3"
    finding = planted.find_element(By.CSS_SELECTOR, ".finding[data-check=term-missing]")
    assert finding.is_displayed() and "data parallelism" in finding.text
    # the finding names the English to edit and the source line, with links
    assert "notes/a.zh-en.md:" in finding.text and "notes/a.md:5" in finding.text
    assert len(finding.find_elements(By.CSS_SELECTOR, "a.open")) == 2
    assert "第二段：数据并行。" in planted.find_element(By.CSS_SELECTOR, ".src").text
    # the finding sits right under its own block: below its source and English, above the next
    next_row = browser.find_element(By.ID, "note-1-b4")
    assert planted.find_element(By.CSS_SELECTOR, ".en").location["y"] < finding.location["y"] \
        < next_row.location["y"]
    browser.save_screenshot(str(shots / "review-finding.png"))

    # one set of counts: header, index, filter options and the "shown" line agree
    blocks = int(browser.find_element(By.ID, "count-blocks").text)
    translated_rows = browser.find_elements(By.CSS_SELECTOR, ".pair:not(.status-same)")
    assert blocks == len(translated_rows)
    assert sum(int(n.get_attribute("data-blocks"))
               for n in browser.find_elements(By.CSS_SELECTOR, "nav.index .n")) == blocks
    assert browser.find_element(By.ID, "shown").text.startswith(f"{blocks} of {blocks} blocks shown")
    for severity in ("error", "warning", "info"):
        chip = int(browser.find_element(By.ID, f"count-{severity}").text)
        assert chip == len(browser.find_elements(By.CSS_SELECTOR, f".finding[data-severity={severity}]"))
        option = browser.find_element(By.CSS_SELECTOR, f"#f-severity option[value={severity}]")
        assert option.text == f"{severity} ({chip})"

    # 3. "only blocks with findings" hides the others
    rows = len(browser.find_elements(By.CSS_SELECTOR, ".pair"))
    assert len(visible(browser, ".pair")) == rows
    browser.find_element(By.ID, "f-findings").click()
    shown = visible(browser, ".pair")
    assert planted in shown and 0 < len(shown) < rows
    assert all(int(r.get_attribute("data-findings")) > 0 for r in shown)
    assert browser.find_element(By.ID, "shown").text == f"{len(shown)} of {blocks} blocks shown"
    # by check: only the planted block
    Select(browser.find_element(By.ID, "f-check")).select_by_value("term-missing")
    assert visible(browser, ".pair") == [planted]
    browser.find_element(By.ID, "f-findings").click()
    Select(browser.find_element(By.ID, "f-check")).select_by_value("")
    assert len(visible(browser, ".pair")) == rows
    # by severity: errors only — the rows with an error, and only their error findings
    Select(browser.find_element(By.ID, "f-severity")).select_by_value("error")
    assert visible(browser, ".pair") == [planted]
    assert all(f.get_attribute("data-severity") == "error" for f in visible(browser, ".finding"))
    assert len(visible(browser, ".pair .finding")) == 1
    Select(browser.find_element(By.ID, "f-severity")).select_by_value("info")
    info_rows = visible(browser, ".pair")
    assert info_rows and all(r.find_elements(By.CSS_SELECTOR, ".finding[data-severity=info]")
                             for r in info_rows)
    assert all(f.get_attribute("data-severity") == "info" for f in visible(browser, ".finding"))
    assert [r.get_attribute("id") for r in info_rows] == [f"note-2-b{b_block.index}"]
    Select(browser.find_element(By.ID, "f-severity")).select_by_value("")
    assert len(visible(browser, ".pair")) == rows
    # only edited blocks: the two edited by hand (the invalid one and the one that passes)
    browser.find_element(By.ID, "f-edited").click()
    assert [r.get_attribute("id") for r in visible(browser, ".pair")] == [
        "note-1-b3", f"note-2-b{b_block.index}"]

    shot = shots / "review-desktop.png"
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000

    # 4. footnotes: a reference in the second of two footnoted blocks goes to that block's
    # footnote (its inline one in the block, its [^label] where the note defines it)
    write(translated / "notes" / "f.md", FOOTNOTES_NOTE)
    assert runner.invoke(app, ["translate", "notes/f.md"]).exit_code == 0
    result = runner.invoke(app, ["review", "notes/", "--out", "page.html"])
    assert result.exit_code == 0, result.output
    browser.get(page.as_uri())
    section = browser.find_element(By.CSS_SELECTOR, "section.note[data-note='notes/f.md']")
    footnoted = [r for r in section.find_elements(By.CSS_SELECTOR, ".pair")
                 if r.find_elements(By.CSS_SELECTOR, ".src sup.footnote-ref")]
    assert len(footnoted) == 2
    first, second = footnoted
    in_view = ("var r = arguments[0].getBoundingClientRect();"
               " return r.top >= 0 && r.bottom <= window.innerHeight;")
    header = "return document.querySelector('header.top').getBoundingClientRect().bottom"
    for caption, home in (("[^1]", second), ("[b]", None)):
        browser.execute_script("window.scrollTo(0, 0)")
        ref = next(a for a in second.find_elements(By.CSS_SELECTOR, ".src sup.footnote-ref a")
                   if a.text == caption)
        ref.click()
        target = browser.execute_script("return document.querySelector(':target')")
        assert target is not None and target.get_attribute("id") == ref.get_attribute("href").split("#")[1]
        assert "footnote-item" in target.get_attribute("class").split()
        assert browser.execute_script(in_view, target)
        assert target.location["y"] >= 0 and browser.execute_script(
            "return arguments[0].getBoundingClientRect().top", target) >= browser.execute_script(header) - 1
        pair_id = browser.execute_script("return arguments[0].closest('.pair').id", target)
        if home is not None:                      # the inline footnote: in its own block
            assert pair_id == home.get_attribute("id") and "地层" in target.text
        else:                                     # [^b]: in the block that defines it
            assert pair_id not in (first.get_attribute("id"), second.get_attribute("id"))
            assert "三大类" in target.text
        assert not first.find_elements(By.CSS_SELECTOR, f"[id='{target.get_attribute('id')}']")
    print(f"browser test body: {time.monotonic() - started:.1f}s")


def test_unrendered_characters_show_at_their_block(runner, tmp_path, monkeypatch):
    rare = "\u3400"          # 㐀: CJK, not in CC-CEDICT: the gloss engine cannot render it
    root = translated_project(runner, tmp_path, monkeypatch, {
        "r.md": "# 说明\n\n第一段没有问题。\n\n> 我们在集群上测试" + rare + "算法的性能。\n"})
    blocks = read_parallel((root / "notes" / "r.zh-en.md").read_text("utf-8"))
    [block] = [b for b in blocks if rare in b.source]
    result = runner.invoke(app, ["review", "notes/", "--out", "page.html"])
    assert result.exit_code == 0, result.output
    page = (root / "page.html").read_text("utf-8")
    here = row(page, "note-1", f"b{block.index}")
    assert ('<li class="finding sev-warning" data-check="unrendered" data-severity="warning">'
            in here and rare in here)
    assert f"notes/r.zh-en.md:{block.en_line}" in here and "notes/r.md:5" in here
    assert 'data-worst="warning"' in here
    assert page.count('data-check="unrendered"') == 1    # at that block only
    assert count(page, "warning") >= 1 and '<option value="unrendered">unrendered (1)</option>' in page
    for other in blocks:
        if other.index != block.index:
            assert 'data-check="unrendered"' not in row(page, "note-1", f"b{other.index}")
