"""`zhen status`, `zhen mark`, `zhen glossary check` and `zhen export` see each block as the
next `zhen translate` will: a glossary translate refuses is refused by every command that
decides a status. CLI, exact exit codes."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from conftest import write
from zhenglossary.cli import app

# a glaciologist's field notes and an observatory log, written for this test
GLOSSARY = """\
terms:
  - zh: 冰川
    en: glacier
    forbid: [ice river]
  - zh: 消融
    en: ablation
  - zh: 望远镜
    en: telescope
"""

NOTE = """# 野外记录

冰川在夏季的消融速度约为 $v$ 米每天。

望远镜的口径决定了分辨率。

最后一段：明天返回营地。
"""

MELT = "Glacier in summer ablation"            # how the gloss starts block 2 in x.en.md
SCOPE = "Telescope bore"                       # block 3
LAST = "Finally one"                           # block 4


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    """One ZHEN_HOME for the module: its caches (jieba's, the lexicon's) are built once, not
    once a test (the memory shared too: no test here counts its hits)."""
    return tmp_path_factory.mktemp("zhen-home")


@pytest.fixture
def proj(tmp_path, monkeypatch, home):
    root = tmp_path / "proj"
    write(root / "glossary.yaml", GLOSSARY)
    write(root / "notes" / "field.md", NOTE)
    monkeypatch.chdir(root)
    monkeypatch.setenv("ZHEN_HOME", str(home))
    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(tmp_path / "no-models"))
    return root


def run(runner, *args):
    result = runner.invoke(app, [str(a) for a in args])
    data = json.loads(result.stdout) if "json" in args and result.stdout.strip() else None
    return result.exit_code, data, result


def translate(runner):
    return run(runner, "translate", "notes/", "--engine", "gloss", "--format", "json")


def status(runner, *extra):
    return run(runner, "status", "notes/", "--format", "json", *extra)


def check(runner):
    return run(runner, "glossary", "check", "notes/", "--format", "json", "--info")


def en_file(root) -> Path:
    return root / "notes" / "field.en.md"


def par_file(root) -> Path:
    return root / "notes" / "field.zh-en.md"


def edit_english_file(root, starts: str, new: str) -> int:
    """Replace the line of x.en.md starting with ``starts``; its 1-based line."""
    path = en_file(root)
    lines = path.read_text("utf-8").split("\n")
    [k] = [k for k, line in enumerate(lines) if line.startswith(starts)]
    lines[k] = new
    path.write_text("\n".join(lines), "utf-8")
    return k + 1


def edit_parallel(root, index: int, new: str) -> None:
    path = par_file(root)
    lines = path.read_text("utf-8").split("\n")
    [k] = [k for k, line in enumerate(lines) if line.startswith(f"<!-- zhen:en {index} ")]
    lines[k + 1] = new
    path.write_text("\n".join(lines), "utf-8")


def tree(root) -> dict:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted((root / "notes").rglob("*")) if p.is_file()}


def counts(data) -> dict:
    return data["total"]


def after(summary) -> dict:
    """What translate reports, in status's columns (pending blocks get machine English)."""
    blocks = {k: v for k, v in summary["blocks"].items() if k != "pending"}
    assert not summary["blocks"].get("pending")
    return {**blocks, "orphaned": summary["orphaned_edits"]}


def before(total) -> dict:
    out = {k: v for k, v in total.items() if k not in ("pending",)}
    out["machine"] += total["pending"]
    return out


def errors(data, severity="error"):
    return [(f["check"], f["file"], f["line"]) for f in data["findings"]
            if f["severity"] == severity]


# ------------------------------------------------------------------ a glossary translate refuses


BROKEN = "  - zh: [冰川\n"
REFUSED = ("error: glossary.yaml:10:1: YAML syntax error: did not find expected ',' or ']' (while "
           "parsing a flow sequence); check the indentation and quoting on this line and the one "
           "before (run `zhen glossary check` for all problems)")


def test_a_broken_glossary_is_the_one_error_translate_gives_in_status_mark_and_export(runner,
                                                                                     proj):
    assert translate(runner)[0] == 0
    edit_parallel(proj, 3, "The telescope's aperture sets its resolution.")
    (proj / "glossary.yaml").write_text(GLOSSARY + BROKEN, "utf-8")
    snapshot = tree(proj)
    for args in (["translate", "notes/", "--engine", "gloss"], ["status"],
                 ["status", "--fail-on", "stale"], ["mark", "notes/field.md", "2"],
                 ["export", "notes/", "--format", "tmx"]):
        code, _, result = run(runner, *args)
        assert (code, result.stderr.strip()) == (2, REFUSED), args
    assert tree(proj) == snapshot


def test_check_of_a_broken_glossary_reports_it_and_judges_no_translation(runner, proj):
    assert translate(runner)[0] == 0
    edit_parallel(proj, 3, "The telescope's aperture sets its resolution.")
    (proj / "glossary.yaml").write_text(GLOSSARY + BROKEN, "utf-8")
    code, data, result = check(runner)
    assert code == 1
    assert [(f["check"], f["file"], f["line"]) for f in data["findings"]] == [
        ("yaml-syntax", "glossary.yaml", 10)]
    assert data["summary"]["translations"] == 0
    code, _, result = run(runner, "glossary", "check", "notes/")
    assert code == 1 and "stale" not in result.stdout
    assert ("warning: the notes' translations were not checked: glossary.yaml has 1 error(s), "
            "and `zhen translate` refuses it until they are fixed") in result.stderr
