"""Loading glossary.yaml (schema v1), its findings, and term matching."""

from __future__ import annotations

import pytest

from conftest import GLOSSARY, MINI_GLOSSARY, write
from zhenglossary.errors import GlossaryError, GlossaryNotFound
from zhenglossary.glossary import find_glossary, load_glossary, load_glossary_text


def checks(glossary):
    return {(f.check, f.line) for f in glossary.findings}


def test_mini_glossary_loads_clean():
    g = load_glossary_text(MINI_GLOSSARY, "g.yaml")
    assert [f for f in g.findings if f.severity != "info"] == []
    term = g.by_zh("混合精度计算")
    assert term.zh == "混合精度" and term.en == "mixed precision"
    assert term.forbid == ("hybrid precision",)
    assert term.line == 4


def test_shipped_glossary_is_large_and_clean():
    g = load_glossary(GLOSSARY)
    assert len(g.terms) >= 150
    assert [f for f in g.findings if f.severity in ("error", "warning")] == []
    for term in g.terms:
        assert term.en == term.en.strip() and term.en
    # the notes give their own abbreviations (（DTNs）): an `en` that carried one would
    # print it twice (issue 22's audit)
    assert g.by_zh("数据传输节点").en == "data transfer node"
    assert g.by_zh("显存").forms == ("显存", "GPU显存")


def test_yaml_syntax_error_has_line_and_column():
    g = load_glossary_text("source: zh\nterms:\n  - zh: 混合精度\n   en: mixed\n", "g.yaml")
    [f] = g.findings
    assert f.check == "yaml-syntax" and f.severity == "error"
    assert (f.line, f.column) == (4, 4)
    assert f.where == "g.yaml:4:4"


def test_bad_indentation_in_flow_list():
    g = load_glossary_text("terms:\n  - zh: 混合精度\n    en: x\n    variants: [a\n  b: 1\n", "g.yaml")
    assert g.findings[0].check == "yaml-syntax"
    assert g.findings[0].line == 5


def test_duplicate_form_names_both_lines():
    text = MINI_GLOSSARY + "  - zh: 混合精度\n    en: mixed precision\n"
    g = load_glossary_text(text, "g.yaml")
    dup = [f for f in g.findings if f.check == "duplicate-form"]
    assert len(dup) == 1
    assert "line 4 and line 14" in dup[0].message
    assert dup[0].line == 14 and dup[0].severity == "error"


def test_variant_listed_under_two_entries():
    text = MINI_GLOSSARY + "  - zh: 精度计算\n    en: precision\n    variants: [混合精度计算]\n"
    g = load_glossary_text(text, "g.yaml")
    [f] = [f for f in g.findings if f.check == "conflicting-en"]
    assert "混合精度计算 has two English renderings" in f.message
    assert "'mixed precision' (line 6)" in f.message and "'precision' (line 16)" in f.message


def test_one_form_two_renderings():
    text = MINI_GLOSSARY + "  - zh: 张量核心\n    en: tensor kernel\n"
    g = load_glossary_text(text, "g.yaml")
    [f] = [f for f in g.findings if f.check == "conflicting-en"]
    assert "'Tensor Core' (line 8) and 'tensor kernel' (line 14)" in f.message


@pytest.mark.parametrize("entry, check_id, fragment", [
    ("  - zh: 量化\n    en: quantization\n    varients: [量化方法]\n", "unknown-key", "did you mean `variants`"),
    ("  - zh: 量化\n    en: ''\n", "empty-field", "`en` is empty"),
    ("  - zh: 量化\n    en:\n", "empty-field", "`en` is empty"),
    ("  - zh: 量化\n    en: 1.5\n", "glossary-schema", "quote it"),
    ("  - zh: 量化\n    en: [a, b]\n", "glossary-schema", "must be a string"),
    ("  - zh: 量化\n", "glossary-schema", "has no `en`"),
    ("  - en: quantization\n", "glossary-schema", "has no `zh`"),
    ("  - zh: 量化\n    en: 量化 quantization\n", "cjk-in-en", "contains Chinese"),
    ("  - zh: 量化\n    en: quantization\n    forbid: [Quantization]\n", "forbid-is-en", "is its own `en`"),
    ("  - zh: 量化\n    en: quantization\n    forbid: []\n", "empty-field", "empty list"),
    ("  - zh: quant\n    en: quantization\n", "glossary-schema", "no Chinese character"),
    ("  - zh: 量化\n    zh: 量子化\n    en: quantization\n", "duplicate-key", "appears twice"),
    ("  - just a string\n", "glossary-schema", "must be a mapping"),
])
def test_schema_findings(entry, check_id, fragment):
    g = load_glossary_text(MINI_GLOSSARY + entry, "g.yaml")
    found = [f for f in g.findings if f.check == check_id]
    assert found, g.findings
    assert fragment in found[0].message
    assert found[0].severity == "error"
    assert found[0].line >= 14


