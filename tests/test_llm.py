"""The llm engine against tests/support/llm_server.py (a local OpenAI-compatible server
with fault injection): prompts, parsing, verification, the fallback ladder, the memory,
faults, configuration, and `zhen translate --engine llm` end to end."""

from __future__ import annotations

import json
import sqlite3

import pytest

from conftest import GLOSSARY, make_project
from support.llm_server import (FAULTS, FakeLLMServer, fake_english, pseudo_english,
                                request_of, sentences_of)
from test_translate import block_invariants
from zhenglossary.cli import app
from zhenglossary.config import ConfigError, load_settings
from zhenglossary.engines import EngineContext, create_engine
from zhenglossary.engines.base import TermSlot
from zhenglossary.engines.llm import LLMEngine, LLMSettings, build_messages, parse_answer
from zhenglossary.engines.llm_http import check_local
from zhenglossary.engines.llm_prompt import Sentence
from zhenglossary.placeholders import renumber, show_terms
from zhenglossary.errors import ModelError, UsageError
from zhenglossary.glossary import load_glossary

MODEL = "tiny-zh-en"

# my own text: databases, networking and compilers, several Markdown shapes
NOTES = {
    "storage.md": """# 存储引擎笔记

日志结构合并树把随机写变成顺序写，代价是读放大。我们在 `RocksDB` 上测了混合精度量化后的索引。

- 数据并行加载：每个工作节点读取一个分片。
- 流水线并行：压缩与刷盘重叠，详见 https://example.org/lsm 。

> 注意：并行度过高时，写停顿明显增加。
""",
    "net/rdma.md": """## 远程直接内存访问

在节点间通信中，RDMA 绕过内核协议栈；节点内则使用共享内存。

| 方案 | 延迟 |
| --- | --- |
| 张量并行 | 低 |
| 模型并行 | 中 |

编译器把循环做了**量化**感知的向量化，流水线阶段之间没有气泡。
""",
}


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    """The engine remembers identities in the cache folder: each test has its own (never the
    user's, and a port reused by a later test's server finds nothing from an earlier one)."""
    monkeypatch.setenv("ZHEN_HOME", str(tmp_path / "zhen-home"))


def engine_for(server: FakeLLMServer, glossary=None, **settings) -> LLMEngine:
    glossary = glossary or load_glossary(GLOSSARY)
    from zhenglossary.engines.gloss import GlossEngine

    return LLMEngine(LLMSettings(endpoint=server.endpoint, model=MODEL, **settings), glossary,
                     lambda: GlossEngine(glossary.form_map))


def term(glossary, zh):
    return TermSlot(next(t for t in glossary.terms if t.zh == zh), zh)


def expected(text: str, terms: dict | None = None, inflect: bool = False) -> str:
    """What the fake model answers for a masked text whose terms it is shown as Chinese,
    in the masked text's numbering."""
    terms = terms or {}
    shown, numbers = show_terms(text, {n: t.source for n, t in terms.items()})
    glossary = [{"zh": t.zh, "en": t.en} for t in terms.values()]
    return renumber(fake_english(shown, glossary, inflect), numbers)


# ---------------------------------------------------------------- answers and prompts


def test_parse_answer_takes_ids_not_positions():
    assert parse_answer('{"translations": [{"id": 2, "en": "b"}, {"id": 1, "en": "a"}]}', 2) \
        == ["a", "b"]
    assert parse_answer('```json\n{"translations": [{"id": 1, "en": "a"}]}\n```', 1) == ["a"]


ONE = '{"id": 1, "en": "a"}'


