"""Segments, masking, and the term lock: mask → translate → restore → verify → fallback.

A region's inline content becomes *segments* (sentences). In each segment every glossary
term and every protected span — inline code, URLs, e-mail addresses, math, HTML, images,
escapes, entities and Latin-script runs (model names, ``A100``, ``INT8/INT4 Tensor
Core``, ``488GB``) — is replaced by a placeholder ``ZX1``, ``ZX2``, … . Emphasis, strong,
strikethrough and link text are placeholders too, whose inner text is translated as
segments of its own and put back between the original markup. Bare numbers stay in the
text.

After translation a hypothesis is accepted only if every placeholder appears exactly
once and no ``forbid`` rendering appears. Otherwise the next hypothesis is tried, then
the pieces between placeholders are translated on their own and joined around the
restored placeholders (which cannot lose a term). A segment that still fails is a
finding. Restoring puts each term's ``en`` and each protected span's exact source bytes
back, so the invariant holds: every glossary term of a segment appears as its ``en``, and
protected spans are byte-identical.

Why this module is long: segmenting, masking, restoring and verifying are one contract
(the placeholders) and each step must agree with the others byte for byte.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .document import Break, Document, Raw, Region, Text, Wrap
from .glossary import Glossary, Term
from .markdown import starts_with_role
from .prose import EMAIL_RE, find_urls
from .placeholders import (EXACT, PLACEHOLDER_RE, PREFIX, answer_problem,
                           between_placeholders, ends_with_placeholder, is_placeholder, number_of,
                           placeholder, placeholder_problem, split_exact,
                           starts_with_placeholder)
from . import terms
from .terms import capitalise_start
from .textutil import CJK_CLASS, has_cjk, is_cjk_char


_ESCAPE_RE = re.compile(r"\\[!-/:-@\[-`{-~]")
_INLINE_ENV = re.compile(r"\\begin\{([A-Za-z]+\*?)\}.*?\\end\{\1\}", re.S)
_ENTITY_RE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_TASK_RE = re.compile(r"^\[[ xX]\](?=\s)")
# a callout marker with text after it, opening a paragraph (``> [!NOTE] 标题``, an Obsidian
# callout with its title; not an alert to GitHub or the parser, which want the marker alone
# on its line: markdown.use_alerts): kept as written, the text after it translated
_CALLOUT_RE = re.compile(r"^\[![A-Za-z][A-Za-z0-9_-]*\][+-]?(?=[ \t]|$)")
_CITE_RE = re.compile(r"\[\d+(?:[,\-–]\s*\d+)*\]")
_TOKEN = r"(?:[A-Za-z0-9]|\\[!-/:-@\[-`{-~])(?:[A-Za-z0-9_.+\-/#@&'’%×*]|\\[!-/:-@\[-`{-~])*"
_LATIN_RE = re.compile(rf"{_TOKEN}(?:(?:[ \t]+|[ \t]*,[ \t]*){_TOKEN})*")
_HAS_LETTER = re.compile(r"[A-Za-z]")
# public names for checks/translations.py, which looks for the same Latin runs in the English
LATIN_RUN_RE, HAS_LETTER = _LATIN_RE, _HAS_LETTER
_LITERAL_RE = re.compile(r"[*_~]+")
_SENTENCE_END = re.compile(r"(?:[。！？；!?;]|…+|\.(?=\s|$))+[”’」』）)\]】\"']*")
_SOFT_WRAP_MIN = 50      # a line at least this long, not ending a sentence, was hard-wrapped
_LINE_END_PUNCT = set("。！？；：:!?;…，,、）)】」』”\"'")

# Chinese punctuation → English, for text that reaches the output without an engine
PUNCT_MAP = {"，": ", ", "。": ". ", "！": "! ", "？": "? ", "；": "; ", "：": ": ", "、": ", ",
             "（": " (", "）": ") ", "【": " [", "】": "] ", "《": " \"", "》": "\" ",
             "「": "\"", "」": "\"", "『": "\"", "』": "\"", "～": "~", "　": " "}


PROTECTED = {"code", "url", "email", "math", "latin", "escape", "entity", "html", "role",
             "footnote", "autolink", "protected", "task", "callout", "cite"}


@dataclass(slots=True)
class Slot:
    kind: str                    # term | code | url | email | math | latin | escape | entity
                                 # | html | image | autolink | task | callout | em | strong
                                 # | s | link | note
    raw: str                     # exact source bytes
    term: Term | None = None
    children: list["Segment"] = field(default_factory=list)   # for markup spans
    open: str = ""               # markup spans: opening and closing source markup
    close: str = ""
    separators: list[str] = field(default_factory=list, repr=False)
    nodes: list | None = field(default=None, repr=False)    # inline nodes, until segmented


@dataclass(slots=True)
class Segment:
    id: str
    file: str
    line: int                    # 1-based line of the segment's start
    source: str                  # the segment's source text (Markdown)
    masked: str                  # what the engine sees
    slots: list[Slot]            # slots[i] is placeholder i + 1
    start: int                   # offsets into the region's raw content
    end: int
    template: list = field(default_factory=list, repr=False)   # text pieces and slot numbers,
                                 # with the source's own spacing (for copying without an engine)
    english: str | None = None
    status: str = "pending"      # copied | ok | hypothesis | pieces | failed
    problems: list[str] = field(default_factory=list)
    unrendered: list[str] = field(default_factory=list)   # what the engine could not render
    opens_sentence: bool = True  # False: the first text inside emphasis or a link — its
                                 # parent decides whether it starts a sentence

    @property
    def needs_mt(self) -> bool:
        return has_cjk(self.masked)

    @property
    def terms(self) -> list[Term]:
        out = [s.term for s in self.slots if s.kind == "term"]
        for slot in self.slots:
            for child in slot.children:
                out.extend(child.terms)
        return out

    def walk(self):
        yield self
        for slot in self.slots:
            for child in slot.children:
                yield from child.walk()


@dataclass(slots=True)
class RegionPlan:
    leaf: int
    region: Region
    segments: list[Segment]
    separators: list[str]        # separators[i] goes before segments[i] (separators[0] == "")
    translatable: bool           # False: the region is copied byte for byte
    # once settled (render.settle): the region's English and what the engine could not
    # render of it, its segments let go (a big note's segments are most of what it holds)
    english: str | None = None
    unrendered: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- building segments


@dataclass(slots=True)
class _Atom:
    kind: str                    # text | slot | break
    start: int
    end: int
    text: str = ""
    slot: Slot | None = None
    hard: bool = False
    wrap: bool = False           # a soft break inside a hard-wrapped sentence


@dataclass(slots=True)
class _WrappedTerm:
    start: int
    end: int
    term: Term


class _Builder:
    def __init__(self, glossary: Glossary, file: str, region: Region) -> None:
        self.glossary = glossary
        self.file = file
        self.region = region
        self.raw = region.raw

    # atoms ---------------------------------------------------------------
    def wrapped_terms(self, nodes) -> list:
        """A term hard-wrapped across a line break between two Chinese characters
        (``拥塞\\n窗口``) is one term: the break goes into its slot."""
        nodes = list(nodes)
        k = 0
        while k + 2 < len(nodes):
            left, brk, right = nodes[k], nodes[k + 1], nodes[k + 2]
            if not (isinstance(left, Text) and isinstance(brk, Break) and not brk.hard
                    and isinstance(right, Text) and left.end > left.start
                    and right.end > right.start and is_cjk_char(self.raw[left.end - 1])
                    and is_cjk_char(self.raw[right.start])):
                k += 1
                continue
            head = self.raw[left.start:left.end]
            joined = head + self.raw[right.start:right.end]
            crossing = next((m for m in self.glossary.matcher.finditer(joined)
                             if m.start < len(head) < m.end), None)
            if crossing is None:
                k += 1
                continue
            end = right.start + crossing.end - len(head)
            term = _WrappedTerm(left.start + crossing.start, end, crossing.term)
            nodes[k:k + 3] = [Text(left.start, term.start), term, Text(end, right.end)]
            k += 2
        return nodes

    def atoms(self, nodes) -> list[_Atom]:
        out: list[_Atom] = []
        for node in self.wrapped_terms(nodes):
            if isinstance(node, _WrappedTerm):
                out.append(_Atom("slot", node.start, node.end,
                                 slot=Slot("term", self.raw[node.start:node.end], term=node.term)))
            elif isinstance(node, Text):
                if node.end > node.start:
                    out.extend(self.text_atoms(node.start, node.end))
            elif isinstance(node, Raw):
                # the note's own bytes: math or code across lines keeps its CRLF and prefixes
                out.append(_Atom("slot", node.start, node.end,
                                 slot=Slot(node.kind, self.region.exact(node.start, node.end))))
            elif isinstance(node, Break):
                out.append(_Atom("break", node.start, node.end, hard=node.hard,
                                 wrap=not node.hard and self.is_wrap(node.start)))
            elif isinstance(node, Wrap):
                close = self.region.exact(*node.close)
                if node.label is not None:
                    # [混合精度] / [混合精度][] → [mixed precision][混合精度]: the label
                    # still matches its definition once the text is English
                    close = f"][{node.label}]"
                slot = Slot(node.kind, self.region.exact(node.start, node.end),
                            open=self.region.exact(*node.open), close=close)
                slot.nodes = node.children           # built into child segments later
                out.append(_Atom("slot", node.start, node.end, slot=slot))
        return out

    def text_atoms(self, start: int, end: int) -> list[_Atom]:
        text = self.raw[start:end]
        spans: list[tuple[int, int, Slot]] = []
        taken = [False] * len(text)

        def take(s: int, e: int, slot: Slot) -> None:
            if s < e and not any(taken[s:e]):
                for i in range(s, e):
                    taken[i] = True
                spans.append((s, e, slot))

        for s, e in find_urls(text):
            take(s, e, Slot("url", text[s:e]))
        if start == 0:
            task = _TASK_RE.match(text)
            if task:
                take(0, task.end(), Slot("task", task.group(0)))
            callout = _CALLOUT_RE.match(text)
            if callout and self.region.kind == "paragraph":
                take(0, callout.end(), Slot("callout", callout.group(0)))
        for m in _INLINE_ENV.finditer(text):
            # \begin{pmatrix}…\end{pmatrix} inside a line: not a block, but MathJax reads
            # it as math, so its bytes are kept (never escaped or translated)
            take(m.start(), m.end(), Slot("math", text[m.start():m.end()]))
        for pattern, kind in ((EMAIL_RE, "email"), (_ESCAPE_RE, "escape"),
                              (_ENTITY_RE, "entity"), (_CITE_RE, "cite")):
            for m in pattern.finditer(text):
                take(m.start(), m.end(), Slot(kind, m.group(0)))
        masked = "".join("\x00" if t else c for t, c in zip(taken, text))
        for m in self.glossary.matcher.finditer(masked):
            take(m.start, m.end, Slot("term", text[m.start:m.end], term=m.term))
        masked = "".join("\x00" if t else c for t, c in zip(taken, text))
        for m in _LATIN_RE.finditer(masked):
            if _HAS_LETTER.search(m.group(0)):
                s, e = m.span()
                take(s, e, Slot("latin", text[s:e]))
        # emphasis characters the parser left literal must stay literal in any context
        masked = "".join("\x00" if t else c for t, c in zip(taken, text))
        for m in _LITERAL_RE.finditer(masked):
            take(m.start(), m.end(), Slot("literal", m.group(0)))
        spans.sort(key=lambda x: x[0])
        out: list[_Atom] = []
        pos = 0
        for s, e, slot in spans:
            if s > pos:
                out.append(_Atom("text", start + pos, start + s, text[pos:s]))
            out.append(_Atom("slot", start + s, start + e, slot=slot))
            pos = e
        if pos < len(text):
            out.append(_Atom("text", start + pos, end, text[pos:]))
        return out

    def is_wrap(self, offset: int) -> bool:
        """Is the soft break at ``offset`` a hard-wrap inside a sentence?"""
        line_start = self.raw.rfind("\n", 0, offset) + 1
        line = self.raw[line_start:offset].rstrip()
        nxt = self.raw[offset:].lstrip(" \t\n")[:1]
        if len(line) < _SOFT_WRAP_MIN or not line or line[-1] in _LINE_END_PUNCT:
            return False
        return bool(nxt) and nxt not in "-•*+>#|"

    # segments ------------------------------------------------------------
    def segments(self, nodes, id_prefix: str) -> tuple[list[Segment], list[str]]:
        atoms = self.atoms(nodes)
        groups: list[list[_Atom]] = [[]]
        boundaries: list[_Atom | None] = [None]       # the break (or None) before each group

        def close(boundary: _Atom | None) -> None:
            groups.append([])
            boundaries.append(boundary)

        for atom in atoms:
            if atom.kind == "break" and not atom.wrap:
                close(atom)
                continue
            if atom.kind == "text":
                pos = 0
                for m in _SENTENCE_END.finditer(atom.text):
                    piece = atom.text[pos:m.end()]
                    groups[-1].append(_Atom("text", atom.start + pos, atom.start + m.end(), piece))
                    pos = m.end()
                    close(None)
                if pos < len(atom.text):
                    groups[-1].append(_Atom("text", atom.start + pos, atom.end, atom.text[pos:]))
                continue
            groups[-1].append(atom)
            if atom.slot is not None and atom.slot.kind == "callout":
                close(None)             # a segment of its own, copied: it stays first

        groups, boundaries = _split_long(groups, boundaries)
        segments: list[Segment] = []
        separators: list[str] = []
        pending_sep = ""
        for group, boundary in zip(groups, boundaries):
            if boundary is not None:
                # the source's own line ending at this break (mixed endings are kept)
                newline = self.region.ending_before(boundary.end)
                raw_break = self.raw[boundary.start:boundary.end]
                cut = raw_break.index("\n")
                # the indentation after the line break is kept: "    ---" must not lose it
                # and become a setext underline
                indent = self.region.prefix_after(boundary.end) + raw_break[cut + 1:]
                if boundary.hard:
                    pending_sep = raw_break[:cut] + newline + indent
                else:
                    pending_sep = newline + indent
            seg = self.segment(group, f"{id_prefix}.{len(segments) + 1}")
            if seg is None:
                continue
            separators.append(pending_sep if segments else "")
            pending_sep = ""
            segments.append(seg)
        return segments, [s if i else "" for i, s in enumerate(separators)]

    def segment(self, atoms: list[_Atom], seg_id: str) -> Segment | None:
        # trim whitespace-only text at both ends
        while atoms and atoms[0].kind in ("text", "break") and not atoms[0].text.strip():
            atoms = atoms[1:]
        while atoms and atoms[-1].kind in ("text", "break") and not atoms[-1].text.strip():
            atoms = atoms[:-1]
        if not atoms:
            return None
        parts: list[str] = []
        template: list = []
        slots: list[Slot] = []
        for i, atom in enumerate(atoms):
            if atom.kind == "text":
                parts.append(atom.text)
                template.append(atom.text)
            elif atom.kind == "break":       # a hard-wrap inside the sentence
                before = parts[-1][-1:] if parts and parts[-1] else ""
                after = atoms[i + 1].text[:1] if i + 1 < len(atoms) and atoms[i + 1].kind == "text" else "x"
                cjk_join = re.match(f"[{CJK_CLASS}]", before or "a") and re.match(f"[{CJK_CLASS}]", after or "a")
                parts.append("" if cjk_join else " ")
                template.append(parts[-1])
            else:
                slot = atom.slot
                prev = atoms[i - 1] if i else None
                if prev is not None and prev.kind == "slot" and prev.end == atom.start \
                        and slot.kind in PROTECTED and slots and slots[-1].kind in PROTECTED:
                    # <kbd>Ctrl</kbd>: adjacent protected spans are one placeholder
                    slots[-1] = Slot("protected", slots[-1].raw + slot.raw)
                    continue
                slots.append(slot)
                parts.append(placeholder(len(slots)))
                template.append(len(slots))
                if slot.nodes is not None:
                    slot.children, slot.separators = self.segments(slot.nodes,
                                                                   f"{seg_id}.{len(slots)}")
                    slot.nodes = None
                    if slot.children and slot.children[0].start == atom.start + len(slot.open):
                        slot.children[0].opens_sentence = False
        masked = _join_parts(parts)
        start, end = atoms[0].start, atoms[-1].end
        line = self.region.line_of(start) + 1
        return Segment(seg_id, self.file, line, self.raw[start:end], masked, slots, start, end,
                       template)


MAX_SEGMENT_CHARS = 400      # longer sentences are cut (models have a length limit)
_SOFT_CUT = re.compile(r"[，、：,:；;）)]\s*|\s+")


def _split_long(groups, boundaries):
    """Cut sentences longer than MAX_SEGMENT_CHARS at a comma or space near the limit (or
    anywhere, for a 100,000-character line without punctuation)."""
    out_groups, out_bounds = [], []
    for group, boundary in zip(groups, boundaries):
        current: list[_Atom] = []
        size = 0
        first = True
        for atom in group:
            while atom.kind == "text" and size + len(atom.text) > MAX_SEGMENT_CHARS:
                room = max(1, MAX_SEGMENT_CHARS - size)
                cuts = [m.end() for m in _SOFT_CUT.finditer(atom.text, 0, room)]
                cut = cuts[-1] if cuts and cuts[-1] > room // 2 else room
                current.append(_Atom("text", atom.start, atom.start + cut, atom.text[:cut]))
                out_groups.append(current)
                out_bounds.append(boundary if first else None)
                first, current, size = False, [], 0
                atom = _Atom("text", atom.start + cut, atom.end, atom.text[cut:])
            current.append(atom)
            size += len(atom.text) if atom.kind == "text" else 4
        out_groups.append(current)
        out_bounds.append(boundary if first else None)
    return out_groups, out_bounds


def _join_parts(parts: list[str]) -> str:
    """Join text and placeholders so a placeholder never touches a letter or digit
    (ZX1ZX2 or ZX18 would be ambiguous)."""
    out = ""
    for part in parts:
        if out and part and (ends_with_placeholder(out) and part[0].isascii() and part[0].isalnum()
                             or out[-1].isascii() and out[-1].isalnum()
                             and starts_with_placeholder(part)):
            out += " "
        out += part
    return re.sub(r"[ \t]{2,}", " ", out).strip()


def region_translatable(region) -> bool:
    """The one rule of what is translated: a region located in the note that holds Chinese
    (anything else is copied byte for byte)."""
    return region.error is None and has_cjk(region.raw)


def leaf_translatable(leaf) -> bool:
    return any(region_translatable(region) for region in leaf.regions)


def plan_document(doc: Document, glossary: Glossary, file: str) -> list[RegionPlan]:
    """Every inline region of ``doc`` cut into segments."""
    return plan_leaves(doc, glossary, file, range(len(doc.leaves)))


def plan_leaves(doc: Document, glossary: Glossary, file: str, leaves: range
                ) -> list[RegionPlan]:
    """The inline regions of the leaves ``leaves`` of ``doc`` cut into segments, as
    :func:`plan_document` cuts them (a leaf is planned on its own: a big note is planned a
    section at a time)."""
    plans: list[RegionPlan] = []
    for leaf_index in leaves:
        leaf = doc.leaves[leaf_index]
        for region_index, region in enumerate(leaf.regions):
            if not region_translatable(region):
                plans.append(RegionPlan(leaf_index, region, [], [], False))
                continue
            builder = _Builder(glossary, file, region)
            segments, separators = builder.segments(region.nodes, f"{leaf_index + 1}.{region_index + 1}")
            plans.append(RegionPlan(leaf_index, region, segments, separators, True))
    return plans


# ---------------------------------------------------------------- restoring


def english_of_punctuation(text: str, strip: bool = True) -> str:
    """Chinese punctuation → English, spaces tidied (for text no engine touched)."""
    for zh, en in PUNCT_MAP.items():
        text = text.replace(zh, en)
    text = re.sub(r"[ \t]{2,}", " ", text)
    text = re.sub(r" +([,.;:!?)\]])", r"\1", text)
    text = re.sub(r"([(\[]) +", r"\1", text)
    return text.strip() if strip else text


def copy_english(segment: Segment) -> str:
    """The segment without an engine: its own text (Chinese punctuation made English) with
    each slot restored in place."""
    template = segment.template
    plural: set[int] = set()            # template positions whose term is said in the plural
    kinds = {s.kind for s in segment.slots}
    if "term" in kinds and "latin" in kinds:
        # a digit right after a placeholder would read on as its number (ZX1 + 40% → ZX140%):
        # a NUL keeps them apart while the text is a string, and goes after the split
        joined = drop_repeated_abbreviation(segment, "".join(
            (placeholder(p) + ("\0" if k + 1 < len(template) and isinstance(template[k + 1], str)
                               and template[k + 1][:1].isdigit() else ""))
            if isinstance(p, int) else p for k, p in enumerate(template)))
        template = []
        for piece in re.split(rf"({EXACT}(?:s(?![A-Za-z0-9]))?)", joined):
            piece = piece.replace("\0", "")
            if not piece:
                continue
            if piece.endswith("s") and is_placeholder(piece[:-1]):
                plural.add(len(template))
                piece = piece[:-1]
            template.append(number_of(piece) if is_placeholder(piece) else piece)
    convert = any(ch in p for p in template if isinstance(p, str) for ch in PUNCT_MAP)
    out = []
    after_slot = False
    for position, piece in enumerate(template):
        if isinstance(piece, int):
            value = slot_english(segment.slots[piece - 1], plural=position in plural)
            if out and _touching(out[-1], value):
                out.append(" ")         # Transformer编码器 → "Transformer encoder"
            out.append(value)
            after_slot = True
            continue
        piece = literal_angle(piece)
        if after_slot and out and _touching(out[-1], piece):
            out.append(" ")
        after_slot = False
        if convert:
            # only the segment's own text changes; restored spans keep their bytes
            converted = english_of_punctuation(piece, strip=False)
            if out and out[-1].endswith(" ") and converted.startswith(" "):
                converted = converted[1:]
            out.append(converted)
        else:
            out.append(piece)
    text = "".join(out).strip()
    first = template[0] if template else None
    if isinstance(first, int) and segment.opens_sentence and _starts_with_term(segment.slots[first - 1]):
        text = capitalise_start(text)           # a term that starts the sentence
    return text


def _starts_with_term(slot: Slot) -> bool:
    """A term, or emphasis or a link whose text starts with one: at a sentence start its
    first letter is a capital (``*mixed precision*训练`` → ``*Mixed precision* training``),
    anywhere else it keeps the glossary's case."""
    if slot.kind == "term":
        return True
    if slot.children:
        child = slot.children[0]
        return bool(child.slots) and child.masked.startswith(placeholder(1)) \
            and _starts_with_term(child.slots[0])
    return False


