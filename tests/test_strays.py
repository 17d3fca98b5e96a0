"""A note renamed or deleted (finding 4 of the second trial): its parallel file is left
behind with the review state nobody reads. Every command that reads a project names such a
file (``output-stray``) and what to do; a new note that continues it — no parallel file
yet, most of its blocks the stray's — takes its state in ``zhen translate`` and says so
(``state-adopted``), leaving the old files for the person to delete.

The property: random notes, random edits and reviews, then the note renamed (to another
name or folder) with random small changes. The state is carried exactly for the blocks
that stayed as they were, nothing of a person's stands on a block that changed, nothing is
lost, and the old files are never touched."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings, strategies as st

from conftest import make_project, write, zhen
from engines import BracketEngine
from test_review_loop_property import GLOSSARY, SENTENCES, _apply, notes
from zhenglossary.document import parse_document
from zhenglossary.parallel import read_parallel_file, set_status
from zhenglossary.render import english_body
from zhenglossary.translate import TranslateOptions, translate_paths


# ------------------------------------------------------------------ which note takes which


def test_a_note_takes_the_stray_it_holds_most_of_when_that_is_more_than_half():
    from zhenglossary.parallel.strays import adoptions

    strays = {"old": ["a", "b", "c", "d"], "other": ["x", "y"]}
    assert adoptions(strays, {"new": ["a", "b", "c", "z"]}) == {"new": "old"}
    assert adoptions(strays, {"new": ["a", "b", "z"]}) == {}              # half is not most
    assert adoptions(strays, {"new": ["a", "a", "a", "b"]}) == {}         # twins count once each
    # two notes merged into one: it takes the one it holds more blocks of; a tie takes none
    assert adoptions(strays, {"new": ["a", "b", "c", "x", "y"]}) == {"new": "old"}
    strays["other"] += ["w"]
    assert adoptions(strays, {"new": ["a", "b", "c", "x", "y", "w"]}) == {}
    assert adoptions({"old": []}, {"new": []}) == {}


def test_a_tie_takes_nothing_and_each_takes_its_own_best():
    from zhenglossary.parallel.strays import adoptions

    strays = {"s1": ["a", "b", "c"], "s2": ["d", "e", "f"]}
    # two notes hold all of s1: neither takes it; s2 goes to the one note holding it
    found = adoptions(strays, {"n1": ["a", "b", "c"], "n2": ["a", "b", "c", "d", "e", "f"],
                               "n3": ["d", "e"]})
    assert found == {}            # n2 ties between s1 and s2, n1 ties with n2 for s1
    found = adoptions(strays, {"n1": ["a", "b", "c"], "n3": ["d", "e"], "n4": ["x"]})
    assert found == {"n1": "s1", "n3": "s2"}


# ------------------------------------------------------------------ the property

def _run(root: Path):
    report = translate_paths([root / "notes"], root / "glossary.yaml",
                             TranslateOptions(use_memory=False), engine=BracketEngine())
    assert all(not f.error for f in report.files), [f.error for f in report.files]
    return report


def _hashes(text: str) -> list[str]:
    doc = parse_document(text)
    return [doc.leaf_hash(leaf) for leaf in doc.leaves if doc.leaf_text(leaf).strip()]


NEW_NAMES = st.sampled_from(["n2.md", "sub/n.md", "sub/读书笔记.md"])
SMALL_OPS = st.lists(st.tuples(st.sampled_from(["change", "insert", "delete", "move", "dup"]),
                               st.integers(0, 50), st.integers(0, 50)), max_size=2)


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(blocks=notes(), picks=st.lists(st.integers(0, 50), max_size=3),
       reviews=st.lists(st.integers(0, 50), max_size=3), ops=SMALL_OPS, name=NEW_NAMES)
# the trial's case: renamed, nothing else changed
@example(blocks=["## 编译器先把源程序变成中间表示", "事务在提交之前看不到别人的写入。",
                 "```\nrun --step 1\n```", "- 每个副本都保存一份完整的日志。"],
         picks=[1], reviews=[0, 3], ops=[], name="n2.md")
# renamed, an edited block changed and a reviewed one deleted
@example(blocks=["## 编译器先把源程序变成中间表示", "事务在提交之前看不到别人的写入。",
                 "光栅化把三角形变成屏幕上的像素。", "> 深度测试丢掉被遮挡的片元。"],
         picks=[1], reviews=[3], ops=[("change", 1, 0), ("delete", 3, 0)], name="sub/n.md")
def test_a_renamed_note_keeps_exactly_the_state_of_its_unchanged_blocks(
        tmp_path_factory, blocks, picks, reviews, ops, name):
    root = tmp_path_factory.mktemp("rename")
    (root / "notes").mkdir()
    (root / "glossary.yaml").write_text(GLOSSARY, "utf-8")
    note = root / "notes" / "n.md"
    note.write_text("\n\n".join(blocks) + "\n", "utf-8")
    _run(root)
    par = root / "notes" / "n.zh-en.md"
    text = par.read_text("utf-8")
    translated = [b for b in read_parallel_file(text).blocks if not b.same]
    edited: dict[int, str] = {}
    for k in picks:
        if translated:
            edited.setdefault(translated[k % len(translated)].index,
                              f"EDIT{translated[k % len(translated)].index}")
    lines = text.split("\n")
    for b in translated:
        if b.index in edited:
            lines[b.en_line - 1] += f" {edited[b.index]}"
    reviewed = {translated[k % len(translated)].index for k in reviews if translated} - set(edited)
    text, _ = set_status("\n".join(lines), reviewed, "reviewed")
    par.write_text(text, "utf-8")
    _run(root)                                     # the state is the parallel file's now
    old_files = {p: p.read_bytes() for p in (par, root / "notes" / "n.en.md")}
    old = read_parallel_file(par.read_text("utf-8"))
    sources = {b.index: b.source for b in old.blocks}
    owned = {b.index: b for b in old.blocks if b.status in ("edited", "reviewed")}
    assert set(owned) == set(edited) | reviewed

    # renamed (another name, or another folder) with small changes
    new_blocks = _apply([(t, i, False) for i, t in enumerate(blocks)], ops, SENTENCES[:6] + blocks)
    new_text = "\n\n".join(t for t, _, _ in new_blocks) + "\n"
    note.unlink()
    moved = root / "notes" / name
    moved.parent.mkdir(parents=True, exist_ok=True)
    moved.write_text(new_text, "utf-8")
    report = _run(root)

    # the old files: untouched, and named
    assert {p: p.read_bytes() for p in old_files} == old_files
    [stray] = [f for f in report.findings if f.check == "output-stray"]
    assert stray.file == str(par)
    stray_shas = Counter(b.source_sha for b in old.blocks if not b.same)
    shared = sum((stray_shas & Counter(_hashes(new_text))).values())
    expect = bool(stray_shas) and 2 * shared > sum(stray_shas.values())
    adopted = [f for f in report.findings if f.check == "state-adopted"]
    assert bool(adopted) == expect, (shared, stray_shas)
    base = moved.with_name(moved.name[:-3])
    after = read_parallel_file(Path(f"{base}.zh-en.md").read_text("utf-8"))
    body = english_body(Path(f"{base}.en.md").read_text("utf-8"))
    current = [t for t, _, _ in new_blocks]
    markers = list(edited.values())
    if not expect:
        assert all(b.status == "" and b.was is None for b in after.blocks), after.blocks
        assert not after.orphans and not any(m in body for m in markers)
        assert "took its review state" not in stray.message
        return
    assert "took its review state in this run" in stray.message
    # nothing of a person's stands on a block whose source is not the one it was for
    for b in after.blocks:
        if b.status in ("edited", "reviewed"):
            assert any(s == b.source and k in owned and owned[k].status == b.status
                       for k, s in sources.items()), b
    for index, marker in edited.items():
        slots = [b for b in after.blocks if not b.same and marker in b.english]
        beside = [b for b in after.blocks if b.was is not None and marker in b.was.english]
        kept = [o for o in after.orphans if marker in o.english]
        assert len(slots) + len(beside) + len(kept) == 1, (marker, ops)      # never lost
        for b in slots:
            assert b.source == sources[index] and b.status == "edited"
        assert body.count(marker) == len(slots)
    # exactly: a block that stayed as it was, once before and once after, keeps its state
    for index, block in owned.items():
        source = blocks[index - 1]
        if blocks.count(source) != 1 or current.count(source) != 1:
            continue
        [now] = [b for b in after.blocks if b.index == current.index(source) + 1]
        assert now.status == block.status and now.english == block.english, (index, ops)


# ------------------------------------------------------------------ the CLI

NOTE = """# 读书笔记：贝叶斯数据分析

