"""`zhen translate` end to end through a tiny but real argos package (built at test time).

The package is a real CTranslate2 Transformer with random weights and a SentencePiece
model trained on the notes (tests/support/fakemodel.py): its output is noise, which is
exactly what exercises the term-lock fallbacks.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from conftest import GLOSSARY, NOTES, make_project, write
from mdcheck import protected, structure
from zhenglossary.cli import app
from zhenglossary.engines.argos import install_package_file
from support.fakemodel import build_package, load_corpus
from zhenglossary.glossary import load_glossary
from zhenglossary.parallel import read_parallel

SMALL_NOTE = """# 混合精度推理

MixQ同时量化权重和激活，使用低精度张量核心（INT8/INT4 Tensor Core）实现推理加速。

第二段：数据并行与流水线并行，见 `max_batch_size` 和 https://arxiv.org/abs/2407.14106 。

第三段：键值缓存的 GPU 内存消耗随着序列长度线性增长。
"""


@pytest.fixture(scope="session")
def tiny_package(tmp_path_factory) -> Path:
    corpus = load_corpus(NOTES / "sc24.md") + load_corpus(NOTES / "sosp24.md")
    return build_package(tmp_path_factory.mktemp("pkg") / "translate-zh_en-1_0.argosmodel",
                         corpus, size="tiny")


@pytest.fixture
def argos_dir(tmp_path, monkeypatch, tiny_package) -> Path:
    folder = tmp_path / "argos-packages"
    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(folder))
    install_package_file(tiny_package)
    return folder


@pytest.fixture
def small_project(tmp_path, monkeypatch) -> Path:
    root = tmp_path / "proj"
    write(root / "notes" / "a.md", SMALL_NOTE)
    write(root / "notes" / "sub" / "b.md", "## 小节\n\n稀疏性和剪枝。\n")
    shutil.copy(GLOSSARY, root / "glossary.yaml")
    monkeypatch.chdir(root)
    monkeypatch.setenv("ZHEN_HOME", str(root / ".zhen"))
    return root


def run_json(runner, *args, cwd=None):
    if cwd is not None:
        here = os.getcwd()
        os.chdir(cwd)
    try:
        result = runner.invoke(app, ["translate", *args, "--format", "json"],
                               catch_exceptions=False)
    finally:
        if cwd is not None:
            os.chdir(here)
    try:
        data = json.loads(result.stdout)
    except ValueError:
        data = None
    return result, data


def block_invariants(parallel_text: str, glossary) -> list[str]:
    """Every glossary term of a source block appears as its en (or an inflected form,
    terms.py) in the block's English, and no forbid of a term the block holds."""
    from zhenglossary import terms

    problems = []
    for block in read_parallel(parallel_text):
        if block.same:
            continue
        held = [m.term for m in glossary.find(block.source)]
        for match in glossary.find(block.source):
            if terms.count(match.term, block.english) == 0:
                problems.append(f"block {block.index}: {match.form} → {match.term.en} missing")
        for term in set(held):
            for phrase, pattern in term.forbid_patterns():
                if pattern.search(block.english) and not pattern.search(block.source):
                    problems.append(f"block {block.index}: forbidden {phrase!r}")
    return problems


# ------------------------------------------------------------------ the shipped notes


@pytest.fixture(scope="module")
def translated_notes(tmp_path_factory, tiny_package):
    """zhen translate notes/ once (about 20 s with the noise model), shared by the tests."""
    from typer.testing import CliRunner

    root = tmp_path_factory.mktemp("notes-project")
    shutil.copytree(NOTES, root / "notes", ignore=shutil.ignore_patterns("*.en.md", "*.zh-en.md"))
    shutil.copy(GLOSSARY, root / "glossary.yaml")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(root)
        mp.setenv("ZHEN_HOME", str(root / ".zhen"))
        mp.setenv("ARGOS_PACKAGES_DIR", str(root / "argos"))
        install_package_file(tiny_package)
        runner = CliRunner()
        first = run_json(runner, "notes/")
        second = run_json(runner, "notes/")
    return root, first, second


