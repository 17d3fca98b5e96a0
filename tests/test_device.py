"""`--device auto|cpu|cuda` for the argos engine: CUDA when CTranslate2 sees a GPU (tested
with a fake device count), the CPU otherwise, a clear error when CUDA is asked for and
absent."""

from __future__ import annotations

import pytest

from conftest import NOTES, make_project
from zhenglossary.cli import app
from zhenglossary.engines.argos import ArgosEngine, choose_device, find_zh_en, install_package_file
from zhenglossary.errors import ModelError


@pytest.mark.parametrize("requested, gpus, expected", [
    ("auto", 0, ("cpu", "default")),
    ("auto", 2, ("cuda", "auto")),
    ("cuda", 1, ("cuda", "auto")),
    ("cpu", 4, ("cpu", "default")),
])
def test_the_device_follows_what_ctranslate2_sees(requested, gpus, expected):
    assert choose_device(requested, lambda: gpus) == expected


def test_cuda_asked_for_and_absent_says_so():
    with pytest.raises(ModelError) as info:
        choose_device("cuda", lambda: 0)
    assert str(info.value) == ("--device cuda: CTranslate2 sees no CUDA device here (no GPU, "
                               "no driver, or a CPU-only build); use --device cpu or auto")

    def broken():
        raise RuntimeError("CUDA driver version is insufficient")
    assert choose_device("auto", broken) == ("cpu", "default")     # a driver problem: the CPU


@pytest.fixture(scope="module")
def tiny_package(tmp_path_factory):
    from support.fakemodel import build_package, load_corpus

    folder = tmp_path_factory.mktemp("argos")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ARGOS_PACKAGES_DIR", str(folder / "packages"))
        install_package_file(build_package(folder / "tiny.argosmodel",
                                           load_corpus(NOTES / "sosp24.md"), size="tiny"))
    return folder / "packages"


def test_the_engine_loads_the_model_on_the_device_chosen(tiny_package, monkeypatch):
    import ctranslate2

    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(tiny_package))
    made = []

    class Translator:                     # no GPU here: record what CTranslate2 was asked
        def __init__(self, path, **kwargs):
            made.append(kwargs)

    monkeypatch.setattr(ctranslate2, "get_cuda_device_count", lambda: 1)
    monkeypatch.setattr(ctranslate2, "Translator", Translator)
    engine = ArgosEngine(find_zh_en(), device="auto")
    engine.load()
    assert made[0]["device"] == "cuda" and made[0]["compute_type"] == "auto"
    assert engine.describe().endswith(" on CUDA")
    monkeypatch.setattr(ctranslate2, "get_cuda_device_count", lambda: 0)
    ArgosEngine(find_zh_en(), device="auto").load()
    assert made[1]["device"] == "cpu" and made[1]["compute_type"] == "default"


def test_device_on_the_command_line(runner, tiny_package, tmp_path, monkeypatch):
    make_project(tmp_path, monkeypatch, {"a.md": "# 标题\n\n混合精度训练。\n"})
    monkeypatch.setenv("ARGOS_PACKAGES_DIR", str(tiny_package))
    import ctranslate2

    monkeypatch.setattr(ctranslate2, "get_cuda_device_count", lambda: 0)
    result = runner.invoke(app, ["translate", "notes/", "--engine", "argos", "--device", "cuda"])
    assert result.exit_code == 2
    assert "error: --device cuda: CTranslate2 sees no CUDA device here" in result.stderr
    result = runner.invoke(app, ["translate", "notes/", "--engine", "argos", "--device", "tpu"])
    assert result.exit_code == 2 and "--device tpu: use one of auto, cpu, cuda" in result.stderr
    result = runner.invoke(app, ["translate", "notes/", "--engine", "argos", "--device", "cpu",
                                 "--threads", "1"])
    assert result.exit_code == 0, result.output