def _touching(before: str, after: str) -> bool:
    """Two English words that Chinese wrote without a space (混合精度训练 → two terms), or
    an English word and a Sphinx role (混合精度:numref:`x`: glued to a letter, the role
    would read as plain text)."""
    if not before or not after or not (before[-1].isascii() and before[-1].isalnum()):
        return False
    return (after[0].isascii() and after[0].isalnum()) or starts_with_role(after)


def literal_angle(text: str) -> str:
    """A ``<`` that was text in the source (HTML and escapes are slots) stays text when
    a restored term follows it: ``<推理>`` → ``\\<inference>``, never an HTML tag."""
    return text.replace("<", "\\<")


def slot_english(slot: Slot, plural: bool = False) -> str:
    """What a slot restores to: a term's ``en`` (its plural, terms.plural, where the engine
    wrote the placeholder plural), a protected span's exact bytes, markup around its
    translated text."""
    if slot.kind == "term":
        return terms.plural(slot.term) if plural else slot.term.en
    if slot.kind == "literal":
        return "".join("\\" + ch for ch in slot.raw)
    if slot.children or slot.open:
        inner = assemble(slot.children, slot.separators)
        return slot.open + inner + slot.close
    return slot.raw


def assemble(segments: list[Segment], separators: list[str]) -> str:
    out = []
    for i, seg in enumerate(segments):
        sep = separators[i] if i < len(separators) else " "
        if i and not sep:
            sep = " "
        english = seg.english if seg.english is not None else seg.source
        if (i == 0 or "\n" in sep) and english != seg.source:
            english = escape_block_start(english)
        out.append(sep + english)
    return "".join(out)