def test_translate_notes_writes_both_outputs(translated_notes):
    root, (result, data), _ = translated_notes
    assert result.exit_code == 0, result.output
    for name in ("sc24", "sosp24"):
        assert (root / "notes" / f"{name}.en.md").is_file()
        assert (root / "notes" / f"{name}.zh-en.md").is_file()
    s = data["summary"]
    assert s["files"] == 2 and s["failed_files"] == 0
    assert s["segments"] > 600 and s["translated"] > 500 and s["from_memory"] == 0
    assert s["terms_locked"] > 900
    assert s["lock_fallbacks"] > 0            # the noise model breaks placeholders
    assert s["engine"].startswith("argos translate-zh_en-1_0")
    assert data["notices"] == []


def test_every_term_locked_and_protected_spans_identical(translated_notes):
    root, _, _ = translated_notes
    glossary = load_glossary(root / "glossary.yaml")
    for name in ("sc24", "sosp24"):
        source = (root / "notes" / f"{name}.md").read_text("utf-8")
        english = (root / "notes" / f"{name}.en.md").read_text("utf-8")
        parallel = (root / "notes" / f"{name}.zh-en.md").read_text("utf-8")
        assert block_invariants(parallel, glossary) == []
        assert structure(english) == structure(source)
        assert protected(english) == protected(source)
        assert english.startswith(f"<!-- zhen: English of {name}.md, engine: argos")


def test_second_run_translates_nothing(translated_notes):
    root, (_, first), (result, second) = translated_notes
    assert result.exit_code == 0
    s = second["summary"]
    assert s["translated"] == 0 and s["engine_calls"] == 0
    assert s["from_memory"] == first["summary"]["translated"]


def test_sources_are_never_written(translated_notes):
    root, _, _ = translated_notes
    for name in ("sc24.md", "sosp24.md"):
        assert (root / "notes" / name).read_bytes() == (NOTES / name).read_bytes()


# ------------------------------------------------------------------ memory behaviour


def test_rerun_does_not_load_the_model(runner, small_project, argos_dir, monkeypatch):
    result, first = run_json(runner, "notes/")
    assert result.exit_code == 0 and first["summary"]["translated"] > 0
    import ctranslate2

    def boom(*args, **kwargs):
        raise AssertionError("the model was loaded")

    monkeypatch.setattr(ctranslate2, "Translator", boom)
    result, second = run_json(runner, "notes/")
    assert result.exit_code == 0
    assert second["summary"]["translated"] == 0


def test_editing_one_paragraph_retranslates_only_it(runner, small_project, argos_dir):
    result, first = run_json(runner, "notes/")
    note = small_project / "notes" / "a.md"
    note.write_text(note.read_text("utf-8").replace("第三段：键值缓存", "第三段改过了：键值缓存"),
                    "utf-8")
    result, second = run_json(runner, "notes/")
    assert result.exit_code == 0
    assert second["summary"]["translated"] == 1          # the edited sentence only
    assert second["summary"]["from_memory"] == first["summary"]["translated"] - 1


def test_editing_a_glossary_entry(runner, small_project, argos_dir):
    run_json(runner, "notes/")
    path = small_project / "glossary.yaml"
    text = path.read_text("utf-8")
    # changing a term's English re-translates nothing: it is restored after the engine
    path.write_text(text.replace("en: key-value cache", "en: KV cache"), "utf-8")
    result, second = run_json(runner, "notes/")
    assert second["summary"]["translated"] == 0
    assert "KV cache" in (small_project / "notes" / "a.en.md").read_text("utf-8")
    # a new form re-translates only the segments that contain it
    path.write_text(path.read_text("utf-8").replace(
        "terms:\n", "terms:\n  - zh: 第二段\n    en: second paragraph\n", 1), "utf-8")
    result, third = run_json(runner, "notes/")
    assert third["summary"]["translated"] == 1
    assert "second paragraph" in (small_project / "notes" / "a.en.md").read_text("utf-8").lower()


def test_no_memory_translates_again(runner, small_project, argos_dir):
    run_json(runner, "notes/")
    result, data = run_json(runner, "notes/", "--no-memory")
    assert data["summary"]["from_memory"] == 0 and data["summary"]["translated"] > 0


