"""Exchange formats: TMX/XLIFF export of the pairs, TBX/TSV export of the glossary, and
TBX/TSV/CSV import merged into glossary.yaml without ever overwriting an entry."""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import GLOSSARY, MINI_GLOSSARY, write
from zhenglossary.errors import GlossaryError, UsageError
from zhenglossary.exchange import (Candidate, append_terms, apply_merge, collect_pairs,
                                   export_glossary, export_tm, import_glossary, merge,
                                   read_import)
from zhenglossary.glossary import Glossary, load_glossary, load_glossary_text
from zhenglossary.parallel import read_parallel
from zhenglossary.translate import TranslateOptions, translate_paths

NOTE = """# 混合精度推理

第一段：我们使用混合精度训练模型。

- 第二段在列表里：数据并行。
  - 嵌套的第三段：张量核心。

第四段：吞吐提升了 2.7 倍。

第五段：条件是 `x < y && z` & 结果 <b>很好</b>。

> 第六段：我们先编译内核。然后运行基准测试。

```
code stays the same
```
"""

TMX_NS = "{http://www.w3.org/XML/1998/namespace}lang"
XLIFF_NS = "{urn:oasis:names:tc:xliff:document:1.2}"


def _keys(terms):
    return [(t.zh, t.en, tuple(t.variants), tuple(t.forbid), t.note, tuple(t.tags))
            for t in terms]


def _translate(root: Path) -> None:
    report = translate_paths([root / "notes"], root / "glossary.yaml",
                             TranslateOptions(engine="gloss"))
    assert report.exit_code == 0, report.to_json()


def _edit(parallel: Path, contains: str, english: str) -> None:
    text = parallel.read_text("utf-8")
    [block] = [b for b in read_parallel(text) if not b.same and contains in b.source]
    parallel.write_text(text.replace(block.english, english, 1), "utf-8")


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """notes/a.md (one edited pair, one stale, the rest machine), notes/b.md (machine),
    notes/c.md (never translated); the shipped glossary. Built once through the real
    pipeline (gloss engine, no model), copied for each test."""
    root = tmp_path_factory.mktemp("built") / "proj"
    write(root / "notes" / "a.md", NOTE)
    write(root / "notes" / "b.md", "# 另一个文件\n\n第一段：我们使用混合精度训练模型。\n")
    shutil.copy(GLOSSARY, root / "glossary.yaml")
    (root.parent / "no-models").mkdir()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ZHEN_HOME", str(root / ".zhen"))
        mp.setenv("ARGOS_PACKAGES_DIR", str(root.parent / "no-models"))
        _translate(root)
        parallel = root / "notes" / "a.zh-en.md"
        _edit(parallel, "嵌套的第三段", "- Nested third paragraph: a Tensor Core.")
        _edit(parallel, "第四段", "Fourth: throughput went up 2.7×.")
        _translate(root)                               # both edits taken in: edited
        note = root / "notes" / "a.md"
        note.write_text(note.read_text("utf-8").replace("2.7 倍", "3.1 倍"), "utf-8")
        _translate(root)                               # the fourth's source changed: stale
    write(root / "notes" / "c.md", "# 还没翻译\n\n没有平行文件。\n")
    return root


@pytest.fixture
def proj(built, tmp_path, monkeypatch):
    root = tmp_path / "proj"
    shutil.copytree(built, root)
    monkeypatch.chdir(root)
    monkeypatch.setenv("ZHEN_HOME", str(root / ".zhen"))
    return root


def _pairs(root: Path):
    glossary = load_glossary(root / "glossary.yaml")
    notes, warnings = collect_pairs([root / "notes"], glossary)
    return notes, warnings


def _expected(notes):
    """(note, block id) → (source, english, status) of every exported pair."""
    out = {}
    for note in notes:
        for pair in note.pairs:
            if pair.status != "same":
                out[(note.note, pair.id)] = (pair.source, pair.english, pair.status)
    return out


# --------------------------------------------------------------------------- pairs → TM

