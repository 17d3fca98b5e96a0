"""Bare URLs with Chinese in them, autolinks and GitHub alerts come through byte for byte,
the Chinese around them translated — and the output check reads each of them itself, so
a URL or a marker the translation changed is an error, never a silent pass.

The shapes (a tide-gauge archive's notes, written for this test): a bare URL whose path,
query or fragment holds Chinese (``https://wiki.example.org/运维/节点故障``,
``?站点=青岛&类型=潮汐``, ``/wiki/潮汐_(海洋学)``), percent-encoded, glued to the Chinese
before it or ending at full-width punctuation; ``www.`` with a Chinese path; Chinese glued
to a URL's last ASCII word (prose, not the URL); an autolink ``<https://…/节点>`` holding a
glossary term; the five alert markers, lower case, in a list, and a callout marker with a
title on its line (``> [!TIP] 标题``).
"""

from __future__ import annotations

import json
import re

from hypothesis import example, given, settings, strategies as st

from conftest import write
from engines import NoiseEngine
from test_document import golden, translate_text
from zhenglossary.cli import app
from zhenglossary.engines.gloss import GlossEngine
from zhenglossary.glossary import load_glossary_text
from zhenglossary.prose import find_urls, prose_view
from zhenglossary.translate import translate_note
from zhenglossary.validate import bare_urls, check_block, check_document
from test_document import DATA

GLOSSARY_TEXT = """terms:
  - zh: 潮汐
    en: tide
  - zh: 采样
    en: sampling
  - zh: 采样间隔
    en: sampling interval
  - zh: 节点
    en: node
    forbid: [knot]
"""
GLOSSARY = load_glossary_text(GLOSSARY_TEXT)

# every span of tests/data/spans.md that must come out as it is written
KEPT = ["https://data.example.net/海洋/潮汐站/2023",
        "https://api.example.net/search?站点=青岛&类型=潮汐",
        "https://data.example.net/%E6%BD%AE%E6%B1%90?lang=zh&page=2",
        "www.example.cn/镜像/潮汐", "https://mirror.example.cn/a/b",
        "https://zh.wikipedia.org/wiki/潮汐_(海洋学)", "https://docs.example.net/guide",
        "<https://data.example.net/潮汐>",
        "> [!NOTE]\n", "> [!TIP]\n", "> [!IMPORTANT]\n", "> [!WARNING]\n", "> [!CAUTION]\n",
        "  > [!note]\n", "> [!TIP] "]


def _source() -> str:
    return (DATA / "spans.md").read_text("utf-8")


# ------------------------------------------------------------------ the golden round trip


def test_golden_spans_round_trip():
    """The pseudo-translation (BracketEngine: ``，`` becomes ``,`` with no space, which glues
    its ``‹T…›`` to a URL as a real engine would not) shows what is kept where; the output
    check of real English is the next test's."""
    source = _source()
    english, parallel, findings, _ = translate_text(source, GLOSSARY, name="spans.md")
    assert findings == []
    for span in KEPT:
        assert source.count(span) == english.count(span) == 1, span
    # the Chinese around them is translated: none is left outside the kept spans
    rest = english
    for span in KEPT:
        rest = rest.replace(span, "")
    assert not re.search("[\u4e00-\u9fff]", rest), rest
    golden("spans.en.md", english)
    golden("spans.zh-en.md", parallel)


def test_the_shapes_pass_the_output_check_with_the_gloss_engine():
    result = translate_note(_source(), GLOSSARY, GlossEngine(GLOSSARY.form_map), name="spans.md")
    assert [f for f in result.findings if f.severity == "error"] == []
    for span in KEPT:
        assert span in result.english, span
    assert "Access <https://data.example.net/潮汐> examine sampling interval." in result.english


# ------------------------------------------------------------------ where a bare URL ends


