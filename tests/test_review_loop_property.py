"""The review loop as a property: random notes, random edits and reviews in the parallel
file, then random changes to the note (change, insert, delete, move, duplicate, several in
one step), then translate again.

Invariants, whatever happened:

* ``x.en.md`` never holds Chinese, and never holds an edit twice;
* an edit is never lost: it is in the parallel file exactly once — on a block, beside a
  stale block, or in the orphans section;
* an edit sits only on a block whose source is the source it was written for, and beside
  a stale block only when that block's earlier source is that source;
* where the history is unambiguous (the block's text occurs once in the note, before and
  after), the edit is exactly where it belongs: on its block if the block is unchanged,
  beside it (stale) if it changed, in the orphans section if it was deleted; a review
  stays on an unchanged block and goes stale on a changed one;
* a second translate with nothing changed writes the same bytes.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from hypothesis import example, HealthCheck, given, settings, strategies as st

from engines import BracketEngine
from zhenglossary.parallel import GLOSS_BANNER, read_parallel_file, set_status
from zhenglossary.render import english_body
from zhenglossary.textutil import has_cjk
from zhenglossary.translate import TranslateOptions, translate_paths

GLOSSARY = """\
source: zh
target: en
terms:
  - zh: 编译器
    en: compiler
  - zh: 寄存器
    en: register
  - zh: 副本
    en: replica
  - zh: 事务
    en: transaction
  - zh: 光栅化
    en: rasterization
"""

# sentences in several fields, written for this test; some share glossary terms
SENTENCES = [
    "编译器先把源程序变成中间表示",
    "寄存器分配决定哪些变量留在寄存器里",
    "每个副本都保存一份完整的日志",
    "领导者把新条目复制到多数副本之后才提交",
    "事务在提交之前看不到别人的写入",
    "两阶段锁保证了可串行化的调度",
    "光栅化把三角形变成屏幕上的像素",
    "深度测试丢掉被遮挡的片元",
    "蛋白质的折叠由氨基酸序列决定",
    "测序仪每小时产生大量短读段",
    "缓存未命中会让流水线停顿很久",
    "分支预测失败的代价随流水线加深而变大",
    "岩层的走向可以用罗盘测出",
    "这个定理的证明分成三个引理",
    "我们用小批量梯度下降训练这个模型",
    "网络分区时系统只能在一致性和可用性之间选一个",
]
_CHANGES = "很大快慢新旧多少高低"
EXAMPLES = int(os.environ.get("ZHEN_LOOP_EXAMPLES", "120"))     # more for a soak (.ci/run: 600)


@st.composite
def notes(draw):
    n = draw(st.integers(2, 9))
    blocks = []
    for _ in range(n):
        kind = draw(st.sampled_from(["p", "p", "p", "h", "li", "q", "code"]))
        sentence = draw(st.sampled_from(SENTENCES))
        if kind == "code":
            blocks.append(f"```\nrun --step {draw(st.integers(1, 3))}\n```")
        elif kind == "h":
            blocks.append("## " + sentence)
        elif kind == "li":
            blocks.append("- " + sentence + "。")
        elif kind == "q":
            blocks.append("> " + sentence + "。")
        else:
            second = draw(st.sampled_from(SENTENCES + [""]))
            blocks.append(sentence + "。" + (second + "。" if second else ""))
    return blocks


def _change(text: str, k: int) -> str:
    """A small change to a block's Chinese: one character replaced."""
    spots = [i for i, ch in enumerate(text) if has_cjk(ch)]
    i = spots[k % len(spots)]
    new = _CHANGES[k % len(_CHANGES)]
    if text[i] == new:
        new = _CHANGES[(k + 1) % len(_CHANGES)]
    return text[:i] + new + text[i + 1:]


OPS = st.lists(st.tuples(st.sampled_from(["change", "insert", "delete", "move", "dup"]),
                         st.integers(0, 50), st.integers(0, 50)), min_size=1, max_size=3)


def _apply(blocks: list[tuple[str, int | None, bool]], ops, pool) -> list:
    out = list(blocks)
    for op, a, b in ops:
        if not out and op != "insert":
            continue
        i = a % max(1, len(out))
        if op == "change":
            text, origin, _ = out[i]
            if "```" not in text:
                out[i] = (_change(text, b), origin, True)
        elif op == "insert":
            # a block of the note inserted again is a copy of it (its origin says whose):
            # changed afterwards, it is as much the block's successor as the block itself
            text = pool[b % len(pool)]
            twin = next((o for t, o, _ in blocks if t == text), None)
            out.insert(a % (len(out) + 1), (text, None if twin is None else ("copy", twin),
                                            False))
        elif op == "delete":
            del out[i]
        elif op == "move":
            item = out.pop(i)
            out.insert(b % (len(out) + 1), item)
        elif op == "dup":
            out.insert(b % (len(out) + 1), out[i])
    return out


