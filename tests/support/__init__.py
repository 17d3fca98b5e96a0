"""Code that tests and benchmarks share but that is not part of zhen (not in the wheel).

``tests/`` is on ``sys.path`` under pytest (rootdir conftest) and for the benchmark
workers (``benchmarks.harness.worker_env``), so this package imports as ``support``.
"""
