"""Translation checks in `zhen glossary check`, read pair by pair from the parallel files."""

from __future__ import annotations

import json

import pytest

from conftest import translated_project
from zhenglossary.cli import app
from zhenglossary.parallel import read_parallel

A = """# 混合精度推理

第一段：我们使用混合精度训练模型。

第二段：数据并行。

第三段：张量核心提升了 2.7 倍，见 `max_batch_size`。
"""
B = "# 另一个文件\n\n第一段：我们使用混合精度训练模型。\n"


@pytest.fixture
def translated(runner, tmp_path, monkeypatch):
    return translated_project(runner, tmp_path, monkeypatch, {"a.md": A, "b.md": B})


def check(runner, *args):
    result = runner.invoke(app, ["glossary", "check", "--format", "json", *args])
    return result.exit_code, json.loads(result.stdout)


def edit(path, contains, change):
    text = path.read_text("utf-8")
    [block] = [b for b in read_parallel(text) if not b.same and contains in b.source]
    path.write_text(text.replace(block.english, change(block.english), 1), "utf-8")


def of(data, check_id, severity=None):
    return [f for f in data["findings"] if f["check"] == check_id
            and (severity is None or f["severity"] == severity)]


def test_fresh_translation_checks_clean(runner, translated):
    code, data = check(runner)
    assert code == 0
    assert data["summary"]["error"] == 0 and data["summary"]["warning"] == 0
    assert data["summary"]["translations"] == 2


def test_each_planted_problem_is_one_finding_naming_the_place(runner, translated):
    a, b = translated / "notes" / "a.zh-en.md", translated / "notes" / "b.zh-en.md"
    edit(a, "第二段", lambda en: en.replace("data parallelism", "data-parallel stuff"))
    # a forbid counts where its term is: 混合精度 is in 第一段, not in 第三段
    edit(a, "第一段", lambda en: en + " With hybrid precision.")
    edit(a, "第三段", lambda en: en + " Not hybrid precision here.")
    edit(a, "# 混合精度推理", lambda en: en + " 中文")
    edit(b, "第一段", lambda en: en.replace("First", "Firstly"))
    code, data = check(runner)
    assert code == 1
    # each finding points at the English to edit, in the parallel file, and names the source
    lines = a.read_text("utf-8").split("\n")
    [missing] = of(data, "term-missing")
    assert (missing["file"], missing["segment"]) == ("notes/a.zh-en.md", "b3")
    assert "data-parallel stuff" in lines[missing["line"] - 1]
    assert (missing["note"], missing["note_line"]) == ("notes/a.md", 5)
    assert missing["en"] == "data parallelism" and "data-parallel stuff" in missing["english"]
    assert missing["source"] == "第二段：数据并行。"
    [forbidden] = of(data, "term-forbidden")
    assert (forbidden["file"], forbidden["note"], forbidden["note_line"]) == (
        "notes/a.zh-en.md", "notes/a.md", 3)
    line = lines[forbidden["line"] - 1]
    assert line[forbidden["column"] - 1:].startswith("hybrid precision")
    assert "'hybrid precision' is forbidden for 混合精度" in forbidden["message"]
    [left] = of(data, "untranslated")
    assert (left["file"], left["note_line"], left["chinese"]) == ("notes/a.zh-en.md", 1, ["中文"])
    assert lines[left["line"] - 1].endswith(" 中文")
    [diverging] = of(data, "inconsistent", "warning")
    assert "translated 2 ways" in diverging["message"]
    assert diverging["file"] in ("notes/a.zh-en.md", "notes/b.zh-en.md")
    assert any(p.startswith("notes/a.md:3") for p in diverging["places"])
    assert any(p.startswith("notes/b.md:3") for p in diverging["places"])
    # `edited` for the two edits that pass; the three that fail are their errors (one finding
    # per cause)
    assert sorted((f["file"], f["segment"]) for f in of(data, "edited")) == [
        ("notes/a.zh-en.md", "b4"), ("notes/b.zh-en.md", "b2")]
    assert of(data, "protected-changed") == []
    # the table shows each, truncated
    result = runner.invoke(app, ["glossary", "check"])
    assert result.exit_code == 1
    for check_id in ("term-missing", "term-forbidden", "untranslated", "inconsistent"):
        assert check_id in result.stdout


def test_protected_span_changed(runner, translated):
    edit(translated / "notes" / "a.zh-en.md", "第三段",
         lambda en: en.replace("2.7", "2,7").replace("`max_batch_size`", "`max batch size`"))
    code, data = check(runner)
    [f] = of(data, "protected-changed")
    assert f["severity"] == "error" and f["missing"] == [
        "inline code 'max_batch_size' lost", "inline code 'max batch size' added"]
    assert code == 1           # an error, as `zhen translate` reports the same edit (edit-invalid)


