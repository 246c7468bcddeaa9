"""What the deprecated scripts beside this file share: finding the collnoise package, and the
note that they are deprecated. They stay until the next result format version (3), then go with
this folder (docs/python.md, "Replacing collnoise_reader and plot_result.py")."""

from __future__ import annotations

import glob
import os
import sys


def deprecated(name: str, use: str) -> None:
    """One line on stderr: what is deprecated and what replaces it."""
    print(f"{name} is deprecated: use {use} (docs/python.md)", file=sys.stderr)


def import_package():
    """The collnoise package: from sys.path, else from the source tree (python/legacy/..) or an
    install prefix (share/collnoise/../../lib/python3*/...-packages)."""
    try:
        import collnoise
        return collnoise
    except ImportError:
        pass
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [os.path.join(here, "..")]
    prefix = os.path.join(here, "..", "..")
    for pattern in ("lib/python3/dist-packages", "lib/python3*/dist-packages",
                    "lib/python3*/site-packages"):
        candidates += sorted(glob.glob(os.path.join(prefix, pattern)))
    for path in candidates:
        if os.path.isfile(os.path.join(path, "collnoise", "__init__.py")):
            sys.path.insert(0, os.path.abspath(path))
            import collnoise
            return collnoise
    raise ImportError("collnoise_reader and plot_result.py need the collnoise Python package "
                      "(python/collnoise in the source tree, or lib/python3.X/site-packages of "
                      "the install prefix): add its folder to PYTHONPATH")
