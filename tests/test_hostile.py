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
    assert "like an archive bomb. Nothing was written" in result.stderr
    assert "unpacks" in result.stderr
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


# ================================================================ 2. nothing leaves the machine

MODEL = "tiny-zh-en"
LLM_NOTES = {"a.md": "# 混合精度\n\n我们使用混合精度训练模型。\n\n第二段：数据并行。\n"}


@pytest.fixture
def llm_project(tmp_path, monkeypatch):
    root = make_project(tmp_path, monkeypatch, LLM_NOTES)
    return root


def _llm(runner, endpoint: str, *args):
    return runner.invoke(app, ["translate", "notes/", "--engine", "llm", "--endpoint", endpoint,
                               "--model", MODEL, *args])


def test_a_redirect_to_another_server_is_an_error_naming_it(runner, llm_project):
    with FakeLLMServer() as elsewhere, FakeLLMServer(script=["redirect"]) as server:
        server.redirect_to = elsewhere.endpoint
        before = tree_state(llm_project)
        result = _llm(runner, server.endpoint)
        assert result.exit_code == 2, result.output
        assert (f"answered POST /v1/chat/completions with a redirect (HTTP 302) to "
                f"'{elsewhere.endpoint}/chat/completions'; zhen follows no redirects, so nothing "
                "was sent there") in result.stderr
        assert elsewhere.requests == 0
        assert only_outputs(changes(before, tree_state(llm_project))) == set()


def test_a_redirect_of_the_model_list_is_refused_too(runner, llm_project):
    with FakeLLMServer() as elsewhere, FakeLLMServer(listing_mode="redirect") as server:
        server.redirect_to = elsewhere.endpoint
        result = _llm(runner, server.endpoint)
        assert result.exit_code == 2
        assert "answered GET /v1/models with a redirect (HTTP 302)" in result.stderr
        listing = runner.invoke(app, ["model", "list", "--endpoint", server.endpoint])
        assert "with a redirect (HTTP 302)" in listing.stdout
        assert elsewhere.requests == 0 and server.chats == []


@pytest.mark.parametrize("userinfo", ["user:pw@", "user@", ":secret@", "127.0.0.1:1@"])
def test_an_endpoint_with_credentials_is_refused_before_any_connection(runner, llm_project,
                                                                       userinfo):
    with FakeLLMServer() as server:
        endpoint = f"http://{userinfo}127.0.0.1:{server.port}/v1"
        before = tree_state(llm_project)
        result = _llm(runner, endpoint)
        assert only_outputs(changes(before, tree_state(llm_project))) == set()   # a parse cache
        assert result.exit_code == 2
        assert "has a user name or password before '@'" in result.stderr
        assert f"Remove that part: http://127.0.0.1:{server.port}/v1" in result.stderr
        assert "pw" not in result.stderr and "secret" not in result.stderr
        assert server.requests == 0


def test_allow_remote_in_a_project_file_is_ignored_with_a_warning(runner, llm_project):
    (llm_project / "zhen.toml").write_text(
        '[llm]\nendpoint = "http://192.0.2.7:11434/v1"\nallow_remote = true\n')
    before = tree_state(llm_project)
    result = runner.invoke(app, ["translate", "notes/", "--engine", "llm", "--model", MODEL])
    assert result.exit_code == 2
    assert "http://192.0.2.7:11434/v1 is not on this machine" in result.stderr
    assert ("zhen.toml sets allow_remote = true in [llm]; ignored: a "
            "project's file cannot set allow_remote, only you can — with --allow-remote, "
            "ZHEN_LLM_ALLOW_REMOTE, or allow_remote = true under [llm] in your own config "
            ) in result.stderr
    assert only_outputs(changes(before, tree_state(llm_project))) == set()
    listing = runner.invoke(app, ["model", "list", "--format", "json"])
    [llm] = [e for e in json.loads(listing.stdout)["engines"] if e["name"] == "llm"]
    assert not llm["ready"] and "ignored: a project's file cannot set allow_remote" in llm["status"]


