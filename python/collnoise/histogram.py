"""A tally's histogram, and its view under scikit-hep UHI's PlottableHistogram protocol.

The `uhi` package is not in Debian, so the protocol is implemented here by duck typing: any
plotter that accepts a PlottableHistogram (mplhep.histplot, hist, ...) accepts `to_uhi()`'s
object, and `isinstance(h.to_uhi(), uhi.typing.plottable.PlottableHistogram)` holds where uhi is
installed. The protocol is small: `kind`, `values()`, `variances()`, `counts()` and `axes`, each
axis a sequence of (lower, upper) bin edges with `traits.circular` and `traits.discrete`.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, Iterator

import numpy as np


class Kind(str, enum.Enum):
    """UHI's histogram kinds (the protocol's recommended construct)."""

    COUNT = "COUNT"
    MEAN = "MEAN"


@dataclasses.dataclass(frozen=True)
class AxisTraits:
    circular: bool = False
    discrete: bool = False


class Axis:
    """A continuous axis: bin i is the interval [edges[i], edges[i+1])."""

    def __init__(self, edges: np.ndarray, label: str = "", name: str = ""):
        self.edges = np.asarray(edges, dtype=float)
        self.label = label
        self.name = name
        self.traits = AxisTraits()

    def __len__(self) -> int:
        return len(self.edges) - 1

    def __getitem__(self, index: int) -> tuple[float, float]:
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(f"bin {index} of an axis of {len(self)} bins")
        return float(self.edges[index]), float(self.edges[index + 1])

    def __iter__(self) -> Iterator[tuple[float, float]]:
        return (self[i] for i in range(len(self)))

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Axis) and np.array_equal(self.edges, other.edges)

    __hash__ = None  # mutable-looking sequence: equality by value, no hash

    def __repr__(self) -> str:
        return f"Axis({len(self)} bins, [{self.edges[0]:g}, {self.edges[-1]:g}), {self.label!r})"


class PlottableHistogram:
    """An unweighted count histogram under UHI's PlottableHistogram protocol (version 1).

    `values()`, `variances()` and `counts()` are the in-range bins; `flow=True` adds the underflow
    and overflow bins at the ends, as UHI producers do.
    """

    kind = Kind.COUNT

    def __init__(self, edges: np.ndarray, counts: np.ndarray, underflow: int, overflow: int,
                 label: str = "", name: str = ""):
        self.axes = (Axis(edges, label, name),)
        self._counts = np.asarray(counts, dtype=float)
        self._flow = (float(underflow), float(overflow))
        self.name = name

    def _with_flow(self, flow: bool) -> np.ndarray:
        if not flow:
            return self._counts.copy()
        return np.concatenate([[self._flow[0]], self._counts, [self._flow[1]]])

    def values(self, flow: bool = False) -> np.ndarray:
        return self._with_flow(flow)

    def variances(self, flow: bool = False) -> np.ndarray:
        # Unweighted counts: Poisson variances equal the counts (the protocol's rule).
        return self._with_flow(flow)

    def counts(self, flow: bool = False) -> np.ndarray:
        return self._with_flow(flow)

    def __repr__(self) -> str:
        return f"PlottableHistogram({self.name!r}, {self.axes[0]!r})"


@dataclasses.dataclass
class Histogram:
    """One histogram of a point's tally: `edges` has one more entry than `counts`; values below
    the first edge or at or above the last are counted in `underflow` and `overflow`. `unit` is
    the unit of the edges ("seconds", "1"); `spacing` is "linear" or "log"; `metric` names the
    metric it counts (None for one the model fills itself)."""

    name: str
    edges: np.ndarray
    counts: np.ndarray
    underflow: int
    overflow: int
    spacing: str
    unit: str
    metric: str | None

    @property
    def units(self) -> str:
        """The unit of the edges (the same as `unit`)."""
        return self.unit

    def total(self) -> int:
        """Every value counted, the flow bins included."""
        return int(self.counts.sum()) + self.underflow + self.overflow

    def to_uhi(self) -> PlottableHistogram:
        """The histogram as an object following UHI's PlottableHistogram protocol."""
        label = f"{self.metric or self.name} [{self.unit}]" if self.unit else (self.metric or
                                                                               self.name)
        return PlottableHistogram(self.edges, self.counts, self.underflow, self.overflow, label,
                                  self.name)

    def to_uhi_dict(self) -> dict[str, Any]:
        """The histogram as UHI's serialization dictionary (uhi.io: a `regular` axis for linear
        bins, `variable` for log bins, integer storage with the flow bins at the ends)."""
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
