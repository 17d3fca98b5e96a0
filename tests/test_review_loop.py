"""The review loop as a user runs it: translate, edit the English (in x.zh-en.md or in
x.en.md), mark blocks reviewed, change the note, translate again. Every scenario of the
issue that broke it, through the CLI, with exact exit codes and messages."""

from __future__ import annotations

import re

import pytest

from conftest import make_project, write, zhen
from test_review import browser, visible  # noqa: F401  (the headless Chromium fixture)
from zhenglossary.document import block_hash
from zhenglossary.parallel import read_parallel_file
from zhenglossary.textutil import has_cjk

GLOSSARY = """\
source: zh
target: en
terms:
  - zh: 日志
    en: log
  - zh: 范围查询
    en: range query
  - zh: 叶子节点
    en: leaf node
  - zh: 磁盘
    en: disk
"""

NOTE = """# 存储引擎笔记

B树把键按顺序存放在页中，每个节点可以有很多子节点。

写入时先追加到日志，再批量合并到磁盘上的有序文件。

## 查询

范围查询沿着叶子节点的链表向后扫描，代价与结果大小成正比。

```sql
SELECT * FROM t WHERE k BETWEEN 1 AND 9;
```

最后一段说明压缩的时机。
"""

EDIT = "Writes go to the log first, then are merged into sorted files on disk in batches."
SCAN = "A range query scans forward along the linked list of leaf node pages."


@pytest.fixture
def proj(tmp_path, monkeypatch):
    return make_project(tmp_path, monkeypatch, {"db.md": NOTE}, glossary=GLOSSARY)


def translate(runner, *extra):
    return zhen(runner, "translate", "notes/", "--format", "json", *extra)


def paths(root):
    notes = root / "notes"
    return notes / "db.md", notes / "db.zh-en.md", notes / "db.en.md"


def parallel(root):
    return read_parallel_file(paths(root)[1].read_text("utf-8"))


def block(root, contains):
    [b] = [b for b in parallel(root).blocks if not b.same and contains in b.source]
    return b


def edit(root, contains, english):
    par = paths(root)[1]
    text = par.read_text("utf-8")
    target = block(root, contains)
    par.write_text(text.replace("\n" + target.english + "\n", "\n" + english + "\n", 1), "utf-8")


def change_note(root, old, new):
    note = paths(root)[0]
    text = note.read_text("utf-8")
    assert old in text
    note.write_text(text.replace(old, new, 1), "utf-8")


def english_of(root) -> str:
    return paths(root)[2].read_text("utf-8")


def of(data, check_id):
    return [f for f in data["findings"] if f["check"] == check_id]


def edited_once(root, runner):
    assert translate(runner)[0] == 0
    edit(root, "写入时", EDIT)
    code, data = translate(runner)
    assert code == 0 and data["summary"]["blocks"]["edited"] == 1
    assert english_of(root).count(EDIT) == 1


# ------------------------------------------------------------------ edits stay with their block

def test_heading_inserted_and_the_edited_block_changed_in_one_go(runner, proj):
    edited_once(proj, runner)
    change_note(proj, "写入时先追加到日志，再批量合并到磁盘上的有序文件。",
                "## 背景\n\n写入时先追加到日志，再批量合并到闪存上的有序文件。")
    code, data = translate(runner)
    assert code == 0 and data["summary"]["blocks"]["stale"] == 1
    heading = block(proj, "## 背景")
    assert heading.status == "" and EDIT not in heading.english         # not the edit's home
    stale = block(proj, "闪存")
    assert stale.status == "stale" and stale.was.english == EDIT
    assert stale.was.source == "写入时先追加到日志，再批量合并到磁盘上的有序文件。"
    english = english_of(proj)
    assert EDIT not in english and not has_cjk(english)     # machine English of the new source
    [finding] = of(data, "stale")
    assert finding["file"] == "notes/db.zh-en.md" and finding["note_line"] == 7
    assert finding["message"].startswith("block 4: its source changed after its English was "
                                         "edited by hand;")
    # check agrees, and never calls x.en.md "changed by hand"
    code, data = zhen(runner, "glossary", "check", "--format", "json")
    assert code == 0
    assert not of(data, "english-edited") and not of(data, "english-conflict")
    assert [f["check"] for f in data["findings"] if f["severity"] != "info"] == ["stale"]
    code, data = zhen(runner, "status", "--format", "json")
    assert (code, data["total"]["stale"], data["total"]["edited"]) == (0, 1, 0)
    # adopting it: the reviewer fixes the English; it is theirs again
    edit(proj, "闪存", EDIT.replace("disk", "flash"))
    code, data = translate(runner)
    assert code == 0 and data["summary"]["blocks"]["edited"] == 1
    assert block(proj, "闪存").was is None
    assert EDIT.replace("disk", "flash") in english_of(proj)


