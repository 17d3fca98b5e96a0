"""`zhen translate --jobs N`: the gloss engine in N processes gives the same bytes as one,
and the same counts; engines that are not made for it run in the main process."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from zhenglossary import workers
from zhenglossary.cli import app

CORPUS = Path(__file__).parent / "corpus"


@pytest.fixture
def proj(tmp_path, monkeypatch):
    root = tmp_path / "proj"
    (root / "notes").mkdir(parents=True)
    for note in sorted(CORPUS.glob("*.md")):
        shutil.copy(note, root / "notes" / note.name)
    shutil.copy(CORPUS / "glossary.yaml", root / "glossary.yaml")
    monkeypatch.chdir(root)
    monkeypatch.setenv("ZHEN_HOME", str(root / ".zhen"))
    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(tmp_path / "no-models"))
    monkeypatch.setattr(workers, "MIN_CHARS_PER_JOB", 1)     # small notes: processes anyway
    return root


def _run(runner, jobs):
    result = runner.invoke(app, ["translate", "notes/", "--engine", "gloss", "--no-memory",
                                 "--jobs", str(jobs), "--format", "json"])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


def _outputs(root):
    return {p.name: p.read_bytes() for p in sorted((root / "notes").glob("*.*.md"))}


@pytest.mark.slow
def test_two_processes_write_the_same_bytes_as_one(runner, proj, monkeypatch):
    started = []
    real = workers.Pool.__init__

    def starting(self, jobs, *args):
        started.append(jobs)
        real(self, jobs, *args)
    monkeypatch.setattr(workers.Pool, "__init__", starting)
    one = _run(runner, 1)
    first = _outputs(proj)
    assert started == []                                 # one process: no pool
    for path in (proj / "notes").glob("*.*.md"):
        path.unlink()
    two = _run(runner, 2)
    assert started == [2] and _outputs(proj) == first
    keys = ("files", "segments", "translated", "terms_locked", "validated_blocks", "blocks")
    assert {k: two["summary"][k] for k in keys} == {k: one["summary"][k] for k in keys}
    assert sorted(json.dumps(f, sort_keys=True) for f in two["findings"]) == \
        sorted(json.dumps(f, sort_keys=True) for f in one["findings"])


def test_chunks_balance_by_size_and_keep_every_note():
    sizes = [(k, size) for k, size in enumerate([90, 10, 50, 50, 5, 45])]
    parts = workers.chunks(sizes, 2)
    assert sorted(k for part in parts for k in part) == list(range(6))
    loads = [sum(dict(sizes)[k] for k in part) for part in parts]
    assert max(loads) <= 4 / 3 * (sum(loads) / 2)          # biggest first: within 4/3 of best


def test_an_engine_not_made_for_processes_stays_in_this_one():
    class Threaded:
        processes = False
    assert workers.worth_it(4, Threaded(), [10**6] * 8) == 1
    class Single:
        processes = True
    assert workers.worth_it(4, Single(), [10**6] * 8) == 4
    assert workers.worth_it(4, Single(), [10] * 8) == 1        # not worth starting one
    assert workers.worth_it(1, Single(), [10**6] * 8) == 1
