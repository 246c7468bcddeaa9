#!/usr/bin/python3
"""Figures from a collnoise result file: the former plotting script, deprecated, now the collnoise
package's (python/collnoise/plot.py; docs/python.md). Kept until the next result format version
so that existing commands keep working; it prints a one-line note on stderr:

    plot_result.py RESULT.h5 [--out DIR|FILE] [--format png|pdf|svg]

is `collnoise plot RESULT.h5 ...`, or `python3 -m collnoise.plot RESULT.h5 ...`.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _collnoise_legacy  # noqa: E402

if __name__ == "__main__":
    _collnoise_legacy.deprecated("plot_result.py", "collnoise plot")
    _collnoise_legacy.import_package()
    from collnoise.plot import main

    sys.exit(main())
