"""A local model server for the llm engine's tests, with fault injection.

It speaks the OpenAI protocol (``GET /v1/models``, ``POST /v1/chat/completions``) and
Ollama's ``GET /api/tags`` (with a digest) on 127.0.0.1 with an ephemeral port, in a thread.
``kind`` makes it one server in particular, for the engine's detection: ``"ollama"`` also
answers ``GET /api/version`` and ``POST /api/chat`` (Ollama's own API, where the schema is
``format``), ``"llama.cpp"`` ``GET /props``, ``"vllm"`` ``GET /version``, ``"lmstudio"``
``GET /api/v0/models``; the default, ``"openai"``, none of those. ``schema`` says what it
does with an answer schema: ``"accept"``, or ``"refuse"`` (HTTP 500, as llama-cpp-python
answers ``json_schema``). Every request's schema is kept in ``schemas``.

Its "model" reads the request zhen sends (``{"glossary", "blocks": [{"context",
"sentences": [{"id", "zh", "tokens"?}]}]}``) and answers ``{"translations": [{"id",
"en"}]}``: each glossary term's Chinese becomes its ``en`` (and, in mode ``inflect``, an
inflected form of it: the plural, or hyphenated, as a model writes them), each other run of
Chinese a pseudo-English word derived from its characters (so a sentence's English is a
deterministic function of its Chinese, and a shifted answer is visible), placeholders are
copied, punctuation made English. The English is garbage; the protocol, batching and faults
are real.

Faults, per chat request: a ``script`` (one mode per request, in order; then "ok") or a
seeded random ``fault_rate`` over ``faults``. Modes: ok, inflect, prose (text around the
JSON), broken_json, wrong_count, shift (each id gets the next item's English, one item
short), drop_placeholder, drop_term (a term's English replaced by another word), forbid
(writes the request's first forbidden rendering), chinese (leaves Chinese), length (cut
off: finish_reason "length"), overflow (HTTP 400: the request exceeds the context), http500,
http400, slow (sleeps ``delay`` first), hang (sleeps ``hang`` seconds: longer than the
client's timeout). ``die_after=N`` shuts the server down after N chat answers (connections
are then refused), as if it were killed. An unknown model gets Ollama's 404.

Hostile modes (a server that tries to make zhen send notes elsewhere or hang): redirect
(302 to ``redirect_to``), trickle (a valid answer, one byte every ``trickle`` seconds),
huge (``huge`` bytes of JSON-looking padding, no Content-Length), http429 (rate limited,
``Retry-After: retry_after`` unless it is None). ``listing_mode`` answers ``/v1/models``
with one of them too.

Run it by hand: ``python tests/support/llm_server.py --port 11435 --fault-rate 0.3``.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CJK_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]+")
PUNCT = str.maketrans({"，": ",", "。": ".", "；": ";", "：": ":", "！": "!", "？": "?",
                       "（": "(", "）": ")", "、": ",", "“": '"', "”": '"'})
SYLLABLES = ["ka", "lo", "mi", "ne", "ru", "sa", "to", "vi", "zu", "pe", "da", "fo"]
FAULTS = ("prose", "broken_json", "wrong_count", "shift", "drop_placeholder", "drop_term",
          "forbid", "chinese", "length", "http500", "http400")
KIND_PATHS = {"ollama": "/api/version", "llama.cpp": "/props", "vllm": "/version",
              "lmstudio": "/api/v0/models"}


def pseudo_english(zh: str) -> str:
    """Deterministic English-looking text: each Chinese run becomes one made-up word."""
    def word(match: re.Match) -> str:
        digest = hashlib.sha256(match.group(0).encode()).digest()
        n = 1 + len(match.group(0)) // 3
        return " " + "".join(SYLLABLES[b % len(SYLLABLES)] for b in digest[:n]) + " "
    text = CJK_RUN.sub(word, zh).translate(PUNCT)
    text = re.sub(r"\s+", " ", text)
    return re.sub(r" ([,.;:!?)])", r"\1", text).strip()


def inflected(en: str) -> str:
    """How a model bends a term: several words hyphenated (*mixed-precision*), one word in
    the plural (*checkpoints*)."""
    words = en.split()
    if len(words) > 1 and "(" not in en:
        return "-".join(words)
    last = words[-1]
    plural = last + ("es" if last.endswith(("s", "x", "ch", "sh")) else "s")
    return " ".join(words[:-1] + [plural])


def fake_english(zh: str, glossary: list[dict] = (), inflect: bool = False,
                 drop_term: bool = False) -> str:
    """The fake model's English for one sentence: each glossary term's Chinese becomes its
    ``en`` (inflected, or replaced by "thing" for ``drop_term``), every other Chinese run a
    pseudo-English word."""
    marks: dict[str, str] = {}
    forms = sorted(glossary, key=lambda e: -len(e["zh"]))
    out, i = [], 0
    while i < len(zh):                          # leftmost-longest, as zhen matches terms
        entry = next((e for e in forms if zh.startswith(e["zh"], i)), None)
        if entry is None:
            out.append(zh[i])
            i += 1
            continue
        mark = f"\x00{len(marks)}\x00"
        en = entry["en"]
        marks[mark] = "thing" if drop_term else (inflected(en) if inflect else en)
        out.append(f" {mark} ")
        i += len(entry["zh"])
    zh = "".join(out)
    text = pseudo_english(zh)
    for mark, en in marks.items():
        text = text.replace(mark, en)
    return re.sub(r"\s+", " ", text).strip()


def sentences_of(body: dict) -> list[dict]:
    """The sentences of one chat request zhen sent, in id order."""
    user = next(m["content"] for m in body.get("messages", []) if m["role"] == "user")
    return [s for block in json.loads(user)["blocks"] for s in block["sentences"]]


def request_of(body: dict) -> dict:
    user = next(m["content"] for m in body.get("messages", []) if m["role"] == "user")
    return json.loads(user)


def schema_of(body: dict):
    """The answer schema a request carries (in whichever server's form), or None."""
    if isinstance(body.get("format"), dict):
        return body["format"]
    form = body.get("response_format")
    if isinstance(form, dict):
        return form.get("schema") or (form.get("json_schema") or {}).get("schema")
    return None


class FakeLLMServer:
    def __init__(self, models=("tiny-zh-en",), digest="sha256:0123456789abcdef0123",
                 script=(), fault_rate=0.0, faults=FAULTS, seed=0, delay=0.0, hang=5.0,
                 die_after: int | None = None, redirect_to: str = "http://192.0.2.1:9/v1",
                 trickle: float = 0.2, huge: int = 64 * 1024 * 1024,
                 retry_after: str | None = "0", listing_mode: str = "ok",
                 kind: str = "openai", schema: str = "accept") -> None:
        self.kind = kind
        self.schema = schema
        self.schemas: list = []              # the schema of every chat request (or None)
        self.paths: list[str] = []           # the path of every chat request
        self.redirect_to = redirect_to
        self.trickle = trickle
        self.huge = huge
        self.retry_after = retry_after
        self.listing_mode = listing_mode
        self.models = list(models)
        self.digest = digest
        self.script = list(script)
        self.fault_rate = fault_rate
        self.faults = tuple(faults)
        self.rng = random.Random(seed)
        self.delay = delay
        self.hang = hang
        self.die_after = die_after
        self.lock = threading.Lock()
        self.chats: list[dict] = []          # every chat request body, in order
        self.modes: list[str] = []           # the mode each chat request got
        self.answered = 0
        self.requests = 0                    # every request of any kind (GET and POST)
        self.httpd: ThreadingHTTPServer | None = None
        self.thread: threading.Thread | None = None

    # ---------------------------------------------------------------- lifecycle
    def start(self) -> "FakeLLMServer":
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        return self

    @property
    def port(self) -> int:
        return self.httpd.server_address[1]

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def stop(self) -> None:
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()

    def __enter__(self) -> "FakeLLMServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    # ---------------------------------------------------------------- model
    def next_mode(self) -> str:
        with self.lock:
            if self.script:
                return self.script.pop(0)
            if self.fault_rate and self.rng.random() < self.fault_rate:
                return self.rng.choice(self.faults)
            return "ok"

    def answer(self, body: dict, mode: str, native: bool = False) -> tuple[int, dict]:
        """(HTTP status, JSON body) for one chat request (``native``: Ollama's /api/chat)."""
        if body.get("model") not in self.models:
            return 404, {"error": {"message": f"model '{body.get('model')}' not found, try pulling it first"}}
        if self.schema == "refuse" and schema_of(body) is not None:
            return 500, {"error": {"message": "1 validation error: response_format.type: Input "
                                              "should be 'text' or 'json_object'"}}
        if mode == "http500":
            return 500, {"error": {"message": "out of memory"}}
        if mode == "http400":
            return 400, {"error": {"message": "the request is malformed"}}
        if mode == "overflow":
            return 400, {"error": {"message": "This model's maximum context length is 512 tokens. "
                                              "However, you requested 900 tokens",
                                   "code": "context_length_exceeded"}}
        request = request_of(body)
        items = [s for block in request["blocks"] for s in block["sentences"]]
        glossary = request.get("glossary", [])
        forbid = [p for entry in glossary for p in entry.get("forbid", [])]
        out = [{"id": item["id"], "en": fake_english(item["zh"], glossary, mode == "inflect",
                                                       mode == "drop_term")}
               for item in items]
        finish = "stop"
        if mode == "wrong_count":
            out = out[:-1] if len(out) > 1 else []
        elif mode == "shift":
            out = [{"id": a["id"], "en": b["en"]} for a, b in zip(out, out[1:])]
        elif mode == "drop_placeholder":
            for entry in out:
                if re.search(r"ZX\d+", entry["en"]):
                    entry["en"] = re.sub(r"ZX\d+", "", entry["en"], count=1)
                    break
        elif mode == "drop_term":             # masked: a term's token dropped
            for item, entry in zip(items, out):
                for token in item.get("tokens", {}):
                    entry["en"] = entry["en"].replace(token, "thing", 1)
                    break
        elif mode == "forbid" and forbid:
            out[0]["en"] = f"{out[0]['en']} {forbid[0]}"
        elif mode == "chinese":
            out[0]["en"] = items[0]["zh"]
        content = json.dumps({"translations": out}, ensure_ascii=False)
        if mode == "prose":
            content = "Here is the translation:\n" + content + "\nHope this helps!"
        elif mode == "broken_json":
            content = content[:-3]
        elif mode == "length":
            content, finish = content[: len(content) // 2], "length"
        if native:
            return 200, {"model": body["model"], "message": {"role": "assistant", "content": content},
                         "done": True, "done_reason": finish}
        return 200, {"id": "chatcmpl-1", "object": "chat.completion", "model": body["model"],
                     "choices": [{"index": 0, "finish_reason": finish,
                                  "message": {"role": "assistant", "content": content}}]}


def _handler(server: FakeLLMServer):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:    # quiet
            pass

        def _send(self, status: int, body: dict) -> None:
            data = json.dumps(body, ensure_ascii=False).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _hostile(self, mode: str, body: dict | None = None) -> bool:
            """Answer in one of the hostile modes; False when ``mode`` is not one."""
            if mode == "redirect":
                self.send_response(302)
                self.send_header("Location", server.redirect_to + self.path.removeprefix("/v1"))
                self.send_header("Content-Length", "0")
                self.end_headers()
            elif mode == "http429":
                data = b'{"error": {"message": "rate limit exceeded"}}'
                self.send_response(429)
                if server.retry_after is not None:
                    self.send_header("Retry-After", server.retry_after)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            elif mode == "huge":
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Connection", "close")
                self.end_headers()
                chunk = b" " * (1024 * 1024)
                try:
                    self.wfile.write(b"{")
                    for _ in range(server.huge // len(chunk)):
                        self.wfile.write(chunk)
                except OSError:
                    pass
                self.close_connection = True
            elif mode == "trickle":
                status, answer = server.answer(body or {}, "ok") if body is not None else \
                    (200, {"object": "list", "data": [{"id": m} for m in server.models]})
                data = json.dumps(answer, ensure_ascii=False).encode()
                self.send_response(status)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                try:
                    for k in range(len(data)):
                        self.wfile.write(data[k:k + 1])
                        self.wfile.flush()
                        time.sleep(server.trickle)
                except OSError:
                    pass
            else:
                return False
            return True

        def do_GET(self) -> None:
            with server.lock:
                server.requests += 1
            if self.path == "/v1/models" and self._hostile(server.listing_mode):
                return
            if self.path == "/v1/models":
                self._send(200, {"object": "list", "data": [
                    {"id": m, "object": "model", "owned_by": "test"} for m in server.models]})
            elif self.path == "/api/tags":
                self._send(200, {"models": [{"name": m, "model": m, "digest": server.digest}
                                            for m in server.models]})
            elif self.path == KIND_PATHS.get(server.kind):
                self._send(200, {"ollama": {"version": "0.5.7"}, "vllm": {"version": "0.6.3"},
                                 "llama.cpp": {"default_generation_settings": {}, "total_slots": 1},
                                 "lmstudio": {"data": [{"id": m, "publisher": "test"}
                                                       for m in server.models]}}[server.kind])
            else:
                self._send(404, {"error": "not found"})

        def do_POST(self) -> None:
            with server.lock:
                server.requests += 1
            length = int(self.headers.get("Content-Length", 0))
            body = json.loads(self.rfile.read(length) or b"{}")
            native = server.kind == "ollama" and self.path == "/api/chat"
            if self.path != "/v1/chat/completions" and not native:
                self._send(404, {"error": "not found"})
                return
            mode = server.next_mode()
            with server.lock:
                server.chats.append(body)
                server.modes.append(mode)
                server.schemas.append(schema_of(body))
                server.paths.append(self.path)
            if self._hostile(mode, body):
                return
            if mode == "slow":
                time.sleep(server.delay)
            elif mode == "hang":
                time.sleep(server.hang)
            status, answer = server.answer(body, mode, native)
            try:
                self._send(status, answer)
            except OSError:
                return
            with server.lock:
                server.answered += 1
                dying = server.die_after is not None and server.answered >= server.die_after
            if dying:                            # killed: stop listening, refuse from now on
                threading.Thread(target=server.stop, daemon=True).start()
                server.die_after = None

    return Handler


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=11435)
    parser.add_argument("--model", action="append", default=None)
    parser.add_argument("--fault-rate", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    fake = FakeLLMServer(models=args.model or ["tiny-zh-en"], fault_rate=args.fault_rate,
                         seed=args.seed)
    fake.httpd = ThreadingHTTPServer(("127.0.0.1", args.port), _handler(fake))
    print(f"serving {fake.models} at http://127.0.0.1:{args.port}/v1", flush=True)
    fake.httpd.serve_forever()
