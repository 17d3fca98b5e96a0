"""The llm engine is told the terms and writes them itself (issue 23): the one rule for a
term's English (terms.py) and the answer check built on it, terms as Chinese with their
entries in the prompt, the retry ladder to masking, context per block, the schema in each
server's form and its refusal, the system prompt from zhen.toml, and --dry-run. All against
tests/support/llm_server.py (the real llama.cpp server is tests/test_llm_server.py)."""

from __future__ import annotations

import json

import pytest

from conftest import make_project
from support.llm_server import FakeLLMServer, request_of, sentences_of
from zhenglossary.cli import app
from zhenglossary.glossary import load_glossary
from zhenglossary.placeholders import answer_problem, renumber, show_terms
from zhenglossary.terms import count

MODEL = "tiny-zh-en"


@pytest.fixture(autouse=True)
def own_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("ZHEN_HOME", str(tmp_path / "zhen-home"))


class T:                                   # a glossary entry, as far as the rule reads it
    def __init__(self, zh: str, en: str) -> None:
        self.zh, self.en = zh, en


# ---------------------------------------------------------------- the rule


@pytest.mark.parametrize("en, text, n", [
    ("mixed precision", "We use mixed-precision training.", 1),
    ("mixed precision", "Mixed precision works; mixed\nprecision too.", 2),
    ("checkpoint", "Two checkpoints, and the checkpoint's size.", 2),
    ("latency", "Tail latencies grow.", 1),
    ("batch", "Large batches help.", 1),
    ("GPU", "eight GPUs", 1),
    ("data transfer node (DTN)", "two data transfer nodes (DTNs)", 1),
    ("checkpoint", "checkpointing is not a checkpoint", 1),       # another word: not counted
    ("mixed precision", "premixed precision, precision mixed", 0),
    ("kernel", "kernels' launch", 1),
])
def test_a_term_may_be_inflected_never_another_word(en, text, n):
    assert count(T("术语", en), text) == n


def test_the_answer_check_names_what_a_model_must_fix():
    mixed, grad = T("混合精度", "mixed precision"), T("梯度", "gradient")
    ok = answer_problem("Mixed-precision ZX1 keeps the gradient and its gradients in ZX2.",
                        [1, 2], written=[mixed, grad, grad])
    assert ok is None
    assert answer_problem("Hybrid ZX1 ZX1.", [1, 2], written=[mixed]) == (
        "lost ZX2; duplicated ZX1; the term 混合精度 must be written 'mixed precision' (a "
        "plural or possessive of it is fine, another word is not)")
    assert "must be written 'gradient' 2 times (found 1)" in answer_problem(
        "one gradient", [], written=[grad, grad])
    assert answer_problem("ZX1 and ZX9", [1]) == "invented ZX9"
    # a term masked as a token: the token once, or its English written out instead
    assert answer_problem("We use ZX1 here.", [], {1: mixed}) is None
    assert answer_problem("We use mixed precision here.", [], {1: mixed}) is None
    assert "must be written 'mixed precision'" in answer_problem("We use it.", [], {1: mixed})


def test_terms_shown_as_chinese_and_the_other_placeholders_renumbered():
    shown, numbers = show_terms("在ZX1 ZX2中，ZX3用ZX4训练ZX5。", {1: "节点间", 2: "通信", 4: "混合精度"})
    assert (shown, numbers) == ("在节点间通信中，ZX1用混合精度训练ZX2。", [3, 5])
    assert renumber("In ZX1, with zx 2 too", numbers) == "In ZX3, with ZX5 too"


# ---------------------------------------------------------------- end to end, a fake model

NOTES = {"train.md": """# 训练笔记

## 精度

我们用混合精度训练多个模型。每个检查点都保存梯度。

另起一段：内核在 `cuda` 上运行，见 https://example.org/k 。
""", "other.md": "# 别的笔记\n\n这里没有术语，只有普通的句子。\n"}


def translate(runner, server, *extra):
    return runner.invoke(app, ["translate", "notes/", "--engine", "llm", "--endpoint",
                               server.endpoint, "--model", MODEL, *extra])


