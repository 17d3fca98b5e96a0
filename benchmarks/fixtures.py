"""What the benchmarks run on: project copies, the large glossary, the notes' segments.

Everything is written under the suite's temporary directory; nothing here touches the
repository's own notes, glossary or state.
"""

from __future__ import annotations

import random
import re
import shutil
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
NOTES = REPO / "notes"
GLOSSARY = REPO / "glossary.yaml"

_CJK = re.compile(r"[\u4e00-\u9fff]")


def source_notes() -> list[Path]:
    """The shipped notes (not generated translations)."""
    return sorted(p for p in NOTES.glob("*.md")
                  if not p.name.endswith((".en.md", ".zh-en.md")))


def make_project(dest: Path, *, factor: int = 1, notes: list[str] | None = None,
                 max_chars: int | None = None, glossary_text: str | None = None) -> Path:
    """A project folder: ``glossary.yaml`` and ``notes/`` holding each selected note
    ``factor`` times under distinct names (``sc24_017.md``), so zhen sees distinct files.
    ``max_chars`` keeps only the blocks of each note that end before that many characters
    (cut at a blank line, so the Markdown stays whole)."""
    if dest.exists():
        shutil.rmtree(dest)
    (dest / "notes").mkdir(parents=True)
    (dest / "glossary.yaml").write_text(glossary_text or GLOSSARY.read_text("utf-8"), "utf-8")
    for note in source_notes():
        if notes is not None and note.name not in notes:
            continue
        text = note.read_text("utf-8")
        if max_chars is not None and len(text) > max_chars:
            text = text[:text.rfind("\n\n", 0, max_chars) + 1]
        for i in range(factor):
            (dest / "notes" / f"{note.stem}_{i:03d}.md").write_text(text, "utf-8")
    return dest


# ---------------------------------------------------------------- a 5,000-term glossary

# English building blocks for synthetic renderings: lower-case technical words, none
# ending in "s" (the checks compare renderings ignoring a plural -s, and "same-en" must
# not fire between synthetic terms).
_EN_WORDS = (
    "adaptive", "elastic", "sparse", "dense", "hybrid", "layered", "streaming", "tiered",
    "coherent", "lazy", "eager", "fused", "sharded", "pinned", "remote", "local", "shared",
    "cache", "kernel", "buffer", "queue", "shard", "replica", "tensor", "vector", "block",
    "page", "stripe", "ledger", "journal", "token", "router", "gateway", "scheduler",
    "allocator", "prefetcher", "compactor", "encoder", "decoder", "partition", "checkpoint",
    "barrier", "fence", "window", "pipeline", "mesh", "ring", "torus", "channel", "lane",
)


def _normalise_en(text: str) -> str:
    return re.sub(r"[\s\-]+", "", text.lower())


def synthetic_glossary(total_terms: int, seed: int = 0) -> tuple[str, int]:
    """The shipped glossary plus synthetic terms up to ``total_terms``; (YAML, added).

    Synthetic Chinese forms are 2–6 characters drawn from the notes' own character
    frequencies (so they look like the notes' vocabulary) and kept only if they occur
    nowhere in the notes (not even across a line break), differ from every existing form
    and from each other. Their English is 2–3 words from ``_EN_WORDS`` plus, where the
    combinations run out, a number; unique, and free of every ``forbid`` rendering of the
    shipped glossary. So the large glossary adds no error or warning finding and matches
    nothing new: it only makes every glossary-sized data structure bigger.
    """
    import yaml

    base_text = GLOSSARY.read_text("utf-8")
    base = yaml.safe_load(base_text)["terms"]
    forms = {t["zh"] for t in base} | {v for t in base for v in t.get("variants", [])}
    used_en = {_normalise_en(t["en"]) for t in base}
    forbidden = [f.lower() for t in base for f in t.get("forbid", [])]

    notes = [p.read_text("utf-8") for p in source_notes()]
    haystack = "\n".join(notes + [re.sub(r"\s+", "", n) for n in notes])
    chars = Counter(ch for ch in "".join(notes) if _CJK.match(ch))
    alphabet, weights = zip(*chars.items())

    rng = random.Random(seed)
    wanted = max(0, total_terms - len(base))
    new_zh: list[str] = []
    seen = set(forms)
    while len(new_zh) < wanted:
        zh = "".join(rng.choices(alphabet, weights, k=rng.randint(2, 6)))
        if zh in seen or zh in haystack:
            continue
        seen.add(zh)
        new_zh.append(zh)

    new_en: list[str] = []
    serial = 0
    while len(new_en) < wanted:
        en = " ".join(rng.sample(_EN_WORDS, rng.randint(2, 3)))
        if _normalise_en(en) in used_en:
            serial += 1
            en = f"{en} {serial}"
        if _normalise_en(en) in used_en or any(f in en for f in forbidden):
            continue
        used_en.add(_normalise_en(en))
        new_en.append(en)

    lines = [base_text.rstrip("\n"), "  # --- synthetic terms (benchmarks.fixtures) ---"]
    for zh, en in zip(new_zh, new_en):
        lines += [f"  - zh: {zh}", f"    en: {en}", "    tags: [synthetic]"]
    return "\n".join(lines) + "\n", wanted


# ---------------------------------------------------------------- segments


def paragraph_segments(project: Path) -> list[list[str]]:
    """The engine inputs of a project, grouped by paragraph, in document order.

    Planned exactly as ``zhen translate`` plans them (``parse_document`` →
    ``plan_document`` → every segment of the walk that ``needs_mt`` → ``.masked``). A
    paragraph is one region plan (a paragraph, heading, list item or table cell): the
    unit argos-translate would be handed as one text.
    """
    from zhenglossary.document import parse_document
    from zhenglossary.glossary import load_glossary
    from zhenglossary.locking import plan_document
    from zhenglossary.notes import collect_notes, read_note

    glossary = load_glossary(project / "glossary.yaml", strict=True)
    paragraphs = []
    for note in collect_notes([project / "notes"]):
        doc = parse_document(read_note(note.path))
        for plan in plan_document(doc, glossary, note.display):
            texts = [s.masked for top in plan.segments for s in top.walk() if s.needs_mt]
            if texts:
                paragraphs.append(texts)
    return paragraphs
