"""`zhen status`, `zhen mark`, `zhen glossary check` and `zhen export` see each block as the
next `zhen translate` will: a person's change to x.en.md is read through the same reading
translate takes it in by (``parallel.read_prior`` / ``carry_english``) and judged by the one
decision (``parallel.decide`` with the output check), and a glossary translate refuses is
refused by every command that decides a status. CLI, exact exit codes; then a property over
random edit histories: status counts what the following translate reports, and check's
errors and warnings for hand edits are translate's."""

from __future__ import annotations

import hashlib
import json
import os
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


# ------------------------------------------------------------------ status reads x.en.md


def test_status_counts_a_valid_edit_in_the_english_file_as_edited(runner, proj):
    assert translate(runner)[0] == 0
    edit_english_file(proj, MELT, "In summer the glacier's ablation is about $v$ metres a day.")
    snapshot = tree(proj)
    code, data, _ = status(runner, "--fail-on", "edited")
    assert code == 1 and counts(data)["edited"] == 1 and counts(data)["machine"] == 3
    assert tree(proj) == snapshot                      # status writes nothing
    code, data, _ = translate(runner)
    assert code == 0 and after(data["summary"])["edited"] == 1


def test_status_fails_on_an_invalid_edit_in_the_english_file_before_translate_does(runner, proj):
    assert translate(runner)[0] == 0
    edit_english_file(proj, MELT, "In summer the glacier melts fast.")     # math and a term lost
    code, data, _ = status(runner, "--fail-on", "invalid")
    assert code == 1 and counts(data)["invalid"] == 1 and counts(data)["edited"] == 0
    predicted = before(counts(data))
    code, data, _ = translate(runner)
    assert code == 1 and after(data["summary"]) == predicted
    assert [f["check"] for f in data["findings"] if f["severity"] == "error"] == ["edit-invalid"]


def test_status_counts_an_edit_in_the_english_file_whose_block_was_deleted_as_orphaned(runner,
                                                                                       proj):
    assert translate(runner)[0] == 0
    edit_english_file(proj, LAST, "Last: back to camp tomorrow.")
    write(proj / "notes" / "field.md", NOTE.replace("\n最后一段：明天返回营地。\n", ""))
    code, data, _ = status(runner, "--fail-on", "orphaned")
    assert code == 1 and counts(data)["orphaned"] == 1
    predicted = before(counts(data))
    code, data, _ = translate(runner)
    assert code == 0 and after(data["summary"]) == predicted == {
        "machine": 3, "reviewed": 0, "edited": 0, "stale": 0, "invalid": 0, "orphaned": 1}


def test_status_stops_where_translate_stops_on_an_english_file_it_cannot_carry(runner, proj):
    assert translate(runner)[0] == 0
    edit_english_file(proj, SCOPE, "Telescope bore decided resolution.\n\nA new paragraph.")
    snapshot = tree(proj)
    code, data, result = status(runner)
    assert code == 1 and data["exit_code"] == 1
    [note] = data["notes"]
    assert note["stops"] and note["counts"] == {}
    assert "blocks were added or removed by hand" in note["problem"]
    assert "`zhen translate` stops on this note" in note["problem"]
    assert tree(proj) == snapshot
    code, data, _ = translate(runner)
    assert code == 1 and "blocks were added or removed by hand" in data["files"][0]["error"]


# ------------------------------------------------------------------ check reads x.en.md