def test_paragraph_inserted_above_leaves_the_edit_where_it_was(runner, proj):
    edited_once(proj, runner)
    change_note(proj, "写入时先追加到日志", "这一段是后来补充的背景说明。\n\n写入时先追加到日志")
    code, data = translate(runner)
    assert code == 0
    assert block(proj, "写入时").english == EDIT and block(proj, "写入时").status == "edited"
    assert EDIT not in block(proj, "后来补充").english
    english = english_of(proj)
    assert english.count(EDIT) == 1 and not has_cjk(english)
    code, data = zhen(runner, "glossary", "check", "--format", "json")
    assert code == 0 and data["summary"]["error"] == 0


def test_heading_deleted_and_block_changed_keeps_the_edit_as_stale(runner, proj):
    assert translate(runner)[0] == 0
    edit(proj, "范围查询", SCAN)
    assert translate(runner)[0] == 0
    change_note(proj, "## 查询\n\n范围查询沿着叶子节点的链表向后扫描", "范围查询沿着叶子节点的链表向前扫描")
    code, data = translate(runner)
    assert code == 0
    stale = block(proj, "向前扫描")
    assert stale.status == "stale" and stale.was.english == SCAN
    assert len(of(data, "stale")) == 1 and not of(data, "edit-orphaned")


def test_a_deleted_block_keeps_its_edit_at_the_end_until_a_person_drops_it(runner, proj):
    edited_once(proj, runner)
    change_note(proj, "写入时先追加到日志，再批量合并到磁盘上的有序文件。\n\n", "")
    code, data = translate(runner)
    assert code == 0
    [orphaned] = of(data, "edit-orphaned")
    assert orphaned["severity"] == "warning" and orphaned["file"] == "notes/db.zh-en.md"
    assert orphaned["message"] == (
        "the block your English was for (notes/db.md:5 before this change) is no longer in "
        "the note; the English is kept at the end of db.zh-en.md — copy what you need into a "
        "block, then delete it there")
    text = paths(proj)[1].read_text("utf-8")
    assert text.split("\n")[orphaned["line"] - 1] == EDIT
    assert "<!-- zhen:orphans -->" in text and EDIT not in english_of(proj)
    [orphan] = parallel(proj).orphans
    assert orphan.source.startswith("写入时") and orphan.lines == "L5"
    # kept (and said) on the next run; counted by `zhen status` and `glossary check`
    code, data = translate(runner)
    assert code == 0 and len(of(data, "edit-orphaned")) == 1 and parallel(proj).orphans
    code, data = zhen(runner, "status", "--format", "json", "--fail-on", "orphaned")
    assert (code, data["total"]["orphaned"]) == (1, 1)
    code, data = zhen(runner, "glossary", "check", "--format", "json")
    assert [f["check"] for f in data["findings"] if f["severity"] == "warning"] == ["edit-orphaned"]
    # the deletion undone: the edit is back on its block
    paths(proj)[0].write_text(NOTE, "utf-8")
    code, data = translate(runner)
    assert code == 0 and not of(data, "edit-orphaned") and not parallel(proj).orphans
    assert block(proj, "写入时").english == EDIT and english_of(proj).count(EDIT) == 1


def test_twins_keep_their_own_edits(runner, proj):
    twin = "同一句话出现了两次。\n\n"
    paths(proj)[0].write_text(NOTE.replace("## 查询", twin + "中间隔着一段。\n\n" + twin + "## 查询"),
                              "utf-8")
    assert translate(runner)[0] == 0
    par = paths(proj)[1]
    text = par.read_text("utf-8")
    twins = [b for b in parallel(proj).blocks if "两次" in b.source]
    assert len(twins) == 2
    first, second = "The first twin, by hand.", "The second twin, by hand."
    head, _, tail = text.partition("\n" + twins[0].english + "\n")
    mid, _, rest = tail.partition("\n" + twins[1].english + "\n")
    par.write_text(head + "\n" + first + "\n" + mid + "\n" + second + "\n" + rest, "utf-8")
    assert translate(runner)[0] == 0
    # a paragraph inserted before both, and the block between them changed
    change_note(proj, "# 存储引擎笔记\n", "# 存储引擎笔记\n\n新的开头。\n")
    change_note(proj, "中间隔着一段。", "中间隔着另一段。")
    assert translate(runner)[0] == 0
    got = [b.english for b in parallel(proj).blocks if "两次" in b.source]
    assert got == [first, second]
    english = english_of(proj)
    assert english.index(first) < english.index(second) and english.count(first) == 1


