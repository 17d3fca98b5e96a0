"""Old blocks of a note to new ones, the way ``diff`` pairs lines.

1. Identical blocks in the same order are anchors (``difflib.SequenceMatcher`` on the
   blocks' hashes, no junk heuristic), so identical twins keep their order among twins.
2. An identical block that moved is paired with its copy, by order among the copies left.
3. Between two anchors, the blocks that changed are paired by similarity of their source
   (``rapidfuzz``'s normalised Indel ratio), keeping order, choosing the pairs whose total
   similarity is largest; a pair below :data:`MIN_SIMILARITY` is never made, nor one where
   either block has a partner elsewhere more similar by :data:`CLEARLY_BETTER` (a block
   that changed a little and moved is step 4's, not a middling pair's). Position alone
   never pairs two blocks.
4. A block that moved *and* changed is left over on both sides: the leftovers are paired
   by similarity across the whole note, most similar first.

Only old blocks in ``wanted`` (those holding a person's English) take part in step 3: the
others need no partner, since a changed block gets new machine English either way.
"""

from __future__ import annotations

import difflib
from typing import Sequence

MIN_SIMILARITY = 60.0        # rapidfuzz ratio, 0-100


def _similar_pairs(scores: dict, olds: list[int], news: list[int]) -> list[tuple[int, int]]:
    """The order-keeping pairs (old index, new index) of largest total similarity
    (``scores``: (old, new) → similarity, :func:`_best_scores`)."""
    if not olds or not news:
        return []
    candidates = [(a, b, scores[(i, j)]) for a, i in enumerate(olds) for b, j in enumerate(news)
                  if scores.get((i, j), 0.0) >= MIN_SIMILARITY]
    if not candidates:
        return []
    # heaviest chain strictly increasing in both indices (a Fenwick tree of prefix maxima)
    size = len(news)
    tree = [(0.0, -1)] * (size + 1)

    def best_before(b: int) -> tuple[float, int]:
        best, k = (0.0, -1), b
        while k > 0:
            best = max(best, tree[k])
            k -= k & -k
        return best

    def put(b: int, value: tuple[float, int]) -> None:
        k = b + 1
        while k <= size:
            tree[k] = max(tree[k], value)
            k += k & -k

    chain: list[tuple[float, int]] = []       # per candidate: (total, previous candidate)
    candidates.sort()
    start = 0
    while start < len(candidates):
        end = start
        while end < len(candidates) and candidates[end][0] == candidates[start][0]:
            end += 1
        group = []
        for c in range(start, end):
            _, b, score = candidates[c]
            total, prev = best_before(b)
            chain.append((total + score, prev))
            group.append((b, (total + score, c)))
        for b, value in group:              # same old block: never chained with itself
            put(b, value)
        start = end
    c = max(range(len(chain)), key=lambda k: chain[k][0])
    pairs = []
    while c >= 0:
        a, b, _ = candidates[c]
        pairs.append((olds[a], news[b]))
        c = chain[c][1]
    return pairs[::-1]


CLEARLY_BETTER = 5.0         # similarity points by which another partner is clearly better


def _best_scores(old: Sequence[str], new: Sequence[str], olds: list[int], news: list[int]
                 ) -> dict:
    """Similarities of the leftover blocks: every pair's, and each block's best (0 when none
    reaches :data:`MIN_SIMILARITY`)."""
    out: dict = {"pair": {}, "old": {i: 0.0 for i in olds}, "new": {j: 0.0 for j in news}}
    if not olds or not news:
        return out
    from rapidfuzz import fuzz, process

    scores = process.cdist([old[i] for i in olds], [new[j] for j in news], scorer=fuzz.ratio,
                           score_cutoff=MIN_SIMILARITY)
    for a, i in enumerate(olds):
        for b, j in enumerate(news):
            score = float(scores[a][b])
            out["pair"][(i, j)] = score
            out["old"][i] = max(out["old"][i], score)
            out["new"][j] = max(out["new"][j], score)
    return out


def align_blocks(old_hashes: Sequence[str], old_texts: Sequence[str],
                 new_hashes: Sequence[str], new_texts: Sequence[str],
                 wanted: set[int] | None = None) -> dict[int, int]:
    """new block index → the old block index it continues (see the module docstring)."""
    matcher = difflib.SequenceMatcher(None, list(old_hashes), list(new_hashes), autojunk=False)
    pairs: dict[int, int] = {}
    anchors: list[tuple[int, int]] = []
    for a, b, n in matcher.get_matching_blocks():
        for k in range(n):
            pairs[b + k] = a + k
            anchors.append((a + k, b + k))
    used = set(pairs.values())
    # moved blocks: identical hashes left on both sides, by order among the copies
    left: dict[str, list[int]] = {}
    for i, digest in enumerate(old_hashes):
        if i not in used:
            left.setdefault(digest, []).append(i)
    for j, digest in enumerate(new_hashes):
        if j not in pairs and left.get(digest):
            i = left[digest].pop(0)
            pairs[j] = i
            used.add(i)
    # changed blocks, between consecutive anchors; a pair only where neither block has a
    # clearly better partner elsewhere (else two middling pairs in order would beat one
    # block that changed a little and moved: that one is step 4's)
    best = _best_scores(old_texts, new_texts,
                        [i for i in range(len(old_hashes))
                         if i not in used and (wanted is None or i in wanted)],
                        [j for j in range(len(new_hashes)) if j not in pairs])
    bounds = [(-1, -1)] + anchors + [(len(old_hashes), len(new_hashes))]
    for (a0, b0), (a1, b1) in zip(bounds, bounds[1:]):
        olds = [i for i in range(a0 + 1, a1) if i not in used and (wanted is None or i in wanted)]
        news = [j for j in range(b0 + 1, b1) if j not in pairs]
        for i, j in _similar_pairs(best["pair"], olds, news):
            score = best["pair"][(i, j)]
            if score < best["old"][i] - CLEARLY_BETTER or score < best["new"][j] - CLEARLY_BETTER:
                continue
            pairs[j] = i
            used.add(i)
    # moved and changed: the leftovers, across the whole note, most similar first (the
    # leftovers of step 3's, so their similarities are known)
    olds = [i for i in range(len(old_hashes)) if i not in used and (wanted is None or i in wanted)]
    news = [j for j in range(len(new_hashes)) if j not in pairs]
    ranked = sorted(((best["pair"][(i, j)], -i, -j) for i in olds for j in news
                     if best["pair"].get((i, j), 0.0) >= MIN_SIMILARITY), reverse=True)
    for _, i, j in ranked:
        i, j = -i, -j
        if i not in used and j not in pairs:
            pairs[j] = i
            used.add(i)
    return pairs