@pytest.mark.parametrize("content, problem", [
    ('Sure! {"translations": [%s]}' % ONE, "not a JSON object alone"),
    ('{"translations": [%s]} Hope this helps' % ONE, "not a JSON object alone"),
    ('{"translations": [%s]' % ONE, "not a JSON object alone"),
    ('[%s, {"id": 2, "en": "b"}]' % ONE, 'must be {"translations"'),
    ('{"translations": [%s], "note": "x"}' % ONE, 'must be {"translations"'),
    ('{"translations": [%s]}' % ONE, "expected 2 items"),
    ('{"translations": [%s, {"id": 1, "en": "b"}]}' % ONE, "appears twice"),
    ('{"translations": [%s, {"id": 3, "en": "b"}]}' % ONE, "expected 2 items"),
    ('{"translations": ["a", "b"]}', 'must be {"translations"'),
    ('{"translations": [{"id": true, "en": "a"}, {"id": 2, "en": "b"}]}', 'must be {"translations"'),
    ('{"translations": [{"id": 1, "en": "a", "zh": "甲"}, {"id": 2, "en": "b"}]}',
     'must be {"translations"'),
])
def test_malformed_answers_are_rejected_whole(content, problem):
    with pytest.raises(ValueError, match=problem.replace("{", r"\{").replace("(", r"\(")):
        parse_answer(content, 2)


def test_prompt_shows_terms_as_chinese_with_only_the_batchs_entries():
    """The terms stay Chinese in the sentence; the request's glossary holds the entries of
    its sentences (zh, en, forbid, note) and no other; protected spans stay tokens,
    numbered from 1 in what the model sees."""
    glossary = load_glossary(GLOSSARY)
    mixed, pipe = term(glossary, "混合精度"), term(glossary, "流水线")
    items = [Sentence(0, "我们在ZX1上用ZX2推理ZX3。", {2: mixed}), Sentence(1, "没有术语。", {})]
    system, user = build_messages(items)
    payload = json.loads(user["content"])
    entry = {"zh": "混合精度", "en": "mixed precision", "forbid": ["hybrid precision"],
             **({"note": mixed.note} if mixed.note else {})}
    assert payload == {
        "glossary": [entry],
        "blocks": [{"sentences": [{"id": 1, "zh": "我们在ZX1上用混合精度推理ZX2。"}]},
                   {"sentences": [{"id": 2, "zh": "没有术语。"}]}]}
    assert pipe.forbid[0] not in user["content"]            # not used by this batch
    assert '{"translations": [{"id": 1, "en": "..."}]}' in system["content"]
    items[0].told, items[0].reason = "lost ZX2", "lost ZX3"
    retry = build_messages(items[:1], retry=True)
    assert "id 1: lost ZX2" in retry[-1]["content"]         # as the model saw it
    masked = build_messages(items[:1], masked=True, retry=True)
    sentence = request_of({"messages": masked})["blocks"][0]["sentences"][0]
    assert sentence == {"id": 1, "zh": "我们在ZX1上用ZX2推理ZX3。", "tokens": {"ZX2": "混合精度"}}
    assert "id 1: lost ZX3" in masked[-1]["content"]        # in the masked numbering


def test_only_local_endpoints_unless_allowed():
    for url in ("http://127.0.0.1:11434/v1", "http://localhost:8080/v1", "http://[::1]:9/v1",
                "http://127.8.0.1/v1"):
        check_local(url, False)
    for url in ("http://10.0.0.2:11434/v1", "https://api.example.com/v1", "http://192.0.2.1/v1"):
        with pytest.raises(UsageError, match="not on this machine"):
            check_local(url, False)
        check_local(url, True)
    with pytest.raises(UsageError, match="not an http"):
        check_local("ftp://127.0.0.1/v1", False)


# ---------------------------------------------------------------- configuration


def test_settings_file_then_environment_then_flags(tmp_path, monkeypatch):
    for name in ("MODEL", "TIMEOUT", "TEMPERATURE", "ENDPOINT", "CONCURRENCY", "ALLOW_REMOTE"):
        monkeypatch.delenv(f"ZHEN_LLM_{name}", raising=False)
    settings, origin = load_settings(LLMSettings, "llm", tmp_path)
    assert settings == LLMSettings() and origin == {}
    (tmp_path / "pyproject.toml").write_text('[tool.zhen.llm]\nmodel = "a"\ntimeout = 30\n')
    settings, origin = load_settings(LLMSettings, "llm", tmp_path)
    assert (settings.model, settings.timeout) == ("a", 30.0) and "[tool.zhen]" in origin["model"]
    (tmp_path / "zhen.toml").write_text('[llm]\nmodel = "b"\nconcurrency = 2\n')
    settings, _ = load_settings(LLMSettings, "llm", tmp_path)
    assert (settings.model, settings.concurrency, settings.timeout) == ("b", 2, 120.0)
    monkeypatch.setenv("ZHEN_LLM_MODEL", "c")
    monkeypatch.setenv("ZHEN_LLM_ALLOW_REMOTE", "yes")
    settings, origin = load_settings(LLMSettings, "llm", tmp_path)
    assert settings.model == "c" and settings.allow_remote and origin["model"] == "ZHEN_LLM_MODEL"
    settings, origin = load_settings(LLMSettings, "llm", tmp_path, {"model": "d", "timeout": None})
    assert settings.model == "d" and origin["model"] == "command line"