def test_a_reverted_parallel_file_is_the_truth(runner, proj):
    assert translate(runner)[0] == 0
    par = paths(proj)[1]
    machine = par.read_text("utf-8")
    before = english_of(proj)
    edit(proj, "写入时", EDIT)
    assert translate(runner)[0] == 0 and EDIT in english_of(proj)
    par.write_text(machine, "utf-8")                      # the person takes it back
    code, data = translate(runner)
    assert code == 0 and data["summary"]["blocks"]["edited"] == 0
    assert english_of(proj) == before and EDIT not in par.read_text("utf-8")
    code, data = zhen(runner, "status", "--format", "json")
    assert data["total"]["edited"] == 0 and data["total"]["machine"] == 6


# ------------------------------------------------------------------ x.en.md edits

def test_an_edit_in_the_english_file_is_carried_into_the_parallel_file(runner, proj):
    assert translate(runner)[0] == 0
    en = paths(proj)[2]
    machine = block(proj, "写入时").english
    en.write_text(en.read_text("utf-8").replace(machine, EDIT), "utf-8")
    code, data = zhen(runner, "glossary", "check", "--format", "json")
    [said] = of(data, "english-edited")
    assert said["severity"] == "info" and "block(s) 3" in said["message"]
    code, data = translate(runner)
    assert code == 0
    [carried] = of(data, "english-carried")
    assert carried["file"] == "notes/db.en.md" and carried["blocks"] == [3]
    assert carried["message"] == ("changed by hand: block(s) 3 taken into db.zh-en.md as edits "
                                  "(the parallel file is where zhen keeps them)")
    assert block(proj, "写入时").english == EDIT and block(proj, "写入时").status == "edited"
    assert english_of(proj).count(EDIT) == 1
    code, data = translate(runner)
    assert code == 0 and not of(data, "english-carried")       # taken in once


FRONT_NOTE = """---
title: 流域水文笔记
---

# 流域

汇流时间很长。
"""


@pytest.fixture
def fm_proj(tmp_path, monkeypatch):
    """A hydrology note opening with YAML front matter, translated with the gloss engine
    (so x.en.md has front matter, then zhen's header, then the gloss banner)."""
    root = tmp_path / "fm"
    write(root / "glossary.yaml", "terms:\n  - zh: 流域\n    en: catchment\n")
    write(root / "notes" / "fm.md", FRONT_NOTE)
    monkeypatch.chdir(root)
    monkeypatch.setenv("ZHEN_HOME", str(root / ".zhen"))
    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(tmp_path / "no-models"))
    return root


def test_an_edit_in_the_english_file_of_a_note_with_front_matter_is_carried(runner, fm_proj):
    assert translate(runner, "--engine", "gloss")[0] == 0
    en = fm_proj / "notes" / "fm.en.md"
    text = en.read_text("utf-8")
    assert text.startswith("---\ntitle: 流域水文笔记\n---\n<!-- zhen: English of ")
    [machine] = [line for line in text.split("\n") if line.startswith("Converge")]
    en.write_text(text.replace(machine, "Concentration time is long."), "utf-8")
    code, data = zhen(runner, "glossary", "check", "--format", "json")
    assert not of(data, "english-conflict") and "block(s) 3" in of(data, "english-edited")[0]["message"]
    code, data = translate(runner, "--engine", "gloss")
    assert code == 0 and of(data, "english-carried")[0]["blocks"] == [3]
    parallel = read_parallel_file((fm_proj / "notes" / "fm.zh-en.md").read_text("utf-8"))
    [edited] = [b for b in parallel.blocks if b.index == 3]
    assert edited.english == "Concentration time is long." and edited.status == "edited"
    assert en.read_text("utf-8").count("Concentration time is long.") == 1


