"""HTTP to the llm engine's model server: the endpoint check, the client, the server's
kind and the form it takes a JSON schema in, and cutting requests in flight.

The kind (``SERVER_KINDS``) is ``[llm] server``, or asked of the server once per client
(``_PROBES``: Ollama's ``/api/version``, llama.cpp's ``/props`` — llama-cpp-python's
``/openapi.json`` title —, vLLM's ``/version``, LM Studio's ``/api/v0/models``; else
``openai``). Ollama is spoken to in its own API (``/api/chat``, where the schema is
``format``); every other server through ``/chat/completions`` with the schema in its
``response_format`` form (:func:`schema_fields`). A request too long for the model's
context is told apart from a broken server (``RequestFailed`` kind ``overflow``).

Standard library only (``urllib``). Every network fault becomes :class:`ModelError` (the
run cannot go on: :class:`ServerUnreachable` when the server does not answer at all) or
:class:`RequestFailed` (this request's answer is unusable; the engine's retry ladder may
fix it). Nothing goes anywhere but the endpoint the user allowed:

* environment proxies are ignored (a request for a loopback endpoint must not be handed to
  a proxy elsewhere), redirects are never followed (a redirect is an error naming where it
  pointed), and an endpoint with a user name or password in it is refused (urllib would
  take ``user:pw@127.0.0.1`` for a host name and look it up in the DNS);
* each request has one deadline, ``timeout`` seconds for all of it (connecting, sending,
  the answer's headers and body), not per read: a server trickling bytes is cut there;
* an answer is read up to ``MAX_ANSWER_BYTES``, never whole whatever its size;
* HTTP 429 (rate limited): the request is sent again after ``Retry-After`` when that is at
  most ``MAX_RETRY_AFTER`` seconds, up to ``RATE_LIMIT_RETRIES`` times; then the run stops
  with an error — never a silent fallback for every sentence.

Each client remembers the sockets of its requests, so :meth:`LLMClient.cut` can shut them
down from another thread: an interrupted run (Ctrl-C) does not wait for the answers of
requests already sent, and the server sees the client go (Ollama then stops generating).
"""

from __future__ import annotations

import ipaddress
import json
import re
import socket
import threading
import urllib.parse
import weakref

from ..errors import ModelError, ServerUnreachable, UsageError
from ..paths import user_config_file

DEFAULT_ENDPOINT = "http://127.0.0.1:11434/v1"       # Ollama's
LISTING_TIMEOUT = 10.0                                # seconds for /models and /api/tags
# the limits on what a server may make zhen do, in one place
MAX_ANSWER_BYTES = 8 * 1024 * 1024                    # one answer (a batch is a few KB)
MAX_ERROR_BYTES = 64 * 1024                           # the body of an HTTP error, for its message
MAX_RETRY_AFTER = 60.0                                # seconds zhen waits on one 429
RATE_LIMIT_RETRIES = 4                                # 429s answered by waiting, then an error


def check_local(endpoint: str, allow_remote: bool) -> None:
    """Refuse an endpoint with credentials in it, and one off this machine unless the user
    allowed it."""
    parts = urllib.parse.urlsplit(endpoint)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(f"the llm endpoint {endpoint!r} is not an http(s) URL; use e.g. "
                         f"{DEFAULT_ENDPOINT}")
    if "@" in parts.netloc:
        bare = parts._replace(netloc=parts.netloc.rpartition("@")[2]).geturl()
        raise UsageError(f"the llm endpoint has a user name or password before '@' "
                         f"({parts.scheme}://…@{parts.netloc.rpartition('@')[2]}); zhen sends no "
                         f"credentials and does not use such an endpoint. Remove that part: "
                         f"{bare}")
    host = parts.hostname
    try:
        local = ipaddress.ip_address(host).is_loopback
    except ValueError:
        local = host.lower() == "localhost"
    if not local and not allow_remote:
        raise UsageError(f"the llm endpoint {endpoint} is not on this machine, and zhen sends "
                         "nothing off the machine by default. Use a local server, or pass "
                         "--allow-remote (ZHEN_LLM_ALLOW_REMOTE=1, or allow_remote = true under "
                         f"[llm] in your own config {user_config_file()}) if sending your notes "
                         "there is intended")