@pytest.mark.parametrize("text, problem", [
    ('[llm]\ntimeout = "soon"\n', "timeout must be a number"),
    ('[llm]\nconcurency = 2\n', "has no setting concurency"),
    ('[llm\n', "fix its TOML syntax"),
    ('llm = 3\n', "must be a table"),
])
def test_bad_settings_say_where(tmp_path, text, problem):
    (tmp_path / "zhen.toml").write_text(text)
    with pytest.raises(ConfigError, match=problem):
        load_settings(LLMSettings, "llm", tmp_path)


# ---------------------------------------------------------------- the ladder


def test_a_clean_batch_is_one_request_and_keeps_placeholders():
    glossary = load_glossary(GLOSSARY)
    with FakeLLMServer() as server:
        engine = engine_for(server, glossary, batch=4)
        texts = ["我们用ZX1训练。", "ZX1和ZX2。", "没有占位符。", "ZX3之后是ZX1和ZX2。"]
        terms = [{1: term(glossary, "混合精度")}, {}, {}, {}]
        out = engine.translate(texts, terms=terms)
    assert [o.hypotheses for o in out] == [[expected(t, m)] for t, m in zip(texts, terms)]
    assert out[0].hypotheses == [f"{pseudo_english('我们用')} mixed precision {pseudo_english('训练。')}"]
    assert len(server.chats) == 1 and all(o.fallback is None for o in out)
    assert [o.via for o in out] == ["first"] * 4
    assert server.chats[0]["temperature"] == 0 and server.chats[0]["model"] == MODEL


@pytest.mark.parametrize("fault", ["prose", "broken_json", "wrong_count", "shift", "length",
                                   "http500", "http400", "overflow", "drop_placeholder",
                                   "drop_term", "forbid", "chinese"])
def test_a_bad_answer_is_asked_again_and_never_shifted(fault):
    """One bad answer: the retry (or the per-block requests) gives every sentence its own
    English; nothing lands on a neighbour, nothing falls back."""
    glossary = load_glossary(GLOSSARY)
    texts = ["第一句用ZX1。", "第二句。", "第三句有ZX1和ZX2。"]
    terms = [{1: term(glossary, "混合精度")}, {}, {}]
    with FakeLLMServer(script=[fault]) as server:
        out = engine_for(server, glossary, batch=3).translate(texts, terms=terms)
    assert [o.hypotheses[0] for o in out] == [expected(t, m) for t, m in zip(texts, terms)]
    assert all(o.fallback is None for o in out)
    assert 2 <= len(server.chats) <= 4
    if fault not in ("length", "http500", "http400", "overflow"):
        assert "rejected" in server.chats[1]["messages"][-1]["content"]   # the failure named


def test_a_sentence_the_model_keeps_failing_falls_back_with_the_reason():
    glossary = load_glossary(GLOSSARY)
    texts = ["这句用ZX1。", "那句没问题。"]
    with FakeLLMServer(script=["drop_placeholder"] * 3) as server:
        out = engine_for(server, glossary, batch=2).translate(texts, terms=[{}, {}])
    assert out[1].hypotheses == [pseudo_english(texts[1])] and out[1].fallback is None
    assert out[0].fallback.startswith("gloss (the model failed: lost ZX1")
    assert out[0].hypotheses[0].count("ZX1") == 1
    assert len(server.chats) == 3          # batch, named retry, masked


@pytest.mark.parametrize("fault, message", [
    ("hang", "did not answer within 0.5 s"),
])
def test_a_hung_server_is_a_clear_error(fault, message):
    with FakeLLMServer(script=[fault], hang=3) as server:
        with pytest.raises(ModelError, match=message):
            engine_for(server, timeout=0.5).translate(["一句。"])


