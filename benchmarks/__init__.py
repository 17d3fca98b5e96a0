"""zhen's performance benchmarks (not tests): ``python -m benchmarks [--quick] [--json PATH]``.

Run from the repository root. Every measurement runs in a fresh subprocess
(``benchmarks.worker``) so that its peak RSS can be read with ``os.wait4`` and no
measurement inherits another's caches; the parent (``benchmarks.suite``) only builds
fixtures in a temporary directory, schedules the workers (interleaving the two sides of
every comparison), takes medians and prints one table.

Modules:

* ``suite``    — what is measured against which goal, the table and the JSON report;
* ``worker``   — the code each measurement subprocess runs (one task per process);
* ``harness``  — subprocess running with peak RSS, medians, machine description;
* ``fixtures`` — distinct notes (the notes' clauses recombined with a seeded shuffle),
  project copies, the large glossary mined from the notes, the notes' segments grouped
  by paragraph;
* ``gloss_speed`` — a separate script for the gloss engine (not part of the suite).

What runs where: the fake argos model comes from ``tests/support/fakemodel.py`` (test
support, not in zhen's wheel): ``base`` size for the full run, shaped like a real argos
transformer-base model with random weights, so only its speed means anything; ``tiny``
for ``--quick``. Its zip is installed with ``argostranslate.package.install_from_path``
into a temporary ``ARGOS_PACKAGES_DIR``, twice: as built (its noise breaks every
placeholder) and in the placeholder-keeping mode. The argos baseline is
``argostranslate.translate.translate()`` itself, with two stated changes: MiniSBD is
replaced by a local splitter that returns zhen's segments, and ``translate_batch`` gets
the same ``max_decoding_length`` rule as zhen (its length bound under a fixed cap: random
weights never emit ``</s>``). Start-up,
growth and glossary size are timed as whole ``zhen`` processes.
"""
