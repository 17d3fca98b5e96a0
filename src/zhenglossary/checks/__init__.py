"""One registry of checks: each has an id, a severity, a title and a scope.

Checks of the glossary file itself run while it is loaded (they need the YAML nodes for
line numbers); they are declared here so ``zhen glossary check --list-checks`` lists them.
Findings that ``zhen translate`` emits while it works (scope ``translate``) are declared
here too. Every finding kind zhen can emit is in this registry (a test scans the source).
Checks over notes and translations are functions ``fn(ctx) -> Iterable[Finding]``
registered with :func:`check`; the title is the first line of their docstring.
``gather.py`` reads a project for them and runs them (in shards of notes for ``--jobs``).
"""

from __future__ import annotations

from .registry import REGISTRY, Check, CheckContext, NoteText, check, declare

__all__ = ["REGISTRY", "Check", "CheckContext", "NoteText", "all_checks", "check", "declare"]


declare("yaml-syntax", "error", "glossary", "The glossary is valid YAML without anchors or aliases")
declare("glossary-schema", "error", "glossary", "The glossary follows schema v1 (types, required keys)")
declare("glossary-empty", "error", "glossary", "The glossary has at least one term")
declare("unknown-key", "error", "glossary", "No unknown keys (typos such as `varients`)")
declare("duplicate-key", "error", "glossary", "No key twice in one mapping")
declare("empty-field", "error", "glossary", "No empty values")
declare("whitespace", "warning", "glossary", "No leading or trailing spaces in values")
declare("duplicate-form", "error", "glossary", "No Chinese form (zh or variant) listed twice")
declare("conflicting-en", "error", "glossary", "No Chinese form with two English renderings")
declare("cjk-in-en", "error", "glossary", "No Chinese characters in `en` or `forbid`")
declare("forbid-is-en", "error", "glossary",
        "No `forbid` that is, or is part of, the entry's own `en`")
declare("forbid-conflict", "warning", "glossary", "No `forbid` that another entry's `en` requires")
declare("same-en", "info", "glossary", "Entries that share one English rendering")
declare("note-unreadable", "error", "notes", "Every note can be read as UTF-8 text")
declare("parallel-unreadable", "error", "notes",
        "Every parallel file can be read without guessing (markers whole, UTF-8, written by zhen)")
declare("output-stray", "warning", "notes",
        "Every parallel file zhen wrote belongs to a note that is there (a note renamed or "
        "deleted leaves its review state behind, unread)")
# found while translating (``zhen translate`` reports them; --format json lists them).
# ``unrendered`` is reported by ``zhen translate`` too, and recorded in the parallel file,
# so it is a translations check (checks/translations.py).
declare("lock-failed", "error", "translate",
        "No forbidden English survives the term lock (every hypothesis and the pieces)")
declare("empty-translation", "warning", "translate", "The engine returned English for each segment")
declare("unparsed", "warning", "translate", "Every block's text could be located in the note")
declare("engine-fallback", "warning", "translate",
        "The chosen engine translated every segment itself (no fallback to another engine)")
declare("output-invalid", "error", "translate",
        "Every translated block passes the output check (structure, protected spans, terms, "
        "no Chinese left); a block that fails is written as its source")
declare("edit-invalid", "error", "translate",
        "English edited by hand passes the output check (structure, protected spans, terms, no "
        "Chinese left); a failing edit is kept in x.zh-en.md and reported there, and x.en.md "
        "gets machine English for the block")
declare("chinese-kept", "info", "translate",
        "The English shows no Chinese that the translation copies by design (front matter, "
        "HTML, link and image titles); where it does, each place is named")
declare("english-carried", "info", "translate",
        "Changes a person made in x.en.md are taken into the parallel file as edits of their blocks")
declare("source-edited", "warning", "translate",
        "The Chinese in x.zh-en.md is a copy of the note; a change made there is replaced from "
        "the note, and said")
declare("state-adopted", "info", "translate",
        "A new note that continues one whose note is gone (most of its blocks) takes the review "
        "state of its parallel file, and says so; the old files are left for a person to delete")
declare("output-replaced", "warning", "translate",
        "No output zhen did not write, or a person changed in a way it cannot carry, is replaced "
        "(only with --force, and then said)")


def all_checks() -> list[Check]:
    from . import lint as _lint, notes as _notes, translations as _translations  # noqa: F401

    order = {"glossary": 0, "notes": 1, "translations": 2, "translate": 3}
    return sorted(REGISTRY.values(), key=lambda c: (order.get(c.scope, 9), c.id))
