"""Sentences of a block's text, for aligning a source with its English afterwards.

The translator cuts sentences on the masked source while it works (``locking``); what is
read back from a parallel file is plain text, so the review page, the ``inconsistent``
check and the sentence units of ``zhen export`` split it again here, the same way on both
sides: a Chinese sentence ends at 。！？；(or ASCII ! ? ;) or an ellipsis, an English one at
. ! ? ; or an ellipsis followed by whitespace, closing quotes and brackets staying with it.
An English full stop after a single letter or an abbreviation (``e.g.``, ``i.e.``,
``et al.``, ``vs.``, ``etc.``, ``Fig.``, ``Eq.``) ends no sentence, nor does anything in
inline code, a URL or HTML.

``align`` pairs the sentences of a source and its English when their counts agree (the
translator writes one English sentence per source sentence), and gives ``None`` when they
do not, so callers fall back to the whole block.
"""

from __future__ import annotations

import re

from .prose import prose_view

_CLOSERS = "”’」』）)\\]】\"'"
_ZH_END = re.compile(rf"(?:[。！？；!?;]|…+)+[{_CLOSERS}]*")
_EN_END = re.compile(rf"(?:[.!?;]|…+)+[{_CLOSERS}]*(?=\s|$)")
_NOT_AN_END = re.compile(r"(?i)(?:^|[\s(])(?:[A-Za-z]|e\.g|i\.e|et al|vs|etc|cf|Fig|Eq|No|Sec)\.$")


def split_sentences(text: str, lang: str, view: str | None = None) -> list[str]:
    """The sentences of ``text`` (``lang`` "zh" or "en"), each with its own trailing
    punctuation and without the whitespace between them; their concatenation with that
    whitespace is ``text``. ``view``: ``text``'s prose view when the caller has it (same
    length; :func:`prose.prose_view` otherwise reads it)."""
    pattern = _ZH_END if lang == "zh" else _EN_END
    out: list[str] = []
    pos = 0
    view = view if view is not None and len(view) == len(text) else prose_view(text)
    for match in pattern.finditer(view):                    # never inside code or a URL
        if lang == "en" and match.group(0) == "." and _NOT_AN_END.search(text[pos:match.end()]):
            continue
        piece = text[pos:match.end()]
        if piece.strip():
            out.append(piece.strip())
        pos = match.end()
    if text[pos:].strip():
        out.append(text[pos:].strip())
    return out


def align(source: str, english: str, views: tuple[str, str] | None = None
          ) -> list[tuple[str, str]] | None:
    """Sentence pairs of a source and its English, or None when the counts differ;
    ``views``: their prose views, when the caller has them."""
    zh = split_sentences(source, "zh", views[0] if views else None)
    en = split_sentences(english, "en", views[1] if views else None)
    if len(zh) != len(en):
        return None
    return list(zip(zh, en))


def block_text(markdown: str) -> str | None:
    """The text of a block without its Markdown container: a heading's text without
    ``#``, a paragraph's without the ``- ``/``1. `` of its list item, the ``> `` of its
    quote and a task item's ``[ ]``; inline Markdown (emphasis, code, links) is kept. None
    for anything else (tables, code, several paragraphs)."""
    from .markdown import outline

    return outline(markdown).text

