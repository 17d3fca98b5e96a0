"""What zhen writes beside a note, and how it knows a file is its own.

``x.md`` → ``x.en.md`` (the English) and ``x.zh-en.md`` (the parallel file) beside it, or
under ``--out-dir`` at the note's path from the project root — the folder of glossary.yaml,
else the current directory — whatever path named the note on the command line; a note
outside the project goes in ``--out-dir`` under its own name (:class:`Layout`). Both
headers name the note the outputs were written for by its path from the output's folder
(:meth:`Layout.source_ref`: ``x.md`` beside it), so an output of one note is never taken
for another's (``prior.read_prior``) and one whose note is gone is found (``strays.py``).

``x.en.md`` opens with one HTML comment, the header (after a leading front matter block,
which must stay first). It names the source and the engine and carries ``sha=``, a hash of
everything else in the file, so zhen can tell its own unchanged output (overwritten freely)
from one a person changed (whose changes are carried into the parallel file, or the write
is refused: see :mod:`.carry`) and from a file zhen never wrote (no header: refused unless
``--force``). Every name written into a comment goes through :func:`comment_safe`, so a
file name holding ``-->`` cannot end the comment.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable
from urllib.parse import unquote

from ..notes import ENGLISH_SUFFIX, PARALLEL_SUFFIX

GLOSS_BANNER = ("> **Dictionary gloss, not machine translation.** No Chinese→English model is "
                "installed, so zhen wrote this English word by word from a dictionary. For machine "
                "translation run `zhen model install` (or `zhen model install --file "
                "translate-zh_en.argosmodel`), then `zhen translate` again.")

ENGLISH_HEADER_START = "<!-- zhen: English of "
PARALLEL_HEADER_START = "<!-- zhen:parallel "


@dataclass(frozen=True)
class Layout:
    """Where the outputs of notes are: beside each note (``out_dir`` None), or under
    ``out_dir`` mirroring the note's path from ``project`` (the project root)."""

    out_dir: Path | None = None
    project: Path = Path(".")

    def paths(self, note: Path) -> tuple[Path, Path]:
        """(x.en.md, x.zh-en.md) of the note ``note``."""
        base = note.name[:-len(".md")] if note.name.endswith(".md") else note.name
        if self.out_dir is None:
            folder = note.parent
        else:
            inside = self.inside(note)
            folder = self.out_dir if inside is None else self.out_dir / inside.parent
        return folder / f"{base}{ENGLISH_SUFFIX}", folder / f"{base}{PARALLEL_SUFFIX}"

    def inside(self, note: Path) -> Path | None:
        """``note``'s path from the project root; None when it lies outside it."""
        try:
            relative = Path(os.path.relpath(os.path.abspath(note), os.path.abspath(self.project)))
        except ValueError:                          # another drive
            return None
        return None if relative.parts[:1] == ("..",) else relative

    def note_of(self, output: Path) -> Path | None:
        """The note in the project whose output ``output`` is by its place (the parallel
        file's or x.en.md's name and folder), or None (not an output name, or not under
        ``out_dir``). Whether that note exists is the caller's question."""
        name = output.name
        suffix = next((s for s in (PARALLEL_SUFFIX, ENGLISH_SUFFIX) if name.endswith(s)), None)
        if suffix is None or name == suffix:
            return None
        note = name[:-len(suffix)] + ".md"
        if self.out_dir is None:
            return output.parent / note
        try:
            relative = Path(os.path.relpath(os.path.abspath(output.parent),
                                            os.path.abspath(self.out_dir)))
        except ValueError:
            return None
        if relative.parts[:1] == ("..",):
            return None
        return Path(os.path.normpath(self.project / relative / note))

    @staticmethod
    def source_ref(note: Path, output: Path) -> str:
        """What the headers of ``output`` say of the note they were written for: its path
        from the output's folder (``x.md`` beside it), ``/``-separated."""
        try:
            return Path(os.path.relpath(os.path.abspath(note),
                                        os.path.abspath(output.parent))).as_posix()
        except ValueError:                          # another drive: the whole path
            return Path(os.path.abspath(note)).as_posix()

    @staticmethod
    def source_named(output: Path, ref: str) -> Path | None:
        """The note ``ref`` (a header's ``source``) names, for the output ``output``."""
        if not ref:
            return None
        return Path(os.path.normpath(output.parent / ref))


def same_file(a: Path, b: Path) -> bool:
    """``a`` and ``b`` are one file (both exist and are the same), or name one path."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


_COMMENT_UNSAFE = {"%": "%25", '"': "%22", "<": "%3C", ">": "%3E", "&": "%26"}


def comment_safe(value: str) -> str:
    """``value`` safe inside an HTML comment and a double-quoted attribute: ``%``, ``"``,
    ``<``, ``>``, ``&``, control characters and the second ``-`` of every ``--`` are
    percent-encoded (so ``-->`` cannot end the comment); :func:`comment_unsafe` undoes it."""
    out = []
    for ch in value:
        if ch in _COMMENT_UNSAFE:
            out.append(_COMMENT_UNSAFE[ch])
        elif ch == "-" and out and out[-1].endswith("-"):
            out.append("%2D")
        elif not ch.isprintable():
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8")))
        else:
            out.append(ch)
    return "".join(out)


def comment_unsafe(value: str) -> str:
    return unquote(value, errors="replace")


def body_hash(text: str) -> str:
    """The ``sha=`` of ``x.en.md``'s header: a hash of the file without its header line."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def english_header(source_name: str, engine: str, parallel_name: str, sha: str = "") -> str:
    """The header line of ``x.en.md`` (``sha``: :func:`body_hash` of the rest)."""
    seal = f" sha={sha}" if sha else ""
    return (f"{ENGLISH_HEADER_START}{comment_safe(source_name)}, engine: {comment_safe(engine)}. "
            f"Generated file: edit {comment_safe(parallel_name)} instead.{seal} -->")