def test_a_server_that_keeps_failing_is_an_error_not_a_flood():
    with FakeLLMServer(script=["http500"] * 10) as server:
        with pytest.raises(ModelError, match="failed 4 requests in a row .*out of memory"):
            engine_for(server, batch=1).translate([f"第{i}句。" for i in range(8)])
    assert len(server.chats) == 4


def test_refused_connection_and_missing_model_say_what_to_do():
    server = FakeLLMServer().start()
    server.stop()
    with pytest.raises(ModelError, match="does not answer .*ollama serve"):
        engine_for(server).identity()
    with FakeLLMServer(models=["other"]) as server:
        with pytest.raises(ModelError, match="does not serve the model 'tiny-zh-en' .*"
                                             "ollama pull tiny-zh-en"):
            engine_for(server).identity()
        engine = engine_for(server)
        engine._model = MODEL                     # a server without a model list: 404 on chat
        with pytest.raises(ModelError, match="ollama pull"):
            engine.translate(["一句。"])


def test_identity_names_model_digest_prompt_and_temperature():
    with FakeLLMServer(models=["only"], digest="sha256:feedbeef") as server:
        engine = LLMEngine(LLMSettings(endpoint=server.endpoint, temperature=0.2), None,
                           lambda: None)
        assert engine.identity() == "llm:only@sha256:feedbeef:prompt-2:t0.2"
    with FakeLLMServer(models=["a", "b"]) as server:
        engine = LLMEngine(LLMSettings(endpoint=server.endpoint), None, lambda: None)
        with pytest.raises(ModelError, match="choose a model with --model .*serves a, b"):
            engine.identity()


def test_a_fatal_error_ends_the_requests_still_in_flight():
    """Two requests hang while a third worker meets the fourth server error in a row: the
    error reaches the caller at once, and the hanging requests are cut, not left running
    (an API caller's process goes on; the server sees the client go and stops)."""
    import threading
    import time

    with FakeLLMServer(script=["hang", "hang"] + ["http500"] * 4, hang=4) as server:
        engine = engine_for(server, batch=1, concurrency=3, timeout=30)
        started = time.monotonic()
        with pytest.raises(ModelError, match="failed 4 requests in a row"):
            engine.translate([f"第{i}句。" for i in range(6)])
        assert time.monotonic() - started < 3
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline and any(
                t.name == "zhen-llm-request" for t in threading.enumerate()):
            time.sleep(0.05)
        assert not [t for t in threading.enumerate() if t.name == "zhen-llm-request"]


def test_concurrent_requests_keep_the_order():
    texts = [f"第{i}句话，ZX1在此。" for i in range(23)]
    with FakeLLMServer(fault_rate=0.3, faults=("shift", "wrong_count", "prose"), seed=4) as server:
        out = engine_for(server, batch=3, concurrency=4).translate(texts)
    for text, o in zip(texts, out):
        assert o.fallback or o.hypotheses == [pseudo_english(text)]


# ---------------------------------------------------------------- end to end


def translate(runner, server, *extra):
    return runner.invoke(app, ["translate", "notes/", "--engine", "llm", "--endpoint",
                               server.endpoint, "--model", MODEL, *extra])


def test_translate_notes_with_llm_locks_every_term_and_reruns_from_memory(runner, tmp_path,
                                                                          monkeypatch):
    root = make_project(tmp_path, monkeypatch, NOTES)
    glossary = load_glossary(root / "glossary.yaml")
    with FakeLLMServer() as server:
        result = translate(runner, server)
        assert result.exit_code == 0, result.output
        assert "engine: llm tiny-zh-en" in result.stdout
        requests = len(server.chats)
        assert requests > 0
        for name in ("storage", "net/rdma"):
            parallel = (root / "notes" / f"{name}.zh-en.md").read_text("utf-8")
            assert block_invariants(parallel, glossary) == []
        first = (root / "notes" / "storage.en.md").read_text("utf-8")
        assert "`RocksDB`" in first and "https://example.org/lsm" in first
        check = runner.invoke(app, ["glossary", "check"])
        assert check.exit_code == 0, check.output
        again = translate(runner, server)
        assert again.exit_code == 0 and len(server.chats) == requests     # sends nothing
        assert (root / "notes" / "storage.en.md").read_text("utf-8") == first