def test_forbid_required_by_another_entry_is_a_warning():
    text = MINI_GLOSSARY + "  - zh: 推理\n    en: inference\n    forbid: [reasoning]\n" \
        "  - zh: 逻辑推理\n    en: logical reasoning\n"
    g = load_glossary_text(text, "g.yaml")
    [f] = [f for f in g.findings if f.check == "forbid-conflict"]
    assert f.severity == "warning" and "逻辑推理" in f.message


def test_nested_forms_are_not_findings_when_the_glossary_is_read():
    # 并行 inside 数据并行 is ordinary glossary structure: the longest match wins
    g = load_glossary_text(MINI_GLOSSARY + "  - zh: 并行策略\n    en: parallel strategy\n", "g.yaml")
    assert not [f for f in g.findings if f.check == "overlapping-terms"]


@pytest.mark.parametrize("text, fragment", [
    ("- zh: 量化\n  en: quantization\n", "is a list"),
    ("just text\n", "is a single value"),
    ("", "is empty"),
    ("source: zh\ntarget: en\n", "no `terms:`"),
    ("source: zh\ntarget: en\nterms:\n", "has no terms"),
    ("source: ja\ntarget: en\nterms:\n  - zh: 量化\n    en: q\n", "translates from `zh`"),
])
def test_top_level_problems(text, fragment):
    g = load_glossary_text(text, "g.yaml")
    assert any(fragment in f.message for f in g.errors), g.findings


def test_yaml_bomb_is_refused_fast():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(9)) + "terms: *j\n"
    g = load_glossary_text(bomb, "bomb.yaml")
    [f] = g.findings
    assert f.check == "yaml-syntax" and "aliases" in f.message and f.line == 2


def test_python_tags_are_not_executed():
    g = load_glossary_text("terms: !!python/object/apply:os.system ['echo hi']\n", "g.yaml")
    assert g.errors and g.terms == []


def test_strict_load_raises_with_place(tmp_path):
    path = write(tmp_path / "glossary.yaml", "source: zh\nterms:\n  - zh: 量化\n   en: q\n")
    with pytest.raises(GlossaryError) as info:
        load_glossary(path, strict=True)
    assert str(info.value).startswith(f"{path}:4:")
    assert info.value.exit_code == 2


def test_non_utf8_glossary_says_how_to_convert(tmp_path):
    path = tmp_path / "glossary.yaml"
    path.write_bytes("terms:\n  - zh: 量化\n    en: q\n".encode("gbk"))
    with pytest.raises(GlossaryError, match="iconv -f GB18030"):
        load_glossary(path)


def test_find_glossary_upwards(tmp_path, monkeypatch):
    write(tmp_path / "glossary.yaml", MINI_GLOSSARY)
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    monkeypatch.chdir(deep)
    assert find_glossary().resolve() == tmp_path / "glossary.yaml"
    assert str(find_glossary()) == "../../glossary.yaml"


def test_find_glossary_missing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(GlossaryNotFound, match="--glossary FILE"):
        find_glossary()


# ------------------------------------------------------------------- matching

def matches(glossary_text, text):
    g = load_glossary_text(glossary_text)
    return [(m.form, m.term.en, text[m.start:m.end]) for m in g.find(text)]


def test_longest_match_first():
    found = matches(MINI_GLOSSARY, "使用混合精度计算和数据并行")
    assert [m[0] for m in found] == ["混合精度计算", "数据并行"]
    assert found[0][1] == "mixed precision"


def test_term_inside_longer_word_from_the_notes():
    # sc24: 在数据集成敏感性和长期活动工作流中 — 数据集 (dataset) sits inside 数据集成
    g = MINI_GLOSSARY + "  - zh: 数据集\n    en: dataset\n  - zh: 数据集成\n    en: data integration\n"
    assert [m[0] for m in matches(g, "在数据集成敏感性和长期活动工作流中")] == ["数据集成"]
    assert [m[0] for m in matches(g, "训练过程中从数据集中抽取")] == ["数据集"]


def test_overlapping_terms_leftmost_wins():
    g = MINI_GLOSSARY + "  - zh: 并行策略\n    en: parallel strategy\n"
    # sosp24: 动态调整并行策略 / 数据并行、流水线并行
    assert [m[0] for m in matches(g, "动态调整并行策略")] == ["并行策略"]
    assert [m[0] for m in matches(g, "优化了数据并行策略")] == ["数据并行"]