def _zhen(root: Path, *args, env=None):
    command = [sys.executable, "-c", "from zhenglossary.cli import main; main()", *args]
    return subprocess.Popen(command, cwd=root, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _env(root: Path, argos: Path) -> dict:
    env = dict(os.environ)
    env.update(ZHEN_HOME=str(root / ".zhen"), ARGOS_PACKAGES_DIR=str(argos))
    return env


@pytest.mark.slow
def test_two_runs_at_once(small_project, argos_dir):
    env = _env(small_project, argos_dir)
    runs = [_zhen(small_project, "translate", "notes/", "--format", "json", env=env)
            for _ in range(2)]
    outputs = [p.communicate(timeout=300) for p in runs]
    assert [p.returncode for p in runs] == [0, 0], outputs
    db = sqlite3.connect(small_project / ".zhen" / "memory.sqlite")
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    english = (small_project / "notes" / "a.en.md").read_text("utf-8")
    assert "mixed-precision inference" in english.lower()


@pytest.mark.slow
def test_killed_run_keeps_finished_batches_and_outputs_whole(tmp_path, argos_dir, tiny_package):
    root = tmp_path / "big"
    shutil.copytree(NOTES, root / "notes", ignore=shutil.ignore_patterns("*.en.md", "*.zh-en.md"))
    shutil.copy(GLOSSARY, root / "glossary.yaml")
    old = "<!-- an older translation -->\n"
    (root / "notes" / "sc24.en.md").write_text(old, "utf-8")
    env = _env(root, argos_dir)
    proc = _zhen(root, "translate", "notes/", env=env)
    db_path = root / ".zhen" / "memory.sqlite"
    deadline = time.time() + 120
    rows = 0
    while time.time() < deadline and proc.poll() is None:
        time.sleep(0.2)
        if db_path.exists():
            try:
                rows = sqlite3.connect(db_path, timeout=1).execute("SELECT count(*) FROM mt").fetchone()[0]
            except sqlite3.Error:
                rows = 0
            if rows:
                break
    assert proc.poll() is None, "the run finished before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert rows > 0
    db = sqlite3.connect(db_path)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    kept = db.execute("SELECT count(*) FROM mt").fetchone()[0]
    assert kept >= rows
    # outputs are the old ones or none, never half-written; a kill that lands inside an
    # atomic write leaves its temp file (nothing runs at SIGKILL), named for its output
    assert (root / "notes" / "sc24.en.md").read_text("utf-8") == old
    from zhenglossary.fileio import TEMP_NAME

    for left in (root / "notes").glob(".*.tmp"):
        match = TEMP_NAME.match(left.name)
        assert match and match.group("target").endswith((".en.md", ".zh-en.md")), left
    # the old x.en.md has no zhen header: only --force writes over it (english-conflict)
    resumed = _zhen(root, "translate", "notes/", "--format", "json", "--force", env=env)
    out, errors = resumed.communicate(timeout=600)
    assert resumed.returncode == 0, errors
    assert not list((root / "notes").glob(".*.tmp"))     # the next run removes them
    # the kept rows are read, not asked again: every engine call is a row the run added
    # (from_memory may be 0: a sentence whose pieces were not stored yet counts as fresh)
    after = sqlite3.connect(db_path).execute("SELECT count(*) FROM mt").fetchone()[0]
    assert json.loads(out)["summary"]["engine_calls"] == after - kept > 0


# ------------------------------------------------------------------ options and outputs


def test_out_dir_mirrors_relative_paths(runner, small_project, argos_dir):
    """Under --out-dir a note's outputs mirror its path from the project root, however the
    note was named: the folder, the note itself, from another directory."""
    result, data = run_json(runner, "notes/", "--out-dir", "out")
    assert result.exit_code == 0
    assert (small_project / "out" / "notes" / "a.en.md").is_file()
    assert (small_project / "out" / "notes" / "sub" / "b.zh-en.md").is_file()
    assert not (small_project / "notes" / "a.en.md").exists()
    head = (small_project / "out" / "notes" / "sub" / "b.zh-en.md").read_text("utf-8")
    assert head.startswith('<!-- zhen:parallel v3 source="../../../notes/sub/b.md" ')
    before = sorted(str(p.relative_to(small_project)) for p in small_project.rglob("*.*.md"))
    result, data = run_json(runner, "notes/sub/b.md", "--out-dir", "out")
    assert result.exit_code == 0 and data["files"][0]["parallel"] == "out/notes/sub/b.zh-en.md"
    result, data = run_json(runner, "sub/b.md", "--out-dir", "../out", cwd="notes")
    assert result.exit_code == 0 and data["files"][0]["parallel"] == "../out/notes/sub/b.zh-en.md"
    assert sorted(str(p.relative_to(small_project)) for p in small_project.rglob("*.*.md")) \
        == before


def test_text_summary(runner, small_project, argos_dir):
    result = runner.invoke(app, ["translate", "notes/a.md"])
    assert result.exit_code == 0
    assert "wrote notes/a.en.md and notes/a.zh-en.md" in result.stdout
    assert "1 file(s), " in result.stdout and "terms locked" in result.stdout
    assert "engine: argos translate-zh_en-1_0 1.0" in result.stdout


# ------------------------------------------------------------------ bad input


def test_explicit_argos_without_model_exits_2(runner, small_project, tmp_path, monkeypatch):
    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(tmp_path / "none"))
    result = runner.invoke(app, ["translate", "notes/", "--engine", "argos"])
    assert result.exit_code == 2
    assert "no Chinese→English argos model is installed" in result.stderr
    assert "zhen model install" in result.stderr


