"""The review page: one self-contained HTML file to review translations block by block.

``review_inputs(report)`` collects what the page shows from the report of
:func:`api.check_project` (which reads the parallel files back into pairs; the façade's
``api.review_page`` runs both); ``render_review(inputs)`` turns that into the page — a
pure function, no I/O. The page's style and script are package data
(``data/review.css``, ``data/review.js``).

The page:

* one section per note, with an outline of its headings (the English, linking to the
  blocks); each block pair is a row: block id, status, where it is (the note's line and the
  English's line in ``x.zh-en.md``, each as a plain path and a ``vscode://file/…:line``
  link), then the source and the English side by side;
* inside a block, one row per sentence when the source and the English have as many
  sentences (:mod:`.sentences`); otherwise the block is one row and says why. Each side is
  Markdown rendered by markdown-it-py (:func:`markdown.display_parser`: raw HTML escaped).
  Both columns use one type size and line height. Blocks with nothing to translate
  (``same``: code, HTML, English paragraphs) are dimmed and collapsed (a filter hides them);
* glossary terms: in the source every glossary match, in the English each locked term's
  ``en`` (case-insensitive, whitespace-flexible, outside code and URLs), at most as many
  times as the term was locked in that block. A term and its English share a colour in
  their block and light up together on hover; the tooltip is the glossary entry;
* every finding of ``zhen glossary check`` at its block (by ``segment``, else by line),
  with its file and line; findings of no block at the top of their note or of the page;
* one set of counts (:func:`review_counts`) for the header, the index, the check filter
  and the "shown" line, and filters (vanilla JS) that hide rows: only blocks with findings,
  only blocks a person edited, by check, by severity, show/hide unchanged blocks.

Everything from the notes is HTML-escaped. A Content-Security-Policy with the hashes of the
page's own style and script blocks everything else: no network, and no script but ours.

Why this module is long: its CSS and JS are package data already; what is left is the
page's HTML, built from many small functions (term marks, sentence rows, links, counts,
outline, sections) that only make sense together. Splitting them into a ``review/``
package (gather, terms, blocks, page) is the next step if it grows.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from html import escape
from importlib import resources
from pathlib import Path
from urllib.parse import quote

from . import terms
from .findings import SEVERITIES, Finding, summarize
from .glossary import Glossary, Match, Term
from .markdown import display_parser, outline
import shlex

from .parallel import ORDER, Pair
from .prose import prose_view
from .sentences import align, split_sentences

EDITED_STATUSES = ("edited", "invalid")          # English a person wrote
MARKABLE = ("machine", "stale", "reviewed")       # English a reviewer can mark reviewed
STATUSES = tuple(str(s) for s in ORDER)          # the status filter's options
TERM_COLOURS = 8


@dataclass
class ReviewNote:
    note: str                          # display path of the note
    parallel: str | None = None        # display path of x.zh-en.md, None if not translated
    engine: str = ""                   # from the parallel file's first line
    pairs: list[Pair] = field(default_factory=list)
    problem: str = ""                  # why there are no pairs (not translated, unreadable)
    orphans: list = field(default_factory=list)   # parallel.Orphan: edits whose block is gone


@dataclass
class ReviewInputs:
    glossary: Glossary
    notes: list[ReviewNote]
    findings: list[Finding]
    base: str = ""                     # absolute folder display paths are relative to

    @property
    def untranslated(self) -> list[ReviewNote]:
        return [n for n in self.notes if n.parallel is None]


def review_inputs(report) -> ReviewInputs:
    """The notes of an ``api.CheckReport`` with their pairs (read from each note's parallel
    file by ``check_project``). A note without one is kept, with ``problem``."""
    notes = []
    for note in report.notes:
        pairs = report.pairs.get(note.display)
        if pairs is None:
            notes.append(ReviewNote(note.display, problem=report.problems.get(
                note.display, f"not translated yet — run `zhen translate {note.display}`")))
        else:
            notes.append(ReviewNote(note.display, pairs.parallel, pairs.engine, pairs.pairs,
                                    orphans=pairs.orphans))
    return ReviewInputs(report.glossary, notes, report.findings, str(Path.cwd()))


@lru_cache(maxsize=None)
def asset(name: str) -> str:
    """The page's style or script (package data)."""
    return (resources.files("zhenglossary") / "data" / name).read_text("utf-8")


# --------------------------------------------------------------------------- terms