**先验分布**：在看到数据之前，对参数的不确定性的描述。

当先验分布是共轭先验时，后验分布与先验分布属于同一分布族。

最大似然估计不使用先验分布。

```python
posterior = prior * likelihood
```
"""

STATS_GLOSSARY = "terms:\n  - zh: 先验分布\n    en: prior distribution\n"


@pytest.fixture
def proj(tmp_path, monkeypatch):
    return make_project(tmp_path, monkeypatch,
                        {"stats-reading.md": NOTE, "other.md": "# 别的笔记\n\n这一篇与统计无关。\n"},
                        glossary=STATS_GLOSSARY)


def _reviewed_and_edited(runner, root: Path) -> None:
    """Blocks 1 and 2 reviewed, block 4 edited in the parallel file."""
    assert zhen(runner, "translate", "notes/")[0] == 0
    assert zhen(runner, "mark", "notes/stats-reading.md", "1", "2")[0] == 0
    par = root / "notes" / "stats-reading.zh-en.md"
    blocks = read_parallel_file(par.read_text("utf-8")).blocks
    [four] = [b for b in blocks if b.index == 4]
    lines = par.read_text("utf-8").split("\n")
    lines[four.en_line - 1] = "Maximum likelihood estimation uses no prior distribution."
    par.write_text("\n".join(lines), "utf-8")


STRAY = ("written for notes/stats-reading.md, which is not there any more, so no note reads "
         "the review state it holds: ")
ADVICE = ("if that note was renamed, rename this file along to the new name — or, while the "
          "new note has no parallel file yet, just `zhen translate` it: it takes this state "
          "when most of its blocks are this file's; if the new note's own parallel file holds "
          "what you want, or the note was deleted, delete this file (and "
          "notes/stats-reading.en.md)")


def test_a_renamed_note_takes_its_state_and_the_old_files_are_named(runner, proj):
    """The trial's repro: `git mv notes/stats-reading.md notes/stats-bda-ch2.md; zhen
    translate notes/` gave 9 machine blocks, the edited English gone from x.en.md, and no
    word of the parallel file left behind."""
    _reviewed_and_edited(runner, proj)
    old_par = proj / "notes" / "stats-reading.zh-en.md"
    old = {p: p.read_bytes() for p in (old_par, proj / "notes" / "stats-reading.en.md")}
    os.rename(proj / "notes" / "stats-reading.md", proj / "notes" / "stats-bda-ch2.md")
    code, data = zhen(runner, "translate", "notes/", "--format", "json")
    assert code == 0
    [stray] = [f for f in data["findings"] if f["check"] == "output-stray"]
    assert (stray["file"], stray["line"], stray["severity"]) == (
        "notes/stats-reading.zh-en.md", 1, "warning")
    assert stray["message"] == STRAY + ("notes/stats-bda-ch2.md took its review state in this "
                                        "run; delete it (and notes/stats-reading.en.md) when you "
                                        "no longer need it")
    [taken] = [f for f in data["findings"] if f["check"] == "state-adopted"]
    assert (taken["file"], taken["severity"]) == ("notes/stats-bda-ch2.zh-en.md", "info")
    assert taken["message"] == (
        "no parallel file yet: took the review state of notes/stats-reading.zh-en.md (written "
        "for notes/stats-reading.md, which is not there any more; 4 of its 4 translated blocks "
        "are in this note): 2 reviewed, 1 edited; notes/stats-reading.zh-en.md and "
        "notes/stats-reading.en.md are left as they are — delete them when you no longer need "
        "them")
    assert data["summary"]["blocks"]["reviewed"] == 2 and data["summary"]["blocks"]["edited"] == 1
    english = (proj / "notes" / "stats-bda-ch2.en.md").read_text("utf-8")
    assert english.count("Maximum likelihood estimation uses no prior distribution.") == 1
    parallel = (proj / "notes" / "stats-bda-ch2.zh-en.md").read_text("utf-8")
    assert parallel.startswith('<!-- zhen:parallel v3 source="stats-bda-ch2.md" ')
    assert {p: p.read_bytes() for p in old} == old             # left for the person
    # the next run: the new note has its own; the old file is still named, once
    code, result = zhen(runner, "translate", "notes/")
    assert code == 0
    assert result.stdout.count("output-stray") == 1 and "state-adopted" not in result.stdout
    assert " ".join(result.stdout.split()).count(ADVICE) == 1
    # deleted as told: nothing more is said
    for path in old:
        path.unlink()
    code, result = zhen(runner, "translate", "notes/")
    assert code == 0 and "output-stray" not in result.stdout
    # renamed again, its outputs renamed along: the state stays, nothing to say
    notes = proj / "notes"
    for suffix in (".md", ".zh-en.md", ".en.md"):
        os.rename(notes / f"stats-bda-ch2{suffix}", notes / f"ch2{suffix}")
    code, data = zhen(runner, "translate", "notes/", "--format", "json")
    assert code == 0 and not [f for f in data["findings"]
                              if f["check"] in ("output-stray", "state-adopted")]
    assert data["summary"]["blocks"]["reviewed"] == 2 and data["summary"]["blocks"]["edited"] == 1
    assert (notes / "ch2.zh-en.md").read_text("utf-8").startswith(
        '<!-- zhen:parallel v3 source="ch2.md" ')


def test_a_renamed_note_whose_old_english_cannot_be_carried_stops_and_keeps_the_state(
        runner, proj):
    """The old x.en.md has a change zhen cannot carry (a block added by hand): the renamed
    note is not translated afresh past the state it continues (the review and the edit left
    behind for good, once it has its own parallel file); it stops on that file, naming it,
    writes nothing, and takes the state once the change is undone — or replaces it with
    --force, as for the note's own outputs."""
    _reviewed_and_edited(runner, proj)
    assert zhen(runner, "translate", "notes/")[0] == 0        # the edit now in x.en.md
    old_en = proj / "notes" / "stats-reading.en.md"
    kept = old_en.read_text("utf-8")
    old_en.write_text(kept + "\nA paragraph a person added at the end.\n", "utf-8")
    os.rename(proj / "notes" / "stats-reading.md", proj / "notes" / "stats-bda-ch2.md")
    new_par = proj / "notes" / "stats-bda-ch2.zh-en.md"
    code, result = zhen(runner, "translate", "notes/")
    assert code == 1 and not new_par.exists()
    said = " ".join(result.stderr.split())
    assert ("error: notes/stats-bda-ch2.md: continues the review state of "
            "notes/stats-reading.zh-en.md (written for notes/stats-reading.md, which is not "
            "there any more), and notes/stats-reading.en.md:") in said
    assert "blocks were added or removed by hand" in said
    assert "nothing was written for notes/stats-bda-ch2.md" in said
    # the stray's own warning does not claim the state was taken
    assert " ".join(result.stdout.split()).count(ADVICE) == 1
    old_en.write_text(kept, "utf-8")                          # undone: the state is taken
    code, data = zhen(runner, "translate", "notes/", "--format", "json")
    assert code == 0 and [f["check"] for f in data["findings"]].count("state-adopted") == 1
    assert data["summary"]["blocks"]["reviewed"] == 2 and data["summary"]["blocks"]["edited"] == 1


def test_with_force_a_renamed_note_takes_the_state_past_its_old_uncarried_english(runner,
                                                                                  proj):
    _reviewed_and_edited(runner, proj)
    old_en = proj / "notes" / "stats-reading.en.md"
    old_en.write_text(old_en.read_text("utf-8") + "\nAdded by hand.\n", "utf-8")
    os.rename(proj / "notes" / "stats-reading.md", proj / "notes" / "stats-bda-ch2.md")
    code, data = zhen(runner, "translate", "notes/", "--force", "--format", "json")
    assert code == 0
    checks = [f["check"] for f in data["findings"]]
    assert checks.count("state-adopted") == 1 and checks.count("output-replaced") == 1
    [stray] = [f for f in data["findings"] if f["check"] == "output-stray"]
    assert "notes/stats-bda-ch2.md took its review state in this run" in stray["message"]
    assert data["summary"]["blocks"]["reviewed"] == 2 and data["summary"]["blocks"]["edited"] == 1


def test_a_deleted_note_is_named_by_every_command_that_reads_the_project(runner, proj):
    """... and only zhen's own parallel files of no note are: not a file of that name zhen
    did not write, one in a hidden folder, one whose header names a note that is there."""
    _reviewed_and_edited(runner, proj)
    (proj / "notes" / "stats-reading.md").unlink()
    write(proj / "notes" / "mine.zh-en.md", "my own notes, not zhen's\n")
    other = (proj / "notes" / "other.zh-en.md").read_text("utf-8")
    write(proj / "notes" / ".hidden" / "x.zh-en.md", other)
    write(proj / "notes" / "copy.zh-en.md",
          other.replace('source="other.md"', 'source="../notes/other.md"'))
    code, result = zhen(runner, "translate", "notes/")
    assert code == 0
    assert " ".join(result.stdout.split()).count(STRAY + ADVICE) == 1
    code, data = zhen(runner, "translate", "notes/other.md", "--format", "json")   # its folder
    assert code == 0 and [f["file"] for f in data["findings"]
                          if f["check"] == "output-stray"] == ["notes/stats-reading.zh-en.md"]
    code, result = zhen(runner, "status")
    assert code == 0
    assert result.stderr.count("warning: notes/stats-reading.zh-en.md: " + STRAY) == 1
    code, data = zhen(runner, "status", "--format", "json")
    assert code == 0 and [f["file"] for f in data["strays"]] == ["notes/stats-reading.zh-en.md"]
    code, data = zhen(runner, "glossary", "check", "--format", "json")
    assert code == 0
    [stray] = [f for f in data["findings"] if f["check"] == "output-stray"]
    assert stray["file"] == "notes/stats-reading.zh-en.md"
    assert stray["message"] == STRAY + ADVICE and stray["line"] == 1
    assert zhen(runner, "glossary", "check", "--strict")[0] == 1
    code, result = zhen(runner, "review", "--out", "r.html")
    assert code == 0 and "notes/stats-reading.zh-en.md" in (proj / "r.html").read_text("utf-8")
    code, result = zhen(runner, "export", "notes/", "--format", "tmx", "--out", "m.tmx")
    assert code == 0 and result.stderr.count("warning: notes/stats-reading.zh-en.md: " + STRAY) == 1
    code, result = zhen(runner, "glossary", "check", "--list-checks")
    assert code == 0 and "output-stray" in result.stdout


def test_under_out_dir_the_old_layout_is_taken_by_its_notes(runner, proj):
    """Outputs an older zhen wrote under --out-dir at the note's path from the folder it
    was named in (out/stats-reading.zh-en.md) are strays now (out/notes/… is the place):
    each note takes its state from them."""
    assert zhen(runner, "translate", "notes/", "--out-dir", "out")[0] == 0
    out = proj / "out"
    assert zhen(runner, "mark", "notes/stats-reading.md", "1", "--out-dir", "out")[0] == 0
    for path in sorted((out / "notes").iterdir()):         # as an older zhen laid them out
        text = path.read_text("utf-8").replace("../../notes/", "")
        assert "notes/" not in text.split("\n")[0]
        write(out / path.name, text)
        path.unlink()
    (out / "notes").rmdir()
    code, data = zhen(runner, "translate", "notes/", "--out-dir", "out", "--format", "json")
    assert code == 0
    assert sorted(f["file"] for f in data["findings"] if f["check"] == "state-adopted") == [
        "out/notes/other.zh-en.md", "out/notes/stats-reading.zh-en.md"]
    strays = {f["file"]: f["message"] for f in data["findings"] if f["check"] == "output-stray"}
    assert sorted(strays) == ["out/other.zh-en.md", "out/stats-reading.zh-en.md"]
    assert strays["out/other.zh-en.md"].startswith(
        "written for other.md by an older zhen, whose --out-dir put a note's outputs at its path "
        "from the folder named on the command line (now: from the project root), so no note "
        "reads the review state it holds: notes/other.md took its review state in this run; "
        "delete it (and out/other.en.md) when you no longer need it")
    assert data["summary"]["blocks"]["reviewed"] == 1
    assert "status=reviewed" in (out / "notes" / "stats-reading.zh-en.md").read_text("utf-8")