def test_unreadable_note_fails_alone(runner, small_project, argos_dir):
    (small_project / "notes" / "old.md").write_bytes("混合精度计算\n".encode("gbk"))
    result, data = run_json(runner, "notes/")
    assert result.exit_code == 1
    failed = [f for f in data["files"] if f["error"]]
    assert len(failed) == 1 and "old.md" in failed[0]["error"]
    assert "iconv -f GB18030" in failed[0]["error"]
    assert (small_project / "notes" / "a.en.md").is_file()


def test_broken_glossary_exits_2_naming_the_line(runner, small_project, argos_dir):
    (small_project / "glossary.yaml").write_text("source: zh\nterms:\n  - zh: 量化\n   en: q\n", "utf-8")
    result = runner.invoke(app, ["translate", "notes/"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: glossary.yaml:4:")


def test_empty_note_gives_empty_outputs(runner, small_project, argos_dir):
    write(small_project / "notes" / "empty.md", "")
    result, data = run_json(runner, "notes/empty.md")
    assert result.exit_code == 0
    assert (small_project / "notes" / "empty.en.md").read_text() == ""
    assert (small_project / "notes" / "empty.zh-en.md").read_text() == ""
    # the note gets its first words: its empty outputs, zhen's own, are replaced without a
    # word of their having been "changed by hand"
    write(small_project / "notes" / "empty.md", "降雨很少。\n")
    result, data = run_json(runner, "notes/empty.md")
    assert result.exit_code == 0
    assert not [f for f in data["findings"] if f["check"] == "output-replaced"]
    assert (small_project / "notes" / "empty.en.md").read_text().startswith("<!-- zhen:")


def test_missing_path_exits_2(runner, small_project, argos_dir):
    result = runner.invoke(app, ["translate", "nope.md"])
    assert result.exit_code == 2
    assert "nope.md does not exist" in result.stderr


# ------------------------------------------------------------------ models


def test_model_list_and_install(runner, tmp_path, monkeypatch, tiny_package):
    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(tmp_path / "pk"))
    result = runner.invoke(app, ["model", "list"])
    assert result.exit_code == 0 and "no argos packages" in result.stdout
    result = runner.invoke(app, ["model", "install", "--file", str(tiny_package)])
    assert result.exit_code == 0, result.output
    assert "installed translate-zh_en-1_0 (zh→en 1.0)" in result.stdout
    result = runner.invoke(app, ["model", "list", "--format", "json"])
    [pkg] = json.loads(result.stdout)["packages"]
    assert pkg["usable"] and pkg["from"] == "zh" and pkg["to"] == "en"


def _zip(path: Path, files: dict[str, str]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, text in files.items():
            archive.writestr(name, text)
    return path


@pytest.mark.parametrize("files, message", [
    (None, "not an argos package (not a zip file)"),
    ({"a.txt": "x", "b/c.txt": "y"}, "exactly one top folder"),
    ({"p/readme.md": "x"}, "p/metadata.json is missing"),
    ({"p/metadata.json": "{"}, "not valid JSON"),
    ({"p/metadata.json": '{"from_code": "en", "to_code": "de", "package_version": "1"}'},
     "translates en→de"),
    ({"p/metadata.json": '{"from_code": "zh", "to_code": "en", "package_version": "1"}'},
     "model/model.bin is missing"),
])
def test_model_install_validates(runner, tmp_path, monkeypatch, files, message):
    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(tmp_path / "pk"))
    path = tmp_path / "bad.argosmodel"
    if files is None:
        path.write_text("not a zip")
    else:
        _zip(path, files)
    result = runner.invoke(app, ["model", "install", "--file", str(path)])
    assert result.exit_code == 2
    assert message in result.stderr
    assert not (tmp_path / "pk" / "p").exists()


def test_model_install_offline_is_clear(runner, tmp_path, monkeypatch):
    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(tmp_path / "pk"))
    monkeypatch.setenv("ZHEN_ARGOS_INDEX", "http://127.0.0.1:9/index.json")
    result = runner.invoke(app, ["model", "install"])
    assert result.exit_code == 2
    assert "cannot reach the argos package index" in result.stderr
    assert "zhen model install --file" in result.stderr


