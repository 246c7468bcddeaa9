"""The first Python reader of collnoise result files, deprecated: a thin layer over the collnoise
package (python/collnoise; docs/python.md says what replaces each name), kept for the scripts that
use it until the next result format version. Importing it prints a one-line note on stderr.

    import collnoise_reader as cr
    result = cr.load("run.h5")
    result.root["seed"], result.kind
    for p in result.points:
        p.params["collective.N"], p.summary["mean"], p.summary.get("ci_low")
        p.reasons.get("ci_low")           # why a value is null, when it is
        p.histograms["phase_time"].edges, .counts
        p.metrics["phase_time"]["mean"]   # folded accumulators of the tally
    cr.load("changed-by-h5py.h5", verify=False)   # a damaged file raises cr.DamagedFileError

Here `result.points` is a list of Point records, and `Histogram.to_uhi()` returns UHI's
serialization dictionary; in the package, `collnoise.load(path).points` is a pandas DataFrame,
`result.point(i)` the record, and `to_uhi()` a PlottableHistogram (`to_uhi_dict()` the
dictionary). Needs numpy, h5py and pandas (Debian: python3-numpy, python3-h5py, python3-pandas).
"""

from __future__ import annotations

import dataclasses
import os
import sys
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _collnoise_legacy  # noqa: E402

_collnoise_legacy.deprecated("collnoise_reader", "the collnoise package")

_collnoise = _collnoise_legacy.import_package()
from collnoise.result import FORMAT_VERSION, FILETYPE, FormatError, Point  # noqa: E402,F401
from collnoise.errors import DamagedFileError, UnsealedFileWarning  # noqa: E402,F401
from collnoise.histogram import Histogram as _Histogram  # noqa: E402


class Histogram(_Histogram):
    """As collnoise.Histogram, with to_uhi() returning UHI's serialization dictionary."""

    def to_uhi(self) -> dict[str, Any]:
        return self.to_uhi_dict()


@dataclasses.dataclass
class Result:
    path: str
    root: dict[str, Any]
    points: list[Point]

    @property
    def kind(self) -> str:
        return self.root.get("kind", "")

    def run_file(self) -> dict[str, Any]:
        """The run file, parsed from the text stored in the result."""
        import tomllib
        return tomllib.loads(self.root.get("run_file_text", ""))


def _legacy_point(point: Point) -> Point:
    histograms = {name: Histogram(*(getattr(h, f.name) for f in dataclasses.fields(h)))
                  for name, h in point.histograms.items()}
    return dataclasses.replace(point, histograms=histograms)


def load(path: str, verify: bool = True) -> Result:
    """Reads a result file, its checksum checked first as collnoise.load checks it:
    DamagedFileError naming a damaged file (verify=False reads it anyway); FormatError if it is
    not one this reader knows."""
    result = _collnoise.load(path, verify)
    return Result(path, result.attrs, [_legacy_point(p) for p in result.all_points()])