def _run(root: Path, gloss: bool = False):
    engine = BracketEngine()
    engine.gloss = gloss               # a gloss's x.en.md has a banner below its header
    report = translate_paths([root / "notes"], root / "glossary.yaml",
                             TranslateOptions(use_memory=False), engine=engine)
    assert all(not f.error for f in report.files), [f.error for f in report.files]
    # nobody edits the Chinese copies in these histories: never a source-edited warning,
    # whatever happens to the note and its English
    assert not [f for f in report.findings if f.check == "source-edited"]
    return report


def _files(root: Path) -> tuple[str, str]:
    return ((root / "notes" / "n.zh-en.md").read_text("utf-8"),
            (root / "notes" / "n.en.md").read_text("utf-8"))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(blocks=notes(), picks=st.lists(st.integers(0, 50), max_size=4),
       reviews=st.lists(st.integers(0, 50), max_size=3), ops=OPS)
# found by hypothesis: both blocks change a little and swap places; two middling pairs in
# order (each block with the other's new text, sharing one sentence) once beat the two
# right ones, and the edit went to the wrong block
@example(blocks=["编译器先把源程序变成中间表示。寄存器分配决定哪些变量留在寄存器里。",
                 "寄存器分配决定哪些变量留在寄存器里。寄存器分配决定哪些变量留在寄存器里。"],
         picks=[0], reviews=[1], ops=[("change", 0, 0), ("move", 0, 1), ("change", 0, 0)])
# found by hypothesis: a block changed, a copy of it inserted and changed too — two blocks
# one character from the original, either may carry its edit (the oracle called it the
# block's own successor); the edit is still kept once, beside one of them
@example(blocks=["- 网络分区时系统只能在一致性和可用性之间选一个。", "## 两阶段锁保证了可串行化的调度"],
         picks=[0], reviews=[], ops=[("change", 0, 0), ("insert", 0, 6), ("change", 0, 1)])
@example(blocks=["## 编译器先把源程序变成中间表示", "编译器先把源程序变成中间表示。编译器先把源程序变成中间表示。"],
         picks=[], reviews=[0], ops=[("change", 0, 0), ("insert", 0, 6), ("change", 0, 1)])
def test_edits_survive_any_change_of_the_note(tmp_path_factory, blocks, picks, reviews, ops):
    root = tmp_path_factory.mktemp("loop")
    (root / "notes").mkdir()
    (root / "glossary.yaml").write_text(GLOSSARY, "utf-8")
    note = root / "notes" / "n.md"
    note.write_text("\n\n".join(blocks) + "\n", "utf-8")
    _run(root)

    # edits and reviews in the parallel file
    text, _ = _files(root)
    parallel = read_parallel_file(text)
    translated = [b for b in parallel.blocks if not b.same]
    edited: dict[int, str] = {}                   # block index (1-based) → marker
    for k in picks:
        if translated:
            b = translated[k % len(translated)]
            edited.setdefault(b.index, f"EDIT{b.index}")
    lines = text.split("\n")
    for b in translated:
        if b.index in edited:
            lines[b.en_line - 1] += f" {edited[b.index]}"       # a valid edit: English + a mark
    text = "\n".join(lines)
    reviewed = {translated[k % len(translated)].index for k in reviews if translated} - set(edited)
    text, _ = set_status(text, reviewed, "reviewed")
    (root / "notes" / "n.zh-en.md").write_text(text, "utf-8")
    _run(root)
    _, english = _files(root)
    for marker in edited.values():
        assert english.count(marker) == 1

    # the note changes
    old = [(t, i, False) for i, t in enumerate(blocks)]
    new = _apply(old, ops, SENTENCES[:6] + blocks)
    note.write_text("\n\n".join(t for t, _, _ in new) + "\n", "utf-8")
    _run(root)
    text, english = _files(root)
    after = read_parallel_file(text)
    body = english_body(english)
    assert not has_cjk(body), body

    originals = {i + 1: t for i, t in enumerate(blocks)}        # block index → source then
    current = [t for t, _, _ in new]
    by_index = {b.index: b for b in after.blocks}
    copies = {origin for _, origin, _ in new if isinstance(origin, tuple)}
    for index, marker in edited.items():
        source = originals[index]
        assert body.count(marker) <= 1
        slots = [b for b in after.blocks if not b.same and marker in b.english]
        beside = [b for b in after.blocks if b.was is not None and marker in b.was.english]
        kept = [o for o in after.orphans if marker in o.english]
        assert len(slots) + len(beside) + len(kept) == 1, (marker, ops)     # never lost, once
        for b in slots:
            assert current[b.index - 1] == source and b.status == "edited"
        for b in beside:
            assert b.was.source == source and current[b.index - 1] != source
            assert marker not in body
        for o in kept:
            assert o.source == source
        if marker in body:
            [leaf] = [k for k, t in enumerate(current) if marker in _leaf_english(body, k)]
            assert current[leaf] == source
        # unambiguous histories: exactly where it belongs
        if blocks.count(source) == 1 and current.count(source) <= 1 and \
                ("copy", index - 1) not in copies:
            here = [k for k, (_, origin, changed) in enumerate(new) if origin == index - 1]
            unchanged = [k for k in here if not new[k][2]]
            if unchanged:
                assert slots and slots[0].index == unchanged[0] + 1, (marker, ops)
            elif here and source not in current and not any(
                    current.count(new[k][0]) > 1 or new[k][0] in blocks for k in here):
                assert beside and beside[0].index - 1 in here, (marker, ops)
            elif not here and source not in current:
                # deleted: kept at the end, or beside a new block much like it (stale)
                assert kept or beside, (marker, ops)
    for index in reviewed:
        source = originals[index]
        if blocks.count(source) != 1 or current.count(source) > 1 or \
                ("copy", index - 1) in copies:
            continue
        here = [k for k, (_, origin, changed) in enumerate(new) if origin == index - 1]
        unchanged = [k for k in here if not new[k][2]]
        if unchanged:
            assert by_index[unchanged[0] + 1].status == "reviewed", (index, ops)
        elif here and len(here) == 1 and source not in current \
                and current.count(new[here[0]][0]) == 1 and new[here[0]][0] not in blocks:
            block = by_index[here[0] + 1]
            assert block.status == "stale" and block.was.status == "reviewed", (index, ops)

    # nothing changed: the same bytes
    _run(root)
    assert _files(root) == (text, english)


