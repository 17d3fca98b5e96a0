"""What keeps one big note's memory down must not change a byte of what zhen writes.

* A note over ``markdown.KEEP_CHARS`` is not kept between its readers (the segmenter's
  reading, the validator's readings of the note and of its English, the prose view): each
  parses it again. Every note translated that way gives byte-identical outputs and the
  same findings as when it is kept (randomized: footnotes defined before and after their
  use, inline footnotes, reference links defined anywhere, fenced code, lists, quotes).
* The prose views are built in a UTF-32 buffer (``prose._Chars``) and from slices
  (``validate._plain_view``) instead of lists of one-character strings: compared with the
  list-based code they replace, on generated notes and on arbitrary text.

Memory itself is measured by the benchmarks (``python -m benchmarks --only scale``), not here.
"""

from __future__ import annotations

import os
import re

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from engines import BracketEngine, NoiseEngine
from test_fuzz import GLOSSARY, block as fuzz_block, gloss_engine, text_line
from zhenglossary import markdown, prose, validate
from zhenglossary.document import Raw, Wrap, parse_document
from zhenglossary.translate import translate_note

# ---------------------------------------------------------------- notes with note-global parts

label = st.sampled_from(["1", "2", "note", "长"])
ref = st.sampled_from(["ref", "Ref", "论文"])
global_block = st.one_of(
    # a footnote definition (before or after its use: blocks are shuffled), one with a
    # second paragraph, a reference definition, and blocks that use them
    st.tuples(label, text_line).map(lambda t: f"[^{t[0]}]: {t[1]}"),
    st.tuples(label, text_line, text_line).map(lambda t: f"[^{t[0]}]: {t[1]}\n\n    {t[2]}"),
    ref.map(lambda r: f"[{r}]: https://example.org/{len(r)} \"标题\""),
    st.tuples(text_line, label).map(lambda t: f"{t[0]}[^{t[1]}]。"),
    st.tuples(text_line, ref).map(lambda t: f"见[{t[0]}][{t[1]}]和[{t[1]}]。"),
    st.tuples(label, text_line).map(lambda t: f"- 列表[^{t[0]}]\n  - {t[1]}"),
    st.tuples(text_line, label).map(lambda t: f"> 引用{t[0]}[^{t[1]}]"),
    st.sampled_from(["```text\n[^1]: 不是定义\n\n[ref]: 也不是\n```",
                     "~~~\n代码\n\n还是代码\n~~~", "1. 第一^[内联脚注]\n2. 第二",
                     # escapes and images inside inline footnotes (text_join reaches them
                     # through the footnote tail), a footnote inside a footnote
                     "正文^[脚注\\*星号\\*和![图\\_片](a.png)]。",
                     "外^[内^[更内\\#]和`代码`]。", "[^2]: 定义里有^[内联\\_注]。"]),
)
notes = st.lists(st.one_of(global_block, fuzz_block), min_size=1, max_size=10).map(
    lambda bs: "\n\n".join(bs) + "\n")

# the CI runs these properties again with ZHEN_DEEP_PROPERTIES=1 (-n 0): three times the
# examples the default run tries
DEEP = 3 if os.environ.get("ZHEN_DEEP_PROPERTIES") == "1" else 1



def _translate(text: str, engine):
    result = translate_note(text, GLOSSARY, engine, name="big.md")
    return (result.english, result.parallel,
            [f.to_json() for f in result.findings], result.stats)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(notes, st.integers(0, 100))
def test_a_note_not_kept_between_readers_translates_byte_identically(text, seed):
    kept = _translate(text, BracketEngine()), _translate(text, NoiseEngine(seed))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(markdown, "KEEP_CHARS", 0)
        mp.setattr(prose, "KEEP_CHARS", 0)
        markdown.parse_note.cache_clear()
        prose.prose_view.cache_clear()
        again = _translate(text, BracketEngine()), _translate(text, NoiseEngine(seed))
    assert again == kept