def english_term_spans(english: str, locked: list[Match]) -> list[tuple[int, int, Term]]:
    """Where the English renders the locked terms: (start, end, term), sorted.

    Each term is found as terms.py finds it for the output check (any of its forms, plural
    and possessive too, ignoring case, whole words) in the English outside code, URLs and
    HTML, at most as many times as terms with that ``en`` were locked in the source.
    Longer renderings claim their places first ("data parallelism" before "parallel").
    """
    groups: dict[str, list[Term]] = {}
    for match in locked:
        groups.setdefault(match.term.en.lower(), []).append(match.term)
    view = prose_view(english)
    taken: list[tuple[int, int]] = []
    spans: list[tuple[int, int, Term]] = []

    def free(start: int, end: int) -> bool:
        return all(end <= s or start >= e for s, e in taken)

    for key in sorted(groups, key=lambda k: (-len(k), k)):
        group = groups[key]
        chosen: list[tuple[int, int]] = []
        for span in terms.spans(group[0], view):
            if len(chosen) == len(group):
                break
            if free(*span):
                chosen.append(span)
                taken.append(span)
        for (start, end), term in zip(chosen, group):
            spans.append((start, end, term))
    spans.sort(key=lambda s: s[0])
    return spans


def _term_title(term: Term, glossary_path: str = "") -> str:
    """The glossary entry, for a tooltip."""
    lines = [f"{term.zh} → {term.en}"]
    if term.variants:
        lines.append("variants: " + ", ".join(term.variants))
    if term.forbid:
        lines.append("not: " + ", ".join(term.forbid))
    if term.note:
        lines.append(term.note)
    if term.line:
        lines.append(f"{glossary_path or 'glossary'}:{term.line}")
    return "\n".join(lines)


# Terms are marked in the Markdown before it is rendered, with private-use characters
# (open = U+E000 + one key character, close = U+E001), and turned into <mark> afterwards,
# so a term keeps its place through emphasis, lists and headings.
_OPEN, _CLOSE, _KEY0 = "\ue000", "\ue001", 0xE100
_SENTINEL_RE = re.compile("\ue000(.)|\ue001", re.S)
_TAG_OR_TEXT = re.compile(r"(<[^>]*>)")


def _with_sentinels(text: str, spans: list[tuple[int, int, int]]) -> str:
    parts, pos = [], 0
    for start, end, key in sorted(spans):
        if start < pos:
            continue
        parts += [text[pos:start], _OPEN, chr(_KEY0 + key), text[start:end], _CLOSE]
        pos = end
    parts.append(text[pos:])
    return "".join(parts)


def _strip_sentinels(text: str) -> str:
    return _SENTINEL_RE.sub("", text)


def _marks(html: str, terms: list[Term], glossary_path: str) -> str:
    """Rendered HTML with the sentinels turned into <mark>s (dropped inside tags)."""
    out, depth = [], 0
    for part in _TAG_OR_TEXT.split(html):
        if part.startswith("<"):
            out.append(_strip_sentinels(part))
            continue

        def put(match: re.Match) -> str:
            nonlocal depth
            if match.group(0) == _CLOSE:
                if depth == 0:
                    return ""
                depth -= 1
                return "</mark>"
            key = ord(match.group(1)) - _KEY0
            if not 0 <= key < len(terms):
                return ""
            term = terms[key]
            depth += 1
            return (f'<mark class="term t{key % TERM_COLOURS}" data-zh="{escape(term.zh)}" '
                    f'data-en="{escape(term.en)}" tabindex="0" '
                    f'title="{escape(_term_title(term, glossary_path))}">')
        out.append(_SENTINEL_RE.sub(put, part))
    out.append("</mark>" * depth)
    return "".join(out)


# --------------------------------------------------------------------------- findings

def _line_range(lines: str) -> tuple[int, int]:
    numbers = [int(n) for n in re.findall(r"\d+", lines)]
    if not numbers:
        return 0, -1
    return numbers[0], numbers[-1]


def place_findings(notes: list[ReviewNote], findings: list[Finding]
                   ) -> tuple[dict[tuple[str, str], list[Finding]], dict[str, list[Finding]],
                              list[Finding]]:
    """Findings by (note, block id); findings of a note at no block; the rest."""
    by_block: dict[tuple[str, str], list[Finding]] = {}
    by_note: dict[str, list[Finding]] = {}
    other: list[Finding] = []
    index = {n.note: n for n in notes}
    for finding in findings:
        # a translation finding is placed in the parallel file and names its note
        note = index.get(finding.extra.get("note") or finding.file or "")
        if note is None:
            other.append(finding)
            continue
        target = None
        segment = str(finding.extra.get("segment") or "").split(".")[0]
        if segment:
            target = next((p for p in note.pairs if p.id == segment), None)
        line = finding.extra.get("note_line") or finding.line
        if target is None and line:
            covering = [p for p in note.pairs
                        if _line_range(p.lines)[0] <= line <= _line_range(p.lines)[1]]
            covering.sort(key=lambda p: p.status == "same")
            target = covering[0] if covering else None
        if target is None:
            by_note.setdefault(note.note, []).append(finding)
        else:
            by_block.setdefault((note.note, target.id), []).append(finding)
    return by_block, by_note, other