def _leaf_english(body: str, k: int) -> str:
    """The k-th block of x.en.md's body (blocks are separated by blank lines here)."""
    parts = re.split(r"\n\n(?!run --step)", body.strip("\n"))
    merged, i = [], 0
    while i < len(parts):                      # a fenced code block is one block
        part = parts[i]
        while part.startswith("```") and part.count("```") < 2 and i + 1 < len(parts):
            i += 1
            part += "\n\n" + parts[i]
        merged.append(part)
        i += 1
    return merged[k] if k < len(merged) else ""


# ------------------------------------------------------------------ x.en.md edits carried

FRONT_MATTER = st.sampled_from(["", "---\ntitle: 实验笔记\n---\n\n",
                                "---\ntitle: 岩层记录\ntags: [野外, 罗盘]\n---\n\n"])


@settings(max_examples=max(EXAMPLES // 3, 20), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(front=FRONT_MATTER, blocks=notes(), picks=st.lists(st.integers(0, 50), max_size=3),
       gloss=st.booleans(), unbanner=st.booleans())
# found by a new user: front matter, then zhen's header and the gloss banner — every edit
# of x.en.md was refused as "blocks were added or removed by hand"
@example(front="---\ntitle: 实验笔记\n---\n\n", blocks=["## 编译器先把源程序变成中间表示",
                                                        "编译器先把源程序变成中间表示。"],
         picks=[1], gloss=True, unbanner=False)
# found by a new user (finding 17): the banner deleted and a block edited at once — the
# edit was carried and the banner written again without a word
@example(front="", blocks=["## 编译器先把源程序变成中间表示", "编译器先把源程序变成中间表示。"],
         picks=[1], gloss=True, unbanner=True)
def test_edits_in_the_english_file_are_carried_with_or_without_front_matter(
        tmp_path_factory, front, blocks, picks, gloss, unbanner):
    """A hand edit of translated blocks in x.en.md is carried into the parallel file as
    those blocks' edits, whether or not the note starts with front matter and whether or
    not x.en.md has the gloss banner; a deleted gloss banner is written again and said in
    one `output-replaced` warning (with or without edits), and there is no such warning
    where nothing but blocks changed."""
    root = tmp_path_factory.mktemp("carry")
    (root / "notes").mkdir()
    (root / "glossary.yaml").write_text(GLOSSARY, "utf-8")
    (root / "notes" / "n.md").write_text(front + "\n\n".join(blocks) + "\n", "utf-8")
    _run(root, gloss)
    text, english = _files(root)
    translated = [b for b in read_parallel_file(text).blocks if not b.same]
    if not translated:
        return                    # nothing to translate (code only): no English to edit
    edited: dict[int, str] = {}
    for pick in picks:
        block = translated[pick % len(translated)]
        if block.index in edited or english.count(block.english) != 1:
            continue                                  # twins: which one is edited is moot
        # the machine English with a word of the person's: its glossary terms still in it
        marker = f"{block.english.rstrip()} (checked by hand {block.index})"
        english = english.replace(block.english, marker)
        edited[block.index] = marker
    unbanner = unbanner and gloss
    if unbanner:
        assert english.count(GLOSS_BANNER + "\n\n") == 1
        english = english.replace(GLOSS_BANNER + "\n\n", "")
    if not edited and not unbanner:
        return
    (root / "notes" / "n.en.md").write_text(english, "utf-8")
    report = _run(root, gloss)
    text, after = _files(root)
    by_index = {b.index: b for b in read_parallel_file(text).blocks}
    for index, marker in edited.items():
        assert by_index[index].english == marker and by_index[index].status == "edited"
        assert after.count(marker) == 1
    assert after.startswith(front.rstrip("\n")) if front else True
    assert (GLOSS_BANNER in after) == gloss
    replaced = [f.message for f in report.findings if f.check == "output-replaced"]
    assert replaced == (['the "Dictionary gloss" banner was deleted by hand; zhen writes it '
                         'again while this English is a dictionary gloss, so every reader '
                         'knows what it is — `zhen model install` (machine translation) makes '
                         'it go'] if unbanner else [])
