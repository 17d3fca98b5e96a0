"""TBX: the glossary out as TBX 2008 (``martif``, TBX-Basic data categories; one
``termEntry`` per term), and TBX 2008 or v3 (DCA style) in, through Translate Toolkit's
``tbxfile``."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from .. import __version__
from ..errors import GlossaryError
from ..glossary import Glossary, Term
from .entries import Candidate, ImportedGlossary, is_en_code, is_zh_code, make_candidate, require_toolkit


def _entry_id(term: Term) -> str:
    return "t" + hashlib.sha256(term.zh.encode("utf-8")).hexdigest()[:12]


def export_tbx(glossary: Glossary) -> str:
    require_toolkit()
    from lxml import etree
    from translate.storage import tbx

    store = tbx.tbxfile(sourcelanguage="zh", targetlanguage="en")
    root = store.document.getroot()
    desc = root.find("martifHeader/fileDesc/sourceDesc/p")
    desc.text = f"zhen {__version__}: {Path(glossary.path).name} (schema v1), zh → en"
    for term in glossary.terms:
        unit = store.UnitClass(None)
        store.addunit(unit)
        unit.setid(_entry_id(term))
        unit.set_source_terms(list(term.forms), "zh")
        unit.set_target_terms([term.en, *term.forbid], "en")
        zh_set, en_set = unit.getlanguageNodes()
        for i, tig in enumerate(zh_set.findall("tig")):
            if i:
                _add_term_note(tig, "termType", "variant")
            _add_term_note(tig, "administrativeStatus",
                       "admittedTerm-admn-sts" if i else "preferredTerm-admn-sts")
        for i, tig in enumerate(en_set.findall("tig")):
            _add_term_note(tig, "administrativeStatus",
                       "deprecatedTerm-admn-sts" if i else "preferredTerm-admn-sts")
        # concept-level data categories come before the langSets (TBX/martif order)
        for tag in term.tags:
            node = etree.Element("descrip", type="subjectField")
            node.text = tag
            zh_set.addprevious(node)
        if term.note:
            node = etree.Element("note")
            node.text = term.note
            zh_set.addprevious(node)
    etree.indent(store.document, space="    ")       # one element per line, also in langSets
    return bytes(store).decode("utf-8")


def _add_term_note(tig, kind: str, value: str) -> None:
    from lxml import etree

    node = etree.SubElement(tig, "termNote", type=kind)
    node.text = value


_TBX3_NAMES = {"tbx": "martif", "tbxHeader": "martifHeader", "conceptEntry": "termEntry",
               "langSec": "langSet", "termSec": "tig"}


def _tbx3_to_2008(data: bytes, display: str) -> bytes:
    """A TBX v3 (DCA style) document renamed to the 2008 ``martif`` form tbxfile reads."""
    from lxml import etree
    from translate.misc.xml_helpers import parse_xml

    root = parse_xml(data)
    for node in root.iter():
        if not isinstance(node.tag, str):
            continue
        qname = etree.QName(node)
        if qname.namespace and qname.namespace != "http://www.w3.org/XML/1998/namespace" \
                and not qname.namespace.startswith("urn:iso:std:iso:30042"):
            raise GlossaryError(
                f"is TBX v3 in DCT style (element {qname.localname} in namespace "
                f"{qname.namespace}); export it as DCA-style TBX or TBX 2008 and import that",
                path=display)
        node.tag = _TBX3_NAMES.get(qname.localname, qname.localname)
    etree.cleanup_namespaces(root)
    return etree.tostring(root, encoding="utf-8", xml_declaration=True)


def _refuse_entities(data: bytes, display: str) -> None:
    """An entity reference (``&xxe;``, declared in the DTD or not) would be expanded or
    dropped by the parser — never imported silently: refused, naming it and its line.
    Character references (``&#x4E2D;``) and the five XML escapes are plain text."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                             huge_tree=False)
    try:
        root = etree.fromstring(data, parser)
    except etree.XMLSyntaxError:
        return                                   # reported by the real parse below
    for entity in root.iter(etree.Entity):
        raise GlossaryError(f"uses the entity &{entity.name}; — zhen does not expand entities "
                            "in glossary files (they can pull in other files or hide text); "
                            "write the characters themselves and import again",
                            path=display, line=entity.sourceline)


def _status(term) -> str:
    return (term.administrative_status or "").strip().lower().replace(" ", "")


def read_tbx(text: str, display: str) -> ImportedGlossary:
    require_toolkit()
    from lxml import etree
    from translate.misc.xml_helpers import getXMLlang
    from translate.storage import tbx

    data = text.encode("utf-8")
    data = re.sub(rb"^<\?xml[^>]*\?>", b'<?xml version="1.0" encoding="UTF-8"?>', data.lstrip())
    _refuse_entities(data, display)
    try:
        if re.search(rb"<(?:\w+:)?tbx[\s>]", data[:4096]):
            data = _tbx3_to_2008(data, display)
        store = tbx.tbxfile.parsestring(data)
    except etree.XMLSyntaxError as exc:
        raise GlossaryError(f"is not well-formed XML: {exc.msg}; fix the file or export it "
                            "again", path=display, line=getattr(exc, "lineno", None)) from exc
    except (AssertionError, ValueError, StopIteration, AttributeError) as exc:
        raise GlossaryError("is not a TBX file this reader understands (root <martif> with "
                            "termEntry/langSet/tig, or TBX v3 <tbx> with conceptEntry/langSec/"
                            "termSec); export TBX-Basic and try again", path=display) from exc
    warnings: list[str] = []
    candidates: list[Candidate] = []
    for unit in store.units:
        line = unit.xmlelement.sourceline or 0
        codes = [getXMLlang(node) or "" for node in unit.getlanguageNodes()]
        zh_codes = [c for c in codes if is_zh_code(c)]
        en_codes = [c for c in codes if is_en_code(c)]
        if not zh_codes or not en_codes:
            warnings.append(f"{display}:{line}: skipped an entry without both a Chinese and an "
                            f"English term (languages: {', '.join(codes) or 'none'})")
            continue
        zh_code = min(zh_codes, key=lambda c: (c.lower() not in ("zh", "zh-cn", "zh-hans"), c))
        en_code = min(en_codes, key=lambda c: (c.lower() != "en", c))
        if len(set(zh_codes)) > 1:
            warnings.append(f"{display}:{line}: several Chinese languages ({', '.join(zh_codes)});"
                            f" read {zh_code}")
        zh_terms = [t for t in unit.get_target_terms(zh_code) if t.text.strip()]
        en_terms = [t for t in unit.get_target_terms(en_code) if t.text.strip()]
        zh_ok = [t for t in zh_terms if not t.deprecated]
        en_ok = [t for t in en_terms if not t.deprecated]
        if not zh_ok or not en_ok:
            warnings.append(f"{display}:{line}: skipped an entry whose Chinese or English terms "
                            "are all deprecated")
            continue
        zh_main = next((t for t in zh_ok if "preferred" in _status(t)), zh_ok[0])
        en_main = next((t for t in en_ok if "preferred" in _status(t)), en_ok[0])
        others = [t.text.strip() for t in en_ok if t is not en_main]
        if others:
            warnings.append(f"{display}:{line}: {zh_main.text.strip()}: kept "
                            f"{en_main.text.strip()!r}; dropped the other English "
                            f"{', '.join(map(repr, others))} (a zhen entry has one English form)")
        tags, notes = [], []
        for note in unit.get_common_notes(source=True):
            if note.scope != "concept" or not note.text.strip():
                continue
            if (note.category or "").lower() == "subjectfield":
                tags.append(note.text.strip())
            elif note.origin != "pos":
                notes.append(note.text.strip())
        candidates.append(make_candidate(
            zh_main.text, en_main.text, display, line,
            variants=[t.text for t in zh_ok if t is not zh_main],
            forbid=[t.text for t in en_terms if t.deprecated],
            note="; ".join(dict.fromkeys(notes)), tags=tags))
    if not candidates:
        raise GlossaryError("has no entry with both a Chinese (zh) and an English (en) term; "
                            "nothing to import", path=display)
    return ImportedGlossary(display, "tbx", candidates, warnings)
