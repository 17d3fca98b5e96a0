"""Requests per sentence and the fraction of sentences needing a fallback, for the llm
engine against tests/support/llm_server.py with fault injection.

    python tests/support/llm_faults.py [notes ...] [--rates 0,0.1,0.3] [--batch 8]

Each rate: a fresh project copy and memory, `translate` with the llm engine, every fault
mode (FAULTS) drawn at random for that share of chat requests (seeded). Reports, of the
sentences the model was asked, the share that met the glossary on the first answer, on a
retry, with their terms masked, and by the fallback engine.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from support.llm_server import FAULTS, FakeLLMServer, sentences_of  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


def measure(notes: list[Path], rate: float, batch: int, seed: int) -> dict:
    from zhenglossary.translate import TranslateOptions, translate_paths

    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        for note in notes:
            shutil.copy(note, project / note.name)
        shutil.copy(ROOT / "glossary.yaml", project / "glossary.yaml")
        os.environ["ZHEN_HOME"] = str(project / ".zhen")
        os.environ["ARGOS_PACKAGES_DIR"] = str(project / "no-models")
        with FakeLLMServer(fault_rate=rate, faults=FAULTS, seed=seed) as server:
            options = TranslateOptions(engine="llm", engine_settings={
                "endpoint": server.endpoint, "model": "tiny-zh-en", "batch": batch})
            report = translate_paths([project / n.name for n in notes],
                                     project / "glossary.yaml", options)
            requests = len(server.chats)
    met = report.stats["glossary_met"]
    sentences = sum(met.values())
    share = {k: v / sentences if sentences else 0.0 for k, v in met.items()}
    return {"rate": rate, "sentences": sentences, "requests": requests,
            "requests_per_sentence": requests / sentences if sentences else 0.0,
            "first": share["first"], "retry": share["retry"], "masked": share["masked"],
            "fallback_fraction": share["fallback"],
            "lock_failures": report.stats["lock_failures"], "exit_code": report.exit_code}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notes", nargs="*", type=Path,
                        default=[ROOT / "notes" / "sc24.md", ROOT / "notes" / "sosp24.md"])
    parser.add_argument("--rates", default="0,0.1,0.3,0.5")
    parser.add_argument("--batch", type=int, default=8)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print("fault rate | sentences | requests | requests/sentence | first | retry | masked | "
          "fallback | lock failures | exit")
    for rate in (float(r) for r in args.rates.split(",")):
        r = measure(args.notes, rate, args.batch, args.seed)
        print(f"{r['rate']:.2f} | {r['sentences']} | {r['requests']} | "
              f"{r['requests_per_sentence']:.3f} | {r['first']:.1%} | {r['retry']:.1%} | "
              f"{r['masked']:.1%} | {r['fallback_fraction']:.1%} | {r['lock_failures']} | "
              f"{r['exit_code']}")


if __name__ == "__main__":
    main()
