"""The parallel file ``x.zh-en.md``: its markers, read with care, written one way.

Every leaf block of the source is followed by its English; people read it in any Markdown
viewer, programs read it back with :func:`read_parallel_file`. HTML comments, which viewers
hide, introduce each part::

    <!-- zhen:parallel v3 source="x.md" engine="gloss (…)" -->
    <!-- zhen:src 12 L45-46 sha=3f2a9c1b0d4e -->
    混合精度推理的吞吐……
    <!-- zhen:en 12 sha=a81b2c3d4e5f base=77c0e1d2a3b4 status=reviewed terms=混合精度=mixed%20precision=5a0c -->
    The throughput of mixed precision inference …

``src`` carries the block number, its source lines and :func:`document.block_hash` of its
source. ``en`` carries the hash of the English zhen wrote (``sha``: a person who changes
the text is recognised by it no longer matching), ``base`` (the hash of the source as
Markdown reads it and of the glossary entries the English was made for:
:func:`.status.context_hash`), the block's ``status`` when it is not ``machine``
(:class:`.status.PairStatus`; a person may type ``status=reviewed`` there),
``unrendered=`` source pieces the engine could not render (comma separated,
percent-encoded: :func:`encode_pieces`), ``out=`` the hash of what ``x.en.md`` holds for
the block when that is not the English shown (an edit that fails the output check), and
``terms=`` the glossary entries the English was made for (:class:`TermUse`; v3 on, so
that a block stale because of the glossary can say which entry changed).

A ``stale`` block — its source or a glossary entry it uses changed after a person wrote or
reviewed its English — shows the machine English, then what the person had, quoted so
every viewer shows it: ``<!-- zhen:was-src N -->`` (the source then; when only the
glossary changed, one line naming the entries, old and new English, instead of the same
source again) and ``<!-- zhen:was-en N -->`` (the English then, and its ``terms=``).
Blocks with nothing to translate appear once after ``<!-- zhen:same N … -->``.
An edit whose block is no longer in the note is kept in a last section,
``<!-- zhen:orphans -->``, as ``orphan-src``/``orphan-en`` parts, until a person deletes it.

Reading is tolerant where the intent is clear (spaces and no-break spaces in a marker, a
BOM, CRLF) and strict where it is not: a missing, duplicated or unreadable marker, or text
outside any block, raises :class:`ParallelFileError` naming the line, and nothing is
written over the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import unquote

from ..document import block_hash, dedent_block
from ..errors import ZhenError
from ..textutil import Pieces
from .outputs import comment_safe, comment_unsafe

PARALLEL_VERSION = 3        # 3: `base` as status.context_hash, the entries recorded (terms=)
HELP_LINE = ("<!-- Each block: the Chinese source, then its English. Edit the English here; "
             "`zhen translate` keeps your edits. Mark English you have read with status=reviewed "
             "on its en marker (or `zhen mark`). -->")
WAS_SRC_LABEL = "> *The source when this English was written:*"
WAS_SRC_ALSO = "> *The source when this English was written (the glossary changed too: {}):*"
WAS_SAME_LABEL = ("> *The source is the same as when this English was written; the glossary "
                  "changed: {}.*")
WAS_EN_LABEL = ("> *The English then — copy what you keep into the English above (or mark it "
                "status=reviewed); these quoted lines go once you do:*")
ORPHANS_HEADING = "## Edits whose block is no longer in the note"
ORPHANS_HELP = ("<!-- zhen keeps each of these until you delete it: copy what you need into a "
                "block above. -->")

STATUS_VALUES = ("machine", "reviewed", "edited", "stale", "invalid", "approved")


class ParallelFileError(ZhenError):
    """A parallel file zhen cannot read without guessing; nothing is written over it."""

    exit_code = 1


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


@dataclass(frozen=True, order=True)
class TermUse:
    """A glossary entry a block's English was made for, as its marker records it
    (``terms=``): the entry's Chinese, its English, and a short hash of what else of it
    the English is written against (``status.entry_key``). It names the entry that
    changed when the block goes stale; ``base`` decides."""

    zh: str
    en: str
    key: str = ""


def encode_terms(uses) -> str:
    """``uses`` as the ``terms=`` value: ``zh=en=key`` pieces, comma separated, each part
    percent-encoded as :func:`encode_pieces` does (so ``=`` and ``,`` inside are safe)."""
    return ",".join("=".join(encode_pieces([part]) for part in (u.zh, u.en, u.key) if part)
                    for u in uses)


def decode_terms(value: str) -> tuple[TermUse, ...]:
    """The entries :func:`encode_terms` wrote (a piece zhen cannot read is skipped)."""
    out = []
    for piece in value.split(","):
        parts = [unquote(p, errors="replace") for p in piece.split("=")]
        if len(parts) >= 2 and parts[0] and parts[1]:
            out.append(TermUse(parts[0], parts[1], parts[2] if len(parts) > 2 else ""))
    return tuple(out)


def block_text(text: str) -> str:
    """A leaf's source lines as the parallel file shows them: dedented, no blank lines
    around, ``\\n`` line endings."""
    return dedent_block(text)[0].strip("\n")


@dataclass
class Was:
    """What a person had for a block before its source changed."""

    source: str
    english: str
    source_sha: str = ""
    base: str = ""
    status: str = "edited"           # edited | reviewed
    terms: tuple[TermUse, ...] | None = None   # the entries it was made for (None: not
    #                                  recorded, a parallel file written before v3)
    # how the quoted source is labelled (decided by carry, not read back): the source reads
    # as it does now and only the glossary changed (``glossary`` names the change: no source
    # is quoted), or the glossary changed too
    same_source: bool = False
    glossary: str = ""


@dataclass
class ParallelBlock:
    index: int
    lines: str                       # "L45-46"
    source_sha: str
    source: str
    same: bool = False
    english: str = ""
    english_sha: str = ""            # the hash zhen wrote; differs from block_hash(english) after an edit
    status: str = ""                 # as marked: "" (machine), reviewed, edited, stale, invalid
    base: str = ""                   # status.context_hash when the English was made
    out_sha: str = ""                # hash of x.en.md's English for the block, when not `english`
    unrendered: list[str] = field(default_factory=list)
    src_line: int = 0                # 1-based line of the src (or same) marker
    en_line: int = 0                 # 1-based first line of the English (or of a same block)
    was: Was | None = None
    terms: tuple[TermUse, ...] | None = ()   # the glossary entries its English was made for
    #                                  (None: not recorded, a parallel file before v3)

    @property
    def edited(self) -> bool:
        """The English was changed by a person since zhen wrote it."""
        return not self.same and block_hash(self.english) != self.english_sha

    @property
    def written(self) -> str:
        """The hash of what zhen wrote into ``x.en.md`` for this block."""
        return self.out_sha or self.english_sha


@dataclass
class Orphan:
    """A person's English whose block was deleted from the note."""

    lines: str                       # where the block was in the note then ("L12-13")
    source: str
    english: str
    source_sha: str = ""
    base: str = ""
    status: str = "edited"
    line: int = 0                    # 1-based line of its English in the parallel file