def test_a_changed_glossary_entry_is_one_stale_finding_not_an_error_per_block(runner, translated):
    """The notes are as translated; an entry's English changed. The machine English of every
    block using it is pending (``zhen translate`` rewrites it), so the check says so once
    per note, at a real line, as a warning: no term-missing error for each of those blocks
    (one `zhen translate` fixes them all), and no "line ?"."""
    glossary = translated / "glossary.yaml"
    glossary.write_text(glossary.read_text("utf-8").replace("en: mixed precision",
                                                            "en: mixed-precision arithmetic"),
                        "utf-8")
    code, data = check(runner)
    assert of(data, "term-missing") == []
    stales = {f["file"]: f for f in of(data, "stale")}
    assert set(stales) == {"notes/a.md", "notes/b.md"}
    for f in stales.values():
        assert "use a glossary entry that changed" in f["message"]
        assert "?" not in f["message"] and f["line"] == 3
    assert code == 0
    runner.invoke(app, ["translate", "notes/"])
    code, data = check(runner)
    assert of(data, "stale") == [] and of(data, "term-missing") == []


def test_stale_when_the_note_changes(runner, translated):
    note = translated / "notes" / "a.md"
    note.write_text(note.read_text("utf-8").replace("第二段：数据并行。", "第二段：数据并行和模型并行。")
                    + "\n第四段：新加的。\n", "utf-8")
    code, data = check(runner)
    # one cause, one finding: the note changed since it was translated (a changed block and
    # a new one), at the first changed line
    [stale] = of(data, "stale")
    assert (stale["file"], stale["line"], stale["lines"]) == ("notes/a.md", 5, [5, 9])
    assert "2 block(s) of notes/a.md changed, were added" in stale["message"]
    assert "run `zhen translate notes/a.md`" in stale["message"]
    runner.invoke(app, ["translate", "notes/"])
    assert of(check(runner)[1], "stale") == []


def test_list_checks_has_the_translation_checks(runner):
    result = runner.invoke(app, ["glossary", "check", "--list-checks", "--format", "json"])
    checks = {c["id"]: c for c in json.loads(result.stdout)}
    for check_id, severity in (("term-missing", "error"), ("term-forbidden", "error"),
                               ("untranslated", "error"), ("protected-changed", "error"),
                               ("inconsistent", "warning"), ("stale", "warning"),
                               ("edited", "info")):
        assert checks[check_id]["severity"] == severity and checks[check_id]["title"]


# ------------------------------------------------------------------ unrendered pieces
RARE = "\u3400"     # 㐀: CJK (extension A) and not in CC-CEDICT, so the gloss cannot render it
HOSTILE = ["㐀", "a --> b", "--", "x>y, z", "100%", "<!-- c -->", "é 空 格\n", "key=value\"'&"]


def _leaf(unrendered):
    from zhenglossary.render import LeafText

    return LeafText(1, "paragraph", 3, 3, "第一段，甲。\n", "First paragraph.\n", True,
                    unrendered=unrendered)


def test_unrendered_pieces_round_trip_through_the_en_marker():
    from zhenglossary.parallel import render_parallel

    text = render_parallel([_leaf(HOSTILE)], "n.md", "gloss")
    [marker] = [line for line in text.split("\n") if line.startswith("<!-- zhen:en 1 ")]
    assert marker.count("-->") == 1 and marker.endswith(" -->") and ">" not in marker[:-3]
    assert "--" not in marker[4:-3] and "unrendered=㐀," in marker      # Chinese stays readable
    [block] = read_parallel(text)
    assert block.unrendered == HOSTILE
    assert block.english == "First paragraph." and not block.edited


def test_a_parallel_file_without_unrendered_reads_as_none():
    from zhenglossary.parallel import render_parallel

    text = render_parallel([_leaf([])], "n.md", "gloss")
    assert "unrendered" not in text
    [block] = read_parallel(text)
    assert block.unrendered == []
    old = "<!-- zhen:src 4 L9 sha=abc -->\n甲。\n<!-- zhen:en 4 sha=def status=approved -->\nA.\n"
    [block] = read_parallel(old)                       # a version 1 file: approved is edited
    assert block.unrendered == [] and block.status == "edited"


def test_unrendered_marker_property():
    from hypothesis import given, settings, strategies as st

    from zhenglossary.parallel import decode_pieces, encode_pieces

    @settings(max_examples=200, deadline=None)
    @given(st.lists(st.text(min_size=1, max_size=12), max_size=5))
    def prop(pieces):
        value = encode_pieces(pieces)
        assert not any(ch.isspace() for ch in value) and "-" not in value and ">" not in value
        assert decode_pieces(value) == pieces

    prop()