URL_CASES = [
    ("日志在 https://wiki.example.org/运维/节点故障 里。", ["https://wiki.example.org/运维/节点故障"]),
    ("见https://x.org/%E8%8A%82%E7%82%B9?q=节点&lang=zh，然后重启。",
     ["https://x.org/%E8%8A%82%E7%82%B9?q=节点&lang=zh"]),
    ("地址https://x.org/a/b。再看 www.example.org/运维 和 example.org/节点 。",
     ["https://x.org/a/b", "www.example.org/运维"]),
    ("文档在https://docs.x.org/guide中有说明", ["https://docs.x.org/guide"]),
    ("参考https://zh.wikipedia.org/wiki/节点_(图论)。", ["https://zh.wikipedia.org/wiki/节点_(图论)"]),
    ("见“https://x.org/a”和https://x.org:中文", ["https://x.org/a", "https://x.org"]),
    ("https://x.org/a——说明", ["https://x.org/a"]),
    ("https://x.org/运维/节点故障.md，", ["https://x.org/运维/节点故障.md"]),
    ("分类页 https://x.org/wiki/Category:节点、", ["https://x.org/wiki/Category:节点"]),
    ("主机名https://中文.org不读", []),
    ("地址（https://x.org/a/节点）里", ["https://x.org/a/节点"]),
]


def test_where_a_bare_url_ends():
    for text, urls in URL_CASES:
        assert [text[a:b] for a, b in find_urls(text)] == urls, text
        assert [text[a:b] for a, b in bare_urls(text)] == urls, text


def test_a_term_in_a_url_is_not_prose():
    view = prose_view("日志在 https://wiki.example.org/运维/节点故障 里，节点重启了。\n")
    assert "运维" not in view and view.count("节点") == 1


# ------------------------------------------------------------------ the output check


def test_the_check_reads_a_changed_url_as_an_error():
    source = "日志在 https://wiki.example.org/运维/节点故障 里。\n"
    broken = "Log in https://wiki.example.org/ move preserve/node failure.\n"
    assert check_block(source, broken, GLOSSARY) == [
        "url 'https://wiki.example.org/运维/节点故障' lost",
        "url 'https://wiki.example.org/' added"]
    kept = "The log is at https://wiki.example.org/运维/节点故障.\n"
    # the term and the Chinese inside the URL are the URL's: no node asked for, none left
    assert check_block(source, kept, GLOSSARY) == []
    query = "见https://x.org/s?q=节点&lang=zh，然后重启。\n"
    assert check_block(query, "See https://x.org/s?q= node&lang=zh, then restart.\n",
                       GLOSSARY) == ["url 'https://x.org/s?q=节点&lang=zh' lost",
                                     "url 'https://x.org/s?q=' added"]


def test_an_autolink_holding_a_term_is_kept_and_its_term_not_asked_for():
    source = "访问 <https://example.org/节点> 看看。\n"
    assert check_block(source, "Visit <https://example.org/节点> and look.\n", GLOSSARY) == []
    assert check_block(source, "Visit <https://example.org/node> and look.\n", GLOSSARY) == [
        "autolink 'https://example.org/%E8%8A%82%E7%82%B9' lost",
        "autolink 'https://example.org/node' added"]
    # the sentence's own term is still asked for, and its Chinese still reported
    assert check_block("访问 <https://example.org/节点> 的节点。\n",
                       "Visit <https://example.org/节点>.\n", GLOSSARY) == [
        "term 节点 → 'node' appears 0 of 1 times"]


def test_chinese_left_is_named_as_written_in_order():
    # it was a sorted set of characters: 节点 read "点节", 长石 "石长"
    assert check_block("节点重启。\n", "节点 restarts.\n") == ["Chinese left in the English: 节点"]
    assert check_block("长石和石英。\n", "长石 and 石英, 长石.\n") == [
        "Chinese left in the English: 长石、石英"]
    assert check_block("甲乙丙。\n", "甲乙丙.\n", unrendered="乙") == [
        "Chinese left in the English: 甲、丙"]