@dataclass
class ParallelFile:
    source_name: str = ""
    engine: str = ""
    version: int = PARALLEL_VERSION
    blocks: list[ParallelBlock] = field(default_factory=list)
    orphans: list[Orphan] = field(default_factory=list)


# --------------------------------------------------------------------------- reading

_KINDS = ("parallel", "src", "en", "same", "was-src", "was-en", "orphans", "orphan-src",
          "orphan-en")
_LOOKS_LIKE = re.compile(r"^<!--\s*zhen\s*:")
_MARKER = re.compile(r"^<!--\s*zhen:(?P<kind>[a-z-]+)(?:\s+(?P<index>\d+)\b)?(?P<attrs>.*?)\s*-->$",
                     re.S)
_ATTR = re.compile(r'(\w+)=("[^"]*"|\S+)')


@dataclass
class _Mark:
    kind: str
    index: int | None
    attrs: dict[str, str]
    lines: str
    line: int                        # 1-based line of the marker
    body: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(self.body).strip("\n")

    @property
    def body_line(self) -> int:
        for k, line in enumerate(self.body):
            if line.strip():
                return self.line + 1 + k
        return self.line + 1


def _clean(line: str) -> str:
    """A line as a marker is recognised: BOMs gone, every run of (Unicode) space one space."""
    return re.sub(r"\s+", " ", line.replace("\ufeff", "")).strip()


