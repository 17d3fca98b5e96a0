"""A YAML glossary as an import file: another zhen glossary, or the candidates file
``zhen glossary suggest --out candidates.yaml`` writes for a curator to review.

The curator's workflow: ``suggest --out`` writes every candidate with its evidence as
comments; the curator deletes what they reject, fills in or corrects ``en``; ``zhen glossary
import candidates.yaml`` appends what is left to glossary.yaml (byte-preserving, below a
comment, ``exchange/merge.py``). An entry whose ``en`` is still empty is not imported: it is
named, with its line, as waiting for English.

Read with the safe loader (no anchors, no tags), the same size limit as glossary.yaml;
every value passes the import checks of :mod:`entries`.
"""

from __future__ import annotations

import yaml

from ..errors import GlossaryError
from ..glossary import TERM_KEYS
from .entries import ImportedGlossary, make_candidate

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _scalar(node) -> str:
    return node.value if isinstance(node, yaml.ScalarNode) and node.value is not None else ""


def _strings(node, what: str, display: str) -> tuple[str, ...]:
    if isinstance(node, yaml.ScalarNode):
        return (node.value,) if node.value else ()
    if isinstance(node, yaml.SequenceNode):
        return tuple(_scalar(item) for item in node.value if _scalar(item))
    raise GlossaryError(f"`{what}` must be a list of strings", path=display,
                        line=node.start_mark.line + 1)


def read_yaml(text: str, display: str) -> ImportedGlossary:
    try:
        root = yaml.compose(text, Loader=_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise GlossaryError(f"is not valid YAML ({getattr(exc, 'problem', exc)}); fix it and "
                            "import again", path=display,
                            line=mark.line + 1 if mark else None) from None
    entries = None
    if isinstance(root, yaml.MappingNode):
        for key, value in root.value:
            if _scalar(key) == "terms":
                entries = value
    elif isinstance(root, yaml.SequenceNode):
        entries = root
    if not isinstance(entries, yaml.SequenceNode):
        raise GlossaryError("holds no `terms:` list; a YAML import file is a zhen glossary or "
                            "the candidates `zhen glossary suggest --out` writes", path=display)
    candidates, warnings = [], []
    for node in entries.value:
        line = node.start_mark.line + 1
        if not isinstance(node, yaml.MappingNode):
            raise GlossaryError("each entry must be a mapping like `- zh: 混合精度` / "
                                "`  en: mixed precision`", path=display, line=line)
        fields = {}
        for key, value in node.value:
            name = _scalar(key)
            if name not in TERM_KEYS:
                raise GlossaryError(f"unknown key {name!r}; entries have "
                                    f"{', '.join(TERM_KEYS)}", path=display,
                                    line=key.start_mark.line + 1)
            fields[name] = value
        zh = _scalar(fields["zh"]) if "zh" in fields else ""
        en = _scalar(fields["en"]) if "en" in fields else ""
        if zh and not en.strip():
            warnings.append(f"{display}:{line}: {zh} has no English yet; fill in `en` to "
                            "import it (or delete the entry)")
            continue
        candidates.append(make_candidate(
            zh, en, display, line,
            variants=_strings(fields["variants"], "variants", display) if "variants" in fields else (),
            forbid=_strings(fields["forbid"], "forbid", display) if "forbid" in fields else (),
            note=_scalar(fields["note"]) if "note" in fields else "",
            tags=_strings(fields["tags"], "tags", display) if "tags" in fields else ()))
    return ImportedGlossary(display, "yaml", candidates, warnings)