_NEWLINE = re.compile(r"\r\n|\n|\r")
_SOURCE = re.compile(re.escape(ENGLISH_HEADER_START) + r"(?P<source>.*?), engine: ")


def english_source(header: str) -> str | None:
    """The note ``x.en.md``'s header line names (as :func:`english_header` wrote it, a path
    from the file's folder), or None when it is not zhen's header."""
    match = _SOURCE.match(header)
    return comment_unsafe(match.group("source")) if match else None


def _front_matter_end(text: str) -> int:
    """Offset just after a leading YAML/TOML front matter block, 0 if none."""
    if not text.startswith(("---", "+++")):
        return 0
    from ..markdown import parse_note

    tokens, _ = parse_note(text)
    if not tokens or tokens[0].type != "front_matter" or not tokens[0].map:
        return 0
    ends = [m.end() for m in _NEWLINE.finditer(text)]
    last = tokens[0].map[1]
    return ends[last - 1] if last <= len(ends) else len(text)


@dataclass
class EnglishFile:
    """``x.en.md`` split: ``header`` is zhen's header line ("" when there is none), ``body``
    the file without it (front matter included), ``sha`` what the header says of the body,
    ``front`` where in ``body`` the header stood (after a leading front matter block, else 0)."""

    header: str
    body: str
    sha: str
    front: int = 0

    @property
    def text(self) -> str:
        """The file again, its header back where it stood: after the front matter, not
        above it (what :func:`english_body` reads, given ``front``)."""
        if not self.header:
            return self.body
        return self.body[:self.front] + self.header + "\n" + self.body[self.front:]

    @property
    def zhens(self) -> bool:
        """Written by zhen (it carries zhen's header)."""
        return bool(self.header)

    @property
    def changed(self) -> bool:
        """Changed since zhen wrote it (a header without ``sha=`` — older zhen — counts as
        possibly changed: the caller compares block by block)."""
        return not self.sha or body_hash(self.body) != self.sha


def split_english(text: str, front: int | None = None) -> EnglishFile:
    """``x.en.md`` split at its header (``front``: where a leading front matter block ends,
    when the caller knows; else found by parsing)."""
    cut = _front_matter_end(text) if front is None else front
    rest = text[cut:]
    if not rest.startswith(ENGLISH_HEADER_START):
        return EnglishFile("", text, "")
    end = _NEWLINE.search(rest)
    line = rest[:end.start()] if end else rest
    after = rest[end.end():] if end else ""
    sha = re.search(r" sha=([0-9a-f]+) -->$", line)
    return EnglishFile(line, text[:cut] + after, sha.group(1) if sha else "", cut)


def sealed_header(header: str, body: Iterable[str]) -> str:
    """``header`` (x.en.md's header line, without ``sha=``) with the ``sha=`` of the body
    given in parts (the file without its header line: :func:`body_hash`, not joined)."""
    digest = hashlib.sha256()
    for part in body:
        digest.update(part.encode("utf-8"))
    return header[:-len(" -->")] + f" sha={digest.hexdigest()[:16]} -->"


def seal_english(text: str, front: int | None = None) -> str:
    """``text`` (x.en.md as rendered, its header without ``sha=``) with ``sha=`` in it:
    what :func:`split_english` would give as its header and body, found in place (the
    body's hash taken in slices, not of a copy of it)."""
    cut = _front_matter_end(text) if front is None else front
    if not text.startswith(ENGLISH_HEADER_START, cut):
        return text
    end = _NEWLINE.search(text, cut)
    header = text[cut:end.start()] if end else text[cut:]
    digest = hashlib.sha256(text[:cut].encode("utf-8"))
    for start in range(end.end() if end else len(text), len(text), _SLICE):
        digest.update(text[start:start + _SLICE].encode("utf-8"))
    sealed = header[:-len(" -->")] + f" sha={digest.hexdigest()[:16]} -->"
    return text[:cut] + sealed + text[cut + len(header):]


_SLICE = 1 << 20     # characters of a long text encoded at a time to hash it


def english_body(text: str, front: int | None = None) -> str:
    """``x.en.md`` without what zhen puts above the note: the header line and the gloss
    banner, found at the top or right after a leading front matter block (which is kept).
    ``front``: where that front matter ends, when the caller knows it (zhen copies the
    note's front matter verbatim), so the text need not be parsed to find it."""
    cut = _front_matter_end(text) if front is None else front
    front, text = text[:cut], text[cut:]
    if text.startswith("<!-- zhen:"):
        end = _NEWLINE.search(text)
        text = text[end.end():] if end else ""
    if text.startswith(GLOSS_BANNER):
        text = text[len(GLOSS_BANNER):]
        for _ in range(2):
            text = text[2:] if text.startswith("\r\n") else text[1:] if text[:1] in "\r\n" else text
    return front + text


def is_zhens_parallel(text: str) -> bool:
    """A parallel file zhen wrote: its first line (after a BOM, spaces) is zhen's header."""
    first = text.lstrip("\ufeff \t").split("\n", 1)[0]
    return bool(re.match(r"<!--\s*zhen:parallel\b", first))
