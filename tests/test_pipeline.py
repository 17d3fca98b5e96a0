"""The pure core (``translate_note``: text in, both outputs out, no I/O) and the windows
``zhen translate`` streams notes in: the same bytes either way, and a window's outputs
written before the next window is read."""

from __future__ import annotations

from pathlib import Path

from engines import BracketEngine
from zhenglossary import translate as translate_module
from zhenglossary.glossary import load_glossary
from zhenglossary.parallel import read_parallel_file
from zhenglossary.translate import TranslateOptions, translate_note, translate_paths

GLOSSARY = "terms:\n  - zh: 编译器\n    en: compiler\n  - zh: 寄存器\n    en: register\n"
NOTES = {f"n{k}.md": f"# 第{k}篇\n\n编译器把变量放进寄存器。第{k}段说明。\n\n- 列表里的编译器\n"
         for k in range(5)}


def _project(tmp_path: Path) -> Path:
    (tmp_path / "glossary.yaml").write_text(GLOSSARY, "utf-8")
    for name, text in NOTES.items():
        (tmp_path / "notes").mkdir(exist_ok=True)
        (tmp_path / "notes" / name).write_text(text, "utf-8")
    return tmp_path


def test_translate_note_is_the_pipeline_without_files(tmp_path):
    glossary = load_glossary(_project(tmp_path) / "glossary.yaml")
    before = sorted(p.name for p in (tmp_path / "notes").iterdir())
    result = translate_note(NOTES["n1.md"], glossary, BracketEngine(), name="n1.md")
    assert sorted(p.name for p in (tmp_path / "notes").iterdir()) == before   # nothing written
    assert "compiler" in result.english and "register" in result.english
    assert [b.index for b in read_parallel_file(result.parallel).blocks] == [1, 2, 3]
    # the same bytes as zhen translate writes
    translate_paths([tmp_path / "notes" / "n1.md"], tmp_path / "glossary.yaml",
                    TranslateOptions(use_memory=False), engine=BracketEngine())
    assert (tmp_path / "notes" / "n1.en.md").read_text("utf-8") == result.english
    assert (tmp_path / "notes" / "n1.zh-en.md").read_text("utf-8") == result.parallel
    # a person's edit in the last parallel file is carried, and not sent to the engine
    last = read_parallel_file(result.parallel.replace(
        "\n# ‹T1›1‹T1›\n", "\n# Note one, by hand\n"))
    engine = BracketEngine()
    again = translate_note(NOTES["n1.md"], glossary, engine, last=last, name="n1.md")
    assert "# Note one, by hand" in again.english and again.stats["kept_by_person"] == 1
    assert not any("第" in text and "篇" in text for text in engine.texts)


class _Watching(BracketEngine):
    """Records, at each call, which English files already exist."""

    def __init__(self, folder: Path) -> None:
        super().__init__()
        self.folder = folder
        self.seen: list[set[str]] = []

    def translate(self, texts, *, num_hypotheses=1):
        self.seen.append({p.name for p in self.folder.glob("*.en.md")})
        return super().translate(texts, num_hypotheses=num_hypotheses)


def test_windows_write_each_window_before_reading_the_next(tmp_path, monkeypatch):
    root = _project(tmp_path)
    run = lambda engine: translate_paths([root / "notes"], root / "glossary.yaml",  # noqa: E731
                                         TranslateOptions(use_memory=False), engine=engine)
    run(BracketEngine())
    whole = {p.name: p.read_bytes() for p in (root / "notes").glob("*.*.md")}
    for p in (root / "notes").glob("*.*.md"):
        p.unlink()
    monkeypatch.setattr(translate_module, "WINDOW_NOTES", 2)
    engine = _Watching(root / "notes")
    report = run(engine)
    assert report.exit_code == 0 and engine.calls == 3          # three windows: 2 + 2 + 1
    assert engine.seen[0] == set() and engine.seen[1] == {"n0.en.md", "n1.en.md"}
    assert len(engine.seen[2]) == 4
    assert {p.name: p.read_bytes() for p in (root / "notes").glob("*.*.md")} == whole
