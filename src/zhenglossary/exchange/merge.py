"""Merging an imported glossary into ``glossary.yaml``: sort the entries into new, identical
and conflicting (``merge``), then append the new ones, keeping every byte of the file
(``apply_merge``). Nothing is ever overwritten."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import GlossaryError
from ..fileio import write_atomic
from ..glossary import Glossary, Term, entry_yaml, load_glossary_text, read_glossary_file
from ..textutil import printable
from .entries import Candidate

NEW_GLOSSARY = "# zhen glossary, schema v1.\nsource: zh\ntarget: en\nterms:\n"


@dataclass
class Skipped:
    candidate: Candidate
    reason: str

    def to_json(self) -> dict:
        return {**self.candidate.to_json(), "reason": self.reason}


@dataclass
class Conflict:
    kind: str              # different-en | new-form | forbid-differs | import-disagrees
    form: str              # the Chinese form in question
    incoming: Candidate
    existing_en: str | None
    glossary_line: int | None       # line of the glossary entry (None: between import lines)
    message: str
    other_line: int | None = None   # import-disagrees: the other line of the import file

    def to_json(self) -> dict:
        return {"kind": self.kind, "form": self.form, "incoming_en": self.incoming.en,
                "existing_en": self.existing_en, "glossary_line": self.glossary_line,
                "import_line": self.incoming.line, "other_import_line": self.other_line,
                "message": self.message, "incoming": self.incoming.to_json()}


@dataclass
class MergeReport:
    added: list[Candidate] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)   # checks the added entries would trip

    def to_json(self) -> dict:
        return {"added": [c.to_json() for c in self.added],
                "skipped": [s.to_json() for s in self.skipped],
                "conflicts": [c.to_json() for c in self.conflicts],
                "warnings": self.warnings,
                "summary": {"added": len(self.added), "skipped": len(self.skipped),
                            "conflicts": len(self.conflicts)}}


def merge(glossary: Glossary, candidates: list[Candidate]) -> MergeReport:
    """Sort ``candidates`` into new entries, entries the glossary already has, and conflicts.

    Nothing is overwritten: a conflict is reported, never applied. Conflicts are

    * ``different-en`` — a Chinese form (zh or variant) the glossary renders differently;
    * ``new-form`` — an entry mixing forms the glossary has with forms it lacks (the new forms
      belong in that entry's ``variants``, which only a person should edit);
    * ``forbid-differs`` — an entry the glossary has, with ``forbid`` renderings it lacks;
    * ``import-disagrees`` — two entries of the import file render one form differently
      (neither is applied).

    An entry whose every form the glossary already maps to the same English is skipped as
    identical, whichever entry of the glossary holds each form; so is an entry repeating an
    earlier one of the same import.
    """
    report = MergeReport()
    gpath = glossary.path
    existing = glossary.form_map
    incoming_en: dict[str, list[Candidate]] = {}
    for cand in candidates:
        for form in cand.forms:
            incoming_en.setdefault(form, []).append(cand)
    disagree: dict[int, Conflict] = {}
    for form, cands in incoming_en.items():
        if len({c.en for c in cands}) > 1:
            for c in cands:
                other = next(o for o in cands if o.en != c.en)
                disagree.setdefault(id(c), Conflict(
                    "import-disagrees", form, c, None, None,
                    f"{form}: the import file gives two English renderings, {c.en!r} "
                    f"({c.where}) and {other.en!r} ({other.where}); neither is imported — "
                    "keep one in the file", other.line))
    pending: dict[str, Candidate] = {}
    for cand in candidates:
        if id(cand) in disagree:
            report.conflicts.append(disagree[id(cand)])
            continue
        known = {f: existing[f] for f in cand.forms if f in existing}
        differing = [(f, t) for f, t in known.items() if t.en != cand.en]
        if differing:
            form, term = differing[0]
            line = term.form_lines.get(form, (term.line, 0))[0] or term.line
            where = "" if form == term.zh else f" (a variant of {term.zh})"
            report.conflicts.append(Conflict(
                "different-en", form, cand, term.en, line,
                f"{form}{where}: the glossary has {term.en!r} ({gpath}:{line}), the import has "
                f"{cand.en!r} ({cand.where}); not imported — change one of them by hand"))
            continue
        new_forms = [f for f in cand.forms if f not in existing]
        if known and new_forms:
            term = next(iter(known.values()))
            report.conflicts.append(Conflict(
                "new-form", new_forms[0], cand, term.en, term.line,
                f"{', '.join(new_forms)}: the import makes {'them' if len(new_forms) > 1 else 'it'}"
                f" a form of {term.en!r} ({cand.where}), which the glossary entry {term.zh} "
                f"({gpath}:{term.line}) has; not imported — add {', '.join(new_forms)} to that "
                "entry's variants by hand"))
            continue
        if known:
            terms = list(dict.fromkeys(known.values()))
            have = {f for t in terms for f in t.forbid}
            extra = [f for f in cand.forbid if f not in have]
            if extra:
                term = terms[0]
                report.conflicts.append(Conflict(
                    "forbid-differs", cand.zh, cand, term.en, term.line,
                    f"{cand.zh}: the import ({cand.where}) also forbids "
                    f"{', '.join(map(repr, extra))}, the glossary entry {term.zh} "
                    f"({gpath}:{term.line}) does not; not imported — add it to that entry's "
                    "forbid by hand"))
                continue
            holders = ", ".join(f"{t.zh} ({gpath}:{t.line})" for t in terms)
            report.skipped.append(Skipped(cand, f"already in the glossary: {holders}"))
            continue
        earlier = next((pending[f] for f in cand.forms if f in pending), None)
        if earlier is not None:
            if all(f in pending for f in cand.forms) and set(cand.forbid) <= set(earlier.forbid):
                report.skipped.append(Skipped(cand, f"repeats {earlier.where}"))
            else:
                report.conflicts.append(Conflict(
                    "import-disagrees", cand.zh, cand, earlier.en, None,
                    f"{cand.zh}: {cand.where} and {earlier.where} list overlapping Chinese forms "
                    "differently; only the first is imported — merge them in the file",
                    earlier.line))
            continue
        for form in cand.forms:
            pending[form] = cand
        report.added.append(cand)
    if report.added:
        report.warnings = _new_warnings(glossary, report.added)
    return report


def _new_warnings(glossary: Glossary, added: list[Candidate]) -> list[str]:
    """The ``forbid-conflict`` warnings the added entries would bring (a forbid of one entry
    that another entry's English contains: a sentence with both can never pass). Only pairs
    involving a new entry are checked, so this costs nothing on a large glossary."""
    from ..english import normalize_english
    from ..textutil import whole_phrase_re

    out: list[str] = []
    new_terms = [c.to_term() for c in added]
    everyone = [*glossary.terms, *new_terms]

    def check(term: Term, others: list[Term]) -> None:
        for phrase in term.forbid:
            if normalize_english(phrase) == normalize_english(term.en):
                continue
            pattern = whole_phrase_re(phrase)
            for other in others:
                if other is not term and pattern.search(other.en):
                    out.append(f"{term.zh} forbids {phrase!r}, but {other.zh} must be rendered "
                               f"{other.en!r}; a sentence with both terms cannot pass")

    for term in new_terms:
        check(term, everyone)
    for term in glossary.terms:
        if term.forbid:
            check(term, new_terms)
    return list(dict.fromkeys(out))


def _scalar_ends(node, out: list) -> None:
    import yaml

    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            _scalar_ends(key, out)
            _scalar_ends(value, out)
    elif isinstance(node, yaml.SequenceNode) and not node.flow_style:
        for item in node.value:
            _scalar_ends(item, out)
    else:
        out.append(node.end_mark)


def append_terms(text: str, candidates: list[Candidate], comment: str | None = None,
                 path: str = "glossary.yaml") -> str:
    """``text`` with ``candidates`` appended to the end of its ``terms:`` list. Every byte
    before the insertion point (the end of the last entry's last line) is kept, and so is
    everything after it (trailing comments, later keys)."""
    import yaml

    if not candidates:
        return text
    newline = "\r\n" if "\r\n" in text else "\n"
    body = text[1:] if text.startswith("\ufeff") else text
    bom = text[:len(text) - len(body)]
    try:
        root = yaml.compose(body, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        raise GlossaryError(f"cannot be read as YAML ({exc}); run `zhen glossary check`",
                            path=path) from exc
    terms = None
    if isinstance(root, yaml.MappingNode):
        for key, value in root.value:
            if isinstance(key, yaml.ScalarNode) and key.value == "terms":
                terms = (key, value)
    if terms is None:
        raise GlossaryError("has no top-level `terms:` list to append to; add `terms:` (see "
                            "the README)", path=path)
    key, seq = terms
    dash_col, key_col = key.start_mark.column + 2, None
    if isinstance(seq, yaml.SequenceNode) and seq.value and not seq.flow_style:
        dash_col = seq.start_mark.column
        if isinstance(seq.value[0], yaml.MappingNode):
            key_col = seq.value[0].start_mark.column
        ends: list = []
        _scalar_ends(seq.value[-1], ends)
        end = max(ends, key=lambda m: m.index)
    elif isinstance(seq, yaml.ScalarNode) and seq.tag == "tag:yaml.org,2002:null":
        end = key.end_mark
    else:
        raise GlossaryError("writes `terms` in flow style ([...]); write it as a block list "
                            "(one `- zh:` entry per line group, as in the README) to import "
                            "into it", path=path)
    pos = end.index
    if end.column != 0 or pos == 0:
        nl = body.find("\n", pos)
        pos = len(body) if nl < 0 else nl + 1
    before, after = body[:pos], body[pos:]
    if before and not before.endswith("\n"):
        before += newline
    block = "".join(entry_yaml(c, dash_col, key_col, newline) for c in candidates)
    if comment:                            # it names a file: one line, nothing unprintable
        block = " " * dash_col + "# " + printable(" ".join(comment.split())) + newline + block
    return bom + before + block + after


def _same_terms(old: list[Term], new: list[Term]) -> bool:
    fields = ("zh", "en", "variants", "forbid", "note", "tags")
    key = lambda t: tuple(getattr(t, f) for f in fields)    # noqa: E731
    return [key(t) for t in old] == [key(t) for t in new[:len(old)]]


def load_for_merge(path: Path) -> tuple[Glossary, str]:
    """The glossary at ``path`` and its exact text, refusing one with errors (as
    ``load_glossary(strict=True)`` does). A path that does not exist is a new, empty glossary
    (text ``""``)."""
    path = Path(path)
    if not path.exists() and not path.is_symlink():
        return Glossary([], str(path)), ""
    if path.is_dir():
        raise GlossaryError("is a directory; pass the glossary YAML file itself", path=str(path))
    text = read_glossary_file(path, exact=True)
    glossary = load_glossary_text(text.removeprefix("\ufeff"), str(path))
    if glossary.errors:
        first = glossary.errors[0]
        raise GlossaryError(f"{first.message} (run `zhen glossary check` for all problems; fix "
                            "the glossary before importing into it)", path=str(path),
                            line=first.line, column=first.column)
    return glossary, text


def apply_merge(path: Path, text: str, report: MergeReport, comment: str | None = None,
                glossary: Glossary | None = None) -> Glossary | None:
    """Append ``report.added`` to the glossary at ``path`` whose text was ``text`` when it was
    merged (an empty string: a new file; ``glossary``: what that text loaded as, to save loading
    it again). The result is loaded and checked *before* anything is written: nothing is
    written when there is nothing to add, when the result would not load without errors or
    would change an existing entry, or when the file changed meanwhile (the last two raise
    GlossaryError). Returns the new glossary as it loads from the written file (None: nothing
    written)."""
    path = Path(path)
    if not report.added:
        return None
    base = text or NEW_GLOSSARY
    if not text:
        old = []
    elif glossary is not None:
        old = glossary.terms
    else:
        old = load_glossary_text(base.removeprefix("\ufeff"), str(path)).terms
    new_text = append_terms(base, report.added, comment, str(path))
    check = load_glossary_text(new_text.lstrip("\ufeff"), str(path))
    if check.errors or not _same_terms(old, check.terms) \
            or len(check.terms) != len(old) + len(report.added):
        first = check.errors[0].message if check.errors else "the existing entries would change"
        raise GlossaryError(f"importing would break the glossary ({first}); nothing was written",
                            path=str(path))
    current = read_glossary_file(path, exact=True) if path.exists() else ""
    if current != text:
        raise GlossaryError("changed while importing; nothing was written — run the import "
                            "again", path=str(path))
    write_atomic(path, new_text, through_links=True)      # a linked glossary.yaml stays linked
    if read_glossary_file(path, exact=True) != new_text:         # what a later load_glossary will read
        raise GlossaryError("was not written as expected; check the file and the disk",
                            path=str(path))
    return check