def test_unrendered_piece_is_a_check_finding_at_the_parallel_line(runner, tmp_path, monkeypatch):
    root = translated_project(runner, tmp_path, monkeypatch, {
        "r.md": "# 说明\n\n- 第一项正常。\n- 我们在集群上测试" + RARE + "算法的性能。\n"})
    parallel = root / "notes" / "r.zh-en.md"
    [block] = [b for b in read_parallel(parallel.read_text("utf-8")) if RARE in b.source]
    assert block.unrendered == [RARE]
    code, data = check(runner)
    assert code == 0                                   # a warning, not an error
    [finding] = of(data, "unrendered")
    assert finding["file"] == "notes/r.zh-en.md" and finding["line"] == block.en_line
    assert finding["severity"] == "warning" and finding["pieces"] == [RARE]
    assert finding["note"] == "notes/r.md" and finding["note_line"] == 4
    assert RARE in finding["message"]
    # zhen translate (here from memory) reports it at the same place, once for the block
    result = runner.invoke(app, ["translate", "notes/", "--format", "json"])
    assert result.exit_code == 0, result.output
    [at_translate] = [f for f in json.loads(result.stdout)["findings"] if f["check"] == "unrendered"]
    assert (at_translate["file"], at_translate["line"]) == ("notes/r.zh-en.md", block.en_line)
    assert at_translate["note_line"] == 4 and at_translate["pieces"] == [RARE]
    result = runner.invoke(app, ["glossary", "check", "--format", "concise"])
    assert f"notes/r.zh-en.md:{block.en_line}:1: warning unrendered " in result.stdout
    # once a person edits that English, it is theirs: no longer reported
    edit(parallel, RARE, lambda en: en.replace("algorithm", "the rare-glyph algorithm"))
    assert not of(check(runner)[1], "unrendered")


def test_chinese_the_source_protects_is_not_left_untranslated(runner, tmp_path, monkeypatch):
    """A link title, math, inline code and an image title in Chinese are copied byte for
    byte (they are protected), so they are not "Chinese left in the English"."""
    note = ("# 野外记录\n\n"
            "岩层走向见[地质图](https://maps.example.org/g1 \"区域地质图\")，"
            "倾角$\\theta_{\\text{倾}}$约为三十度，样品编号为`岩-07`。\n\n"
            "![剖面](figs/section.png \"剖面示意\")\n")
    project = translated_project(runner, tmp_path, monkeypatch, {"field.md": note})
    code, data = check(runner)
    assert not of(data, "untranslated"), of(data, "untranslated")
    assert code == 0
    edit(project / "notes" / "field.zh-en.md", "岩层走向", lambda en: en + " 倾角")
    code, data = check(runner)
    [left] = of(data, "untranslated")
    assert code == 1 and left["chinese"] == ["倾角"]


def test_a_list_nested_with_tabs_is_no_protected_change(runner, tmp_path, monkeypatch):
    """issue 22: a tab-indented nested list item, read back pair by pair, parses as the list
    item it is in the note, not as indented code (no protected-changed on machine English)."""
    translated_project(runner, tmp_path, monkeypatch, {"a.md": (
        "# 列表\n\n-\t第一项很快\n\t-\t嵌套的第二项\n\t\t-\t更深的第三项\n-\t第四项\n\n1.\t编号的一项\n")})
    code, data = check(runner)
    assert code == 0, data
    assert [f["check"] for f in data["findings"] if f["severity"] != "info"] == []


QUOTED_SHAPES = [
    # a paragraph continuing a list item inside a quote, four spaces after the marker
    "> 要点如下：\n>\n> 1. 第一步先读取配置；\n>    - 配置文件放在根目录。\n>\n>     这一段接在第一步后面，缩进了四个空格。\n",
    # two quotes deep, the item's paragraph indented under the bullet
    "> > 引用里的引用：\n> >\n> > - 观测站每小时上传一次数据。\n> >\n> >     补充说明：断网时先缓存在本地。\n",
    # a quoted item with a tab after the marker
    ">\t- 用户访谈记录在附录里；\n>\n>\t  访谈对象共有十二人，`n=12`。\n",
]


def test_a_block_inside_a_quote_is_read_as_it_is_inside_it(runner, tmp_path, monkeypatch):
    """A block read back pair by pair inside its quote: ``>     text`` continuing a list
    item is that item's paragraph (as in the note), not indented code — and a real change
    in such a block is still found."""
    note = "# 记录\n\n" + "\n另一段话。\n\n".join(QUOTED_SHAPES) + "\n最后一段。\n"
    project = translated_project(runner, tmp_path, monkeypatch, {"q.md": note})
    code, data = check(runner)
    assert [f for f in data["findings"] if f["severity"] != "info"] == [], data
    for shape in QUOTED_SHAPES:
        last = [line for line in shape.splitlines() if line.strip("> \t")][-1]
        edit(project / "notes" / "q.zh-en.md", last.lstrip("> \t")[:4],
             lambda en: en.rstrip("\n") + " `added()`\n")
    code, data = check(runner)
    assert code == 1 and len(of(data, "protected-changed")) == len(QUOTED_SHAPES), data
