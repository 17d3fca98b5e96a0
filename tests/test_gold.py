"""The hand-labelled gold set (tests/gold/parentheticals.yaml): the finder's boundary
precision and recall, and suggest's, must stay above the targets of issue 11."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def _script():
    spec = importlib.util.spec_from_file_location("eval_suggest", ROOT / "scripts" / "eval_suggest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_gold_set_is_large_and_varied():
    items = yaml.safe_load((ROOT / "tests" / "gold" / "parentheticals.yaml").read_text("utf-8"))["items"]
    sightings = [t for item in items for t in item["terms"]]
    assert len(sightings) >= 80
    assert sum(item.get("nonterm", 0) for item in items) >= 20
    assert len({item["file"] for item in items}) >= 6
    for item in items:
        for term in item["terms"]:
            assert term["zh"] in item["text"], term


def test_finder_and_suggest_meet_the_targets():
    result = _script().evaluate_gold()
    finder, suggest = result["finder"], result["suggest"]
    assert finder["precision"] >= 0.95, result["errors"]
    assert finder["recall"] >= 0.90, result["errors"]
    assert finder["non_terms"] == 0, result["errors"]
    assert suggest["precision"] >= 0.90 and suggest["recall"] >= 0.85, result["errors"]