def test_killed_server_keeps_finished_batches_and_the_next_run_resumes(runner, tmp_path,
                                                                       monkeypatch):
    root = make_project(tmp_path, monkeypatch, NOTES)
    (root / "zhen.toml").write_text("[llm]\nbatch = 2\n")
    with FakeLLMServer(die_after=3) as server:
        result = translate(runner, server)
    assert result.exit_code == 2
    assert "does not answer" in result.stderr and "next run resumes" in result.stderr
    assert "Traceback" not in result.output
    assert not (root / "notes" / "storage.en.md").exists()
    with sqlite3.connect(root / ".zhen" / "memory.sqlite") as db:
        kept = db.execute("select count(*) from mt").fetchone()[0]
    # the answers it gave before it went (3, or a 4th it took as it was stopping)
    assert kept == sum(len(sentences_of(c)) for c in server.chats[:server.answered]) >= 3
    with FakeLLMServer() as fresh:
        result = translate(runner, fresh)
        assert result.exit_code == 0, result.output
        resumed = sum(len(sentences_of(c)) for c in fresh.chats)
    with FakeLLMServer() as clean:
        make_project(tmp_path / "again", monkeypatch, NOTES)
        (tmp_path / "again" / "proj" / "zhen.toml").write_text("[llm]\nbatch = 2\n")
        assert translate(runner, clean).exit_code == 0
        total = sum(len(sentences_of(c)) for c in clean.chats)
    assert resumed == total - kept


def test_malformed_answers_change_nothing_in_the_output(runner, tmp_path, monkeypatch):
    """Each bad answer is followed by a good one: the output is the clean run's, byte for
    byte (a request is one engine call here: batch 2, concurrency 1)."""
    root = make_project(tmp_path, monkeypatch, NOTES)
    (root / "zhen.toml").write_text("[llm]\nbatch = 2\n")
    with FakeLLMServer() as server:
        assert translate(runner, server, "--no-memory").exit_code == 0
    clean = [(root / "notes" / n).read_text("utf-8") for n in ("storage.en.md", "net/rdma.zh-en.md")]
    script = ["shift", "ok", "prose", "ok", "wrong_count", "ok", "broken_json", "ok", "length"]
    with FakeLLMServer(script=script) as server:
        result = translate(runner, server, "--no-memory")
        assert result.exit_code == 0, result.output
        assert server.modes[:len(script)] == script
    assert [(root / "notes" / n).read_text("utf-8")
            for n in ("storage.en.md", "net/rdma.zh-en.md")] == clean
    assert "engine-fallback" not in result.stdout


def test_fault_injection_falls_back_with_findings_and_keeps_the_lock(runner, tmp_path, monkeypatch):
    root = make_project(tmp_path, monkeypatch, NOTES)
    glossary = load_glossary(root / "glossary.yaml")
    faults = tuple(f for f in FAULTS if f != "http500")
    with FakeLLMServer(fault_rate=0.7, faults=faults, seed=3) as server:
        result = translate(runner, server, "--format", "json")
    report = json.loads(result.stdout)
    assert result.exit_code == 0, result.output
    fallbacks = [f for f in report["findings"] if f["check"] == "engine-fallback"]
    assert fallbacks and all("the model failed" in f["message"] for f in fallbacks)
    for name in ("storage", "net/rdma"):
        parallel = (root / "notes" / f"{name}.zh-en.md").read_text("utf-8")
        assert block_invariants(parallel, glossary) == []
    # fallbacks are not remembered: the next run asks the model for exactly those again
    asked = len(server.chats)
    with FakeLLMServer() as server:
        again = json.loads(translate(runner, server, "--format", "json").stdout)
        sent = sum(len(sentences_of(c)) for c in server.chats)
    assert asked and sent == len(fallbacks)
    assert not [f for f in again["findings"] if f["check"] == "engine-fallback"]