_MARKUP = re.compile(r"^[ \t]*(?:#{1,6}[ \t]+|[-*+][ \t]+|\d+[.)][ \t]+|>[ \t]?)+", re.M)


def _squeeze(text: str) -> str:
    return "".join(text.split())


def _by_block(got: dict) -> dict:
    """(note, unit id) → (source, english) grouped into (note, block id) → (sources joined,
    englishes joined), whitespace dropped; and the number of units per block."""
    blocks: dict = {}
    for (note, unit_id), (source, english) in sorted(got.items()):
        block = unit_id.split(".")[0]
        zh, en, n = blocks.get((note, block), ("", "", 0))
        blocks[(note, block)] = (zh + _squeeze(source), en + _squeeze(english), n + 1)
    return blocks


def _check_units(got: dict, expected: dict) -> None:
    """Sentence units: together they are the block, without its container markup; a block a
    person edited is one unit; no unit starts with Markdown markup."""
    blocks = _by_block(got)
    assert set(blocks) == set(expected)
    for key, (source, english, status) in expected.items():
        zh, en, n = blocks[key]
        if "|" not in source:
            assert zh == _squeeze(_MARKUP.sub("", source)), key
            assert en == _squeeze(_MARKUP.sub("", english)), key
        if status == "edited":
            assert n == 1, key
    for source, english in got.values():
        for text in (source, english):
            assert not re.match(r"(#{1,6} |[-*+] |> )", text), text
    sixth = [k for k, (s, _, _) in expected.items() if "第六段" in s]
    assert len(sixth) == 1 and blocks[sixth[0]][2] == 2        # two sentences, two units
    assert got[(sixth[0][0], sixth[0][1] + ".s1")][0] == "第六段：我们先编译内核。"


def test_pairs_of_the_fixture(proj):
    notes, warnings = _pairs(proj)
    assert [Path(n.note).name for n in notes] == ["a.md", "b.md"]
    assert len(warnings) == 1 and "c.md: skipped, no parallel file" in warnings[0]
    statuses = {p.source.split("：")[0].lstrip("- "): p.status for p in notes[0].pairs}
    assert statuses["嵌套的第三段"] == "edited"
    assert statuses["第四段"] == "stale"
    assert statuses["第一段"] == "machine"
    assert any(p.status == "same" for p in notes[0].pairs)        # the code block


def test_a_rewrapped_block_exports_with_the_status_zhen_status_gives_it(proj):
    """A paragraph only re-wrapped (a line break between Chinese characters, which Markdown
    reads as nothing) is the same block to `zhen status`, and to the export; a change of its
    words makes its edit stale in both."""
    from zhenglossary.exchange import exportable

    note = proj / "notes" / "a.md"
    text = note.read_text("utf-8")
    note.write_text(text.replace("嵌套的第三段：张量核心。", "嵌套的第三段：\n    张量核心。"), "utf-8")

    def exported(contains):
        notes, _ = _pairs(proj)
        [status] = [s for _, pair, s in exportable(notes[:1]) if contains in pair.source]
        [pair] = [p for p in notes[0].pairs if contains in p.source]
        return status, str(pair.status)

    assert exported("嵌套的第三段") == ("edited", "edited")
    assert exported("第一段") == ("machine", "machine")
    note.write_text(text.replace("嵌套的第三段：张量核心。", "嵌套的第三段：矩阵核心。"), "utf-8")
    assert exported("嵌套的第三段") == ("stale", "stale")