def test_a_broken_alert_marker_is_an_error():
    source = "> [!WARNING]\n> 不要重启节点。\n"
    problems = check_document(source, "> [! WARNING]\n> Do not restart the node.\n")
    assert problems[0] == "block structure changed (alert_open became blockquote_open)"
    assert "alert '[!WARNING]' lost" in problems
    assert check_document(source, "> [!NOTE]\n> Do not restart the node.\n") == [
        "alert '[!WARNING]' lost", "alert '[!NOTE]' added"]
    assert check_document(source, "> [!WARNING]\n> Do not restart the node.\n") == []
    # a marker with a title on its line is not an alert, but its marker is still kept
    assert check_block("> [!TIP] 先看节点。\n", "> [! TIP] First look at the node.\n",
                       GLOSSARY) == ["callout '[!TIP]' lost"]


# ------------------------------------------------------------------ the command line


REPRO = ("# 题\n\n日志在 https://wiki.example.org/运维/节点故障 里。\n\n"
         "> [!WARNING]\n> 不要重启节点。\n\n访问 <https://example.org/节点> 看看。\n")


def _project(tmp_path, monkeypatch):
    root = tmp_path / "proj"
    write(root / "glossary.yaml", GLOSSARY_TEXT)
    write(root / "notes" / "s.md", REPRO)
    monkeypatch.chdir(root)
    monkeypatch.setenv("ZHEN_HOME", str(root / ".zhen"))
    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(tmp_path / "no-models"))
    return root


def test_translate_and_check_keep_urls_autolinks_and_alerts(runner, tmp_path, monkeypatch):
    root = _project(tmp_path, monkeypatch)
    result = runner.invoke(app, ["translate", "notes/", "--engine", "gloss"])
    assert result.exit_code == 0, result.output
    english = (root / "notes" / "s.en.md").read_text("utf-8")
    assert "https://wiki.example.org/运维/节点故障" in english
    assert "\n> [!WARNING]\n> Don't restart node.\n" in english
    assert "Access <https://example.org/节点> examine." in english
    check = runner.invoke(app, ["glossary", "check", "notes/", "--format", "json"])
    assert check.exit_code == 0, check.output
    assert [f for f in json.loads(check.output)["findings"] if f["severity"] == "error"] == []


def _old_find_urls(text: str) -> list[tuple[int, int]]:
    """The translator's URL reading before: a URL ended at its first Chinese character."""
    spans = []
    for match in re.finditer(r"(?:https?|ftp)://[^\s<>\"'`\u3000-\u303f\uff00-\uffef"
                             r"\u4e00-\u9fff（）]+", text):
        start, end = match.span()
        while end > start and text[end - 1] in ".,;:!?)]}'\"":
            end -= 1
        spans.append((start, end))
    return spans


def test_the_old_url_reading_put_back_is_caught_at_the_output(runner, tmp_path, monkeypatch):
    """The output check reads URLs with its own code: the translator's old rule, which cut
    https://wiki.example.org/运维/节点故障 after its host, is an error the user sees."""
    root = _project(tmp_path, monkeypatch)
    monkeypatch.setattr("zhenglossary.locking.find_urls", _old_find_urls)
    result = runner.invoke(app, ["translate", "notes/", "--engine", "gloss"])
    assert result.exit_code == 1, result.output
    assert "output-invalid" in result.output
    assert "url 'https://wiki.example.org/运维/节点故障' lost" in " ".join(result.output.split())
    english = (root / "notes" / "s.en.md").read_text("utf-8")
    assert "日志在 https://wiki.example.org/运维/节点故障 里。" in english    # its source


def test_an_alert_marker_changed_in_the_english_file_is_refused(runner, tmp_path, monkeypatch):
    root = _project(tmp_path, monkeypatch)
    assert runner.invoke(app, ["translate", "notes/", "--engine", "gloss"]).exit_code == 0
    en = root / "notes" / "s.en.md"
    en.write_text(en.read_text("utf-8").replace("> [!WARNING]\n", "> [!NOTE]\n"), "utf-8")
    before = en.read_text("utf-8")
    result = runner.invoke(app, ["translate", "notes/", "--engine", "gloss"])
    assert result.exit_code == 1, result.output
    assert "a block zhen copies from the note" in " ".join(result.output.split())
    assert en.read_text("utf-8") == before


# ------------------------------------------------------------------ random URLs


