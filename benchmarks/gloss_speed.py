"""Time the gloss engine on notes/sc24.md (not a test).

    python benchmarks/gloss_speed.py [--runs 5] [--note notes/sc24.md]

The note is split into sentences at Chinese sentence punctuation and line ends, and
URLs, inline code and Latin-script runs are masked with placeholders first (the engine's
input contract). Prints the one-time costs (CC-CEDICT index build or cached load, jieba
and engine setup) and the median engine time over N runs of the whole note, each on a
fresh engine instance with a warm on-disk index (so per-word memoisation never carries
over between runs).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import time
from pathlib import Path

from zhenglossary import cedict
from zhenglossary.engines.gloss import GlossEngine
from zhenglossary.placeholders import placeholder

ROOT = Path(__file__).resolve().parent.parent
_PROTECT = re.compile(
    r"https?://\S+|`[^`]*`"
    r"|(?<![A-Za-z0-9])(?=[A-Za-z0-9_.+#/-]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9_.+#/'-]*"
    r"(?:[ \t]+(?=[A-Za-z0-9_.+#/-]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9_.+#/'-]*)*")
_SENTENCE = re.compile(r"[^。！？；\n]+[。！？；]?")
_CJK = re.compile("[\u3400-\u9fff]")


def mask(text: str) -> str:
    count = 0

    def repl(_match: re.Match) -> str:
        nonlocal count
        count += 1
        return placeholder(count)

    return _PROTECT.sub(repl, text)


def segments(note: Path) -> list[str]:
    out = []
    for line in note.read_text(encoding="utf-8").splitlines():
        if not _CJK.search(line):
            continue
        for sentence in _SENTENCE.findall(line):
            if _CJK.search(sentence):
                out.append(mask(sentence.strip()))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--note", type=Path, default=ROOT / "notes" / "sc24.md")
    args = parser.parse_args(argv)

    texts = segments(args.note)
    chars = sum(len(t) for t in texts)

    cached = cedict.cache_path().exists()
    start = time.perf_counter()
    cedict.load_index()
    index_time = time.perf_counter() - start
    cedict.forget_loaded()
    start = time.perf_counter()
    cedict.load_index()
    load_time = time.perf_counter() - start

    start = time.perf_counter()
    GlossEngine().translate(["预热"])           # jieba dictionary, tokenizer, domain list
    setup = time.perf_counter() - start

    times = []
    for _ in range(args.runs):
        engine = GlossEngine()
        engine.translate(["预热"])
        start = time.perf_counter()
        outputs = engine.translate(texts)
        times.append(time.perf_counter() - start)
    unrendered = sum(len(o.unrendered) for o in outputs)
    print(f"note: {args.note.name}: {len(texts)} segments, {chars} characters")
    print(f"CC-CEDICT index: {'cached load' if cached else 'first build'} {index_time:.3f} s; "
          f"cached load {load_time:.3f} s")
    print(f"engine setup (jieba + tokenizer): {setup:.3f} s")
    print(f"translate whole note: median {statistics.median(times):.3f} s over {args.runs} runs "
          f"(min {min(times):.3f}, max {max(times):.3f}); unrendered pieces: {unrendered}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