def test_tmx_parses_back_with_translate_toolkit_and_etree(proj):
    from translate.storage import tmx

    notes, _ = _pairs(proj)
    expected = _expected(notes)
    text = export_tm(notes, "tmx")

    store = tmx.tmxfile.parsestring(text.encode("utf-8"))
    got = {}
    for unit in store.units:
        note, block = unit.getid().split("#")
        got[(note, block)] = (unit.source, unit.target)
        assert unit.getcontext() == unit.getid()
        assert f"{note} L" in unit.getnotes() and "block" in unit.getnotes()
    _check_units(got, expected)

    root = ET.fromstring(text.encode("utf-8"))
    header = root.find("header")
    assert header.get("srclang") == "zh" and header.get("creationtool") == "zhen"
    units = {}
    for tu in root.iter("tu"):
        segs = {tuv.get(TMX_NS): tuv.find("seg").text for tuv in tu.findall("tuv")}
        status = [p.text for p in tu.findall("prop") if p.get("type") == "x-zhen-status"]
        units[tuple(tu.get("tuid").split("#"))] = (segs["zh"], segs["en"], status[0])
    _check_units({k: v[:2] for k, v in units.items()}, expected)
    block_status = {(n, u.split(".")[0]): st for (n, u), (_, _, st) in units.items()}
    assert block_status == {k: st for k, (_, _, st) in expected.items()}
    statuses = sorted(block_status.values())
    assert statuses.count("edited") == 1 and statuses.count("stale") == 1
    assert set(statuses) == {"edited", "stale", "machine"}
    # Markdown and markup survive as text, escaped in the XML
    assert any("`x < y && z` & 结果 <b>很好</b>" in s for s, _, _ in units.values())
    assert "&lt;b&gt;" in text
    # glossary terms of the block as a note
    first = [tu for tu in root.iter("tu") if "第一段" in tu.find("tuv/seg").text][0]
    assert "混合精度 = mixed precision" in " ".join(n.text for n in first.findall("note"))


def test_xliff_parses_back_with_translate_toolkit_and_etree(proj):
    from translate.storage import xliff

    notes, _ = _pairs(proj)
    expected = _expected(notes)
    text = export_tm(notes, "xliff")

    store = xliff.xlifffile.parsestring(text.encode("utf-8"))
    assert store.getsourcelanguage() == "zh" and store.gettargetlanguage() == "en"
    got = {}
    for unit in store.units:
        note = unit.getlocations()[0].rsplit(":", 1)[0]
        block = unit.xmlelement.get("id")
        got[(note, block)] = (unit.source, unit.target, unit.isapproved(), unit.isreview())
    _check_units({k: v[:2] for k, v in got.items()}, expected)
    for (note, unit_id), (_, _, approved, review) in got.items():
        status = expected[(note, unit_id.split(".")[0])][2]
        assert approved == (status == "edited"), unit_id
        assert review == (status in ("machine", "stale")), unit_id

    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == f"{XLIFF_NS}xliff" and root.get("version") == "1.2"
    files = root.findall(f"{XLIFF_NS}file")
    assert [Path(f.get("original")).name for f in files] == ["a.md", "b.md"]
    assert all(f.get("source-language") == "zh" and f.get("target-language") == "en"
               for f in files)
    seen = {}
    for f in files:
        for tu in f.iter(f"{XLIFF_NS}trans-unit"):
            target = tu.find(f"{XLIFF_NS}target")
            seen[(f.get("original"), tu.get("id"))] = (
                tu.find(f"{XLIFF_NS}source").text, target.text, tu.get("approved"),
                target.get("state"), target.get("state-qualifier"))
    _check_units({k: v[:2] for k, v in seen.items()}, expected)
    by_status = {expected[(n, u.split(".")[0])][2]: v[2:] for (n, u), v in seen.items()}
    assert by_status["edited"] == ("yes", "final", None)
    assert by_status["machine"] == ("no", "needs-review-translation", "mt-suggestion")
    assert by_status["stale"] == ("no", "needs-review-translation", None)
    assert "ns0" not in text and "document:1.1" not in text


def test_unknown_tm_format_is_a_usage_error(proj):
    notes, _ = _pairs(proj)
    with pytest.raises(UsageError, match="tmx, xliff"):
        export_tm(notes, "po")


# --------------------------------------------------------------------------- glossary round trips