def test_a_deleted_gloss_banner_is_written_again_and_said_with_or_without_an_edit(
        runner, fm_proj):
    """Finding 17: the banner deleted from x.en.md together with a block's edit came back
    without a word. It comes back (it says what this English is), in one warning at its
    line, whether a block was edited too or not; blank lines changed between blocks are
    said as such."""
    from zhenglossary.parallel import GLOSS_BANNER

    assert translate(runner, "--engine", "gloss")[0] == 0
    en = fm_proj / "notes" / "fm.en.md"
    text = en.read_text("utf-8")
    [machine] = [line for line in text.split("\n") if line.startswith("Converge")]
    en.write_text(text.replace(GLOSS_BANNER + "\n\n", "").replace(
        machine, "Concentration time is long."), "utf-8")
    code, result = zhen(runner, "translate", "notes/", "--engine", "gloss")
    assert code == 0, result.output
    assert ("warning   output-replaced  notes/fm.en.md:5  the \"Dictionary gloss\" banner was "
            "deleted by hand; zhen writes it again while this English is a dictionary gloss, so "
            "every reader knows what it is — `zhen model install` (machine translation) makes "
            "it go") in result.stdout
    assert "english-carried" in result.stdout
    after = en.read_text("utf-8")
    assert after.count(GLOSS_BANNER) == 1 and after.count("Concentration time is long.") == 1
    # the banner alone
    en.write_text(after.replace(GLOSS_BANNER + "\n\n", ""), "utf-8")
    code, data = translate(runner, "--engine", "gloss")
    assert code == 0 and [f["message"][:40] for f in of(data, "output-replaced")] == [
        'the "Dictionary gloss" banner was delete']
    assert not of(data, "english-carried")
    # a blank line added between two blocks, and a block edited
    text = en.read_text("utf-8")
    en.write_text(text.replace("Concentration time is long.", "Concentration time: long.\n"),
                  "utf-8")
    code, data = translate(runner, "--engine", "gloss")
    assert code == 0 and of(data, "english-carried")[0]["blocks"] == [3]
    assert [f["message"] for f in of(data, "output-replaced")] == [
        "changed by hand between blocks (blank lines, line endings, the banner); only the "
        "blocks are kept, in fm.zh-en.md, so those changes are replaced"]
    after = en.read_text("utf-8")
    assert after.split("\n", 4)[4] == text.replace("Concentration time is long.",
                                                   "Concentration time: long.").split("\n", 4)[4]


def test_a_front_matter_edit_in_the_english_file_is_refused_naming_the_front_matter(
        runner, fm_proj):
    """x.en.md's front matter is the note's, copied as it is: a change to it is made in
    the note, and zhen says so at its line."""
    assert translate(runner, "--engine", "gloss")[0] == 0
    en = fm_proj / "notes" / "fm.en.md"
    changed = en.read_text("utf-8").replace("title: 流域水文笔记", "title: Catchment notes")
    en.write_text(changed, "utf-8")
    code, result = zhen(runner, "translate", "notes/", "--engine", "gloss")
    assert code == 1
    assert ("error: notes/fm.en.md:1: changed by hand since zhen wrote it, and the front "
            "matter, which zhen copies from the note as it is, was changed; make that change "
            "in the note") in result.stderr
    assert en.read_text("utf-8") == changed


def test_a_change_to_the_english_file_zhen_cannot_carry_is_refused(runner, proj):
    assert translate(runner)[0] == 0
    en = paths(proj)[2]
    changed = en.read_text("utf-8").replace("\n## ", "\nA paragraph someone added.\n\n## ")
    en.write_text(changed, "utf-8")
    par_before = paths(proj)[1].read_bytes()
    code, result = zhen(runner, "translate", "notes/")
    assert code == 1
    line = changed.split("\n").index("A paragraph someone added.") + 1
    assert (f"error: notes/db.en.md:{line}: changed by hand since zhen wrote it, and blocks were "
            "added or removed by hand, so zhen cannot tell which English belongs to which block; "
            "zhen does not write over it — make the change in db.zh-en.md instead (or delete "
            "db.en.md), or pass --force to replace it; nothing was written for notes/db.md"
            ) in result.stderr
    assert en.read_text("utf-8") == changed and paths(proj)[1].read_bytes() == par_before
    code, data = zhen(runner, "glossary", "check", "--format", "json")
    assert code == 1 and of(data, "english-conflict")[0]["line"] == line
    code, data = translate(runner, "--force")
    assert code == 0 and "someone added" not in english_of(proj)
    assert of(data, "output-replaced")[0]["severity"] == "warning"


def test_a_file_zhen_did_not_write_is_never_replaced(runner, proj):
    en = paths(proj)[2]
    en.write_text("# My own English version, written by hand\n", "utf-8")
    code, result = zhen(runner, "translate", "notes/")
    assert code == 1
    assert ("error: notes/db.en.md:1: was not written by zhen (no `<!-- zhen: English of … -->` "
            "header); zhen does not write over it — move it away, or pass --force to replace it; "
            "nothing was written for notes/db.md") in result.stderr
    assert en.read_text("utf-8") == "# My own English version, written by hand\n"
    assert not paths(proj)[1].exists()
    paths(proj)[1].write_text("my own parallel notes\n", "utf-8")
    en.unlink()
    code, result = zhen(runner, "translate", "notes/")
    assert code == 1 and "notes/db.zh-en.md:1: was not written by zhen" in result.stderr
    assert paths(proj)[1].read_text("utf-8") == "my own parallel notes\n"