@pytest.mark.parametrize("english, kinds", [
    ("Node count: in summer the glacier melts fast.", {"protected-changed", "term-missing"}),
    ("In summer the ice river ablation is about $v$ metres a day.",
     {"term-forbidden", "term-missing"}),
    ("In summer the glacier 消融 is about $v$ metres a day.", {"untranslated"}),
    ("In summer the glacier's ablation is about $w$ metres a day.", {"protected-changed"}),
])
def test_check_judges_an_edit_in_the_english_file_as_translate_does(runner, proj, english,
                                                                    kinds):
    assert translate(runner)[0] == 0
    line = edit_english_file(proj, MELT, english)
    code, data, _ = check(runner)
    assert code == 1
    found = errors(data)
    assert {kind for kind, _, _ in found} == kinds
    assert {(file, at) for _, file, at in found} == {("notes/field.en.md", line)}
    assert not [f for f in data["findings"] if f["check"] in ("edited", "stale")]
    code, data, _ = translate(runner)
    assert code == 1
    [(kind, file, _)] = errors(data)
    assert kind == "edit-invalid" and file == "notes/field.zh-en.md"


def test_check_passes_a_valid_edit_in_the_english_file(runner, proj):
    assert translate(runner)[0] == 0
    edit_english_file(proj, MELT, "In summer the glacier's ablation is about $v$ metres a day.")
    code, data, _ = check(runner)
    assert code == 0 and errors(data) == [] and errors(data, "warning") == []
    assert sorted(f["check"] for f in data["findings"]) == ["edited", "english-edited"]
    assert translate(runner)[0] == 0


def test_a_forbid_in_an_english_file_edit_of_a_stale_block_is_found(runner, proj):
    assert translate(runner)[0] == 0
    edit_parallel(proj, 2, "Summer glacier ablation runs at about $v$ metres a day.")
    write(proj / "notes" / "field.md", NOTE.replace("消融速度", "消融的速度"))
    assert translate(runner)[0] == 0                   # block 2 stale, its edit quoted
    assert "status=stale" in par_file(proj).read_text("utf-8")
    line = edit_english_file(proj, MELT, "The ice river ablation speed is about $v$ metres a day.")
    code, data, _ = status(runner, "--fail-on", "invalid")
    assert code == 1 and counts(data)["invalid"] == 1 and counts(data)["stale"] == 0
    code, data, _ = check(runner)
    assert code == 1 and ("term-forbidden", "notes/field.en.md", line) in errors(data)
    code, data, _ = translate(runner)
    assert code == 1 and [k for k, _, _ in errors(data)] == ["edit-invalid"]


def test_an_english_file_edit_that_goes_stale_with_the_glossary_is_one_stale_warning(runner,
                                                                                      proj):
    # the edit is for a glossary entry that changes before translate takes it in: translate
    # keeps it quoted beside new machine English; check says the same, no forbid error
    assert translate(runner)[0] == 0
    edit_english_file(proj, MELT, "The ice river ablation speed is about $v$ metres a day.")
    write(proj / "glossary.yaml", GLOSSARY.replace("en: ablation", "en: melt loss"))
    code, data, _ = check(runner)
    assert code == 0 and errors(data) == []
    assert [k for k, _, _ in errors(data, "warning")] == ["stale"]
    code, data, _ = status(runner)
    assert counts(data)["stale"] == 1
    code, data, _ = translate(runner)
    assert code == 0 and [k for k, _, _ in errors(data, "warning")] == ["stale"]


# ------------------------------------------------------------------ one finding per cause


def test_a_renamed_term_makes_a_stale_block_one_stale_warning_not_also_an_error(runner, proj):
    assert translate(runner)[0] == 0
    edit_parallel(proj, 2, "Summer glacier ablation runs at about $v$ metres a day.")
    assert run(runner, "mark", "notes/field.md", "3")[0] == 0
    write(proj / "glossary.yaml", GLOSSARY.replace("en: ablation", "en: melt loss")
          .replace("en: telescope", "en: reflector"))
    code, data, _ = check(runner)
    assert code == 0 and errors(data) == []
    assert sorted(f["line"] for f in data["findings"] if f["check"] == "stale") == [12, 17]
    code, data, _ = translate(runner)
    assert code == 0 and data["summary"]["blocks"]["stale"] == 2


