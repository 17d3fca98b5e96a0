"""Hostile input and faults: each case of the README's Reliability table, with its exit
code and message. Runs the real CLI with the gloss engine (no model needed) unless the
case is about argos."""

from __future__ import annotations

import errno
import json
import os
import sqlite3

import pytest

from conftest import GLOSSARY, MINI_GLOSSARY, make_project, write
from engines import BracketEngine
from mdcheck import protected, structure
from zhenglossary.render import english_body
from zhenglossary.cli import app
from zhenglossary.translate import TranslateOptions, translate_paths

NOTE = "# 混合精度\n\n我们使用混合精度训练模型。\n\n第二段：数据并行。\n"


@pytest.fixture
def proj(tmp_path, monkeypatch):
    return make_project(tmp_path, monkeypatch, {"ok.md": NOTE})


def translate(runner, *args):
    result = runner.invoke(app, ["translate", *args, "--format", "json"])
    data = json.loads(result.stdout) if result.stdout.startswith("{") else None
    return result, data


def errors_of(data):
    return {os.path.basename(f["source"]): f["error"] for f in data["files"] if f["error"]}


# ------------------------------------------------------------------ encodings


def test_utf8_bom_is_read_and_not_copied(runner, proj):
    (proj / "notes" / "bom.md").write_bytes(b"\xef\xbb\xbf" + NOTE.encode())
    result, data = translate(runner, "notes/bom.md")
    assert result.exit_code == 0
    english = (proj / "notes" / "bom.en.md").read_bytes()
    assert not english.startswith(b"\xef\xbb\xbf") and b"mixed precision" in english.lower()
    assert (proj / "notes" / "bom.md").read_bytes().startswith(b"\xef\xbb\xbf")   # untouched


@pytest.mark.parametrize("encoding, expected", [
    ("gb18030", "iconv -f GB18030 -t UTF-8"),
    ("gbk", "iconv -f GB18030 -t UTF-8"),
    ("utf-16", "is UTF-16"),
    ("utf-16-le", "UTF-16 without a byte-order mark"),
])
def test_other_encodings_fail_clearly_and_others_still_translate(runner, proj, encoding, expected):
    (proj / "notes" / "old.md").write_bytes(NOTE.encode(encoding))
    result, data = translate(runner, "notes/")
    assert result.exit_code == 1
    assert expected in errors_of(data)["old.md"]
    assert "--encoding" in errors_of(data)["old.md"]
    assert not (proj / "notes" / "old.en.md").exists()          # never mojibake
    assert (proj / "notes" / "ok.en.md").exists()


@pytest.mark.parametrize("encoding", ["gb18030", "utf-16"])
def test_encoding_option_converts(runner, proj, encoding):
    (proj / "notes" / "old.md").write_bytes(NOTE.encode(encoding))
    result, data = translate(runner, "notes/old.md", "--encoding", encoding)
    assert result.exit_code == 0
    assert "mixed precision" in (proj / "notes" / "old.en.md").read_text("utf-8").lower()


def test_unknown_encoding_is_named(runner, proj):
    result, data = translate(runner, "notes/ok.md", "--encoding", "klingon")
    assert result.exit_code == 1 and "cannot decode as klingon" in errors_of(data)["ok.md"]


# ------------------------------------------------------------------ line endings, bytes


def test_crlf_and_mixed_line_endings_are_preserved(runner, proj):
    text = ("# 标题\r\n\r\n第一行没有标点\r\n第二行也是\n第三行。\r\n\r\n- 列表项\n- 第二项\r\n")
    (proj / "notes" / "mixed.md").write_bytes(text.encode())
    result, _ = translate(runner, "notes/mixed.md")
    assert result.exit_code == 0
    english = (proj / "notes" / "mixed.en.md").read_bytes().decode()
    body = english_body(english)                # after the header comment and gloss banner
    source_endings = [e for e in __import__("re").findall(r"\r\n|\n", text)]
    english_endings = __import__("re").findall(r"\r\n|\n", body)
    assert english_endings == source_endings


@pytest.mark.parametrize("payload, message", [
    (NOTE.encode() + b"\x00\x00", "contains 2 NUL byte(s), the first on line 6"),
    (bytes(range(256)) * 40, "looks binary"),
])
def test_nul_bytes_and_binary_files(runner, proj, payload, message):
    (proj / "notes" / "bad.md").write_bytes(payload)
    result, data = translate(runner, "notes/")
    assert result.exit_code == 1
    assert message in errors_of(data)["bad.md"]
    assert (proj / "notes" / "ok.en.md").exists()


