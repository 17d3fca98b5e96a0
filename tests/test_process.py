"""zhen's own processes collect garbage less often; zhen used as a library does not change
its caller's collector."""

from __future__ import annotations

import subprocess
import sys


def _thresholds(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip()


def test_the_library_leaves_the_collector_and_the_cli_and_workers_tune_it():
    import gc
    default = str(gc.get_threshold()[0])
    assert _thresholds("import gc, zhenglossary.api, zhenglossary.translate; "
                       "print(gc.get_threshold()[0])") == default
    for setup in ("from zhenglossary.process import tune_gc; tune_gc()",
                  "from zhenglossary.workers import _start_check; _start_check(None)"):
        code = (f"import gc\ntry:\n    {setup}\nexcept Exception:\n    pass\n"
                "print(gc.get_threshold()[0])")
        assert _thresholds(code) == "50000"
    # the command line, as a user runs it
    code = ("import gc, sys\nfrom zhenglossary.cli import main\nsys.argv = ['zhen', '--version']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\nprint(gc.get_threshold()[0])")
    assert _thresholds(code).splitlines()[-1] == "50000"