@pytest.mark.parametrize("where", ["user config", "environment", "flag"])
def test_allow_remote_from_the_user_is_honoured(tmp_path, monkeypatch, where):
    from zhenglossary.config import load_settings
    from zhenglossary.engines.llm import LLMSettings

    monkeypatch.delenv("ZHEN_LLM_ALLOW_REMOTE", raising=False)
    (tmp_path / "pyproject.toml").write_text('[tool.zhen.llm]\nallow_remote = true\n')
    flags = {}
    if where == "user config":
        user = write(tmp_path / "home" / "config.toml", "[llm]\nallow_remote = true\n")
        monkeypatch.setenv("ZHEN_CONFIG", str(user))
    elif where == "environment":
        monkeypatch.setenv("ZHEN_LLM_ALLOW_REMOTE", "1")
    else:
        flags = {"allow_remote": True}
    warnings: list[str] = []
    settings, origin = load_settings(LLMSettings, "llm", tmp_path, flags, warnings)
    assert settings.allow_remote and warnings == []
    assert origin["allow_remote"] == {"user config": str(tmp_path / "home" / "config.toml"),
                                      "environment": "ZHEN_LLM_ALLOW_REMOTE",
                                      "flag": "command line"}[where]


def test_the_user_config_is_found_under_xdg_config_home(tmp_path, monkeypatch):
    from zhenglossary.config import load_settings
    from zhenglossary.engines.llm import LLMSettings

    monkeypatch.delenv("ZHEN_CONFIG")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    write(tmp_path / "xdg" / "zhen" / "config.toml", '[llm]\nmodel = "mine"\ntimeout = 9\n')
    (tmp_path / "zhen.toml").write_text('[llm]\nmodel = "project"\nallow_remote = false\n')
    settings, origin = load_settings(LLMSettings, "llm", tmp_path)
    # the project's file overrides the user's defaults, except for what only the user sets
    assert (settings.model, settings.timeout) == ("project", 9.0)
    assert origin["timeout"] == str(tmp_path / "xdg" / "zhen" / "config.toml")


def test_a_trickling_server_is_cut_at_the_deadline_of_the_request(runner, llm_project):
    before = tree_state(llm_project)
    with FakeLLMServer(script=["trickle"], trickle=0.2) as server:
        start = time.monotonic()
        result = _llm(runner, server.endpoint, "--timeout", "1")
        elapsed = time.monotonic() - start
    assert result.exit_code == 2
    assert "did not answer within 1 s" in result.stderr
    assert elapsed < 6, elapsed              # one request's deadline, not one per byte
    assert only_outputs(changes(before, tree_state(llm_project))) == set()


def test_a_huge_answer_is_not_read_whole(runner, llm_project):
    before = tree_state(llm_project)
    with FakeLLMServer(script=["huge"], huge=64 << 20) as server:
        start = time.monotonic()
        result = _llm(runner, server.endpoint)
        elapsed = time.monotonic() - start
    assert result.exit_code == 2
    assert "sent more than 8 MB for one request of a few sentences; zhen stops reading there" \
        in result.stderr
    assert elapsed < 20, elapsed
    assert only_outputs(changes(before, tree_state(llm_project))) == set()


def test_retry_after_is_honoured_then_the_run_goes_on(runner, llm_project):
    with FakeLLMServer(script=["http429"] * 3, retry_after="0") as server:
        result = _llm(runner, server.endpoint, "--format", "json")
        assert result.exit_code == 0, result.output
        assert server.modes[:4] == ["http429", "http429", "http429", "ok"]
        assert server.chats[0] == server.chats[3]         # the same request, sent again
    data = json.loads(result.stdout)
    assert not [f for f in data["findings"] if f["check"] == "engine-fallback"]


@pytest.mark.parametrize("script, retry_after, message", [
    (["http429"], "3600", "is rate-limiting zhen (HTTP 429) and asks to wait 3600 s, longer than "
                          "zhen waits (60 s)"),
    (["http429"] * 6, "0", "is still rate-limiting zhen (HTTP 429) after 4 waits"),
])
def test_rate_limiting_beyond_the_bound_is_an_error_not_a_gloss(runner, llm_project, script,
                                                                retry_after, message):
    with FakeLLMServer(script=script, retry_after=retry_after) as server:
        before = tree_state(llm_project)
        result = _llm(runner, server.endpoint)
    assert result.exit_code == 2
    assert message in result.stderr and "Try again later or lower --concurrency" in result.stderr
    # nothing was glossed in its place: no output written
    assert only_outputs(changes(before, tree_state(llm_project))) == set()


# ================================================================ 5. a memory that cannot crash

MEMORY_NOTES = {"a.md": "# 混合精度\n\n我们使用混合精度训练模型。\n\n- 数据并行很常见。\n- 张量核心也是。\n"}