def test_two_notes_of_one_name_get_their_own_outputs_under_out_dir(runner, proj):
    """Finding 3: `translate notes/a.md notes/sub/a.md --out-dir out3` was refused, and the
    advice (separate runs) let the second note take over the first's outputs and drop its
    review marks. Under --out-dir outputs mirror the project, however the notes are named,
    one run or two."""
    write(proj / "notes" / "sub" / "db.md", "第二篇笔记的正文。\n")
    code, data = zhen(runner, "translate", "notes/db.md", "--out-dir", "out", "--format", "json")
    assert code == 0
    first = proj / "out" / "notes" / "db.zh-en.md"
    assert zhen(runner, "mark", "notes/db.md", "--all", "--out-dir", "out")[0] == 0
    marked = first.read_text("utf-8")
    assert marked.count("status=reviewed") == 7       # the help line and 6 blocks
    code, data = zhen(runner, "translate", "notes/sub/db.md", "--out-dir", "out", "--format",
                      "json")
    assert code == 0 and data["files"][0]["parallel"] == "out/notes/sub/db.zh-en.md"
    code, data = zhen(runner, "translate", "notes/db.md", "notes/sub/db.md", "--out-dir", "out",
                      "--format", "json")
    assert code == 0 and first.read_text("utf-8") == marked
    assert 'source="../../notes/db.md"' in marked.split("\n")[0]
    assert "English of ../../notes/db.md, " in (proj / "out" / "notes" / "db.en.md").read_text(
        "utf-8").split("\n")[0]


@pytest.fixture
def outside(proj):
    """Two notes of one name outside the project (no glossary above them)."""
    for k, folder in enumerate(("d1", "d2")):
        write(proj.parent / "elsewhere" / folder / "x.md", f"第{k + 1}篇。\n\n都在项目之外。\n")
    return proj.parent / "elsewhere"


def test_two_notes_writing_one_output_stop_the_run_before_anything_is_written(
        runner, proj, outside):
    code, result = zhen(runner, "translate", "../elsewhere/d1/x.md", "../elsewhere/d2/x.md",
                        "--out-dir", "out")
    assert code == 2 and not (proj / "out").exists()
    assert result.stderr.strip() == (
        "error: ../elsewhere/d1/x.md and ../elsewhere/d2/x.md would both be written to "
        "out/x.en.md: under --out-dir a note outside the project (., the folder of "
        "glossary.yaml) goes by its name alone; translate each with its own --out-dir, or "
        "from a project that holds them")


def test_outputs_of_another_note_are_never_taken_over(runner, proj, outside):
    """Run by run, the second note of one name outside the project is refused (exit 1,
    naming the note the outputs are for), and the first's review marks stay; --force
    replaces them, said."""
    assert zhen(runner, "translate", "../elsewhere/d1/x.md", "--out-dir", "out")[0] == 0
    assert zhen(runner, "mark", "../elsewhere/d1/x.md", "1", "--out-dir", "out")[0] == 0
    par = proj / "out" / "x.zh-en.md"
    before = {p.name: p.read_bytes() for p in (proj / "out").iterdir()}
    code, result = zhen(runner, "translate", "../elsewhere/d2/x.md", "--out-dir", "out")
    assert code == 1
    assert result.stderr.strip().endswith(
        "error: out/x.zh-en.md:1: holds the outputs of ../elsewhere/d1/x.md (its header names "
        "it), which is still there; zhen does not write those of ../elsewhere/d2/x.md over them "
        "— translate ../elsewhere/d2/x.md with another --out-dir (or move x.zh-en.md away, or "
        "pass --force to replace it); nothing was written for ../elsewhere/d2/x.md")
    assert {p.name: p.read_bytes() for p in (proj / "out").iterdir()} == before
    assert "status=reviewed" in par.read_text("utf-8")
    # its x.en.md alone says whose it is too
    par.unlink()
    code, result = zhen(runner, "translate", "../elsewhere/d2/x.md", "--out-dir", "out")
    assert code == 1 and "out/x.en.md:1: holds the outputs of ../elsewhere/d1/x.md" in result.stderr
    code, data = zhen(runner, "translate", "../elsewhere/d2/x.md", "--out-dir", "out", "--force",
                      "--format", "json")
    assert code == 0
    assert [f["file"] for f in data["findings"] if f["check"] == "output-replaced"] == [
        "out/x.en.md"]
    assert "第2篇" in par.read_text("utf-8")


# ------------------------------------------------------------------ review state

