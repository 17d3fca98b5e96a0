"""Finding and reading the user's notes: never writes them, explains every refusal."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from .errors import NoNotesFound, NoteReadError, PathNotFound

# the outputs of x.md (parallel.Layout names them): never notes themselves
ENGLISH_SUFFIX = ".en.md"
PARALLEL_SUFFIX = ".zh-en.md"
GENERATED_SUFFIXES = (ENGLISH_SUFFIX, PARALLEL_SUFFIX)
MAX_NOTE_BYTES = 64 * 1024 * 1024


def is_generated(path: Path) -> bool:
    return path.name.endswith(GENERATED_SUFFIXES)


def is_note(path: Path) -> bool:
    return path.suffix == ".md" and not is_generated(path)


@dataclass(frozen=True)
class NoteFile:
    path: Path          # as found on disk
    root: Path          # the PATH argument it was found under (a directory, or the file's parent)

    @property
    def display(self) -> str:
        return str(self.path)


def walk_folders(top: Path):
    """(folder, file names) under ``top``, sorted, as zhen looks for notes: hidden
    directories skipped, symlinked directories not followed (no loops)."""
    for folder, dirs, files in os.walk(top, followlinks=False):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        yield Path(folder), sorted(files)


def collect_notes(paths: list[Path]) -> list[NoteFile]:
    """Every note under ``paths``: files as given, directories walked for ``*.md``.

    Generated ``*.en.md`` / ``*.zh-en.md`` files and hidden directories are skipped; symlinked
    directories are not followed (no loops). A missing path or a directory without notes is an
    error that names it.
    """
    out: list[NoteFile] = []
    seen: set[Path] = set()
    for given in paths:
        if not given.exists() and not given.is_symlink():
            raise PathNotFound(f"{given} does not exist; pass a note (.md) or a directory of notes")
        if given.is_dir():
            found = [folder / name for folder, files in walk_folders(given) for name in files
                     if is_note(folder / name)]
            if not found:
                raise NoNotesFound(
                    f"{given} holds no Markdown notes (*.md, not counting generated *.en.md and "
                    "*.zh-en.md); pass the directory your notes are in")
            for path in found:
                key = Path(os.path.realpath(path))      # never raises on symlink loops
                if key not in seen:
                    seen.add(key)
                    out.append(NoteFile(path, given))
        else:
            key = Path(os.path.realpath(given))
            if key not in seen:
                seen.add(key)
                out.append(NoteFile(given, given.parent))
    return out


def decode_note(raw: bytes, display: str, encoding: str | None = None) -> str:
    """Bytes → text. UTF-8 (a BOM is dropped); anything else is refused with the fix."""
    if encoding:
        try:
            text = raw.decode(encoding)
        except (UnicodeDecodeError, LookupError) as exc:
            raise NoteReadError(f"cannot decode as {encoding}: {exc}", path=display) from exc
        return text.lstrip("\ufeff")
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise NoteReadError(
            "is UTF-16; zhen reads UTF-8 notes. Convert it with "
            f"`iconv -f UTF-16 -t UTF-8 {display} > converted.md`, or pass --encoding utf-16",
            path=display)
    if b"\x00" in raw:
        if _looks_utf16(raw):
            raise NoteReadError(
                "looks like UTF-16 without a byte-order mark; zhen reads UTF-8 notes. Convert it "
                f"with `iconv -f UTF-16LE -t UTF-8 {display} > converted.md` (or UTF-16BE), or "
                "pass --encoding utf-16-le", path=display)
        try:
            raw.decode("utf-8")
            line = raw[:raw.index(b"\x00")].count(b"\n") + 1
            raise NoteReadError(
                f"contains {raw.count(0)} NUL byte(s), the first on line {line}; remove them, e.g. "
                f"`tr -d '\\000' < {display} > cleaned.md`", path=display)
        except UnicodeDecodeError:
            raise NoteReadError("looks binary (NUL bytes, not UTF-8 text); is it really a "
                                "Markdown note?", path=display) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        hint = ""
        try:
            raw.decode("gb18030")
            hint = (" It decodes as GBK/GB18030, common for Chinese text: convert it with "
                    f"`iconv -f GB18030 -t UTF-8 {display} > converted.md`, or pass --encoding gb18030.")
        except UnicodeDecodeError:
            hint = " Re-save it as UTF-8 in your editor."
        raise NoteReadError(f"line {line} is not valid UTF-8 (byte offset {exc.start}).{hint}",
                            path=display) from exc


def _looks_utf16(raw: bytes) -> bool:
    """Text in UTF-16 without a BOM: decodes cleanly to printable characters."""
    sample = raw[:8192] if len(raw) % 2 == 0 else raw[:8191]
    sample = sample[:len(sample) // 2 * 2]
    for codec in ("utf-16-le", "utf-16-be"):
        try:
            text = sample.decode(codec)
        except UnicodeDecodeError:
            continue
        printable = sum(ch.isprintable() or ch in "\r\n\t" for ch in text)
        if text and printable / len(text) > 0.95:
            return True
    return False


def read_note(path: Path, encoding: str | None = None) -> str:
    display = str(path)
    try:
        size = path.stat().st_size
        if size > MAX_NOTE_BYTES:
            raise NoteReadError(f"is {size // (1024 * 1024)} MB; zhen reads notes up to "
                                f"{MAX_NOTE_BYTES // (1024 * 1024)} MB", path=display)
        with open(path, "rb") as handle:
            raw = handle.read()
    except IsADirectoryError as exc:
        raise NoteReadError("is a directory, not a note", path=display) from exc
    except OSError as exc:
        raise NoteReadError(f"cannot be read: {exc.strerror}; check that it exists and that you "
                            "may read it", path=display) from exc
    return decode_note(raw, display, encoding)
