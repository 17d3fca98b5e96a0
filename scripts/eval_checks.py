"""Precision and recall of the glossary lint on glossaries with planted defects.

    python scripts/eval_checks.py            # per rule, over tests/gold/lint/*/
    python scripts/eval_checks.py --errors   # list every miss and false alarm

Each folder of tests/gold/lint/ is a small project written for zhen (glossary.yaml, notes/)
whose expected.yaml lists the planted defects as (check, zh); every other entry is meant
clean, so a lint finding on it is a false alarm. A finding's entry is its `zh` (the first
Chinese form it names). Scored: the lint rules (the glossary checks that read the notes)
and the checks they extend (forbid-conflict, same-concept).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
LINT = ROOT / "tests" / "gold" / "lint"
RULES = ("abbreviation-in-en", "term-repeats-latin", "forbid-too-broad", "forbid-conflict",
         "note-form-rejected", "same-concept")


def _zh_of(finding) -> str:
    zh = finding.extra.get("zh") if finding.extra else None
    if isinstance(zh, list):
        return zh[-1]
    if zh:
        return zh
    return finding.message.split(" ")[0].rstrip(":")


def evaluate(root: Path = LINT) -> dict:
    from zhenglossary.api import check_project

    found: dict[str, set] = defaultdict(set)
    expected: dict[str, set] = defaultdict(set)
    for project in sorted(p for p in root.iterdir() if (p / "glossary.yaml").is_file()):
        for item in yaml.safe_load((project / "expected.yaml").read_text("utf-8"))["defects"]:
            expected[item["check"]].add((project.name, item["zh"]))
        report = check_project([project / "notes"], project / "glossary.yaml")
        for f in report.findings:
            if f.check in RULES:
                found[f.check].add((project.name, _zh_of(f)))
    out = {}
    for rule in RULES:
        tp = found[rule] & expected[rule]
        out[rule] = {"found": len(found[rule]), "planted": len(expected[rule]),
                     "right": len(tp),
                     "precision": len(tp) / len(found[rule]) if found[rule] else 1.0,
                     "recall": len(tp) / len(expected[rule]) if expected[rule] else 1.0,
                     "false_alarms": sorted(found[rule] - expected[rule]),
                     "missed": sorted(expected[rule] - found[rule])}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", action="store_true", help="list misses and false alarms")
    args = parser.parse_args(argv)
    for rule, r in evaluate().items():
        print(f"{rule:20} precision {r['precision']:.0%}  recall {r['recall']:.0%}  "
              f"({r['right']} of {r['found']} findings right; {r['planted']} planted)")
        if args.errors:
            for item in r["false_alarms"]:
                print(f"  false alarm: {item}")
            for item in r["missed"]:
                print(f"  missed: {item}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))
    sys.exit(main())
