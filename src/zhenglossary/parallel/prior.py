"""What lies beside a note before ``zhen translate`` writes: the last parallel file and
``x.en.md``, read with care, with a person's changes to ``x.en.md`` taken into the parallel
file's blocks. Nothing here writes; a file zhen cannot read without guessing, or one it
did not write, stops that note (:class:`.format.ParallelFileError`, the file untouched).
``zhen status``, ``zhen mark`` and the exports start from the same reading, so they see a
block as the next translate will."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import NoteReadError
from ..findings import Finding
from ..notes import read_note
from .carry import EnglishEdits, carry_english
from .format import ParallelFile, ParallelFileError, read_parallel_file
from .outputs import is_zhens_parallel


@dataclass
class Prior:
    parallel: ParallelFile | None = None
    findings: list[Finding] = field(default_factory=list)
    carried: int = 0                  # x.en.md blocks taken in as edits
    english: EnglishEdits | None = None   # what a person changed in x.en.md (None: no file)


def load_parallel(path: Path) -> ParallelFile:
    """The parallel file at ``path``, read with care; :class:`ParallelFileError` (the file
    is left as it is) when it cannot be read without guessing."""
    try:
        text = read_note(path)
    except NoteReadError as exc:
        raise ParallelFileError(f"{exc.detail.split(';')[0]}; zhen keeps it untouched — save it "
                                "as UTF-8 (e.g. `iconv -f UTF-16 -t UTF-8`), then run again",
                                path=str(path)) from exc
    if text.strip() and not is_zhens_parallel(text):
        raise ParallelFileError("was not written by zhen (its first line is not zhen's "
                                "`<!-- zhen:parallel … -->` header); move it away, or pass "
                                "--force to replace it", path=str(path), line=1)
    return read_parallel_file(text, str(path))


def read_prior(en_path: Path, par_path: Path, force: bool = False) -> Prior:
    """The last outputs of a note. With ``force``, what cannot be read or carried is
    overwritten (said in a warning) instead of stopping the note."""
    prior = Prior()
    if par_path.exists():
        try:
            prior.parallel = load_parallel(par_path)
        except ParallelFileError as exc:
            if not force:
                raise
            prior.findings.append(Finding("output-replaced", "warning",
                                          f"{exc.detail}; replaced (--force): what it held is "
                                          "not kept", str(par_path), exc.line))
    if not en_path.exists():
        return prior
    try:
        text = read_note(en_path)
    except NoteReadError as exc:
        if not force:
            raise ParallelFileError(f"{exc.detail.split(';')[0]}; zhen does not write over a file "
                                    "it cannot read — move it away, or pass --force to replace "
                                    "it", path=str(en_path)) from exc
        prior.findings.append(Finding("output-replaced", "warning", "unreadable; replaced "
                                      "(--force)", str(en_path)))
        return prior
    edits = carry_english(prior.parallel, text)
    prior.english = edits
    if edits.foreign:
        if not force:
            raise ParallelFileError("was not written by zhen (no `<!-- zhen: English of … -->` "
                                    "header); zhen does not write over it — move it away, or "
                                    "pass --force to replace it", path=str(en_path), line=1)
        prior.findings.append(Finding("output-replaced", "warning", "was not written by zhen; "
                                      "replaced (--force)", str(en_path), 1))
        return prior
    if edits.problem:
        if not force:
            raise ParallelFileError(
                f"changed by hand since zhen wrote it, and {edits.problem}; zhen does not write "
                f"over it — make the change in {par_path.name} instead (or delete {en_path.name}), "
                "or pass --force to replace it", path=str(en_path), line=edits.line or None)
        prior.findings.append(Finding("output-replaced", "warning",
                                      f"changed by hand ({edits.problem}); replaced (--force)",
                                      str(en_path), edits.line or None))
    elif edits.edits and prior.parallel is not None:           # taken in by carry_english
        prior.carried = len(edits.edits)
        blocks = ", ".join(str(k) for k in sorted(edits.edits))
        prior.findings.append(Finding(
            "english-carried", "info",
            f"changed by hand: block(s) {blocks} taken into {par_path.name} as edits (the "
            "parallel file is where zhen keeps them)", str(en_path), None,
            extra={"blocks": sorted(edits.edits)}))
    elif edits.outside:
        prior.findings.append(Finding(
            "output-replaced", "warning",
            "changed by hand between blocks (blank lines, the banner); only the blocks are "
            f"kept, in {par_path.name}, so those changes are replaced", str(en_path), None))
    return prior
