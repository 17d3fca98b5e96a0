"""The Engine protocol every translation engine implements.

Engines translate *masked* Chinese segments: glossary terms and protected spans (inline
code, URLs, Latin-script runs) have been replaced by placeholder tokens such as ``ZX3``
(the contract is ``placeholders.py``). An engine should pass
placeholders through unchanged; the locking layer verifies that it did and falls back
when it did not. Bare numbers (``2.7``, ``30``, ``40%``) are *not* masked.

An engine never prints, never exits and raises ZhenError subclasses for problems a user
can fix (a missing or broken model).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Protocol, Sequence, runtime_checkable

if TYPE_CHECKING:
    from ..glossary import Glossary


@dataclass
class EngineOutput:
    """English hypotheses for one masked segment, best first (at least one)."""

    hypotheses: list[str]
    # source pieces the engine could not render into English (the gloss engine reports
    # Chinese it has no dictionary entry for); each becomes a finding
    unrendered: list[str] = field(default_factory=list)
    # set when the engine could not translate the text itself and another engine did
    # (says which and why); such an output becomes a finding and is not kept in the memory
    fallback: str | None = None


@runtime_checkable
class Engine(Protocol):
    name: str                      # "argos", "gloss", "noise", ...
    reliable_placeholders: bool    # True when placeholders always survive (no fallback needed)

    def identity(self) -> str:
        """Engine id and model version; cheap (no model load; a server-backed engine may ask
        the server which model it serves). Part of memory keys. An engine may have
        ``notices`` (a list of str): what the user must be told once identity() ran."""

    def describe(self) -> str:
        """One line for summaries: 'argos translate-zh_en 1.9', 'gloss (dictionary, ...)'."""

    def translate(self, texts: Sequence[str], *, num_hypotheses: int = 1) -> list[EngineOutput]:
        """Translate masked segments; one EngineOutput per text, in order.

        An engine with ``glossary_aware = True`` also takes ``terms=``: per text, placeholder
        number → the glossary Term it stands for (so a model can write the words around it).
        An engine may set ``preferred_batch`` (texts per call; each call is committed to the
        memory on its own). An engine whose call is cut short (an interrupt, a server gone)
        may set ``finished`` on the exception it raises: index → EngineOutput of the texts
        it had done; the caller stores those before passing the exception on."""


# ---------------------------------------------------------------- registration
# (the registry is engines/__init__.py)


@dataclass
class EngineContext:
    """What a factory may use to build its engine."""

    glossary: "Glossary"
    threads: int = 0                                  # CPU threads (0: all cores)
    root: Path | None = None                          # project root (where zhen.toml is)
    overrides: dict = field(default_factory=dict)     # settings given as command-line flags


@dataclass(frozen=True)
class EngineStatus:
    """What ``zhen model list`` says about an engine: can it run, and with what."""

    ready: bool
    summary: str                                      # one line
    details: dict = field(default_factory=dict)       # for --format json


@dataclass(frozen=True)
class EngineSpec:
    name: str
    summary: str                                      # one line for listings
    create: Callable[[EngineContext], Engine]
    status: Callable[[EngineContext], EngineStatus] | None = None
    origin: str = "built-in"                          # or the plugin's distribution
