"""A third-party engine, installed at test time by pip into a folder on sys.path, is found
through the ``zhenglossary.engines`` entry point, listed and used like a built-in."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import make_project
from zhenglossary.cli import app
from zhenglossary.engines import engine_names

PLUGIN = Path(__file__).parent / "data" / "zhen-echo-engine"


@pytest.fixture(scope="module")
def plugin_dir(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("site")
    result = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                             "--no-build-isolation", "--no-index", "--target", str(target),
                             str(PLUGIN)], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert list(target.glob("zhen_echo_engine-0.1.0.dist-info/entry_points.txt"))
    return target


@pytest.fixture
def installed(plugin_dir, monkeypatch) -> Path:
    monkeypatch.syspath_prepend(str(plugin_dir))
    importlib.invalidate_caches()
    return plugin_dir


def test_plugin_engine_is_listed_and_used(installed, runner, tmp_path, monkeypatch):
    assert "echo" in engine_names()
    root = make_project(tmp_path, monkeypatch, {"a.md": "# 标题\n\n我们用混合精度训练，见 `cfg.yaml`。\n"})
    listing = runner.invoke(app, ["model", "list"])
    assert listing.exit_code == 0, listing.output
    line = next(x for x in listing.stdout.splitlines() if x.startswith("echo"))
    assert "always ready" in line and "plugin zhen-echo-engine 0.1.0" in line
    result = runner.invoke(app, ["translate", "notes/", "--engine", "echo"])
    assert result.exit_code == 0, result.output
    english = (root / "notes" / "a.en.md").read_text("utf-8")
    assert "engine: echo (" in english and "terms)" in english
    assert "# echo2\n" in english and "mixed precision" in english and "`cfg.yaml`" in english


def test_a_broken_or_clashing_plugin_is_reported_not_fatal(tmp_path, runner, monkeypatch):
    site = tmp_path / "site"
    for name, entry in (("broken", "gone = no_such_module:SPEC"),
                        ("clash", "gloss = zhenglossary.engines.gloss:SPEC")):
        info = site / f"zhen_{name}-1.0.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: zhen-{name}\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text(f"[zhenglossary.engines]\n{entry}\n")
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    make_project(tmp_path, monkeypatch, {"a.md": "一句。\n"})
    result = runner.invoke(app, ["model", "list"])
    assert result.exit_code == 0, result.output
    assert "plugin zhen-broken 1.0: cannot load engine 'gone'" in result.stderr
    assert "plugin zhen-clash 1.0: the engine name 'gloss' is taken" in result.stderr
    assert runner.invoke(app, ["translate", "notes/", "--engine", "gloss"]).exit_code == 0
