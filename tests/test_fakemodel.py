"""Tests for tests/support/fakemodel.py: synthetic but real argos packages.

How the argos install is isolated
---------------------------------
``argostranslate.settings`` reads ``ARGOS_PACKAGES_DIR`` (and XDG_* / HOME for
its data, config and cache dirs, which it *creates*) once, at import time, and
freezes them into module attributes: ``package_data_dir`` (where
``package.install_from_path`` extracts) and ``package_dirs`` (the list
``package.get_installed_packages`` scans).  ``argostranslate.package`` reads
those attributes through the module at call time, so inside one test process
we monkeypatch ``settings.package_data_dir`` and ``settings.package_dirs`` to a
tmp dir (and set the environment variables too, so a first import in this
process also lands in tmp instead of ~/.local).  ``test_install_via_env_in_subprocess``
checks the env-var-only route in a fresh interpreter, where settings really
are computed from ``ARGOS_PACKAGES_DIR``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from support.fakemodel import (
    OPENNMT_SPECIALS,
    build_package,
    load_corpus,
    package_dir_name,
)

NOTES = Path(__file__).resolve().parents[1] / "notes" / "sc24.md"
PKG_NAME = package_dir_name("zh", "en", "1.0")  # translate-zh_en-1_0
SENTENCES = [
    "我们提出了 ChatBLAS，第一个由人工智能生成的可移植 BLAS 库。",
    "用GPT写的BLAS库",
    "资源管理专题",
]


@pytest.fixture(scope="module")
def corpus() -> list[str]:
    lines = load_corpus(NOTES, max_lines=300)
    assert len(lines) >= 200
    return lines


@pytest.fixture(scope="module")
def tiny_zip(corpus, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("build") / f"{PKG_NAME}.argosmodel"
    start = time.perf_counter()
    build_package(out, corpus, size="tiny", seed=0)
    assert time.perf_counter() - start < 5
    return out


def _isolate_argos(monkeypatch, root: Path) -> Path:
    """Point argostranslate at ``root``; return the packages dir."""
    packages = root / "packages"
    packages.mkdir(parents=True)
    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(packages))
    for var, sub in (("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"), ("XDG_CACHE_HOME", "cache")):
        monkeypatch.setenv(var, str(root / sub))
    from argostranslate import settings  # first import reads the env above

    monkeypatch.setattr(settings, "package_data_dir", packages)
    monkeypatch.setattr(settings, "package_dirs", [packages])
    return packages


@pytest.fixture
def installed(tiny_zip, tmp_path, monkeypatch):
    """The tiny package installed with argostranslate into tmp_path."""
    _isolate_argos(monkeypatch, tmp_path)
    from argostranslate import package

    package.install_from_path(tiny_zip)
    (pkg,) = package.get_installed_packages()
    return pkg


def _translate(model_dir: Path, sp_model: Path, text: str, **kwargs):
    import ctranslate2
    import sentencepiece as spm

    sp = spm.SentencePieceProcessor(model_file=str(sp_model))
    translator = ctranslate2.Translator(str(model_dir), device="cpu", compute_type="default")
    tokens = sp.encode(text, out_type=str)
    options = dict(beam_size=2, num_hypotheses=2, return_scores=True, max_decoding_length=20)
    options.update(kwargs)
    (result,) = translator.translate_batch([tokens], **options)
    return result, [sp.decode_pieces(h) for h in result.hypotheses]


def test_zip_layout(tiny_zip):
    with zipfile.ZipFile(tiny_zip) as zf:
        names = zf.namelist()
        assert {n.split("/")[0] for n in names} == {PKG_NAME}
        for required in ("metadata.json", "README.md", "sentencepiece.model", "model/model.bin",
                         "model/config.json", "model/shared_vocabulary.json"):
            assert f"{PKG_NAME}/{required}" in names
        metadata = json.loads(zf.read(f"{PKG_NAME}/metadata.json"))
        readme = zf.read(f"{PKG_NAME}/README.md").decode()
        vocab = json.loads(zf.read(f"{PKG_NAME}/model/shared_vocabulary.json"))
        config = json.loads(zf.read(f"{PKG_NAME}/model/config.json"))
    assert metadata == {
        "package_version": "1.0",
        "argos_version": "1.9.0",
        "from_code": "zh",
        "from_name": "Chinese",
        "to_code": "en",
        "to_name": "English",
    }
    assert "synthetic" in readme.lower()
    assert tuple(vocab[:4]) == OPENNMT_SPECIALS
    assert 800 <= len(vocab) <= 2000
    assert len(set(vocab)) == len(vocab)
    assert (config["unk_token"], config["bos_token"], config["eos_token"]) == ("<unk>", "<s>", "</s>")


def test_install_and_list(installed, tmp_path):
    from argostranslate.tokenizer import SentencePieceTokenizer

    assert installed.package_path == tmp_path / "packages" / PKG_NAME
    assert (installed.from_code, installed.to_code) == ("zh", "en")
    assert (installed.from_name, installed.to_name) == ("Chinese", "English")
    assert installed.target_prefix == ""
    assert isinstance(installed.tokenizer, SentencePieceTokenizer)
    assert "synthetic" in installed.get_readme().lower()


def test_install_via_env_in_subprocess(tiny_zip, tmp_path):
    script = (
        "import json, sys\n"
        "from argostranslate import package, settings\n"
        "package.install_from_path(sys.argv[1])\n"
        "print(json.dumps([[str(p.package_path), p.from_code, p.to_code] for p in package.get_installed_packages()]))\n"
    )
    env = dict(os.environ)
    env.update(
        HOME=str(tmp_path / "home"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_CACHE_HOME=str(tmp_path / "cache"),
        ARGOS_PACKAGES_DIR=str(tmp_path / "packages"),
    )
    out = subprocess.run([sys.executable, "-c", script, str(tiny_zip)], env=env, check=True,
                         capture_output=True, text=True).stdout
    assert json.loads(out.strip().splitlines()[-1]) == [[str(tmp_path / "packages" / PKG_NAME), "zh", "en"]]


def test_translate_with_ctranslate2(installed):
    model_dir = installed.package_path / "model"
    sp_model = installed.package_path / "sentencepiece.model"
    result, texts = _translate(model_dir, sp_model, SENTENCES[0])
    assert len(result.hypotheses) == 2 and len(result.scores) == 2
    for hyp in result.hypotheses:
        assert hyp and all(isinstance(tok, str) for tok in hyp)
        assert len(hyp) <= 20
    assert all(isinstance(t, str) and t for t in texts)
    assert result.hypotheses[0] != result.hypotheses[1]
    # Same input twice (fresh translator) -> same output.
    again, texts_again = _translate(model_dir, sp_model, SENTENCES[0])
    assert again.hypotheses == result.hypotheses and texts_again == texts
    assert again.scores == pytest.approx(result.scores)


def test_argos_translation_path(installed):
    """argostranslate's own per-paragraph function runs on the package
    (sentence splitting stubbed: the default MiniSBD would download a model)."""
    import ctranslate2
    from argostranslate.translate import apply_packaged_translation

    class SplitOnFullStop:
        def split_sentences(self, text):
            return [s + "。" for s in text.split("。") if s]

    translator = ctranslate2.Translator(str(installed.package_path / "model"), device="cpu")
    hyps = apply_packaged_translation(installed, "".join(SENTENCES[:1] * 2), translator, SplitOnFullStop(), 2)
    assert len(hyps) == 2
    assert all(isinstance(h.value, str) and h.value for h in hyps)


def test_deterministic_build(corpus, tiny_zip, tmp_path):
    same = build_package(tmp_path / "same.argosmodel", corpus, seed=0)
    other = build_package(tmp_path / "other.argosmodel", corpus, seed=1)
    assert same.read_bytes() == tiny_zip.read_bytes()
    assert other.read_bytes() != tiny_zip.read_bytes()
    dirs = {}
    for name, path in (("a", tiny_zip), ("b", other)):
        with zipfile.ZipFile(path) as zf:
            zf.extractall(tmp_path / name)
        dirs[name] = tmp_path / name / PKG_NAME
    # Same corpus -> same tokenizer; different seed -> different weights.
    assert (dirs["a"] / "sentencepiece.model").read_bytes() == (dirs["b"] / "sentencepiece.model").read_bytes()
    outputs = [_translate(d / "model", d / "sentencepiece.model", SENTENCES[1])[0].hypotheses for d in dirs.values()]
    assert outputs[0] != outputs[1]


def test_target_prefix(corpus, tmp_path):
    import sentencepiece as spm

    path = build_package(tmp_path / "p.argosmodel", corpus, target_prefix="__en__")
    with zipfile.ZipFile(path) as zf:
        zf.extractall(tmp_path)
    pkg = tmp_path / PKG_NAME
    metadata = json.loads((pkg / "metadata.json").read_text())
    assert metadata["target_prefix"] == "__en__"
    vocab = json.loads((pkg / "model" / "shared_vocabulary.json").read_text())
    assert "__en__" in vocab
    sp = spm.SentencePieceProcessor(model_file=str(pkg / "sentencepiece.model"))
    assert "__en__" in sp.encode("__en__ 你好", out_type=str)
    result, texts = _translate(pkg / "model", pkg / "sentencepiece.model", SENTENCES[0],
                               target_prefix=[["__en__"]])
    assert all(h[0] == "__en__" for h in result.hypotheses)
    assert all(t.startswith("__en__") for t in texts)


def test_vocab_padding(corpus, tmp_path):
    """vocab_size beyond what the corpus trains is padded with pieces that
    SentencePiece knows (type UNUSED) so they decode cleanly."""
    import sentencepiece as spm

    path = build_package(tmp_path / "v.argosmodel", corpus[:50], vocab_size=6000, seed=3)
    with zipfile.ZipFile(path) as zf:
        zf.extractall(tmp_path)
    pkg = tmp_path / PKG_NAME
    vocab = json.loads((pkg / "model" / "shared_vocabulary.json").read_text())
    assert len(vocab) == 6000 and len(set(vocab)) == 6000
    sp = spm.SentencePieceProcessor(model_file=str(pkg / "sentencepiece.model"))
    assert sp.get_piece_size() == 5999  # + <blank> = vocabulary
    assert sp.is_unused(sp.get_piece_size() - 1)
    assert "\u2581" not in sp.decode_pieces(vocab[-50:])
    with pytest.raises(ValueError):
        build_package(tmp_path / "small.argosmodel", corpus, vocab_size=100)


@pytest.mark.slow
def test_base_size(corpus, tmp_path):
    import ctranslate2
    import sentencepiece as spm

    start = time.perf_counter()
    path = build_package(tmp_path / "base.argosmodel", corpus, size="base")
    build_s = time.perf_counter() - start
    with zipfile.ZipFile(path) as zf:
        zf.extractall(tmp_path)
    pkg = tmp_path / PKG_NAME
    vocab = json.loads((pkg / "model" / "shared_vocabulary.json").read_text())
    assert len(vocab) == 32000
    model_bin = (pkg / "model" / "model.bin").stat().st_size
    assert model_bin > 80e6  # ~93M int8 parameters

    sp = spm.SentencePieceProcessor(model_file=str(pkg / "sentencepiece.model"))
    translator = ctranslate2.Translator(str(pkg / "model"), device="cpu", compute_type="default")
    assert translator.compute_type.startswith("int8")
    batch = [sp.encode(line, out_type=str)[:64] for line in (corpus * 2)[:64]]
    start = time.perf_counter()
    results = translator.translate_batch(batch, beam_size=2, max_decoding_length=64, max_batch_size=32)
    translate_s = time.perf_counter() - start
    assert len(results) == 64
    print(f"\nbase: build {build_s:.2f}s, model.bin {model_bin / 1e6:.1f} MB, "
          f"64 sentences (max_decoding_length=64, beam 2) {translate_s:.2f}s")


def test_placeholder_keeping_mode(corpus, tmp_path, monkeypatch):
    """keeps_placeholders + the prefix engine: every hypothesis holds each of the segment's
    placeholders exactly once; the plain model's noise emits placeholder material."""
    from support.fakemodel import PLACEHOLDER_CHARS, placeholder_prefix_engine
    from zhenglossary.engines.argos import ArgosEngine, install_package_file
    from zhenglossary.placeholders import placeholders_in

    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(tmp_path / "argos"))
    many = "，".join(f"用ZX{k}" for k in range(1, 15)) + "。"     # 14 terms: a prefix past the cap
    texts = ["在ZX1上训练ZX2，再用ZX3评估。", "ZX1的吞吐量", "没有占位符的句子。", many]
    package = install_package_file(build_package(
        tmp_path / "k.argosmodel", corpus + texts, size="tiny", keeps_placeholders=True))
    engine = placeholder_prefix_engine(package, max_decoding_length=24)
    for text, out in zip(texts, engine.translate(texts, num_hypotheses=2)):
        want = sorted(placeholders_in(text))
        for hyp in out.hypotheses:
            assert sorted(placeholders_in(hyp)) == want, (text, hyp)
    # without the prefix the model emits no placeholder characters at all
    plain = ArgosEngine(package, max_decoding_length=24).translate(texts)
    assert not any(PLACEHOLDER_CHARS.intersection(o.hypotheses[0]) for o in plain)
    # drop_every=1: every segment's prefix withheld, so no hypothesis keeps a placeholder
    dropped = placeholder_prefix_engine(package, max_decoding_length=24, drop_every=1)
    assert not any(placeholders_in(h) for o in dropped.translate(texts, num_hypotheses=2)
                   for h in o.hypotheses)