def summary(result) -> dict:
    return json.loads(result.stdout)["summary"]


def test_a_model_that_inflects_terms_meets_the_glossary_on_the_first_answer(
        runner, tmp_path, monkeypatch):
    """The fake model writes mixed-precision, checkpoints, gradients…: every sentence is
    accepted on its first answer (no retry, no masking), the validator passes the blocks,
    and `glossary check` finds nothing. With the terms as placeholders (the old check) the
    same English fails: it has no ZX1."""
    from zhenglossary.document import parse_document
    from zhenglossary.locking import check_hypothesis, plan_document

    root = make_project(tmp_path, monkeypatch, NOTES)
    with FakeLLMServer(script=["inflect"] * 20) as server:
        result = translate(runner, server, "--format", "json")
    assert result.exit_code == 0, result.output
    met = summary(result)["glossary_met"]
    assert met == {"first": summary(result)["translated"], "retry": 0, "masked": 0,
                   "fallback": 0} and met["first"] >= 5
    english = (root / "notes" / "train.en.md").read_text("utf-8")
    assert "mixed-precision" in english and "gradients" in english
    assert "`cuda`" in english and "https://example.org/k" in english
    assert len(server.chats) == 1                   # both notes, 7 sentences: one request
    check = runner.invoke(app, ["glossary", "check"])
    assert check.exit_code == 0, check.output
    # the same answer under the placeholder rule
    glossary = load_glossary(root / "glossary.yaml")
    doc = parse_document(NOTES["train.md"])
    seg = next(s for p in plan_document(doc, glossary, "train.md") for s in p.segments
               if "混合精度" in s.source)
    answer = "We use mixed-precision trainings for several models."
    assert check_hypothesis(seg, answer, glossary) == "lost ZX1, ZX2"
    assert check_hypothesis(seg, answer, glossary, terms_written=True) is None


def test_a_missing_term_is_named_then_masked_then_the_fallback(runner, tmp_path, monkeypatch):
    root = make_project(tmp_path, monkeypatch, {"a.md": "我们用混合精度训练。\n"})
    with FakeLLMServer(script=["drop_term", "drop_term", "ok"]) as server:
        result = translate(runner, server, "--format", "json")
        assert result.exit_code == 0, result.output
        first, retry, masked = (request_of(c) for c in server.chats)
    assert summary(result)["glossary_met"] == {"first": 0, "retry": 0, "masked": 1, "fallback": 0}
    assert first["blocks"][0]["sentences"] == [{"id": 1, "zh": "我们用混合精度训练。"}]
    mixed = next(t for t in load_glossary(root / "glossary.yaml").terms if t.zh == "混合精度")
    assert {"zh": "混合精度", "en": "mixed precision", "forbid": ["hybrid precision"],
            **({"note": mixed.note} if mixed.note else {})} in first["glossary"]
    named = server.chats[1]["messages"][-1]["content"]
    assert "id 1: the term 混合精度 must be written 'mixed precision'" in named
    assert retry == first
    assert masked["blocks"][0]["sentences"] == [
        {"id": 1, "zh": "我们用ZX1ZX2。", "tokens": {"ZX1": "混合精度", "ZX2": "训练"}}] or \
        masked["blocks"][0]["sentences"][0]["tokens"]["ZX1"] == "混合精度"
    assert "mixed precision" in (root / "notes" / "a.en.md").read_text("utf-8")
    with FakeLLMServer(script=["drop_term"] * 3) as server:
        result = translate(runner, server, "--format", "json", "--no-memory")
    assert summary(result)["glossary_met"]["fallback"] == 1
    [fallback] = [f for f in json.loads(result.stdout)["findings"] if f["check"] == "engine-fallback"]
    assert "the model failed: the term" in fallback["message"]