def test_interrupt_keeps_finished_rounds(tmp_path, monkeypatch):
    """A slow server: progress moves per round; Ctrl-C keeps the rounds already done."""
    from zhenglossary.translate import TranslateOptions, translate_paths

    root = make_project(tmp_path, monkeypatch, NOTES)
    seen = []

    def progress(phase, done, total):
        seen.append(done)
        if len(seen) == 3:
            raise KeyboardInterrupt

    options = TranslateOptions(engine="llm", engine_settings={
        "endpoint": None, "model": MODEL, "batch": 2})
    with FakeLLMServer(script=["slow"] * 4, delay=0.3) as server:
        options.engine_settings["endpoint"] = server.endpoint
        with pytest.raises(KeyboardInterrupt):
            translate_paths([root / "notes"], None, options, progress=progress)
    assert seen[0] == 0 and 0 < seen[1] < seen[2] <= seen[1] + 2     # whole blocks, ≤ 2 a call
    with sqlite3.connect(root / ".zhen" / "memory.sqlite") as db:
        assert db.execute("select count(*) from mt").fetchone()[0] == seen[2]


def test_remote_endpoint_is_refused_before_any_connection(runner, tmp_path, monkeypatch):
    make_project(tmp_path, monkeypatch, NOTES)
    result = runner.invoke(app, ["translate", "notes/", "--engine", "llm", "--endpoint",
                                 "http://192.0.2.7:11434/v1", "--model", MODEL])
    assert result.exit_code == 2 and "not on this machine" in result.stderr
    assert "--allow-remote" in result.stderr


def test_model_list_shows_the_server_and_its_models(runner, tmp_path, monkeypatch):
    make_project(tmp_path, monkeypatch, NOTES)
    with FakeLLMServer(models=["qwen-test", MODEL]) as server:
        result = runner.invoke(app, ["model", "list", "--endpoint", server.endpoint])
        assert result.exit_code == 0, result.output
        line = next(x for x in result.stdout.splitlines() if x.startswith("llm"))
        assert f"{server.endpoint} answers (openai); serves qwen-test, {MODEL}" in line
        data = json.loads(runner.invoke(app, ["model", "list", "--endpoint", server.endpoint,
                                              "-f", "json"]).stdout)
        llm = next(e for e in data["engines"] if e["name"] == "llm")
        assert llm["answers"] is True and llm["models"] == ["qwen-test", MODEL]
    result = runner.invoke(app, ["model", "list", "--endpoint", server.endpoint])
    line = next(x for x in result.stdout.splitlines() if x.startswith("llm"))
    assert "does not answer" in line and " no " in line


def test_unknown_engine_lists_the_registered_ones(runner, tmp_path, monkeypatch):
    make_project(tmp_path, monkeypatch, NOTES)
    result = runner.invoke(app, ["translate", "notes/", "--engine", "nope"])
    assert result.exit_code == 2
    assert "unknown engine 'nope'; choose one of auto, argos, gloss, llm" in result.stderr


def test_create_engine_through_the_registry(tmp_path):
    glossary = load_glossary(GLOSSARY)
    with FakeLLMServer() as server:
        engine, notices = create_engine("llm", EngineContext(
            glossary, root=tmp_path, overrides={"endpoint": server.endpoint, "model": MODEL}))
        assert engine.name == "llm" and notices == []
        assert engine.translate(["一句。"])[0].hypotheses == [pseudo_english("一句。")]


# ---------------------------------------------------------------- offline and resume


def outputs(root):
    return {p.relative_to(root).as_posix(): p.read_text("utf-8")
            for p in sorted((root / "notes").rglob("*.md")) if p.name.count(".") > 1}


def rows(root) -> int:
    with sqlite3.connect(root / ".zhen" / "memory.sqlite") as db:
        return db.execute("select count(*) from mt").fetchone()[0]


def sentences_sent(server) -> int:
    return sum(len(sentences_of(c)) for c in server.chats)