@settings(max_examples=50 * DEEP, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(notes, notes.map(lambda t: t.replace("\n", "\r\n"))))
@example("正文^[脚注\\*星号\\*和![图\\_片](a.png)]。\n\n外^[内^[更内\\#]]。\n")
def test_a_lean_or_streamed_parse_reads_as_the_whole_parse(text):
    """``markdown.parse_lean`` keeps no inline children (``inline_children`` gives them
    again); ``markdown.stream_note`` gives the tokens a top-level block at a time, the
    footnote tail last: both read as the whole parse (the env, the footnote tail, text
    joined, inline footnotes' tokens), and so do the validator's reading of a note and
    its Document when a note is read that way (``KEEP_CHARS`` 0)."""
    full_tokens, full_env = markdown._parse(text)
    lean_tokens, lean_env = markdown.parse_lean(text)
    env: dict = {}
    streamed = [t for piece in markdown.stream_note(text, env) for t in piece]

    def shape(tokens):
        return [(t.type, t.tag, t.level, t.map, t.content, t.info, t.markup,
                 {k: v for k, v in (t.meta or {}).items() if k != "subId"}) for t in tokens]

    assert shape(lean_tokens) == shape(full_tokens) == shape(streamed)
    assert repr(lean_env) == repr(full_env) == repr(env)

    def children(tokens, env):
        def shown(kids, notes):
            out = []
            for c in kids:
                meta = dict(c.meta or {})
                meta.pop("subId", None)          # the how-many-th reference: counted again
                if c.type == "footnote_ref" and "label" not in meta:    # an inline one: its
                    meta["id"] = shown(notes[meta["id"]]["tokens"], notes)   # id is the view's
                out.append((c.type, c.content, c.markup, meta, c.attrs,
                            [(g.type, g.content) for g in c.children or []]))
            return out
        return [shown(*markdown.inline_children(t, env)) for t in tokens if t.type == "inline"]

    assert children(lean_tokens, lean_env) == children(full_tokens, full_env) == \
        children(streamed, env)
    markdown.parse_note.cache_clear()
    whole, doc = validate.parse_blocks(text), parse_document(text)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(markdown, "KEEP_CHARS", 0)
        read = []                                    # the stream is what is read
        mp.setattr(markdown, "stream_note",
                   lambda t, e, stream=markdown.stream_note: read.append(t) or stream(t, e))
        markdown.parse_note.cache_clear()
        assert repr(validate.parse_blocks(text)) == repr(whole)
        streamed_doc = parse_document(text)
        assert list(streamed_doc.line_starts) == doc.line_starts   # (a long note's: an array)
        streamed_doc.line_starts = doc.line_starts
        assert repr(streamed_doc) == repr(doc)
        assert read == [text, text]
    markdown.parse_note.cache_clear()


def test_a_long_note_is_parsed_per_reader_and_not_kept(monkeypatch):
    monkeypatch.setattr(markdown, "KEEP_CHARS", 10)
    markdown.parse_note.cache_clear()
    text = "第一段落，足够长。\n\n[^1]: 脚注\n"
    first, second = markdown.parse_note(text), markdown.parse_note(text)
    assert first[0] is not second[0]                       # parsed again, not kept
    assert [t.type for t in first[0]] == [t.type for t in second[0]]
    assert first[1] == second[1]
    short = "短"
    assert markdown.parse_note(short) is markdown.parse_note(short)    # kept


# ---------------------------------------------------------------- the prose views


def _old_blank(chars, start, end):
    for i in range(start, end):
        if chars[i] != "\n":
            chars[i] = " "


def _old_show(chars, text, start, end):
    chars[start:end] = text[start:end]
    piece = text[start:end]
    for s, e in prose.find_urls(piece):
        _old_blank(chars, start + s, start + e)
    for match in prose.EMAIL_RE.finditer(piece):
        _old_blank(chars, start + match.start(), start + match.end())


def _old_hide(chars, region, line_starts, nodes):
    def blank(start, end):
        k = region.raw.count("\n", 0, start)
        offset = region.starts[k] - line_starts[k]
        _old_blank(chars, start + offset, end + offset)

    for node in nodes:
        if isinstance(node, Raw):
            blank(node.start, node.end)
        elif isinstance(node, Wrap):
            _old_hide(chars, region, line_starts, node.children)
            if node.kind in ("link", "image"):
                blank(node.close[0] + 1, node.close[1])


def old_prose_of(text: str) -> str:
    """prose.prose_of as it was: a list of one-character strings."""
    if not text or prose._SYNTAX.search(text) is None:
        chars = list(text)
        _old_show(chars, text, 0, len(text))
        return "".join(chars)
    doc = parse_document(text)
    chars = [ch if ch in "\r\n" else " " for ch in text]
    for leaf in doc.leaves:
        for region in leaf.regions:
            if region.error:
                for start, end in zip(region.starts, region.ends):
                    line = text[start:end]
                    _old_show(chars, text, start, end)
                    for pattern in (prose.INLINE_CODE_RE, prose.AUTOLINK_RE,
                                    prose.INLINE_HTML_RE):
                        for match in pattern.finditer(line):
                            _old_blank(chars, start + match.start(), start + match.end())
                continue
            for start, end in zip(region.starts, region.ends):
                _old_show(chars, text, start, end)
            _old_hide(chars, region, prose._absolute(region), region.nodes)
    return "".join(chars)


def old_plain_view(text: str):
    """validate._plain_view as it was."""
    lines = text.splitlines(keepends=True)
    verbatim = validate._verbatim_lines(lines)
    chars, pos = list(text), 0
    for line, skip in zip(lines, verbatim):
        if skip:
            chars[pos:pos + len(line)] = [c if c in "\r\n" else " " for c in line]
        pos += len(line)
    view = "".join(chars)
    for pattern in validate._PLAIN_HIDE:
        view = pattern.sub(lambda m: re.sub(r"[^\r\n]", " ", m.group(0)), view)
    spans = validate.plain_math(view)
    chars = list(view)
    for start, end in spans:
        chars[start:end] = [c if c in "\r\n" else " " for c in view[start:end]]
    return "".join(chars), spans


