"""When a person's English goes stale: a block's source as Markdown reads it
(``Document.leaf_reading``), so a re-wrap of its lines is no change and every change a
reader can see is one."""

from __future__ import annotations

import pytest

from zhenglossary.document import parse_document, reading


# --------------------------------------------------------------------------- reading

@pytest.mark.parametrize("a, b", [
    ("岩层在断层两侧\n错开了几米。", "岩层在断层两侧错开了几米。"),          # a soft break between Chinese
    ("岩层在断层两侧，\n错开了几米。", "岩层在断层两侧，错开了几米。"),       # after a full-width comma
    ("岩层在断层两侧 \n   错开了几米。", "岩层在断层两侧错开了几米。"),       # a trailing space, indentation
    ("用 GPS\n记录坐标。", "用 GPS 记录坐标。"),                          # a break between Latin and
    ("采样用\nGPS 记录。", "采样用 GPS 记录。"),                          # Chinese reads as a space
    ("> 岩层在断层两侧\n> 错开了几米。", "> 岩层在断层\n两侧错开了几米。"),   # a quote's lazy line
    ("- 岩层在断层两侧\n  错开了几米。", "- 岩层在断层两侧错开了几米。"),     # a list item's
    ("**岩层**\n在断层两侧错开。", "**岩层**在断层两侧错开。"),              # markup skipped
    ("岩层在断层两侧错开。   \n", "岩层在断层两侧错开。"),                  # trailing spaces at the end
    ("岩层在断层两侧\r\n错开了几米。\r\n", "岩层在断层两侧错开了几米。"),     # CRLF
    ("换行前  \n换行后。", "换行前\\\n换行后。"),                           # a hard break, either way
])
def test_what_a_reader_does_not_see_is_no_change(a, b):
    assert reading(a) == reading(b)


@pytest.mark.parametrize("a, b", [
    ("岩层在断层两侧错开了几米。", "岩层在断层两侧错开了几厘米。"),          # a character
    ("岩层在断层两侧\n错开了几米。", "岩层在断层两侧  \n错开了几米。"),       # a soft break made hard
    ("岩层在断层两侧\n错开了几米。", "岩层在断层两侧\\\n错开了几米。"),
    ("岩层在断层两侧错开了几米。", "岩层在断层两侧 错开了几米。"),            # a space between Chinese
    ("采样用GPS记录。", "采样用\nGPS记录。"),                              # renders as a space
    ("运行 `make -j 4` 之后", "运行 `make -j 8` 之后"),                    # code
    ("运行 `make -j 4` 之后", "运行 `make  -j 4` 之后"),
    ("运行 `make\n-j 4` 之后", "运行 `make -j 4` 之后"),                   # a break inside code
    ("面积是$a\nb$平方米", "面积是$a b$平方米"),                           # math
    ("岩层*错开*了", "岩层_错开_了"),                                      # markup bytes
    ("- 岩层错开了", "* 岩层错开了"),
    ("## 岩层", "### 岩层"),
])
def test_every_change_a_reader_can_see_is_a_change(a, b):
    assert reading(a) != reading(b)


def test_the_reading_of_a_leaf_in_its_note_is_the_reading_of_its_text():
    note = "# 野外记录\n\n> 岩层在断层两侧\n> 错开了几米，\n> 走向北东。\n\n- 样品编号\n  写在袋子外面。\n"
    doc = parse_document(note)
    assert [doc.leaf_reading(leaf) for leaf in doc.leaves] == [
        "# 野外记录", "> 岩层在断层两侧错开了几米，走向北东。", "- 样品编号写在袋子外面。"]
