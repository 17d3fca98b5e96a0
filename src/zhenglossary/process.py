"""Settings of zhen's own processes — the command line and its ``--jobs`` workers — that
zhen used as a library leaves as its caller has them.

CPython's cyclic garbage collector runs a young collection every 700 net allocations by
default, and a full one, over every object alive, once the young ones have run a hundred
times and the heap has grown by a quarter. A run of zhen allocates millions of small objects
that stay alive (tokens, inline nodes, segments, findings) and makes almost no cycles to
free: at ×100 (200 notes) the collector took 3.8 s of `glossary check`'s 46 s of CPU and
5–7.7 s of `translate --engine gloss`'s 51–60 s, against 0.4 and 1 s with a young
collection every 50,000 allocations (measured with ``gc.callbacks`` in one sitting; peak
RSS the same). Cycles are still collected, later.

It also says how many cores this process may use (:func:`usable_cores`): the default of
``--jobs`` and of the argos engine's CTranslate2 workers.
"""

from __future__ import annotations

GC_YOUNG_THRESHOLD = 50_000


def tune_gc() -> None:
    """The collector's young threshold for one of zhen's own processes."""
    import gc

    _, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, old)


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one)."""
    import os

    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1
