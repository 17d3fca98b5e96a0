"""The parallel file ``x.zh-en.md`` and the outputs beside a note: one owner.

* :mod:`.outputs` — the outputs' names, ``x.en.md``'s header (with the hash that tells
  zhen's own unchanged file from one a person changed), what zhen owns;
* :mod:`.format` — the markers, read with care, written one way;
* :mod:`.status` — :class:`PairStatus` and :func:`decide`, the one place a block's status
  is decided;
* :mod:`.align` — old blocks to new ones, ``diff``-style;
* :mod:`.carry` — a person's English carried across a change of the note (and out of
  ``x.en.md``);
* :mod:`.prior` — what lies beside a note (the last parallel file, ``x.en.md``'s changes
  taken in), read with care: what ``zhen translate`` starts from, and ``zhen status``,
  ``zhen mark`` and the exports too;
* :mod:`.pairs` — the pairs read back for the checks, the review page and the exports.
"""

from .carry import (BlockState, Carry, EnglishEdits, apply_english_edits, carry_english,
                    carry_over, english_changes, english_edits, parallel_file, render_parallel)
from .format import (PARALLEL_VERSION, Orphan, ParallelBlock, ParallelFile, ParallelFileError,
                     Was, block_text, decode_pieces, encode_pieces, read_parallel,
                     read_parallel_file, render_parallel_file, set_status)
from .outputs import (GLOSS_BANNER, EnglishFile, Layout, comment_safe, english_body,
                      english_header, is_zhens_parallel, seal_english, split_english)
from .pairs import NotePairs, Pair, collect_pairs, edit_check, pairs_for, status_counts
from .prior import Prior, load_parallel, read_prior
from .status import COUNTED, ORDER, Decision, Now, PairStatus, context_hash, decide

__all__ = [
    "PARALLEL_VERSION", "COUNTED", "ORDER", "BlockState", "Carry", "Decision", "EnglishEdits", "EnglishFile",
    "Layout",
    "GLOSS_BANNER", "NotePairs", "Now", "Orphan", "Pair", "PairStatus", "ParallelBlock",
    "ParallelFile", "ParallelFileError", "Prior", "Was", "apply_english_edits", "block_text",
    "carry_english", "carry_over", "english_changes", "read_prior", "collect_pairs", "comment_safe", "context_hash", "decide", "decode_pieces",
    "edit_check", "encode_pieces", "english_body", "english_edits", "english_header",
    "is_zhens_parallel", "load_parallel", "pairs_for", "parallel_file", "read_parallel",
    "read_parallel_file", "render_parallel", "render_parallel_file", "seal_english", "set_status", "split_english",
    "status_counts",
]