def test_requests_carry_the_context_and_never_split_a_block(runner, tmp_path, monkeypatch):
    note = ("# 系统\n\n## 存储\n\n第一句。第二句。第三句。\n\n另一段话。\n\n## 网络\n\n"
            "最后一段。\n")
    root = make_project(tmp_path, monkeypatch, {"n.md": note})
    with FakeLLMServer(script=["ok", "chinese"]) as server:
        assert translate(runner, server, "--batch", "2").exit_code == 0
        sizes = [len(sentences_of(c)) for c in server.chats]
        blocks = [b for c in server.chats for b in request_of(c)["blocks"]]
    # the three-sentence block is one request; its first sentence (Chinese left) is asked
    # again alone, with the block as context
    assert sizes == [2, 3, 1, 2, 1]
    by_first = {}
    for b in blocks:
        by_first.setdefault(b["sentences"][0]["zh"], []).append(b.get("context", {}))
    assert by_first["第一句。"] == [
        {"headings": ["系统", "存储"]},                        # all of the block is asked
        {"headings": ["系统", "存储"], "block": "第一句。第二句。第三句。"}]
    assert by_first["另一段话。"] == [{"headings": ["系统", "存储"],
                                    "previous": "第一句。第二句。第三句。"}]
    assert by_first["最后一段。"][0]["headings"] == ["系统", "网络"]     # a sibling section
    # the memory key holds the context: editing a block asks again for it and the block
    # after it (its previous block changed), not for the others
    (root / "notes" / "n.md").write_text(note.replace("第三句。", "第三句变了。"), "utf-8")
    with FakeLLMServer() as server:
        result = translate(runner, server, "--format", "json")
        asked = [s["zh"] for c in server.chats for s in sentences_of(c)]
    assert result.exit_code == 0
    assert asked == ["第一句。", "第二句。", "第三句变了。", "另一段话。"]


@pytest.mark.parametrize("kind, path, field", [
    ("ollama", "/api/chat", "format"),
    ("llama.cpp", "/v1/chat/completions", "response_format"),
    ("vllm", "/v1/chat/completions", "response_format"),
    ("lmstudio", "/v1/chat/completions", "response_format"),
    ("openai", "/v1/chat/completions", "response_format"),
])
def test_the_schema_goes_in_the_form_each_server_takes(runner, tmp_path, monkeypatch, kind,
                                                       path, field):
    make_project(tmp_path, monkeypatch, {"a.md": "一句话。\n"})
    with FakeLLMServer(kind=kind) as server:
        result = translate(runner, server, "--format", "json")
        assert result.exit_code == 0, result.output
        [body] = server.chats
        assert server.paths == [path] and server.schemas[0]["required"] == ["translations"]
        listing = json.loads(runner.invoke(app, ["model", "list", "--endpoint", server.endpoint,
                                                 "-f", "json"]).stdout)
    assert next(e for e in listing["engines"] if e["name"] == "llm")["server"] == kind
    form = body[field]
    if kind == "ollama":
        assert form == server.schemas[0] and body["options"] == {"temperature": 0.0,
                                                                 "num_predict": 4096}
    elif kind == "llama.cpp":
        assert form["type"] == "json_object" and form["schema"] == server.schemas[0]
    else:
        assert form["type"] == "json_schema" and form["json_schema"]["strict"] is True


def test_the_server_kind_can_be_set_in_zhen_toml(runner, tmp_path, monkeypatch):
    root = make_project(tmp_path, monkeypatch, {"a.md": "一句话。\n"})
    (root / "zhen.toml").write_text('[llm]\nserver = "llama.cpp"\n')
    with FakeLLMServer(kind="openai") as server:
        assert translate(runner, server).exit_code == 0
        assert server.chats[0]["response_format"]["type"] == "json_object"
    (root / "zhen.toml").write_text('[llm]\nserver = "tgi"\n')
    bad = translate(runner, server)
    assert bad.exit_code == 2 and "llm server 'tgi' is not one zhen knows" in bad.stderr


