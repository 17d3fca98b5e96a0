"""Incremental runs: a note nothing of which changed is skipped whole (not parsed,
translated or validated, its findings said again); a changed glossary entry re-runs exactly
the notes that use it, and re-translates exactly the sentences that change."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from engines import BracketEngine
from zhenglossary.parallel import read_parallel_file
from zhenglossary.translate import TranslateOptions, translate_paths

GLOSSARY = """\
terms:
  - zh: 编译器
    en: compiler
  - zh: 寄存器
    en: register
  - zh: 副本
    en: replica
"""
NOTES = {
    "a.md": "# 编译器\n\n编译器把变量放进寄存器。寄存器很少。\n\n活跃变量分析在编译器里很常见。\n",
    "b.md": "# 复制\n\n每个副本保存一份日志。\n\n领导者等待多数副本确认。\n",
}


@pytest.fixture
def proj(tmp_path, monkeypatch):
    (tmp_path / "glossary.yaml").write_text(GLOSSARY, "utf-8")
    (tmp_path / "notes").mkdir()
    for name, text in NOTES.items():
        (tmp_path / "notes" / name).write_text(text, "utf-8")
    monkeypatch.setenv("ZHEN_HOME", str(tmp_path / ".zhen"))
    return tmp_path


def run(root: Path, engine=None, **options):
    engine = engine or BracketEngine()
    report = translate_paths([root / "notes"], root / "glossary.yaml",
                             TranslateOptions(**options), engine=engine)
    assert not any(f.error for f in report.files), [f.error for f in report.files]
    return report, engine


def outputs(root: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted((root / "notes").glob("*.*.md"))}


def test_an_unchanged_rerun_reads_nothing_again(proj, monkeypatch):
    first, _ = run(proj)
    written = outputs(proj)
    parses = []
    original = MarkdownIt.parse
    monkeypatch.setattr(MarkdownIt, "parse", lambda self, src, env=None: parses.append(src)
                        or original(self, src, env))
    again, engine = run(proj)
    assert again.stats["unchanged_files"] == 2 and engine.calls == 0 and parses == []
    assert outputs(proj) == written
    assert again.stats["segments"] == first.stats["segments"]
    assert again.stats["from_memory"] == first.stats["from_memory"] + first.stats["translated"]
    assert [f.to_json() for f in again.findings] == [f.to_json() for f in first.findings]


def test_findings_of_a_skipped_note_are_said_again(proj):
    run(proj)
    par = proj / "notes" / "a.zh-en.md"
    [block] = [b for b in read_parallel_file(par.read_text("utf-8")).blocks if "活跃" in b.source]
    par.write_text(par.read_text("utf-8").replace(block.english, "Two\n\nparagraphs."), "utf-8")
    first, _ = run(proj)                                # the edit: invalid, an error
    assert [f.check for f in first.findings] == ["edit-invalid"]
    again, engine = run(proj)
    assert again.stats["unchanged_files"] == 2 and engine.calls == 0
    assert [f.check for f in again.findings] == ["edit-invalid"] and again.exit_code == 1


def test_a_changed_entry_reruns_the_notes_that_use_it_and_no_more(proj):
    run(proj)
    glossary = proj / "glossary.yaml"
    changed = GLOSSARY.replace("en: register", "en: machine register")
    glossary.write_text(changed, "utf-8")
    report, engine = run(proj)
    unchanged = {Path(f.source).name for f in report.files if f.unchanged}
    assert unchanged == {"b.md"}                       # b.md has no 寄存器
    assert engine.calls == 0                           # the term's English is restored, no MT
    assert "machine register" in (proj / "notes" / "a.en.md").read_text("utf-8")
    # a new entry: only the sentences holding it go to the engine again
    glossary.write_text(changed + "  - zh: 日志\n    en: log\n", "utf-8")
    report, engine = run(proj)
    assert {Path(f.source).name for f in report.files if f.unchanged} == {"a.md"}
    assert engine.texts == ["每个ZX1保存一份ZX2。"]     # one sentence of b.md, nothing else


def test_a_person_s_change_to_either_output_is_never_skipped(proj):
    run(proj)
    par = proj / "notes" / "b.zh-en.md"
    [block] = [b for b in read_parallel_file(par.read_text("utf-8")).blocks if "领导者" in b.source]
    par.write_text(par.read_text("utf-8").replace(block.english, "The leader waits for most replicas."), "utf-8")
    report, _ = run(proj)
    assert [Path(f.source).name for f in report.files if not f.unchanged] == ["b.md"]
    assert report.stats["kept_edits"] == 1
    en = proj / "notes" / "a.en.md"
    lines = en.read_text("utf-8").split("\n")
    heading = next(k for k, line in enumerate(lines) if line.startswith("# "))
    lines[heading] += " (by hand)"
    en.write_text("\n".join(lines), "utf-8")
    report, _ = run(proj)
    assert [Path(f.source).name for f in report.files if not f.unchanged] == ["a.md"]
    assert [f.check for f in report.findings] == ["english-carried"]


@pytest.mark.parametrize("row", ["{not json", "[1, 2]", '{"source": 3}'])
def test_a_damaged_record_costs_one_full_run(proj, row):
    run(proj)
    with sqlite3.connect(proj / ".zhen" / "memory.sqlite") as db:
        db.execute("UPDATE notes SET state = ?", (row,))
    report, engine = run(proj)
    assert report.stats["unchanged_files"] == 0 and report.exit_code == 0
    assert run(proj)[0].stats["unchanged_files"] == 2


def test_no_memory_never_skips(proj):
    run(proj)
    report, _ = run(proj, use_memory=False)
    assert report.stats["unchanged_files"] == 0
