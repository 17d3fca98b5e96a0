"""Moved to parallel.py, which owns the parallel file; these names stay importable for
code written against the old module (remove once nothing imports it)."""

from .parallel import NotePairs, Pair, collect_pairs, pairs_for  # noqa: F401
