"""Structure and protected-span extraction used by round-trip tests."""

from __future__ import annotations

from zhenglossary.markdown import parse_tokens
from zhenglossary.prose import find_urls

INLINE_KEEP = {"em_open", "em_close", "strong_open", "strong_close", "s_open", "s_close",
               "link_open", "link_close", "image", "code_inline", "html_inline", "hardbreak"}


def structure(text: str) -> list[tuple]:
    """Block tokens (type, tag, nesting level, markup) and the non-text inline tokens."""
    out = []
    tokens = parse_tokens(text)
    if tokens and tokens[0].type == "html_block" and tokens[0].content.startswith("<!-- zhen:"):
        tokens = tokens[1:]
    for tok in tokens:
        if tok.type == "inline":
            for child in tok.children or []:
                if child.type in INLINE_KEEP:
                    out.append(("inline", child.type, child.markup))
        else:
            out.append((tok.type, tok.tag, tok.level, tok.markup))
    return out


def protected(text: str) -> dict[str, list[str]]:
    """Everything that must come out byte-identical."""
    code_blocks, inline_code, urls, html = [], [], [], []
    for tok in parse_tokens(text):
        if tok.type in ("fence", "code_block"):
            code_blocks.append(tok.content)
        elif tok.type == "html_block":
            if not tok.content.startswith("<!-- zhen:"):
                html.append(tok.content)
        elif tok.type == "inline":
            for child in tok.children or []:
                if child.type == "code_inline":
                    inline_code.append(child.content)
                elif child.type == "html_inline":
                    html.append(child.content)
                elif child.type in ("link_open", "image"):
                    urls.append(child.attrs.get("href") or child.attrs.get("src"))
                elif child.type == "text":
                    urls += [child.content[s:e] for s, e in find_urls(child.content)]
    return {"code_blocks": code_blocks, "inline_code": inline_code, "urls": sorted(urls),
            "html": html}