def check_hypothesis(segment: Segment, hypothesis: str, glossary: Glossary,
                     terms_written: bool = False) -> str | None:
    """None when the hypothesis keeps every placeholder exactly once and no forbid
    rendering; else the reason it is rejected. ``terms_written``: the engine was told the
    terms (``terms_in_prompt``), so a term may be its English written out instead of its
    placeholder (placeholders.answer_problem)."""
    if terms_written:
        tokens = {k: slot.term for k, slot in enumerate(segment.slots, 1) if slot.kind == "term"}
        problem = answer_problem(hypothesis, [k for k in range(1, len(segment.slots) + 1)
                                              if k not in tokens], tokens)
    else:
        problem = placeholder_problem(list(range(1, len(segment.slots) + 1)), hypothesis)
    if problem:
        return problem
    forbidden = forbidden_in(hypothesis, glossary, segment)
    if forbidden:
        return f"forbidden rendering {forbidden!r}"
    return None


def forbidden_in(text: str, glossary: Glossary, segment: Segment | None = None) -> str | None:
    """The first forbidden rendering in engine text: a ``forbid`` of a term the segment
    holds (all its terms, those inside emphasis and links too) or of the glossary's
    corpus-wide list, searched in each piece between placeholders on its own — a phrase
    never runs across a placeholder (``ZX1``'s English is the glossary's, not the
    engine's)."""
    scoped = segment.terms if segment is not None else glossary.terms
    hit = terms.forbidden(text, scoped, glossary.forbid, pieces=between_placeholders)
    return hit[1] if hit else None