# --------------------------------------------------------------------------- links

def file_link(path: str, line: int | None, base: str = "", column: int | None = None,
              cls: str = "") -> str:
    """``path:line`` as plain text, and an "open" link (``vscode://file/…:line[:col]``)."""
    if not path:
        return ""
    plain = path + (f":{line}" if line else "") + (f":{column}" if line and column else "")
    absolute = path if os.path.isabs(path) or not base else os.path.join(base, path)
    target = "vscode://file" + quote(Path(absolute).as_posix() if os.sep == "/" else
                                     "/" + Path(absolute).as_posix())
    target += (f":{line}" if line else "") + (f":{column}" if line and column else "")
    c = f"loc {cls}".strip()
    return (f'<span class="{c}"><code class="path">{escape(plain)}</code>'
            f'<a class="open" href="{escape(target)}" title="open in VS Code">open</a></span>')


# --------------------------------------------------------------------------- findings HTML

def _finding_html(finding: Finding, base: str) -> str:
    note = finding.extra.get("note")
    source = ""
    if note and note != finding.file:
        source = " " + file_link(note, finding.extra.get("note_line"), base, cls="source-loc")
    return (f'<li class="finding sev-{escape(finding.severity)}" data-check="{escape(finding.check)}" '
            f'data-severity="{escape(finding.severity)}">'
            f'<span class="sev">{escape(finding.severity)}</span> '
            f'<code class="check">{escape(finding.check)}</code> '
            f'<span class="msg">{escape(finding.message)}</span>'
            f'{file_link(finding.file or "", finding.line, base, finding.column)}{source}</li>')


def _findings_html(findings: list[Finding], base: str) -> str:
    if not findings:
        return ""
    return f'<ul class="findings">{"".join(_finding_html(f, base) for f in findings)}</ul>'


def _worst(findings: list[Finding]) -> str:
    for severity in SEVERITIES:
        if any(f.severity == severity for f in findings):
            return severity
    return ""


# --------------------------------------------------------------------------- footnotes

_BACKREF = "\u21a9\ufe0e"              # ↩︎, as the footnote plugin writes it
_BACKREF_SLOT = re.compile(r"<!--zhen-backrefs ([^ ]+)-->")