def test_marked_reviewed_blocks_are_kept_and_never_sent_to_the_engine(runner, proj):
    code, data = translate(runner, "--no-memory")
    all_calls = data["summary"]["engine_calls"]
    code, result = zhen(runner, "mark", "notes/db.md", "2", "b3", "5")
    assert code == 0 and result.stdout.strip() == \
        "marked 3 block(s) reviewed in notes/db.zh-en.md: 2, 3, 5"
    assert [b.index for b in parallel(proj).blocks if b.status == "reviewed"] == [2, 3, 5]
    code, data = zhen(runner, "status", "--format", "json")
    assert data["notes"][0]["counts"] == {"machine": 3, "reviewed": 3, "edited": 0, "stale": 0,
                                          "invalid": 0, "pending": 0, "orphaned": 0}
    code, data = translate(runner, "--no-memory")
    assert code == 0 and data["summary"]["blocks"]["reviewed"] == 3
    assert data["summary"]["kept_by_person"] == 3 and data["summary"]["engine_calls"] < all_calls
    # a glossary entry the block uses changes: the review no longer holds
    glossary = proj / "glossary.yaml"
    glossary.write_text(GLOSSARY.replace("en: log", "en: write-ahead log"), "utf-8")
    code, data = translate(runner)
    assert code == 0 and data["summary"]["blocks"]["stale"] == 1
    stale = block(proj, "写入时")
    assert stale.status == "stale" and stale.was.status == "reviewed"
    assert "write-ahead log" in stale.english
    assert zhen(runner, "status", "--fail-on", "stale,invalid")[0] == 1
    # marking the stale block reviewed accepts its new machine English: mark says that the
    # quoted English it had goes at the next translate
    code, result = zhen(runner, "mark", "notes/db.md", str(stale.index))
    assert code == 0 and (f"warning: block {stale.index}: the English you had before its "
                          "source changed, quoted below it, goes at the next") in result.stderr
    assert block(proj, "写入时").status == "reviewed"
    # taking a review back, and what cannot be marked
    code, result = zhen(runner, "mark", "notes/db.md", "2", "--as", "machine")
    assert code == 0 and block(proj, "B树").status == ""
    code, result = zhen(runner, "mark", "notes/db.md", "4", "99")
    assert code == 1
    assert "warning: block 99: not marked — no such block in the parallel file" in result.stderr
    code, result = zhen(runner, "mark", "notes/db.md", "x1")
    assert code == 2 and "'x1' is not a block number; write 12 or b12" in result.stderr


def test_status_counts_each_note_and_the_total(runner, proj):
    write(proj / "notes" / "other.md", "另一篇笔记。\n\n还没有翻译。\n")
    assert zhen(runner, "translate", "notes/db.md")[0] == 0
    edit(proj, "写入时", EDIT)
    code, result = zhen(runner, "status")
    assert code == 0
    lines = [line.split() for line in result.stdout.strip().split("\n")]
    assert lines[0] == ["note", "machine", "reviewed", "edited", "stale", "invalid", "pending",
                        "orphaned"]
    assert lines[1] == ["notes/db.md", "5", "0", "1", "0", "0", "0", "0"]
    assert lines[2] == ["notes/other.md", "0", "0", "0", "0", "0", "2", "0"]
    assert lines[-1] == ["total", "5", "0", "1", "0", "0", "2", "0"]
    assert "warning: notes/other.md: not translated yet — run `zhen translate notes/other.md`" \
        in result.stderr
    change_note(proj, "最后一段", "最后的一段")
    code, data = zhen(runner, "status", "notes/db.md", "--format", "json", "--fail-on", "pending")
    assert code == 1 and data["total"]["pending"] == 1
    assert zhen(runner, "status", "--fail-on", "bogus")[0] == 2


# ------------------------------------------------------------------ a parallel file read with care

def _damage_en_marker(text, b):
    return text.replace(f"<!-- zhen:en {b.index} ", f"<!-- zhen:en {b.index} ", 1)


TOLERATED = {
    "trailing space after -->": lambda t, b: re.sub(rf"(<!-- zhen:en {b.index} [^\n]*-->)",
                                                    r"\1  ", t),
    "no-break space in a marker": lambda t, b: t.replace(f"<!-- zhen:en {b.index} ",
                                                         f"<!--\u00a0zhen:en {b.index}\u00a0", 1),
    "a BOM before the first marker": lambda t, b: "\ufeff" + t,
    "CRLF line endings": lambda t, b: t.replace("\n", "\r\n"),
}


@pytest.mark.parametrize("damage", sorted(TOLERATED))
def test_a_marker_read_tolerantly_keeps_the_edit(runner, proj, damage):
    edited_once(proj, runner)
    par = paths(proj)[1]
    par.write_bytes(TOLERATED[damage](par.read_text("utf-8"), block(proj, "写入时"))
                    .encode("utf-8"))
    code, data = translate(runner)
    assert code == 0 and data["summary"]["blocks"]["edited"] == 1
    assert english_of(proj).count(EDIT) == 1 and block(proj, "写入时").english == EDIT


def _drop_en(text, b):
    return re.sub(rf"<!-- zhen:en {b.index} [^\n]*-->\n", "", text, count=1)


def _drop_src(text, b):
    return re.sub(rf"<!-- zhen:src {b.index + 2} [^\n]*-->\n", "", text, count=1)


