"""Rendering: ``x.en.md`` (the English, same structure) and ``x.zh-en.md`` (parallel).

The parallel file shows every leaf block of the source followed by its English, and is
meant to be read by people (any Markdown viewer shows source, then English) and by
programs (``read_parallel``): each block is introduced by an HTML comment that viewers
hide::

    <!-- zhen:src 12 L45-46 sha=3f2a9c1b0d4e -->
    混合精度推理的吞吐……
    <!-- zhen:en 12 sha=a81b2c3d4e5f -->
    The throughput of mixed precision inference …

``src`` carries the block number, its source lines and a hash of its source; ``en``
carries a hash of the English zhen wrote, so an English block a person edited is
recognised (its text no longer matches the hash). Blocks with nothing to translate
(code, HTML, English paragraphs) appear once, after ``<!-- zhen:same N ... -->``.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from .document import Document
from .locking import RegionPlan, assemble

PARALLEL_VERSION = 1


def short_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def region_replacements(plans: list[RegionPlan]) -> list[tuple[int, int, str]]:
    out = []
    for plan in plans:
        if not plan.translatable or not plan.segments:
            continue
        region = plan.region
        out.append((region.starts[0], region.ends[-1], assemble(plan.segments, plan.separators)))
    out.sort()
    return out


def apply(text: str, replacements: list[tuple[int, int, str]], offset: int = 0) -> str:
    parts, pos = [], 0
    for start, end, new in replacements:
        start -= offset
        end -= offset
        parts.append(text[pos:start])
        parts.append(new)
        pos = end
    parts.append(text[pos:])
    return "".join(parts)


@dataclass
class LeafText:
    index: int               # 1-based block number
    kind: str
    first_line: int          # 1-based
    last_line: int           # 1-based, inclusive
    source: str              # the leaf's source lines
    english: str             # the same lines in English
    translated: bool         # False: nothing to translate, english == source
    status: str = "machine"  # machine | approved | stale (a person's English is kept)


def leaf_texts(doc: Document, plans: list[RegionPlan],
               overrides: dict[int, tuple[str, str]] | None = None) -> list[LeafText]:
    """Source and English of each leaf. ``overrides`` maps a leaf index to (English a
    person approved, status), kept instead of the machine English."""
    replacements = region_replacements(plans)
    translated_leaves = {p.leaf for p in plans if p.translatable and p.segments}
    out = []
    r = 0
    for i, leaf in enumerate(doc.leaves):
        start, end = doc.span(leaf.start_line, leaf.end_line)
        source = doc.text[start:end]
        mine = []
        while r < len(replacements) and replacements[r][0] < end:
            if replacements[r][0] >= start:
                mine.append(replacements[r])
            r += 1
        english = apply(source, mine, start)
        status = "machine"
        if overrides and i in overrides:
            english, status = overrides[i]
        out.append(LeafText(i + 1, leaf.kind, leaf.start_line + 1, leaf.end_line, source, english,
                            i in translated_leaves or status != "machine", status))
    return out


GLOSS_BANNER = ("> **Dictionary gloss, not machine translation.** No Chinese→English model is "
                "installed, so zhen wrote this English word by word from a dictionary. For machine "
                "translation run `zhen model install` (or `zhen model install --file "
                "translate-zh_en.argosmodel`), then `zhen translate` again.")


def render_english(doc: Document, leaves: list[LeafText], header: str, banner: str = "") -> str:
    """The English note: ``header`` (an HTML comment) on the first line, then ``banner``
    (a visible Markdown paragraph, e.g. :data:`GLOSS_BANNER`) and a blank line, if given."""
    parts, pos = [], 0
    for leaf, block in zip(doc.leaves, leaves):
        start, end = doc.span(leaf.start_line, leaf.end_line)
        parts.append(doc.text[pos:start])
        parts.append(block.english)
        pos = end
    parts.append(doc.text[pos:])
    body = "".join(parts)
    first = re.search(r"\r\n|\n|\r", doc.text)
    newline = first.group(0) if first else "\n"
    if banner:
        body = banner + newline + newline + body
    return header + newline + body if header else body


def reindent(block: str, like: str) -> str:
    """Put a block of the parallel file (dedented, no trailing newline) back in place of
    ``like`` (the leaf's source lines): same indentation, line endings and trailing
    newlines."""
    _, n = _dedent(like.replace("\r\n", "\n"))
    newline = "\r\n" if "\r\n" in like else "\n"
    body = like.rstrip("\r\n")
    trailing = like[len(body):]
    lines = [(" " * n + line) if line.strip() else line for line in block.split("\n")]
    return newline.join(lines) + trailing


def _dedent(text: str) -> tuple[str, int]:
    lines = text.split("\n")
    widths = [len(line) - len(line.lstrip(" ")) for line in lines if line.strip()]
    n = min(widths) if widths else 0
    return "\n".join(line[n:] for line in lines), n


def _block_text(text: str) -> str:
    text, _ = _dedent(text.replace("\r\n", "\n"))
    return text.strip("\n")


def render_parallel(leaves: list[LeafText], source_name: str, engine: str) -> str:
    out = [f'<!-- zhen:parallel v{PARALLEL_VERSION} source="{source_name}" engine="{engine}" -->',
           "<!-- Each block: the Chinese source, then its English. Edit the English here; "
           "`zhen translate` keeps your edits. -->", ""]
    for leaf in leaves:
        lines = f"L{leaf.first_line}" + (f"-{leaf.last_line}" if leaf.last_line > leaf.first_line else "")
        source = _block_text(leaf.source)
        if not source.strip():
            continue
        if not leaf.translated:
            out += [f"<!-- zhen:same {leaf.index} {lines} sha={short_hash(leaf.source)} -->", source, ""]
            continue
        english = _block_text(leaf.english)
        status = "" if leaf.status == "machine" else f" status={leaf.status}"
        out += [f"<!-- zhen:src {leaf.index} {lines} sha={short_hash(leaf.source)} -->", source,
                f"<!-- zhen:en {leaf.index} sha={short_hash(english)}{status} -->", english, ""]
    return "\n".join(out)


_MARKER = re.compile(r"^<!-- zhen:(?P<kind>src|en|same) (?P<index>\d+)(?P<attrs>[^>]*?) -->$")


@dataclass
class ParallelBlock:
    index: int
    lines: str               # "L45-46"
    source_sha: str
    source: str
    english: str
    english_sha: str         # the hash zhen wrote; differs from short_hash(english) after an edit
    same: bool
    status: str = ""         # "" (machine), approved or stale, as zhen wrote it

    @property
    def edited(self) -> bool:
        return not self.same and short_hash(self.english) != self.english_sha


def read_parallel(text: str) -> list[ParallelBlock]:
    """The blocks of a parallel file, pair by pair."""
    marks: list[tuple[str, int, str, list[str]]] = []     # kind, index, attrs, body lines
    for line in text.replace("\r\n", "\n").split("\n"):
        match = _MARKER.match(line)
        if match:
            marks.append((match.group("kind"), int(match.group("index")), match.group("attrs"), []))
        elif marks:
            marks[-1][3].append(line)
    blocks: list[ParallelBlock] = []
    i = 0
    while i < len(marks):
        kind, index, attrs, body = marks[i]
        fields = dict(re.findall(r"(\w+)=(\S+)", attrs))
        lines = next(iter(re.findall(r"\bL[\d-]+", attrs)), "")
        text_body = "\n".join(body).strip("\n")
        if kind == "same":
            blocks.append(ParallelBlock(index, lines, fields.get("sha", ""), text_body, text_body,
                                        "", True))
        elif kind == "src" and i + 1 < len(marks) and marks[i + 1][0] == "en" \
                and marks[i + 1][1] == index:
            _, _, en_attrs, en_body = marks[i + 1]
            en_fields = dict(re.findall(r"(\w+)=(\S+)", en_attrs))
            blocks.append(ParallelBlock(index, lines, fields.get("sha", ""), text_body,
                                        "\n".join(en_body).strip("\n"), en_fields.get("sha", ""),
                                        False, en_fields.get("status", "")))
            i += 1
        i += 1
    return blocks