def test_empty_file_and_code_only_file(runner, proj):
    write(proj / "notes" / "empty.md", "")
    write(proj / "notes" / "code.md", "```python\n# 中文注释\nx = 1\n```\n")
    result, data = translate(runner, "notes/")
    assert result.exit_code == 0
    assert (proj / "notes" / "empty.en.md").read_text() == ""
    code = (proj / "notes" / "code.en.md").read_text("utf-8")
    assert code.endswith("```python\n# 中文注释\nx = 1\n```\n")


# ------------------------------------------------------------------ size


@pytest.mark.slow
def test_ten_megabyte_note(proj):
    base = (proj / "notes" / "ok.md").read_text("utf-8")
    chunk = base + "\n## 第 {} 节\n\n" + "这是一个很长的段落，包含混合精度和张量核心，以及 A100 和 `code`。" * 20 + "\n"
    text = "".join(chunk.format(i) for i in range(5300))
    assert len(text.encode()) > 10_000_000
    write(proj / "notes" / "big.md", text)
    report = translate_paths([proj / "notes" / "big.md"], None, TranslateOptions(use_memory=False),
                             engine=BracketEngine())
    assert report.exit_code == 0
    english = (proj / "notes" / "big.en.md").read_text("utf-8")
    assert english.count("mixed precision") >= 5300


def test_hundred_thousand_character_line(proj):
    line = "混合精度" + "没有标点的中文" * 14_300
    write(proj / "notes" / "long.md", f"# 长行\n\n{line}\n")
    engine = BracketEngine()
    report = translate_paths([proj / "notes" / "long.md"], None, TranslateOptions(use_memory=False),
                             engine=engine)
    assert report.exit_code == 0
    assert max(len(t) for t in engine.texts) <= 420          # cut for the model
    english = (proj / "notes" / "long.en.md").read_text("utf-8")
    assert english.count("\n") == 4 and "Mixed precision" in english   # header, heading, blank, line


def test_lists_nested_a_thousand_deep(runner, proj):
    """Parsed to markdown-it's limit (100 token levels: list item 49) in moments and written
    with the same structure; the Chinese below the limit is an error at its line, never
    silently left (tests/test_hostile.py has the block-quote case)."""
    text = "".join("  " * i + "- 第" + str(i) + "层\n" for i in range(1000))
    write(proj / "notes" / "deep.md", text)
    result, data = translate(runner, "notes/deep.md")
    assert result.exit_code == 1
    [deep] = [f for f in data["findings"] if f["check"] == "nesting-too-deep"]
    assert (deep["file"], deep["line"], deep["severity"]) == ("notes/deep.md", 50, "error")
    english = english_body((proj / "notes" / "deep.en.md").read_text("utf-8"))
    assert structure(english) == structure(text)


@pytest.mark.slow            # a 10,000-term glossary (CI runs it)
def test_ten_thousand_term_glossary(runner, proj):
    extra = "".join(f"  - zh: 术语{i:05d}号\n    en: term {i}\n" for i in range(10_000))
    glossary = proj / "glossary.yaml"
    glossary.write_text(glossary.read_text("utf-8") + extra, "utf-8")
    write(proj / "notes" / "terms.md", "使用术语00042号和术语09999号以及混合精度。\n")
    result, _ = translate(runner, "notes/terms.md")
    assert result.exit_code == 0
    english = (proj / "notes" / "terms.en.md").read_text("utf-8")
    assert "term 42" in english and "term 9999" in english
    result = runner.invoke(app, ["glossary", "check", "notes/terms.md"])
    assert result.exit_code == 0


def test_yaml_bomb_glossary_exits_2(runner, proj):
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
        for i in range(9)) + "terms: *j\n"
    (proj / "glossary.yaml").write_text(bomb, "utf-8")
    result = runner.invoke(app, ["translate", "notes/"])
    assert result.exit_code == 2
    assert "aliases" in result.stderr and "glossary.yaml:2:" in result.stderr


# ------------------------------------------------------------------ file system