def test_tbx_round_trips_the_shipped_glossary(tmp_path):
    from translate.storage import tbx

    glossary = load_glossary(GLOSSARY, strict=True)
    text = export_glossary(glossary, "tbx")
    path = write(tmp_path / "g.tbx", text)
    candidates = import_glossary(path)
    assert _keys(candidates) == _keys(glossary.terms)          # zh, en, variants, forbid, ...
    # into an empty glossary: everything is new; into the glossary itself: nothing is
    assert _keys(merge(Glossary([]), candidates).added) == _keys(glossary.terms)
    report = merge(glossary, candidates)
    assert not report.added and not report.conflicts
    assert len(report.skipped) == len(glossary.terms)
    # what CAT tools read: Translate Toolkit and plain etree see forbid as deprecated
    store = tbx.tbxfile.parsestring(text.encode("utf-8"))
    entry = next(u for u in store.units if u.get_target_terms("zh")[0].text == "并行度")
    en = entry.get_target_terms("en")
    assert [(t.text, t.deprecated) for t in en] == [("degree of parallelism", False),
                                                     ("parallel degree", True)]
    root = ET.fromstring(text.encode("utf-8"))
    assert root.tag == "martif" and len(root.findall(".//termEntry")) == len(glossary.terms)
    statuses = [n.text for n in root.iter("termNote") if n.get("type") == "administrativeStatus"]
    assert statuses.count("deprecatedTerm-admn-sts") == sum(len(t.forbid) for t in glossary.terms)


def test_tsv_is_deepl_form_and_round_trips_zh_en_variants(tmp_path):
    glossary = load_glossary(GLOSSARY, strict=True)
    text = export_glossary(glossary, "tsv")
    lines = text.splitlines()
    assert len(lines) == sum(len(t.forms) for t in glossary.terms)
    assert lines[0] == f"{glossary.terms[0].zh}\t{glossary.terms[0].en}"      # no header
    assert all(line.count("\t") == 1 for line in lines)
    with_variant = next(t for t in glossary.terms if t.variants)
    assert f"{with_variant.variants[0]}\t{with_variant.en}" in lines
    candidates = import_glossary(write(tmp_path / "deepl.tsv", text))
    assert [(c.zh, c.en, c.variants) for c in candidates] == \
        [(t.zh, t.en, t.variants) for t in glossary.terms]
    report = merge(glossary, candidates)
    assert not report.added and not report.conflicts


def test_tsv_export_refuses_a_tab_in_a_value(tmp_path):
    path = write(tmp_path / "glossary.yaml",
                 MINI_GLOSSARY + '  - zh: 张量\n    en: "tensor\\tcore"\n')
    glossary = load_glossary(path, strict=True)
    with pytest.raises(GlossaryError, match="contains a tab") as info:
        export_glossary(glossary, "tsv")
    assert info.value.line == 14
    assert "<TAB>" in str(info.value)
    export_glossary(glossary, "tbx")             # XML holds it


# --------------------------------------------------------------------------- import


@pytest.mark.parametrize("text", [
    "混合精度,mixed precision\n张量核心,Tensor Core\n",                 # DeepL CSV, no header
    "zh,en\n混合精度,mixed precision\n张量核心,Tensor Core\n",           # Amazon: language codes
    "source,target\n混合精度,mixed precision\n张量核心,Tensor Core\n",
    "\ufeffzh-CN,en-US,fr\n混合精度,mixed precision,précision mixte\n张量核心,Tensor Core,x\n",
    "en,zh\nmixed precision,混合精度\nTensor Core,张量核心\n",           # columns by header
    "混合精度,mixed precision,zh,en\n张量核心,Tensor Core,zh,en\n",     # DeepL 4-column CSV
    '"混合精度","mixed precision"\r\n"张量核心","Tensor Core"\r\n',       # quoted, CRLF
])
def test_csv_with_and_without_header(tmp_path, text):
    candidates = import_glossary(write(tmp_path / "terms.csv", text))
    assert [(c.zh, c.en) for c in candidates] == [("混合精度", "mixed precision"),
                                                  ("张量核心", "Tensor Core")]


def test_csv_quoted_comma_and_note_column(tmp_path):
    path = write(tmp_path / "t.csv", 'zh,en,description\n'
                 '键值存储,"key-value store, KV store",used in storage notes\n')
    imported = read_import(path)
    [cand] = imported.candidates
    assert cand.en == "key-value store, KV store" and cand.note == "used in storage notes"
    assert imported.format == "csv" and not imported.warnings