class _Footnotes:
    """A note's footnotes on the page: every id is unique on the page, and a reference
    links to the footnote it means.

    Each block is rendered on its own, so the footnote plugin's ids (``fn1``, ``fnref1``)
    would repeat in every block, and a ``[^a]`` defined in another block would not be a
    reference at all. Here a referenced footnote's definition stays where the note defines
    it (its own block, id ``<note>-<block>-<side>-fn<n>``, ``n`` the label's number in the
    note) and every ``[^a]`` of the note (either side) links there; the definition links
    back to each of its references. An inline footnote ``^[…]`` is shown under the block
    that holds it, with ids of that block and side (``…-fni<m>``); such a paragraph is
    shown whole, not as sentence rows (the sentence split would cut the footnote).
    A block shown once (``same``) carries its definitions for both sides.
    """

    def __init__(self, note_id: str, pairs: list[Pair]):
        self.note_id = note_id
        self.numbers: dict[tuple[str, str], int] = {}      # (side, label) → n
        self.defined: dict[tuple[str, str], str] = {}      # (side, label) → element id
        self.local: dict[str, list[str]] = {}              # prefix → labels it defines
        self.backrefs: dict[str, list[str]] = {}           # element id → reference ids
        md = display_parser()
        for pair in pairs:
            sides = [("src", pair.source)] + ([] if pair.status == "same"
                                              else [("en", pair.english)])
            for side, text in sides:
                if "[^" not in text or "]:" not in text:     # defines no footnote
                    continue
                env: dict = {}
                md.parse(text, env)
                prefix = self.prefix(pair.id, side)
                labels = [key[1:] for key in env.get("footnotes", {}).get("refs", {})]
                self.local[prefix] = labels
                for label in labels:
                    element = f"{prefix}-fn{self._number(side, label)}"
                    self.defined.setdefault((side, label), element)
                    if pair.status == "same":
                        self._number("en", label)
                        self.defined.setdefault(("en", label), element)

    def _number(self, side: str, label: str) -> int:
        if (side, label) not in self.numbers:
            self.numbers[(side, label)] = 1 + sum(s == side for s, _ in self.numbers)
        return self.numbers[(side, label)]

    def prefix(self, block: str, side: str, row: int | None = None) -> str:
        return f"{self.note_id}-{block}-{side}" + ("" if row is None else f"-s{row}")

    def render(self, text: str, side: str, prefix: str, inline: bool = False) -> str:
        """``text`` (one block, or one sentence with ``inline``) as HTML with this
        note's footnote ids."""
        md = display_parser()
        local = self.local.get(prefix, [])
        refs = {f":{label}": -1 for s, label in self.defined if s == side}
        # this block's own definitions are listed even if it does not reference them
        env = {"footnotes": {"refs": refs,
                             "list": {i: {"label": label, "count": 0}
                                      for i, label in enumerate(local)}},
               "zhen": (self, side, prefix, {})}
        tokens = md.parseInline(text, env) if inline else md.parse(text, env)
        return _footnote_renderer().render(self._own(tokens, local), md.options, env)

    @staticmethod
    def _own(tokens, local: list[str]) -> list:
        """The tokens without footnote entries this block does not define (a reference
        to another block's footnote, a definition listed twice: parsing a definition
        re-registers its label, so a block that defines and references a label lists it
        twice, and ``shown`` keeps the first)."""
        out, shown, skipping, kept = [], set(), False, 0
        for tok in tokens:
            if tok.type == "footnote_open":
                label = tok.meta.get("label")
                skipping = label is not None and (label not in local or label in shown)
                shown.add(label)
                kept += not skipping
            if not skipping:
                out.append(tok)
            if tok.type == "footnote_close":
                skipping = False
        if not kept:
            out = [t for t in out if t.type not in ("footnote_block_open", "footnote_block_close")]
        return out

    @staticmethod
    def inline_number(env: dict, footnote_id: int) -> int:
        listed = env["footnotes"]["list"]
        return 1 + sum(1 for k, v in listed.items() if "tokens" in v and k < footnote_id)

    def link_backrefs(self, html: str) -> str:
        """The definitions' links back to their references, known once the whole note is
        rendered."""
        return _BACKREF_SLOT.sub(
            lambda m: "".join(f' <a href="#{r}" class="footnote-backref">{_BACKREF}</a>'
                              for r in self.backrefs.get(m.group(1), [])), html)


def _fn_ref(self, tokens, idx, options, env) -> str:
    notes, side, prefix, seen = env["zhen"]
    meta = tokens[idx].meta
    label = meta.get("label")
    if label is None:
        n = notes.inline_number(env, meta["id"])
        target, ref, caption = f"{prefix}-fni{n}", f"{prefix}-fnrefi{n}", f"^{n}"
    else:
        target = notes.defined.get((side, label), "")
        seen[label] = seen.get(label, 0) + 1
        number = notes.numbers.get((side, label), 0)
        ref, caption = f"{prefix}-fnref{number}-{seen[label]}", label
        notes.backrefs.setdefault(target, []).append(ref)
    return (f'<sup class="footnote-ref"><a href="#{target}" id="{ref}">'
            f'[{escape(caption)}]</a></sup>')


def _fn_open(self, tokens, idx, options, env) -> str:
    notes, side, prefix, _ = env["zhen"]
    label = tokens[idx].meta.get("label")
    ident = (f"{prefix}-fni{notes.inline_number(env, tokens[idx].meta['id'])}" if label is None
             else f"{prefix}-fn{notes.numbers.get((side, label), 0)}")
    return f'<li id="{ident}" class="footnote-item">'


def _fn_anchor(self, tokens, idx, options, env) -> str:
    notes, side, prefix, _ = env["zhen"]
    meta = tokens[idx].meta
    if meta.get("label") is None:
        n = notes.inline_number(env, meta["id"])
        return f' <a href="#{prefix}-fnrefi{n}" class="footnote-backref">{_BACKREF}</a>'
    if meta.get("subId", 0):
        return ""
    return f"<!--zhen-backrefs {prefix}-fn{notes.numbers.get((side, meta['label']), 0)}-->"