def test_symlink_loops_and_unreadable_files_in_the_notes_directory(runner, proj):
    os.symlink("loop-b.md", proj / "notes" / "loop-a.md")
    os.symlink("loop-a.md", proj / "notes" / "loop-b.md")
    os.symlink("nowhere.md", proj / "notes" / "dangling.md")
    os.symlink("..", proj / "notes" / "up")                 # a directory loop: not followed
    result, data = translate(runner, "notes/")
    assert result.exit_code == 1
    errs = errors_of(data)
    assert "Too many levels of symbolic links" in errs["loop-a.md"]
    assert "No such file or directory" in errs["dangling.md"]
    assert (proj / "notes" / "ok.en.md").exists()


def test_output_directory_that_cannot_be_written(runner, proj):
    write(proj / "blocker", "a file where the output directory should be\n")
    result, data = translate(runner, "notes/", "--out-dir", "blocker")
    assert result.exit_code == 1
    assert "cannot write in blocker" in errors_of(data)["ok.md"]


def test_read_only_output_directory_simulated(runner, proj, monkeypatch):
    import tempfile

    def denied(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", denied)
    result, data = translate(runner, "notes/")
    assert result.exit_code == 1
    assert "Permission denied; check that the directory is writable" in errors_of(data)["ok.md"]


def test_full_disk_keeps_the_previous_output(runner, proj, monkeypatch):
    translate(runner, "notes/")
    before = (proj / "notes" / "ok.en.md").read_text("utf-8")
    write(proj / "notes" / "ok.md", NOTE + "\n新的一段。\n")

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    result, data = translate(runner, "notes/")
    assert result.exit_code == 1
    assert "the disk is full; the previous version is unchanged" in errors_of(data)["ok.md"]
    assert (proj / "notes" / "ok.en.md").read_text("utf-8") == before
    assert not [p for p in (proj / "notes").iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("fault", [KeyboardInterrupt, RuntimeError])
@pytest.mark.parametrize("where", ["fsync", "write", "replace"])
def test_an_interrupted_write_leaves_no_temp_file(tmp_path, monkeypatch, fault, where):
    """Ctrl-C (or any exception) inside the atomic writer: the previous file is whole and
    its temp file is gone (a finding of the trial: `.n082.en.md.9wj2q11u.tmp` was left)."""
    from zhenglossary import fileio
    from zhenglossary.textutil import Pieces

    target = tmp_path / "out" / "n.en.md"
    fileio.write_atomic(target, "旧的 old\n")

    def boom(*args, **kwargs):
        raise fault("stopped here")

    def pieces():
        yield "new first part\n"
        boom()

    text = "new text\n"
    if where == "write":
        text = Pieces(pieces(), "")
    else:
        monkeypatch.setattr(os, where, boom)
    with pytest.raises(fault):
        fileio.write_atomic(target, text)
    assert target.read_text("utf-8") == "旧的 old\n"
    assert sorted(p.name for p in target.parent.iterdir()) == ["n.en.md"]


def test_ctrl_c_while_translating_leaves_no_temp_file(runner, proj, monkeypatch):
    translate(runner, "notes/")
    before = (proj / "notes" / "ok.en.md").read_text("utf-8")
    write(proj / "notes" / "ok.md", NOTE + "\n新的一段。\n")

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    result = runner.invoke(app, ["translate", "notes/"])
    assert result.exit_code == 130 and result.stderr.strip().endswith("interrupted")
    assert (proj / "notes" / "ok.en.md").read_text("utf-8") == before
    assert not [p for p in (proj / "notes").iterdir() if p.name.endswith(".tmp")]


def test_a_later_run_removes_only_zhens_own_leftover_temp_files(runner, proj):
    """What a `kill -9` left (a dead writer's temp file; an older zhen's name, 10 minutes
    old) goes, said once; a live writer's, a fresh unnamed one, a file of another name, one
    for another output and one in another folder stay."""
    import subprocess
    import sys
    import time

    translate(runner, "notes/")
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    pid = int(dead.stdout)
    notes = proj / "notes"
    old = time.time() - 3600
    left = {
        f".ok.en.md.{pid}.a1b2c3d4.tmp": True,              # its writer is gone
        f".ok.zh-en.md.{pid}.zz_9x8w7.tmp": True,
        ".ok.en.md.9wj2q11u.tmp": True,                    # before the pid was in the name; old
        ".ok.zh-en.md.q0w9e8r7.tmp": False,                # the same, but fresh: maybe in flight
        f".ok.en.md.{os.getpid()}.k3j4h5g6.tmp": False,    # a live writer's (this process)
        f".other.en.md.{pid}.a1b2c3d4.tmp": False,         # not an output this run writes
        f".ok.md.{pid}.a1b2c3d4.tmp": False,               # the note's name: not zhen's output
        ".ok.en.md.backup.tmp": False,                     # not mkstemp's 8 characters
        "ok.en.md.a1b2c3d4.tmp": False,                    # not hidden
        f".ok.en.md.{pid}.a1b2c3d4.tmp.keep": False,
    }
    for name in left:
        write(notes / name, "partial\n")
        if name.startswith((".ok.en.md.9wj", ".ok.zh-en.md.q0w")):
            os.utime(notes / name, (old, old) if "9wj" in name else None)
    elsewhere = proj / "other" / f".ok.en.md.{pid}.a1b2c3d4.tmp"
    write(elsewhere, "partial\n")
    write(notes / "ok.md", NOTE + "\n又一段。\n")
    result = runner.invoke(app, ["translate", "notes/ok.md"])
    assert result.exit_code == 0, result.output
    gone = sorted(name for name, removed in left.items() if removed)
    assert sorted(name for name in left if not (notes / name).exists()) == gone
    assert elsewhere.exists()
    [line] = [line for line in result.stderr.splitlines() if "temp file" in line]
    assert line.startswith("warning: removed 3 temp file(s) an interrupted run of zhen left: ")
    assert all(name in line for name in gone)


# ------------------------------------------------------------------ faults


def test_corrupted_memory_is_moved_aside_and_rebuilt(runner, proj):
    translate(runner, "notes/")
    db = proj / ".zhen" / "memory.sqlite"
    for suffix in ("-wal", "-shm"):
        if os.path.exists(str(db) + suffix):
            os.remove(str(db) + suffix)
    db.write_bytes(b"this is not a database" * 100)
    result, data = translate(runner, "notes/")
    assert result.exit_code == 0
    assert any("was unreadable" in n and "moved it to memory.sqlite.corrupt-" in n
               for n in data["notices"])
    assert list((proj / ".zhen").glob("memory.sqlite.corrupt-*"))
    assert sqlite3.connect(db).execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    result, data = translate(runner, "notes/")
    assert data["summary"]["translated"] == 0             # rebuilt and used again


@pytest.mark.parametrize("damage", ["truncate", "metadata"])
def test_corrupted_argos_package_is_named(runner, proj, tmp_path, monkeypatch, damage):
    from zhenglossary.engines.argos import install_package_file
    from support.fakemodel import build_package

    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(tmp_path / "argos"))
    package = install_package_file(build_package(
        tmp_path / "t.argosmodel", [NOTE, "混合精度训练模型 English text 数据并行"] * 20, size="tiny"))
    if damage == "truncate":
        model = package.path / "model" / "model.bin"
        model.write_bytes(model.read_bytes()[:1000])
    else:
        (package.path / "metadata.json").write_text("{not json", "utf-8")
    result = runner.invoke(app, ["translate", "notes/", "--engine", "argos"])
    assert result.exit_code == 2
    assert str(package.path) in result.stderr
    assert "zhen model install" in result.stderr
    assert not (proj / "notes" / "ok.en.md").exists()


def test_mini_glossary_fixture_is_valid():
    # guards the shared fixture the other tests build on
    from zhenglossary.glossary import load_glossary_text

    assert not load_glossary_text(MINI_GLOSSARY).errors


def test_fuzzed_structure_helpers_agree_on_the_notes():
    text = (GLOSSARY.parent / "notes" / "sosp24.md").read_text("utf-8")
    assert structure(text) and protected(text)["urls"] == sorted(protected(text)["urls"])


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_front_matter_stays_first_with_the_header_and_banner_after_it(runner, proj, newline):
    front = newline.join(["---", "title: 混合精度笔记", "tags: [训练, 推理]", "---", ""])
    text = front + newline.join(["", "# 混合精度", "", "我们使用混合精度训练模型。", ""])
    (proj / "notes" / "fm.md").write_bytes(text.encode("utf-8"))
    result, _ = translate(runner, "notes/fm.md")
    assert result.exit_code == 0, result.output
    english = (proj / "notes" / "fm.en.md").read_bytes().decode("utf-8")
    assert english.startswith(front)                    # still the note's first lines, verbatim
    assert english[len(front):].startswith("<!-- zhen: English of fm.md")
    assert structure(english)[0][0] == "front_matter"   # still front matter to a parser
    body = english_body(english)
    assert body.startswith(front) and "<!-- zhen:" not in body and "gloss" not in body.lower()
    assert structure(body) == structure(text)
