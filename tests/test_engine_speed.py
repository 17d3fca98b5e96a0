"""Engine work done once: the argos engine decodes a short piece no longer than its length
asks (chunks by length, a decoding bound from the longest text, greedy for the piece-wise
fallback's short pieces, the pieces of every fallback segment together), and the gloss
engine asks whether a word is a name once per word."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from conftest import GLOSSARY, NOTES
from zhenglossary.engines.argos import (DECODING_CEILING, GREEDY_TOKENS, chunks_for,
                                        decoding_limit, length_buckets)


@given(st.lists(st.integers(1, 300), max_size=400), st.integers(1, 64))
def test_length_buckets_keep_every_text_once_and_bound_each_chunk(lengths, size):
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    chunks = length_buckets(order, lengths, size)
    assert [i for chunk in chunks for i in chunk] == order
    for chunk in chunks:
        assert 1 <= len(chunk) <= size
        shortest, longest = lengths[chunk[0]], lengths[chunk[-1]]
        assert longest <= max(1.5 * shortest, shortest + 8)


def test_a_short_piece_is_decoded_for_its_own_length():
    lengths = [4, 5, 6, 200, 210]
    chunks = length_buckets(list(range(5)), lengths, 256)
    assert chunks == [[0, 1, 2], [3, 4]]          # never one chunk decoding 430 tokens


def test_the_decoding_bound_follows_the_longest_text_under_the_cap():
    assert [decoding_limit(n) for n in (0, 1, 4, 8, 30)] == [8, 8, 14, 22, 66]
    assert decoding_limit(10_000) == DECODING_CEILING
    assert decoding_limit(30, cap=32) == 32               # the cap lowers the bound...
    assert decoding_limit(4, cap=32) == 14                # ... and never raises it
    assert decoding_limit(4, cap=10) == 10


def test_the_options_of_a_call_need_no_model():
    from pathlib import Path

    from zhenglossary.engines.argos import ArgosEngine, ArgosPackage

    plain = ArgosEngine(ArgosPackage(Path("absent"), {}), device="cpu")
    prefixed = ArgosEngine(ArgosPackage(Path("absent"), {"target_prefix": "__en__"}), device="cpu")
    four, long = [["▁数据"] * 4], [["▁数据"] * (GREEDY_TOKENS + 1)]
    assert plain.batch_options(four, 1) == {
        "beam_size": 1, "num_hypotheses": 1, "batch_type": "tokens",
        "max_batch_size": plain.max_batch_tokens, "max_decoding_length": decoding_limit(4),
        "replace_unknowns": True}
    assert plain.batch_options([["▁数据"] * GREEDY_TOKENS], 1)["beam_size"] == 1
    assert plain.batch_options(long, 1)["beam_size"] == 4
    assert plain.batch_options(four, 4)["beam_size"] == 4
    assert prefixed.batch_options(four, 1)["max_decoding_length"] == decoding_limit(4) + 1


@given(st.lists(st.integers(0, 60), max_size=300), st.integers(1, 64), st.integers(0, 12))
def test_chunks_keep_every_text_once_and_short_ones_apart(lengths, size, greedy):
    chunks = chunks_for(lengths, size, greedy)
    flat = [i for chunk in chunks for i in chunk]
    assert sorted(flat) == list(range(len(lengths)))
    assert [lengths[i] for i in flat] == sorted(lengths)
    for chunk in chunks:
        assert 1 <= len(chunk) <= size
        shortest, longest = lengths[chunk[0]], lengths[chunk[-1]]
        short = [lengths[i] <= greedy for i in chunk]
        assert all(short) or not any(short)               # a greedy call holds only short texts
        assert longest <= max(1.5 * shortest, shortest + 8)


class Recorder:
    """A CTranslate2 translator in front of the real one: every translate_batch call's
    batch and options, then the real call."""

    def __init__(self, real) -> None:
        self.real = real
        self.calls: list[tuple[list[list[str]], dict]] = []

    def translate_batch(self, batch, **options):
        self.calls.append((batch, options))
        return self.real.translate_batch(batch, **options)


@pytest.fixture(scope="module")
def tiny_package(tmp_path_factory):
    """The tiny real argos package (random weights: its noise breaks placeholders)."""
    import os

    from support.fakemodel import build_package, load_corpus
    from zhenglossary.engines.argos import install_package_file

    root = tmp_path_factory.mktemp("argos")
    corpus = load_corpus(NOTES / "sosp24.md")
    old = os.environ.get("ARGOS_PACKAGES_DIR")
    os.environ["ARGOS_PACKAGES_DIR"] = str(root / "packages")
    try:
        return install_package_file(build_package(root / "tiny.argosmodel", corpus, size="tiny"))
    finally:
        if old is None:
            os.environ.pop("ARGOS_PACKAGES_DIR")
        else:
            os.environ["ARGOS_PACKAGES_DIR"] = old


def recorded_engine(package, **options):
    from zhenglossary.engines.argos import ArgosEngine

    engine = ArgosEngine(package, **options)
    engine.load()
    engine._translator = Recorder(engine._translator)
    return engine


def test_the_piece_fallback_is_batched_and_bounded(tiny_package):
    """The pieces of every segment that fell back go to the engine in one call; CTranslate2
    gets them in length chunks, short ones greedy, each call's decoding bounded by its
    longest piece; the English still keeps every term."""
    from zhenglossary import terms
    from zhenglossary.document import parse_document
    from zhenglossary.glossary import load_glossary
    from zhenglossary.locking import plan_document
    from zhenglossary.memory import NoMemory
    from zhenglossary.runner import Runner, lock_segments

    glossary = load_glossary(GLOSSARY)
    engine = recorded_engine(tiny_package)
    asked: list[tuple[int, int, list]] = []     # (texts, hypotheses, its CT2 calls) per call
    translate = engine.translate

    def recorded(texts, num_hypotheses=1):
        before = len(engine._translator.calls)
        out = translate(texts, num_hypotheses=num_hypotheses)
        asked.append((len(texts), num_hypotheses, engine._translator.calls[before:]))
        return out
    engine.translate = recorded
    text = (NOTES / "sosp24.md").read_text("utf-8")
    plans = plan_document(parse_document(text), glossary, "sosp24.md")
    segments = [s for p in plans for top in p.segments for s in top.walk()]
    lock_segments(segments, glossary, Runner(engine, NoMemory(), 128, None), 4)

    fell_back = [s for s in segments if s.status in ("pieces", "failed")]
    assert len(fell_back) > 10                            # the tiny model's noise breaks them
    first = [c for c in asked if c[1] == 4]
    pieces = [c for c in asked if c[1] == 1]
    assert sum(n for n, _, _ in first) == sum(1 for s in segments if s.needs_mt)
    # every fallback segment's pieces together, in the runner's calls of 128 texts
    assert len(pieces) == -(-sum(n for n, _, _ in pieces) // 128) < len(fell_back)
    for _, _, ct2 in pieces:                    # each engine call: one CT2 call per chunk
        lengths = [len(t) for batch, _ in ct2 for t in batch]
        assert len(ct2) == len(chunks_for(lengths, engine.chunk_size, GREEDY_TOKENS))
    assert any(o["beam_size"] == 1 for _, _, ct2 in pieces for _, o in ct2)
    calls = engine._translator.calls
    for batch, options in calls:
        longest = max(len(t) for t in batch)
        assert options["max_decoding_length"] == decoding_limit(longest)
        greedy = options["num_hypotheses"] == 1 and longest <= GREEDY_TOKENS
        assert options["beam_size"] == (1 if greedy else 4)
    for seg in fell_back:
        assert seg.english.strip()
        for slot in seg.slots:
            if slot.kind == "term":
                assert terms.count(slot.term, seg.english), (seg.source, seg.english)


def test_one_hypothesis_of_long_texts_keeps_the_beam_and_the_cap_holds(tiny_package):
    engine = recorded_engine(tiny_package, max_decoding_length=12)
    short = "数据"
    long = ("我们在三个数据集上评估了这个系统的吞吐量和延迟，并与两个基线比较。"
            "结果表明，在内存受限的节点上，新的调度策略把尾延迟降低了一半以上。")
    out = engine.translate([short, long], num_hypotheses=1)
    assert len(out) == 2 and all(o.hypotheses for o in out)
    (b1, o1), (b2, o2) = engine._translator.calls
    assert len(b1[0]) <= GREEDY_TOKENS < len(b2[0])
    assert (o1["beam_size"], o2["beam_size"]) == (1, 4)
    assert o1["max_decoding_length"] == min(12, decoding_limit(len(b1[0])))
    assert o2["max_decoding_length"] == 12
    engine._translator.calls.clear()
    engine.translate([short, long], num_hypotheses=4)      # the first pass: one beam chunk
    assert [o["beam_size"] for _, o in engine._translator.calls] == [4] * len(engine._translator.calls)
    assert all(o["num_hypotheses"] == 4 for _, o in engine._translator.calls)
    plain = recorded_engine(tiny_package, greedy_tokens=0)
    plain.translate([short], num_hypotheses=1)
    assert plain._translator.calls[0][1]["beam_size"] == 4


def test_the_gloss_engine_spells_each_word_as_a_name_once(monkeypatch):
    from zhenglossary.engines import gloss
    from zhenglossary.engines.gloss import GlossEngine

    asked = []
    real = gloss.spell_name
    monkeypatch.setattr(gloss, "spell_name", lambda word, *a: asked.append(word) or real(word, *a))
    engine = GlossEngine()
    text = "赖海斌和王小明讨论了编译器的寄存器分配。"
    first = engine.translate([text, text + "赖海斌同意。"])
    assert asked and len(asked) == len(set(asked))              # each word once
    count = len(asked)
    again = engine.translate(["赖海斌又讨论了一次。"])
    assert len(asked) - count <= len(set(asked[count:]))
    assert "Lai Haibin" in first[0].hypotheses[0] and "Lai Haibin" in again[0].hypotheses[0]


def test_ctranslate2_runs_one_thread_per_worker_on_the_cpu():
    """On the CPU, ``threads`` workers of one thread each (0: every usable core, at most
    four), sharing
    the weights; on CUDA one worker (engines/argos.ArgosEngine.thread_options)."""
    from pathlib import Path

    from zhenglossary.engines.argos import DEFAULT_WORKERS, ArgosEngine, ArgosPackage
    from zhenglossary.process import usable_cores

    package = ArgosPackage(Path("absent"), {})
    assert ArgosEngine(package, threads=3, device="cpu").thread_options() == {
        "inter_threads": 3, "intra_threads": 1}
    assert ArgosEngine(package, device="cpu").thread_options() == {
        "inter_threads": min(usable_cores(), DEFAULT_WORKERS), "intra_threads": 1}
    engine = ArgosEngine(package, threads=2, device="cpu")
    engine.device = "cuda"
    assert engine.thread_options() == {"inter_threads": 1, "intra_threads": 2}


def test_a_calls_chunks_are_all_handed_over_before_the_first_is_waited_for(tiny_package):
    """translate_chunks gives CTranslate2 every chunk of a call asynchronously, then waits:
    so its workers decode them side by side; the results come back in the chunks' order."""
    engine = recorded_engine(tiny_package, threads=2)
    events: list[str] = []
    real = engine._translator.translate_batch

    class Echo:                  # a row's "English": its own source tokens
        def __init__(self, tokens, label):
            self.hypotheses, self._label = [tokens], label

        def result(self):
            events.append(f"wait {self._label}")
            return self

    def translate_batch(batch, **options):
        assert options["asynchronous"] is True
        real(batch, **options)   # the real call accepts these options
        label = len([e for e in events if e.startswith("hand")])
        events.append(f"hand {label}")
        return [Echo(tokens, label) for tokens in batch]
    engine._translator.translate_batch = translate_batch
    texts = ["数据", "调度器把任务分给空闲的节点", "内存带宽决定了这一层的速度上限", "图"] * 3
    texts += ["编译器在中间表示上做常量传播和死代码消除，然后再分配寄存器" * 4, "检查点"]
    out = engine.translate(texts)
    handed = [e for e in events if e.startswith("hand")]
    assert len(handed) >= 3 and events[:len(handed)] == handed       # all before any wait
    # each text gets its own row's result back, whatever chunk it went in
    assert [o.hypotheses for o in out] == [[engine.decode(t)] for t in engine.tokenize(texts)]