def test_server_down_with_everything_in_memory_translates_without_it(runner, tmp_path,
                                                                     monkeypatch):
    """The identity is remembered when the server answers; with the server down, a run whose
    sentences are all in the memory writes the same outputs and exits 0; one sentence
    missing is the resume error, and nothing is lost."""
    root = make_project(tmp_path, monkeypatch, NOTES)
    down = FakeLLMServer().start()
    down.stop()
    never = translate(runner, down)                      # never resolved: nothing to fall on
    assert never.exit_code == 2 and "does not answer" in never.stderr
    with FakeLLMServer() as server:
        assert translate(runner, server).exit_code == 0
        endpoint = server.endpoint
    first = outputs(root)
    kept = rows(root)
    for path in first:
        (root / path).unlink()
    result = runner.invoke(app, ["translate", "notes/", "--engine", "llm", "--endpoint",
                                 endpoint, "--model", MODEL])
    assert result.exit_code == 0, result.output
    assert "engine: llm tiny-zh-en" in result.stdout and " 0 translated," in result.stdout
    warning = " ".join(result.stderr.split())           # the user is told the server is down
    assert "warning: http://127.0.0.1:" in warning and "does not answer (" in warning
    assert f"; the memory is read for {MODEL} (sha256:012345678)" in warning
    assert outputs(root) == first and rows(root) == kept
    # another endpoint (or model, or temperature) was never resolved: the resume error
    other = runner.invoke(app, ["translate", "notes/", "--engine", "llm", "--endpoint",
                                endpoint, "--model", MODEL, "--temperature", "0.3"])
    assert other.exit_code == 2 and "does not answer" in other.stderr
    # a new sentence with the server down: the clear error, the memory untouched
    (root / "notes" / "new.md").write_text("# 新笔记\n\n缓存一致性协议决定了写回的时机。\n",
                                           encoding="utf-8")
    missing = runner.invoke(app, ["translate", "notes/", "--engine", "llm", "--endpoint",
                                  endpoint, "--model", MODEL])
    assert missing.exit_code == 2, missing.output
    assert "does not answer" in missing.stderr and "next run resumes" in missing.stderr
    assert "Traceback" not in missing.output and rows(root) == kept
    with FakeLLMServer() as server:                      # back up: only the new sentences
        assert translate(runner, server).exit_code == 0
        assert 0 < sentences_sent(server) == rows(root) - kept


def test_a_server_that_answers_with_a_new_digest_wins(runner, tmp_path, monkeypatch):
    root = make_project(tmp_path, monkeypatch, NOTES)
    with FakeLLMServer(digest="sha256:aaaaaaaaaaaaaaaa") as old:
        assert translate(runner, old).exit_code == 0
        before = sentences_sent(old)
    with FakeLLMServer(digest="sha256:bbbbbbbbbbbbbbbb") as new:
        report = json.loads(translate(runner, new, "--format", "json").stdout)
        assert report["summary"]["exit_code"] == 0
        assert report["summary"]["model"].startswith(f"llm:{MODEL}@sha256:bbbbbbbbb")
        assert sentences_sent(new) == before               # a new model: asked again
    offline = runner.invoke(app, ["translate", "notes/", "--engine", "llm", "--endpoint",
                                  new.endpoint, "--model", MODEL, "--format", "json"])
    assert offline.exit_code == 0, offline.output
    summary = json.loads(offline.stdout)["summary"]
    assert summary["model"].startswith(f"llm:{MODEL}@sha256:bbbbbbbbb")   # the last one seen
    assert summary["translated"] == 0 and summary["from_memory"] > 0
    assert rows(root) == 2 * before


# A child started from a non-interactive shell may inherit SIGINT ignored, and then Python
# installs no KeyboardInterrupt handler; a terminal's Ctrl-C is never ignored, so the child
# restores it before running the real CLI.
ZHEN_WITH_CTRL_C = ("import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
                    "from zhenglossary.cli import main; main()")