def _marks(text: str, path: str | None) -> list[_Mark]:
    marks: list[_Mark] = []
    loose: list[tuple[int, str]] = []        # non-blank lines before the first block
    for number, raw in enumerate(re.split(r"\r\n|\n|\r", text), start=1):
        line = _clean(raw)
        if _LOOKS_LIKE.match(line):
            match = _MARKER.match(line)
            if match is None or match.group("kind") not in _KINDS:
                raise ParallelFileError(
                    f"line {number}: a zhen marker zhen cannot read ({_short(raw)}); restore it "
                    "as zhen wrote it (e.g. `<!-- zhen:en 3 sha=… -->`), then run again",
                    path=path, line=number)
            attrs = {k: v.strip('"') for k, v in _ATTR.findall(match.group("attrs"))}
            lines = next(iter(re.findall(r"\bL\d+(?:-\d+)?\b", match.group("attrs"))), "")
            index = match.group("index")
            marks.append(_Mark(match.group("kind"), int(index) if index else None, attrs, lines,
                               number))
        elif marks and marks[-1].kind not in ("parallel",):
            marks[-1].body.append(raw)
        elif line and not (line.startswith("<!--") and line.endswith("-->")):
            loose.append((number, raw))
    if loose:
        number, raw = loose[0]
        raise ParallelFileError(
            f"line {number}: text outside any block ({_short(raw)}); zhen would not keep it — "
            "move it into a block's English or delete it, then run again", path=path, line=number)
    return marks


def _short(text: str, n: int = 60) -> str:
    text = text.strip()
    return repr(text if len(text) <= n else text[:n - 1] + "…")


def _label(template: str) -> str:
    """The fixed start of a label line (``{}`` is what varies)."""
    return template.split("{}")[0].strip()


def _unquote_block(text: str, label: str) -> str:
    """The text of a quoted ``was``/``orphan`` part: its label line and ``> `` gone."""
    lines = text.split("\n")
    if lines and label and (lines[0].strip() == label.strip() or (
            label == WAS_SRC_LABEL and lines[0].strip().startswith(_label(WAS_SRC_ALSO)))):
        lines = lines[1:]
    out = []
    for line in lines:
        stripped = line.lstrip(" ")
        out.append(stripped[2:] if stripped.startswith("> ") else
                   stripped[1:] if stripped.startswith(">") else line)
    return "\n".join(out).strip("\n")


