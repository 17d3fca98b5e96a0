"""What lies beside a note before ``zhen translate`` writes: the last parallel file and
``x.en.md``, read with care, with a person's changes to ``x.en.md`` taken into the parallel
file's blocks. Nothing here writes; a file zhen cannot read without guessing, one it did not
write, or — under ``--out-dir`` — one whose header names another note that is still there,
stops that note (:class:`.format.ParallelFileError`, the file untouched). ``zhen status``,
``zhen mark``, the checks and the exports start from the same reading, so they see a block
as the next translate will."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import NoteReadError
from ..findings import Finding
from ..notes import read_note
from .carry import EnglishEdits, carry_english
from .format import ParallelFile, ParallelFileError, read_parallel_file
from .outputs import Layout, english_source, is_zhens_parallel, same_file, split_english


@dataclass
class Prior:
    parallel: ParallelFile | None = None
    findings: list[Finding] = field(default_factory=list)
    carried: int = 0                  # x.en.md blocks taken in as edits
    banner_deleted: Finding | None = None   # said if the gloss banner is written again
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


def read_prior(en_path: Path | None, par_path: Path, force: bool = False,
               note: Path | None = None) -> Prior:
    """The last outputs of a note. With ``force``, what cannot be read or carried is
    overwritten (said in a warning) instead of stopping the note. ``note``: the note they
    are to be for, when their place alone does not say it (``--out-dir``): outputs whose
    header names another note that is still there are that note's, never taken over."""
    prior = Prior()
    if par_path.exists():
        try:
            prior.parallel = load_parallel(par_path)
            if note is not None:
                _owned_by(note, par_path, prior.parallel.source_name)
        except ParallelFileError as exc:
            if not force:
                raise
            prior.parallel = None
            prior.findings.append(Finding("output-replaced", "warning",
                                          f"{exc.detail}; replaced (--force): what it held is "
                                          "not kept", str(par_path), exc.line))
    if en_path is None or not en_path.exists():
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
    if not text.strip():
        prior.english = EnglishEdits()
        return prior                      # empty (an empty note's): nothing in it to keep
    english = split_english(text)
    if english.zhens and note is not None and prior.parallel is None:
        try:
            _owned_by(note, en_path, english_source(english.header) or "")
        except ParallelFileError as exc:
            if not force:
                raise
            prior.findings.append(Finding("output-replaced", "warning",
                                          f"{exc.detail}; replaced (--force)", str(en_path), 1))
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
        return prior
    if edits.edits and prior.parallel is not None:           # taken in by carry_english
        prior.carried = len(edits.edits)
        blocks = ", ".join(str(k) for k in sorted(edits.edits))
        prior.findings.append(Finding(
            "english-carried", "info",
            f"changed by hand: block(s) {blocks} taken into {par_path.name} as edits (the "
            "parallel file is where zhen keeps them)" + (
                f"; the change to block(s) {', '.join(map(str, edits.replaced))} replaces "
                f"the English written for it in {par_path.name} that failed the output check "
                "(not kept)" if edits.replaced else ""), str(en_path), None,
            extra={"blocks": sorted(edits.edits), "replaced": edits.replaced}))
    if edits.outside == "between":
        prior.findings.append(Finding(
            "output-replaced", "warning",
            "changed by hand between blocks (blank lines, line endings, the banner); only the "
            f"blocks are kept, in {par_path.name}, so those changes are replaced",
            str(en_path), None))
    elif edits.outside == "banner":
        # the banner says what this English is; it comes back while the English is a gloss
        prior.banner_deleted = Finding(
            "output-replaced", "warning",
            "the \"Dictionary gloss\" banner was deleted by hand; zhen writes it again while "
            "this English is a dictionary gloss, so every reader knows what it is — `zhen "
            "model install` (machine translation) makes it go", str(en_path),
            english.body[:english.front].count("\n") + 2)        # its line: below the header
    return prior


def _owned_by(note: Path, output: Path, source: str) -> None:
    """Refuse ``output`` when its header (``source``) names a note other than ``note`` that
    is still there: two notes' outputs met in one place, and they are the other's."""
    named = Layout.source_named(output, source)
    if named is None or not named.is_file() or same_file(named, note):
        return
    raise ParallelFileError(
        f"holds the outputs of {named} (its header names it), which is still there; zhen does "
        f"not write those of {note} over them — translate {note} with another --out-dir (or "
        f"move {output.name} away, or pass --force to replace it)", path=str(output), line=1)
