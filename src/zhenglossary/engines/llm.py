"""The llm engine: a local model server speaking OpenAI's ``/v1/chat/completions``.

Ollama, llama.cpp's ``llama-server``, vLLM and LM Studio all serve this protocol on
localhost. zhen talks to it with the standard library only (llm_http.py) and refuses an
endpoint that is not on this machine unless ``allow_remote`` is set: by default nothing
leaves the machine.

Prompts. Masked segments go in batches (``batch`` sentences per request), as a JSON array
of ``{"id", "zh", "terms"}`` objects. ``terms`` gives, for each placeholder that stands
for a glossary term, the term's English (and its Chinese), so the model can write the
words around it; every other placeholder is a protected span to copy. The system prompt
lists the forbidden renderings of the batch's terms only. The answer must be a JSON array
of ``{"id", "en"}`` objects with exactly the ids asked for — anything else (wrong count,
broken JSON, prose around it, cut off by ``max_tokens``) rejects the whole batch, so one
sentence's English can never land on another.

Verification, per sentence: every placeholder exactly once (placeholders.py), no forbidden
rendering, no Chinese left. On failure: the batch's failed sentences are asked again with
each failure named; then each alone; then the fallback engine (argos if a model is
installed, else gloss) translates it, and the output carries ``fallback`` (a finding, and
not stored in the memory, so a later run asks the model again).

Identity (part of every memory key): the model, its digest where the server reports one,
the prompt version and the temperature. It is asked of the server when it answers, and
remembered in the cache folder per (endpoint, configured model, temperature, prompt
version); when the server does not answer, the remembered identity is used, so sentences
already in the memory need no server at all. A server that answers always wins: a model
whose digest changed gets new keys.

Faults. Connection refused, a timeout and a model the server does not serve raise
:class:`ModelError` with what to do; a server error (5xx) or a bad request (4xx) fails that
request and goes down the ladder above, and several 5xx in a row raise. Batches finished
before an error are stored by the caller (the memory commits per :attr:`preferred_batch`,
and for a call cut short, the sentences it had done: ``finished`` on the exception).
With ``concurrency`` above 1 the requests run in daemon threads; an error or an interrupt
(Ctrl-C) in the caller's thread starts no new request and cuts those in flight, so the run
ends at once instead of waiting for answers it would throw away.
"""

from __future__ import annotations

import hashlib
import json
import queue
import re
import threading
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from ..config import load_settings
from ..errors import ModelError, ServerUnreachable, UsageError
from ..fileio import prune, write_cache
from ..paths import cache_dir
from ..placeholders import (between_placeholders, placeholder, placeholder_problem, placeholders_in,
                            without_placeholders)
from ..terms import forbidden
from ..textutil import CJK_RE
from .base import EngineContext, EngineOutput, EngineSpec, EngineStatus
from .llm_http import DEFAULT_ENDPOINT, LLMClient, RequestFailed

# Bump when the prompt or the answer format changes: it is part of identity() (memory keys).
PROMPT_VERSION = "1"
SERVER_ERRORS_IN_A_ROW = 4                            # then the server is broken: raise


@dataclass
class LLMSettings:
    endpoint: str = DEFAULT_ENDPOINT
    model: str = ""                  # empty: the one model the server serves
    temperature: float = 0.0
    timeout: float = 120.0           # seconds per request
    concurrency: int = 1             # requests in flight
    batch: int = 8                   # sentences per request
    max_tokens: int = 4096
    # only the user may send notes off the machine: a project's zhen.toml cannot (config.py)
    allow_remote: bool = field(default=False, metadata={"trusted": True})


def settings_for(context: EngineContext, warnings: list[str] | None = None) -> LLMSettings:
    settings, _ = load_settings(LLMSettings, "llm", context.root, context.overrides, warnings)
    if min(settings.concurrency, settings.batch, settings.max_tokens) < 1 or settings.timeout <= 0:
        raise UsageError("llm concurrency, batch and max_tokens must be at least 1, and timeout "
                         "above 0")
    return settings


# ---------------------------------------------------------------- prompts

SYSTEM = """\
You translate Chinese technical writing (computing, HPC, machine learning) into fluent, \
precise English.
Each input item has an "id", the Chinese sentence "zh", and "terms".
Rules:
1. Tokens like ZX1, ZX2 stand for glossary terms or for code, names and numbers. Copy every \
token of the sentence exactly once, unchanged, where it belongs in the English. Never \
translate, split, repeat or invent a token.
2. "terms" says which English term a token stands for; write the words around the token \
so that they fit that term. Do not write the term's words yourself.
3. Translate everything else; leave no Chinese.{forbid}
4. Answer with only a JSON array, one object per input item, in the same order: \
[{{"id": 1, "en": "..."}}, ...]. No other text before or after it."""


