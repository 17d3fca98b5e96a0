"""The llm engine against a real model server (slow; .ci/run runs them): llama-cpp-python's
``python -m llama_cpp.server`` on 127.0.0.1, one thread, serving the tiny programmed GGUF
model that tests/support/tiny_gguf.py writes at test time.

The model answers ``{"translations":[{"id":1,"en":"ok"}]}`` under a JSON schema and nothing
at all without one, whatever it is asked; so a one-sentence request without terms or
protected spans is accepted ("ok"), and everything else goes down the ladder for real:
strict parsing, the refused schema, the context limit, a stuck and a killed server, two
requests in flight. Faults no real server shows on demand (shifted answers, prose around
the JSON, dropped placeholders, rate limits, redirects …) stay with the fake server
(tests/support/llm_server.py)."""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time

import pytest

from conftest import make_project
from support.llama_server import ALIAS, LlamaServer, missing
from zhenglossary.cli import app

pytestmark = pytest.mark.slow

# sentences no glossary entry matches: the tiny model's "ok" is a valid answer for them
PLAIN = ["今天天气很好。", "我们去公园散步。", "晚上吃了面条。", "明天再说吧。", "春天来了。",
         "他在看书。", "猫在睡觉。", "雨停了。"]


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ZHEN_HOME", str(tmp_path / "zhen-home"))


@pytest.fixture
def server(tmp_path):
    why = missing()
    if why:
        if os.environ.get("ZHEN_REQUIRE_LLAMA_SERVER") == "1":
            pytest.fail(why)
        pytest.skip(why)
    with LlamaServer(tmp_path / "llama") as running:
        yield running


def note(*sentences: str) -> str:
    return "\n\n".join(sentences) + "\n"


def translate(runner, server, *extra):
    return runner.invoke(app, ["translate", "notes/", "--engine", "llm", "--endpoint",
                               server.endpoint, *extra])


def when(server: LlamaServer, chats: int, action) -> threading.Thread:
    """Run ``action`` as soon as the server has logged ``chats`` chat requests."""
    def watch() -> None:
        deadline = time.monotonic() + 60
        while len(server.chats()) < chats and time.monotonic() < deadline:
            time.sleep(0.005)
        action()

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    return thread


def rows(root) -> int:
    with sqlite3.connect(root / ".zhen" / "memory.sqlite") as db:
        return db.execute("select count(*) from mt").fetchone()[0]


def test_model_list_names_the_server_its_kind_and_its_model(runner, tmp_path, monkeypatch,
                                                            server):
    make_project(tmp_path, monkeypatch, {"a.md": note(PLAIN[0])})
    assert server.started_in < 30
    result = runner.invoke(app, ["model", "list", "--endpoint", server.endpoint])
    assert result.exit_code == 0, result.output
    line = next(x for x in result.stdout.splitlines() if x.startswith("llm"))
    assert f"{server.endpoint} answers (llama.cpp); serves {ALIAS}" in line
    data = json.loads(runner.invoke(app, ["model", "list", "--endpoint", server.endpoint,
                                          "-f", "json"]).stdout)
    llm = next(e for e in data["engines"] if e["name"] == "llm")
    assert (llm["ready"], llm["server"], llm["models"]) == (True, "llama.cpp", [ALIAS])


def test_structured_answers_are_accepted_and_read_strictly(runner, tmp_path, monkeypatch,
                                                           server):
    """One sentence a request: the schema-bound answer is accepted on the first answer.
    A two-sentence block is one request (never split); the model answers id 1 twice, which
    the strict reading refuses on every rung, so both sentences fall back, named."""
    root = make_project(tmp_path, monkeypatch, {"a.md": note(*PLAIN[:3], "一句。二句。")})
    result = translate(runner, server, "--batch", "1", "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["summary"]["glossary_met"] == {"first": 3, "retry": 0, "masked": 0,
                                                 "fallback": 2}
    assert report["summary"]["model"] == f"llm:{ALIAS}@-:prompt-2:t0"     # no digest
    english = (root / "notes" / "a.en.md").read_text("utf-8")
    assert english.count("\nok\n") == 3
    fallbacks = [f["message"] for f in report["findings"] if f["check"] == "engine-fallback"]
    assert len(fallbacks) == 2 and all("id 1 appears twice" in m for m in fallbacks)
    assert server.chats() == [200] * 6          # 3 sentences; the block: first, retry, masked
    again = translate(runner, server, "--batch", "1", "--format", "json")
    assert json.loads(again.stdout)["summary"]["translated"] == 2      # only the fallbacks
    assert len(server.chats()) == 9


