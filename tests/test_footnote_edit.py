"""A person's edit inside a footnote definition is judged once, by the one output check
every command asks (``parallel.decide`` with ``edit_check``): ``zhen translate`` (edit-invalid),
``zhen glossary check`` (the same edit, same severity) and ``zhen status`` (invalid) agree.
A definition read on its own against its note's env once read as nothing (the env view's
footnote list walked only the footnotes a block referenced), so only translate saw it.
CLI, exact exit codes."""

from __future__ import annotations

import json

import pytest

from conftest import write
from zhenglossary.cli import app

GLOSSARY = """\
terms:
  - zh: 环志
    en: bird ringing
  - zh: 雏鸟
    en: nestling
"""

# a field trip of bird ringers: a body paragraph, then the footnote defining its source
NOTE = """我们在湿地给雏鸟做了环志[^ring]。

[^ring]: 方法见 [环志手册](https://example.org/ringing/manual-2019.pdf)。
"""

GOOD = "https://example.org/ringing/manual-2019.pdf"
BAD = "https://example.org/ringing/manual-2021.pdf"


@pytest.fixture
def proj(tmp_path, monkeypatch):
    root = tmp_path / "proj"
    write(root / "glossary.yaml", GLOSSARY)
    write(root / "notes" / "wetland.md", NOTE)
    monkeypatch.chdir(root)
    monkeypatch.setenv("ZHEN_HOME", str(root / ".zhen"))
    return root


def _edit_definition(root, old: str, new: str) -> None:
    par = root / "notes" / "wetland.zh-en.md"
    lines = par.read_text("utf-8").split("\n")
    [k] = [k for k, line in enumerate(lines) if line.startswith("[^ring]:") and old in line
           and not any(c >= "\u4e00" for c in line)]          # the English, not the source
    lines[k] = lines[k].replace(old, new, 1)
    par.write_text("\n".join(lines), "utf-8")


def _three(runner):
    check = runner.invoke(app, ["glossary", "check", "notes/", "--format", "json"])
    status = runner.invoke(app, ["status", "notes/", "--format", "json",
                                 "--fail-on", "invalid"])
    translate = runner.invoke(app, ["translate", "notes/", "--engine", "gloss",
                                    "--format", "json"])
    return check, status, translate


def _checks(result, severity="error"):
    return [f["check"] for f in json.loads(result.stdout)["findings"]
            if f["severity"] == severity]


def _invalid(status) -> int:
    data = json.loads(status.stdout)
    return data["total"]["invalid"] if "total" in data else data["notes"][0]["invalid"]


@pytest.mark.parametrize("where", ["link", "image"])
def test_a_link_changed_in_a_footnote_definition_is_invalid_for_all_three(runner, proj, where):
    if where == "image":          # the same promise, an image inside the definition
        write(proj / "notes" / "wetland.md", NOTE.replace("[环志手册]", "![环志手册]"))
    first = runner.invoke(app, ["translate", "notes/", "--engine", "gloss"])
    assert first.exit_code == 0, first.output
    _edit_definition(proj, GOOD, BAD)
    check, status, translate = _three(runner)
    assert check.exit_code == 1, check.output
    assert "protected-changed" in _checks(check)
    assert status.exit_code == 1, status.output            # --fail-on invalid
    assert _invalid(status) == 1
    assert translate.exit_code == 1, translate.output
    assert "edit-invalid" in _checks(translate)
    # the edit is kept, and still judged the same the next time
    assert BAD in (proj / "notes" / "wetland.zh-en.md").read_text("utf-8")
    again = runner.invoke(app, ["status", "notes/", "--format", "json", "--fail-on", "invalid"])
    assert again.exit_code == 1 and _invalid(again) == 1


def test_a_valid_edit_of_a_footnote_definition_is_edited_for_all_three(runner, proj):
    first = runner.invoke(app, ["translate", "notes/", "--engine", "gloss"])
    assert first.exit_code == 0, first.output
    _edit_definition(proj, " [", " the ringers' field guide, [")
    check, status, translate = _three(runner)
    assert check.exit_code == 0, check.output
    assert status.exit_code == 0 and _invalid(status) == 0, status.output
    assert translate.exit_code == 0, translate.output
    assert "edit-invalid" not in _checks(translate)
    assert "the ringers' field guide" in (proj / "notes" / "wetland.en.md").read_text("utf-8")


def test_chinese_left_in_a_footnote_definition_edit_is_invalid_for_all_three(runner, proj):
    first = runner.invoke(app, ["translate", "notes/", "--engine", "gloss"])
    assert first.exit_code == 0, first.output
    par = proj / "notes" / "wetland.zh-en.md"
    text = par.read_text("utf-8")
    english = [line for line in text.split("\n") if line.startswith("[^ring]:")][-1]
    par.write_text(text.replace(english, english.rstrip(".") + " 湿地."), "utf-8")
    check, status, translate = _three(runner)
    assert check.exit_code == 1 and "untranslated" in _checks(check), check.output
    assert status.exit_code == 1 and _invalid(status) == 1, status.output
    assert translate.exit_code == 1 and "edit-invalid" in _checks(translate), translate.output


def test_any_edit_of_a_footnote_definition_gets_one_verdict(runner, tmp_path_factory,
                                                            monkeypatch):
    """Random edits of the English of a footnote definition (its link, its text, Chinese,
    a label): translate, check and status give each the same verdict."""
    from hypothesis import HealthCheck, given, settings, strategies as st

    edits = st.sampled_from([
        (GOOD, BAD), (GOOD, GOOD + "?v=2"), ("(" + GOOD + ")", "(" + GOOD + ' "manual")'),
        ("](", "] ("), (" [", " the field guide ["), (" [", " 湿地 ["), ("[^ring]:", "[^rings]:"),
        (".", ""), (".", " [^ring]."), ("manual", "handbook")])

    @settings(max_examples=12, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(chosen=st.lists(edits, min_size=1, max_size=2, unique=True),
           image=st.booleans())
    def run(chosen, image):
        root = tmp_path_factory.mktemp("any")
        write(root / "glossary.yaml", GLOSSARY)
        write(root / "notes" / "wetland.md",
              NOTE.replace("[环志手册]", "![环志手册]") if image else NOTE)
        monkeypatch.chdir(root)
        monkeypatch.setenv("ZHEN_HOME", str(root / ".zhen"))
        assert runner.invoke(app, ["translate", "notes/", "--engine", "gloss"]).exit_code == 0
        par = root / "notes" / "wetland.zh-en.md"
        lines = par.read_text("utf-8").split("\n")
        [k] = [k for k, line in enumerate(lines) if line.startswith("[^ring]:")
               and not any(c >= "\u4e00" for c in line)]
        for old, new in chosen:
            lines[k] = lines[k].replace(old, new, 1)
        par.write_text("\n".join(lines), "utf-8")
        check, status, translate = _three(runner)
        invalid = _invalid(status) == 1
        assert status.exit_code == (1 if invalid else 0), (chosen, status.output)
        assert check.exit_code == (1 if invalid else 0), (chosen, check.output)
        assert translate.exit_code == (1 if invalid else 0), (chosen, translate.output)
        assert ("edit-invalid" in _checks(translate)) == invalid, (chosen, translate.output)

    run()