def _duplicate(text, b):
    start = text.index(f"<!-- zhen:src {b.index} ")
    end = text.index("<!-- zhen:", text.index(f"<!-- zhen:en {b.index} ") + 5)
    return text[:end] + text[start:end] + text[end:]


def _typo(text, b):
    return re.sub(rf"(<!-- zhen:en {b.index} [^\n]*?) -->", r"\1 status=reviwed -->", text, count=1)


REFUSED = {
    "a deleted en marker": (_drop_en, "block 3's source has no `<!-- zhen:en 3 … -->` marker "
                                      "after it (deleted?)"),
    "a deleted src marker": (_drop_src, "the English of block 5 has no `<!-- zhen:src 5 … -->` "
                                        "marker before it (deleted?)"),
    "a duplicated pair": (_duplicate, "block 3 appears twice (first at line"),
    "a status zhen does not know": (_typo, "status=reviwed is not one zhen knows"),
}


@pytest.mark.parametrize("damage", sorted(REFUSED))
def test_a_damaged_parallel_file_is_never_overwritten(runner, proj, damage):
    edited_once(proj, runner)
    par, en = paths(proj)[1], paths(proj)[2]
    fn, message = REFUSED[damage]
    par.write_text(fn(par.read_text("utf-8"), block(proj, "写入时")), "utf-8")
    before, english = par.read_bytes(), en.read_bytes()
    code, result = zhen(runner, "translate", "notes/")
    assert code == 1
    assert re.search(r"error: notes/db\.zh-en\.md:\d+: line \d+: ", result.stderr), result.stderr
    assert message in result.stderr and "nothing was written for notes/db.md" in result.stderr
    assert par.read_bytes() == before and en.read_bytes() == english
    code, data = zhen(runner, "glossary", "check", "--format", "json")
    assert code == 1 and message in of(data, "parallel-unreadable")[0]["message"]
    assert zhen(runner, "status")[0] == 1


def test_a_utf16_parallel_file_is_left_untouched(runner, proj):
    edited_once(proj, runner)
    par = paths(proj)[1]
    par.write_bytes(par.read_text("utf-8").encode("utf-16"))
    before = par.read_bytes()
    code, result = zhen(runner, "translate", "notes/")
    assert code == 1 and par.read_bytes() == before
    assert ("error: notes/db.zh-en.md: is UTF-16; zhen reads UTF-8 notes. Convert it with "
            "`iconv -f UTF-16 -t UTF-8 notes/db.zh-en.md > converted.md`, or pass --encoding "
            "utf-16; zhen keeps it untouched") not in result.stderr       # no advice for notes
    assert "zhen keeps it untouched — save it as UTF-8" in result.stderr


def test_one_bad_edit_costs_that_block_only(runner, proj):
    assert translate(runner)[0] == 0
    two = EDIT + "\n\nA second paragraph that the block never had."
    edit(proj, "写入时", two)
    code, data = translate(runner)
    assert code == 1
    [bad] = of(data, "edit-invalid")
    assert bad["file"] == "notes/db.zh-en.md" and "block structure" in bad["message"]
    english = english_of(proj)
    assert not has_cjk(english) and EDIT not in english       # the others English; machine here
    kept = block(proj, "写入时")
    assert kept.english == two and kept.status == "invalid"   # the person's text is kept
    code, data = zhen(runner, "status", "--format", "json", "--fail-on", "invalid")
    assert code == 1 and data["total"]["invalid"] == 1
    code, data = translate(runner)
    assert code == 1 and len(of(data, "edit-invalid")) == 1   # until it is fixed …
    edit(proj, "写入时", EDIT)
    code, data = translate(runner)
    assert code == 0 and english_of(proj).count(EDIT) == 1    # … then it is the person's


def test_review_page_filters_by_status_and_shows_what_a_stale_block_had(runner, proj):
    edited_once(proj, runner)
    change_note(proj, "磁盘上", "闪存上")
    assert translate(runner)[0] == 0
    assert zhen(runner, "mark", "notes/db.md", "2")[0] == 0
    code, _ = zhen(runner, "review", "--out", "review.html")
    assert code == 0
    page = (proj / "review.html").read_text("utf-8")
    for status in ("machine", "reviewed", "stale"):
        assert f'<option value="{status}">' in page
    assert 'data-status="stale"' in page and 'data-status="reviewed"' in page
    assert 'class="was"' in page and "磁盘上的有序文件" in page and EDIT in page
    assert "zhen mark notes/db.md" in page


