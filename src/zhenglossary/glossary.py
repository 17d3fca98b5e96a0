"""The glossary: schema v1, loading with line numbers, validation findings, matching.

Schema v1 (``glossary.yaml``)::

    source: zh
    target: en
    forbid: [number crunching]       # optional: English banned in every note
    terms:
      - zh: 混合精度                 # required
        en: mixed precision          # required: the one English form translations use
        variants: [混合精度计算]      # optional: other Chinese forms locked to the same en
        forbid: [hybrid precision]   # optional: English that must not render this term
                                     # (checked where the term occurs, terms.forbidden)
        plural: false                # optional: its plural (plural: matrices), or false
                                     # for none; default: English morphology (terms.py)
        note: free text              # optional
        tags: [ml, quantization]     # optional

Loading never executes YAML tags and refuses anchors/aliases (so a "billion laughs"
glossary costs nothing). Problems in the file are *findings* with file:line:column,
so ``zhen glossary check`` can list all of them; ``load_glossary(strict=True)`` raises
:class:`GlossaryError` on the first error instead, for commands that need a usable
glossary.

Matching rule (documented in the README): scanning left to right, at each position the
longest Chinese form (``zh`` or a variant) that starts there wins, and matches never
overlap. A form whose first or last character is a Latin letter or digit only matches
where the neighbouring character is not one, so ``GPU内存`` never matches inside
``XGPU内存``.

Reading the file (``read_glossary_file``, also for the TBX/TSV/CSV files `zhen glossary
import` reads) and writing entries (``entry_yaml``, for import and suggest) live here too:
this module is the one owner of the glossary file.

Why this module is long: schema, loader, validation, matching, reader and entry writer are
one concept (the glossary file) and share its types; each part is a few short functions.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Iterable, Iterator, Mapping

import yaml

from .errors import GlossaryError, GlossaryNotFound, UsageError
from .findings import Finding
from .english import normalize_english
from .textutil import CJK_CLASS, has_cjk, whole_phrase_re

GLOSSARY_NAME = "glossary.yaml"
# libyaml's parser when PyYAML has it (about 10x faster); both are safe loaders
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
TERM_KEYS = ("zh", "en", "variants", "forbid", "plural", "note", "tags")
TOP_KEYS = ("source", "target", "forbid", "terms")
MAX_GLOSSARY_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True)
class Term:
    zh: str
    en: str
    variants: tuple[str, ...] = ()
    forbid: tuple[str, ...] = ()
    note: str = ""
    tags: tuple[str, ...] = ()
    line: int = 0
    form_lines: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False,
                                                   hash=False, repr=False)
    # (line, column) of "en" and of each "forbid:<phrase>", for findings naming both lines
    positions: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False,
                                                  hash=False, repr=False)
    # the English plurals (terms.py): None = English morphology decides, () = none
    plurals: tuple[str, ...] | None = field(default=None, compare=False)

    @property
    def forms(self) -> tuple[str, ...]:
        return (self.zh, *self.variants)

    def forbid_patterns(self) -> list[tuple[str, re.Pattern[str]]]:
        return [(phrase, whole_phrase_re(phrase)) for phrase in self.forbid]

    def rendering_key(self) -> tuple:
        """What of this entry decides how a text using it is rendered and checked (not its
        note, tags or line): machine English is made again when this changes."""
        return (self.zh, self.en, self.variants, self.forbid, self.plurals)

    def english_key(self) -> tuple:
        """What of this entry a person's English is written against: its Chinese forms, its
        English and plurals. Not its ``forbid``, which that English is checked against
        rather than hashed with (a new forbid finds the English that breaks it; the rest
        keeps its review), nor its note, tags or line: a review or an edit of a block
        holding the term goes stale when this changes (``parallel.status``)."""
        return (self.zh, self.en, self.variants, self.plurals)


@dataclass(frozen=True)
class Match:
    start: int
    end: int
    form: str
    term: Term


# a soft line break between two Chinese characters, as prose_view shows it (the container
# prefix of the next line blanked); two spaces before it make a hard break, which splits
_WRAP = re.compile(f"(?<=[{CJK_CLASS}]) ?\r?\n[ \t]*(?=[{CJK_CLASS}])")


def _latin(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


class TermMatcher:
    """Leftmost-longest, non-overlapping matching of Chinese forms in text.

    An Aho–Corasick automaton (``pyahocorasick``) finds every occurrence of every form in
    one pass; the Latin-boundary rule drops the occurrences it forbids; then, left to
    right, the longest remaining occurrence at each start wins and the ones it overlaps
    are skipped — the matching rule of the module docstring. Building the automaton
    takes milliseconds even for tens of thousands of forms.
    """

    MEMO = 8               # texts whose matches (and occurrences) are remembered

    def __init__(self, forms: dict[str, Term]) -> None:
        self.forms = forms
        self._automaton = None
        self._recent: dict[str, list[Match]] = {}
        self._recent_occurrences: dict[str, tuple[Match, ...]] = {}
        if forms:
            import ahocorasick

            automaton = ahocorasick.Automaton(ahocorasick.STORE_ANY, ahocorasick.KEY_STRING)
            for form, term in forms.items():
                automaton.add_word(form, (form, term, _latin(form[0]), _latin(form[-1])))
            automaton.make_automaton()
            self._automaton = automaton

    def finditer(self, text: str) -> Iterator[Match]:
        """The leftmost-longest matches in ``text``; a text matched lately (a note's prose,
        which several checks scan) is answered from a small memo of the last few."""
        if self._automaton is None or not text:
            return iter(())
        found = self._recent.get(text)
        if found is None:
            found = list(self._scan(text))
            if len(self._recent) >= self.MEMO:
                self._recent.pop(next(iter(self._recent)))
            self._recent[text] = found
        return iter(found)

    def occurrences(self, text: str) -> tuple[Match, ...]:
        """Every occurrence of every form the Latin-boundary rule allows, overlapping ones
        too, by start and then longest first (what the leftmost-longest rule chooses
        from). A text asked lately (a note's prose: the matches, term-unused and
        term-overlap each read it) is answered from a memo of the last few."""
        if self._automaton is None or not text:
            return ()
        found = self._recent_occurrences.get(text)
        if found is None:
            found = self._occurrences(text)
            if len(self._recent_occurrences) >= self.MEMO:
                self._recent_occurrences.pop(next(iter(self._recent_occurrences)))
            self._recent_occurrences[text] = found
        return found

    def _occurrences(self, text: str) -> tuple[Match, ...]:
        n = len(text)
        found = []
        for last, (form, term, latin_first, latin_last) in self._automaton.iter(text):
            start, end = last + 1 - len(form), last + 1
            if latin_first and start > 0 and _latin(text[start - 1]):
                continue
            if latin_last and end < n and _latin(text[end]):
                continue
            found.append((start, -end, form, term))
        found.sort()
        return tuple(Match(start, -minus_end, form, term)
                     for start, minus_end, form, term in found)

    def _scan(self, text: str) -> Iterator[Match]:
        done = 0
        for match in self.occurrences(text):
            if match.start >= done:
                done = match.end
                yield match

    def find(self, text: str) -> list[Match]:
        return list(self.finditer(text))


@dataclass
class Glossary:
    terms: list[Term]
    path: str = "<glossary>"
    source: str = "zh"
    target: str = "en"
    findings: list[Finding] = field(default_factory=list)
    forbid: tuple[str, ...] = ()          # the top-level list: banned in every note
    _matcher: TermMatcher | None = field(default=None, repr=False)

    _form_map: tuple | None = field(default=None, repr=False)

    @property
    def form_map(self) -> Mapping[str, Term]:
        """Every Chinese form → its entry (the first entry wins for a duplicate form).

        Read-only, built once (checks ask for it dozens of times; at 5,000 terms each
        build cost milliseconds) and rebuilt if ``terms`` is replaced or changes length."""
        key = (id(self.terms), len(self.terms))
        if self._form_map is None or self._form_map[0] != key:
            out: dict[str, Term] = {}
            for term in self.terms:
                for form in term.forms:
                    out.setdefault(form, term)
            self._form_map = (key, MappingProxyType(out))
        return self._form_map[1]

    @property
    def matcher(self) -> TermMatcher:
        if self._matcher is None:
            self._matcher = TermMatcher(self.form_map)
        return self._matcher

    def find(self, text: str) -> list[Match]:
        return self.matcher.find(text)

    def find_prose(self, prose: str) -> list[Match]:
        """The terms of a text's prose (:func:`prose.prose_view`): the one notion of a term
        occurrence translate, check, review and export share. A term hard-wrapped across a
        soft line break between two Chinese characters (``拥塞\n窗口``, ``> `` and
        indentation blanked) is one occurrence, as the translation locks it; offsets are
        those of ``prose``."""
        if "\n" not in prose or _WRAP.search(prose) is None:
            return self.matcher.find(prose)
        keep, pos, joined = [], 0, []
        for cut in _WRAP.finditer(prose):
            joined.append(prose[pos:cut.start()])
            keep.extend(range(pos, cut.start()))
            pos = cut.end()
        joined.append(prose[pos:])
        keep.extend(range(pos, len(prose)))
        text = "".join(joined)
        return [Match(keep[m.start], keep[m.end - 1] + 1, m.form, m.term)
                for m in self.matcher.find(text)]

    def forbids(self, terms: Iterable[Term]) -> list[tuple[Term | None, str]]:
        """(term, phrase) for the ``forbid`` of each of ``terms`` and (None, phrase) for
        the glossary's corpus-wide list: what may not appear in their English."""
        out = [(t, p) for t in dict.fromkeys(terms) for p in t.forbid]
        return out + [(None, p) for p in self.forbid]

    def by_zh(self, zh: str) -> Term | None:
        return self.form_map.get(zh)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]