def _json(result) -> dict:
    return json.loads(result.stdout)


def _translate_json(runner):
    result = runner.invoke(app, ["translate", "notes/", "--format", "json"])
    return result, _json(result)


def _memory(root: Path) -> sqlite3.Connection:
    return sqlite3.connect(root / ".zhen" / "memory.sqlite", isolation_level=None)


DROPPED = "had rows zhen cannot use"


@pytest.mark.parametrize("bad", ["{not json", "[1,2]", '{"hypotheses": [1]}', '{"hypotheses": []}',
                                 '{"hypotheses": "text"}', '{"hypotheses": ["a"], "unrendered": 3}',
                                 '"just a string"', "null", 5, 2.5, b"\xff\xfe", "[" * 100_000])
def test_a_bad_memory_row_is_dropped_and_translated_again(runner, tmp_path, monkeypatch, bad):
    root = make_project(tmp_path, monkeypatch, MEMORY_NOTES)
    first, data = _translate_json(runner)
    assert first.exit_code == 0
    english = (root / "notes" / "a.en.md").read_bytes()
    with _memory(root) as db:
        rows = db.execute("SELECT count(*) FROM mt").fetchone()[0]
        db.execute("UPDATE mt SET output = ?", (bad,))
        db.execute("DELETE FROM notes")          # the note is translated again, not skipped
    before = tree_state(root)
    result, data = _translate_json(runner)
    assert result.exit_code == 0, result.output
    assert sum(DROPPED in n for n in data["notices"]) == 1            # one warning
    assert data["summary"]["from_memory"] == 0 and data["summary"]["translated"] == rows
    assert (root / "notes" / "a.en.md").read_bytes() == english        # the same English
    assert only_outputs(changes(before, tree_state(root)), ("notes/a.en.md", "notes/a.zh-en.md")) \
        == set()
    result, data = _translate_json(runner)                         # healed: no warning
    assert result.exit_code == 0 and not any(DROPPED in n for n in data["notices"])
    assert data["summary"]["translated"] == 0


def test_a_memory_damaged_mid_run_is_moved_aside_and_rebuilt(tmp_path):
    from zhenglossary.memory import Memory

    path = tmp_path / "memory.sqlite"
    memory = Memory(path)
    memory.put_many([(f"k{i:05d}", "e", "s" * 50, {"hypotheses": ["x" * 200]}) for i in range(2000)])
    memory.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    memory.close()
    data = bytearray(path.read_bytes())
    data[60 * 4096:64 * 4096] = b"\xa5" * (4 * 4096)      # table pages, not the schema page
    path.write_bytes(bytes(data))
    memory = Memory(path)
    assert memory.notices == []                            # it opens: the damage is deeper
    assert memory.get_many([f"k{i:05d}" for i in range(0, 2000, 7)]) == {}
    [notice] = memory.notices
    assert "was unreadable (database disk image is malformed); moved it to memory.sqlite.corrupt-" \
        in notice
    memory.put_many([("k1", "e", "s", {"hypotheses": ["a"]})])          # the new one works
    assert memory.get_many(["k1"]) == {"k1": {"hypotheses": ["a"]}}
    assert list(tmp_path.glob("memory.sqlite.corrupt-*"))


def test_a_memory_with_other_tables_is_rebuilt(runner, tmp_path, monkeypatch):
    root = make_project(tmp_path, monkeypatch, MEMORY_NOTES)
    assert runner.invoke(app, ["translate", "notes/"]).exit_code == 0
    with _memory(root) as db:
        db.execute("ALTER TABLE mt RENAME COLUMN output TO stuff")
    result, data = _translate_json(runner)
    assert result.exit_code == 0, result.output
    assert any("was unreadable (table mt has columns" in n for n in data["notices"])
    assert _translate_json(runner)[1]["summary"]["translated"] == 0


# ================================================================ 6. no silent depth limit

DEEP_MESSAGE = ("deeper than the 100 levels the Markdown parser reads, so {their} Chinese "
                "({n} characters) is not translated and is copied as it is")


