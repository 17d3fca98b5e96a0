"""What the reviewer must act on after a translate, placed at the line of the parallel file
where they act: an edit failing the output check, a stale block, an orphaned edit, source
the engine could not render."""

from __future__ import annotations

from pathlib import Path

from ..findings import Finding, unrendered_message
from ..markdown import KEEP_CHARS
from .carry import Carry
from .format import read_parallel_file
from .status import PairStatus


def state_findings(carry: Carry, leaves, parallel, par_path: Path, en_name: str,
                   display: str) -> list[Finding]:
    """What the reviewer must act on, at the line of the parallel file where they act:
    edits failing the output check, stale blocks, orphaned edits, unrendered source.
    ``parallel``: the parallel file's text (a str, or a big note's ``textutil.Pieces``)."""
    # the lines are read from the file as written, which is also read back whole, so a
    # parallel file zhen could not read next run fails this one; only a big note's (over
    # markdown.KEEP_CHARS) with nothing to act on is not, to keep its memory bounded
    acted = carry.orphans or carry.copy_edited or any(leaves[i].unrendered or s.status is PairStatus.INVALID or (
        s.status is PairStatus.STALE and s.was is not None) for i, s in carry.states.items())
    small = len(parallel) <= KEEP_CHARS
    written = read_parallel_file(str(parallel)) if parallel and (acted or small) else None
    where = {b.index: b.en_line for b in written.blocks} if written else {}
    par = str(par_path)
    out = []
    for i, state in sorted(carry.states.items()):
        leaf = leaves[i]
        extra = {"segment": f"b{leaf.index}", "source": leaf.source.strip(), "note": display,
                 "note_line": leaf.first_line}
        if state.status is PairStatus.INVALID:
            how = "reviewed" if state.old is not None and state.old.status == "reviewed" \
                and not state.old.edited else "edited by hand"
            out.append(Finding(
                "edit-invalid", "error",
                f"block {leaf.index}: the English {how} fails the output check "
                f"({'; '.join(state.problems)}); it is kept in the parallel file, and {en_name} "
                "has machine English for the block until you fix it", par,
                where.get(leaf.index, 0), extra={**extra, "english": state.english,
                                                  "problems": list(state.problems)}))
        elif state.status is PairStatus.STALE and state.was is not None:
            whose = "reviewed" if state.was.status == "reviewed" else "edited"
            what = state.cause.changed() if state.cause is not None else "its source changed"
            out.append(Finding(
                "stale", "warning",
                f"block {leaf.index}: {what} after its "
                f"English was {whose} by hand; {en_name} has new machine English, and "
                "what you had is kept below it — copy what you keep into the English, or mark "
                "it status=reviewed", par, where.get(leaf.index, 0), extra=extra))
        if leaf.unrendered:
            out.append(Finding(
                "unrendered", "warning",
                f"block {leaf.index}: {unrendered_message(leaf.unrendered, leaf.english)}",
                par, where.get(leaf.index, 0),
                extra={**extra, "pieces": leaf.unrendered}))
    for i in carry.copy_edited:
        leaf = leaves[i]
        out.append(Finding(
            "source-edited", "warning",
            f"block {leaf.index}: its Chinese was changed by hand in the parallel file, but it "
            f"is a copy of {display}, which zhen reads the source from, so the change is "
            f"replaced — make it in {display} (line {leaf.first_line})", par,
            where.get(leaf.index, 0) or None,
            extra={"segment": f"b{leaf.index}", "note": display, "note_line": leaf.first_line}))
    orphan_lines = [o.line for o in written.orphans] if written else []
    for k, orphan in enumerate(carry.orphans):
        new = orphan in carry.new_orphans
        out.append(Finding(
            "edit-orphaned", "warning",
            f"the block your English was for ({display}:{orphan.lines.lstrip('L')} "
            f"{'before this change' if new else 'once'}) is no longer in the note; the English is "
            f"kept at the end of {par_path.name} — copy what you need into a block, then "
            "delete it there", par, orphan_lines[k] if k < len(orphan_lines) else 0,
            extra={"source": orphan.source, "english": orphan.english, "old_lines": orphan.lines}))
    return out
