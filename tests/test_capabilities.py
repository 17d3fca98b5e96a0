"""The engine contract is explicit: each engine's capabilities are one record
(engines/base.py), read the same way for built-in engines, test engines and plugins; the
llm engine gets its fallback from the context the registry builds, never by asking it."""

from __future__ import annotations

from engines import BracketEngine, NoiseEngine
from zhenglossary.engines import EngineContext, create_engine
from zhenglossary.engines.base import Capabilities, capabilities_of
from zhenglossary.engines.gloss import GlossEngine
from zhenglossary.glossary import Glossary


def test_built_in_engines_say_what_they_can_do():
    caps = capabilities_of(GlossEngine())
    assert caps == Capabilities(reliable_placeholders=True, processes=True, gloss=True)


def test_an_engine_that_says_nothing_is_read_from_its_attributes():
    assert capabilities_of(BracketEngine()) == Capabilities(reliable_placeholders=True)
    assert capabilities_of(NoiseEngine()) == Capabilities()

    class Told:
        glossary_aware = True
        preferred_batch = 3
    assert capabilities_of(Told()) == Capabilities(glossary_aware=True, preferred_batch=3)


def test_the_registry_hands_the_llm_engine_its_fallback(tmp_path, monkeypatch):
    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(tmp_path / "none"))
    monkeypatch.setenv("ZHEN_HOME", str(tmp_path / "home"))
    engine, _ = create_engine("llm", EngineContext(Glossary([]), root=tmp_path, overrides={
        "endpoint": "http://127.0.0.1:9/v1", "model": "m"}))
    caps = capabilities_of(engine)
    assert caps.terms_in_prompt and caps.uses_context and caps.glossary_aware
    assert engine._fallback_engine().name == "gloss"          # no model here: gloss
