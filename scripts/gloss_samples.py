"""Ten random sentences of the shipped notes with their gloss (the gloss engine).

    python scripts/gloss_samples.py [--seed 2026] [--n 10]

Translates notes/ into a temporary directory (the notes and the memory are not touched)
and prints pairs chosen by a seeded random generator, so others can judge readability.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--n", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["ZHEN_HOME"] = str(Path(tmp) / "home")
        from zhenglossary.checks.translations import _sentences
        from zhenglossary.glossary import load_glossary
        from zhenglossary.parallel import Layout, collect_pairs
        from zhenglossary.textutil import has_cjk
        from zhenglossary.translate import TranslateOptions, translate_paths

        out = Path(tmp) / "out"
        translate_paths([ROOT / "notes"], ROOT / "glossary.yaml",
                        TranslateOptions(engine="gloss", out_dir=out, use_memory=False))
        glossary = load_glossary(ROOT / "glossary.yaml")
        notes, _ = collect_pairs([ROOT / "notes"], glossary, layout=Layout(out, ROOT))
        pairs = []
        for found in notes:
            for pair in found.pairs:
                if pair.status != "same" and has_cjk(pair.source):
                    # sentence pairs where the block's sentences align, else the block
                    pairs += [(pair, zh, en) for zh, en, _ in _sentences(pair) if has_cjk(zh)]
        for pair, zh, en in random.Random(args.seed).sample(pairs, args.n):
            print(f"{pair.note}:{pair.line}")
            print(f"  zh: {zh.strip()}")
            print(f"  en: {en.strip()}\n")


if __name__ == "__main__":
    main()