@lru_cache(maxsize=1)
def _footnote_renderer():
    """The display parser's renderer with the page's footnote ids (:class:`_Footnotes`)."""
    from markdown_it.renderer import RendererHTML

    renderer = RendererHTML()
    renderer.rules.update(display_parser().renderer.rules)
    for name, rule in (("footnote_ref", _fn_ref), ("footnote_open", _fn_open),
                       ("footnote_anchor", _fn_anchor)):
        renderer.rules[name] = rule.__get__(renderer)
    return renderer


# --------------------------------------------------------------------------- blocks

@dataclass
class _Row:
    pair: Pair
    english_spans: list[tuple[int, int, Term]]
    findings: list[Finding]

    @property
    def locked(self) -> int:
        return 0 if self.pair.status == "same" else len(self.pair.terms)


def block_shape(markdown: str) -> tuple[str, int]:
    """("heading", level) | ("paragraph", 0) for one paragraph (in a list item or quote
    too) | ("other", 0): tables, several paragraphs, code."""
    shape = outline(markdown)
    return shape.shape, shape.level


def _side(html: str, side: str) -> str:
    lang = "zh-CN" if side == "src" else "en"
    return f'<div class="{side} md" lang="{lang}">{html}</div>'


def _block_body(pair: Pair, english_spans, glossary_path: str, notes: _Footnotes
                ) -> tuple[str, str]:
    """The source and English of a translated block as rows: (mode, HTML)."""
    keys: dict[str, int] = {}
    for match in pair.terms:
        keys.setdefault(match.term.zh, len(keys))
    terms = [None] * len(keys)
    for match in pair.terms:
        terms[keys[match.term.zh]] = match.term
    src = _with_sentinels(pair.source, [(m.start, m.end, keys[m.term.zh]) for m in pair.terms])
    en = _with_sentinels(pair.english, [(s, e, keys[t.zh]) for s, e, t in english_spans
                                        if t.zh in keys])
    source = outline(pair.source)
    if source.shape == "paragraph" and outline(pair.english).shape == "paragraph":
        quoted = outline(src).quoted
        zh_text, en_text = outline(src).text or "", outline(en).text or ""
        pairs = align(zh_text, en_text)
        if pairs is not None and len(pairs) > 1:
            lead = source.lead
            rows = []
            for i, (zh, english) in enumerate(pairs):
                mark = f'<span class="lead">{escape(lead)}</span>' if lead and i == 0 else ""
                quote_cls = " quote" if quoted else ""
                zh_html = notes.render(zh, "src", notes.prefix(pair.id, "src", i), inline=True)
                en_html = notes.render(english, "en", notes.prefix(pair.id, "en", i), inline=True)
                rows.append(f'<div class="srow{quote_cls}">'
                            f'{_side(mark + _marks(zh_html, terms, glossary_path), "src")}'
                            f'{_side(_marks(en_html, terms, glossary_path), "en")}'
                            '</div>')
            return "sentences", "".join(rows)
        n_zh, n_en = len(split_sentences(zh_text, "zh")), len(split_sentences(en_text, "en"))
        note = (f'<p class="fallback">{n_zh} source sentence(s), {n_en} English: shown as one '
                'block</p>' if n_zh != n_en else "")
    else:
        note = ""
    zh_html = notes.render(src, "src", notes.prefix(pair.id, "src"))
    en_html = notes.render(en, "en", notes.prefix(pair.id, "en"))
    row = (f'<div class="srow">{_side(_marks(zh_html, terms, glossary_path), "src")}'
           f'{_side(_marks(en_html, terms, glossary_path), "en")}</div>')
    return "block", row + note


def _gutter(note_id: str, row: _Row, base: str) -> str:
    pair = row.pair
    status = str(pair.status)
    out = (f'<div class="gutter"><a class="block" href="#{note_id}-{escape(pair.id)}">'
           f'{escape(pair.id)}</a><span class="badge st-{escape(status)}">{escape(status)}</span>'
           + file_link(pair.note, pair.line, base, cls="src-loc"))
    if status in MARKABLE:
        checked = " checked" if status == "reviewed" else ""
        out += (f'<label class="tick"><input type="checkbox" class="mark-box" '
                f'data-block="{pair.index}"{checked}> reviewed</label>')
    if pair.en_line and pair.status != "same":
        out += file_link(*pair.where, base, cls="en-loc")
    if row.locked:
        ok = "ok" if len(row.english_spans) >= row.locked else "short"
        out += (f'<span class="count terms-{ok}" title="glossary terms rendered in the English '
                f'/ locked in the source">terms {len(row.english_spans)}/{row.locked}</span>')
    return out + "</div>"


