"""What the llm engine says to the model and what it accepts back: the system prompt, the
request's JSON, the answer's schema and its strict reading.

A request is two or three chat messages:

1. **system**: :data:`SYSTEM_PROMPT` (``[llm] system_prompt`` in zhen.toml replaces it;
   its hash then joins the prompt version, and so every memory key);
2. **user**: one JSON object — ``glossary``: the entries the request's sentences use, and
   only those (``zh``, ``en``, and ``forbid``, ``note`` where the entry has them);
   ``blocks``: whole blocks of the note, in order, each with its ``context`` (the
   ``headings`` above it, the ``previous`` block and the ``block`` itself, to read, not to
   translate) and its ``sentences`` (``id``, ``zh``). A term is the note's Chinese in
   ``zh``; code, math, links and names are tokens ``ZX1``… . Asked with the terms masked
   (the last rung), a sentence's ``tokens`` say which tokens are which glossary terms;
3. on a retry, **user** again: each sentence's failure, named.

The answer must be ``{"translations": [{"id": 1, "en": "…"}, …]}`` with exactly the ids
asked for — nothing before or after it (a Markdown code fence around it is allowed), no
other keys. Where the server takes a JSON schema (:func:`answer_schema`) it is sent; the
reading is as strict either way, so one sentence's English can never land on another.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Mapping

from ..placeholders import placeholder, show_terms
from ..textutil import CJK_RE

# Bump when the default prompt or the request/answer format changes: it is part of every
# memory key (identity()).
PROMPT_VERSION = "2"

SYSTEM_PROMPT = """\
You translate Chinese technical writing (computing, HPC, machine learning) into fluent, \
precise English.

The user sends one JSON object:
- "glossary": the terms the sentences use. Each has "zh" (the Chinese), "en" (its \
English) and may have "forbid" (renderings that are wrong) and a "note".
- "blocks": parts of a Markdown note, in order. Each has a "context" (the "headings" \
above it, the "previous" block, the "block" itself), which is there to be understood, \
never translated, and "sentences" to translate, each with an "id" and its Chinese "zh".

Rules:
1. Translate every sentence completely into English. Leave no Chinese.
2. Write each glossary term as its "en". You may inflect it (plural, possessive) and put \
articles around it, but never write another word for it, and never a "forbid" rendering.
3. Tokens like ZX1, ZX2 stand for code, math, links and names: copy each one exactly \
once, unchanged, where it belongs. A sentence may list "tokens" that stand for glossary \
terms: copy those tokens too, and make the words around them fit the term's "en".
4. Answer with only this JSON, one item per sentence, with the same ids: \
{"translations": [{"id": 1, "en": "..."}]}"""


def prompt_version(system_prompt: str) -> str:
    """``2`` for zhen's own prompt; ``2+<hash>`` for a prompt the user wrote."""
    if not system_prompt or system_prompt == SYSTEM_PROMPT:
        return PROMPT_VERSION
    return f"{PROMPT_VERSION}+{hashlib.sha256(system_prompt.encode()).hexdigest()[:8]}"


@dataclass
class Sentence:
    """One text of an engine call on its way up the ladder."""

    index: int                       # position in the engine call
    text: str                        # the masked segment (every placeholder)
    terms: Mapping[int, object]      # placeholder number → TermSlot (or Term)
    context: object = None           # context.BlockContext
    reason: str | None = None        # why the last answer was rejected (the masked numbering)
    told: str | None = None          # the same, as the model saw it
    cut: bool = False                # cut off by max_tokens, or the request overflowed
    bare: bool = False               # the request overflowed: ask without the context
    english: str | None = None       # accepted English (the masked numbering)
    via: str | None = None           # the rung that gave it
    shown_cache: dict = field(default_factory=dict, repr=False)

    def shown(self, masked: bool) -> tuple[str, list[int] | None]:
        """The text the model sees, and for each of its placeholders the masked text's
        number (None: it sees the masked text itself, numbers and all)."""
        if masked:
            return self.text, None
        if "view" not in self.shown_cache:
            sources = {n: getattr(t, "source", None) or t.zh for n, t in self.terms.items()}
            self.shown_cache["view"] = show_terms(self.text, sources)
        return self.shown_cache["view"]


def _entry(term) -> dict:
    # the Chinese as the sentence has it (a variant of the entry's zh, perhaps)
    entry = {"zh": getattr(term, "source", None) or term.zh, "en": term.en}
    if term.forbid:
        entry["forbid"] = list(term.forbid)
    if getattr(term, "note", ""):
        entry["note"] = term.note
    return entry


