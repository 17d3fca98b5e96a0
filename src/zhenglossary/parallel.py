"""The parallel file ``x.zh-en.md`` and the output names: one owner.

Every leaf block of the source is followed by its English; people read it in any Markdown
viewer, programs read it back with :func:`read_parallel`. Each block is introduced by an
HTML comment that viewers hide::

    <!-- zhen:src 12 L45-46 sha=3f2a9c1b0d4e -->
    混合精度推理的吞吐……
    <!-- zhen:en 12 sha=a81b2c3d4e5f -->
    The throughput of mixed precision inference …

``src`` carries the block number, its source lines and a hash of its source
(:func:`document.block_hash`); ``en`` carries a hash of the English zhen wrote, so an
English block a person edited is recognised (its text no longer matches the hash), and,
when the engine could not render some of the source, ``unrendered=`` those pieces, comma
separated, with every character that could end the comment or the attribute (``-``, ``>``,
``,``, ``%``, spaces, …) percent-encoded as UTF-8 (:func:`encode_pieces`); a file without
it reads back as none.
Blocks with nothing to translate (code, HTML, English paragraphs) appear once, after
``<!-- zhen:same N ... -->``. The first line names the source and the engine.

Output names: ``x.md`` → ``x.en.md`` and ``x.zh-en.md`` beside it, or under
``--out-dir`` at the note's path relative to the folder it was found in
(:func:`output_paths`). The checks, the review page and the exchange formats read the
pairs back here (:func:`pairs_for`). Status of a pair:

* ``machine`` — English as zhen wrote it;
* ``edited`` — a person changed the English since zhen wrote it (not yet seen by
  ``zhen translate``);
* ``approved`` — an edit ``zhen translate`` has taken in: kept, never overwritten by MT;
* ``stale`` — the source block changed after an approved edit was made (the English may no
  longer fit), or, for any pair, the note changed after the parallel file was written;
* ``same`` — nothing to translate (code, HTML, English paragraphs).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import unquote

from .document import block_hash, dedent_block, parse_document
from .errors import NoteReadError
from .glossary import Glossary, Match
from .notes import ENGLISH_SUFFIX, PARALLEL_SUFFIX, collect_notes, read_note
from .prose import prose_view

if TYPE_CHECKING:
    from .render import LeafText

PARALLEL_VERSION = 1


def output_paths(note: Path, relative: Path | None = None,
                 out_dir: Path | None = None) -> tuple[Path, Path]:
    """(x.en.md, x.zh-en.md) of the note ``note``; with ``out_dir``, under it at the note's
    ``relative`` path (from the folder it was found in)."""
    base = note.name[:-len(".md")] if note.name.endswith(".md") else note.name
    folder = note.parent if out_dir is None else out_dir / (relative or Path(note.name)).parent
    return folder / f"{base}{ENGLISH_SUFFIX}", folder / f"{base}{PARALLEL_SUFFIX}"


def english_header(source_name: str, engine: str, parallel_name: str) -> str:
    """The first line of ``x.en.md``."""
    return (f"<!-- zhen: English of {source_name}, engine: {engine}. Generated file: "
            f"edit {parallel_name} instead. -->")


_UNSAFE = frozenset('%,-<>!="\'&')


def encode_pieces(pieces: list[str]) -> str:
    """``pieces`` as one marker attribute value: comma separated, each character that could
    end the HTML comment or the attribute (or is a space, a control or the escape ``%``)
    percent-encoded as UTF-8; other characters (Chinese) kept readable."""
    def enc(ch: str) -> str:
        if ch in _UNSAFE or ch.isspace() or not ch.isprintable():
            return "".join(f"%{b:02X}" for b in ch.encode("utf-8"))
        return ch
    return ",".join("".join(enc(ch) for ch in piece) for piece in pieces if piece)


def decode_pieces(value: str) -> list[str]:
    """The pieces :func:`encode_pieces` wrote."""
    return [unquote(piece, errors="replace") for piece in value.split(",") if piece]


def _block_text(text: str) -> str:
    return dedent_block(text)[0].strip("\n")


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
            out += [f"<!-- zhen:same {leaf.index} {lines} sha={block_hash(leaf.source)} -->", source, ""]
            continue
        english = _block_text(leaf.english)
        status = "" if leaf.status == "machine" else f" status={leaf.status}"
        pieces = encode_pieces(leaf.unrendered)
        status += f" unrendered={pieces}" if pieces else ""
        out += [f"<!-- zhen:src {leaf.index} {lines} sha={block_hash(leaf.source)} -->", source,
                f"<!-- zhen:en {leaf.index} sha={block_hash(english)}{status} -->", english, ""]
    return "\n".join(out)


_MARKER = re.compile(r"^<!-- zhen:(?P<kind>src|en|same) (?P<index>\d+)(?P<attrs>[^>]*?) -->$")


@dataclass
class ParallelBlock:
    index: int
    lines: str               # "L45-46"
    source_sha: str
    source: str
    english: str
    english_sha: str         # the hash zhen wrote; differs from block_hash(english) after an edit
    same: bool
    status: str = ""         # "" (machine), approved or stale, as zhen wrote it
    en_line: int = 0         # 1-based line of the English (or of a same block) in the file
    unrendered: list[str] = field(default_factory=list)   # source pieces the engine could not render

    @property
    def edited(self) -> bool:
        return not self.same and block_hash(self.english) != self.english_sha


def read_parallel(text: str) -> list[ParallelBlock]:
    """The blocks of a parallel file, pair by pair."""
    marks: list[tuple[str, int, str, list[str], int]] = []   # kind, index, attrs, body, line
    for number, line in enumerate(text.replace("\r\n", "\n").split("\n"), start=1):
        match = _MARKER.match(line)
        if match:
            marks.append((match.group("kind"), int(match.group("index")), match.group("attrs"), [],
                          number + 1))
        elif marks:
            marks[-1][3].append(line)
    blocks: list[ParallelBlock] = []
    i = 0
    while i < len(marks):
        kind, index, attrs, body, body_line = marks[i]
        fields = dict(re.findall(r"(\w+)=(\S+)", attrs))
        lines = next(iter(re.findall(r"\bL[\d-]+", attrs)), "")
        text_body = "\n".join(body).strip("\n")
        if kind == "same":
            blocks.append(ParallelBlock(index, lines, fields.get("sha", ""), text_body, text_body,
                                        "", True, en_line=body_line))
        elif kind == "src" and i + 1 < len(marks) and marks[i + 1][0] == "en" \
                and marks[i + 1][1] == index:
            _, _, en_attrs, en_body, en_line = marks[i + 1]
            en_fields = dict(re.findall(r"(\w+)=(\S+)", en_attrs))
            blocks.append(ParallelBlock(index, lines, fields.get("sha", ""), text_body,
                                        "\n".join(en_body).strip("\n"), en_fields.get("sha", ""),
                                        False, en_fields.get("status", ""), en_line,
                                        decode_pieces(en_fields.get("unrendered", ""))))
            i += 1
        i += 1
    return blocks


@dataclass
class Pair:
    note: str                 # the source note (display path)
    parallel: str             # the parallel file (display path)
    index: int                # block number in the note
    lines: str                # "L45-46"
    source: str
    english: str
    status: str               # machine | edited | approved | stale | same
    source_sha: str
    en_line: int = 0          # line of the English in the parallel file (1-based)
    current: bool = True      # the note still has this source block unchanged
    terms: list[Match] = field(default_factory=list)   # glossary terms in the source prose
    unrendered: list[str] = field(default_factory=list)  # what the engine could not render

    @property
    def line(self) -> int:
        try:
            return int(self.lines[1:].split("-")[0])
        except ValueError:
            return 0

    @property
    def id(self) -> str:
        return f"b{self.index}"


@dataclass
class NotePairs:
    note: str
    parallel: str | None
    pairs: list[Pair]
    engine: str = ""          # as named on the parallel file's first line


_ENGINE_RE = re.compile(r'^<!-- zhen:parallel v\d+ .*?engine="(?P<engine>[^"]*)"')


def pairs_for(note_path: Path, display: str, note_text: str, parallel: Path,
              parallel_text: str, glossary: Glossary) -> NotePairs:
    blocks = read_parallel(parallel_text)
    doc = parse_document(note_text)
    current = {doc.leaf_hash(leaf) for leaf in doc.leaves}
    pairs = []
    for block in blocks:
        if block.same:
            status = "same"
        elif block.edited:
            status = "edited"
        else:
            status = block.status or "machine"
        still = block.source_sha in current
        pairs.append(Pair(display, str(parallel), block.index, block.lines, block.source,
                          block.english, status, block.source_sha, block.en_line,
                          still, glossary.find_prose(prose_view(block.source)), block.unrendered))
    first = _ENGINE_RE.match(parallel_text.split("\n", 1)[0])
    return NotePairs(display, str(parallel), pairs, first.group("engine") if first else "")


def english_from_parallel(note_text: str, pairs: list) -> str | None:
    """What ``x.en.md`` holds below its header when it was rendered from these pairs (or
    parallel blocks) of the note; None when a block of the note is not among them."""
    from .render import reindent

    doc = parse_document(note_text)
    by_sha = {p.source_sha: p for p in pairs}
    parts, pos = [], 0
    for leaf in doc.leaves:
        pair = by_sha.get(doc.leaf_hash(leaf))
        source = doc.leaf_text(leaf)
        if pair is None:
            if source.strip():
                return None
            continue
        start, end = doc.span(leaf.start_line, leaf.end_line)
        parts.append(note_text[pos:start])
        same = getattr(pair, "same", None) or getattr(pair, "status", "") == "same"
        parts.append(source if same else reindent(pair.english, source))
        pos = end
    parts.append(note_text[pos:])
    return "".join(parts)


def collect_pairs(paths: list[Path], glossary: Glossary, encoding: str | None = None,
                  out_dir: Path | None = None) -> tuple[list[NotePairs], list[str]]:
    """Pairs of every note under ``paths`` that has ``x.zh-en.md`` beside it (or under
    ``out_dir``, where ``zhen translate --out-dir`` wrote it).

    Returns the pairs and warnings (one line each, for stderr): a note without a parallel
    file, or one that cannot be read, is skipped and named.
    """
    out: list[NotePairs] = []
    warnings: list[str] = []
    for note in collect_notes(paths):
        _, parallel = output_paths(note.path, note.relative, out_dir)
        if not parallel.is_file():
            warnings.append(f"{note.display}: skipped, no parallel file {parallel}; "
                            f"run `zhen translate {note.display}` first")
            continue
        try:
            note_text = read_note(note.path, encoding)
            parallel_text = read_note(parallel)
        except NoteReadError as exc:
            warnings.append(f"skipped: {exc}")
            continue
        out.append(pairs_for(note.path, note.display, note_text, parallel, parallel_text,
                             glossary))
    return out, warnings