def _was_html(pair: Pair, notes: _Footnotes) -> str:
    """A stale block: what its person had before the source changed, beside the new."""
    if pair.was is None:
        return ""
    whose = "reviewed" if pair.was.status == "reviewed" else "edited"
    cause = pair.cause
    en = notes.render(pair.was.english, "en", notes.prefix(pair.id, "was-en"))
    act = ("copy what you keep into the English in the parallel file, or mark the block "
           "reviewed")
    if cause is not None and cause.glossary and not cause.source:
        # the source reads as it did: only the English then is worth showing, and why
        return (f'<div class="was"><p class="was-head">The English a person {whose} before '
                f'{escape(cause.changed())}; the source is the same; {act}</p>'
                f'<div class="srow">{_side("", "src")}{_side(en, "en")}</div></div>')
    src = notes.render(pair.was.source, "src", notes.prefix(pair.id, "was-src"))
    also = (f"; {escape(cause.changed().replace('its source and ', '', 1))} too"
            if cause is not None and cause.glossary else "")
    return (f'<div class="was"><p class="was-head">Before the source changed (the English a '
            f'person {whose}{also}); {act}</p><div class="srow">{_side(src, "src")}'
            f'{_side(en, "en")}</div></div>')


def _row_html(note_id: str, row: _Row, base: str, glossary_path: str, notes: _Footnotes) -> str:
    pair = row.pair
    checks = " ".join(sorted({f.check for f in row.findings}))
    if pair.status == "same":
        first = next((line for line in pair.source.split("\n") if line.strip()), "")
        mode, body = "same", (
            f'<div class="same-text"><details><summary>unchanged: {escape(first[:120])}</summary>'
            f'<div class="md">{notes.render(pair.source, "src", notes.prefix(pair.id, "src"))}'
            '</div></details></div>')
    else:
        mode, rows = _block_body(pair, row.english_spans, glossary_path, notes)
        body = f'<div class="rows" data-mode="{mode}">{rows}</div>' + _was_html(pair, notes)
    attrs = (f'class="pair status-{escape(pair.status)}" id="{note_id}-{escape(pair.id)}" '
             f'data-block="{escape(pair.id)}" data-status="{escape(pair.status)}" '
             f'data-line="{pair.line}" data-findings="{len(row.findings)}" '
             f'data-checks="{escape(checks)}" data-worst="{_worst(row.findings)}" '
             f'data-locked="{row.locked}" data-found="{len(row.english_spans)}" '
             f'data-mode="{mode}"')
    return (f'<div {attrs}>{_gutter(note_id, row, base)}{body}'
            f'{_findings_html(row.findings, base)}</div>')


# --------------------------------------------------------------------------- counts

def _rows(inputs: ReviewInputs, by_block) -> dict[str, list[_Row]]:
    out = {}
    for note in inputs.notes:
        out[note.note] = [
            _Row(pair, [] if pair.status == "same" else english_term_spans(pair.english, pair.terms),
                 by_block.get((note.note, pair.id), []))
            for pair in note.pairs]
    return out


def _block_counts(rows: list[_Row]) -> dict[str, int]:
    translated = [r for r in rows if r.pair.status != "same"]
    return {
        "blocks": len(translated),
        "unchanged_blocks": len(rows) - len(translated),
        "locked_terms": sum(r.locked for r in translated),
        "terms_in_english": sum(len(r.english_spans) for r in translated),
        "edited_blocks": sum(1 for r in translated if r.pair.status in EDITED_STATUSES),
    }


def review_counts(inputs: ReviewInputs, rows: dict[str, list[_Row]] | None = None) -> dict:
    """The page's numbers: the header shows them, and every other count on the page (the
    index, the check filter, the "shown" line) is a part of them."""
    if rows is None:
        rows = _rows(inputs, place_findings(inputs.notes, inputs.findings)[0])
    counts = {"notes": len(inputs.notes),
              "translated_notes": sum(1 for n in inputs.notes if n.parallel is not None),
              **_block_counts([r for note_rows in rows.values() for r in note_rows]),
              "findings": len(inputs.findings)}
    counts.update(summarize(inputs.findings))
    return counts


# --------------------------------------------------------------------------- page parts