def test_review_page_in_chromium_filters_by_status_and_builds_the_mark_command(runner, proj,
                                                                              browser):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    edited_once(proj, runner)
    change_note(proj, "磁盘上", "闪存上")
    assert translate(runner)[0] == 0
    assert zhen(runner, "review", "--out", "review.html")[0] == 0
    browser.get((proj / "review.html").as_uri())
    rows = browser.find_elements(By.CSS_SELECTOR, ".pair:not(.status-same)")
    Select(browser.find_element(By.ID, "f-status")).select_by_value("stale")
    [stale] = visible(browser, ".pair")
    was = stale.find_element(By.CSS_SELECTOR, ".was")
    assert was.is_displayed() and "磁盘上的有序文件" in was.text and EDIT in was.text
    assert "闪存上" in stale.find_element(By.CSS_SELECTOR, ".rows .src").text
    Select(browser.find_element(By.ID, "f-status")).select_by_value("machine")
    machine = visible(browser, ".pair")
    assert len(machine) == len(rows) - 1 and stale not in machine
    Select(browser.find_element(By.ID, "f-status")).select_by_value("")
    command = browser.find_element(By.CSS_SELECTOR, "#note-1 .mark-cmd")
    assert command.text == "zhen mark notes/db.md"
    for block_id in ("note-1-b2", "note-1-b5"):
        browser.find_element(By.CSS_SELECTOR, f"#{block_id} input.mark-box").click()
    assert command.text == "zhen mark notes/db.md 2 5"
    # the command, run, marks exactly those
    code, result = zhen(runner, *command.text.split()[1:])
    assert code == 0 and [b.index for b in parallel(proj).blocks if b.status == "reviewed"] == [2, 5]


def test_a_parallel_file_of_the_previous_version_keeps_its_edits(runner, proj):
    """Version 1 files said status=approved for an edit and kept a stale edit in the block
    itself; both are a person's English, kept."""
    assert translate(runner)[0] == 0
    par = paths(proj)[1]
    text = re.sub(r"<!-- zhen:parallel v\d+ ", "<!-- zhen:parallel v1 ", par.read_text("utf-8"))
    text = re.sub(r" (base|terms)=\S+", "", text)
    approved, stale = block(proj, "B树"), block(proj, "写入时")
    text = text.replace("\n" + approved.english + "\n", "\nKeys sit in order in B-tree pages.\n")
    text = re.sub(rf"(<!-- zhen:en {approved.index} sha=)\w+", r"\g<1>"
                  + block_hash(
                      "Keys sit in order in B-tree pages.") + " status=approved", text)
    text = text.replace("\n" + stale.english + "\n", "\n" + EDIT + "\n")
    text = re.sub(rf"(<!-- zhen:en {stale.index} sha=)\w+", r"\g<1>"
                  + block_hash(EDIT)
                  + " status=stale", text)
    par.write_text(text, "utf-8")
    code, data = translate(runner)
    assert code == 0
    assert block(proj, "B树").status == "edited"
    assert block(proj, "B树").english == "Keys sit in order in B-tree pages."
    kept = block(proj, "写入时")
    assert kept.status == "stale" and kept.was.english == EDIT


def test_a_block_rewritten_in_english_keeps_its_edit_as_an_orphan(runner, proj):
    edited_once(proj, runner)
    change_note(proj, "写入时先追加到日志，再批量合并到磁盘上的有序文件。",
                "Writes are appended to the log first.")        # nothing left to translate
    code, data = translate(runner)
    assert code == 0 and len(of(data, "edit-orphaned")) == 1
    assert [o.english for o in parallel(proj).orphans] == [EDIT]
    assert "Writes are appended to the log first." in english_of(proj)
    code, data = zhen(runner, "status", "--format", "json")
    assert data["total"]["orphaned"] == 1 and data["total"]["machine"] == 5


def test_a_change_to_the_chinese_copy_in_the_parallel_file_is_replaced_and_said_once(runner, proj):
    """The Chinese in x.zh-en.md is a copy of the note. A person who changes it there (a
    search-and-replace over the file) is told, once, that the change is replaced from the
    note and where to make it; an English edit made beside it is kept."""
    assert zhen(runner, "translate", "notes/db.md")[0] == 0
    par = paths(proj)[1]
    edit(proj, "写入时", EDIT)
    text = par.read_text("utf-8")
    src = block(proj, "写入时")
    par.write_text(text.replace(src.source, src.source.replace("写入", "写进"), 1), "utf-8")
    code, data = translate(runner)
    assert code == 0
    [said] = of(data, "source-edited")
    assert said["file"] == "notes/db.zh-en.md" and "make it in notes/db.md" in said["message"]
    assert "写进" not in par.read_text("utf-8")
    assert block(proj, "写入时").english == EDIT and block(proj, "写入时").status == "edited"
    code, data = translate(runner)
    assert code == 0 and of(data, "source-edited") == []