def test_an_invalid_block_is_its_errors_not_also_an_edited_info(runner, proj):
    assert translate(runner)[0] == 0
    edit_parallel(proj, 2, "In summer the glacier melts fast.")
    edit_parallel(proj, 3, "The telescope's aperture sets its resolution.")
    code, data, _ = check(runner)
    assert code == 1
    edited = [f for f in data["findings"] if f["check"] == "edited"]
    assert [f["segment"] for f in edited] == ["b3"]
    assert {f["segment"] for f in data["findings"] if f["severity"] == "error"} == {"b2"}


# ------------------------------------------------------------------ mark


def test_mark_all_passes_over_edited_blocks_without_failing(runner, proj):
    assert translate(runner)[0] == 0
    edit_parallel(proj, 3, "The telescope's aperture sets its resolution.")
    code, _, result = run(runner, "mark", "notes/field.md", "--all")
    assert code == 0
    assert result.stdout.strip() == "marked 3 block(s) reviewed in notes/field.zh-en.md: 1, 2, 4"
    assert result.stderr.strip() == ("warning: block 3: not marked — its English was edited by "
                                     "hand (a person's already)")
    # asked for by number, an edited block is still a skip that fails
    code, _, result = run(runner, "mark", "notes/field.md", "3")
    assert code == 1 and "block 3: not marked" in result.stderr


def test_mark_does_not_review_a_block_edited_in_the_english_file(runner, proj):
    assert translate(runner)[0] == 0
    edit_english_file(proj, SCOPE, "The telescope's aperture sets its resolution.")
    english = en_file(proj).read_bytes()
    code, _, result = run(runner, "mark", "notes/field.md", "3")
    assert code == 1 and result.stderr.strip() == (
        "warning: block 3: not marked — its English was edited by hand (in field.en.md) (a "
        "person's already)")
    assert "status=reviewed -->" not in par_file(proj).read_text("utf-8")
    code, _, result = run(runner, "mark", "notes/field.md", "--all")
    assert code == 0 and "1, 2, 4" in result.stdout
    assert en_file(proj).read_bytes() == english       # mark changes only en markers
    code, data, _ = translate(runner)
    assert code == 0 and after(data["summary"]) == {
        "machine": 0, "reviewed": 3, "edited": 1, "stale": 0, "invalid": 0, "orphaned": 0}


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


# ------------------------------------------------------------------ the property


FIELDS = [          # sentences in several fields, each block holding a term or math or neither
    "冰川在夏季的消融速度约为 $v$ 米每天",
    "望远镜的口径决定了分辨率",
    "冰川末端的退缩在照片里很明显",
    "今晚用望远镜观测木星的卫星",
    "面团发酵两小时后体积翻倍",
    "样本量 $n$ 太小时置信区间很宽",
    "明天返回营地",
]
EDITS = {           # how a person changes a block's English: (valid?, change)
    "append": lambda e: e.rstrip(".") + ", as noted.",
    "chinese": lambda e: e.rstrip(".") + " 备注.",
    "forbid": lambda e: e.rstrip(".") + " near the ice river.",
    "drop-math": lambda e: e.replace("$v$", "v").replace("$n$", "n"),
    "drop-term": lambda e: e.replace("Glacier", "Ice").replace("glacier", "ice")
                            .replace("Telescope", "Scope").replace("telescope", "scope"),
    "empty": lambda e: "",
}
EXAMPLES = int(os.environ.get("ZHEN_STATUS_EXAMPLES", "25"))


def _blocks_of_english(path: Path) -> list[int]:
    """Line numbers (0-based) of x.en.md's block lines: after the header and banner."""
    lines = path.read_text("utf-8").split("\n")
    return [k for k, line in enumerate(lines) if k >= 2 and line.strip()]