def _chips(counts: dict) -> str:
    def chip(key: str, label: str, cls: str = "") -> str:
        c = f' class="{cls}"' if cls else ""
        return (f'<li{c} data-count="{key}"><b id="count-{key}">{counts[key]}</b> '
                f'{escape(label)}</li>')

    mismatch = counts["terms_in_english"] != counts["locked_terms"]
    return "".join([
        chip("notes", "notes" if counts["notes"] != 1 else "note"),
        chip("translated_notes", "translated"),
        chip("blocks", "blocks"),
        chip("unchanged_blocks", "unchanged"),
        chip("locked_terms", "locked terms"),
        chip("terms_in_english", "terms found in the English", "mismatch" if mismatch else ""),
        chip("error", "errors", "c-error"),
        chip("warning", "warnings", "c-warning"),
        chip("info", "info", "c-info"),
        chip("edited_blocks", "edited by a person"),
    ])


def _filters(findings: list[Finding], statuses: dict[str, int] | None = None) -> str:
    statuses = statuses or {}
    status_options = "".join(f'<option value="{s}">{s} ({statuses.get(s, 0)})</option>'
                             for s in STATUSES)
    checks: dict[str, int] = {}
    for finding in findings:
        checks[finding.check] = checks.get(finding.check, 0) + 1
    options = "".join(f'<option value="{escape(c)}">{escape(c)} ({n})</option>'
                      for c, n in sorted(checks.items()))
    tally = summarize(findings)
    severities = "".join(f'<option value="{s}">{s} ({tally[s]})</option>' for s in SEVERITIES)
    return ('<form class="filters" id="filters" aria-label="filters">'
            '<label><input type="checkbox" id="f-findings"> only blocks with findings</label>'
            '<label><input type="checkbox" id="f-edited"> only blocks edited by a person</label>'
            '<label>status <select id="f-status"><option value="">any status</option>'
            f'{status_options}</select></label>'
            '<label>check <select id="f-check"><option value="">all checks</option>'
            f'{options}</select></label>'
            '<label>severity <select id="f-severity"><option value="">any severity</option>'
            f'{severities}</select></label>'
            '<label><input type="checkbox" id="f-same" checked> show unchanged blocks</label>'
            '<span id="shown"></span></form>')


def _note_findings(rows: list[_Row], loose: list[Finding]) -> int:
    return sum(len(r.findings) for r in rows) + len(loose)


def _index(inputs: ReviewInputs, rows, by_note) -> str:
    items = []
    for i, note in enumerate(inputs.notes, start=1):
        counts = _block_counts(rows[note.note])
        detail = (note.problem if note.parallel is None else
                  f"{counts['blocks']} blocks, "
                  f"{_note_findings(rows[note.note], by_note.get(note.note, []))} findings")
        items.append(f'<li><a href="#note-{i}">{escape(note.note)}</a> '
                     f'<span class="n" data-blocks="{counts["blocks"]}">— {escape(detail)}</span></li>')
    return f'<nav class="index" id="index"><h2>Notes</h2><ol>{"".join(items)}</ol></nav>'


def _outline(note_id: str, rows: list[_Row]) -> str:
    """The note's headings (English, with the source beside), nested by level."""
    heads = []
    for row in rows:
        kind, level = block_shape(row.pair.source)
        if kind == "heading" and row.pair.status != "same":
            heads.append((level, row.pair))
    if len(heads) < 2:
        return ""
    out, depth = [], 0
    top = min(level for level, _ in heads)
    for level, pair in heads:
        level = level - top + 1
        while depth < level:
            out.append("<ol>")
            depth += 1
        while depth > level:
            out.append("</ol>")
            depth -= 1
        # the heading's text as the parser reads it: ATX (# …) and Setext (… / ===) alike
        en = outline(pair.english).text or pair.english.strip()
        zh = outline(pair.source).text or pair.source.strip()
        out.append(f'<li><a href="#{note_id}-{escape(pair.id)}">{escape(en)}</a> '
                   f'<span class="zh" lang="zh-CN">{escape(zh)}</span></li>')
    out.append("</ol>" * depth)
    return (f'<nav class="outline" aria-label="outline"><details open><summary>Outline '
            f'({len(heads)} headings)</summary>{"".join(out)}</details></nav>')


def _mark_box(note: ReviewNote) -> str:
    """The command that marks the ticked blocks reviewed (review.js keeps it up to date)."""
    command = f"zhen mark {shlex.quote(note.note)}"
    return (f'<div class="mark" data-command="{escape(command)}">Tick <em>reviewed</em> on the '
            f'blocks you have read, then run <code class="mark-cmd">{escape(command)}</code> '
            '<button type="button" class="copy">copy</button></div>')