def test_broken_installed_package_is_named(runner, small_project, argos_dir):
    (next(argos_dir.iterdir()) / "model" / "model.bin").unlink()
    result = runner.invoke(app, ["translate", "notes/", "--engine", "argos"])
    assert result.exit_code == 2
    assert "is broken: model/model.bin is missing" in result.stderr
    assert "zhen model install" in result.stderr


def test_target_prefix_is_honoured(runner, small_project, tmp_path, monkeypatch):
    """A package with a target_prefix: zhen passes it to CTranslate2 and strips it, and
    decodes with sentencepiece itself (argos' own decode would turn its '_' into spaces)."""
    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(tmp_path / "prefixed"))
    corpus = load_corpus(NOTES / "sosp24.md")
    install_package_file(build_package(tmp_path / "p.argosmodel", corpus, size="tiny",
                                       target_prefix="__en__"))
    from zhenglossary.engines.argos import ArgosEngine, find_zh_en

    engine = ArgosEngine(find_zh_en())
    [out] = engine.translate(["我们使用数据并行训练模型。"], num_hypotheses=2)
    assert len(out.hypotheses) == 2
    assert not any("__en__" in h or " en " in f" {h} " for h in out.hypotheses)
    result, data = run_json(runner, "notes/", "--engine", "argos")
    assert result.exit_code == 0
    assert "__en__" not in (small_project / "notes" / "a.en.md").read_text("utf-8")


def test_chinese_the_english_keeps_by_design_is_named_once_per_note(runner, tmp_path,
                                                                    monkeypatch):
    """Front matter, HTML and link titles are copied as written: translate exits 0 and
    says, in one info finding per note, where x.en.md still shows Chinese."""
    make_project(tmp_path, monkeypatch, {
        "seepage.md": "---\ntitle: 渗流计算笔记\n---\n\n# 渗流\n\n"
                      "达西定律见[教材](https://example.org/book \"第三章\")。\n\n"
                      "<details>\n<summary>推导</summary>\n\n推导很长。\n\n</details>\n",
        "plain.md": "# 固结\n\n固结试验。<!-- 备注 -->\n"})
    result = runner.invoke(app, ["translate", "notes/", "--format", "json"])
    assert result.exit_code == 0, result.output
    kept = [f for f in json.loads(result.stdout)["findings"] if f["check"] == "chinese-kept"]
    assert [(f["file"], f["line"], f["severity"]) for f in kept] == [
        ("notes/seepage.md", 2, "info")]
    assert [(p["line"], p["what"], p["chinese"]) for p in kept[0]["places"]] == [
        (2, "front matter", "渗流计算笔记"), (7, "link title", "第三章"), (10, "HTML", "推导")]
    assert "seepage.en.md shows this Chinese as written" in kept[0]["message"]
