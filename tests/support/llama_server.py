"""A real model server for the slow tests: llama-cpp-python's ``python -m llama_cpp.server``
serving the tiny GGUF model of ``tiny_gguf.py``, on 127.0.0.1, one thread.

    with LlamaServer(tmp_path) as server:        # writes the model, starts, waits for it
        server.endpoint                          # http://127.0.0.1:<port>/v1
        server.chats()                           # chat requests it has answered, from its log
        server.pause(); server.resume()          # SIGSTOP / SIGCONT: a server that hangs
        server.kill(); server.start()            # SIGKILL, and back on the same port

``missing()`` says why the server cannot run here (None: it can): the tests skip with that
reason, unless ``ZHEN_REQUIRE_LLAMA_SERVER=1`` (``.ci/run`` sets it), where they fail.

Measured here (2 shared cores): the model is written in about 0.2 s, the server answers
``/v1/models`` about 1 s after it starts, and a chat request with a 1,500-token prompt
takes about 10–40 ms. ``--n_threads 1 --n_threads_batch 1``: with more, it is erratic on a
shared machine.
"""

from __future__ import annotations

import importlib.util
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from . import tiny_gguf

ALIAS = "zhen-tiny"
SERVER_MODULES = ("llama_cpp", "fastapi", "uvicorn", "sse_starlette", "pydantic_settings",
                  "starlette_context")
_CHAT = re.compile(r'"POST /v1/chat/completions HTTP/1\.1" (\d{3})')


def missing() -> str | None:
    """Why the real server cannot run here, or None."""
    absent = [m for m in SERVER_MODULES + ("gguf", "numpy") if importlib.util.find_spec(m) is None]
    if absent:
        return ("llama-cpp-python[server] and gguf are not installed (missing: "
                f"{', '.join(absent)}); `pip install 'llama-cpp-python[server]' gguf` builds "
                "llama.cpp (about 7 CPU-minutes; .ci/run does it)")
    return None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LlamaServer:
    def __init__(self, folder: Path, n_ctx: int = 2048, port: int | None = None) -> None:
        self.folder = Path(folder)
        self.n_ctx = n_ctx
        self.port = port or _free_port()
        self.model = self.folder / "zhen-tiny.gguf"
        self.log = self.folder / "llama-server.log"
        self.process: subprocess.Popen | None = None
        self.started_in: float | None = None       # seconds from start to answering
        self._log_start = 0

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self, wait: float = 60.0) -> "LlamaServer":
        if not self.model.exists():
            self.folder.mkdir(parents=True, exist_ok=True)
            tiny_gguf.write(self.model, context=max(self.n_ctx, 4096))
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        begun = time.monotonic()
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "llama_cpp.server", "--model", str(self.model),
                 "--model_alias", ALIAS, "--host", "127.0.0.1", "--port", str(self.port),
                 "--n_ctx", str(self.n_ctx), "--n_threads", "1", "--n_threads_batch", "1",
                 "--verbose", "False"],
                stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        while time.monotonic() - begun < wait:
            if self.process.poll() is not None:
                raise RuntimeError(f"llama_cpp.server exited ({self.process.returncode}):\n"
                                   + self.log.read_text("utf-8", "replace")[-3000:])
            try:
                with urllib.request.urlopen(self.endpoint + "/models", timeout=1) as answer:
                    if answer.status == 200:
                        self.started_in = time.monotonic() - begun
                        return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"llama_cpp.server did not answer within {wait:g} s:\n"
                           + self.log.read_text("utf-8", "replace")[-3000:])

    def chats(self) -> list[int]:
        """The HTTP status of every chat request the server logged, in order."""
        return [int(m.group(1)) for m in _CHAT.finditer(self.log.read_text("utf-8", "replace"))]

    def pause(self) -> None:
        os.kill(self.process.pid, signal.SIGSTOP)

    def resume(self) -> None:
        os.kill(self.process.pid, signal.SIGCONT)

    def kill(self) -> None:
        """Killed as by the OOM killer: no goodbye, connections refused from now on."""
        self.process.kill()
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.resume()
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def __enter__(self) -> "LlamaServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