def _forbid_rule(phrases: list[str]) -> str:
    if not phrases:
        return ""
    return "\n5. Never write these renderings: " + "; ".join(f'"{p}"' for p in phrases) + "."


@dataclass
class _Item:
    index: int                       # position in the engine call
    text: str                        # masked segment
    terms: Mapping[int, object]      # placeholder number → glossary Term
    reason: str | None = None        # why the last answer for it was rejected
    cut: bool = False                # the last answer was cut off by max_tokens
    english: str | None = None


def build_messages(items: list[_Item], retry: bool) -> list[dict]:
    phrases: list[str] = []
    payload = []
    for k, item in enumerate(items, 1):
        entry = {"id": k, "zh": item.text,
                 "terms": {placeholder(n): f"{t.en} ({t.zh})" for n, t in sorted(item.terms.items())}}
        payload.append(entry)
        for term in item.terms.values():
            phrases += [p for p in term.forbid if p not in phrases]
    messages = [{"role": "system", "content": SYSTEM.format(forbid=_forbid_rule(phrases))},
                {"role": "user", "content": json.dumps(payload, ensure_ascii=False)}]
    if retry:
        named = "\n".join(f"- id {k}: {item.reason}" for k, item in enumerate(items, 1))
        messages.append({"role": "user", "content": "An earlier answer for these items was "
                         "rejected:\n" + named + "\nAnswer again, following every rule."})
    return messages


_FENCE = re.compile(r"\A```(?:json)?\s*\n(.*)\n```\Z", re.DOTALL)


def parse_answer(content: str, count: int) -> list[str]:
    """The English for ids 1..count, in id order; ValueError says what is wrong."""
    text = content.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1).strip()
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"the answer is not a JSON array alone ({exc.msg} at char {exc.pos})") from None
    if not isinstance(data, list):
        raise ValueError("the answer is not a JSON array")
    english: dict[int, str] = {}
    for entry in data:
        if not (isinstance(entry, dict) and isinstance(entry.get("id"), int)
                and not isinstance(entry.get("id"), bool) and isinstance(entry.get("en"), str)):
            raise ValueError('every array item must be {"id": <number>, "en": "<English>"}')
        if entry["id"] in english:
            raise ValueError(f"id {entry['id']} appears twice")
        english[entry["id"]] = entry["en"]
    if sorted(english) != list(range(1, count + 1)):
        raise ValueError(f"expected {count} items with ids 1-{count}, got ids "
                         f"{sorted(english)[:count + 3]}")
    return [english[k] for k in range(1, count + 1)]


# ---------------------------------------------------------------- engine