def _orphans_html(note: ReviewNote) -> str:
    if not note.orphans:
        return ""
    items = "".join(
        f'<li><span class="src-loc">{escape(note.note)}:{escape(o.lines.lstrip("L"))} once</span>'
        f'<div class="srow"><div class="side src" lang="zh-CN">{escape(o.source)}</div>'
        f'<div class="side en">{escape(o.english)}</div></div></li>' for o in note.orphans)
    return (f'<details class="orphans" open><summary>{len(note.orphans)} edit(s) whose block is no '
            f'longer in the note (kept at the end of {escape(note.parallel or "")})</summary>'
            f'<ol>{items}</ol></details>')


def _note_section(i: int, note: ReviewNote, rows: list[_Row], loose: list[Finding],
                  inputs: ReviewInputs) -> str:
    note_id = f"note-{i}"
    head = [f'<h2>{escape(note.note)}</h2>']
    if note.parallel is not None:
        counts = _block_counts(rows)
        info = (f"parallel file {note.parallel} · {counts['blocks']} blocks · "
                f"{counts['locked_terms']} locked terms")
        if note.engine:
            info += f" · engine: {note.engine}"
        head.append(f'<div class="meta">{escape(info)}</div>')
        head.append(_outline(note_id, rows))
        if any(str(r.pair.status) in MARKABLE for r in rows):
            head.append(_mark_box(note))
    else:
        head.append(f'<p class="notice untranslated">{escape(note.problem)}</p>')
    if loose:
        head.append(f'<div class="loose">{_findings_html(loose, inputs.base)}</div>')
    body = ""
    if rows:
        glossary_path = inputs.glossary.path
        notes = _Footnotes(note_id, note.pairs)
        body = notes.link_backrefs(
            '<div class="colheads" aria-hidden="true"><span>block</span>'
            '<span>source (中文)</span><span>English</span></div>'
            + "".join(_row_html(note_id, r, inputs.base, glossary_path, notes) for r in rows)
            + '<p class="empty" hidden>no block of this note matches the filters</p>'
            + _orphans_html(note))
    return (f'<section class="note" id="{note_id}" data-note="{escape(note.note)}">'
            f'{"".join(head)}{body}</section>')


def _other_findings(other: list[Finding], base: str) -> str:
    tally = summarize(other)
    said = ", ".join(f"{n} {name}" for name, n in tally.items() if n)
    opened = " open" if tally["error"] or tally["warning"] else ""
    return (f'<section class="loose" id="other-findings"><details{opened}><summary>'
            f'<h2>Glossary and other findings not tied to a block ({escape(said)})</h2>'
            f'</summary>{_findings_html(other, base)}</details></section>')


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def _page(title: str, meta: list[str], chips: str, filters: str, body: str) -> str:
    css, js = asset("review.css"), asset("review.js")
    csp = (f"default-src 'none'; style-src {_csp_hash(css)}; script-src {_csp_hash(js)}; "
           "img-src data:; base-uri 'none'; form-action 'none'")
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{escape(csp)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="zhen review"><title>{escape(title)}</title>'
        f"<style>{css}</style></head>\n"
        f'<body><header class="top"><h1>{escape(title)}</h1>'
        f'<div class="meta">{" · ".join(meta)}</div>'
        f'<ul class="counts" id="counts">{chips}</ul></header>\n'
        f"{filters}\n<main>{body}</main>\n"
        f"<script>{js}</script></body></html>\n")


def render_review(inputs: ReviewInputs, *, title: str = "zhen review",
                  generated: str | None = None) -> str:
    """The review page for ``inputs``, as one HTML string (no I/O)."""
    by_block, by_note, other = place_findings(inputs.notes, inputs.findings)
    rows = _rows(inputs, by_block)
    engines = sorted({n.engine for n in inputs.notes if n.engine})
    meta = [f"glossary {escape(inputs.glossary.path)} ({len(inputs.glossary.terms)} terms)"]
    if engines:
        meta.append("engine: " + "; ".join(escape(e) for e in engines))
    if generated:
        meta.append(f"generated {escape(generated)}")
    body = [_index(inputs, rows, by_note)] if len(inputs.notes) > 1 else []
    if other:
        body.append(_other_findings(other, inputs.base))
    body += [_note_section(i, note, rows[note.note], by_note.get(note.note, []), inputs)
             for i, note in enumerate(inputs.notes, start=1)]
    statuses = {s: sum(1 for note_rows in rows.values() for r in note_rows
                       if str(r.pair.status) == s) for s in STATUSES}
    return _page(title, meta, _chips(review_counts(inputs, rows)),
                 _filters(inputs.findings, statuses),
                 "".join(body))
