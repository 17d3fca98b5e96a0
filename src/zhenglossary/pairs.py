"""Moved to parallel.py, which owns the parallel file; these names stay importable for
branches written against the old module (remove once none imports it)."""

from .parallel import NotePairs, Pair, pairs_for  # noqa: F401