@pytest.mark.parametrize("name, text, message", [
    ("bad.tsv", "混合精度\tmixed\tprecision\n", "value contains a tab"),
    ("bad.tsv", "zh\ten\n混合精度\tmixed\tprecision\n", "value contains a tab"),
    ("bad.csv", "混合精度,\n", "has no English"),
    ("bad.csv", "mixed precision,混合精度\n", "English→Chinese"),
    ("bad.csv", "foo,bar\n混合精度,mixed precision\n", "neither a header"),
    ("bad.csv", "混合精度,混合精度\n", "contains Chinese characters"),
    ("bad.csv", '混合精度,"mixed\nprecision"\n', "line break"),
    ("bad.csv", "混合精度,mixed precision,en,zh\n", "Chinese→English"),
    ("bad.csv", "", "is empty"),
    ("bad.tbx", "<martif><text><body><termEntry>", "not well-formed XML"),
])
def test_bad_import_files_are_refused_clearly(tmp_path, name, text, message):
    path = write(tmp_path / name, text)
    with pytest.raises(GlossaryError, match=message) as info:
        import_glossary(path)
    assert str(info.value).startswith(str(path))


def test_tab_inside_a_tsv_value_names_the_line(tmp_path):
    path = write(tmp_path / "deepl.tsv", "张量核心\tTensor Core\n混合精度\tmixed\tprecision\n")
    with pytest.raises(GlossaryError) as info:
        import_glossary(path)
    assert info.value.line == 2 and "3 tab-separated fields" in str(info.value)


@pytest.mark.parametrize("name, text, message", [
    ("tm.tmx", '<?xml version="1.0"?><tmx version="1.4"><body/></tmx>', "TMX translation memory"),
    ("x.xlf", '<xliff version="1.2"/>', "XLIFF"),
    ("g.xlsx", "PK\x03\x04rest", "zip file"),
    ("g.po", 'msgid "a"\n', ".po files cannot be imported"),
    ("g.txt", "just words\n", "cannot tell its format"),
])
def test_unsupported_formats_are_usage_errors(tmp_path, name, text, message):
    with pytest.raises(UsageError, match=message):
        import_glossary(write(tmp_path / name, text))


def test_tbx_from_another_tool(tmp_path):
    """zh-CN/en-US codes, ntig-free TBX-Basic with a preferred term not first, a deprecated
    English term, a second admitted English term (dropped, with a warning), subject field and
    a definition, and an entry without English (skipped)."""
    path = write(tmp_path / "termbase.tbx", """<?xml version="1.0" encoding="UTF-8"?>
<martif type="TBX-Basic" xml:lang="en-US">
<martifHeader><fileDesc><sourceDesc><p>Some termbase</p></sourceDesc></fileDesc></martifHeader>
<text><body>
<termEntry id="c1">
  <descrip type="subjectField">ML</descrip>
  <descrip type="definition">Training with FP16 and FP32.</descrip>
  <langSet xml:lang="en-US">
    <tig><term>hybrid precision</term>
      <termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote></tig>
    <tig><term>mixed precision</term>
      <termNote type="administrativeStatus">preferredTerm-admn-sts</termNote></tig>
    <tig><term>mixed-precision</term></tig>
  </langSet>
  <langSet xml:lang="zh-CN">
    <tig><term>混合精度计算</term></tig>
    <tig><term>混合精度</term>
      <termNote type="administrativeStatus">preferredTerm-admn-sts</termNote></tig>
  </langSet>
</termEntry>
<termEntry id="c2"><langSet xml:lang="zh-CN"><tig><term>孤儿</term></tig></langSet></termEntry>
</body></text></martif>
""")
    imported = read_import(path)
    [cand] = imported.candidates
    assert (cand.zh, cand.en, cand.variants, cand.forbid, cand.tags) == \
        ("混合精度", "mixed precision", ("混合精度计算",), ("hybrid precision",), ("ML",))
    assert cand.note == "Training with FP16 and FP32."
    assert any("dropped the other English 'mixed-precision'" in w for w in imported.warnings)
    assert any("skipped an entry without both" in w for w in imported.warnings)


