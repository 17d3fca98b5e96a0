"""Hostile inputs, round two (issue 24): archives, model servers, memory rows, nesting, the
glossary lint, imports and hostile file names. Each case runs the real CLI (or the one
function it is about), asserts the exit code and the message, and hashes the whole tree
before and after: nothing outside the command's own output set may change."""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
import time
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import MINI_GLOSSARY, make_project, write
from support.llm_server import FakeLLMServer
from zhenglossary.cli import app
from zhenglossary.textutil import printable

# ---------------------------------------------------------------- the tree, before and after


def tree_state(root: Path) -> dict[str, str]:
    """Every entry under ``root`` (hidden ones too; links not followed): relative path →
    "dir", "link → target" or the sha256 of the file's bytes."""
    state: dict[str, str] = {}
    for folder, dirs, files in os.walk(root, followlinks=False):
        for name in dirs + files:
            path = Path(folder) / name
            rel = str(path.relative_to(root))
            if path.is_symlink():
                state[rel] = f"link → {os.readlink(path)}"
            elif path.is_dir():
                state[rel] = "dir"
            else:
                state[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return state


def changes(before: dict[str, str], after: dict[str, str]) -> set[str]:
    return {p for p in before.keys() | after.keys() if before.get(p) != after.get(p)}


def only_outputs(changed: set[str], allowed: tuple[str, ...] = ()) -> set[str]:
    """The changed paths that are not zhen's outputs of the command: the memory and caches
    (``.zhen/``) and the given prefixes."""
    return {p for p in changed if not p.startswith((".zhen", *allowed))}


# ================================================================ 1. install cannot destroy

ZH_EN = {"from_code": "zh", "to_code": "en", "package_version": "1.0"}


def _zip(path: Path, entries: list[tuple]) -> Path:
    """entries: (name, data) or (name, data, unix mode, compression)."""
    with zipfile.ZipFile(path, "w") as archive:
        for entry in entries:
            name, data, mode, method = (*entry, None, None)[:4]
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.compress_type = method if method is not None else zipfile.ZIP_DEFLATED
            if mode is not None:
                info.external_attr = mode << 16
            elif name.endswith("/"):
                info.external_attr = (stat.S_IFDIR | 0o755) << 16
            else:
                info.external_attr = (stat.S_IFREG | 0o644) << 16
            archive.writestr(info, data)
    return path


def _package(top: str, **extra) -> list[tuple]:
    files = [(f"{top}/metadata.json", json.dumps(ZH_EN)), (f"{top}/model/model.bin", b"\0" * 64),
             (f"{top}/model/config.json", "{}"), (f"{top}/model/shared_vocabulary.json", "[]"),
             (f"{top}/sentencepiece.model", b"sp")]
    return files + [(f"{top}/{name}", data) for name, data in extra.items()]


@pytest.fixture
def packages(tmp_path, monkeypatch):
    """An argos package directory holding an installed package and a file of the user's."""
    folder = tmp_path / "argos"
    for name, data in _package("translate-zh_en-0_9"):
        write(folder / name, data if isinstance(data, str) else data.decode("latin-1"))
    write(folder / "my-notes.txt", "the user's own file beside the packages\n")
    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(folder))
    monkeypatch.chdir(tmp_path)
    return folder


def _install(runner, path: Path):
    return runner.invoke(app, ["model", "install", "--file", str(path)])


@pytest.mark.parametrize("entries, message", [
    (_package("."), "its top folder is '.'"),
    (_package(".."), "its top folder is '..'"),
    ([("./metadata.json", json.dumps(ZH_EN)), ("./model/model.bin", "x")], "its top folder is '.'"),
    (_package(".hidden"), "its top folder is '.hidden'"),
    (_package("p") + [("p/../../escape.txt", "x")], "unsafe path 'p/../../escape.txt'"),
    (_package("p") + [("p/./model.bin", "x")], "unsafe path 'p/./model.bin'"),
    (_package("p") + [("/etc/zhen-owned", "x")], "exactly one top folder"),
    (_package("p") + [("p/link", "/etc/passwd", stat.S_IFLNK | 0o777)],
     "'p/link' is a symbolic link"),
    (_package("p") + [("p/dev", "", stat.S_IFCHR | 0o644)], "'p/dev' is a device or special file"),
    (_package("p") + [("p/fifo", "", stat.S_IFIFO | 0o644)], "'p/fifo' is a device or special file"),
])
def test_install_refuses_archives_that_could_write_outside_or_destroy(runner, tmp_path, packages,
                                                                      entries, message):
    archive = _zip(tmp_path / "bad.argosmodel", entries)
    before = tree_state(tmp_path)
    result = _install(runner, archive)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert "Nothing was written" in result.stderr or "exactly one top folder" in result.stderr
    assert changes(before, tree_state(tmp_path)) == set()       # the packages and my-notes.txt