_NOTE_LINES = [line for name in ("sc24.md", "sosp24.md")
               for line in (NOTES / name).read_text("utf-8").splitlines() if line.strip()]


@settings(max_examples=12)
@given(st.lists(st.sampled_from(_NOTE_LINES), min_size=1, max_size=40),
       st.sampled_from([16, 64, 1024]), st.sampled_from([1, 3]))
def test_the_english_does_not_depend_on_the_number_of_workers(tiny_package, texts, batch, n):
    """Workers decode the same batches as one thread does (CTranslate2 cuts a call into
    batches before handing them out): the English is byte-identical for any ``threads``,
    on random lines of the notes, batch sizes and numbers of hypotheses."""
    one = _engine(tiny_package, 1, batch)
    many = _engine(tiny_package, 3, batch)
    assert ([o.hypotheses for o in one.translate(texts, num_hypotheses=n)]
            == [o.hypotheses for o in many.translate(texts, num_hypotheses=n)])


_ENGINES: dict = {}


def _engine(package, threads, batch):
    """One loaded engine per (package, threads, batch size) for the examples."""
    from zhenglossary.engines.argos import ArgosEngine

    key = (str(package.path), threads, batch)
    if key not in _ENGINES:
        _ENGINES[key] = ArgosEngine(package, threads=threads, max_batch_tokens=batch, device="cpu")
    return _ENGINES[key]