def test_ctrl_c_with_requests_in_flight_exits_at_once_and_the_next_run_resumes(
        runner, tmp_path, monkeypatch):
    """Concurrency 3 against a server that answers the first round and one request of the
    second at once, then takes 30 s per answer: SIGINT exits 130 within seconds (the
    requests in flight are cut, not awaited), the first round and the finished batch of
    the second are in an intact memory, and the next run asks only for the rest."""
    import signal
    import subprocess
    import sys
    import time

    root = make_project(tmp_path, monkeypatch, NOTES)
    (root / "zhen.toml").write_text("[llm]\nbatch = 2\n")
    with FakeLLMServer(script=["ok"] * 4 + ["slow"] * 50, delay=30) as server:
        child = subprocess.Popen(
            [sys.executable, "-c", ZHEN_WITH_CTRL_C, "translate", "notes/", "--engine", "llm",
             "--endpoint", server.endpoint, "--model", MODEL, "--concurrency", "3"],
            cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 60
            while (len(server.chats) < 6 or server.answered < 4) and time.monotonic() < deadline:
                assert child.poll() is None, child.communicate()
                time.sleep(0.05)
            assert server.modes[:4] == ["ok"] * 4 and server.answered == 4
            time.sleep(0.2)
            sent = time.monotonic()
            child.send_signal(signal.SIGINT)
            _, stderr = child.communicate(timeout=20)
            took = time.monotonic() - sent
        finally:
            if child.poll() is None:
                child.kill()
    assert child.returncode == 130 and "interrupted" in stderr, stderr
    assert "Traceback" not in stderr
    assert took < 5, f"{took:.1f} s from SIGINT to exit"
    with sqlite3.connect(root / ".zhen" / "memory.sqlite") as db:
        assert db.execute("pragma integrity_check").fetchone()[0] == "ok"
    answered = sum(len(sentences_of(c)) for c in server.chats[:4])
    assert rows(root) == answered                        # the first round and one batch
    with FakeLLMServer() as fresh:
        result = translate(runner, fresh, "--concurrency", "3")
        assert result.exit_code == 0, result.output
        assert sentences_sent(fresh) == rows(root) - answered > 0


def test_batch_and_max_tokens_flags_override_environment_and_file(runner, tmp_path, monkeypatch):
    root = make_project(tmp_path, monkeypatch, NOTES)
    (root / "zhen.toml").write_text("[llm]\nbatch = 5\nmax_tokens = 900\n")
    monkeypatch.delenv("ZHEN_LLM_MAX_TOKENS", raising=False)
    monkeypatch.setenv("ZHEN_LLM_BATCH", "3")

    def first_request(*flags):
        with FakeLLMServer() as server:
            result = translate(runner, server, "--no-memory", *flags)
            assert result.exit_code == 0, result.output
            # requests hold whole blocks, up to the batch: the first note's heading and its
            # two-sentence paragraph, then its table of three cells
            return [len(sentences_of(c)) for c in server.chats[:2]], server.chats[0]["max_tokens"]

    assert first_request() == ([3, 3], 900)                            # env over file
    assert first_request("--batch", "2", "--max-tokens", "700") == ([1, 2], 700)   # flags
    assert first_request("--batch", "1") == ([1, 2], 900)      # a block is never split
    bad = runner.invoke(app, ["translate", "notes/", "--engine", "llm", "--batch", "0"])
    assert bad.exit_code == 2 and "--batch" in bad.stderr


def test_a_remembered_identity_that_cannot_be_read_is_not_used(tmp_path):
    """Resolved once, then the server goes: the remembered identity serves; unreadable
    (or never written), the server's own error stands."""
    from zhenglossary.errors import ServerUnreachable
    from zhenglossary.paths import cache_dir

    server = FakeLLMServer(digest="sha256:5555666677778888").start()
    assert engine_for(server).identity() == f"llm:{MODEL}@sha256:555566667:prompt-2:t0"
    server.stop()
    offline = engine_for(server)
    assert offline.identity() == f"llm:{MODEL}@sha256:555566667:prompt-2:t0"
    assert offline.describe() == f"llm {MODEL}"
    with pytest.raises(ServerUnreachable, match="does not answer"):
        engine_for(server, temperature=0.5).identity()        # other settings: never resolved
    [memo] = (cache_dir() / "llm").glob("identity-*.json")
    memo.write_text('{"model": ', "utf-8")
    with pytest.raises(ServerUnreachable, match="does not answer"):
        engine_for(server).identity()
    memo.write_text('{"model": 1, "digest": "sha256:5555666677778888"}', "utf-8")
    with pytest.raises(ServerUnreachable, match="does not answer"):
        engine_for(server).identity()
