"""Hand edits are data: English a person wrote in ``x.zh-en.md``, kept by ``zhen translate``.

An edit belongs to its source block, found by identity — the block's source hash, then
(for a block whose source changed) its position between unchanged neighbours — never by
index alone. Approved edits live in the translation memory under the project root and the
note's path, so two projects sharing ``ZHEN_HOME`` never see each other's edits.
"""

from __future__ import annotations

from pathlib import Path

from .document import Document
from .findings import Finding
from .parallel import read_parallel
from .render import reindent


def kept_edits(doc: Document, par_path: Path, memory, file_key: str, display: str,
               notices: list[str], translatable: set[int]
               ) -> tuple[dict[int, tuple[str, str]], list[Finding]]:
    """English a person wrote in the parallel file, to keep instead of the machine's.

    An edited English block (its text no longer matches the hash zhen wrote) is approved:
    stored in the memory under its source block's hash and used from then on. Emptying an
    edited block gives the machine translation back. When a source block with approved
    English changes, the English is kept and marked ``stale`` until a person edits it.

    Blocks are matched by identity: first the source hash, then — for a changed block —
    its position among its unchanged neighbours (every block of the old parallel file,
    ``same`` blocks included, so an English-only heading never takes a neighbour's edit),
    and only onto a block that has something to translate.
    """
    import difflib

    old = []
    if par_path.is_file():
        try:
            old = read_parallel(par_path.read_text("utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            notices.append(f"{par_path}: cannot read it ({exc}); edits in it are not kept")
    approved = memory.approved(file_key)
    stale: dict[str, str] = {}
    for block in old:
        if block.same:
            continue
        if block.edited:
            if block.english.strip():
                memory.approve(file_key, block.source_sha, block.source, block.english)
                approved[block.source_sha] = block.english
            else:
                memory.unapprove(file_key, block.source_sha)
                approved.pop(block.source_sha, None)
        elif block.status == "approved":
            approved.setdefault(block.source_sha, block.english)
        elif block.status == "stale":
            stale[block.source_sha] = block.english
    leaves = [doc.leaf_text(leaf) for leaf in doc.leaves]
    hashes = [doc.leaf_hash(leaf) for leaf in doc.leaves]
    overrides: dict[int, tuple[str, str]] = {}
    findings: list[Finding] = []
    for i, digest in enumerate(hashes):
        if digest in approved:
            overrides[i] = (reindent(approved[digest], leaves[i]), "approved")
        elif digest in stale:
            overrides[i] = (reindent(stale[digest], leaves[i]), "stale")

    def human(block) -> bool:
        return not block.same and bool(block.english.strip()) and (
            block.source_sha in approved or block.status in ("approved", "stale"))

    # a changed source block whose English a person wrote: pair old and new blocks by
    # position between the blocks whose hashes still match
    if any(human(b) for b in old):
        matcher = difflib.SequenceMatcher(None, [b.source_sha for b in old], hashes,
                                          autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag != "replace":
                continue
            for k in range(min(i2 - i1, j2 - j1)):
                block, j = old[i1 + k], j1 + k
                if j not in overrides and j in translatable and human(block):
                    overrides[j] = (reindent(block.english, leaves[j]), "stale")
    for i, (_, status) in sorted(overrides.items()):
        if status == "stale":
            leaf = doc.leaves[i]
            findings.append(Finding(
                "stale", "warning",
                f"block {i + 1}: its source changed after its English was edited by hand; the "
                f"edited English is kept — review it in {par_path.name} (edit it to approve it, "
                "or empty it for a new machine translation)", display, leaf.start_line + 1,
                extra={"segment": f"b{i + 1}", "source": leaves[i].strip()}))
    return overrides, findings
