"""`zhen glossary check --jobs N`: the notes checked in shards (in processes) give the same
findings as one process, for any way of cutting them into shards. What makes it hold:
every check marked ``per_note`` finds for a note what it finds when that note is checked
alone, and a check said once per project (``once``) is kept at its first note."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest

from zhenglossary import workers
from zhenglossary.checks import REGISTRY
from zhenglossary.checks.gather import (check_shard, context, gather, merge, read_notes,
                                        run)
from zhenglossary.cli import app
from zhenglossary.findings import sort_findings
from zhenglossary.glossary import load_glossary
from zhenglossary.notes import collect_notes

CORPUS = Path(__file__).parent / "corpus"
# the corpus notes the project is made of: the ones worked on below and a few more
USED = ("bio_protein.md", "compilers_ssa.md", "databases_btree.md", "hpc_collectives.md",
        "ml_attention.md", "numerics_cg.md", "os_scheduler.md", "signal_fft.md",
        "storage_lsm.md", "distributed_raft.md")
NOTES = Path(__file__).parent.parent / "notes"


def _key(f):
    return (f.check, f.severity, f.message, f.file, f.line, f.column,
            json.dumps(f.extra, sort_keys=True, ensure_ascii=False, default=str))


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    """The corpus notes, translated with the gloss engine, then
    worked on as people do: English edited in both files, a forbidden word typed in, a
    block changed and one deleted after its edit, a parenthetical that disagrees across
    notes, one sentence translated two ways in two notes."""
    import os

    from typer.testing import CliRunner

    root = tmp_path_factory.mktemp("jobs") / "proj"
    (root / "notes").mkdir(parents=True)
    for name in USED:
        shutil.copy(CORPUS / name, root / "notes" / name)
    shutil.copy(NOTES.parent / "glossary.yaml", root / "glossary.yaml")
    notes = root / "notes"
    extra = ("\n同一句话在两篇笔记里出现：调度器先检查队列长度。\n\n缓存（cache line）很重要。\n\n"
             "图中每个节点（vertex）带一个权重，我们按图并行策略切分它。\n")
    for name in ("os_scheduler.md", "storage_lsm.md", "bio_protein.md"):
        with open(notes / name, "a", encoding="utf-8") as f:
            f.write(extra)
    with open(notes / "hpc_collectives.md", "a", encoding="utf-8") as f:
        f.write("\n我们再用混合精度量化压缩模型。\n")
    old = os.getcwd()
    os.chdir(root)
    env = {"ZHEN_HOME": str(root / ".zhen"), "ARGOS_PACKAGES_DIR": str(root / "no-models"),
           "ZHEN_CONFIG": str(root / "absent.toml")}
    try:
        runner = CliRunner()
        result = runner.invoke(app, ["translate", "notes/", "--engine", "gloss", "--no-memory",
                                     "--jobs", "1"], env=env)
        assert result.exit_code in (0, 1), result.output
        # English edited in a parallel file: a forbidden word for a term
        par = notes / "hpc_collectives.zh-en.md"
        text = par.read_text("utf-8")
        wrong = "mixed-precision quantization"               # 混合精度量化's, as the gloss writes it
        at = next(m.end() + text[m.end():].index(wrong)
                  for m in re.finditer(r"<!-- zhen:en [^\n]*-->", text)
                  if wrong in text[m.end():text.find("<!-- zhen:", m.end())])
        par.write_text(text[:at] + "hybrid-precision quantization" + text[at + len(wrong):],
                       "utf-8")
        # the same sentence given another English in one note (its last block)
        par = notes / "os_scheduler.zh-en.md"
        text = par.read_text("utf-8")
        at = text.index("-->", text.rfind("<!-- zhen:en ")) + 3
        par.write_text(text[:at] + "\nThe scheduler checks the length of the run queue "
                       "first.\n", "utf-8")
        # x.en.md changed by hand
        english = notes / "signal_fft.en.md"
        text = english.read_text("utf-8")
        english.write_text(text.rstrip("\n") + " (checked by hand)\n", "utf-8")
        # a block changed, one deleted, after they were translated
        for name in ("ml_attention.md", "numerics_cg.md"):
            source = (notes / name).read_text("utf-8").split("\n\n")
            source[2] = source[2] + "另外补充一句。"
            del source[4]
            (notes / name).write_text("\n\n".join(source), "utf-8")
        result = runner.invoke(app, ["glossary", "check", "--jobs", "1", "--format", "json"],
                               env=env)
        assert result.exit_code in (0, 1), result.output
        one = json.loads(result.stdout)
    finally:
        os.chdir(old)
    return root, env, one


def test_the_project_has_findings_of_many_kinds(checked):
    _, _, one = checked
    kinds = {f["check"] for f in one["findings"]}
    assert len(kinds) >= 6, kinds
    assert {"stale", "inconsistent", "term-forbidden", "english-edited", "term-overlap",
            "parenthetical-disagrees"} <= kinds, kinds


def _whole(root):
    glossary = load_glossary(root / "glossary.yaml")
    files = collect_notes([root / "notes"])
    notes, findings = read_notes(files)
    shard = gather(notes, glossary, None, findings)
    return glossary, files, shard


def test_each_per_note_check_finds_for_a_note_what_it_finds_for_the_note_alone(checked,
                                                                             monkeypatch):
    root, _, _ = checked
    monkeypatch.chdir(root)
    glossary, files, whole = _whole(root)
    ctx = context(whole, glossary)
    per_note = [c for c in REGISTRY.values() if c.fn is not None and c.per_note]
    assert len(per_note) >= 10
    alone = [gather([n], glossary, None) for n in whole.notes]
    for item in per_note:
        everything = sorted(_key(f) for f in item.fn(ctx))
        pieces = []
        for shard in alone:
            pieces += list(item.fn(context(shard, glossary)))
        if item.once:
            firsts = {}
            for f in pieces:                 # the notes' order: the first note's is kept
                firsts.setdefault((f.check, *(f.extra.get(k) for k in item.once)), f)
            pieces = list(firsts.values())
        assert sorted(_key(f) for f in pieces) == everything, item.id


@pytest.mark.parametrize("seed", range(4))
def test_any_cut_into_shards_gives_the_findings_of_one_process(checked, monkeypatch, seed):
    root, _, _ = checked
    monkeypatch.chdir(root)
    glossary, files, whole = _whole(root)
    expected = sort_findings(whole.findings + run(context(whole, glossary), None))
    rng = random.Random(seed)
    order = list(range(len(files)))
    rng.shuffle(order)
    cuts = sorted(rng.sample(range(1, len(files)), rng.randint(1, 5)))
    parts = [sorted(order[a:b]) for a, b in zip([0, *cuts], [*cuts, len(files)])]
    shards = [check_shard([files[k] for k in part], glossary, None, None, None)
              for part in parts]
    merged = merge(shards, [f.display for f in files])
    got = sort_findings(merged.findings + run(context(merged, glossary), None, "project"))
    assert [_key(f) for f in got] == [_key(f) for f in expected]
    assert [n.display for n in merged.notes] == [n.display for n in whole.notes]


@pytest.mark.slow                   # spawns two processes (as tests/test_jobs.py does)
def test_two_processes_print_what_one_does(checked):
    """The real command in a fresh interpreter (nothing imported before it, as a user runs
    it), its notes in two processes, against the one-process run."""
    import os
    import subprocess
    import sys

    root, env, one = checked
    script = ("import sys; from zhenglossary import workers; "
              "workers.MIN_BYTES_PER_CHECK_JOB = 1; "      # small notes: processes anyway
              "real = workers.executor\n"
              "def pool(*a, **k):\n"
              "    print('POOL', k.get('max_workers'), file=sys.stderr); return real(*a, **k)\n"
              "workers.executor = pool\n"
              "from zhenglossary.checks import gather\n"
              "own = gather.check_shard\n"
              "def mine(*a, **k):\n"
              "    print('MAIN', len(a[0]), file=sys.stderr); return own(*a, **k)\n"
              "gather.check_shard = mine\n"
              "from zhenglossary.cli import main; sys.argv = ['zhen'] + sys.argv[1:]; main()")
    result = subprocess.run([sys.executable, "-c", script, "glossary", "check", "--jobs", "2",
                             "--format", "json"], cwd=root, env={**os.environ, **env},
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == one["summary"]["exit_code"], result.stderr
    # --jobs 2: one spawned worker and this process, which takes chunks from the queue's
    # end (the worker's queue holds at most two at a time, so this process gets some)
    assert "POOL 1" in result.stderr
    mine = sum(int(line.split()[1]) for line in result.stderr.splitlines()
               if line.startswith("MAIN "))
    assert 1 <= mine < one["summary"]["notes"], result.stderr
    assert json.loads(result.stdout) == one


def test_little_to_check_stays_in_one_process(checked, monkeypatch):
    root, env, one = checked
    monkeypatch.chdir(root)
    started = []
    monkeypatch.setattr(workers, "executor", lambda *a, **k: started.append(1))
    from typer.testing import CliRunner

    for name, value in env.items():
        monkeypatch.setenv(name, value)
    result = CliRunner().invoke(app, ["glossary", "check", "--jobs", "4", "--format", "json"])
    assert started == [] and json.loads(result.stdout) == one


def test_a_process_that_dies_is_an_error_that_says_what_to_do(checked, monkeypatch):
    """A worker killed (out of memory, a signal) is one line and exit 2, no traceback —
    for check and translate alike."""
    from concurrent.futures import Future
    from concurrent.futures.process import BrokenProcessPool

    from typer.testing import CliRunner

    class Dying:
        def __init__(self, *args, **kwargs):
            pass

        def submit(self, *args, **kwargs):
            future = Future()
            future.set_exception(BrokenProcessPool("a child process terminated abruptly"))
            return future

        def shutdown(self, *args, **kwargs):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    root, env, _ = checked
    monkeypatch.chdir(root)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr(workers, "executor", Dying)
    monkeypatch.setattr(workers, "MIN_BYTES_PER_CHECK_JOB", 1)
    monkeypatch.setattr(workers, "MIN_CHARS_PER_JOB", 1)
    for argv in (["glossary", "check", "--jobs", "2"],
                 ["translate", "notes/", "--engine", "gloss", "--jobs", "2", "--no-memory",
                  "--out-dir", "elsewhere"]):
        result = CliRunner().invoke(app, argv)
        assert result.exit_code == 2, result.output
        assert "stopped before it finished" in result.output and "--jobs 1" in result.output
        assert "Traceback" not in result.output and not isinstance(result.exception,
                                                                   BrokenProcessPool)
