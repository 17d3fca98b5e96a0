"""A zhen engine from outside zhen: each run of Chinese becomes «n» (its length), every
placeholder passes through. Registered by the entry point in pyproject.toml."""

import re

from zhenglossary.engines import EngineSpec, EngineStatus
from zhenglossary.engines.base import EngineOutput

CHINESE = re.compile(r"[\u3400-\u9fff]+")


class EchoEngine:
    name = "echo"
    reliable_placeholders = True

    def __init__(self, greeting: str) -> None:
        self.greeting = greeting

    def identity(self) -> str:
        return "echo:1"

    def describe(self) -> str:
        return f"echo ({self.greeting})"

    def translate(self, texts, *, num_hypotheses=1):
        return [EngineOutput([CHINESE.sub(lambda m: f"echo{len(m.group(0))}", t)]) for t in texts]


SPEC = EngineSpec("echo", "test plugin: Chinese runs become echo<n>",
                  lambda context: EchoEngine(f"{len(context.glossary.terms)} terms"),
                  lambda context: EngineStatus(True, "always ready"))