_HAN_WORDS = ["运维", "节点", "故障", "潮汐", "青岛", "采样", "记录", "\U00020BB7氏"]
_ASCII_WORDS = ["docs", "a1", "2024", "v2.1", "Linux", "x-y", "a_b", "%E8%8A%82"]


def _segment(han: str, glue: str, tail: str) -> str:
    """A path segment: Chinese, or Chinese then ``_``/``-``/``+`` and more, or ``.md``."""
    return han + glue + tail if glue != ".md" else han + glue


_SEGMENTS = st.one_of(
    st.sampled_from(_HAN_WORDS), st.sampled_from(_ASCII_WORDS),
    st.builds(_segment, st.sampled_from(_HAN_WORDS), st.sampled_from(["_", "-", "+", ".md"]),
              st.sampled_from(_ASCII_WORDS + _HAN_WORDS + ["(v2)"])))


@st.composite
def urls(draw) -> str:
    """A URL whose path, query and fragment mix ASCII, percent-encoding and Chinese, each
    Chinese piece right after a delimiter."""
    url = draw(st.sampled_from(["https://", "http://", "ftp://", "www."]))
    url += draw(st.sampled_from(["example.org", "wiki.example.cn", "a.b.net:8080"]))
    for _ in range(draw(st.integers(0, 3))):
        url += "/" + draw(_SEGMENTS)
    if draw(st.booleans()):
        pairs = draw(st.lists(st.tuples(st.sampled_from(["q", "站点", "lang"]), st.sampled_from(
            _HAN_WORDS + _ASCII_WORDS)), min_size=1, max_size=3))
        url += "?" + "&".join(f"{k}={v}" for k, v in pairs)
    if draw(st.booleans()):
        url += "#" + draw(st.sampled_from(_HAN_WORDS + _ASCII_WORDS))
    return url


_BEFORE = st.sampled_from(["", " ", "（", "“", "：", "见 "])
_AFTER = st.sampled_from([" ", "，", "。", "）", "、", "”", "\n", "；"])


@st.composite
def sentences(draw) -> tuple[str, list[str]]:
    """A few Chinese sentences with URLs in them, and the URLs."""
    text, found = "", []
    for _ in range(draw(st.integers(1, 3))):
        url = draw(urls())
        text += draw(st.sampled_from(["日志在", "数据见", "检索接口是", "镜像"])) + draw(_BEFORE) + url
        text += draw(_AFTER) + draw(st.sampled_from(["里面有说明。", "每小时采样一次。", "节点重启了。"]))
        found.append(url)
    return text.replace("\n", "\n\n").strip() + "\n", found


@settings(max_examples=60)
@given(sentences(), st.integers(0, 1000))
@example(("日志在 https://wiki.example.org/运维/节点故障 里面有说明。\n",
          ["https://wiki.example.org/运维/节点故障"]), 0)
def test_random_urls_in_chinese_sentences_come_through_byte_identical(case, seed):
    text, found = case
    assert [text[a:b] for a, b in find_urls(text)] == found
    assert [text[a:b] for a, b in bare_urls(text)] == found
    for engine in (GlossEngine(GLOSSARY.form_map), NoiseEngine(seed, forbidden=["knot"])):
        result = translate_note(text, GLOSSARY, engine, name="r.md")
        if isinstance(engine, GlossEngine):
            assert [f.message for f in result.findings if f.severity == "error"] == []
        # noise may break a sentence (an error, its source written in its place): a URL
        # comes out as it is written either way
        for url in set(found):
            assert result.english.count(url) == text.count(url), (engine.describe(), url)


_PIECES = ["https://", "http://", "www.", "ftp://", "x.org", "a", "9", "/", "?", "#", "=", "&",
           ":", "_", "-", "(", ")", ".", ",", "节点", "\U00020BB7", "，", "。", "）", " ", "\"",
           "“", "<", "%E8", "——", "…"]


@settings(max_examples=200)
@given(st.lists(st.sampled_from(_PIECES), max_size=24).map("".join))
def test_the_translator_and_the_check_read_the_same_urls(text):
    """Two readings written apart (prose.URL_RE for the translator, validate.bare_urls for
    the check) of one rule: they agree on any text."""
    assert find_urls(text) == bare_urls(text)