def test_tbx_v3_dca(tmp_path):
    path = write(tmp_path / "v3.tbx", """<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
<tbxHeader><fileDesc><sourceDesc><p>v3</p></sourceDesc></fileDesc></tbxHeader>
<text><body>
<conceptEntry id="c1">
  <langSec xml:lang="zh"><termSec><term>张量核心</term></termSec></langSec>
  <langSec xml:lang="en"><termSec><term>Tensor Core</term></termSec>
    <termSec><term>tensor kernel</term>
      <termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote></termSec></langSec>
</conceptEntry>
</body></text></tbx>
""")
    [cand] = import_glossary(path)
    assert (cand.zh, cand.en, cand.forbid) == ("张量核心", "Tensor Core", ("tensor kernel",))


def test_utf16_tsv_from_a_spreadsheet(tmp_path):
    path = tmp_path / "excel.txt"
    path.write_bytes("zh\ten\r\n混合精度\tmixed precision\r\n".encode("utf-16"))
    [cand] = import_glossary(path)
    assert (cand.zh, cand.en) == ("混合精度", "mixed precision")


# --------------------------------------------------------------------------- merge


def test_merge_sorts_new_identical_and_conflicts():
    glossary = load_glossary_text(MINI_GLOSSARY, "glossary.yaml")
    cands = [
        Candidate("混合精度", "hybrid precision", line=1, source="in.tsv"),    # different en
        Candidate("混合精度计算", "mixed precision", line=2),                  # a variant: same
        Candidate("张量核心", "Tensor Core", line=3),                          # identical
        Candidate("数据并行", "data parallelism", ("数据并行化",), line=4),     # new form
        Candidate("张量核心", "Tensor Core", forbid=("tensor kernel",), line=5),
        Candidate("流水线并行", "pipeline parallelism", line=6),                # new
        Candidate("流水线并行", "pipeline parallelism", line=7),                # repeated
        Candidate("模型并行", "model parallelism", line=8),                     # the file
        Candidate("模型并行", "model parallel", line=9),                        # disagrees
    ]
    report = merge(glossary, cands)
    assert [c.zh for c in report.added] == ["流水线并行"]
    assert [s.candidate.line for s in report.skipped] == [2, 3, 7]
    kinds = {c.incoming.line: c.kind for c in report.conflicts}
    assert kinds == {1: "different-en", 4: "new-form", 5: "forbid-differs",
                     8: "import-disagrees", 9: "import-disagrees"}
    first = report.conflicts[0]
    assert "'mixed precision' (glossary.yaml:4)" in first.message
    assert "'hybrid precision' (in.tsv:1)" in first.message
    assert first.glossary_line == 4 and first.existing_en == "mixed precision"
    assert "数据并行化" in report.conflicts[1].message and "variants by hand" in \
        report.conflicts[1].message


def test_merge_reports_warnings_the_new_entries_would_cause():
    glossary = load_glossary_text(MINI_GLOSSARY, "glossary.yaml")
    report = merge(glossary, [Candidate("混合精度训练", "hybrid precision training", line=1)])
    assert report.added and any("hybrid precision" in w for w in report.warnings)


# --------------------------------------------------------------------------- applying


GLOSSARY_WITH_COMMENTS = (
    "# my glossary\r\n"
    "source: zh\r\n"
    "target: en\r\n"
    "terms:\r\n"
    "- zh: 混合精度   # flush-left list, CRLF\r\n"
    "  en: mixed precision\r\n"
    "  note: |\r\n"
    "    a block\r\n"
    "    scalar\r\n"
    "\r\n"
    "# trailing comment stays last\r\n")