class LLMEngine:
    name = "llm"
    reliable_placeholders = False          # model output: the locking layer checks it too
    glossary_aware = True                  # translate() takes terms=

    def __init__(self, settings: LLMSettings, glossary, fallback_factory,
                 warnings: list[str] | None = None) -> None:
        self.settings = settings
        self.glossary = glossary
        self.notices: list[str] = list(warnings or [])   # for the run's report
        self.client = LLMClient(settings)
        self._fallback_factory = fallback_factory
        self._fallback = None
        self._model: str | None = None
        self._identity: str | None = None
        self._server_errors = 0

    @property
    def preferred_batch(self) -> int:
        """Segments per translate() call: one round of concurrent requests (the caller
        commits each call to the memory, and of a call cut short what it finished)."""
        return self.settings.batch * self.settings.concurrency

    def model(self) -> str:
        if self._model is None:
            served = self.client.served_models()
            wanted = self.settings.model
            where = f"the LLM server at {self.client.base}"
            if not wanted:
                if not served or len(served) != 1:
                    raise ModelError(f"choose a model with --model (zhen.toml [llm] model); "
                                     f"{where} serves {', '.join(served or []) or 'no model list'}")
                wanted = served[0]
            elif served is not None and wanted not in served:
                raise ModelError(f"{where} does not serve the model {wanted!r} (it serves "
                                 f"{', '.join(served) or 'none'}). Pull it (`ollama pull "
                                 f"{wanted}`) or choose a served one with --model")
            self._model = wanted
        return self._model

    def identity(self) -> str:
        """``llm:<model>@<digest>:prompt-<n>:t<temperature>``, from the server when it
        answers (and then remembered); from the last time it answered for these settings
        when it does not, so a run whose sentences are all in the memory needs no server."""
        if self._identity is None:
            try:
                model = self.model()
                digest = self.client.digest(model) or "-"
            except ServerUnreachable as exc:
                remembered = recall_identity(self.settings)
                if remembered is None:
                    raise
                model, digest = remembered
                self._model = model
                self.notices.append(f"{exc.short}; the memory is read for {model} ({digest}), "
                                    "the model it served last. A sentence not in the memory "
                                    "stops the run until the server is back")
            else:
                remember_identity(self.settings, model, digest)
            self._identity = (f"llm:{model}@{digest}:prompt-{PROMPT_VERSION}"
                              f":t{self.settings.temperature:g}")
        return self._identity

    def describe(self) -> str:
        self.identity()                    # the model, without the server if it is down
        return f"llm {self.model()}"

    # -------------------------------------------------------------- translating
    def translate(self, texts: Sequence[str], *, num_hypotheses: int = 1,
                  terms: Sequence[Mapping[int, object]] | None = None) -> list[EngineOutput]:
        items = [_Item(i, text, (terms[i] if terms else {}) or {}) for i, text in enumerate(texts)]
        if not items:
            return []
        todo = [it for it in items if CJK_RE.search(it.text)]
        for item in items:
            if item not in todo:
                item.english = item.text           # nothing to translate (no Chinese)
        size = self.settings.batch
        try:
            # rung 1: batches; rung 2: the failed ones again, failures named; rung 3: alone
            self._round([todo[k:k + size] for k in range(0, len(todo), size)], retry=False)
            failed = [it for it in todo if it.english is None]
            retry = [it for it in failed if not it.cut]
            self._round([retry[k:k + size] for k in range(0, len(retry), size)], retry=True)
            failed = [it for it in todo if it.english is None]
            self._round([[it] for it in failed], retry=True)
        except BaseException as exc:         # interrupted, or the server went: keep the done
            exc.finished = {it.index: EngineOutput([it.english])       # type: ignore[attr-defined]
                            for it in items if it.english is not None}
            raise
        out: list[EngineOutput | None] = [None] * len(items)
        for item in items:
            if item.english is not None:
                out[item.index] = EngineOutput([item.english])
        rest = [it for it in items if it.english is None]
        if rest:
            fallback = self._fallback_engine()
            results = fallback.translate([it.text for it in rest], num_hypotheses=num_hypotheses)
            for item, result in zip(rest, results):
                out[item.index] = EngineOutput(
                    result.hypotheses, result.unrendered,
                    fallback=f"{fallback.name} (the model failed: {item.reason})")
        return out  # type: ignore[return-value]

    def _round(self, batches: list[list[_Item]], retry: bool) -> None:
        batches = [b for b in batches if b]
        if not batches:
            return
        if self.settings.concurrency == 1 or len(batches) == 1:
            for batch in batches:
                self._ask(batch, retry)
            return
        # daemon threads, not a ThreadPoolExecutor: its workers are joined at interpreter
        # exit, so an interrupted run would wait for every request already sent
        todo: queue.SimpleQueue = queue.SimpleQueue()
        for batch in batches:
            todo.put(batch)
        done: queue.SimpleQueue = queue.SimpleQueue()
        stop = threading.Event()

        def work() -> None:
            while not stop.is_set():
                try:
                    batch = todo.get_nowait()
                except queue.Empty:
                    return
                try:
                    self._ask(batch, retry)
                    done.put(None)
                except BaseException as exc:          # handed to the caller's thread
                    done.put(exc)

        for _ in range(min(self.settings.concurrency, len(batches))):
            threading.Thread(target=work, name="zhen-llm-request", daemon=True).start()
        try:
            for _ in batches:
                error = done.get()                    # Ctrl-C lands here
                if error is not None:
                    raise error
        except BaseException:
            stop.set()                                # no new request starts
            self.client.cut()                         # and those in flight end now
            raise

    def _ask(self, batch: list[_Item], retry: bool) -> None:
        messages = build_messages(batch, retry)
        try:
            content = self.client.chat(self.model(), messages)
            self._server_errors = 0
            answers = parse_answer(content, len(batch))
        except RequestFailed as exc:
            if exc.kind == "server":
                self._server_errors += 1
                if self._server_errors >= SERVER_ERRORS_IN_A_ROW:
                    raise ModelError(f"the LLM server at {self.client.base} failed "
                                     f"{self._server_errors} requests in a row ({exc.message}); "
                                     "check its log. Finished batches are kept and the next "
                                     "run resumes") from None
            for item in batch:
                item.reason, item.cut = exc.message, exc.kind == "length"
            return
        except ValueError as exc:
            for item in batch:
                item.reason = str(exc)
            return
        for item, english in zip(batch, answers):
            problem = self.verify(item, english)
            if problem is None:
                item.english, item.reason, item.cut = english.strip(), None, False
            else:
                item.reason = problem

    def verify(self, item: _Item, english: str) -> str | None:
        """Why ``english`` is not acceptable for ``item`` (None: it is)."""
        problem = placeholder_problem(placeholders_in(item.text), english)
        if problem:
            return problem
        hit = forbidden(english, item.terms.values(), self.glossary.forbid,
                        pieces=between_placeholders) if self.glossary else None
        if hit:
            return f"wrote the forbidden {hit[1]!r}"
        if CJK_RE.search(without_placeholders(english)):
            return "left Chinese untranslated"
        if not english.strip():
            return "gave no English"
        return None

    def _fallback_engine(self):
        if self._fallback is None:
            self._fallback = self._fallback_factory()
        return self._fallback


