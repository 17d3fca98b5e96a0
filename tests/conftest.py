from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import settings
from typer.testing import CliRunner

# CTranslate2's OpenMP threads spin while they wait for work; on a shared or loaded machine
# that burns the cores the working threads need (measured here under load: the argos engine
# contract test 138-140 s spinning vs 12-15 s passive). Tests wait passively. Set before
# ctranslate2 is first imported; subprocesses started by tests inherit it.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
# ... but passive threads sleep between CTranslate2 calls, and on an idle 2-core machine
# waking them made the notes' translation 5× slower (37 s vs 7 s, most of it system time).
# One thread has nothing to wait for: robust idle and loaded (11 s in both policies). Tests
# that ask for threads (--threads, ArgosEngine(threads=…)) still get them.
os.environ.setdefault("OMP_NUM_THREADS", "1")

# The default run is spread over the machine's cores (pytest-xdist, `-n auto` in
# pyproject.toml), so a test shares its core: no property test has a per-example deadline
# (most said so one by one; this says it for all, and a test may still set its own).
settings.register_profile("zhen", deadline=None)
settings.load_profile("zhen")

ROOT = Path(__file__).resolve().parent.parent
NOTES = ROOT / "notes"
GLOSSARY = ROOT / "glossary.yaml"


def slow_tests_run(config) -> bool:
    """Slow tests (``@pytest.mark.slow``) run with ``ZHEN_SLOW=1`` or ``-m slow``; the
    default run skips them so it stays under three minutes. ``.ci/run`` runs both."""
    return os.environ.get("ZHEN_SLOW") == "1" or "slow" in (config.getoption("markexpr") or "")


def pytest_collection_modifyitems(config, items):
    if slow_tests_run(config):
        return
    skip = pytest.mark.skip(reason="slow: run with ZHEN_SLOW=1 or -m slow (.ci/run does)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def no_user_config(tmp_path_factory, monkeypatch):
    """No test reads the config file of whoever runs the tests (~/.config/zhen/config.toml):
    ZHEN_CONFIG names one that does not exist; a test that needs one writes it there."""
    monkeypatch.setenv("ZHEN_CONFIG", str(tmp_path_factory.getbasetemp() / "absent-user-config.toml"))


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """A copy of the repository's notes and glossary; the cwd is its root."""
    shutil.copytree(NOTES, tmp_path / "notes", ignore=shutil.ignore_patterns("*.en.md", "*.zh-en.md"))
    shutil.copy(GLOSSARY, tmp_path / "glossary.yaml")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ZHEN_HOME", str(tmp_path / ".zhen"))
    return tmp_path


def make_project(tmp_path: Path, monkeypatch, notes: dict[str, str],
                 glossary: str | None = None) -> Path:
    """A project with these notes and the shipped glossary (or ``glossary``, its text); the
    cwd is its root, ZHEN_HOME is inside it, and no argos model is installed (so `--engine
    auto` is the gloss)."""
    root = tmp_path / "proj"
    for name, text in notes.items():
        write(root / "notes" / name, text)
    if glossary is None:
        shutil.copy(GLOSSARY, root / "glossary.yaml")
    else:
        write(root / "glossary.yaml", glossary)
    monkeypatch.chdir(root)
    monkeypatch.setenv("ZHEN_HOME", str(root / ".zhen"))
    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(tmp_path / "no-models"))
    return root


def zhen(runner, *args):
    """(exit code, parsed JSON when --format json was asked, else the result)."""
    import json

    from zhenglossary.cli import app

    result = runner.invoke(app, [str(a) for a in args])
    if "--format" in args and "json" in args:
        return result.exit_code, json.loads(result.stdout)
    return result.exit_code, result


def translated_project(runner, tmp_path: Path, monkeypatch, notes: dict[str, str]) -> Path:
    """make_project, then `zhen translate notes/` with the gloss engine (must exit 0)."""
    from zhenglossary.cli import app

    root = make_project(tmp_path, monkeypatch, notes)
    result = runner.invoke(app, ["translate", "notes/"])
    assert result.exit_code == 0, result.output
    return root


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def english_file(body: str, note: str = "a.md") -> str:
    """``body`` as zhen writes an ``x.en.md``: its header (with the hash of the rest) first,
    so zhen takes it for its own output."""
    from zhenglossary.parallel import english_header, seal_english

    return seal_english(english_header(note, "test", note[:-3] + ".zh-en.md") + "\n" + body)


MINI_GLOSSARY = """\
source: zh
target: en
terms:
  - zh: 混合精度
    en: mixed precision
    variants: [混合精度计算]
    forbid: [hybrid precision]
  - zh: 张量核心
    en: Tensor Core
  - zh: 数据并行
    en: data parallelism
  - zh: 并行
    en: parallel
"""