def _apply(root: Path, step) -> None:
    where, pick, how = step
    if where == "note":
        note = root / "notes" / "field.md"
        blocks = [b for b in note.read_text("utf-8").split("\n\n") if b.strip()]
        i = pick % len(blocks)
        if how == "delete" and len(blocks) > 1:
            del blocks[i]
        else:
            blocks[i] = blocks[i].replace("的", "之", 1) if "的" in blocks[i] else blocks[i] + "很"
        note.write_text("\n\n".join(blocks).strip() + "\n", "utf-8")
        return
    if where == "glossary":
        path = root / "glossary.yaml"
        text = path.read_text("utf-8")
        path.write_text(text.replace("en: telescope", "en: reflector") if "telescope" in text
                        else text.replace("en: reflector", "en: telescope"), "utf-8")
        return
    change = EDITS.get(how, EDITS["append"])
    if where == "en":
        path = root / "notes" / "field.en.md"
        if not path.exists():
            return
        lines = path.read_text("utf-8").split("\n")
        spots = [k for k in _blocks_of_english(path) if not lines[k].startswith("#")]
        if spots and how != "empty":
            k = spots[pick % len(spots)]
            lines[k] = change(lines[k])
            path.write_text("\n".join(lines), "utf-8")
        return
    path = root / "notes" / "field.zh-en.md"
    if not path.exists():
        return
    lines = path.read_text("utf-8").split("\n")
    spots = [k + 1 for k, line in enumerate(lines) if line.startswith("<!-- zhen:en ")
             and not lines[k + 1].startswith("#")]
    if spots:
        k = spots[pick % len(spots)]
        lines[k] = change(lines[k])
        path.write_text("\n".join(lines), "utf-8")


def _per_block(findings, kinds) -> set[str]:
    """The sources of the blocks with a finding of ``kinds``."""
    return {" ".join(f["source"].split()) for f in findings
            if f["check"] in kinds and f.get("source")}


CHECK_ERRORS = {"term-missing", "term-forbidden", "untranslated", "protected-changed"}


def test_status_and_check_agree_with_the_next_translate_over_random_histories(
        runner, tmp_path_factory, monkeypatch, home):
    from hypothesis import HealthCheck, given, settings, strategies as st

    steps = st.lists(st.tuples(st.sampled_from(["en", "en", "parallel", "note", "glossary"]),
                               st.integers(0, 9),
                               st.sampled_from(sorted(EDITS) + ["delete", "change"])),
                     min_size=1, max_size=4)

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.function_scoped_fixture,
                                     HealthCheck.too_slow])
    @given(chosen=st.lists(st.sampled_from(FIELDS), min_size=2, max_size=4),
           history=st.lists(steps, min_size=1, max_size=2))
    def property_(chosen, history):
        root = tmp_path_factory.mktemp("hist")
        write(root / "glossary.yaml", GLOSSARY)
        write(root / "notes" / "field.md", "\n\n".join(s + "。" for s in chosen) + "\n")
        monkeypatch.chdir(root)
        monkeypatch.setenv("ZHEN_HOME", str(home))
        assert translate(runner)[0] == 0
        for round_ in history:
            for step in round_:
                _apply(root, step)
            code, said, _ = status(runner)
            [note] = said["notes"]
            _, checked, _ = check(runner)
            code, done, _ = translate(runner)
            if note.get("stops"):        # x.en.md and the parallel file both changed
                assert code == 1 and done["files"][0]["error"], (round_, done)
                assert any(f["check"] == "english-conflict" for f in checked["findings"])
                return
            assert after(done["summary"]) == before(note["counts"]), (round_, note, done)
            # check's verdict on hand edits, block by block, is translate's
            invalid = _per_block(done["findings"], {"edit-invalid"})
            assert _per_block([f for f in checked["findings"] if f["severity"] == "error"],
                              CHECK_ERRORS) == invalid, (round_, checked, done)
            stale = [f for f in checked["findings"] if f["check"] == "stale"
                     and f.get("segment")]
            assert len(stale) == done["summary"]["blocks"]["stale"], (round_, checked, done)
            orphaned = [f for f in checked["findings"] if f["check"] == "edit-orphaned"]
            assert len(orphaned) == done["summary"]["orphaned_edits"], (round_, checked, done)

    property_()