# ---------------------------------------------------------------- remembered identity
# The model and digest a server resolved for a set of settings, kept in the cache folder
# (one small JSON file per set) so that the memory can be read while the server is down.
IDENTITIES_KEPT = 32


def _identity_path(settings: LLMSettings):
    key = json.dumps({"endpoint": settings.endpoint.rstrip("/"), "model": settings.model,
                      "temperature": settings.temperature, "prompt": PROMPT_VERSION},
                     sort_keys=True)
    return cache_dir() / "llm" / f"identity-{hashlib.sha256(key.encode()).hexdigest()[:24]}.json"


def recall_identity(settings: LLMSettings) -> tuple[str, str] | None:
    """(model, digest) the server resolved last time for these settings, if known."""
    try:
        data = json.loads(_identity_path(settings).read_text("utf-8"))
        model, digest = data["model"], data["digest"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return (model, digest) if isinstance(model, str) and isinstance(digest, str) and model \
        else None


def remember_identity(settings: LLMSettings, model: str, digest: str) -> None:
    """Keep what the server resolved (written only when it changed; a cache that cannot be
    written just means the next run with the server down cannot use the memory)."""
    if recall_identity(settings) == (model, digest):
        return
    path = _identity_path(settings)
    data = {"model": model, "digest": digest}
    if write_cache(path, json.dumps(data, ensure_ascii=False).encode()):
        prune(path.parent, "identity-*.json", IDENTITIES_KEPT)


# ---------------------------------------------------------------- registration


def _create(context: EngineContext) -> LLMEngine:
    from . import AUTO, create_engine

    warnings: list[str] = []
    settings = settings_for(context, warnings)
    try:
        return LLMEngine(settings, context.glossary, lambda: create_engine(AUTO, context)[0],
                         warnings)
    except UsageError as exc:              # e.g. a remote endpoint: say why it is not allowed
        if not warnings:
            raise
        raise UsageError(" ".join([str(exc) + ".", *warnings])) from exc


def _status(context: EngineContext) -> EngineStatus:
    warnings: list[str] = []
    try:
        settings = settings_for(context, warnings)
        client = LLMClient(settings)
        served = client.served_models()
    except ModelError as exc:
        return EngineStatus(False, getattr(exc, "short", str(exc)),
                            {"endpoint": settings.endpoint, "answers": False,
                             "warnings": warnings})
    except UsageError as exc:
        return EngineStatus(False, " ".join([str(exc), *warnings]),
                            {"answers": False, "warnings": warnings})
    details = {"endpoint": client.base, "answers": True, "models": served,
               "model": settings.model or None}
    models = ", ".join(served) if served else "no model list"
    chosen = f"; model: {settings.model}" if settings.model else ""
    ready = served is None or (settings.model in served if settings.model else len(served) == 1)
    details["warnings"] = warnings
    return EngineStatus(ready, " ".join([f"{client.base} answers; serves {models}{chosen}",
                                         *warnings]), details)


SPEC = EngineSpec("llm", "a local model server (OpenAI-compatible /v1/chat/completions)",
                  _create, _status)
