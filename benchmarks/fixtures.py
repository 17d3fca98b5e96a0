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
                 max_chars: int | None = None, glossary_text: str | None = None,
                 texts: dict[str, str] | None = None) -> Path:
    """A project folder: ``glossary.yaml`` and ``notes/``.

    With ``texts`` ({file name: Markdown}), those notes. Otherwise the selected shipped
    notes: with ``factor`` > 1, :func:`distinct_notes` (the notes plus ``factor - 1``
    recombined copies of each, all different). ``max_chars`` keeps only the blocks of
    each note that end before that many characters (cut at a blank line, so the Markdown
    stays whole)."""
    if dest.exists():
        shutil.rmtree(dest)
    (dest / "notes").mkdir(parents=True)
    (dest / "glossary.yaml").write_text(glossary_text or GLOSSARY.read_text("utf-8"), "utf-8")
    if texts is None:
        texts = distinct_notes(factor, [p for p in source_notes()
                                        if notes is None or p.name in notes])
    for name, text in texts.items():
        if max_chars is not None and len(text) > max_chars:
            text = text[:text.rfind("\n\n", 0, max_chars) + 1]
        (dest / "notes" / name).write_text(text, "utf-8")
    return dest


# ---------------------------------------------------------------- distinct notes

_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_NOT_PROSE = re.compile(r"^\s{0,3}(#|\||>|[-*+]\s|\d+[.)]\s|```|~~~|\$\$|<)|^\s{4}")
_SENTENCE = re.compile(r"[^。！？]*[。！？]")


def _blocks(text: str) -> list[tuple[bool, str]]:
    """(is plain prose, block) for the note's blank-line-separated blocks; fenced code
    (which may hold blank lines) is one non-prose block."""
    out: list[tuple[bool, str]] = []
    lines: list[str] = []
    fenced = False

    def flush() -> None:
        if lines:
            block = "\n".join(lines)
            first = lines[0]
            prose = (not _NOT_PROSE.match(first) and bool(_CJK.search(block))
                     and "```" not in block and "$$" not in block)
            out.append((prose, block))
            lines.clear()

    for line in text.split("\n"):
        if _FENCE.match(line):
            if not fenced:
                flush()
            fenced = not fenced
            lines.append(line)
            if not fenced:
                flush()
            continue
        if not fenced and not line.strip():
            flush()
            out.append((False, line))
            continue
        lines.append(line)
    flush()
    return out


def _balanced(clause: str) -> bool:
    """A clause that opens and closes its own inline markup (so any order of clauses is
    still well-formed Markdown)."""
    return ("\n" not in clause and clause.count("**") % 2 == 0 and clause.count("`") % 2 == 0
            and clause.count("$") % 2 == 0 and clause.count("[") == clause.count("]")
            and clause.count("(") == clause.count(")") and clause.count("（") == clause.count("）")
            and clause.count("*") % 2 == 0 and clause.count("_") % 2 == 0 and bool(_CJK.search(clause)))


def clause_pool(texts: list[str]) -> list[str]:
    """Every well-formed clause (a sentence's part between Chinese commas) of the texts'
    prose blocks, in order of appearance."""
    pool: list[str] = []
    for text in texts:
        for prose, block in _blocks(text):
            if prose:
                for sentence in _SENTENCE.findall(block):
                    pool += [c.strip() for c in sentence[:-1].split("，") if _balanced(c.strip())]
    return pool


def recombine(text: str, pool: list[str], rng: random.Random) -> str:
    """``text`` with every sentence of its prose blocks replaced by a new one: as many
    clauses as the original, each drawn from ``pool`` by ``rng``, joined by Chinese
    commas, with the original's end mark. Headings, lists, tables, code and the
    structure stay as they were."""
    out = []
    for prose, block in _blocks(text):
        if prose:
            def new(match: re.Match) -> str:
                sentence = match.group(0)
                lead = sentence[:len(sentence) - len(sentence.lstrip())]
                n = sentence.count("，") + 1
                return lead + "，".join(rng.choice(pool) for _ in range(n)) + sentence[-1]
            block = _SENTENCE.sub(new, block)
        out.append(block)
    return "\n".join(out)


def distinct_notes(factor: int, notes: list[Path] | None = None, seed: int = 0) -> dict[str, str]:
    """The notes ×``factor``: copy 0 of each note is the note itself, copies 1… are
    :func:`recombine`\ d with a seeded shuffle (seed, note, copy), so every copy has new
    sentences (the translation memory cannot share them) in the note's own shape."""
    notes = notes if notes is not None else source_notes()
    texts = {p.stem: p.read_text("utf-8") for p in notes}
    pool = clause_pool(list(texts.values()))
    out = {}
    for stem, text in texts.items():
        for copy in range(factor):
            rng = random.Random(f"{seed}:{stem}:{copy}")
            out[f"{stem}_{copy:03d}.md"] = text if copy == 0 else recombine(text, pool, rng)
    return out


# ---------------------------------------------------------------- a 5,000-term glossary

# English building blocks for the large glossary's renderings: lower-case technical words, none
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