def read_parallel_file(text: str, path: str | None = None) -> ParallelFile:
    """The parallel file ``text``, block by block; :class:`ParallelFileError` (naming the
    line and the fix) where reading it would mean guessing."""
    marks = _marks(text, path)
    head = re.match(r"\s*<!--\s*zhen:parallel\s+v(\d+)", text.lstrip("\ufeff"))
    out = ParallelFile(version=int(head.group(1)) if head else 1)

    def terms_of(attrs: dict) -> tuple[TermUse, ...] | None:
        if "terms" in attrs:
            return decode_terms(attrs["terms"])
        return () if out.version >= 3 else None
    seen: dict[int, int] = {}

    def fail(mark: _Mark, what: str) -> ParallelFileError:
        return ParallelFileError(f"line {mark.line}: {what}", path=path, line=mark.line)

    def status_of(mark: _Mark) -> str:
        status = mark.attrs.get("status", "")
        if status and status not in STATUS_VALUES:
            raise fail(mark, f"status={status} is not one zhen knows; write one of "
                             "reviewed, edited, machine (or delete it), then run again")
        return "edited" if status == "approved" else "" if status == "machine" else status

    def claim(mark: _Mark) -> None:
        if mark.index in seen:
            raise fail(mark, f"block {mark.index} appears twice (first at line {seen[mark.index]}); "
                             "delete one of the two, then run again")
        seen[mark.index] = mark.line

    i = 0
    in_orphans = False
    while i < len(marks):
        mark = marks[i]
        nxt = marks[i + 1] if i + 1 < len(marks) else None
        if mark.kind == "parallel":
            if i:
                raise fail(mark, "a second zhen:parallel header; delete it, then run again")
            out.source_name = comment_unsafe(mark.attrs.get("source", ""))
            out.engine = comment_unsafe(mark.attrs.get("engine", ""))
            i += 1
            continue
        if in_orphans and mark.kind not in ("orphan-src", "orphan-en"):
            raise fail(mark, f"a zhen:{mark.kind} marker after the orphans section; move it "
                             "above `<!-- zhen:orphans -->`, then run again")
        if mark.kind == "same":
            claim(mark)
            text_body = mark.text
            out.blocks.append(ParallelBlock(mark.index, mark.lines, mark.attrs.get("sha", ""),
                                            text_body, True, text_body, src_line=mark.line,
                                            en_line=mark.body_line))
            i += 1
        elif mark.kind == "src":
            if mark.index is None:
                raise fail(mark, "a zhen:src marker without its block number; restore it")
            if nxt is None or nxt.kind != "en" or nxt.index != mark.index:
                raise fail(mark, f"block {mark.index}'s source has no `<!-- zhen:en {mark.index} "
                                 "… -->` marker after it (deleted?); put it back above the block's "
                                 "English, or delete the whole pair for a new translation, then "
                                 "run again")
            claim(mark)
            attrs = nxt.attrs
            block = ParallelBlock(mark.index, mark.lines, mark.attrs.get("sha", ""), mark.text,
                                  False, nxt.text, attrs.get("sha", ""), status_of(nxt),
                                  attrs.get("base", ""), attrs.get("out", ""),
                                  decode_pieces(attrs.get("unrendered", "")), mark.line,
                                  nxt.body_line, terms=terms_of(attrs))
            i += 2
            if i < len(marks) and marks[i].kind == "was-src":
                was_src = marks[i]
                was_en = marks[i + 1] if i + 1 < len(marks) else None
                if was_src.index != mark.index or was_en is None or was_en.kind != "was-en" \
                        or was_en.index != mark.index:
                    raise fail(was_src, f"block {mark.index}'s earlier source has no "
                                        f"`<!-- zhen:was-en {mark.index} … -->` after it; restore "
                                        "it, or delete both quoted parts, then run again")
                same = was_src.text.strip().startswith(_label(WAS_SAME_LABEL))
                # the source unchanged since: not quoted again, it is the block's
                block.was = Was(block.source if same else
                                _unquote_block(was_src.text, WAS_SRC_LABEL),
                                _unquote_block(was_en.text, WAS_EN_LABEL),
                                was_src.attrs.get("sha", ""), was_en.attrs.get("base", ""),
                                was_en.attrs.get("status", "edited"), terms_of(was_en.attrs),
                                same_source=same)
                i += 2
            out.blocks.append(block)
        elif mark.kind == "en":
            raise fail(mark, f"the English of block {mark.index} has no `<!-- zhen:src "
                             f"{mark.index} … -->` marker before it (deleted?); put it back above "
                             "the block's source, then run again")
        elif mark.kind in ("was-src", "was-en"):
            raise fail(mark, f"a zhen:{mark.kind} part not right after block {mark.index}'s "
                             "English; move it back, or delete it, then run again")
        elif mark.kind == "orphans":
            in_orphans = True
            i += 1
        elif mark.kind == "orphan-src":
            if not in_orphans:
                raise fail(mark, "an orphaned edit outside the orphans section; move it below "
                                 "`<!-- zhen:orphans -->`, then run again")
            if nxt is None or nxt.kind != "orphan-en":
                raise fail(mark, "an orphaned edit's source without its English "
                                 "(`<!-- zhen:orphan-en … -->`); restore it or delete both, then "
                                 "run again")
            out.orphans.append(Orphan(mark.lines, _unquote_block(mark.text, ""), nxt.text,
                                      mark.attrs.get("sha", ""),
                                      nxt.attrs.get("base", ""), nxt.attrs.get("status", "edited"),
                                      nxt.body_line))
            i += 2
        else:            # orphan-en on its own
            raise fail(mark, "an orphaned edit's English without its source "
                             "(`<!-- zhen:orphan-src … -->`); restore it or delete it, then run "
                             "again")
    if out.version < 2:
        # version 1 kept a stale edit in the block itself: it is what the person had
        for block in out.blocks:
            if block.status == "stale" and block.was is None and not block.edited:
                block.was = Was(block.source, block.english, block.source_sha, "", "edited")
    return out


def parallel_header(line: str) -> dict[str, str] | None:
    """The attributes (``source``, ``engine``) of a parallel file's first line, decoded,
    when it is zhen's header; else None."""
    line = _clean(line)
    match = _MARKER.match(line) if _LOOKS_LIKE.match(line) else None
    if match is None or match.group("kind") != "parallel":
        return None
    return {k: comment_unsafe(v.strip('"')) for k, v in _ATTR.findall(match.group("attrs"))}


