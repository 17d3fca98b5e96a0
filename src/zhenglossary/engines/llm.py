"""The llm engine: a local model server (Ollama, llama.cpp, vLLM, LM Studio).

zhen talks to it with the standard library only (llm_http.py) and refuses an endpoint that
is not on this machine unless ``allow_remote`` is set: by default nothing leaves the machine.

Terms in the prompt. The model is told the terms (``terms_in_prompt``): a glossary term
stays the note's Chinese in the sentence it sees, and the request's glossary gives its
entry (zh, en, forbid, note) — only the entries of the request's sentences. So the model
can inflect a term and place articles around it. Code, math, URLs, names and other
protected spans stay placeholders. Each request carries whole blocks, with the heading path
and the previous block as context not to translate (``uses_context``). The prompt, the
request's JSON and the answer's strict reading are llm_prompt.py.

Structured answers. The answer's JSON schema is sent in the form the server takes
(llm_http.schema_fields; the server kind is detected or set with ``[llm] server``). If the
server refuses it (an error that the same request without the schema does not give), the
rest of the run asks for the JSON in the prompt only, with one notice; the answer is read
as strictly either way.

Verification, per sentence (placeholders.answer_problem, the rule the validator shares):
every protected placeholder exactly once; each term written as its ``en`` or an inflected
form of it (terms.py), as often as it occurs; no forbidden rendering; no Chinese left.
The ladder: the first answer; then the failed sentences asked again with each failure
named (a request cut off or too long for the model's context: each block alone, and
without its context if it overflowed); then asked with their terms masked as placeholders
(the old way: the model writes the words around a token); then the fallback engine (argos
if a model is installed, else gloss), whose output carries ``fallback`` (a finding, and
not stored in the memory, so a later run asks the model again). Each accepted output says
its rung (``via``: first, retry, masked); the run's summary counts them.

Identity (part of every memory key): the model, its digest where the server reports one,
the prompt version (with a hash of a user's own system prompt) and the temperature. It is
asked of the server when it answers, and remembered in the cache folder per (endpoint,
configured model, temperature, prompt version); when the server does not answer, the
remembered identity is used, so sentences already in the memory need no server at all. A
server that answers always wins: a model whose digest changed gets new keys.

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
from ..placeholders import (answer_problem, between_placeholders, placeholders_in, renumber,
                            without_placeholders)
from ..terms import forbidden
from ..textutil import CJK_RE
from .base import BaseEngine, EngineContext, EngineOutput, EngineSpec, EngineStatus
from .llm_http import DEFAULT_ENDPOINT, SERVER_KINDS, LLMClient, RequestFailed
from .llm_prompt import (PROMPT_VERSION, SYSTEM_PROMPT, Sentence, answer_schema,
                         build_messages, parse_answer, prompt_version)

__all__ = ["LLMEngine", "LLMSettings", "PROMPT_VERSION", "SYSTEM_PROMPT", "build_messages",
           "parse_answer"]

SERVER_ERRORS_IN_A_ROW = 4                            # then the server is broken: raise
# an error that may be the server refusing the answer's schema (then it is sent again
# without it, once a run): llama-cpp-python names response_format, vLLM the schema or its
# guided decoding, Ollama the format
_ABOUT_SCHEMA = re.compile(r"schema|response_format|\bformat\b|grammar|json_object|guided",
                           re.IGNORECASE)


@dataclass
class LLMSettings:
    endpoint: str = DEFAULT_ENDPOINT
    model: str = ""                  # empty: the one model the server serves
    temperature: float = 0.0
    timeout: float = 120.0           # seconds per request
    concurrency: int = 1             # requests in flight
    batch: int = 8                   # sentences per request (whole blocks: a bigger block alone)
    max_tokens: int = 4096
    server: str = "auto"             # auto | ollama | llama.cpp | vllm | lmstudio | openai
    system_prompt: str = ""          # empty: zhen's own (llm_prompt.SYSTEM_PROMPT)
    # only the user may send notes off the machine: a project's zhen.toml cannot (config.py)
    allow_remote: bool = field(default=False, metadata={"trusted": True})

    @property
    def prompt(self) -> str:
        return self.system_prompt or SYSTEM_PROMPT

    @property
    def prompt_version(self) -> str:
        return prompt_version(self.system_prompt)


def settings_for(context: EngineContext, warnings: list[str] | None = None) -> LLMSettings:
    settings, _ = load_settings(LLMSettings, "llm", context.root, context.overrides, warnings)
    if min(settings.concurrency, settings.batch, settings.max_tokens) < 1 or settings.timeout <= 0:
        raise UsageError("llm concurrency, batch and max_tokens must be at least 1, and timeout "
                         "above 0")
    if settings.server not in SERVER_KINDS:
        raise UsageError(f"llm server {settings.server!r} is not one zhen knows; use one of "
                         f"{', '.join(SERVER_KINDS)} ([llm] server in zhen.toml)")
    return settings


# ---------------------------------------------------------------- engine


def _pack(sentences: list[Sentence], size: int) -> list[list[Sentence]]:
    """Requests of up to ``size`` sentences made of whole blocks (a block larger than that
    is a request of its own); ``size`` 0: one block per request."""
    blocks: list[list[Sentence]] = []
    for s in sentences:
        if blocks and s.context is not None and blocks[-1][-1].context is not None \
                and blocks[-1][-1].context.block_id == s.context.block_id:
            blocks[-1].append(s)
        else:
            blocks.append([s])
    requests: list[list[Sentence]] = []
    for block in blocks:
        if requests and size and len(requests[-1]) + len(block) <= size:
            requests[-1].extend(block)
        else:
            requests.append(list(block))
    return requests


class LLMEngine(BaseEngine):
    name = "llm"
    reliable_placeholders = False          # model output: the locking layer checks it too
    # capabilities (engines/base.py): told the terms, reads the block's context
    glossary_aware = True
    terms_in_prompt = True
    uses_context = True

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
        self._lock = threading.Lock()
        self._structured: bool | None = None  # the server takes the schema (None: not known yet)
        self._probed = False                  # a request was sent again without it

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
            self._identity = (f"llm:{model}@{digest}:prompt-{self.settings.prompt_version}"
                              f":t{self.settings.temperature:g}")
        return self._identity

    def describe(self) -> str:
        self.identity()                    # the model, without the server if it is down
        return f"llm {self.model()}"

    # -------------------------------------------------------------- translating
    def _sentences(self, texts, terms, contexts) -> list[Sentence]:
        return [Sentence(i, text, (terms[i] if terms else {}) or {},
                         contexts[i] if contexts else None) for i, text in enumerate(texts)]

    def translate(self, texts: Sequence[str], *, num_hypotheses: int = 1,
                  terms: Sequence[Mapping[int, object]] | None = None,
                  contexts: Sequence[object] | None = None) -> list[EngineOutput]:
        items = self._sentences(texts, terms, contexts)
        if not items:
            return []
        todo = [it for it in items if CJK_RE.search(it.text)]
        for item in items:
            if item not in todo:
                item.english = item.text           # nothing to translate (no Chinese)
        size = self.settings.batch
        try:
            # the first answer; the failed ones again, failures named (cut off or too long:
            # each block alone); then with their terms masked, each block alone
            self._round(_pack(todo, size), masked=False, retry=False)
            failed = [it for it in todo if it.english is None]
            self._round(_pack([it for it in failed if not it.cut], size)
                        + _pack([it for it in failed if it.cut], 0), masked=False, retry=True)
            self._round(_pack([it for it in todo if it.english is None], 0), masked=True,
                        retry=True)
        except BaseException as exc:         # interrupted, or the server went: keep the done
            exc.finished = {it.index: EngineOutput([it.english], via=it.via)  # type: ignore[attr-defined]
                            for it in items if it.english is not None}
            raise
        out: list[EngineOutput | None] = [None] * len(items)
        for item in items:
            if item.english is not None:
                out[item.index] = EngineOutput([item.english], via=item.via)
        rest = [it for it in items if it.english is None]
        if rest:
            fallback = self._fallback_engine()
            results = fallback.translate([it.text for it in rest], num_hypotheses=num_hypotheses)
            for item, result in zip(rest, results):
                out[item.index] = EngineOutput(
                    result.hypotheses, result.unrendered,
                    fallback=f"{fallback.name} (the model failed: {item.reason})")
        return out  # type: ignore[return-value]

    def _round(self, batches: list[list[Sentence]], masked: bool, retry: bool) -> None:
        batches = [b for b in batches if b]
        if not batches:
            return
        if self.settings.concurrency == 1 or len(batches) == 1:
            for batch in batches:
                self._ask(batch, masked, retry)
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
                    self._ask(batch, masked, retry)
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

    def _ask(self, batch: list[Sentence], masked: bool, retry: bool) -> None:
        messages = build_messages(batch, masked=masked, retry=retry, system=self.settings.prompt)
        try:
            content = self._send(messages, len(batch))
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
                item.reason = item.told = exc.message
                item.cut = exc.kind in ("length", "overflow")
                item.bare = item.bare or exc.kind == "overflow"
            return
        except ValueError as exc:
            for item in batch:
                item.reason = item.told = str(exc)
            return
        for item, english in zip(batch, answers):
            told, accepted = self.verify(item, english, masked)
            if told is None:
                item.english, item.reason, item.told = accepted.strip(), None, None
                item.via = "masked" if masked and item.terms else ("retry" if retry else "first")
            else:
                _, numbers = item.shown(masked)
                item.told, item.reason = told, told if masked else renumber(told, numbers)

    def _send(self, messages: list[dict], count: int) -> str:
        """The answer's text; with the schema unless the server refused it (then the same
        request without it, once, and a notice: for the rest of the run, prompt only)."""
        model = self.model()
        schema = None if self._structured is False else answer_schema(count)
        try:
            content = self.client.chat(model, messages, schema)
        except RequestFailed as exc:
            if schema is None or self._structured is not None or self._probed \
                    or exc.status is None or exc.kind not in ("server", "answer") \
                    or not _ABOUT_SCHEMA.search(exc.message):
                raise
            self._probed = True                 # once a run: was it the schema?
            content = self.client.chat(model, messages, None)
            with self._lock:
                if self._structured is None:
                    self._structured = False
                    self.notices.append(
                        f"the LLM server at {self.client.base} ({self.client.server_kind()}) "
                        f"refused the answer's JSON schema ({exc.message[:200]}); for the rest "
                        "of this run the JSON is asked for in the prompt only, and read as "
                        "strictly. If the server is not of that kind, set [llm] server in "
                        "zhen.toml")
            return content
        if schema is not None and self._structured is None:
            with self._lock:
                self._structured = True if self._structured is None else self._structured
        return content

    def verify(self, item: Sentence, english: str, masked: bool = False
               ) -> tuple[str | None, str]:
        """(why ``english`` is not acceptable, in the numbering the model saw — None: it
        is; the English in the masked text's numbering)."""
        text, numbers = item.shown(masked)
        if masked:
            tokens = {n: t for n, t in item.terms.items()}
            problem = answer_problem(english, [n for n in placeholders_in(text) if n not in tokens],
                                     tokens)
        else:
            problem = answer_problem(english, range(1, len(numbers) + 1),
                                     written=[t for _, t in sorted(item.terms.items())])
            english = renumber(english, numbers)
        if problem:
            return problem, english
        # a forbid of the sentence's terms (or the glossary's corpus-wide list), searched
        # between placeholders, as the locking layer and the validator search it
        hit = forbidden(english, [getattr(t, "term", t) for t in item.terms.values()],
                        self.glossary.forbid, pieces=between_placeholders) if self.glossary else None
        if hit:
            says = f" (the glossary says {hit[0].en!r})" if hit[0] is not None else ""
            return f"wrote the forbidden {hit[1]!r}{says}", english
        if CJK_RE.search(without_placeholders(english)):
            return "left Chinese untranslated", english
        if not english.strip():
            return "gave no English", english
        return None, english

    def requests(self, texts: Sequence[str], terms=None, contexts=None) -> list[dict]:
        """The first requests a translate() of these texts sends, without contacting the
        server (``zhen translate --dry-run``): the server kind and model are the configured
        ones (``auto`` shows the OpenAI form, which vLLM, LM Studio and most servers take)."""
        kind = self.settings.server if self.settings.server != "auto" else "openai"
        model = self.settings.model or "<the server's only model>"
        todo = [it for it in self._sentences(texts, terms, contexts) if CJK_RE.search(it.text)]
        out = []
        for batch in _pack(todo, self.settings.batch):
            messages = build_messages(batch, system=self.settings.prompt)
            url, body = self.client.request(kind, model, messages, answer_schema(len(batch)))
            out.append({"method": "POST", "url": url, "server": kind,
                        "assumed": self.settings.server == "auto", "body": body})
        return out

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
                      "temperature": settings.temperature, "prompt": settings.prompt_version},
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
    warnings: list[str] = []
    settings = settings_for(context, warnings)
    if context.fallback is None:
        raise ModelError("the llm engine needs a fallback engine; create it through "
                         "engines.create_engine")
    try:
        return LLMEngine(settings, context.glossary, context.fallback, warnings)
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
    kind = client.server_kind()
    details = {"endpoint": client.base, "answers": True, "models": served,
               "model": settings.model or None, "server": kind}
    models = ", ".join(served) if served else "no model list"
    chosen = f"; model: {settings.model}" if settings.model else ""
    ready = served is None or (settings.model in served if settings.model else len(served) == 1)
    details["warnings"] = warnings
    return EngineStatus(ready, " ".join([f"{client.base} answers ({kind}); serves "
                                         f"{models}{chosen}", *warnings]), details)


SPEC = EngineSpec("llm", "a local model server (OpenAI-compatible /v1/chat/completions)",
                  _create, _status)
