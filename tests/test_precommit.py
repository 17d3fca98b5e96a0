"""The pre-commit hook (.pre-commit-hooks.yaml), run by real `pre-commit` on a throwaway
git repository that uses this project as its hook repository."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import translated_project

PROJECT = Path(__file__).resolve().parents[1]


def test_the_hook_manifest_names_a_real_command():
    [hook] = yaml.safe_load((PROJECT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    assert hook["id"] == "zhen-check" and hook["language"] == "python"
    assert hook["entry"] == "zhen glossary check --format concise"
    assert hook["pass_filenames"] is False
    readme = (PROJECT / "README.md").read_text("utf-8")
    assert "hooks: [{id: zhen-check}]" in readme


@pytest.mark.slow          # pre-commit builds the hook's environment (~1 min)
def test_pre_commit_runs_the_hook(runner, tmp_path, monkeypatch):
    if shutil.which("git") is None or not (PROJECT / ".git").exists():
        pytest.skip("needs git and a git checkout of zhen")
    pytest.importorskip("pre_commit")
    root = translated_project(runner, tmp_path, monkeypatch, {
        "kernels.md": "# 内核融合\n\n我们使用混合精度训练，张量核心很快。\n"})
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(args, cwd=root, env=env, capture_output=True, text=True, timeout=900)

    assert run("git", "init", "-q").returncode == 0
    assert run("git", "add", "-A").returncode == 0
    hook = [sys.executable, "-m", "pre_commit", "try-repo", str(PROJECT), "zhen-check",
            "--all-files"]
    ok = run(*hook)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "zhen glossary check" in ok.stdout and "Passed" in ok.stdout

    parallel = root / "notes" / "kernels.zh-en.md"
    text = parallel.read_text("utf-8")
    parallel.write_text(text.replace("mixed precision", "hybrid precision", 1), "utf-8")
    assert run("git", "add", "-A").returncode == 0
    bad = run(*hook)
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "Failed" in bad.stdout
    # the hook prints concise lines, clickable at the English to fix
    assert re.search(r"^notes/kernels\.zh-en\.md:\d+:\d+: error term-forbidden ", bad.stdout, re.M)