def _context(sentences: list[Sentence], shown: list[str]) -> dict | None:
    ctx = sentences[0].context
    if ctx is None or sentences[0].bare:
        return None
    out: dict = {}
    if ctx.headings:
        out["headings"] = list(ctx.headings)
    if ctx.previous:
        out["previous"] = ctx.previous
    # the block, unless the request's sentences are all the Chinese it has
    if len(CJK_RE.findall(ctx.block)) > sum(len(CJK_RE.findall(t)) for t in shown):
        out["block"] = ctx.block
    return out or None


def payload(sentences: list[Sentence], masked: bool = False) -> dict:
    """The user message's JSON for one request (ids 1…n in order)."""
    glossary: list[dict] = []
    seen: set = set()
    blocks: list[dict] = []
    group: list[tuple[Sentence, str, dict]] = []

    def close() -> None:
        if group:
            block: dict = {}
            context = _context([g[0] for g in group], [g[1] for g in group])
            if context:
                block["context"] = context
            block["sentences"] = [g[2] for g in group]
            blocks.append(block)
            group.clear()

    for k, sentence in enumerate(sentences, 1):
        text, _ = sentence.shown(masked)
        item: dict = {"id": k, "zh": text}
        if masked and sentence.terms:
            item["tokens"] = {placeholder(n): getattr(t, "source", None) or t.zh
                              for n, t in sorted(sentence.terms.items())}
        for _, term in sorted(sentence.terms.items()):
            key = (getattr(term, "source", None) or term.zh, term.en)
            if key not in seen:
                seen.add(key)
                glossary.append(_entry(term))
        if group and (sentence.context is None or group[-1][0].context is None
                      or sentence.context.block_id != group[-1][0].context.block_id):
            close()
        group.append((sentence, text, item))
    close()
    out: dict = {}
    if glossary:
        out["glossary"] = glossary
    out["blocks"] = blocks
    return out


def build_messages(sentences: list[Sentence], *, masked: bool = False, retry: bool = False,
                   system: str = SYSTEM_PROMPT) -> list[dict]:
    messages = [{"role": "system", "content": system},
                {"role": "user", "content": json.dumps(payload(sentences, masked),
                                                       ensure_ascii=False)}]
    if retry:
        named = "\n".join(f"- id {k}: {(s.reason if masked else s.told) or s.reason}"
                          for k, s in enumerate(sentences, 1))
        messages.append({"role": "user", "content": "Your last answer for these sentences was "
                         "rejected:\n" + named + "\nTranslate them again, following every rule."})
    return messages


def answer_schema(count: int) -> dict:
    """The JSON schema of an answer for ``count`` sentences."""
    return {"type": "object", "additionalProperties": False, "required": ["translations"],
            "properties": {"translations": {
                "type": "array", "minItems": count, "maxItems": count,
                "items": {"type": "object", "additionalProperties": False,
                          "required": ["id", "en"],
                          "properties": {"id": {"type": "integer",
                                                "enum": list(range(1, count + 1))},
                                         "en": {"type": "string"}}}}}}


_FENCE = re.compile(r"\A```(?:json)?\s*\n(.*)\n```\Z", re.DOTALL)
_SHAPE = 'the answer must be {"translations": [{"id": <number>, "en": "<English>"}, …]}'


def parse_answer(content: str, count: int) -> list[str]:
    """The English for ids 1..count, in id order; ValueError says what is wrong."""
    text = content.strip()
    fenced = _FENCE.match(text)
    if fenced:
        text = fenced.group(1).strip()
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ValueError(f"the answer is not a JSON object alone ({exc.msg} at char {exc.pos})") \
            from None
    if not isinstance(data, dict) or set(data) != {"translations"} \
            or not isinstance(data["translations"], list):
        raise ValueError(_SHAPE)
    english: dict[int, str] = {}
    for entry in data["translations"]:
        if not (isinstance(entry, dict) and set(entry) == {"id", "en"}
                and isinstance(entry["id"], int) and not isinstance(entry["id"], bool)
                and isinstance(entry["en"], str)):
            raise ValueError(_SHAPE)
        if entry["id"] in english:
            raise ValueError(f"id {entry['id']} appears twice")
        english[entry["id"]] = entry["en"]
    if sorted(english) != list(range(1, count + 1)):
        raise ValueError(f"expected {count} items with ids 1-{count}, got ids "
                         f"{sorted(english)[:count + 3]}")
    return [english[k] for k in range(1, count + 1)]