_MD_INLINE = re.compile(r"([\\`*\[\]<>|])|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
_BLOCK_START = [
    (re.compile(r"^(\s{0,3})(\d{1,9})([.)])(?=\s|$)"), r"\1\2\\\3"),
    (re.compile(r"^(\s{0,3})([-+*])(?=\s|$)"), r"\1\\\2"),
    (re.compile(r"^(\s{0,3})(#{1,6})(?=\s|$)"), r"\1\\\2"),
    (re.compile(r"^(\s{0,3})>"), r"\1\\>"),
    (re.compile(r"^(\s{0,3})([=-])(?=[=-]*\s*$)"), r"\1\\\2"),
]


def escape_markdown(text: str) -> str:
    """Engine text must not turn into Markdown syntax (emphasis, links, code, cells)."""
    return _MD_INLINE.sub(lambda m: "\\" + m.group(0), text)


def escape_block_start(text: str) -> str:
    """An English line must not start a list, heading, quote or setext underline that the
    Chinese line did not (1。 → 1. would start a list)."""
    for pattern, replacement in _BLOCK_START:
        text = pattern.sub(replacement, text, count=1)
    return text


_REPEAT = re.compile(rf"{PREFIX}(?P<a>\d+)(?P<plural>e?s(?![A-Za-z0-9]))?"
                     rf"(?:\s*[（(]\s*{PREFIX}(?P<b>\d+)(?:\s*[,，;；]\s*{PREFIX}(?P<d>\d+))?\s*[）)]"
                     rf"|\s+{PREFIX}(?P<c>\d+)(?![A-Za-z0-9_-]))")


def _sole_term(slot: Slot) -> Term | None:
    """The glossary term a slot says: a term slot, or emphasis whose whole text is one
    term (``**动量法**（momentum）``, the way textbooks introduce a term)."""
    if slot.kind == "term":
        return slot.term
    if slot.kind in ("em", "strong") and len(slot.children) == 1:
        child = slot.children[0]
        if len(child.slots) == 1 and child.slots[0].kind == "term" \
                and child.masked.strip() == placeholder(1):
            return child.slots[0].term
    return None


def drop_repeated_abbreviation(segment: Segment, text: str) -> str:
    """A term followed in the note by English its ``en`` already says: the abbreviation it
    ends in (可并行张量集合（PTC）, 数据传输节点 DTN) or, in parentheses, words it contains
    verbatim (分类头（classification head）). Say it once — ``parallelizable tensor
    collection (PTC)``, not ``… (PTC) (PTC)``; the same after an emphasised term
    (``**动量法**（momentum）`` → ``**Momentum**``). Works on placeholders, and only drops a
    span whose exact bytes the restored ``en`` holds."""
    def fold(match: re.Match) -> str:
        a = int(match.group("a"))
        b = int(match.group("b") or match.group("c"))
        if not (1 <= a <= len(segment.slots) and 1 <= b <= len(segment.slots)):
            return match.group(0)
        first, second = segment.slots[a - 1], segment.slots[b - 1]
        term = _sole_term(first)
        if term is None or second.kind != "latin":
            return match.group(0)
        # 数据传输节点 DTN / (DTNs) → "(DTN)" already ends the en; 张量算子（Tensor
        # Operator）, 分类头（classification head）→ the parenthesis says the en again
        # (any case, singular or plural: terms.says)
        in_parens = match.group("b") is not None
        repeated = terms.says(term, second.raw) if in_parens else _ends_with_abbreviation(
            term, second.raw)
        rest = ""
        said = second.raw
        if in_parens and not repeated:
            # 基频（fundamental frequency, F0）: the parenthesis says the en, then the
            # abbreviation (or symbol) the note gives it → "fundamental frequency (F0)"
            split = _said_then_abbreviation(term, second.raw)
            if split is not None:
                repeated, (said, rest) = True, split
        if match.group("d") and not rest:
            # (ZX2, ZX3): the English is said by the term, then its abbreviation
            d = int(match.group("d"))
            if not (repeated and 1 <= d <= len(segment.slots)
                    and segment.slots[d - 1].kind == "latin"):
                return match.group(0)
            plural = "s" if match.group("plural") or terms.says_plural(term, second.raw) else ""
            return f"{placeholder(a)}{plural} ({placeholder(d)})"
        if repeated:
            after = match.string[match.end():match.end() + 1]
            plural = "s" if match.group("plural") or _is_plural_of_abbreviation(
                term, second.raw) or in_parens and terms.says_plural(term, said) else ""
            if rest:
                return f"{placeholder(a)}{plural} ({rest})"
            return placeholder(a) + plural + (" " if after.isalnum() else "")   # never ZX1ZX3
        return match.group(0)
    return _REPEAT.sub(fold, text)


# what may follow the repeated English in its parenthesis and be written after the term
# as it is: an abbreviation or a symbol (F0, PTA, T1/2), nothing Markdown would read
_SAFE_REST = re.compile(r"[A-Za-z][A-Za-z0-9.\-/]{0,15}")


def _said_then_abbreviation(term: Term, raw: str) -> tuple[str, str] | None:
    """``fundamental frequency, F0`` after 基频: (the English that says the term
    (terms.says), the abbreviation or symbol after it), else None."""
    parts = re.split(r"\s*[,，;；]\s*", raw.strip(), maxsplit=1)
    if len(parts) == 2 and _SAFE_REST.fullmatch(parts[1]) and terms.says(term, parts[0]):
        return parts[0], parts[1]
    return None


def says_then_abbreviation(term: Term, raw: str) -> str | None:
    """The abbreviation written after the term when ``raw`` says the term and then gives
    it ("fundamental frequency (F0)"), else None."""
    split = _said_then_abbreviation(term, raw)
    return split[1] if split else None


def _ends_with_abbreviation(term: Term, raw: str) -> bool:
    """``数据传输节点 DTN``: the Latin word after the term is the abbreviation its en ends in."""
    return term.en.endswith((f"({raw})", f"({raw[:-1]})" if raw.endswith("s") else "\0"))


def _is_plural_of_abbreviation(term: Term, raw: str) -> bool:
    """``(DTNs)`` after a term whose en ends in ``(DTN)``: the note means the plural."""
    return raw.endswith("s") and term.en.endswith(f"({raw[:-1]})")


def restore(segment: Segment, hypothesis: str, *, escape: bool = True) -> str:
    """Put each slot's English (terms) or exact source (protected spans) back. Engine text
    is Markdown-escaped (``escape``); copied source text is not."""
    values = [slot_english(slot) for slot in segment.slots]
    if escape:
        parts = re.split(f"({PLACEHOLDER_RE.pattern})", hypothesis)
        pieces = []
        i = 0
        while i < len(parts):
            pieces.append(escape_markdown(parts[i]))
            if i + 1 < len(parts):
                pieces.append(parts[i + 1])
            i += 3          # text, whole placeholder, its number group
        hypothesis = "".join(pieces)

    def put(match: re.Match) -> str:
        n = int(match.group(1))
        if not 1 <= n <= len(values):
            return match.group(0)
        suffix = match.group("plural") or ""
        slot = segment.slots[n - 1]
        if suffix and slot.kind == "term":
            return slot_english(slot, plural=True)      # 5 ZX1s → 5 time steps
        return values[n - 1] + suffix                   # 4 ZX2s → 4 GPUs

    if escape:
        hypothesis = re.sub(r"[ \t]{2,}", " ", hypothesis)     # engine text only
    text = _PLURAL_RE.sub(put, drop_repeated_abbreviation(segment, hypothesis)).strip()
    if segment.slots and segment.opens_sentence and _starts_with_term(segment.slots[0]) \
            and hypothesis.lstrip().lower().startswith("zx1") \
            and segment.masked.startswith(placeholder(1)):
        text = capitalise_start(text)
    return text


# a placeholder, and the plural an engine put on it ("ZX1s", "ZX1es")
_PLURAL_RE = re.compile(rf"{PLACEHOLDER_RE.pattern}(?P<plural>e?s(?![A-Za-z0-9]))?")


def split_pieces(segment: Segment) -> list[str]:
    """The masked text cut at placeholders: text, ZX1, text, ZX2, …"""
    return [p for p in split_exact(segment.masked) if p.strip()]


def join_pieces(pieces: list[str], translated: dict[str, str]) -> str:
    """Join piece translations around the placeholders (escaped, not yet restored)."""
    out = []
    for piece in pieces:
        if is_placeholder(piece):
            out.append(piece)
        elif has_cjk(piece):
            out.append(escape_markdown(translated.get(piece.strip(), piece)))
        else:
            piece = literal_angle(piece)
            out.append(english_of_punctuation(piece) if re.search("[，。！？；：、（）]", piece) else piece.strip())
    text = " ".join(p.strip() for p in out if p.strip())
    text = re.sub(r" +([,.;:!?)\]])", r"\1", text)
    text = re.sub(r"([(\[]) +", r"\1", text)
    return text