def test_a_refused_schema_is_asked_without_it_once_with_a_notice(runner, tmp_path, monkeypatch):
    root = make_project(tmp_path, monkeypatch, NOTES)
    with FakeLLMServer() as clean:
        assert translate(runner, clean, "--no-memory", "--batch", "1").exit_code == 0
    expected = (root / "notes" / "train.en.md").read_text("utf-8")
    with FakeLLMServer(schema="refuse") as server:
        result = translate(runner, server, "--batch", "1")
        assert result.exit_code == 0, result.output
        schemas = server.schemas
    assert schemas[0] is not None and all(s is None for s in schemas[1:]) and len(schemas) > 3
    warning = " ".join(result.stderr.split())
    assert warning.count("refused the answer's JSON schema") == 1
    assert "for the rest of this run the JSON is asked for in the prompt only" in warning
    assert (root / "notes" / "train.en.md").read_text("utf-8") == expected


def test_the_system_prompt_comes_from_zhen_toml_and_joins_the_memory_key(runner, tmp_path,
                                                                        monkeypatch):
    root = make_project(tmp_path, monkeypatch, {"a.md": "一句话。\n"})
    with FakeLLMServer() as server:
        first = translate(runner, server, "--format", "json")
        assert summary(first)["model"].endswith(":prompt-2:t0")
    (root / "zhen.toml").write_text('[llm]\nsystem_prompt = """\nTranslate into British '
                                    'English. Answer {"translations": [...]} only.\n"""\n')
    with FakeLLMServer() as server:
        tuned = translate(runner, server, "--format", "json")
        assert server.chats[0]["messages"][0]["content"].startswith("Translate into British")
    assert summary(tuned)["translated"] == 1                   # a new key: asked again
    assert ":prompt-2+" in summary(tuned)["model"]


def test_dry_run_prints_the_exact_requests_and_sends_nothing(runner, tmp_path, monkeypatch):
    root = make_project(tmp_path, monkeypatch, NOTES)
    down = FakeLLMServer().start()
    down.stop()                                     # no server: nothing is contacted
    plan = runner.invoke(app, ["translate", "notes/", "--engine", "llm", "--endpoint",
                               down.endpoint, "--model", MODEL, "--dry-run", "-f", "json"])
    assert plan.exit_code == 0, plan.output
    planned = json.loads(plan.stdout)
    assert not list((root / "notes").glob("*.en.md"))
    assert not (root / ".zhen" / "memory.sqlite").exists()
    with FakeLLMServer() as server:
        assert translate(runner, server).exit_code == 0
        assert [r["body"] for r in planned["requests"]] == server.chats
        assert [r["url"] for r in planned["requests"]] == [
            f"{down.endpoint}/chat/completions"] * len(server.chats)
    text = runner.invoke(app, ["translate", "notes/other.md", "--engine", "llm", "--dry-run"])
    assert text.exit_code == 0
    assert text.stdout.startswith("# request 1 of 1: POST http://127.0.0.1:11434/v1/chat/"
                                  "completions (server: openai — assumed: [llm] server is "
                                  "auto, and the kind is detected only when zhen connects)\n{\n")
    assert '"model": "<the server\'s only model>"' in text.stdout
    assert text.stdout.rstrip().endswith("# 1 request(s) for 2 sentence(s); nothing was sent")
    gloss = runner.invoke(app, ["translate", "notes/", "--engine", "gloss", "--dry-run"])
    assert gloss.exit_code == 2 and "gloss sends none" in gloss.stderr
    (root / "zhen.toml").write_text('[llm]\nserver = "ollama"\n')
    ollama = json.loads(runner.invoke(app, ["translate", "notes/other.md", "--engine", "llm",
                                            "--dry-run", "-f", "json"]).stdout)["requests"]
    assert ollama[0]["url"] == "http://127.0.0.1:11434/api/chat" and not ollama[0]["assumed"]
    assert ollama[0]["body"]["format"]["required"] == ["translations"]


def test_the_summary_says_which_rung_met_the_glossary(runner, tmp_path, monkeypatch):
    make_project(tmp_path, monkeypatch, {"a.md": "我们用混合精度训练。另一句。\n"})
    with FakeLLMServer(script=["drop_term"]) as server:
        result = translate(runner, server)
    assert result.exit_code == 0, result.output
    assert ("llm: 1 sentence(s) met the glossary on the first answer, 1 on a retry, 0 with "
            "their terms masked; 0 translated by the fallback engine") in result.stdout