def test_chinese_under_a_hundred_block_quotes_is_an_error_at_its_line(runner, tmp_path,
                                                                     monkeypatch):
    text = "# 标题\n\n" + ">" * 100 + " 混合精度很深。\n\n最后一段。\n"
    root = make_project(tmp_path, monkeypatch, {"deep.md": text})
    result, data = _translate_json(runner)
    assert result.exit_code == 1
    [finding] = [f for f in data["findings"] if f["check"] == "nesting-too-deep"]
    assert (finding["file"], finding["line"], finding["severity"]) == ("notes/deep.md", 3, "error")
    assert finding["message"].startswith("line 3 nests " + DEEP_MESSAGE.format(their="its", n=6))
    check = runner.invoke(app, ["glossary", "check", "notes/", "--format", "json"])
    assert check.exit_code == 1
    assert [(f["file"], f["line"]) for f in _json(check)["findings"]
            if f["check"] == "nesting-too-deep"] == [("notes/deep.md", 3)]


def test_chinese_under_a_deep_list_is_reported_with_its_lines(runner, tmp_path, monkeypatch):
    text = "".join("  " * i + f"- 第{i}项\n" for i in range(60))
    make_project(tmp_path, monkeypatch, {"list.md": text})
    result, data = _translate_json(runner)
    assert result.exit_code == 1
    [finding] = [f for f in data["findings"] if f["check"] == "nesting-too-deep"]
    # list item 49 opens at token level 99: its text and everything inside it are not read
    assert finding["line"] == 50 and finding["message"].startswith("lines 50-60 nest ")


def test_nesting_within_the_limit_is_translated_without_a_finding(runner, tmp_path, monkeypatch):
    text = ">" * 99 + " 混合精度很深。\n"
    root = make_project(tmp_path, monkeypatch, {"ok.md": text})
    result, data = _translate_json(runner)
    assert result.exit_code == 0
    assert not [f for f in data["findings"] if f["check"] == "nesting-too-deep"]
    assert "mixed precision" in (root / "notes" / "ok.en.md").read_text("utf-8").lower()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(depth=st.integers(90, 115), kind=st.sampled_from(["quote", "list", "mixed"]),
       tail=st.booleans())