def test_install_refuses_archive_bombs_before_writing(runner, tmp_path, packages):
    # 20 MB of zeros deflate to about 20 KB: a ratio of about 1,000
    bomb = _zip(tmp_path / "bomb.argosmodel", _package("p", **{"model/extra.bin": b"\0" * (20 << 20)}))
    assert bomb.stat().st_size < 200_000
    before = tree_state(tmp_path)
    result = _install(runner, bomb)
    assert result.exit_code == 2
    assert "an archive bomb?" in result.stderr and "unpacks" in result.stderr
    assert changes(before, tree_state(tmp_path)) == set()


@pytest.mark.parametrize("limit, value, entries, message", [
    ("unpacked", 1000, _package("p", **{"model/big.bin": b"x" * 2000}),
     "it unpacks to 2,132 bytes, more than the 1,000 bytes a package may take"),
    ("members", 4, _package("p"), "it holds 5 entries, more than the 4 a package may have"),
])
def test_install_limits_live_in_one_place(runner, tmp_path, packages, monkeypatch, limit, value,
                                         entries, message):
    from zhenglossary.engines import argos

    monkeypatch.setitem(argos.ARCHIVE_LIMITS, limit, value)
    archive = _zip(tmp_path / "p.argosmodel", entries)
    before = tree_state(tmp_path)
    result = _install(runner, archive)
    assert result.exit_code == 2 and message in result.stderr
    assert changes(before, tree_state(tmp_path)) == set()


def test_install_reads_metadata_json_with_a_size_bound(runner, tmp_path, packages):
    # stored, not compressed: no ratio to catch it, only the metadata bound
    entries = _package("p")
    entries[0] = ("p/metadata.json", json.dumps({**ZH_EN, "pad": " " * (2 << 20)}), None,
                  zipfile.ZIP_STORED)
    archive = _zip(tmp_path / "meta.argosmodel", entries)
    before = tree_state(tmp_path)
    result = _install(runner, archive)
    assert result.exit_code == 2
    assert "its metadata.json is 2.0 MB" in result.stderr
    assert changes(before, tree_state(tmp_path)) == set()


def test_an_installed_package_with_huge_metadata_is_broken_not_read(packages):
    from zhenglossary.engines.argos import check_package_dir

    meta = packages / "translate-zh_en-0_9" / "metadata.json"
    meta.write_text(json.dumps({**ZH_EN, "pad": " " * (2 << 20)}))
    size = meta.stat().st_size
    _, problems = check_package_dir(meta.parent)
    assert problems == [f"metadata.json is unreadable ({size:,} bytes; a package's is a few "
                        "hundred)"]


def test_install_swaps_in_with_a_rename_and_keeps_everything_else(runner, tmp_path, packages):
    top = "translate-zh_en-0_9"
    archive = _zip(tmp_path / "new.argosmodel", _package(top, **{"README.md": "new version"}))
    before = tree_state(tmp_path)
    result = _install(runner, archive)
    assert result.exit_code == 0, result.output
    changed = changes(before, tree_state(tmp_path))
    assert changed == {f"argos/{top}/README.md"}                 # the new file, nothing else
    assert not [p for p in packages.iterdir() if p.name.startswith(".zhen-install-")]


def test_a_failed_swap_puts_the_old_package_back(runner, tmp_path, packages, monkeypatch):
    top = "translate-zh_en-0_9"
    archive = _zip(tmp_path / "new.argosmodel", _package(top, **{"README.md": "new"}))
    real = os.rename
    calls = []

    def rename(a, b):
        calls.append((a, b))
        if len(calls) == 2:                       # moving the new folder into place
            raise OSError(28, "No space left on device")
        return real(a, b)

    monkeypatch.setattr(os, "rename", rename)
    before = tree_state(tmp_path)
    result = _install(runner, archive)
    assert result.exit_code == 2
    assert "cannot install" in result.stderr and "No space left on device" in result.stderr
    assert changes(before, tree_state(tmp_path)) == set()