def read_parallel(text: str) -> list[ParallelBlock]:
    """The blocks of a parallel file (see :func:`read_parallel_file`)."""
    return read_parallel_file(text).blocks


# --------------------------------------------------------------------------- writing

def _quoted(label: str, text: str) -> list[str]:
    lines = [label, ">"] if label else []
    return lines + [("> " + line) if line.strip() else ">" for line in text.split("\n")]


def render_parallel_file(parallel: ParallelFile, unjoined: bool = False) -> "str | Pieces":
    """The parallel file's text (``\\n`` line endings); ``unjoined``: its lines not joined
    (a ``textutil.Pieces``, written a piece at a time)."""
    out = [f'<!-- zhen:parallel v{PARALLEL_VERSION} source="{comment_safe(parallel.source_name)}" '
           f'engine="{comment_safe(parallel.engine)}" -->', HELP_LINE, ""]
    for block in parallel.blocks:
        source = block.source
        if not source.strip():
            continue
        if block.same:
            out += [f"<!-- zhen:same {block.index} {block.lines} sha={block.source_sha} -->",
                    source, ""]
            continue
        attrs = f"sha={block_hash(block.english)}"
        attrs += f" base={block.base}" if block.base else ""
        attrs += f" status={block.status}" if block.status and block.status != "machine" else ""
        attrs += f" out={block.out_sha}" if block.out_sha else ""
        pieces = encode_pieces(block.unrendered)
        attrs += f" unrendered={pieces}" if pieces else ""
        attrs += f" terms={encode_terms(block.terms)}" if block.terms else ""
        out += [f"<!-- zhen:src {block.index} {block.lines} sha={block.source_sha} -->", source,
                f"<!-- zhen:en {block.index} {attrs} -->", block.english]
        if block.was is not None:
            was = block.was
            out.append(f"<!-- zhen:was-src {block.index} sha={was.source_sha} -->")
            if was.same_source and was.glossary:
                out.append(WAS_SAME_LABEL.format(was.glossary))
            else:
                out += _quoted(WAS_SRC_ALSO.format(was.glossary) if was.glossary else
                               WAS_SRC_LABEL, was.source)
            terms = f" terms={encode_terms(was.terms)}" if was.terms else ""
            out += [f"<!-- zhen:was-en {block.index} base={was.base} status={was.status}"
                    f"{terms} -->", *_quoted(WAS_EN_LABEL, was.english)]
        out.append("")
    if parallel.orphans:
        out += ["<!-- zhen:orphans -->", ORPHANS_HEADING, "", ORPHANS_HELP, ""]
        for orphan in parallel.orphans:
            out += [f"<!-- zhen:orphan-src {orphan.lines} sha={orphan.source_sha} -->",
                    *_quoted("", orphan.source),
                    f"<!-- zhen:orphan-en base={orphan.base} status={orphan.status} -->",
                    orphan.english, ""]
    return Pieces(out, "\n") if unjoined else "\n".join(out)


def set_status(text: str, indices: set[int], status: str) -> tuple[str, list[int]]:
    """``text`` with ``status`` on the ``en`` marker of each block in ``indices`` (only that
    marker's line changes, byte for byte everything else stays); also the blocks changed."""
    changed = []
    lines = re.split(r"(\r\n|\n|\r)", text)
    for k in range(0, len(lines), 2):
        line = _clean(lines[k])
        match = _MARKER.match(line) if _LOOKS_LIKE.match(line) else None
        if not match or match.group("kind") != "en" or int(match.group("index") or -1) not in indices:
            continue
        # status goes where the writer puts it (after sha and base), so a translate that
        # changes nothing writes this line back byte for byte
        words = [w for w in match.group("attrs").split() if not w.startswith("status=")]
        if status != "machine":
            at = max((i + 1 for i, w in enumerate(words) if w.startswith(("sha=", "base="))),
                     default=0)
            words.insert(at, f"status={status}")
        lines[k] = f"<!-- zhen:en {match.group('index')}{''.join(' ' + w for w in words)} -->"
        changed.append(int(match.group("index")))
    return "".join(lines), changed
