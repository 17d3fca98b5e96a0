"""Engines for tests: real implementations of the Engine protocol, no model files."""

from __future__ import annotations

import random
import re

from zhenglossary.engines.base import EngineOutput
from zhenglossary.textutil import CJK_RUN_RE


class BracketEngine:
    """Pseudo-translation: every run of Chinese becomes ‹T<n chars>›, placeholders and
    everything else pass through. Deterministic, so it can feed golden files."""

    name = "bracket"
    reliable_placeholders = True

    def __init__(self) -> None:
        self.calls = 0
        self.texts: list[str] = []

    def identity(self) -> str:
        return "bracket:1"

    def describe(self) -> str:
        return "bracket (test pseudo-translation)"

    def translate(self, texts, *, num_hypotheses=1):
        self.calls += 1
        self.texts.extend(texts)
        out = []
        for text in texts:
            english = CJK_RUN_RE.sub(lambda m: f"‹T{len(m.group(0))}›", text)
            english = english.translate(str.maketrans("，。；：！？（）、", ",.;:!?(),"))
            out.append(EngineOutput([english] * num_hypotheses))
        return out


class NoiseEngine:
    """Hostile MT: drops, duplicates, splits, lowercases and invents placeholders, and
    writes forbidden renderings, seeded per text. Never reliable."""

    name = "noise"
    reliable_placeholders = False

    def __init__(self, seed: int = 0, forbidden: list[str] | None = None) -> None:
        self.seed = seed
        self.forbidden = forbidden or []
        self.calls = 0

    def identity(self) -> str:
        return f"noise:{self.seed}"

    def describe(self) -> str:
        return "noise (test)"

    def _one(self, text: str, rng: random.Random) -> str:
        tokens = re.split(r"(ZX\d+)", text)
        out = []
        for tok in tokens:
            if re.fullmatch(r"ZX\d+", tok):
                roll = rng.random()
                if roll < 0.15:
                    continue                                   # lost
                if roll < 0.25:
                    out.append(f"{tok} {tok}")                 # duplicated
                elif roll < 0.35:
                    out.append(tok.replace("ZX", "Z X "))      # split (tolerated)
                elif roll < 0.45:
                    out.append(tok.lower())                    # lowercased (tolerated)
                elif roll < 0.5:
                    out.append("ZX99")                         # invented
                else:
                    out.append(tok)
            else:
                words = ["lorem", "ipsum", "dolor", "sit", "amet"] + self.forbidden
                n = max(1, len(tok) // 3)
                out.append(" ".join(rng.choice(words) for _ in range(n)))
        return " ".join(out)

    def translate(self, texts, *, num_hypotheses=1):
        self.calls += 1
        out = []
        for text in texts:
            rng = random.Random(f"{self.seed}:{text}")
            out.append(EngineOutput([self._one(text, rng) for _ in range(num_hypotheses)]))
        return out
