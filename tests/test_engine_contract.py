"""One contract every engine passes on the user's notes: the term-lock invariant and
byte-identical protected spans; engines that promise English (gloss) leave no Chinese."""

from __future__ import annotations

import pytest

from conftest import GLOSSARY, NOTES
from engines import BracketEngine, NoiseEngine
from test_locking import PROTECTED
from zhenglossary import terms
from zhenglossary.cli import app
from zhenglossary.document import parse_document
from zhenglossary.engines.argos import ArgosEngine, find_zh_en, install_package_file
from zhenglossary.glossary import load_glossary
from zhenglossary.locking import plan_document, says_then_abbreviation
from zhenglossary.memory import NoMemory
from zhenglossary.prose import prose_view
from zhenglossary.textutil import CJK_RE
from zhenglossary.runner import Runner, lock_segments


def gloss_engine(glossary, tmp_path, monkeypatch, request):
    from zhenglossary.engines.gloss import GlossEngine

    return GlossEngine(glossary.form_map)


def argos_engine(glossary, tmp_path, monkeypatch, request):
    from support.fakemodel import build_package, load_corpus

    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(tmp_path / "argos"))
    corpus = load_corpus(NOTES / "sc24.md") + load_corpus(NOTES / "sosp24.md")
    install_package_file(build_package(tmp_path / "tiny.argosmodel", corpus, size="tiny"))
    return ArgosEngine(find_zh_en())


def llm_engine(glossary, tmp_path, monkeypatch, request):
    """The llm engine against the test server with faults injected into 30% of requests
    (so the retry, per-sentence and gloss-fallback paths all run)."""
    from support.llm_server import FakeLLMServer
    from zhenglossary.engines import EngineContext, create_engine

    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(tmp_path / "no-models"))
    monkeypatch.setenv("ZHEN_HOME", str(tmp_path / "zhen-home"))    # the remembered identity
    server = FakeLLMServer(fault_rate=0.3, seed=2).start()
    request.addfinalizer(server.stop)
    engine, _ = create_engine("llm", EngineContext(glossary, root=tmp_path, overrides={
        "endpoint": server.endpoint, "model": "tiny-zh-en"}))
    return engine


ENGINES = {
    "gloss": (gloss_engine, True),
    "argos-tiny": (argos_engine, False),
    "llm-faults": (llm_engine, True),
    "noise": (lambda g, t, m, r: NoiseEngine(3, forbidden=["hybrid precision"]), False),
    "bracket": (lambda g, t, m, r: BracketEngine(), False),
}


@pytest.mark.parametrize("name", list(ENGINES))
def test_engine_contract_on_the_notes(name, tmp_path, monkeypatch, request):
    make, english_only = ENGINES[name]
    glossary = load_glossary(GLOSSARY)
    engine = make(glossary, tmp_path, monkeypatch, request)
    text = (NOTES / "sosp24.md").read_text("utf-8")
    if name in ("gloss", "bracket", "llm-faults"):
        text += "\n" + (NOTES / "sc24.md").read_text("utf-8")
    plans = plan_document(parse_document(text), glossary, "notes.md")
    segments = [s for p in plans for top in p.segments for s in top.walk()]
    n = 1 if engine.reliable_placeholders else 4
    findings = lock_segments(segments, glossary, Runner(engine, NoMemory(), 128, None), n)
    failed = {f.extra["segment"] for f in findings if f.check == "lock-failed"}
    for seg in segments:
        lowered = seg.english.lower()
        for slot in seg.slots:
            if slot.kind == "term":
                assert terms.count(slot.term, seg.english), (name, seg.source, seg.english)
            elif slot.kind in PROTECTED:
                # a Latin parenthetical that repeats a term is said once (terms.says), and
                # one that repeats it and gives its abbreviation keeps the abbreviation
                assert slot.raw in seg.english or slot.kind == "latin" and any(
                    terms.says(t, slot.raw) or f"({says_then_abbreviation(t, slot.raw)})"
                    in seg.english for t in seg.terms), (name, slot.raw, seg.english)
        if seg.id not in failed:
            for term in set(seg.terms):          # a forbid counts where its term is
                for phrase, pattern in term.forbid_patterns():
                    for piece in _between_terms(seg):
                        assert not pattern.search(piece) or pattern.search(seg.source), \
                            (name, phrase, seg.english)
        if english_only:
            assert not CJK_RE.search(prose_view(seg.english)), (name, seg.source, seg.english)
    if engine.reliable_placeholders:
        assert all(s.status in ("ok", "copied") for s in segments)


def _between_terms(seg) -> list[str]:
    """The segment's English cut where a slot was restored (the engine's own words)."""
    text = seg.english
    for slot in seg.slots:
        for value in ([terms.plural(slot.term), slot.term.en] if slot.kind == "term" else [slot.raw]):
            text = text.replace(value, "\x00")
    return text.split("\x00")


def test_fresh_clone_without_a_model_translates_with_gloss(runner, project, tmp_path, monkeypatch):
    """Issue 4, done when: exit 0, one warning with the install command, no CJK outside
    code, every glossary term locked, the header names the gloss engine."""
    from test_translate import block_invariants

    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(tmp_path / "no-models"))
    result = runner.invoke(app, ["translate", "notes/sc24.md"])
    assert result.exit_code == 0, result.output
    warnings = [line for line in result.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and "zhen model install" in warnings[0]
    assert "engine: gloss (dictionary, not machine translation)" in result.stdout
    english = (project / "notes" / "sc24.en.md").read_text("utf-8")
    assert english.startswith("<!-- zhen: English of sc24.md, engine: gloss (dictionary, "
                              "not machine translation).")
    assert not CJK_RE.search(prose_view(english))
    parallel = (project / "notes" / "sc24.zh-en.md").read_text("utf-8")
    assert block_invariants(parallel, load_glossary(project / "glossary.yaml")) == []
