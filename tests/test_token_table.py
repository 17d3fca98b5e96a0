"""One table says what each token kind is (markdown.TOKENS): every token type the parser
configuration emits is in it, every entry is emitted by some construct, and the readers
that sort tokens (document.py's leaves and inline nodes, the review page's block outline)
go through it."""

from __future__ import annotations

from zhenglossary.document import parse_document
from zhenglossary.markdown import TOKENS, TokenKind, display_parser, outline, parser, role_of

# Every construct zhen's configuration reads, written for this test.
EVERY_CONSTRUCT = """\
---
title: 各种结构
---

# 一级标题 *强调*

二级标题
--------

段落里有**加粗**、*斜体*、~~删除线~~、`代码`、{cite}`ref2024`、:numref:`fig_a` 和 <b>HTML</b>。
行内公式 $x^2$ 与 $$y = 1$$，链接 [文档](https://example.org "题目")，图片 ![示意图](a.png)，
自动链接 <https://example.org>，脚注[^n]，行内脚注^[这是行内脚注的文字]。硬换行在这里\\
然后继续。

- 列表项一
- [ ] 任务项
  1. 有序子项

> 引用里的句子。

> [!WARNING]
> 提醒里的句子。

| 列一 | 列二 |
|---|---|
| 单元格 | 另一格 |

```python
print("围栏代码")
```

    缩进代码

<div>HTML 块</div>

***

$$
E = mc^2
$$

$$
a = b
$$ (eq1)

\\begin{align}
a &= b
\\end{align}

[^n]: 脚注定义的文字。
"""


def _types(tokens, out: set) -> set:
    for t in tokens:
        out.add(t.type)
        _types(t.children or [], out)
    return out


def _emitted(md, text: str) -> set:
    env: dict = {}
    types = _types(md.parse(text, env), set())
    for entry in env.get("footnotes", {}).get("list", {}).values():
        _types(entry.get("tokens", []), types)
    return types


def _opening(kind: str) -> str:
    return kind[:-6] + "_open" if kind.endswith("_close") else kind


def test_every_token_type_the_parsers_emit_is_in_the_table():
    for md in (parser(), display_parser()):
        types = _emitted(md, EVERY_CONSTRUCT)
        unknown = {t for t in types if _opening(t) not in TOKENS}
        assert not unknown, unknown


def test_every_entry_of_the_table_is_emitted_by_a_construct():
    types = _emitted(parser(), EVERY_CONSTRUCT)
    assert set(TOKENS) - types == set()


def test_the_leaves_are_the_table_s_blocks():
    doc = parse_document(EVERY_CONSTRUCT)
    kinds = [leaf.kind for leaf in doc.leaves]
    block_names = {r.name for r in TOKENS.values()
                   if r.kind in (TokenKind.PROSE, TokenKind.VERBATIM)}
    assert set(kinds) <= block_names
    assert {"front_matter", "heading", "paragraph", "table", "code", "html", "hr",
            "math", "alert"} <= set(kinds)
    marker = next(leaf for leaf in doc.leaves if leaf.kind == "alert")
    assert doc.leaf_text(marker) == "> [!WARNING]\n" and not marker.regions
    assert not [r.error for leaf in doc.leaves for r in leaf.regions if r.error]


def test_inline_roles_refine_by_meta():
    tokens = parser().parseInline("见^[行内]与[^a]和<https://x.org>", {})[0].children
    roles = {t.type + ("/inline" if t.type == "footnote_ref" and "label" not in t.meta else ""):
             role_of(t) for t in tokens}
    assert roles["footnote_ref/inline"].kind is TokenKind.WRAP
    assert role_of(next(t for t in tokens if t.type == "link_open")).name == "autolink"


def test_a_type_missing_from_the_table_is_left_verbatim_and_said(monkeypatch):
    from zhenglossary import markdown

    monkeypatch.delitem(markdown.TOKENS, "math_inline")
    doc = parse_document("公式 $x$ 在这里。\n")
    region = doc.leaves[0].regions[0]
    assert region.error and "unsupported inline token math_inline" in region.error


def test_outline_reads_a_block_once_for_every_question():
    item = outline("3. [x] 完成了*第一*步\n")
    assert (item.shape, item.lead, item.text, item.quoted) == ("paragraph", "☑",
                                                                 "完成了*第一*步", False)
    quote = outline("> 引用的**一句**话\n")
    assert (quote.shape, quote.text, quote.quoted) == ("paragraph", "引用的**一句**话", True)
    heading = outline("## 标题 `x`\n")
    assert (heading.shape, heading.level, heading.text) == ("heading", 2, "标题 `x`")
    alert = outline("> [!TIP]\n> 提醒的一句话\n")
    assert (alert.shape, alert.quoted) == ("other", True)
    bullet = outline("- 一项\n")
    assert bullet.lead == "•"
    for other in ("| a | b |\n|---|---|\n| 1 | 2 |\n", "```\n代码\n```\n", "段一\n\n段二\n",
                  "$$\nx\n$$\n"):
        assert outline(other).shape == "other" and outline(other).text is None, other
