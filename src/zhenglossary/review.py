"""The review page: one self-contained HTML file to review translations block by block.

``review_inputs(report)`` collects what the page shows from the report of
:func:`api.check_project` (which reads the parallel files back into pairs; the façade's
``api.review_page`` runs both); ``render_review(inputs)`` turns that into the page — a pure function, no I/O.

The page:

* one section per note: each block pair as a row — block id, source lines, status, then
  the source and the English side by side. Source and English are shown as the Markdown
  text they are (escaped, line breaks kept), not rendered. Blocks with nothing to translate
  (``same``: code, HTML, English paragraphs) are shown dimmed and collapsed to one line,
  spanning both columns (a filter hides them);
* glossary terms highlighted on both sides (``<mark class="term" data-zh=...>``, tooltip
  zh → en and the term's note): in the source every glossary match; in the English each
  locked term's ``en`` (case-insensitive, whitespace-flexible, outside code and URLs), at
  most as many times as the term was locked in that block, so on a correct translation
  the highlights in the English equal the locked terms;
* every finding of ``zhen glossary check`` at its block (by ``segment``, else by line),
  findings that belong to no block at the top of their note or of the page;
* filters (vanilla JS): only blocks with findings, only blocks a person edited
  (edited, approved, stale), by check, by severity, show/hide unchanged blocks.

Everything in the page is HTML-escaped. A Content-Security-Policy with the hashes of the
page's own style and script blocks everything else: no network, and no script but ours.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass, field
from html import escape

from .findings import SEVERITIES, Finding, summarize
from .glossary import Glossary, Match, Term
from .pairs import Pair
from .prose import prose_view

EDITED_STATUSES = ("edited", "approved", "stale")


@dataclass
class ReviewNote:
    note: str                          # display path of the note
    parallel: str | None = None        # display path of x.zh-en.md, None if not translated
    engine: str = ""                   # from the parallel file's first line
    pairs: list[Pair] = field(default_factory=list)
    problem: str = ""                  # why there are no pairs (not translated, unreadable)


@dataclass
class ReviewInputs:
    glossary: Glossary
    notes: list[ReviewNote]
    findings: list[Finding]

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
            notes.append(ReviewNote(note.display, pairs.parallel, pairs.engine, pairs.pairs))
    return ReviewInputs(report.glossary, notes, report.findings)


# --------------------------------------------------------------------------- terms

def english_term_spans(english: str, locked: list[Match]) -> list[tuple[int, int, Term]]:
    """Where the English renders the locked terms: (start, end, term), sorted.

    Each ``en`` is looked up case-insensitively (any whitespace between its words) in the
    English outside code, URLs and HTML, at most as many times as terms with that ``en``
    were locked in the source. Longer renderings claim their places first ("data
    parallelism" before "parallel"); whole-word occurrences are preferred, then any.
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
        terms = groups[key]
        words = key.split()
        if not words:
            continue
        pattern = re.compile(r"\s+".join(re.escape(w) for w in words), re.IGNORECASE)
        found = [m.span() for m in pattern.finditer(view)]

        def whole(span: tuple[int, int]) -> bool:
            s, e = span
            left = s == 0 or not view[s - 1].isalnum() or not view[s].isalnum()
            right = e == len(view) or not view[e].isalnum() or not view[e - 1].isalnum()
            return left and right

        chosen: list[tuple[int, int]] = []
        for wanted in (True, False):
            for span in found:
                if len(chosen) == len(terms):
                    break
                if whole(span) == wanted and free(*span):
                    chosen.append(span)
                    taken.append(span)
        chosen.sort()
        for (start, end), term in zip(chosen, terms):
            spans.append((start, end, term))
    spans.sort(key=lambda s: s[0])
    return spans


def _term_title(term: Term, form: str | None = None) -> str:
    zh = term.zh if form in (None, term.zh) else f"{form} ({term.zh})"
    title = f"{zh} → {term.en}"
    if term.note:
        title += f"\n{term.note}"
    return title


def _mark(term: Term, text: str, form: str | None = None) -> str:
    return (f'<mark class="term" data-zh="{escape(term.zh)}" data-en="{escape(term.en)}" '
            f'title="{escape(_term_title(term, form))}">{escape(text)}</mark>')


def _highlighted(text: str, spans: list[tuple[int, int, Term, str | None]]) -> str:
    parts, pos = [], 0
    for start, end, term, form in spans:
        if start < pos:
            continue
        parts.append(escape(text[pos:start]))
        parts.append(_mark(term, text[start:end], form))
        pos = end
    parts.append(escape(text[pos:]))
    return "".join(parts)


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
        note = index.get(finding.file or "")
        if note is None:
            other.append(finding)
            continue
        target = None
        segment = str(finding.extra.get("segment") or "").split(".")[0]
        if segment:
            target = next((p for p in note.pairs if p.id == segment), None)
        if target is None and finding.line:
            covering = [p for p in note.pairs
                        if _line_range(p.lines)[0] <= finding.line <= _line_range(p.lines)[1]]
            covering.sort(key=lambda p: p.status == "same")
            target = covering[0] if covering else None
        if target is None:
            by_note.setdefault(note.note, []).append(finding)
        else:
            by_block.setdefault((note.note, target.id), []).append(finding)
    return by_block, by_note, other


# --------------------------------------------------------------------------- page

@dataclass
class _Row:
    pair: Pair
    english_spans: list[tuple[int, int, Term]]
    findings: list[Finding]

    @property
    def locked(self) -> int:
        return 0 if self.pair.status == "same" else len(self.pair.terms)


def _finding_html(finding: Finding, show_where: bool = False) -> str:
    where = f'<span class="where">{escape(finding.where)}</span> ' if show_where and finding.where else ""
    return (f'<li class="finding sev-{escape(finding.severity)}" data-check="{escape(finding.check)}" '
            f'data-severity="{escape(finding.severity)}">'
            f'<span class="sev">{escape(finding.severity)}</span> '
            f'<code class="check">{escape(finding.check)}</code> {where}'
            f'<span class="msg">{escape(finding.message)}</span></li>')


def _findings_html(findings: list[Finding], show_where: bool = False) -> str:
    if not findings:
        return ""
    items = "".join(_finding_html(f, show_where) for f in findings)
    return f'<ul class="findings">{items}</ul>'


def _worst(findings: list[Finding]) -> str:
    for severity in SEVERITIES:
        if any(f.severity == severity for f in findings):
            return severity
    return ""


def _row_html(note_id: str, row: _Row) -> str:
    pair = row.pair
    checks = " ".join(sorted({f.check for f in row.findings}))
    attrs = (f'class="pair status-{escape(pair.status)}" id="{note_id}-{escape(pair.id)}" '
             f'data-block="{escape(pair.id)}" data-status="{escape(pair.status)}" '
             f'data-line="{pair.line}" data-findings="{len(row.findings)}" '
             f'data-checks="{escape(checks)}" data-worst="{_worst(row.findings)}" '
             f'data-locked="{row.locked}" data-found="{len(row.english_spans)}"')
    status = pair.status if pair.current else f"{pair.status}, source changed"
    en_title = f"edit the English in {pair.parallel}" + (f", line {pair.en_line}" if pair.en_line else "")
    gutter = (f'<div class="gutter"><a class="block" href="#{note_id}-{escape(pair.id)}">'
              f'{escape(pair.id)}</a> <span class="lines">{escape(pair.lines)}</span>'
              f'<span class="badge st-{escape(pair.status)}">{escape(status)}</span>')
    if row.locked:
        ok = "ok" if len(row.english_spans) >= row.locked else "short"
        gutter += (f'<span class="count terms-{ok}" title="glossary terms rendered in the English '
                   f'/ locked in the source">terms {len(row.english_spans)}/{row.locked}</span>')
    gutter += (f'<span class="edit" title="{escape(en_title)}">zh-en.md L{pair.en_line}</span></div>'
               if pair.en_line else "</div>")
    if pair.status == "same":
        first = next((line for line in pair.source.split("\n") if line.strip()), "")
        body = (f'<div class="same-text"><details><summary>unchanged: {escape(first[:120])}'
                f'</summary><div class="text">{escape(pair.source)}</div></details></div>')
    else:
        src_spans = [(m.start, m.end, m.term, m.form) for m in pair.terms]
        en_spans = [(s, e, t, None) for s, e, t in row.english_spans]
        body = (f'<div class="src text" lang="zh-CN">{_highlighted(pair.source, src_spans)}</div>'
                f'<div class="en text" lang="en">{_highlighted(pair.english, en_spans)}</div>')
    return f'<div {attrs}>{gutter}{body}{_findings_html(row.findings)}</div>'


_CSS = """
:root{--bg:#fbfaf7;--fg:#1d1d1f;--muted:#6b6b70;--line:#e2dfd8;--card:#fff;
--term:#fff0a8;--term-line:#d9b400;--err:#b3261e;--err-bg:#fdecea;--warn:#8a5a00;
--warn-bg:#fff4dc;--info:#1d5f8a;--info-bg:#e8f2fa;
--zh:"Noto Sans CJK SC","Noto Sans SC","Source Han Sans SC","Source Han Sans CN","PingFang SC",
"Hiragino Sans GB","Microsoft YaHei","WenQuanYi Micro Hei","Droid Sans Fallback",sans-serif;
--en:Charter,"Bitstream Charter","Sitka Text",Cambria,"Noto Serif","DejaVu Serif",Georgia,
"Noto Serif CJK SC","Source Han Serif SC","Songti SC",serif;
--ui:system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","Helvetica Neue",Arial,
"Noto Sans CJK SC","PingFang SC","Microsoft YaHei",sans-serif;
--mono:ui-monospace,"SFMono-Regular",Menlo,Consolas,"DejaVu Sans Mono","Noto Sans Mono CJK SC",monospace}
*{box-sizing:border-box}
[hidden]{display:none!important}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 var(--ui)}
header.top{padding:1.2rem 1.5rem .6rem;border-bottom:1px solid var(--line);background:var(--card)}
h1{font-size:1.35rem;margin:0 0 .3rem}
.meta{color:var(--muted);font-size:.85rem;overflow-wrap:anywhere}
.counts{display:flex;flex-wrap:wrap;gap:.4rem .5rem;margin:.7rem 0 0;padding:0;list-style:none}
.counts li{border:1px solid var(--line);border-radius:6px;padding:.15rem .55rem;font-size:.85rem;background:var(--bg)}
.counts b{font-variant-numeric:tabular-nums}
.counts .c-error b{color:var(--err)}.counts .c-warning b{color:var(--warn)}.counts .c-info b{color:var(--info)}
.counts .mismatch{border-color:var(--err);color:var(--err)}
.filters{position:sticky;top:0;z-index:5;display:flex;flex-wrap:wrap;align-items:center;gap:.4rem 1.1rem;
padding:.55rem 1.5rem;background:#f3f1ec;border-bottom:1px solid var(--line);font-size:.88rem}
.filters label{white-space:nowrap;cursor:pointer}
.filters select{font:inherit;max-width:16rem}
#shown{color:var(--muted);margin-left:auto}
main{padding:0 1.5rem 3rem;max-width:110rem;margin:0 auto}
nav.index{margin:1rem 0;padding:.6rem 1rem;background:var(--card);border:1px solid var(--line);border-radius:8px}
nav.index h2{font-size:1rem;margin:0 0 .3rem}
nav.index ol{margin:0;padding-left:1.4rem}
nav.index li{overflow-wrap:anywhere}
nav.index .n{color:var(--muted);font-size:.85rem}
section.note{margin:1.6rem 0;scroll-margin-top:4rem}
.pair,#other-findings,#index{scroll-margin-top:4.5rem}
section.note>h2{font-size:1.15rem;margin:0 0 .2rem;overflow-wrap:anywhere}
.notice{padding:.6rem .9rem;border-radius:6px;background:var(--warn-bg);color:var(--warn);margin:.5rem 0}
.colheads{display:grid;grid-template-columns:9rem minmax(0,1fr) minmax(0,1fr);gap:0 1.2rem;
padding:.3rem .8rem;font-size:.8rem;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
.pair{display:grid;grid-template-columns:9rem minmax(0,1fr) minmax(0,1fr);gap:.2rem 1.2rem;
padding:.65rem .8rem;background:var(--card);border:1px solid var(--line);margin-top:-1px}
.pair:target{outline:2px solid var(--term-line);outline-offset:-2px}
.pair[data-worst=error]{box-shadow:inset 4px 0 0 var(--err)}
.pair[data-worst=warning]{box-shadow:inset 4px 0 0 #e0a100}
.gutter{font:12px/1.4 var(--ui);color:var(--muted);display:flex;flex-direction:column;gap:.15rem;min-width:0}
.gutter .block{font-weight:600;color:var(--fg);text-decoration:none;font-family:var(--mono)}
.gutter .edit{overflow-wrap:anywhere;font-family:var(--mono);font-size:11px}
.badge{align-self:flex-start;border-radius:4px;padding:0 .35rem;background:#eee;color:#444}
.st-edited{background:#e6f4ea;color:#1e6b34}.st-approved{background:#d5efdc;color:#145226}
.st-stale{background:var(--warn-bg);color:var(--warn)}.st-same{background:#f0f0f0;color:#888}
.terms-short{color:var(--err);font-weight:600}
.text{white-space:pre-wrap;overflow-wrap:anywhere;word-break:normal;min-width:0}
.src{font-family:var(--zh);font-size:16px;line-height:1.8;line-break:strict}
.en{font-family:var(--en);font-size:16px;line-height:1.6;hyphens:manual}
mark.term{background:var(--term);color:inherit;border-bottom:2px solid var(--term-line);
border-radius:2px;padding:0 .05em;margin:0 1px;cursor:help}
.status-same{background:#f7f6f2;color:var(--muted);padding-top:.35rem;padding-bottom:.35rem}
.same-text{grid-column:2/4;min-width:0;font-size:13px}
.status-same .gutter{flex-direction:row;flex-wrap:wrap;gap:.4rem;align-items:baseline}
.status-same .edit{display:none}
.same-text summary{cursor:pointer;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;font-family:var(--mono)}
.same-text .text{font-family:var(--mono);margin-top:.3rem}
.findings{grid-column:2/4;list-style:none;margin:.35rem 0 0;padding:0;display:flex;flex-direction:column;gap:.25rem;min-width:0}
.finding{padding:.3rem .6rem;border-radius:5px;font-size:.88rem;overflow-wrap:anywhere;border-left:4px solid}
.sev-error{background:var(--err-bg);border-color:var(--err)}
.sev-warning{background:var(--warn-bg);border-color:#e0a100}
.sev-info{background:var(--info-bg);border-color:var(--info)}
.finding .sev{font-weight:700;text-transform:uppercase;font-size:.72rem;letter-spacing:.05em}
.sev-error .sev{color:var(--err)}.sev-warning .sev{color:var(--warn)}.sev-info .sev{color:var(--info)}
.finding .check{font-family:var(--mono);font-size:.8rem}
.finding .where{font-family:var(--mono);font-size:.8rem;color:var(--muted)}
.loose .findings{margin:.4rem 0 .8rem}
.loose summary{cursor:pointer}
.loose summary h2{display:inline;font-size:1.05rem}
#other-findings{margin:1rem 0}
.empty{color:var(--muted);font-style:italic;padding:.5rem .8rem}
code{font-family:var(--mono)}
@media (max-width:50rem){
.pair,.colheads{grid-template-columns:minmax(0,1fr)}
.colheads{display:none}
.gutter{flex-direction:row;flex-wrap:wrap;gap:.5rem}
.findings,.same-text{grid-column:1}
.src{border-bottom:1px dashed var(--line);padding-bottom:.3rem}
}
@media print{.filters{display:none}.pair{break-inside:avoid}}
"""

_JS = """
(function () {
  "use strict";
  var rank = {error: 0, warning: 1, info: 2};
  var byId = function (id) { return document.getElementById(id); };
  var rows = Array.prototype.slice.call(document.querySelectorAll(".pair"));
  var findings = Array.prototype.slice.call(document.querySelectorAll(".finding"));
  var controls = ["f-findings", "f-edited", "f-same", "f-check", "f-severity"];
  function apply() {
    var onlyFindings = byId("f-findings").checked;
    var onlyEdited = byId("f-edited").checked;
    var showSame = byId("f-same").checked;
    var check = byId("f-check").value;
    var lowest = rank[byId("f-severity").value];
    findings.forEach(function (f) {
      f.hidden = rank[f.getAttribute("data-severity")] > lowest ||
        (check !== "" && f.getAttribute("data-check") !== check);
    });
    Array.prototype.forEach.call(document.querySelectorAll(".findings"), function (list) {
      list.hidden = list.querySelector(".finding:not([hidden])") === null;
    });
    var shown = 0;
    rows.forEach(function (row) {
      var status = row.getAttribute("data-status");
      var visible = row.querySelectorAll(".finding:not([hidden])").length;
      var show = true;
      if ((onlyFindings || check !== "") && visible === 0) { show = false; }
      if (onlyEdited && ["edited", "approved", "stale"].indexOf(status) < 0) { show = false; }
      if (!showSame && status === "same") { show = false; }
      row.hidden = !show;
      if (show) { shown += 1; }
    });
    Array.prototype.forEach.call(document.querySelectorAll("section.note"), function (section) {
      var empty = section.querySelector(".empty");
      var total = section.querySelectorAll(".pair").length;
      if (empty) { empty.hidden = total === 0 || section.querySelector(".pair:not([hidden])") !== null; }
    });
    byId("shown").textContent = shown + " of " + rows.length + " blocks shown";
    document.body.setAttribute("data-filtered", "yes");
  }
  controls.forEach(function (id) { byId(id).addEventListener("change", apply); });
  apply();
})();
"""


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


def review_counts(inputs: ReviewInputs, rows: dict[str, list[_Row]] | None = None) -> dict:
    """The header's numbers."""
    if rows is None:
        rows = _rows(inputs, place_findings(inputs.notes, inputs.findings)[0])
    all_rows = [r for note_rows in rows.values() for r in note_rows]
    translated = [r for r in all_rows if r.pair.status != "same"]
    counts = {
        "notes": len(inputs.notes),
        "translated_notes": sum(1 for n in inputs.notes if n.parallel is not None),
        "blocks": len(translated),
        "unchanged_blocks": len(all_rows) - len(translated),
        "locked_terms": sum(r.locked for r in translated),
        "terms_in_english": sum(len(r.english_spans) for r in translated),
        "edited_blocks": sum(1 for r in translated if r.pair.status in EDITED_STATUSES),
        "findings": len(inputs.findings),
    }
    counts.update(summarize(inputs.findings))
    return counts


def _rows(inputs: ReviewInputs, by_block) -> dict[str, list[_Row]]:
    out = {}
    for note in inputs.notes:
        out[note.note] = [
            _Row(pair, [] if pair.status == "same" else english_term_spans(pair.english, pair.terms),
                 by_block.get((note.note, pair.id), []))
            for pair in note.pairs]
    return out


def render_review(inputs: ReviewInputs, *, title: str = "zhen review",
                  generated: str | None = None) -> str:
    """The review page for ``inputs``, as one HTML string (no I/O)."""
    by_block, by_note, other = place_findings(inputs.notes, inputs.findings)
    rows = _rows(inputs, by_block)
    counts = review_counts(inputs, rows)

    engines = sorted({n.engine for n in inputs.notes if n.engine})
    meta = [f"glossary {escape(inputs.glossary.path)} ({len(inputs.glossary.terms)} terms)"]
    if engines:
        meta.append("engine: " + "; ".join(escape(e) for e in engines))
    if generated:
        meta.append(f"generated {escape(generated)}")

    def chip(key: str, label: str, value, extra: str = "", cls: str = "") -> str:
        c = f' class="{cls}"' if cls else ""
        return (f'<li{c} data-count="{key}"{extra}><b id="count-{key}">{value}</b> '
                f'{escape(label)}</li>')

    mismatch = counts["terms_in_english"] != counts["locked_terms"]
    chips = [
        chip("notes", "notes" if counts["notes"] != 1 else "note", counts["notes"]),
        chip("translated_notes", "translated", counts["translated_notes"]),
        chip("blocks", "blocks", counts["blocks"]),
        chip("unchanged_blocks", "unchanged", counts["unchanged_blocks"]),
        chip("locked_terms", "locked terms", counts["locked_terms"]),
        chip("terms_in_english", "terms found in the English", counts["terms_in_english"],
             cls="mismatch" if mismatch else ""),
        chip("error", "errors", counts["error"], cls="c-error"),
        chip("warning", "warnings", counts["warning"], cls="c-warning"),
        chip("info", "info", counts["info"], cls="c-info"),
        chip("edited_blocks", "edited by a person", counts["edited_blocks"]),
    ]

    checks: dict[str, int] = {}
    for finding in inputs.findings:
        checks[finding.check] = checks.get(finding.check, 0) + 1
    options = "".join(f'<option value="{escape(c)}">{escape(c)} ({n})</option>'
                      for c, n in sorted(checks.items()))
    filters = (
        '<form class="filters" id="filters" aria-label="filters">'
        '<label><input type="checkbox" id="f-findings"> only blocks with findings</label>'
        '<label><input type="checkbox" id="f-edited"> only blocks edited by a person</label>'
        '<label>check <select id="f-check"><option value="">all checks</option>'
        f'{options}</select></label>'
        '<label>severity <select id="f-severity"><option value="info">all</option>'
        '<option value="warning">warnings and errors</option><option value="error">errors</option>'
        '</select></label>'
        '<label><input type="checkbox" id="f-same" checked> show unchanged blocks</label>'
        '<span id="shown"></span></form>')

    body: list[str] = []
    if len(inputs.notes) > 1:
        items = []
        for i, note in enumerate(inputs.notes, start=1):
            note_rows = rows[note.note]
            n_findings = sum(len(r.findings) for r in note_rows) + len(by_note.get(note.note, []))
            detail = (note.problem if note.parallel is None else
                      f"{sum(r.pair.status != 'same' for r in note_rows)} blocks, "
                      f"{n_findings} findings")
            items.append(f'<li><a href="#note-{i}">{escape(note.note)}</a> '
                         f'<span class="n">— {escape(detail)}</span></li>')
        body.append(f'<nav class="index" id="index"><h2>Notes</h2><ol>{"".join(items)}</ol></nav>')
    if other:
        tally = summarize(other)
        said = ", ".join(f"{n} {name}" for name, n in tally.items() if n)
        opened = " open" if tally["error"] or tally["warning"] else ""
        body.append(f'<section class="loose" id="other-findings"><details{opened}><summary>'
                    f'<h2>Glossary and other findings not tied to a block ({escape(said)})</h2>'
                    f'</summary>{_findings_html(other, show_where=True)}</details></section>')
    for i, note in enumerate(inputs.notes, start=1):
        note_id = f"note-{i}"
        note_rows = rows[note.note]
        head = [f'<h2>{escape(note.note)}</h2>']
        if note.parallel is not None:
            locked = sum(r.locked for r in note_rows)
            n = sum(r.pair.status != "same" for r in note_rows)
            info = f"parallel file {note.parallel} · {n} blocks · {locked} locked terms"
            if note.engine:
                info += f" · engine: {note.engine}"
            head.append(f'<div class="meta">{escape(info)}</div>')
        else:
            head.append(f'<p class="notice untranslated">{escape(note.problem)}</p>')
        loose = by_note.get(note.note, [])
        if loose:
            head.append(f'<div class="loose">{_findings_html(loose, show_where=True)}</div>')
        pairs_html = ""
        if note_rows:
            pairs_html = ('<div class="colheads" aria-hidden="true"><span>block</span>'
                          '<span>source (中文)</span><span>English</span></div>'
                          + "".join(_row_html(note_id, r) for r in note_rows)
                          + '<p class="empty" hidden>no block of this note matches the filters</p>')
        body.append(f'<section class="note" id="{note_id}" data-note="{escape(note.note)}">'
                    f'{"".join(head)}{pairs_html}</section>')

    csp = (f"default-src 'none'; style-src {_csp_hash(_CSS)}; script-src {_csp_hash(_JS)}; "
           "img-src data:; base-uri 'none'; form-action 'none'")
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{escape(csp)}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="generator" content="zhen review"><title>{escape(title)}</title>'
        f"<style>{_CSS}</style></head>\n"
        f'<body><header class="top"><h1>{escape(title)}</h1>'
        f'<div class="meta">{" · ".join(meta)}</div>'
        f'<ul class="counts" id="counts">{"".join(chips)}</ul></header>\n'
        f"{filters}\n<main>{''.join(body)}</main>\n"
        f"<script>{_JS}</script></body></html>\n")
