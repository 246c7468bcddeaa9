"""Read collnoise result files (HDF5; layout in docs/hdf5-layout.md) into plain Python.

    import collnoise_reader as cr
    result = cr.load("run.h5")
    result.root["seed"], result.kind
    for p in result.points:
        p.params["collective.N"], p.summary["mean"], p.summary.get("ci_low")
        p.reasons.get("ci_low")           # why a value is null, when it is
        p.histograms["phase_time"].edges, .counts
        p.metrics["phase_time"]["mean"]   # folded accumulators of the tally
        p.wall_time_s                     # seconds the point took (timing, not a result)

Values that do not exist are None, with their reason in `reasons` (the file stores no NaN).
Histograms follow scikit-hep UHI's layout: `edges` has one more entry than `counts`, plus
`underflow` and `overflow`; `to_uhi()` returns the dictionary UHI's serialization expects.
Needs numpy and h5py (Debian: python3-numpy, python3-h5py).
"""

from __future__ import annotations

import dataclasses
import tomllib
from typing import Any

import h5py
import numpy as np

FILETYPE = "collnoise-result"
FORMAT_VERSION = 2


class FormatError(ValueError):
    """Not a collnoise result file, or one of a format version this reader does not know."""


def _plain(value: Any) -> Any:
    if isinstance(value, bytes):
        return value.decode("utf-8")
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.ndarray):
        return [_plain(v) for v in value.tolist()]
    return value


def _attributes(obj) -> tuple[dict[str, Any], dict[str, str]]:
    """Attributes as (values, reasons): a null value is stored as '<key>_reason' alone, and the
    absent entries of a list as '<key>_missing' indices."""
    raw = {k: _plain(v) for k, v in obj.attrs.items()}
    values: dict[str, Any] = {}
    reasons: dict[str, str] = {}
    for key, value in raw.items():
        if key.endswith("_reason") and key[: -len("_reason")] not in raw:
            values[key[: -len("_reason")]] = None
            reasons[key[: -len("_reason")]] = value
        elif key.endswith("_missing") and key[: -len("_missing")] in raw:
            continue
        elif isinstance(value, list) and f"{key}_missing" in raw:
            missing = {int(i) for i in raw[f"{key}_missing"]}
            values[key] = [None if i in missing else v for i, v in enumerate(value)]
        else:
            values[key] = value
    return values, reasons


@dataclasses.dataclass
class Histogram:
    name: str
    edges: np.ndarray
    counts: np.ndarray
    underflow: int
    overflow: int
    spacing: str
    unit: str
    metric: str | None

    def total(self) -> int:
        return int(self.counts.sum()) + self.underflow + self.overflow

    def to_uhi(self) -> dict[str, Any]:
        """The histogram as scikit-hep UHI's serialization dictionary (uhi.io)."""
        regular = self.spacing == "linear"
        axis = (
            {"type": "regular", "lower": float(self.edges[0]), "upper": float(self.edges[-1]),
             "bins": len(self.counts), "underflow": True, "overflow": True, "circular": False}
            if regular
            else {"type": "variable", "edges": self.edges.tolist(), "underflow": True,
                  "overflow": True, "circular": False}
        )
        values = np.concatenate([[self.underflow], self.counts, [self.overflow]])
        return {"uhi_schema": 1, "axes": [axis],
                "storage": {"type": "int", "values": values},
                "metadata": {"name": self.name, "unit": self.unit}}


@dataclasses.dataclass
class Point:
    kind: str
    params: dict[str, Any]
    summary: dict[str, Any]
    reasons: dict[str, str]
    metrics: dict[str, dict[str, Any]]
    histograms: dict[str, Histogram]
    top_values: dict[str, np.ndarray]
    chunks: dict[str, np.ndarray]
    raw: np.ndarray | None
    plot: dict[str, Any] = dataclasses.field(default_factory=dict)  # the model's plot hints
    wall_time_s: float | None = None  # seconds the point took (None in older files)

    def value(self, key: str, default: Any = None) -> Any:
        """A summary value, or a parameter, by name."""
        if key in self.summary:
            return self.summary[key]
        return self.params.get(key, default)


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
        return tomllib.loads(self.root.get("run_file_text", ""))


def _read_histograms(group) -> dict[str, Histogram]:
    out = {}
    for name in group:
        h = group[name]
        attrs, _ = _attributes(h)
        out[name] = Histogram(name, h["edges"][()], h["counts"][()], int(attrs["underflow"]),
                              int(attrs["overflow"]), attrs["spacing"], attrs.get("unit", ""),
                              attrs.get("metric"))
    return out


def _read_point(group) -> Point:
    kind = _plain(group.attrs.get("kind", ""))
    params, _ = _attributes(group["params"])
    summary, reasons = _attributes(group["summary"])
    metrics, histograms, tops, chunks, raw = {}, {}, {}, {}, None
    if "tally" in group:
        tally = group["tally"]
        for name in tally["totals"]:
            metrics[name], _ = _attributes(tally["totals"][name])
        histograms = _read_histograms(tally["histograms"])
        tops = {name: tally["top_values"][name][()] for name in tally["top_values"]}
        chunks = {name: tally["chunks"][name][()] for name in tally["chunks"]}
        if "raw" in tally:
            raw = tally["raw"][()]
    plot = _attributes(group["plot"])[0] if "plot" in group else {}
    wall = group.attrs.get("wall_time_s")
    return Point(kind, params, summary, reasons, metrics, histograms, tops, chunks, raw, plot,
                 None if wall is None else float(wall))


def load(path: str) -> Result:
    """Reads a result file; FormatError if it is not one this reader knows."""
    with h5py.File(path, "r") as f:
        root, _ = _attributes(f)
        if root.get("filetype") != FILETYPE:
            raise FormatError(f"{path}: not a collnoise result file (filetype attribute)")
        if root.get("format_version") != FORMAT_VERSION:
            raise FormatError(f"{path}: format_version {root.get('format_version')} is not "
                              f"{FORMAT_VERSION}, the version this reader knows")
        names = sorted(f["points"].keys())
        points = [_read_point(f["points"][n]) for n in names]
    return Result(path, root, points)