odd_text = st.text(st.one_of(
    st.sampled_from(list("中文$`\\<>[]()!*_-#|:\r\n\t \u2028\u3000\U00020BB7")),
    st.characters(codec="utf-8")), max_size=80)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(notes, odd_text, notes.map(lambda t: t.replace("\n", "\r\n"))))
@example("中文 `代\r\n码` 和 <b\r\nx=1>，见 https://a.b/c\r\n[链接](https://x.org\r\n\"题\") $a\r\nb$。\r\n")
@example("> 引用 `代\r\n> 码` 文字\r\n\r\n- 项 <i\r\n  >中</i>\r\n")
def test_the_prose_views_are_the_list_based_ones(text):
    assert prose.prose_of(parse_document(text)) == old_prose_of(text)
    assert prose._view(text) == old_prose_of(text)
    assert validate._plain_view(text) == old_plain_view(text)


# ---------------------------------------------------------------- settled regions


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(notes, st.integers(0, 100))
@example("姓\U00020BB7说了。\n\n- 项目[^1]\n\n[^1]: 脚注\n", 0)
def test_settled_regions_render_as_their_segments(text, seed):
    """``render.settle`` lets a translated region's segments go and keeps its English: the
    leaves, the English and what the engine could not render are the same after it."""
    from zhenglossary.locking import plan_document
    from zhenglossary.memory import NoMemory
    from zhenglossary.render import leaf_texts, render_english, settle, unrendered_pieces
    from zhenglossary.runner import Runner, lock_segments

    doc = parse_document(text)
    plans = plan_document(doc, GLOSSARY, "big.md")
    engine = gloss_engine() if seed % 3 == 0 else NoiseEngine(seed)    # gloss: unrendered
    lock_segments([s for p in plans for top in p.segments for s in top.walk()], GLOSSARY,
                  Runner(engine, NoMemory(), 64, None), 1 if seed % 3 == 0 else 4)
    skip = {plans[0].leaf} if plans and seed % 2 else set()     # a person's leaf keeps its own
    before = leaf_texts(doc, plans), unrendered_pieces(plans)
    settle(plans, skip)
    assert all(not p.segments for p in plans if p.leaf not in skip)
    after = leaf_texts(doc, plans), unrendered_pieces(plans)
    assert after == before
    assert render_english(doc, after[0], "h") == render_english(doc, before[0], "h")


# ---------------------------------------------------------------- x.en.md sealed as rendered

front_matter = st.sampled_from(["", "---\ntitle: 标题\n---\n", "---\na: 1\n---", "+++\nb = 2\n+++\n"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(front_matter, notes, st.sampled_from(["\n", "\r\n", "\r"]),
       st.sampled_from(["", "> **gloss**"]),
       st.sampled_from(["<!-- zhen: English of big.md, engine: gloss. -->", "<!-- other -->", ""]))
@example("", "\n\n正文\n", "\r", "", "<!-- zhen: English of big.md, engine: gloss. -->")
@example("---\na: 1\n---", "", "\n", "", "<!-- zhen: English of big.md, engine: gloss. -->")
def test_english_rendered_sealed_is_the_rendering_sealed(front, text, newline, banner, header):
    """``render_english(seal=True)`` (the header sealed as the parts are joined) writes what
    ``seal_english`` makes of the rendering: front matter with or without its last line
    ending, any line ending, a banner or none, a header zhen's or not."""
    from zhenglossary.parallel import seal_english
    from zhenglossary.render import front_matter_end, leaf_texts, render_english

    source = (front + text).replace("\n", newline)
    doc = parse_document(source)
    leaves = leaf_texts(doc, [])
    for leaf in leaves:                               # English of its own, any length
        leaf.english = leaf.source.upper() + "x" * (leaf.index % 3)
    plain = render_english(doc, leaves, header, banner)
    assert render_english(doc, leaves, header, banner, seal=True) == \
        seal_english(plain, front_matter_end(doc))


@given(st.text(st.sampled_from(" \t\n\r\xa0a-#>`"), max_size=60))
def test_block_state_marks_are_markdown_its(text):
    """markdown.block_state: the per-line marks markdown-it's StateBlock computes (its
    lists, as arrays), and the rest of the state the same."""
    from markdown_it.rules_block import StateBlock

    from zhenglossary import markdown

    md = markdown.parser()
    ours, theirs = markdown.block_state(md, text, {}), StateBlock(text, md, {}, [])
    for name in markdown._MARKS:
        assert list(getattr(ours, name)) == getattr(theirs, name), name
    assert {k: v for k, v in vars(ours).items() if k not in markdown._MARKS} == \
        {k: v for k, v in vars(theirs).items() if k not in markdown._MARKS}
