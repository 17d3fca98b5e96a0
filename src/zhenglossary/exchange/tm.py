"""Translation memories out: the translated pairs as TMX 1.4 or XLIFF 1.2 units (zh source,
en target), marked with the block's review status (edited, reviewed, machine, stale,
invalid), with the note, block and lines as context, for
OmegaT, memoQ, Trados, Okapi, Weblate, ... (through Translate Toolkit's stores).

Units are sentences, the way CAT tools segment and reuse text (:func:`units`): a block
whose source and English have as many sentences (:mod:`..sentences`) gives one unit per
sentence (id ``b3.s1``, ``b3.s2`` …); others give one unit for the block. A block a person
edited stays whole. Units carry no Markdown container markup (a heading's
``#``, a list item's ``- ``, a quote's ``> ``); inline Markdown stays, as in the note. A
block that is not one paragraph or heading (a table) is exported as it is.

Every string reaches the XML through lxml, which escapes ``<``, ``&`` and quotes; a note's
name is also written with its unprintable characters as escapes (``textutil.printable``),
and characters XML cannot hold at all are escaped in the text (``textutil.xml_text``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import __version__
from ..parallel import NotePairs, Pair, PairStatus
from ..sentences import align, block_text
from ..textutil import printable, xml_text

XLIFF_STATES = {
    "edited": ("final", True, None),
    "reviewed": ("signed-off", True, None),
    "machine": ("needs-review-translation", False, "mt-suggestion"),
    "invalid": ("needs-review-translation", False, None),
    "stale": ("needs-review-translation", False, None),
}
STATUS_NOTES = {
    "edited": "edited: English a person wrote",
    "reviewed": "reviewed: machine English a person read and marked reviewed",
    "machine": "machine: English as zhen's engine wrote it, not reviewed",
    "invalid": "invalid: English a person wrote that fails zhen's output check",
    "stale": "stale: the source changed after this English was written; review it",
}


def exported_status(pair: Pair) -> str:
    """The status a pair is exported with (:class:`parallel.PairStatus`); a block whose
    source changed since its English was written (``pending``) is ``stale`` here. "Changed"
    is the status's own judgement (``Pair.fits``: the block as Markdown reads it and the
    entries it uses), so a paragraph only re-wrapped keeps its status, as in ``zhen status``."""
    if pair.status == PairStatus.PENDING or (pair.status != PairStatus.SAME and not pair.fits):
        return "stale"
    return str(pair.status)


def exportable(pairs: list[NotePairs]) -> list[tuple[NotePairs, Pair, str]]:
    """(note, pair, status) of every pair with a source and an English, ``same`` left out."""
    out = []
    for note in pairs:
        for pair in note.pairs:
            if pair.status == "same" or not pair.source.strip() or not pair.english.strip():
                continue
            out.append((note, pair, exported_status(pair)))
    return out


PERSON_STATUSES = ("edited", "reviewed", "invalid")


@dataclass
class Unit:
    note: NotePairs
    pair: Pair
    status: str
    id: str                  # b3, or b3.s2 for the second sentence of block 3
    source: str
    english: str


def units(pairs: list[NotePairs]) -> list[Unit]:
    """The units of every exportable pair (see the module docstring)."""
    out = []
    for note, pair, status in exportable(pairs):
        zh, en = block_text(pair.source), block_text(pair.english)
        if zh is None or en is None or not zh.strip() or not en.strip():
            out.append(Unit(note, pair, status, pair.id, pair.source, pair.english))
            continue
        zh, en = " ".join(zh.split("\n")), " ".join(en.split("\n"))
        aligned = None if status in PERSON_STATUSES else align(zh, en)
        if aligned is None or len(aligned) < 2:
            out.append(Unit(note, pair, status, pair.id, zh, en))
            continue
        out += [Unit(note, pair, status, f"{pair.id}.s{i}", z, e)
                for i, (z, e) in enumerate(aligned, start=1)]
    return out


def _term_note(pair: Pair) -> str:
    seen: dict[str, str] = {}
    for match in pair.terms:
        seen.setdefault(match.form, match.term.en)
    return "glossary: " + "; ".join(f"{zh} = {en}" for zh, en in seen.items()) if seen else ""


def _lines(pair: Pair) -> str:
    return pair.lines or "?"


def export_tmx(pairs: list[NotePairs]) -> str:
    from lxml import etree
    from translate.storage import tmx

    store = tmx.tmxfile(sourcelanguage="zh", targetlanguage="en")
    header = store.document.getroot().find("header")
    header.set("creationtool", "zhen")
    header.set("creationtoolversion", __version__)
    header.set("segtype", "sentence")          # sentences; a block when they do not align
    header.set("o-tmf", "zhen-parallel-v1")
    header.set("datatype", "plaintext")
    for item in units(pairs):
        note, pair, status = item.note, item.pair, item.status
        name = printable(note.note)
        unit = store.addsourceunit(xml_text(item.source), "zh")
        unit.settarget(xml_text(item.english), "en")
        unit.xmlelement.set("tuid", f"{name}#{item.id}")
        unit.addnote(f"{name} {_lines(pair)}, block {pair.index}")
        unit.addnote(STATUS_NOTES[status])
        terms = _term_note(pair)
        if terms:
            unit.addnote(xml_text(terms))
        unit.setcontext(f"{name}#{item.id}")           # <prop type="x-context">
        prop = etree.Element("prop", type="x-zhen-status")
        prop.text = status
        unit.xmlelement.find("tuv").addprevious(prop)
    return bytes(store).decode("utf-8")


XLIFF12_SKELETON = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">'
    '<file original="NoName" source-language="zh" target-language="en" datatype="plaintext">'
    "<body/></file></xliff>")


def export_xliff(pairs: list[NotePairs]) -> str:
    from lxml import etree
    from translate.storage import xliff

    store = xliff.xlifffile.parsestring(XLIFF12_SKELETON.encode("utf-8"))
    store.setsourcelanguage("zh")
    store.settargetlanguage("en")
    for item in units(pairs):
        note, pair, status = item.note, item.pair, item.status
        name = printable(note.note)
        unit = store.addsourceunit(xml_text(item.source), filename=name, createifmissing=True)
        unit.setid(item.id)
        unit.settarget(xml_text(item.english))
        state, approved, qualifier = XLIFF_STATES[status]
        unit.set_state_n(unit.statemap[state])
        unit.markapproved(approved)
        target = unit.xmlelement.find(unit.namespaced("target"))
        if qualifier:
            target.set("state-qualifier", qualifier)
        unit.addnote(f"{name} {_lines(pair)}, block {pair.index}", origin="zhen")
        unit.addnote(STATUS_NOTES[status], origin="zhen")
        terms = _term_note(pair)
        if terms:
            unit.addnote(xml_text(terms), origin="zhen")
        unit.addlocation(f"{name}:{pair.line}" if pair.line else name)
    store.settargetlanguage("en")            # also on the <file>s made per note
    # units are made in the 1.1 namespace and moved to the store's 1.2 one: drop the
    # declarations of 1.1 left on them
    etree.cleanup_namespaces(store.document.getroot())
    return bytes(store).decode("utf-8")