# general function words that no glossary would list (a compound holding one is no term)
_FUNCTION_WORDS = frozenset(
    "的 了 和 与 及 或 是 在 对 为 将 把 被 从 以 于 而 也 都 就 这 那 个 等 中 上 下 其 之 "
    "我们 他们 它们 你们 这个 那个 这些 那些 一个 一种 可以 能够 通过 使用 进行 由于 因为 "
    "所以 但是 如果 以及 并且 并 还 又 很 更 最 不 没有 已经 可能 需要 如何 什么 本文 文章".split())


def mine_terms(texts: list[str], exclude: set[str]) -> list[tuple[str, int]]:
    """Candidate terms of the texts, with their counts, most frequent first: jieba words
    of 3+ characters that jieba's own dictionary does not list as common (frequency
    < 100), and runs of 2–3 adjacent words of 2+ characters each (4–8 characters), all
    Chinese, none a function word. What a term-mining pass over the corpus would offer."""
    import jieba

    jieba.setLogLevel(60)
    jieba.initialize()
    counts: Counter[str] = Counter()
    for text in texts:
        for prose, block in _blocks(text):
            if not prose:
                continue
            for run in re.findall(r"[\u4e00-\u9fff]+", block):
                words = jieba.lcut(run, HMM=False)
                for i, w in enumerate(words):
                    if len(w) >= 3 and jieba.dt.FREQ.get(w, 0) < 100 and w not in _FUNCTION_WORDS:
                        counts[w] += 1
                    for n in (2, 3):
                        parts = words[i:i + n]
                        if len(parts) == n and all(len(x) >= 2 and x not in _FUNCTION_WORDS
                                                   for x in parts):
                            form = "".join(parts)
                            if 4 <= len(form) <= 8:
                                counts[form] += 1
    return sorted(((f, c) for f, c in counts.items() if f not in exclude),
                  key=lambda fc: (-fc[1], fc[0]))


def realistic_glossary(total_terms: int, corpus: list[str], seed: int = 0) -> tuple[str, dict]:
    """The shipped glossary plus terms mined from ``corpus`` (:func:`mine_terms`) up to
    ``total_terms``; (YAML, details).

    Candidates are taken evenly across the frequency ranking (every k-th), not the top
    ones, so most added terms are rare, as in a real field glossary, and a few are
    frequent; if the corpus offers too few, the rest are synthetic forms that occur
    nowhere. English: 2–3 technical words (unique, free of every ``forbid`` rendering)."""
    import yaml

    base_text = GLOSSARY.read_text("utf-8")
    base = yaml.safe_load(base_text)["terms"]
    forms = {t["zh"] for t in base} | {v for t in base for v in t.get("variants", [])}
    mined = mine_terms(corpus, forms)
    wanted = max(0, total_terms - len(base))
    step = max(1, len(mined) // wanted) if wanted else 1
    picked = [f for f, _ in mined[::step]][:wanted]
    rng = random.Random(seed)
    filler = _nonoccurring_forms(wanted - len(picked), set(forms) | set(picked), corpus, rng)
    new_zh = picked + filler
    new_en = _english(len(new_zh), base, rng)
    lines = [base_text.rstrip("\n"), "  # --- mined terms (benchmarks.fixtures) ---"]
    for zh, en in zip(new_zh, new_en):
        lines += [f"  - zh: {zh}", f"    en: {en}", "    tags: [mined]"]
    details = {"shipped": len(base), "mined": len(picked), "candidates": len(mined),
               "nonoccurring_filler": len(filler), "step": step}
    return "\n".join(lines) + "\n", details


def _nonoccurring_forms(count: int, seen: set[str], corpus: list[str],
                        rng: random.Random) -> list[str]:
    haystack = "\n".join(corpus + [re.sub(r"\s+", "", n) for n in corpus])
    chars = Counter(ch for ch in "".join(corpus) if _CJK.match(ch))
    alphabet, weights = zip(*chars.items())
    out: list[str] = []
    while len(out) < count:
        zh = "".join(rng.choices(alphabet, weights, k=rng.randint(2, 6)))
        if zh not in seen and zh not in haystack:
            seen.add(zh)
            out.append(zh)
    return out


def _english(count: int, base: list[dict], rng: random.Random) -> list[str]:
    used_en = {_normalise_en(t["en"]) for t in base}
    forbidden = [f.lower() for t in base for f in t.get("forbid", [])]
    out: list[str] = []
    serial = 0
    while len(out) < count:
        en = " ".join(rng.sample(_EN_WORDS, rng.randint(2, 3)))
        if _normalise_en(en) in used_en:
            serial += 1
            en = f"{en} {serial}"
        if _normalise_en(en) in used_en or any(f in en for f in forbidden):
            continue
        used_en.add(_normalise_en(en))
        out.append(en)
    return out


def term_density(project: Path) -> dict:
    """How often the project's glossary matches its notes: forms that occur, matches, and
    matches per 1,000 Chinese characters."""
    from zhenglossary.glossary import load_glossary

    glossary = load_glossary(project / "glossary.yaml")
    texts = [p.read_text("utf-8") for p in sorted((project / "notes").glob("*.md"))]
    matches = [m for t in texts for m in glossary.matcher.finditer(t)]
    cjk = sum(len(_CJK.findall(t)) for t in texts)
    return {"terms": len(glossary.terms), "forms_occurring": len({m.form for m in matches}),
            "matches": len(matches), "per_1000_chars": round(1000 * len(matches) / max(cjk, 1), 1)}


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