class RequestFailed(Exception):
    """One request failed in a way the next rung of the ladder may fix."""

    def __init__(self, message: str, kind: str = "answer", status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        # answer | server (5xx) | length (cut off by max_tokens) | overflow (the request
        # does not fit the model's context)
        self.kind = kind
        self.status = status         # the HTTP status, when the server answered with one


# ---------------------------------------------------------------- server kinds
# Each server asks for a JSON schema in its own words. The kind is detected from what the
# server answers (the first probe that fits wins), or set with [llm] server in zhen.toml.
SERVER_KINDS = ("auto", "ollama", "llama.cpp", "vllm", "lmstudio", "openai")
_PROBES = (
    ("ollama", "/api/version", lambda a: isinstance(a.get("version"), str)),
    ("llama.cpp", "/props", lambda a: "default_generation_settings" in a or "total_slots" in a),
    ("vllm", "/version", lambda a: isinstance(a.get("version"), str)),
    ("lmstudio", "/api/v0/models", lambda a: isinstance(a.get("data"), list) and any(
        isinstance(m, dict) and "publisher" in m for m in a["data"])),
    # llama-cpp-python's server (FastAPI) has no /props; its API description names it
    ("llama.cpp", "/openapi.json", lambda a: "llama.cpp" in str((a.get("info") or {}).get("title"))),
)
# what a server says when a request does not fit its model's context
_OVERFLOW = re.compile(r"context (?:length|window|size)|n_ctx|context_length_exceeded|"
                       r"exceeds? (?:the )?(?:available )?context", re.IGNORECASE)


def schema_fields(kind: str, schema: dict) -> dict:
    """The request fields that ask a server of ``kind`` to answer under ``schema``:
    Ollama's ``format``; llama.cpp's ``response_format`` of type ``json_object`` with the
    schema (llama-cpp-python refuses ``json_schema`` with HTTP 500); the OpenAI form
    ``response_format: {"type": "json_schema", …}`` for vLLM, LM Studio and any other."""
    if kind == "ollama":
        return {"format": schema}
    if kind == "llama.cpp":
        return {"response_format": {"type": "json_object", "schema": schema}}
    return {"response_format": {"type": "json_schema", "json_schema": {
        "name": "translations", "strict": True, "schema": schema}}}


class HTTPStatus(Exception):
    """The server answered with an HTTP error status; ``detail`` is its message (read
    within the request's deadline and size limit)."""

    def __init__(self, code: int, detail: str, headers) -> None:
        super().__init__(f"HTTP {code}: {detail}")
        self.code = code
        self.detail = detail
        self.headers = headers


class _Sockets:
    """The sockets a client's requests opened (weakly held: a finished one just goes), and
    which thread's request opened each, so one request's deadline cuts only its own."""

    def __init__(self) -> None:
        import http.client
        self.lock = threading.Lock()
        self.live: weakref.WeakSet[socket.socket] = weakref.WeakSet()
        self.by_thread: dict[int, socket.socket] = {}
        self.stopped = threading.Event()              # cut(): no more waiting either
        self.http = self._tracked(http.client.HTTPConnection)
        self.https = self._tracked(http.client.HTTPSConnection)

    def _tracked(self, base: type[http.client.HTTPConnection]) -> type:
        sockets = self

        class Tracked(base):                 # type: ignore[valid-type, misc]
            def connect(self) -> None:
                super().connect()
                with sockets.lock:
                    sockets.live.add(self.sock)
                    sockets.by_thread[threading.get_ident()] = self.sock

        return Tracked

    @staticmethod
    def _shutdown(sock: socket.socket) -> None:
        try:
            sock.shutdown(socket.SHUT_RDWR)          # wakes a thread blocked reading it
        except OSError:
            pass                                      # already closed

    def cut(self) -> None:
        self.stopped.set()
        with self.lock:
            live = list(self.live)
        for sock in live:
            self._shutdown(sock)

    def cut_thread(self, ident: int) -> None:
        with self.lock:
            sock = self.by_thread.get(ident)
        if sock is not None:
            self._shutdown(sock)

    def forget_thread(self, ident: int) -> None:
        with self.lock:
            self.by_thread.pop(ident, None)


class RedirectRefused(ModelError):
    """The server answered with a redirect, which zhen never follows."""


def _redirect_refused(base: str):
    import urllib.request
    class NoRedirect(urllib.request.HTTPRedirectHandler):
        """A redirect is never followed: it could point anywhere, off the machine too."""

        def redirect_request(self, req, fp, code, msg, headers, newurl):
            shown = repr(str(newurl)[:200])
            raise RedirectRefused(f"the LLM server at {base} answered {req.get_method()} "
                             f"{urllib.parse.urlsplit(req.full_url).path} with a redirect "
                             f"(HTTP {code}) to {shown}; zhen follows no redirects, so nothing "
                             "was sent there. Point --endpoint at the server itself")

    return NoRedirect


def _opener(sockets: _Sockets, base: str) -> urllib.request.OpenerDirector:
    import urllib.request
    class HTTP(urllib.request.HTTPHandler):
        def http_open(self, req):
            return self.do_open(sockets.http, req)

    class HTTPS(urllib.request.HTTPSHandler):
        def https_open(self, req):
            return self.do_open(sockets.https, req, context=self._context)

    return urllib.request.build_opener(urllib.request.ProxyHandler({}), HTTP, HTTPS,
                                       _redirect_refused(base))


def _retry_after(headers) -> float | None:
    """Seconds a ``Retry-After`` header asks to wait (a number or an HTTP date); None when
    there is none or it cannot be read."""
    value = (headers.get("Retry-After") if headers is not None else None) or ""
    value = value.strip()
    if not value:
        return None
    if re.fullmatch(r"\d+(?:\.\d+)?", value):
        return float(value)
    import email.utils

    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None:
        return None
    import datetime

    if when.tzinfo is None:
        when = when.replace(tzinfo=datetime.timezone.utc)
    return max(0.0, (when - datetime.datetime.now(datetime.timezone.utc)).total_seconds())


class LLMClient:
    """HTTP to the server; every network fault becomes ModelError or RequestFailed."""

    def __init__(self, settings) -> None:             # llm.LLMSettings
        check_local(settings.endpoint, settings.allow_remote)
        self.settings = settings
        self.base = settings.endpoint.rstrip("/")
        self._sockets = _Sockets()
        self._opener = _opener(self._sockets, self.base)
        self._kind: str | None = None
        self._kind_lock = threading.Lock()

    def cut(self) -> None:
        """Shut down every request in flight (from any thread); each fails at once."""
        self._sockets.cut()

    def _call(self, method: str, url: str, body: dict | None, timeout: float) -> dict:
        """The JSON object the server answers; HTTPStatus for an error status (429 is waited
        out up to the limits above, then ModelError)."""
        import urllib.request
        data = json.dumps(body, ensure_ascii=False).encode() if body is not None else None
        for attempt in range(RATE_LIMIT_RETRIES + 1):
            request = urllib.request.Request(url, data=data, method=method,
                                             headers={"Content-Type": "application/json"})
            try:
                raw = self._once(request, timeout)
            except HTTPStatus as exc:
                if exc.code != 429:
                    raise
                wait = _retry_after(exc.headers)
                asked = f"asks to wait {wait:g} s" if wait is not None else "gives no Retry-After"
                if wait is not None and wait > MAX_RETRY_AFTER:
                    raise ModelError(
                        f"the LLM server at {self.base} is rate-limiting zhen (HTTP 429) and "
                        f"{asked}, longer than zhen waits ({MAX_RETRY_AFTER:g} s). Try again "
                        "later or lower --concurrency; finished batches are kept and the next "
                        "run resumes") from None
                if attempt == RATE_LIMIT_RETRIES:
                    raise ModelError(
                        f"the LLM server at {self.base} is still rate-limiting zhen (HTTP 429) "
                        f"after {RATE_LIMIT_RETRIES} waits. Try again later or lower "
                        "--concurrency; finished batches are kept and the next run resumes"
                    ) from None
                if self._sockets.stopped.wait(min(wait if wait is not None else 2.0 ** attempt,
                                                  MAX_RETRY_AFTER)):
                    raise ModelError("the request was cut") from None
                continue
            break
        try:
            answer = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise RequestFailed(f"the server's reply is not JSON ({exc})") from exc
        if not isinstance(answer, dict):
            raise RequestFailed("the server's reply is not a JSON object")
        return answer

    def _once(self, request: urllib.request.Request, timeout: float) -> bytes:
        """One request within one deadline of ``timeout`` seconds: the body it answers, at
        most MAX_ANSWER_BYTES of it."""
        import http.client
        import urllib.error
        where = f"the LLM server at {self.base}"
        ident = threading.get_ident()
        expired = threading.Event()

        def expire() -> None:
            expired.set()
            self._sockets.cut_thread(ident)

        timer = threading.Timer(timeout, expire)
        timer.daemon = True
        timer.start()
        try:
            try:
                with self._opener.open(request, timeout=timeout) as response:
                    raw = self._read(response, MAX_ANSWER_BYTES)
            except urllib.error.HTTPError as exc:
                with exc:
                    detail = _error_text(exc, self._read(exc, MAX_ERROR_BYTES, cut=True))
                if not expired.is_set():
                    raise HTTPStatus(exc.code, detail, exc.headers) from None
            if expired.is_set():
                raise TimeoutError("the deadline passed")
            return raw
        except (urllib.error.URLError, ConnectionError, http.client.HTTPException, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            if expired.is_set() or isinstance(exc, (socket.timeout, TimeoutError)) or \
                    isinstance(reason, (socket.timeout, TimeoutError)):
                error = ServerUnreachable(
                    f"{where} did not answer within {timeout:g} s. It may be busy or stuck: "
                    "raise --timeout (zhen.toml [llm] timeout) or lower [llm] batch; finished "
                    "batches are kept and the next run resumes")
                error.short = f"{self.base} did not answer within {timeout:g} s"
            else:
                error = ServerUnreachable(
                    f"{where} does not answer ({reason}). Start it (for Ollama: `ollama serve`) "
                    "or point zhen at it with --endpoint / ZHEN_LLM_ENDPOINT; finished "
                    "batches are kept and the next run resumes")
                error.short = f"{self.base} does not answer ({reason})"
            raise error from exc
        finally:
            timer.cancel()
            self._sockets.forget_thread(ident)

    def _read(self, response, limit: int, cut: bool = False) -> bytes:
        """The body, at most ``limit`` bytes; beyond that ModelError (``cut``: just the
        first ``limit`` bytes, for an error's message)."""
        import http.client
        length = response.headers.get("Content-Length") if response.headers else None
        if not cut and length and length.strip().isdigit() and int(length) > limit:
            raise self._too_big(int(length))
        chunks: list[bytes] = []
        total = 0
        while True:
            try:
                chunk = response.read(min(64 * 1024, limit + 1 - total))
            except (OSError, http.client.HTTPException):
                if cut:
                    break
                raise
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                if cut:
                    break
                raise self._too_big(total)
        return b"".join(chunks)[:limit]

    def _too_big(self, size: int) -> ModelError:
        announced = f" (it announced {size:,} bytes)" if size > MAX_ANSWER_BYTES + 1 else ""
        return ModelError(f"the LLM server at {self.base} sent more than "
                          f"{MAX_ANSWER_BYTES // (1024 * 1024)} MB for one request of a few "
                          f"sentences{announced}; zhen stops reading there. Check the server; "
                          "finished batches are kept and the next run resumes")

    def served_models(self) -> list[str] | None:
        """Model ids the server lists at /models (None: it has no such listing)."""
        try:
            answer = self._call("GET", self.base + "/models", None,
                                min(self.settings.timeout, LISTING_TIMEOUT))
        except (HTTPStatus, RequestFailed):
            return None
        data = answer.get("data")
        if not isinstance(data, list):
            return None
        return [str(m.get("id")) for m in data if isinstance(m, dict) and m.get("id")]

    def digest(self, model: str) -> str | None:
        """The model's digest where the server reports one (Ollama: /api/tags)."""
        try:
            answer = self._call("GET", self.root + "/api/tags", None,
                                min(self.settings.timeout, LISTING_TIMEOUT))
        except (HTTPStatus, RequestFailed):
            return None
        for entry in answer.get("models") or []:
            if isinstance(entry, dict) and model in (entry.get("name"), entry.get("model")):
                digest = entry.get("digest")
                return str(digest)[:16] if digest else None
        return None

    @property
    def root(self) -> str:
        """The server's address without its OpenAI ``/v1``."""
        return re.sub(r"/v1$", "", self.base)

    def server_kind(self) -> str:
        """What server this is (SERVER_KINDS), from ``[llm] server`` or else asked of the
        server once (a few small GETs; "openai" when none fits)."""
        with self._kind_lock:
            if self._kind is None:
                self._kind = self.settings.server if self.settings.server != "auto" \
                    else self._detect()
            return self._kind

    def _detect(self) -> str:
        for kind, path, fits in _PROBES:
            try:
                answer = self._call("GET", self.root + path, None,
                                    min(self.settings.timeout, LISTING_TIMEOUT))
            except (HTTPStatus, RequestFailed, RedirectRefused):
                continue                       # not this kind (nothing is sent anywhere else)
            if fits(answer):
                return kind
        return "openai"

    def request(self, kind: str, model: str, messages: list[dict],
                schema: dict | None) -> tuple[str, dict]:
        """(URL, JSON body) of one chat request to a server of ``kind``; ``schema``: the
        answer's JSON schema, sent in that server's form (None: prompt only)."""
        if kind == "ollama":                  # its own API: the schema is its "format"
            body = {"model": model, "messages": messages, "stream": False,
                    "options": {"temperature": self.settings.temperature,
                                "num_predict": self.settings.max_tokens}}
            url = self.root + "/api/chat"
        else:
            body = {"model": model, "messages": messages, "stream": False,
                    "temperature": self.settings.temperature,
                    "max_tokens": self.settings.max_tokens}
            url = self.base + "/chat/completions"
        if schema is not None:
            body.update(schema_fields(kind, schema))
        return url, body

    def chat(self, model: str, messages: list[dict], schema: dict | None = None) -> str:
        """The assistant's text; RequestFailed when this request's answer is unusable."""
        kind = self.server_kind()
        url, body = self.request(kind, model, messages, schema)
        try:
            answer = self._call("POST", url, body, self.settings.timeout)
        except HTTPStatus as exc:
            detail = exc.detail
            if exc.code == 404 and "model" in detail.lower():
                raise ModelError(f"the LLM server at {self.base} does not serve the model "
                                 f"{model!r} ({detail}). Pull it (`ollama pull {model}`) or "
                                 "choose a served one with --model") from exc
            if exc.code in (401, 403):
                raise ModelError(f"the LLM server at {self.base} refused the request (HTTP "
                                 f"{exc.code}: {detail}); zhen sends no credentials") from exc
            if _OVERFLOW.search(detail):
                raise RequestFailed(f"the request does not fit the model's context (HTTP "
                                    f"{exc.code}: {detail})", "overflow", exc.code) from exc
            raise RequestFailed(f"HTTP {exc.code} from the server: {detail}",
                                "server" if exc.code >= 500 else "answer", exc.code) from exc
        if kind == "ollama":
            if answer.get("done_reason") == "length":
                raise RequestFailed("the answer was cut off (max_tokens reached)", "length")
            content = (answer.get("message") or {}).get("content") \
                if isinstance(answer.get("message"), dict) else None
        else:
            choices = answer.get("choices")
            if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
                raise RequestFailed("the server's reply has no choices")
            if choices[0].get("finish_reason") == "length":
                raise RequestFailed("the answer was cut off (max_tokens reached)", "length")
            content = (choices[0].get("message") or {}).get("content")
        if not isinstance(content, str):
            raise RequestFailed("the server's reply has no message content")
        return content


def _error_text(exc: urllib.error.HTTPError, raw_bytes: bytes) -> str:
    raw = raw_bytes.decode("utf-8", "replace")
    try:
        error = json.loads(raw).get("error")
        if isinstance(error, dict):
            return str(error.get("message") or error)[:500]
        if error:
            return str(error)[:500]
    except (ValueError, AttributeError):
        pass
    return raw.strip()[:200] or str(exc.reason)