def test_a_refused_schema_falls_back_to_the_prompt_once_with_a_notice(runner, tmp_path,
                                                                      monkeypatch, server):
    """Told it is vLLM, zhen sends `response_format: json_schema`, which llama-cpp-python
    refuses with HTTP 500: the request is sent again without the schema, once, and the run
    goes on in prompt-only JSON (the tiny model then answers nothing: the fallback)."""
    root = make_project(tmp_path, monkeypatch, {"a.md": note(*PLAIN[:2])})
    (root / "zhen.toml").write_text('[llm]\nserver = "vllm"\nbatch = 1\n')
    result = translate(runner, server, "--format", "json")
    assert result.exit_code == 0, result.output
    notices = [n for n in json.loads(result.stdout)["notices"] if "refused" in n]
    assert len(notices) == 1 and "refused the answer's JSON schema (HTTP 500" in notices[0]
    assert "response_format" in notices[0]
    assert server.chats()[0] == 500 and server.chats()[1:] == [200] * 6
    met = json.loads(result.stdout)["summary"]["glossary_met"]
    assert met == {"first": 0, "retry": 0, "masked": 0, "fallback": 2}
    (root / "zhen.toml").write_text('[llm]\nbatch = 1\n')          # detected: llama.cpp
    fixed = translate(runner, server, "--format", "json")
    assert json.loads(fixed.stdout)["summary"]["glossary_met"]["first"] == 2
    assert not [n for n in json.loads(fixed.stdout)["notices"] if "refused" in n]


def test_a_request_over_the_context_is_asked_without_it_then_falls_back(runner, tmp_path,
                                                                        monkeypatch, server):
    """The server's context is 2,048 tokens, the system prompt about 1,270 (the tiny
    vocabulary spells most of it byte by byte). A 300-character sentence does not fit even
    alone; the short sentence after it fits once its context (that long block) is left
    out. The server says so with HTTP 400, and zhen never mistakes it for a broken server."""
    long = "春夏秋冬山水花鸟" * 38 + "。"
    root = make_project(tmp_path, monkeypatch, {"a.md": note(long, "短句。")})
    result = translate(runner, server, "--format", "json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["summary"]["glossary_met"] == {"first": 0, "retry": 1, "masked": 0,
                                                 "fallback": 1}
    [fallback] = [f["message"] for f in report["findings"] if f["check"] == "engine-fallback"]
    assert "does not fit the model's context (HTTP 400: This model's maximum context length " \
           "is 2048 tokens" in fallback
    # both together; then each alone, without context: the long one still too long, the
    # short one answered; then the long one with its terms masked (it has none): too long
    assert server.chats() == [400, 400, 200, 400]
    assert "\nok\n" in (root / "notes" / "a.en.md").read_text("utf-8")


def test_a_stuck_server_is_cut_at_the_timeout_and_the_next_run_resumes(runner, tmp_path,
                                                                       monkeypatch, server):
    root = make_project(tmp_path, monkeypatch, {"a.md": note(*PLAIN[:5])})
    watcher = when(server, 2, server.pause)               # hangs after two answers
    started = time.monotonic()
    result = translate(runner, server, "--batch", "1", "--timeout", "2")
    took = time.monotonic() - started
    watcher.join()
    server.resume()
    assert result.exit_code == 2, result.output
    assert "did not answer within 2 s" in result.stderr and "next run resumes" in result.stderr
    assert took < 15, took
    kept = rows(root)
    # the server logs a chat as it answers, so the pause may freeze it before the second
    # answer's bytes reach zhen (CI under load saw 1): what was answered is kept, not all
    assert 1 <= kept < 5
    again = translate(runner, server, "--batch", "1", "--format", "json")
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["summary"]["translated"] == 5 - kept


def test_the_server_killed_mid_run_and_the_next_run_resumes(runner, tmp_path, monkeypatch,
                                                            server):
    root = make_project(tmp_path, monkeypatch, {"a.md": note(*PLAIN)})
    watcher = when(server, 3, server.kill)
    result = translate(runner, server, "--batch", "1")
    watcher.join()
    assert result.exit_code == 2, result.output
    assert "does not answer" in result.stderr and "next run resumes" in result.stderr
    assert "Traceback" not in result.output
    assert not (root / "notes" / "a.en.md").exists()
    kept = rows(root)
    # the server logs a chat as it answers, so the kill after the third may cut that
    # answer's bytes before they reach zhen (a clean clone's CI under load saw 2): what
    # was answered is kept, and the next run asks for the rest and only the rest
    assert 2 <= kept < len(PLAIN)
    logged = len(server.chats())
    server.start()                                       # back, on the same port
    again = translate(runner, server, "--batch", "1", "--format", "json")
    assert again.exit_code == 0, again.output
    summary = json.loads(again.stdout)["summary"]
    assert summary["translated"] == len(PLAIN) - kept and summary["from_memory"] == kept
    assert len(server.chats()) - logged == len(PLAIN) - kept
    assert (root / "notes" / "a.en.md").read_text("utf-8").count("\nok\n") == len(PLAIN)


def test_two_requests_in_flight(runner, tmp_path, monkeypatch, server):
    """llama-cpp-python answers one request at a time: the second waits its turn, within
    its own deadline, and every answer lands on its own sentence."""
    root = make_project(tmp_path, monkeypatch, {"a.md": note(*PLAIN[:6]),
                                                "b.md": note(*PLAIN[6:])})
    result = translate(runner, server, "--batch", "1", "--concurrency", "2", "--format",
                       "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["summary"]["glossary_met"] == {
        "first": 8, "retry": 0, "masked": 0, "fallback": 0}
    assert server.chats() == [200] * 8
    assert (root / "notes" / "a.en.md").read_text("utf-8").count("\nok\n") == 6