def test_append_keeps_every_byte_and_the_style():
    cands = [Candidate("张量核心", "Tensor Core", ("张量核",), ("tensor kernel",),
                       "a: note # with signs", ("gpu", "yes"))]
    new = append_terms(GLOSSARY_WITH_COMMENTS, cands, "--- imported ---")
    head = GLOSSARY_WITH_COMMENTS[:GLOSSARY_WITH_COMMENTS.index("# trailing")]
    assert new.startswith(head)
    assert new.endswith("# trailing comment stays last\r\n")
    assert "\n" not in new.replace("\r\n", "")
    assert "- zh: 张量核心\r\n  en: Tensor Core\r\n  variants: [张量核]\r\n" in new
    glossary = load_glossary_text(new)
    assert not glossary.errors
    assert _keys(glossary.terms) == [
        ("混合精度", "mixed precision", (), (), "a block\nscalar", ()),
        ("张量核心", "Tensor Core", ("张量核",), ("tensor kernel",), "a: note # with signs",
         ("gpu", "yes"))]


def test_apply_refuses_what_would_break_the_glossary(tmp_path):
    path = write(tmp_path / "glossary.yaml", MINI_GLOSSARY)
    bad = Candidate("并行计算", "parallel computing", forbid=("parallel",), line=1)
    report = merge(load_glossary(path), [bad])
    report.added.append(Candidate("计算", "计算", line=2))           # CJK in en: an error
    with pytest.raises(GlossaryError, match="nothing was written"):
        apply_merge(path, MINI_GLOSSARY, report)
    assert path.read_text("utf-8") == MINI_GLOSSARY


def test_apply_refuses_when_the_file_changed_meanwhile(tmp_path):
    path = write(tmp_path / "glossary.yaml", MINI_GLOSSARY)
    report = merge(load_glossary(path), [Candidate("流水线", "pipeline", line=1)])
    path.write_text(MINI_GLOSSARY + "  - zh: 其他\n    en: other\n", "utf-8")
    with pytest.raises(GlossaryError, match="changed while importing"):
        apply_merge(path, MINI_GLOSSARY, report)


# --------------------------------------------------------------------------- CLI


@pytest.fixture
def app():
    from zhenglossary.cli import app

    return app


def run(runner, app, *args):
    return runner.invoke(app, [str(a) for a in args], catch_exceptions=False)


def test_cli_export(runner, app, proj):
    result = run(runner, app, "export", "notes", "--format", "tmx")
    assert result.exit_code == 0
    assert ET.fromstring(result.stdout.encode("utf-8")).tag == "tmx"
    assert "warning: notes/c.md: skipped, no parallel file" in result.stderr
    assert "1 edited" in result.stderr and "1 stale" in result.stderr
    result = run(runner, app, "export", "notes/a.md", "notes/b.md", "-f", "xliff",
                 "--out", "out/tm.xlf")
    assert result.exit_code == 0 and result.stdout == ""
    assert ET.parse(proj / "out" / "tm.xlf").getroot().get("version") == "1.2"
    result = run(runner, app, "export", "notes/c.md", "--format", "tmx")
    assert result.exit_code == 2 and "run `zhen translate`" in result.stderr
    result = run(runner, app, "export", "missing.md", "--format", "tmx")
    assert result.exit_code == 2 and "missing.md does not exist" in result.stderr
    result = run(runner, app, "export", "notes", "--format", "po")
    assert result.exit_code == 2


def test_cli_glossary_export(runner, app, proj):
    result = run(runner, app, "glossary", "export", "--format", "tsv")
    assert result.exit_code == 0 and result.stdout.startswith("并行\tparallel\n")
    result = run(runner, app, "glossary", "export", "-f", "tbx", "-o", "g.tbx")
    assert result.exit_code == 0 and (proj / "g.tbx").read_text("utf-8").count("<termEntry") \
        == len(load_glossary(proj / "glossary.yaml").terms)
    broken = write(proj / "broken.yaml", "terms:\n  - zh: 混合精度\n")
    result = run(runner, app, "glossary", "export", "-f", "tsv", "--glossary", broken)
    assert result.exit_code == 2 and "no `en`" in result.stderr