def test_term_next_to_english():
    # sc24: 使用低精度张量核心（INT8/INT4 Tensor Core）; GPU内存
    found = matches(MINI_GLOSSARY, "使用低精度张量核心（INT8/INT4 Tensor Core）实现GPU并行")
    assert [m[0] for m in found] == ["张量核心", "并行"]


def test_latin_edged_form_respects_word_boundaries():
    g = MINI_GLOSSARY + "  - zh: GPU内存\n    en: GPU memory\n"
    assert [m[0] for m in matches(g, "GPU内存不足")] == ["GPU内存"]
    assert matches(g, "XGPU内存") == []


def test_jieba_keeps_glossary_terms_whole():
    from zhenglossary.segment import cut

    text = "使用高精度张量核心保持推理准确性"
    assert "张量核心" not in cut(text)          # jieba alone splits it
    assert "张量核心" in cut(text, ["张量核心"])   # as a user word it stays whole


# --------------------------------------------------------------------------- the one writer

import yaml  # noqa: E402
from hypothesis import given, settings, strategies as st  # noqa: E402

from zhenglossary.glossary import entry_yaml, read_glossary_file  # noqa: E402

_VALUE = st.text(st.characters(whitelist_categories=("L", "N", "P", "S", "Zs")), min_size=1,
                 max_size=12).filter(lambda v: v == v.strip())


@settings(max_examples=60, deadline=None)
@given(zh=_VALUE, en=_VALUE, variants=st.lists(_VALUE, max_size=3))
def test_entry_yaml_reads_back_as_the_same_entry(zh, en, variants):
    import types

    entry = types.SimpleNamespace(zh=zh, en=en, variants=variants)
    data = yaml.safe_load("terms:\n" + entry_yaml(entry))
    assert data == {"terms": [{"zh": zh, "en": en, **({"variants": variants} if variants else {})}]}


def test_entry_without_english_is_a_todo():
    import types

    text = entry_yaml(types.SimpleNamespace(zh="算子融合", en=""))
    assert "en: ''   # TODO: English" in text and yaml.safe_load(text) == [{"zh": "算子融合", "en": ""}]


def test_one_reader_for_every_glossary_file(tmp_path):
    """glossary.yaml and import files go through read_glossary_file: BOM, UTF-16, GBK hint."""
    bom = tmp_path / "g.yaml"
    bom.write_bytes(b"\xef\xbb\xbfterms: []\n")
    assert read_glossary_file(bom) == "terms: []\n"
    assert read_glossary_file(bom, exact=True) == "\ufeffterms: []\n"
    utf16 = tmp_path / "g.tsv"
    utf16.write_bytes("算子\top\n".encode("utf-16"))
    assert read_glossary_file(utf16) == "算子\top\n"
    gbk = tmp_path / "old.tsv"
    gbk.write_bytes("算子\top\n".encode("gbk"))
    with pytest.raises(GlossaryError, match="iconv -f GB18030 -t UTF-8 .*old.tsv > old.utf8.tsv"):
        read_glossary_file(gbk)


def test_any_bytes_give_text_or_a_glossary_error(tmp_path):
    """Whatever bytes a glossary file holds (a UTF-16 or UTF-8 BOM before bytes that do not
    decode, a truncated UTF-16 file: ``FF FE`` then ASCII), reading it gives its text or a
    GlossaryError that says what to do: never a UnicodeDecodeError (exit 3, "a bug")."""
    from hypothesis import given, settings, strategies as st

    from zhenglossary.errors import ZhenError

    path = tmp_path / "g.yaml"

    @settings(max_examples=200, deadline=None)
    @given(st.sampled_from([b"", b"\xff\xfe", b"\xfe\xff", b"\xef\xbb\xbf"]), st.binary(max_size=40))
    def read(prefix, body):
        path.write_bytes(prefix + body)
        try:
            assert isinstance(read_glossary_file(path), str)
        except ZhenError as exc:            # GlossaryError, or UsageError for a zip file
            assert "g.yaml" in str(exc)

    read()
    path.write_bytes(b"\xff\xfeterms:\n")
    with pytest.raises(GlossaryError, match="starts like UTF-16 but is not"):
        read_glossary_file(path)


# --------------------------------------------------------------------------- the matcher
# against a plain reference: at each position from the left, try every form length from
# the longest; take the first form that exists and whose Latin edges are free

from hypothesis import given, settings, strategies as st  # noqa: E402

from zhenglossary.glossary import Term, TermMatcher  # noqa: E402


def _latin(ch):
    return ch.isascii() and ch.isalnum()


