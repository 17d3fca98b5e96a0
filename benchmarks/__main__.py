"""``python -m benchmarks [--quick] [--json PATH]``: run zhen's benchmark suite."""

import sys

from .suite import main

sys.exit(main())