def test_cli_import_conflicts_and_twice(runner, app, proj):
    glossary = proj / "glossary.yaml"
    before = glossary.read_bytes()
    write(proj / "in.tsv", "混合精度\thybrid precision\n")
    result = run(runner, app, "glossary", "import", "in.tsv")
    assert result.exit_code == 1
    assert "'mixed precision' (glossary.yaml:" in result.stdout
    assert "'hybrid precision' (in.tsv:1)" in result.stdout
    assert glossary.read_bytes() == before

    write(proj / "in.tsv", "混合精度\thybrid precision\n图计算引擎\tgraph processing engine\n"
                           "张量核心\tTensor Core\n")
    result = run(runner, app, "glossary", "import", "in.tsv", "--dry-run")
    assert result.exit_code == 1 and "would add 1" in result.stdout
    assert glossary.read_bytes() == before
    result = run(runner, app, "glossary", "import", "in.tsv", "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["summary"] == {"added": 1, "skipped": 1, "conflicts": 1, "exit_code": 1}
    assert data["written"] is True and data["conflicts"][0]["existing_en"] == "mixed precision"
    after = glossary.read_bytes()
    assert after.startswith(before)
    assert after[len(before):].decode("utf-8") == (
        "  # --- imported from in.tsv by `zhen glossary import` ---\n"
        "  - zh: 图计算引擎\n    en: graph processing engine\n")
    assert load_glossary(glossary, strict=True)
    # the second time adds nothing
    result = run(runner, app, "glossary", "import", "in.tsv")
    assert result.exit_code == 1 and "added 0, skipped 2 identical, 1 conflict" in result.stdout
    assert glossary.read_bytes() == after
    write(proj / "ok.csv", "zh,en\n图计算引擎,graph processing engine\n")
    result = run(runner, app, "glossary", "import", "ok.csv")
    assert result.exit_code == 0 and "added 0, skipped 1 identical, 0 conflict" in result.stdout


def test_cli_import_round_trip_into_a_new_glossary(runner, app, proj):
    assert run(runner, app, "glossary", "export", "-f", "tbx", "-o", "g.tbx").exit_code == 0
    result = run(runner, app, "glossary", "import", "g.tbx", "--glossary", "copy/glossary.yaml")
    assert result.exit_code == 0 and "[new glossary]" in result.stdout
    copy = load_glossary(proj / "copy" / "glossary.yaml", strict=True)
    assert _keys(copy.terms) == _keys(load_glossary(proj / "glossary.yaml").terms)
    result = run(runner, app, "glossary", "import", "g.tbx", "--glossary", "copy/glossary.yaml")
    assert result.exit_code == 0 and f"added 0, skipped {len(copy.terms)}" in result.stdout


def test_cli_import_cannot_read(runner, app, proj):
    before = (proj / "glossary.yaml").read_bytes()
    result = run(runner, app, "glossary", "import", "nope.tsv")
    assert result.exit_code == 2 and result.stderr.startswith("error: nope.tsv: cannot be read")
    write(proj / "tab.tsv", "混合精度\tmixed\tprecision\n")
    result = run(runner, app, "glossary", "import", "tab.tsv")
    assert result.exit_code == 2 and "tab.tsv:1:" in result.stderr and "tab" in result.stderr
    assert "Traceback" not in result.output
    run(runner, app, "export", "notes/a.md", "-f", "tmx", "-o", "tm.tmx")
    result = run(runner, app, "glossary", "import", "tm.tmx")
    assert result.exit_code == 2 and "TMX translation memory" in result.stderr
    assert (proj / "glossary.yaml").read_bytes() == before


def test_append_to_flow_style_terms_is_refused():
    with pytest.raises(GlossaryError, match="flow style"):
        append_terms("source: zh\ntarget: en\nterms: [{zh: 混合精度, en: mixed precision}]\n",
                     [Candidate("张量核心", "Tensor Core")])


def test_cli_import_into_a_broken_glossary(runner, app, proj):
    broken = write(proj / "broken.yaml", "terms:\n  - zh: 混合精度\n")
    write(proj / "in.tsv", "张量核心\tTensor Core\n")
    result = run(runner, app, "glossary", "import", "in.tsv", "--glossary", broken)
    assert result.exit_code == 2 and "fix the glossary before importing" in result.stderr
    assert broken.read_text("utf-8") == "terms:\n  - zh: 混合精度\n"
