"""A local OpenAI-compatible chat server for the llm engine's tests, with fault injection.

It serves ``GET /v1/models``, Ollama's ``GET /api/tags`` (with a digest) and
``POST /v1/chat/completions`` on 127.0.0.1 with an ephemeral port, in a thread. Its
"model" reads the JSON array of ``{"id", "zh", "terms"}`` that zhen sends and answers
``[{"id", "en"}]``: each run of Chinese becomes a pseudo-English word derived from its
characters (so a sentence's English is a deterministic function of its Chinese, and a
shifted answer is visible), placeholders are copied, punctuation made English. The
English is garbage; the protocol, batching and faults are real.

Faults, per chat request: a ``script`` (one mode per request, in order; then "ok") or a
seeded random ``fault_rate`` over ``faults``. Modes: ok, prose (text around the JSON),
broken_json, wrong_count, shift (each id gets the next item's English, one item short),
drop_placeholder, forbid (writes the batch's first forbidden rendering), chinese (leaves
Chinese), length (cut off: finish_reason "length"), http500, http400, slow (sleeps
``delay`` first), hang (sleeps ``hang`` seconds: longer than the client's timeout).
``die_after=N`` shuts the server down after N chat answers (connections are then
refused), as if it were killed. An unknown model gets Ollama's 404.

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
FAULTS = ("prose", "broken_json", "wrong_count", "shift", "drop_placeholder", "forbid",
          "chinese", "length", "http500", "http400")


def pseudo_english(zh: str) -> str:
    """Deterministic English-looking text: each Chinese run becomes one made-up word."""
    def word(match: re.Match) -> str:
        digest = hashlib.sha256(match.group(0).encode()).digest()
        n = 1 + len(match.group(0)) // 3
        return " " + "".join(SYLLABLES[b % len(SYLLABLES)] for b in digest[:n]) + " "
    text = CJK_RUN.sub(word, zh).translate(PUNCT)
    text = re.sub(r"\s+", " ", text)
    return re.sub(r" ([,.;:!?)])", r"\1", text).strip()


class FakeLLMServer:
    def __init__(self, models=("tiny-zh-en",), digest="sha256:0123456789abcdef0123",
                 script=(), fault_rate=0.0, faults=FAULTS, seed=0, delay=0.0, hang=5.0,
                 die_after: int | None = None, redirect_to: str = "http://192.0.2.1:9/v1",
                 trickle: float = 0.2, huge: int = 64 * 1024 * 1024,
                 retry_after: str | None = "0", listing_mode: str = "ok") -> None:
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

    def answer(self, body: dict, mode: str) -> tuple[int, dict]:
        """(HTTP status, JSON body) for one chat request."""
        if body.get("model") not in self.models:
            return 404, {"error": {"message": f"model '{body.get('model')}' not found, try pulling it first"}}
        if mode == "http500":
            return 500, {"error": {"message": "out of memory"}}
        if mode == "http400":
            return 400, {"error": {"message": "the request exceeds the context size"}}
        messages = body.get("messages", [])
        items = json.loads(next(m["content"] for m in messages if m["role"] == "user"))
        system = next((m["content"] for m in messages if m["role"] == "system"), "")
        forbid = re.findall(r'"([^"]+)"', system.split("Never write these renderings:")[-1]) \
            if "Never write these renderings:" in system else []
        out = [{"id": item["id"], "en": pseudo_english(item["zh"])} for item in items]
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
        elif mode == "forbid" and forbid:
            out[0]["en"] = f"{out[0]['en']} {forbid[0]}"
        elif mode == "chinese":
            out[0]["en"] = items[0]["zh"]
        content = json.dumps(out, ensure_ascii=False)
        if mode == "prose":
            content = "Here is the translation:\n" + content + "\nHope this helps!"
        elif mode == "broken_json":
            content = content[:-3]
        elif mode == "length":
            content, finish = content[: len(content) // 2], "length"
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
            else:
                self._send(404, {"error": "not found"})

        def do_POST(self) -> None:
            with server.lock:
                server.requests += 1
            length = int(self.headers.get("Content-Length", 0))
            body = json.loads(self.rfile.read(length) or b"{}")
            if self.path != "/v1/chat/completions":
                self._send(404, {"error": "not found"})
                return
            mode = server.next_mode()
            with server.lock:
                server.chats.append(body)
                server.modes.append(mode)
            if self._hostile(mode, body):
                return
            if mode == "slow":
                time.sleep(server.delay)
            elif mode == "hang":
                time.sleep(server.hang)
            status, answer = server.answer(body, mode)
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
