#!/usr/bin/python3
"""Figures from a collnoise result file: the former plotting script, now the collnoise package's
(python/collnoise/plot.py; docs/python.md). Kept so that existing commands keep working:

    outputs/plot_result.py RESULT.h5 [--out DIR|FILE] [--format png|pdf|svg]

is `collnoise plot RESULT.h5 ...`, or `python3 -m collnoise.plot RESULT.h5 ...`.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import collnoise_reader  # noqa: E402,F401  (finds the collnoise package)
from collnoise.plot import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
