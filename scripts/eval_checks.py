"""Precision and recall of the glossary lint on glossaries with planted defects, and of
every check on notes written for zhen.

    python scripts/eval_checks.py            # per rule, over tests/gold/lint/*/
    python scripts/eval_checks.py --notes    # also: every check on the gold passages as notes
    python scripts/eval_checks.py --errors   # list every miss and false alarm

--notes builds a project in a temporary folder: one note per `file` of the gold sets'
passages (tests/gold/parentheticals.yaml, heldout.yaml), tests/gold/checks/glossary.yaml
(three planted defects), translated with the gloss engine; `glossary check` (info
included) must give exactly the actionable findings of tests/gold/checks/expected.yaml.

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


def evaluate_notes() -> dict:
    """Every check's findings on the gold passages as notes, against the labels."""
    import os
    import tempfile
    from collections import defaultdict as dd

    from zhenglossary.api import check_project, translate_project

    gold = ROOT / "tests" / "gold"
    texts: dict[str, list[str]] = dd(list)
    for name in ("parentheticals.yaml", "heldout.yaml"):
        for item in yaml.safe_load((gold / name).read_text("utf-8"))["items"]:
            texts[item["file"]].append(item["text"])
    expected = {(a["check"], a["file"], a["zh"]) for a in
                yaml.safe_load((gold / "checks" / "expected.yaml").read_text("utf-8"))["actionable"]}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "notes").mkdir()
        for name, parts in texts.items():
            (root / "notes" / name).write_text(f"# {name[:-3]}\n\n" + "\n\n".join(parts) + "\n",
                                               "utf-8")
        (root / "glossary.yaml").write_text((gold / "checks" / "glossary.yaml").read_text("utf-8"),
                                            "utf-8")
        home = os.environ.get("ZHEN_HOME")
        os.environ["ZHEN_HOME"] = str(root / ".zhen")
        try:
            translate_project([root / "notes"], root / "glossary.yaml", engine="gloss",
                              use_memory=False)
            report = check_project([root / "notes"], root / "glossary.yaml")
        finally:
            if home is None:
                os.environ.pop("ZHEN_HOME", None)
            else:
                os.environ["ZHEN_HOME"] = home
    found = set()
    for f in report.findings:
        zh = _zh_of(f)
        if f.check == "unrendered":
            zh = "".join(f.extra.get("pieces", [])) or zh
        found.add((f.check, Path(f.file).name, zh))
    by_check: dict[str, list[int]] = dd(lambda: [0, 0])
    for item in found:
        by_check[item[0]][0] += 1
        by_check[item[0]][1] += item in expected
    return {"found": len(found), "actionable": len(found & expected),
            "precision": len(found & expected) / len(found) if found else 1.0,
            "recall": len(found & expected) / len(expected) if expected else 1.0,
            "by_check": {k: {"found": v[0], "actionable": v[1]} for k, v in by_check.items()},
            "false_alarms": sorted(found - expected), "missed": sorted(expected - found)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--errors", action="store_true", help="list misses and false alarms")
    parser.add_argument("--notes", action="store_true", help="also every check on notes")
    args = parser.parse_args(argv)
    for rule, r in evaluate().items():
        print(f"{rule:20} precision {r['precision']:.0%}  recall {r['recall']:.0%}  "
              f"({r['right']} of {r['found']} findings right; {r['planted']} planted)")
        if args.errors:
            for item in r["false_alarms"]:
                print(f"  false alarm: {item}")
            for item in r["missed"]:
                print(f"  missed: {item}")
    if args.notes:
        n = evaluate_notes()
        print(f"notes: {n['found']} findings, {n['actionable']} actionable "
              f"(precision {n['precision']:.0%}, recall {n['recall']:.0%} of the labels)")
        for check_id, c in sorted(n["by_check"].items()):
            print(f"  {check_id:24} {c['actionable']} of {c['found']} actionable")
        if args.errors:
            for item in n["false_alarms"]:
                print(f"  false alarm: {item}")
            for item in n["missed"]:
                print(f"  missed: {item}")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "src"))
    sys.exit(main())
