"""HTTP to the llm engine's model server: the endpoint check, the client, and cutting
requests in flight.

Standard library only (``urllib``). Every network fault becomes :class:`ModelError` (the
run cannot go on: :class:`ServerUnreachable` when the server does not answer at all) or
:class:`RequestFailed` (this request's answer is unusable; the engine's retry ladder may
fix it). Environment proxies are ignored: a request for a loopback endpoint must not be
handed to a proxy elsewhere.

Each client remembers the sockets of its requests, so :meth:`LLMClient.cut` can shut them
down from another thread: an interrupted run (Ctrl-C) does not wait for the answers of
requests already sent, and the server sees the client go (Ollama then stops generating).
"""

from __future__ import annotations

import http.client
import ipaddress
import json
import re
import socket
import threading
import urllib.error
import urllib.parse
import urllib.request
import weakref

from ..errors import ModelError, ServerUnreachable, UsageError

DEFAULT_ENDPOINT = "http://127.0.0.1:11434/v1"       # Ollama's
LISTING_TIMEOUT = 10.0                                # seconds for /models and /api/tags


def check_local(endpoint: str, allow_remote: bool) -> None:
    """Refuse an endpoint off this machine unless the user allowed it."""
    parts = urllib.parse.urlsplit(endpoint)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UsageError(f"the llm endpoint {endpoint!r} is not an http(s) URL; use e.g. "
                         f"{DEFAULT_ENDPOINT}")
    host = parts.hostname
    try:
        local = ipaddress.ip_address(host).is_loopback
    except ValueError:
        local = host.lower() == "localhost"
    if not local and not allow_remote:
        raise UsageError(f"the llm endpoint {endpoint} is not on this machine, and zhen sends "
                         "nothing off the machine by default. Use a local server, or pass "
                         "--allow-remote (ZHEN_LLM_ALLOW_REMOTE=1) if sending your notes "
                         "there is intended")


class RequestFailed(Exception):
    """One request failed in a way the next rung of the ladder may fix."""

    def __init__(self, message: str, kind: str = "answer") -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind             # answer | server (5xx) | length (cut off by max_tokens)


class _Sockets:
    """The sockets a client's requests opened (weakly held: a finished one just goes)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.live: weakref.WeakSet[socket.socket] = weakref.WeakSet()
        self.http = self._tracked(http.client.HTTPConnection)
        self.https = self._tracked(http.client.HTTPSConnection)

    def _tracked(self, base: type[http.client.HTTPConnection]) -> type:
        sockets = self

        class Tracked(base):                 # type: ignore[valid-type, misc]
            def connect(self) -> None:
                super().connect()
                with sockets.lock:
                    sockets.live.add(self.sock)

        return Tracked

    def cut(self) -> None:
        with self.lock:
            live = list(self.live)
        for sock in live:
            try:
                sock.shutdown(socket.SHUT_RDWR)      # wakes a thread blocked reading it
            except OSError:
                pass                                  # already closed


def _opener(sockets: _Sockets) -> urllib.request.OpenerDirector:
    class HTTP(urllib.request.HTTPHandler):
        def http_open(self, req):
            return self.do_open(sockets.http, req)

    class HTTPS(urllib.request.HTTPSHandler):
        def https_open(self, req):
            return self.do_open(sockets.https, req, context=self._context)

    return urllib.request.build_opener(urllib.request.ProxyHandler({}), HTTP, HTTPS)


class LLMClient:
    """HTTP to the server; every network fault becomes ModelError or RequestFailed."""

    def __init__(self, settings) -> None:             # llm.LLMSettings
        check_local(settings.endpoint, settings.allow_remote)
        self.settings = settings
        self.base = settings.endpoint.rstrip("/")
        self._sockets = _Sockets()
        self._opener = _opener(self._sockets)

    def cut(self) -> None:
        """Shut down every request in flight (from any thread); each fails at once."""
        self._sockets.cut()

    def _call(self, method: str, url: str, body: dict | None, timeout: float) -> dict:
        data = json.dumps(body, ensure_ascii=False).encode() if body is not None else None
        request = urllib.request.Request(url, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        where = f"the LLM server at {self.base}"
        try:
            with self._opener.open(request, timeout=timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError:
            raise
        except (urllib.error.URLError, ConnectionError, http.client.HTTPException, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            if isinstance(exc, (socket.timeout, TimeoutError)) or \
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
        try:
            answer = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise RequestFailed(f"the server's reply is not JSON ({exc})") from exc
        if not isinstance(answer, dict):
            raise RequestFailed("the server's reply is not a JSON object")
        return answer

    def served_models(self) -> list[str] | None:
        """Model ids the server lists at /models (None: it has no such listing)."""
        try:
            answer = self._call("GET", self.base + "/models", None,
                                min(self.settings.timeout, LISTING_TIMEOUT))
        except (urllib.error.HTTPError, RequestFailed):
            return None
        data = answer.get("data")
        if not isinstance(data, list):
            return None
        return [str(m.get("id")) for m in data if isinstance(m, dict) and m.get("id")]

    def digest(self, model: str) -> str | None:
        """The model's digest where the server reports one (Ollama: /api/tags)."""
        root = re.sub(r"/v1$", "", self.base)
        try:
            answer = self._call("GET", root + "/api/tags", None,
                                min(self.settings.timeout, LISTING_TIMEOUT))
        except (urllib.error.HTTPError, RequestFailed):
            return None
        for entry in answer.get("models") or []:
            if isinstance(entry, dict) and model in (entry.get("name"), entry.get("model")):
                digest = entry.get("digest")
                return str(digest)[:16] if digest else None
        return None

    def chat(self, model: str, messages: list[dict]) -> str:
        """The assistant's text; RequestFailed when this request's answer is unusable."""
        body = {"model": model, "messages": messages, "stream": False,
                "temperature": self.settings.temperature, "max_tokens": self.settings.max_tokens}
        try:
            answer = self._call("POST", self.base + "/chat/completions", body, self.settings.timeout)
        except urllib.error.HTTPError as exc:
            detail = _error_text(exc)
            if exc.code == 404 and "model" in detail.lower():
                raise ModelError(f"the LLM server at {self.base} does not serve the model "
                                 f"{model!r} ({detail}). Pull it (`ollama pull {model}`) or "
                                 "choose a served one with --model") from exc
            if exc.code in (401, 403):
                raise ModelError(f"the LLM server at {self.base} refused the request (HTTP "
                                 f"{exc.code}: {detail}); zhen sends no credentials") from exc
            raise RequestFailed(f"HTTP {exc.code} from the server: {detail}",
                                "server" if exc.code >= 500 else "answer") from exc
        choices = answer.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            raise RequestFailed("the server's reply has no choices")
        if choices[0].get("finish_reason") == "length":
            raise RequestFailed("the answer was cut off (max_tokens reached)", "length")
        content = (choices[0].get("message") or {}).get("content")
        if not isinstance(content, str):
            raise RequestFailed("the server's reply has no message content")
        return content


def _error_text(exc: urllib.error.HTTPError) -> str:
    try:
        raw = exc.read().decode("utf-8", "replace")
    except OSError:
        return exc.reason or ""
    try:
        error = json.loads(raw).get("error")
        if isinstance(error, dict):
            return str(error.get("message") or error)
        if error:
            return str(error)
    except (ValueError, AttributeError):
        pass
    return raw.strip()[:200] or str(exc.reason)
