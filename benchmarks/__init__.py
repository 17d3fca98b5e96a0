"""zhen's performance benchmarks (not tests): ``python -m benchmarks [--quick] [--json PATH]``.

Run from the repository root. Every measurement runs in a fresh subprocess
(``benchmarks.worker``) so that its peak RSS can be read with ``os.wait4`` and no
measurement inherits another's caches; the parent (``benchmarks.suite``) only builds
fixtures in a temporary directory, schedules the workers (interleaving the two sides of
every comparison), takes medians and prints one table.

Modules:

* ``suite``    — what is measured, the goals, the table and the JSON report;
* ``worker``   — the code each measurement subprocess runs (one task per process);
* ``harness``  — subprocess running with peak RSS, medians, machine description;
* ``fixtures`` — the fake argos model, project copies (notes ×N), the 5,000-term
  glossary, and the notes' segments grouped by paragraph;
* ``gloss_speed`` — a separate script for the gloss engine (not part of the suite).

The argos model is ``tests/support/fakemodel.py``'s ``base`` size: shaped like a real argos
transformer-base model, with random weights, so only its speed means anything. It never
emits ``</s>``, so every comparison fixes ``max_decoding_length`` identically on both
sides.
"""