def reference_matches(forms, text):
    out, i = [], 0
    lengths = sorted({len(f) for f in forms}, reverse=True)
    while i < len(text):
        for n in lengths:
            cand = text[i:i + n]
            if len(cand) < n or cand not in forms:
                continue
            if _latin(cand[0]) and i > 0 and _latin(text[i - 1]):
                continue
            if _latin(cand[-1]) and i + n < len(text) and _latin(text[i + n]):
                continue
            out.append((i, i + n, cand))
            i += n
            break
        else:
            i += 1
    return out


ALPHABET = "数据模型并行训练AaB1 2，"
FORMS = st.sets(st.text(ALPHABET, min_size=1, max_size=5), min_size=1, max_size=25)


@settings(max_examples=300, deadline=None)
@given(forms=FORMS, text=st.text(ALPHABET, max_size=60))
def test_matcher_equals_reference(forms, text):
    term = Term("数据", "data")
    matcher = TermMatcher({f: term for f in forms})
    got = [(m.start, m.end, m.form) for m in matcher.finditer(text)]
    assert got == reference_matches(forms, text)


@settings(max_examples=100, deadline=None)
@given(forms=FORMS, parts=st.lists(st.text(ALPHABET, max_size=8), max_size=6))
def test_matcher_finds_forms_planted_in_text(forms, parts):
    # texts built from the forms themselves: many nested and overlapping occurrences
    pool = sorted(forms)
    text = "".join(p + pool[i % len(pool)] for i, p in enumerate(parts))
    matcher = TermMatcher({f: Term("数据", "data") for f in forms})
    got = [(m.start, m.end, m.form) for m in matcher.finditer(text)]
    assert got == reference_matches(forms, text)


@settings(max_examples=100, deadline=None)
@given(forms=FORMS, texts=st.lists(st.text(ALPHABET, max_size=30), min_size=1, max_size=12))
def test_occurrences_memo_answers_as_a_fresh_scan(forms, texts):
    # the memo of the last few texts' occurrences (shared by the matches, term-unused and
    # term-overlap) gives what a matcher that never saw the text gives, in any order of asking
    term = Term("数据", "data")
    memo = TermMatcher({f: term for f in forms})
    for text in texts + texts[::-1] + texts:
        fresh = TermMatcher({f: term for f in forms})
        assert memo.occurrences(text) == fresh.occurrences(text)
        assert list(memo.finditer(text)) == list(fresh.finditer(text))
    assert len(memo._recent_occurrences) <= TermMatcher.MEMO


def test_matcher_latin_edges_fall_back_to_a_shorter_form():
    term = Term("数据", "data")
    matcher = TermMatcher({f: term for f in ("GPU内存", "GPU内存A", "内存")})
    assert [m.form for m in matcher.finditer("XGPU内存")] == ["内存"]
    assert [m.form for m in matcher.finditer("GPU内存AB")] == ["GPU内存"]
    assert [m.form for m in matcher.finditer("GPU内存A，")] == ["GPU内存A"]
    assert list(TermMatcher({}).finditer("数据")) == []


# --------------------------------------------------------------------------- parse cache

def test_parse_cache_gives_the_same_glossary_and_survives_damage(tmp_path, monkeypatch):
    from zhenglossary import glossary as G

    monkeypatch.setenv("ZHEN_HOME", str(tmp_path / "home"))
    bad = MINI_GLOSSARY + "  - zh: 混合精度\n    en: hybrid\n"       # a conflicting-en error
    path = write(tmp_path / "g.yaml", bad)
    fresh = load_glossary_text(bad, str(path))
    first = load_glossary(path)
    files = list((tmp_path / "home" / "cache" / "glossaries").glob("*.marshal"))
    assert len(files) == 1
    for damage in (b"", b"\x00garbage", files[0].read_bytes()[:40], None):
        if damage is not None:
            files[0].write_bytes(damage)
        again = load_glossary(path)
        assert again.terms == fresh.terms == first.terms
        assert [t.form_lines for t in again.terms] == [t.form_lines for t in fresh.terms]
        assert again.findings == fresh.findings and again.errors
        assert [f.extra for f in again.findings] == [f.extra for f in fresh.findings]
    with pytest.raises(GlossaryError):
        load_glossary(path, strict=True)
    # an edit is a new entry, never the old result
    write(tmp_path / "g.yaml", MINI_GLOSSARY)
    assert not load_glossary(path).errors


def test_parse_cache_unwritable_is_not_an_error(tmp_path, monkeypatch):
    blocker = write(tmp_path / "file", "x")
    monkeypatch.setenv("ZHEN_HOME", str(blocker))
    path = write(tmp_path / "g.yaml", MINI_GLOSSARY)
    assert load_glossary(path).by_zh("混合精度").en == "mixed precision"
