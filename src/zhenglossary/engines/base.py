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
    from ..glossary import Glossary, Term


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
    # an engine with a retry ladder says which rung gave the English: "first" (the first
    # answer), "retry" (asked again with its failure named), "masked" (asked with the terms
    # as placeholders); the run's summary counts them
    via: str | None = None


@dataclass(frozen=True)
class TermSlot:
    """A glossary term in a masked text, for engines told the terms: the entry and the
    Chinese as the note writes it (a variant, or a term hard-wrapped across a line). It
    reads like the entry (``zh``, ``en``, ``forbid``, ``note``)."""

    term: "Term"
    source: str

    @property
    def zh(self) -> str:
        return self.term.zh

    @property
    def en(self) -> str:
        return self.term.en

    @property
    def forbid(self) -> tuple[str, ...]:
        return self.term.forbid

    @property
    def note(self) -> str:
        return self.term.note


@dataclass(frozen=True)
class Capabilities:
    """What an engine can do, read by the runner, the pipeline and ``--jobs`` — one record
    instead of probing for attributes. An engine says it with ``capabilities`` (a class
    attribute, or :class:`BaseEngine`'s, read from its flags); an engine that says nothing
    (an older plugin) is read from the same-named class attributes by
    :func:`capabilities_of`."""

    reliable_placeholders: bool = False  # placeholders always survive: no fallback ladder
    glossary_aware: bool = False         # takes ``terms=`` (see Engine.translate)
    terms_in_prompt: bool = False        # shows its model the terms as Chinese (ibid.)
    uses_context: bool = False           # takes ``contexts=`` (ibid.)
    preferred_batch: int | None = None   # texts per call (each call committed on its own)
    partial_results: bool = False        # a call cut short sets ``finished`` on its exception
    processes: bool = False              # one core, in this process: --jobs may run several
    gloss: bool = False                  # a dictionary gloss, labelled so in x.en.md


_FLAGS = [f for f in Capabilities.__dataclass_fields__]


def capabilities_of(engine) -> Capabilities:
    """``engine``'s :class:`Capabilities`: its own record, else its class attributes."""
    own = getattr(engine, "capabilities", None)
    if isinstance(own, Capabilities):
        return own
    return Capabilities(**{name: getattr(engine, name, Capabilities.__dataclass_fields__[name]
                                         .default) for name in _FLAGS})


class BaseEngine:
    """What an engine may build on: no notices, and its capabilities from its flags (set
    ``reliable_placeholders = True`` and the like as class attributes)."""

    name = "engine"
    reliable_placeholders = False

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(**{name: getattr(self, name,
                                             Capabilities.__dataclass_fields__[name].default)
                               for name in _FLAGS})

    def identity(self) -> str:
        raise NotImplementedError

    def describe(self) -> str:
        return self.name


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

        Capabilities (:class:`Capabilities`, read with :func:`capabilities_of`; all off for
        an engine that says nothing):

        * ``glossary_aware``: also takes ``terms=``: per text, placeholder number →
          :class:`TermSlot` (the glossary entry it stands for, and its Chinese), so a model
          can write the words around it; the terms' English is then part of the memory key.
        * ``terms_in_prompt``: the engine shows each term to its model as the Chinese, with
          the entry in the prompt, and may answer with the term's English written out
          (inflected) instead of its placeholder; the caller then checks the English with
          ``placeholders.answer_problem`` (every protected placeholder once, each term's
          ``en`` or an inflected form of it, as often as it occurs), not "every placeholder
          once". The entries (zh, en, forbid, note) are part of the memory key.
        * ``uses_context``: also takes ``contexts=``: per text, the ``context.BlockContext``
          of its block (the heading path, the previous block, the block itself), which the
          model reads but does not translate. Texts come in note order, each block's texts
          together, and a call never splits a block; the context is part of the memory key.
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
    # the engine to fall back on when this one fails on a text (the registry sets it:
    # argos when a model is installed, else gloss); an engine never asks the registry
    fallback: Callable[[], "Engine"] | None = None


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