def test_chinese_past_the_limit_is_translated_or_reported(tmp_path, depth, kind, tail):
    """Whatever the depth: every line holding Chinese in the source either has no Chinese
    left in x.en.md or is inside a nesting-too-deep finding's lines."""
    from engines import BracketEngine
    from zhenglossary.textutil import has_cjk
    from zhenglossary.translate import TranslateOptions, translate_paths

    if kind == "quote":
        lines = [">" * k + f" 第{k}层" for k in range(depth - 3, depth + 1)]
    elif kind == "list":
        lines = ["  " * k + f"- 第{k}层" for k in range(depth // 2 + 1)]
    else:
        lines = [">" * (depth // 2) + " " + "  " * k + f"- 第{k}层" for k in range(depth // 4)]
    text = "\n".join(lines) + ("\n\n结尾段落。\n" if tail else "\n")
    note = tmp_path / f"n{depth}{kind}{tail}.md"
    note.write_text(text, "utf-8")
    report = translate_paths([note], None, TranslateOptions(use_memory=False), engine=BracketEngine())
    english = note.with_suffix(".en.md").read_text("utf-8").splitlines()
    reported = {line for f in report.findings if f.check == "nesting-too-deep"
                for line in range(f.line, f.extra["last_line"] + 1)}
    offset = len(english) - len(text.splitlines())          # the header lines
    for number, line in enumerate(text.splitlines(), start=1):
        if has_cjk(line):
            assert number in reported or not has_cjk(english[number - 1 + offset]), (number, line)


# ================================================================ 7. lint: a self-defeating forbid

SELF_DEFEATING = """\
source: zh
target: en
terms:
  - zh: 混合精度
    en: mixed precision
    forbid: [precision, hybrid precision]
  - zh: 精度
    en: accuracy
    forbid:
      - Mixed
  - zh: 张量核心
    en: Tensor Core
    forbid: [tensor-core]
"""


def _glossary_findings(runner, root: Path) -> tuple[int, list[dict]]:
    result = runner.invoke(app, ["glossary", "check", "--format", "json"])
    return result.exit_code, [f for f in _json(result)["findings"] if f["file"] == "glossary.yaml"]


def test_a_forbid_inside_its_own_en_is_an_error_naming_both_lines(runner, tmp_path, monkeypatch):
    root = make_project(tmp_path, monkeypatch, {"a.md": "混合精度和精度。\n"})
    (root / "glossary.yaml").write_text(SELF_DEFEATING, "utf-8")
    code, findings = _glossary_findings(runner, root)
    assert code == 1
    own = [f for f in findings if f["check"] == "forbid-is-en"]
    assert [(f["severity"], f["line"], f["column"], f["message"]) for f in own] == [
        ("error", 6, 14, "混合精度: forbid 'precision' (line 6) is part of its own `en` 'mixed "
                         "precision' (line 5), so every sentence with 混合精度 would fail; remove "
                         "it from forbid or forbid a longer phrase"),
        ("error", 13, 14, "张量核心: forbid 'tensor-core' (line 13) is its own `en` (line 12); "
                          "remove it from forbid")]
    other = [f for f in findings if f["check"] == "forbid-conflict"]
    assert [(f["severity"], f["line"], f["message"]) for f in other] == [
        ("warning", 10, "精度 forbids 'Mixed' (line 10), but 混合精度 must be rendered 'mixed "
                        "precision' (line 5); a sentence with both terms cannot pass")]
    assert other[0]["lines"] == [10, 5] and own[0]["lines"] == [6, 5]
    assert code == 1


def test_translate_refuses_a_glossary_whose_forbid_defeats_its_own_en(runner, tmp_path, monkeypatch):
    root = make_project(tmp_path, monkeypatch, {"a.md": "我们使用混合精度。\n"})
    (root / "glossary.yaml").write_text(SELF_DEFEATING, "utf-8")
    before = tree_state(root)
    result = runner.invoke(app, ["translate", "notes/"])
    assert result.exit_code == 2
    assert "forbid 'precision' (line 6) is part of its own `en`" in result.stderr
    assert only_outputs(changes(before, tree_state(root))) == set()     # the parse cache only


@given(en=st.lists(st.sampled_from(["mixed", "precision", "data", "tensor", "core", "parallel"]),
                   min_size=1, max_size=4, unique=True),
       cut=st.data())
@settings(max_examples=60, deadline=None)
def test_any_forbid_the_restored_en_contains_is_caught(en, cut):
    """For every sub-phrase of an entry's `en` given as its forbid, the lint reports it:
    exactly the forbids that would make the output check fail on the term's own English."""
    from zhenglossary.glossary import load_glossary_text
    from zhenglossary.textutil import whole_phrase_re

    i = cut.draw(st.integers(0, len(en) - 1))
    j = cut.draw(st.integers(i + 1, len(en)))
    phrase = " ".join(en[i:j])
    if cut.draw(st.booleans()):
        phrase = phrase.upper()
    text = f"source: zh\ntarget: en\nterms:\n  - zh: 混合\n    en: {' '.join(en)}\n" \
           f"    forbid: [{phrase}]\n"
    glossary = load_glossary_text(text, "g.yaml")
    assert whole_phrase_re(phrase).search(" ".join(en))          # it would fail the output check
    assert [f.check for f in glossary.errors] == ["forbid-is-en"]


# ================================================================ 8. import keeps links and quotes

@pytest.fixture
def glossary_project(tmp_path, monkeypatch):
    root = tmp_path / "proj"
    write(root / "glossary.yaml", MINI_GLOSSARY)
    monkeypatch.chdir(root)
    monkeypatch.setenv("ZHEN_HOME", str(root / ".zhen"))
    return root


def _import(runner, file: str, *args):
    return runner.invoke(app, ["glossary", "import", file, *args])


def test_import_writes_through_a_symlinked_glossary(runner, tmp_path, glossary_project):
    shared = tmp_path / "shared" / "terms.yaml"
    write(shared, (glossary_project / "glossary.yaml").read_text("utf-8"))
    (glossary_project / "glossary.yaml").unlink()
    (glossary_project / "glossary.yaml").symlink_to(shared)
    write(glossary_project / "new.tsv", "流水线并行\tpipeline parallelism\n")
    before = tree_state(tmp_path)
    result = _import(runner, "new.tsv")
    assert result.exit_code == 0, result.output
    assert (glossary_project / "glossary.yaml").is_symlink()
    assert os.readlink(glossary_project / "glossary.yaml") == str(shared)
    assert "en: pipeline parallelism" in shared.read_text("utf-8")
    assert only_outputs(changes(before, tree_state(tmp_path))) == {"shared/terms.yaml"}


@pytest.mark.parametrize("name, text, expected", [
    ("q.tsv", '"流水线并行"\t"pipeline parallelism"\n', ("流水线并行", "pipeline parallelism")),
    ("q.tsv", '流水线并行\t"say ""pipeline"""\n', ("流水线并行", 'say "pipeline"')),
    ("q.tsv", '流水线并行\t5" pipeline\n', ("流水线并行", '5" pipeline')),
    ("cr.tsv", "zh\ten\r流水线并行\tpipeline parallelism\r", ("流水线并行", "pipeline parallelism")),
    ("cr.csv", "流水线并行,\"pipeline, parallel\"\r", ("流水线并行", "pipeline, parallel")),
    ("neutral.tsv", "流水线并行\t'-O3 pipeline\n", ("流水线并行", "-O3 pipeline")),
])
def test_tsv_and_csv_are_read_with_csv_quoting(runner, glossary_project, name, text, expected):
    write(glossary_project / name, text)
    result = _import(runner, name, "--dry-run", "--format", "json")
    assert result.exit_code == 0, result.output
    [added] = _json(result)["added"]
    assert (added["zh"], added["en"]) == expected


@pytest.mark.parametrize("name, text, message", [
    ("u.tsv", "张量\ttensor\n\"流水线并行\tpipeline\n数据\tdata\n",
     "u.tsv:2: has a double quote that is never closed (the value opened on line 2)"),
    ("m.tsv", "\"流水线并行\tpipeline\n数据\tdata\"\n张量\ttensor\n",
     "m.tsv:1: has a quoted value that runs from line 1 to line 2: a double quote is unbalanced"),
    ("a.tsv", "\"流水线\"并行\tpipeline\n",
     "a.tsv:1: is not valid TSV: '<TAB>' expected after '\"'"),
    ("u.csv", "流水线并行,\"pipeline\n", "u.csv:1: has a double quote that is never closed"),
    ("f.csv", "流水线并行,\"=HYPERLINK(\"\"http://x.example\"\",\"\"y\"\")\"\n",
     "f.csv:1: English '=HYPERLINK(\"http://x.example\",\"y\")' starts with '=' like a spreadsheet "
     "formula"),
])
def test_unbalanced_quotes_and_formulas_are_refused(runner, glossary_project, name, text, message):
    write(glossary_project / name, text)
    before = tree_state(glossary_project)
    result = _import(runner, name)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert changes(before, tree_state(glossary_project)) == set()


def test_tsv_export_neutralises_spreadsheet_formulas_and_round_trips(runner, glossary_project):
    glossary = glossary_project / "glossary.yaml"
    glossary.write_text(glossary.read_text("utf-8") + "  - zh: 优化级别\n    en: \"-O3\"\n"
                        "  - zh: 提及\n    en: \"@mention\"\n  - zh: 加一\n    en: \"+1\"\n", "utf-8")
    result = runner.invoke(app, ["glossary", "export", "--format", "tsv", "--out", "out.tsv"])
    assert result.exit_code == 0, result.output
    lines = (glossary_project / "out.tsv").read_text("utf-8").splitlines()
    assert {"优化级别\t'-O3", "提及\t'@mention", "加一\t'+1"} <= set(lines)
    assert not [line for line in lines if line.split("\t")[1].startswith(("=", "+", "-", "@"))]
    back = _import(runner, "out.tsv", "--glossary", "fresh.yaml", "--dry-run",
                   "--format", "json")
    assert {(a["zh"], a["en"]) for a in _json(back)["added"]} >= {
        ("优化级别", "-O3"), ("提及", "@mention"), ("加一", "+1")}


TBX_HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n{doctype}<martif type="TBX" xml:lang="en">'
            "<martifHeader><fileDesc><sourceDesc><p>x</p></sourceDesc></fileDesc></martifHeader>\n"
            "<text><body>\n")
TBX_ENTRY = ('<termEntry id="a"><langSet xml:lang="zh"><tig><term>{zh}</term></tig></langSet>'
             '<langSet xml:lang="en"><tig><term>{en}</term></tig></langSet></termEntry>\n')


@pytest.mark.parametrize("doctype", ['<!DOCTYPE martif [<!ENTITY xxe "隐藏">]>\n',
                                     '<!DOCTYPE martif [<!ENTITY xxe SYSTEM "file:///etc/hostname">]>\n'])
def test_an_entity_in_a_tbx_term_is_refused_with_its_line(runner, glossary_project, doctype):
    pytest.importorskip("translate.storage.tbx")
    text = (TBX_HEAD.format(doctype=doctype) + TBX_ENTRY.format(zh="流水线&xxe;并行", en="pipeline")
            + "</body></text></martif>\n")
    write(glossary_project / "e.tbx", text)
    before = tree_state(glossary_project)
    result = _import(runner, "e.tbx")
    assert result.exit_code == 2
    assert "e.tbx:5: uses the entity &xxe; — zhen does not expand entities" in result.stderr
    assert changes(before, tree_state(glossary_project)) == set()


def test_character_references_in_tbx_are_plain_text(runner, glossary_project):
    pytest.importorskip("translate.storage.tbx")
    text = (TBX_HEAD.format(doctype="") + TBX_ENTRY.format(zh="流水线&#x5E76;行", en="pipe &amp; line")
            + "</body></text></martif>\n")
    write(glossary_project / "c.tbx", text)
    result = _import(runner, "c.tbx", "--dry-run", "--format", "json")
    assert result.exit_code == 0, result.output
    [added] = _json(result)["added"]
    assert (added["zh"], added["en"]) == ("流水线并行", "pipe & line")


# ================================================================ 4. names escaped where written

HOSTILE_NAMES = ["x--><img src=x onerror=alert(1)><!--.md", "q\"uo'te & amp;.md", "ctl\x1b[31m.md",
                 "bidi\u202etxt.md"]
NAME_NOTE = ("# 混合精度\n\n我们使用混合精度训练模型（mixed precision）。数据并行（data parallelism）"
             "很重要。\n\n第二段：张量核心。\n")


@pytest.fixture
def hostile_names(runner, tmp_path, monkeypatch):
    root = make_project(tmp_path, monkeypatch, {name: NAME_NOTE for name in HOSTILE_NAMES})
    result = runner.invoke(app, ["translate", "notes/"])
    assert result.exit_code == 0, result.output
    return root


def test_names_in_tmx_and_xliff_attributes_are_escaped(runner, hostile_names):
    pytest.importorskip("translate.storage.tmx")
    from lxml import etree

    shown = {printable(f"notes/{name}") for name in HOSTILE_NAMES}
    for fmt, out in (("tmx", "out.tmx"), ("xliff", "out.xlf")):
        before = tree_state(hostile_names)
        result = runner.invoke(app, ["export", "notes/", "--format", fmt, "--out", out])
        assert result.exit_code == 0, result.output
        assert only_outputs(changes(before, tree_state(hostile_names))) == {out}
        root = etree.parse(str(hostile_names / out)).getroot()
        tags = {etree.QName(node).localname for node in root.iter() if isinstance(node.tag, str)}
        assert "img" not in tags
        if fmt == "tmx":
            names = {node.get("tuid").rsplit("#", 1)[0] for node in root.iter("tu")}
        else:
            names = {node.get("original") for node in root.iter() if isinstance(node.tag, str)
                     and etree.QName(node).localname == "file"}
        assert names == shown
    assert "notes/ctl\\x1b[31m.md" in shown and "notes/bidi\\u202etxt.md" in shown


def test_names_on_the_review_page_are_text_never_markup(runner, hostile_names):
    result = runner.invoke(app, ["review", "notes/", "--out", "review.html"])
    assert result.exit_code == 0, result.output

    class Collect(HTMLParser):
        def __init__(self):
            super().__init__()
            self.tags, self.handlers, self.headings, self._in_h2 = set(), [], [], False

        def handle_starttag(self, tag, attrs):
            self.tags.add(tag)
            self.handlers += [k for k, _ in attrs if k.startswith("on")]
            self._in_h2 = tag == "h2"

        def handle_data(self, data):
            if self._in_h2:
                self.headings.append(data)
                self._in_h2 = False

    page = Collect()
    page.feed((hostile_names / "review.html").read_text("utf-8"))
    assert "img" not in page.tags and page.handlers == []
    assert {f"notes/{name}" for name in HOSTILE_NAMES} <= set(page.headings)


def test_names_in_suggest_yaml_stay_in_their_comment(runner, tmp_path, monkeypatch):
    names = ["nl\nterms: evil.md", "x--><img src=x>.md", "ctl\x1b.md", "tab\tname.md"]
    make_project(tmp_path, monkeypatch, {name: "我们研究了稀疏注意力（sparse attention）。\n"
                                         for name in names})
    result = runner.invoke(app, ["glossary", "suggest", "notes/", "--glossary", "glossary.yaml"])
    assert result.exit_code == 0, result.output
    entries = yaml.safe_load(result.stdout)
    assert isinstance(entries, list) and all(set(e) <= {"zh", "en", "variants", "forbid", "note",
                                                        "tags"} for e in entries)
    comments = [line for line in result.stdout.splitlines() if "稀疏注意力" not in line
                and "sparse attention" in line or "file(s)" in line]
    assert any("notes/nl\\x0aterms: evil.md:1" in line and "notes/ctl\\x1b.md:1" in line
               and "notes/tab\\x09name.md:1" in line for line in comments)
    assert all(line.lstrip().startswith(("#", "-", "zh:", "en:", "variants:", "forbid:",
                                         "note:", "tags:"))
               for line in result.stdout.splitlines() if line.strip())


@pytest.mark.parametrize("name", ["nl\n- zh: 恶意\n  en: evil.tsv", "x--><img src=x>.tsv",
                                  "ctl\x1b\x85.tsv"])
def test_an_import_file_name_stays_in_its_comment(runner, glossary_project, name):
    write(glossary_project / name, "流水线并行\tpipeline parallelism\n")
    result = _import(runner, name)
    assert result.exit_code == 0, result.output
    from zhenglossary.glossary import load_glossary

    text = (glossary_project / "glossary.yaml").read_text("utf-8")
    [comment] = [line for line in text.splitlines() if "imported from" in line]
    assert comment == f"  # --- imported from {printable(' '.join(name.split()))} by `zhen glossary import` ---"
    glossary = load_glossary(glossary_project / "glossary.yaml")
    assert not glossary.errors
    assert [t.zh for t in glossary.terms][-1] == "流水线并行" and "恶意" not in glossary.form_map


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from(list("ab -+=@'\",;#") + ["\u00a0"]), min_size=1, max_size=10))
def test_every_exported_tsv_value_reads_back_as_itself(en):
    """Export then import: quotes, a leading ', formula characters all survive, and no
    exported cell starts with a character a spreadsheet runs."""
    from zhenglossary.exchange.table import FORMULA_START, export_tsv, read_table
    from zhenglossary.glossary import Glossary, Term

    en = en.strip()
    if not en or en.startswith("="):
        return                                       # refused on import (a formula)
    tsv = export_tsv(Glossary([Term("混合", en)], "g.yaml"))
    assert not tsv.split("\t")[1].startswith(FORMULA_START)
    [back] = read_table(tsv, "x.tsv", "tsv").candidates
    assert back.en == en


def test_a_cache_built_in_one_folder_is_copied_into_another_and_a_damaged_one_rebuilt(
        tmp_path, monkeypatch):
    """A process that meets a second cache folder (another ZHEN_HOME) copies the cache
    files it built, byte for byte, instead of building them again; a copy source damaged
    since is refused by the opener like any damaged cache, and the file is built anew."""
    from zhenglossary import cedict, fileio

    first, second, third = (tmp_path / name for name in ("one", "two", "three"))
    monkeypatch.setenv("ZHEN_HOME", str(first))
    monkeypatch.setattr(cedict, "_lookups", {})
    monkeypatch.setattr(cedict, "_loaded", {})
    assert "计算" in cedict.lookup()
    built = cedict.lookup_path(cedict.package_version())
    assert built.is_file() and fileio._BUILT[built.name] == built

    monkeypatch.setenv("ZHEN_HOME", str(second))
    monkeypatch.setattr(cedict, "_lookups", {})
    parsed = []
    monkeypatch.setattr(cedict, "_parse_source", lambda: parsed.append(1) or {})
    assert "计算" in cedict.lookup() and parsed == []           # copied, not parsed again
    copy = cedict.lookup_path(cedict.package_version())
    assert copy != built and copy.read_bytes() == built.read_bytes()

    copy.write_bytes(b"not a database")                         # the newest source, damaged
    monkeypatch.undo()                                          # the real parser again
    monkeypatch.setenv("ZHEN_HOME", str(third))
    monkeypatch.setattr(cedict, "_lookups", {})
    monkeypatch.setattr(cedict, "_loaded", {})
    assert "计算" in cedict.lookup()
    rebuilt = cedict.lookup_path(cedict.package_version())
    assert rebuilt.read_bytes()[:16] == b"SQLite format 3\x00"