# --------------------------------------------------------------------------- finding

def find_glossary(start: Path | None = None) -> Path:
    """``glossary.yaml`` in ``start`` (default: the current directory) or a parent."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        candidate = folder / GLOSSARY_NAME
        if candidate.is_file():
            relative = Path(os.path.relpath(candidate))
            return relative if len(str(relative)) < len(str(candidate)) else candidate
    raise GlossaryNotFound(
        f"No {GLOSSARY_NAME} found in {here} or any parent directory. "
        f"Run `zhen init` to write a commented starter {GLOSSARY_NAME} here, or pass one "
        "with --glossary FILE.")


def resolve_glossary(option: Path | None) -> Path:
    if option is not None:
        if not option.exists():
            raise GlossaryNotFound(f"Glossary {option} does not exist. Check the --glossary path.")
        if option.is_dir():
            raise GlossaryNotFound(f"Glossary {option} is a directory; pass the YAML file itself.")
        return option
    return find_glossary()


# --------------------------------------------------------------------------- loading

class _Loader:
    """Builds a Glossary from YAML nodes, recording findings with line:column."""

    def __init__(self, text: str, path: str) -> None:
        self.text = text
        self.path = path
        self.findings: list[Finding] = []

    def add(self, check: str, severity: str, message: str, node=None, *, line=None,
            column=None, **extra) -> None:
        if node is not None:
            line = node.start_mark.line + 1
            column = node.start_mark.column + 1
        self.findings.append(Finding(check, severity, message, self.path, line, column, extra))

    def load(self) -> Glossary:
        root = self._compose()
        if root is None:
            return Glossary([], self.path, findings=self.findings)
        if not isinstance(root, yaml.MappingNode):
            kind = "a list" if isinstance(root, yaml.SequenceNode) else "a single value"
            self.add("glossary-schema", "error",
                     f"the glossary is {kind}; it must be a mapping with keys "
                     "`source: zh`, `target: en` and `terms:` (a list of entries)", root)
            return Glossary([], self.path, findings=self.findings)
        top = self._mapping(root, TOP_KEYS, "the glossary")
        source = self._scalar_value(top.get("source"), "source") or "zh"
        target = self._scalar_value(top.get("target"), "target") or "en"
        if "source" in top and source != "zh":
            self.add("glossary-schema", "error", f"source is {source!r}; zhen translates from `zh`",
                     top["source"][1])
        if "target" in top and target != "en":
            self.add("glossary-schema", "error", f"target is {target!r}; zhen translates to `en`",
                     top["target"][1])
        banned = tuple(v for v, _ in self._string_list(top.get("forbid"), "forbid"))
        terms: list[Term] = []
        if "terms" not in top:
            self.add("glossary-schema", "error",
                     "no `terms:` list; add `terms:` with one entry per term", root)
        else:
            node = top["terms"][1]
            if isinstance(node, yaml.ScalarNode) and node.value in ("", "~", "null"):
                pass
            elif not isinstance(node, yaml.SequenceNode):
                self.add("glossary-schema", "error",
                         "`terms` must be a list of entries (each starting with `- zh:`)", node)
            else:
                for item in node.value:
                    term = self._term(item)
                    if term is not None:
                        terms.append(term)
        if not terms and not self.findings:
            self.add("glossary-empty", "error",
                     "the glossary has no terms; add entries under `terms:`", root)
        glossary = Glossary(terms, self.path, source, target, self.findings, banned)
        self.findings.extend(validate_terms(terms, self.path))
        return glossary

    def _compose(self):
        try:
            # an alias needs a `*`: only then pay for a second pass over the events
            events = yaml.parse(self.text, Loader=_LOADER) if "*" in self.text else ()
            for event in events:
                if isinstance(event, yaml.AliasEvent):
                    self.add("yaml-syntax", "error",
                             "YAML anchors and aliases (&name / *name) are not allowed in a "
                             "glossary; write each entry out in full",
                             line=event.start_mark.line + 1, column=event.start_mark.column + 1)
                    return None
            root = yaml.compose(self.text, Loader=_LOADER)
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            problem = exc.problem or "invalid YAML"
            context = f" ({exc.context})" if exc.context else ""
            self.add("yaml-syntax", "error",
                     f"YAML syntax error: {problem}{context}; check the indentation and "
                     "quoting on this line and the one before",
                     line=mark.line + 1 if mark else None, column=mark.column + 1 if mark else None)
            return None
        except yaml.YAMLError as exc:
            self.add("yaml-syntax", "error", f"YAML error: {exc}")
            return None
        if root is None:
            self.add("glossary-empty", "error",
                     "the glossary file is empty; start it with `source: zh`, `target: en`, "
                     "`terms:` (see the README)", line=1, column=1)
        return root

    def _mapping(self, node, allowed: tuple[str, ...], what: str) -> dict:
        out: dict = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self.add("glossary-schema", "error", f"a key of {what} is not a plain name",
                         key_node)
                continue
            key = key_node.value
            if key in out:
                first = out[key][0]
                self.add("duplicate-key", "error",
                         f"key `{key}` appears twice in {what} (lines "
                         f"{first.start_mark.line + 1} and {key_node.start_mark.line + 1}); "
                         "YAML keeps only the last one — remove one", key_node)
                continue
            if key not in allowed:
                hint = _closest(key, allowed)
                self.add("unknown-key", "error",
                         f"unknown key `{key}` in {what}"
                         + (f"; did you mean `{hint}`?" if hint else
                            f"; allowed keys: {', '.join(allowed)}"), key_node)
                continue
            out[key] = (key_node, value_node)
        return out

    def _scalar_value(self, pair, name: str) -> str | None:
        if pair is None:
            return None
        node = pair[1]
        if not isinstance(node, yaml.ScalarNode):
            self.add("glossary-schema", "error", f"`{name}` must be a single value", node)
            return None
        return node.value

    def _string(self, pair, name: str, required: bool) -> str | None:
        if pair is None:
            return None
        key, node = pair
        if not isinstance(node, yaml.ScalarNode):
            self.add("glossary-schema", "error",
                     f"`{name}` must be a string, not a {'list' if isinstance(node, yaml.SequenceNode) else 'mapping'}",
                     node)
            return None
        if node.tag != "tag:yaml.org,2002:str":
            if node.tag == "tag:yaml.org,2002:null":
                self.add("empty-field", "error", f"`{name}` is empty; give it a value"
                         + ("" if required else " or remove the key"), key)
                return None
            kind = node.tag.rsplit(":", 1)[-1]
            self.add("glossary-schema", "error",
                     f"`{name}` is read as a {kind} ({node.value}), not text; quote it: "
                     f"{name}: \"{node.value}\"", node)
            return None
        if not node.value.strip():
            self.add("empty-field", "error", f"`{name}` is empty; give it a value"
                     + ("" if required else " or remove the key"), node if node.value else key)
            return None
        if node.value != node.value.strip():
            self.add("whitespace", "warning",
                     f"`{name}` has leading or trailing spaces: {node.value!r}", node)
        return node.value.strip()

    def _string_list(self, pair, name: str) -> list[tuple[str, yaml.Node]]:
        if pair is None:
            return []
        key, node = pair
        if isinstance(node, yaml.ScalarNode):
            if node.value in ("", "~", "null"):
                self.add("empty-field", "error", f"`{name}` is empty; list values or remove the key",
                         key)
                return []
            # a single string where a list was expected: accept it, it is unambiguous
            value = self._string(pair, name, required=False)
            return [(value, node)] if value else []
        if not isinstance(node, yaml.SequenceNode):
            self.add("glossary-schema", "error", f"`{name}` must be a list like [a, b]", node)
            return []
        if not node.value:
            self.add("empty-field", "error", f"`{name}` is an empty list; list values or remove the key",
                     key)
        out = []
        for item in node.value:
            value = self._string((key, item), f"an item of {name}", required=True)
            if value is not None:
                out.append((value, item))
        return out

    def _term(self, node) -> Term | None:
        if not isinstance(node, yaml.MappingNode):
            self.add("glossary-schema", "error",
                     "each entry of `terms` must be a mapping like `- zh: 混合精度` / "
                     "`  en: mixed precision`", node)
            return None
        line = node.start_mark.line + 1
        fields = self._mapping(node, TERM_KEYS, f"the entry at line {line}")
        zh = self._string(fields.get("zh"), "zh", True)
        en = self._string(fields.get("en"), "en", True)
        for name, value in (("zh", zh), ("en", en)):
            if name not in fields:
                self.add("glossary-schema", "error",
                         f"the entry at line {line} has no `{name}`; every entry needs zh and en",
                         node)
        variants = self._string_list(fields.get("variants"), "variants")
        forbid = self._string_list(fields.get("forbid"), "forbid")
        tags = self._string_list(fields.get("tags"), "tags")
        note = self._string(fields.get("note"), "note", False) or ""
        own_plural = self._plural(fields.get("plural"))
        if zh is None or en is None:
            return None
        form_lines = {zh: _pos(fields["zh"][1])}
        for value, vnode in variants:
            form_lines.setdefault(value, _pos(vnode))
        for form, (fline, fcol) in form_lines.items():
            if not has_cjk(form):
                self.add("glossary-schema", "error",
                         f"Chinese form {form!r} contains no Chinese character", line=fline,
                         column=fcol)
        from .terms import plural_of

        positions = {"en": _pos(fields["en"][1])}
        if "note" in fields:
            positions["note"] = _pos(fields["note"][1])
        for value, fnode in forbid:
            positions.setdefault(f"forbid:{value}", _pos(fnode))
        plurals = own_plural if own_plural is not None else plural_of(en)
        return Term(zh=zh, en=en, variants=tuple(v for v, _ in variants),
                    forbid=tuple(v for v, _ in forbid), note=note,
                    tags=tuple(v for v, _ in tags), line=line, form_lines=form_lines,
                    positions=positions, plurals=plurals)

    def _plural(self, pair) -> tuple[str, ...] | None:
        """``plural: matrices`` → (matrices,); ``plural: false`` → () (no plural); absent →
        None (English morphology decides, terms.plural_of)."""
        if pair is None:
            return None
        node = pair[1]
        if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:bool":
            if node.value.lower() in ("false", "no", "off"):
                return ()
            self.add("glossary-schema", "error",
                     f"`plural: {node.value}` says nothing; give the plural (plural: matrices) "
                     "or write `plural: false` for a term that has none", node)
            return None
        value = self._string(pair, "plural", False)
        return (value,) if value else None


def _pos(node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _closest(key: str, allowed: Iterable[str]) -> str | None:
    import difflib

    match = difflib.get_close_matches(key, list(allowed), n=1, cutoff=0.6)
    return match[0] if match else None


def validate_terms(terms: list[Term], path: str) -> list[Finding]:
    """Checks across entries: duplicate forms, conflicting English, CJK in en, forbid, overlaps."""
    out: list[Finding] = []

    def add(check, severity, message, line=None, column=None, **extra):
        out.append(Finding(check, severity, message, path, line, column, extra))

    seen: dict[str, tuple[Term, int, int]] = {}
    for term in terms:
        for form, (line, col) in term.form_lines.items():
            if form in seen:
                other, oline, _ = seen[form]
                if normalize_english(other.en) != normalize_english(term.en):
                    add("conflicting-en", "error",
                        f"Chinese form {form} has two English renderings: {other.en!r} "
                        f"(line {oline}) and {term.en!r} (line {line}); keep one",
                        line, col, lines=[oline, line])
                else:
                    add("duplicate-form", "error",
                        f"Chinese form {form} is listed twice: line {oline} and line {line}; "
                        "remove one", line, col, lines=[oline, line])
            else:
                seen[form] = (term, line, col)
        if has_cjk(term.en):
            add("cjk-in-en", "error",
                f"`en` of {term.zh} contains Chinese characters: {term.en!r}", term.line)
        en_line = term.positions.get("en", (term.line, None))[0]
        for phrase, pattern in term.forbid_patterns():
            fline, fcol = term.positions.get(f"forbid:{phrase}", (term.line, None))
            if normalize_english(phrase) == normalize_english(term.en):
                add("forbid-is-en", "error",
                    f"{term.zh}: forbid {phrase!r} (line {fline}) is its own `en` (line "
                    f"{en_line}); remove it from forbid", fline, fcol, lines=[fline, en_line])
            elif pattern.search(term.en):
                # the restored `en` itself holds the forbidden words: every sentence with
                # the term would fail the output check
                add("forbid-is-en", "error",
                    f"{term.zh}: forbid {phrase!r} (line {fline}) is part of its own `en` "
                    f"{term.en!r} (line {en_line}), so every sentence with {term.zh} would fail; "
                    "remove it from forbid or forbid a longer phrase", fline, fcol,
                    lines=[fline, en_line])
            if has_cjk(phrase):
                add("cjk-in-en", "error",
                    f"forbid of {term.zh} contains Chinese characters: {phrase!r}", term.line)

    # a forbid rendering that another entry requires can never be satisfied: one scan of
    # all `en` texts with every forbid phrase at once (linear in the glossary size)
    forbidders: dict[str, list[tuple[Term, str]]] = {}
    for term in terms:
        for phrase, pattern in term.forbid_patterns():
            if not pattern.search(term.en):       # in its own `en`: an error above
                forbidders.setdefault(" ".join(phrase.lower().split()), []).append((term, phrase))
    if forbidders:
        # each `en` on its own, so a phrase never runs across two entries
        body = "|".join(r"\s+".join(re.escape(w) for w in p.split())
                        for p in sorted(forbidders, key=len, reverse=True))
        combined = re.compile(rf"(?<![A-Za-z0-9])(?:{body})(?![A-Za-z0-9])", re.IGNORECASE)
        for other in terms:
            for match in combined.finditer(other.en):
                for term, phrase in forbidders.get(" ".join(match.group(0).lower().split()), []):
                    if other is not term:
                        fline, fcol = term.positions.get(f"forbid:{phrase}", (term.line, None))
                        oline = other.positions.get("en", (other.line, None))[0]
                        add("forbid-conflict", "warning",
                            f"{term.zh} forbids {phrase!r} (line {fline}), but {other.zh} must be "
                            f"rendered {other.en!r} (line {oline}); a sentence with both terms "
                            "cannot pass", fline, fcol, lines=[fline, oline])

    # one English for two entries: probably variants of one concept
    by_en: dict[str, list[Term]] = {}
    for term in terms:
        by_en.setdefault(normalize_english(term.en), []).append(term)
    for same in by_en.values():
        if len({t.zh for t in same}) > 1:
            places = ", ".join(f"{t.zh} (line {t.line})" for t in same)
            add("same-en", "info",
                f"{len(same)} entries share the English {same[0].en!r}: {places}; "
                "consider one entry with variants", same[1].line)

    return out


def load_glossary_text(text: str, path: str = "<glossary>") -> Glossary:
    return _Loader(text, path).load()


# --------------------------------------------------------------------------- parse cache
# A parsed glossary (its terms and findings) is kept in ``paths.cache_dir()/glossaries/``
# under the SHA-256 of the file's bytes, its path (findings name it) and the source of the
# modules whose rules shape the result; so an edit, a move or a new zhen makes a new
# entry. The file holds only built-in values written with ``marshal`` (no code runs when it
# is read); one that is unreadable, truncated or of another shape is ignored and rewritten.
# A cache folder that cannot be written is no error: the glossary is then parsed every run.

CACHE_FORMAT = 3
CACHE_KEEP = 32             # newest entries kept; older ones are removed on write


def _rules_stamp() -> bytes:
    from . import findings, terms, textutil

    from .fileio import add_sources

    digest = hashlib.sha256()
    add_sources(digest, (__file__, textutil.__file__, findings.__file__, terms.__file__))
    return digest.digest()


def _cache_file(raw: bytes, path: str) -> Path:
    from .paths import cache_dir

    digest = hashlib.sha256(b"zhen-glossary %d\0" % CACHE_FORMAT)
    digest.update(_rules_stamp())
    digest.update(path.encode("utf-8", "surrogatepass") + b"\0")
    digest.update(raw)
    return cache_dir() / "glossaries" / f"{digest.hexdigest()[:32]}.marshal"


def _to_plain(glossary: Glossary) -> dict:
    return {"format": CACHE_FORMAT, "path": glossary.path, "source": glossary.source,
            "target": glossary.target,
            "forbid": glossary.forbid,
            "terms": [(t.zh, t.en, t.variants, t.forbid, t.note, t.tags, t.line, t.form_lines,
                       t.positions, t.plurals) for t in glossary.terms],
            "findings": [(f.check, f.severity, f.message, f.file, f.line, f.column, f.extra)
                         for f in glossary.findings]}


def _from_plain(data: object, path: str) -> Glossary | None:
    if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT or data.get("path") != path:
        return None
    try:
        terms = [Term(zh, en, tuple(variants), tuple(forbid), note, tuple(tags), line,
                      {form: tuple(pos) for form, pos in form_lines.items()},
                      {key: tuple(pos) for key, pos in positions.items()},
                      None if plurals is None else tuple(plurals))
                 for zh, en, variants, forbid, note, tags, line, form_lines, positions, plurals
                 in data["terms"]]
        found = [Finding(*row) for row in data["findings"]]
        return Glossary(terms, path, data["source"], data["target"], found,
                        tuple(data["forbid"]))
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _load_cached(raw: bytes, text: str, path: str) -> Glossary:
    import marshal

    cache = _cache_file(raw, path)
    try:
        cached = _from_plain(marshal.loads(cache.read_bytes()), path)
    except (OSError, EOFError, ValueError, TypeError):
        cached = None
    if cached is not None:
        return cached
    glossary = load_glossary_text(text, path)
    try:
        data = marshal.dumps(_to_plain(glossary))
    except ValueError:                  # a value marshal cannot write: just don't cache
        return glossary
    from .fileio import prune, write_cache

    if write_cache(cache, data):
        prune(cache.parent, "*.marshal", CACHE_KEEP)
    return glossary


def read_glossary_file(path: Path, *, exact: bool = False) -> str:
    """The text of a glossary file: ``glossary.yaml``, or a TBX/TSV/CSV file to import. The
    one place zhen reads one (size limit, UTF-8 with or without BOM, Excel's UTF-16, and a
    message that says what to do for a directory, a spreadsheet, a binary or a GBK file).

    ``exact``: keep a UTF-8 BOM (to compare and rewrite the file byte for byte).
    """
    display = str(path)
    path = Path(path)
    try:
        if path.is_dir():
            raise GlossaryError("is a directory; pass the glossary file itself", path=display)
        size = path.stat().st_size
        if size > MAX_GLOSSARY_BYTES:
            raise GlossaryError(f"is {size // (1024 * 1024)} MB; zhen reads glossaries up to "
                                f"{MAX_GLOSSARY_BYTES // (1024 * 1024)} MB — is this the right "
                                "file?", path=display)
        raw = path.read_bytes()
    except OSError as exc:
        raise GlossaryError(f"cannot be read: {exc.strerror}; check the path and its "
                            "permissions", path=display) from exc
    if raw.startswith(b"PK\x03\x04"):
        raise UsageError("is a zip file (a spreadsheet?); save it as CSV UTF-8 or as tab-"
                         "separated text and use that", path=display)
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):     # Excel's "Unicode text" is UTF-16
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise GlossaryError(
                f"starts like UTF-16 but is not (byte {exc.start}); save it as UTF-8 (or as "
                "Excel's \"Unicode text\") and run again", path=display) from exc
    bom = raw.startswith(b"\xef\xbb\xbf")
    if bom:
        raw = raw[3:]
    if b"\x00" in raw[:8192]:
        raise GlossaryError("looks binary (it contains NUL bytes); pass a YAML, TBX, TSV or CSV "
                            "file", path=display)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise GlossaryError(
            f"is not UTF-8 (byte {exc.start}); if it is GBK, convert it with "
            f"`iconv -f GB18030 -t UTF-8 {display} > {path.stem}.utf8{path.suffix}`",
            path=display) from exc
    return "\ufeff" + text if bom and exact else text


def load_glossary(path: Path, *, strict: bool = False) -> Glossary:
    """Load ``path``; with ``strict`` raise GlossaryError on the first error finding."""
    text = read_glossary_file(path)
    glossary = _load_cached(text.encode("utf-8"), text, str(path))
    if strict and glossary.errors:
        first = glossary.errors[0]
        raise GlossaryError(f"{first.message} (run `zhen glossary check` for all problems)",
                            path=str(path), line=first.line, column=first.column)
    return glossary


# --------------------------------------------------------------------------- writing entries


def _plain_ok(value: str, in_flow: bool) -> bool:
    if not value or value != value.strip() or value[0] in "!&*\"'%@`|>#-?:[]{},":
        return False
    if in_flow and any(c in value for c in ",[]{}"):
        return False
    doc = f"k: [{value}]" if in_flow else f"k: {value}"
    try:
        loaded = yaml.safe_load(doc)
    except yaml.YAMLError:
        return False
    return loaded == {"k": [value] if in_flow else value}


def yaml_scalar(value: str, in_flow: bool = False) -> str:
    """``value`` as a one-line YAML scalar: plain when that reads back as the same string,
    else double-quoted (JSON's escaping is valid YAML)."""
    if _plain_ok(value, in_flow):
        return value
    return json.dumps(value, ensure_ascii=False)


def entry_yaml(entry, dash_col: int = 2, key_col: int | None = None,
               newline: str = "\n") -> str:
    """One v1 entry as block YAML, the style of the shipped glossary.yaml: the one writer of
    glossary entries (``glossary import`` appends these, ``glossary suggest`` prints them).

    ``entry`` is anything with ``zh`` and ``en`` (a Term, an import candidate, a suggestion);
    ``variants``, ``forbid``, ``note`` and ``tags`` are written when it has them. An entry
    without English is written ``en: ''`` with a TODO comment, for a person to fill in; a
    suggestion's ``en_guess`` (a dictionary guess) goes into that comment, never into ``en``.
    """
    key_col = dash_col + 2 if key_col is None else key_col
    first = " " * dash_col + "-" + " " * (key_col - dash_col - 1)
    pad = " " * key_col
    guess = (getattr(entry, "en_guess", "") or "").replace("#", "")
    if entry.en:
        english = f"{pad}en: {yaml_scalar(entry.en)}"
    elif guess:
        english = f"{pad}en: ''   # TODO: English (CC-CEDICT dictionary guess: {guess})"
    else:
        english = f"{pad}en: ''   # TODO: English"
    lines = [f"{first}zh: {yaml_scalar(entry.zh)}", english]
    for key in ("variants", "forbid"):
        values = getattr(entry, key, ())
        if values:
            lines.append(f"{pad}{key}: [" + ", ".join(yaml_scalar(v, True) for v in values) + "]")
    if getattr(entry, "note", ""):
        lines.append(f"{pad}note: {yaml_scalar(entry.note)}")
    if getattr(entry, "tags", ()):
        lines.append(f"{pad}tags: [" + ", ".join(yaml_scalar(v, True) for v in entry.tags) + "]")
    return newline.join(lines) + newline
