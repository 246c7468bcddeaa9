"""What every figure draws with: marking a line with the data it shows (`tag`, for tests), units
and labels, which parameters make panels and curves, and the axes of a figure. A figure's module
(collnoise.figures.<name>) imports these; so can a figure registered from outside the package.
"""

from __future__ import annotations

import dataclasses
import math
import textwrap
from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from .. import fields
from ..result import Result, load
# Writing the files: collnoise.figures.output; its names stay importable from here.
from .output import FigureNotWritten, extra_figure_main, format_of, save_figure  # noqa: F401

__all__ = ["FigureList", "Data", "tag", "tagged_lines", "display_unit", "format_value", "short",
           "with_unit", "wrap", "varying", "label_of", "sorted_values", "group_rows",
           "group_rows_by", "unique_labels", "axis_label", "new_figure", "title_of",
           "set_x_scale", "auto_log_y", "legend", "band", "column", "suffix_of"]

FigureList = list[tuple[str, Figure]]

# --- what a line shows (for tests) -----------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Data:
    """Where a line's coordinates come from: a column of the points table at the line's rows
    ("column"), a list of one point's summary ("series"), or the rows' positions ("position").
    The drawn value is (value / per + offset_per_x * x) * scale, with `per` a column and x the
    other coordinate's raw value."""

    key: str
    source: str = "column"
    scale: float = 1.0
    per: str | None = None
    offset_per_x: float = 0.0


def tag(line: Line2D, rows: Sequence[int], x: Data, y: Data) -> Line2D:
    """Marks a line as showing `y` against `x` for these rows of the points table."""
    line.collnoise = {"rows": [int(r) for r in rows], "x": x, "y": y}
    return line


def tagged_lines(fig: Figure) -> list[Line2D]:
    return [line for ax in fig.axes for line in ax.get_lines() if hasattr(line, "collnoise")]


# --- units and labels -------------------------------------------------------------------------------

_TIME = [(1.0, "s"), (1e-3, "ms"), (1e-6, "us"), (1e-9, "ns")]
_BYTES = [(2.0**30, "GiB"), (2.0**20, "MiB"), (2.0**10, "KiB"), (1.0, "B")]


def display_unit(unit: str, values) -> tuple[float, str]:
    """A factor to multiply values by and the unit they are then in: seconds become s, ms, us or
    ns by the largest magnitude; ratios ("1") and counts have no unit."""
    finite = np.abs(np.asarray(values, dtype=float))
    finite = finite[np.isfinite(finite) & (finite > 0)]
    top = float(finite.max()) if finite.size else 1.0
    if unit == "seconds":
        for size, name in _TIME:
            if top >= size or name == "ns":
                return 1.0 / size, name
    if unit == "1":
        return 1.0, ""
    return 1.0, unit


def format_value(value, unit: str = "") -> str:
    """A parameter's value for a label: seconds and bytes with a readable unit."""
    if isinstance(value, (float, np.floating)) and math.isnan(value):
        return "-"
    if unit == "seconds" and isinstance(value, (int, float, np.number)) and value != 0:
        for size, name in _TIME:
            if abs(value) >= size * 0.999 or name == "ns":
                return f"{value / size:.3g} {name}"
    if unit == "bytes" and isinstance(value, (int, float, np.number)):
        for size, name in _BYTES:
            if abs(value) >= size and float(value / size).is_integer():
                return f"{value / size:g} {name}"
    if isinstance(value, (float, np.floating)):
        return f"{value:.3g}"
    return str(value)


def short(key: str) -> str:
    return key.split(".", 1)[-1]


def with_unit(label: str, unit: str) -> str:
    """'phase time [s]' with its unit replaced by the one drawn."""
    base = label.split(" [")[0] if label.endswith("]") else label
    return f"{base} [{unit}]" if unit else base


def wrap(text: str, width_inches: float, fontsize: float) -> str:
    """Text wrapped to fit a width (an average character is about half the font size wide)."""
    chars = max(20, int(width_inches * 72 / (fontsize * 0.55)))
    return "\n".join(textwrap.fill(line, chars) for line in text.split("\n"))


# --- which parameters make panels and curves ----------------------------------------------------


def _param_columns(result: Result) -> list[str]:
    return [c for c in result.points.columns
            if result.sources.get(c) == "params" and not c.endswith("_string")]


def _determined(frame: pd.DataFrame, by: list[str], key: str) -> bool:
    if not by:
        return frame[key].nunique(dropna=False) <= 1
    return bool((frame.groupby(by, dropna=False)[key].nunique(dropna=False) <= 1).all())


def varying(result: Result, rows: Sequence[int], given: Sequence[str] = ()) -> list[str]:
    """The parameters that tell the rows apart beyond `given` (the axis, the panels): each one
    varies and is not implied by `given` and the ones already chosen (collective.levels moves with
    collective.N, a law's defaults with the law)."""
    frame = result.points.loc[list(rows)]
    given = [g for g in given if g and g in frame.columns]
    chosen: list[str] = []
    for key in _param_columns(result):
        if key in given:
            continue
        if not _determined(frame, given + chosen, key):
            chosen.append(key)
    return chosen


def label_of(result: Result, row: int, keys: Sequence[str]) -> str:
    """"pareto, a = 2, f = 0.005": text values first (a law, an algorithm), then numbers."""
    parts = []
    keys = sorted(keys, key=lambda k: not isinstance(result.points.at[row, k], str))
    for key in keys:
        value = result.points.at[row, key]
        if isinstance(value, float) and math.isnan(value):
            continue
        text = format_value(value, result.units.get(key, ""))
        parts.append(text if isinstance(value, str) else f"{short(key)} = {text}")
    return ", ".join(parts)


def sorted_values(values) -> list:
    """The distinct values, sorted when they compare (else in the order given)."""
    values = list(dict.fromkeys(values))
    try:
        return sorted(values)
    except TypeError:
        return values


def group_rows(result: Result, rows: Sequence[int], key: str | None) -> list[tuple[object, list]]:
    """Rows grouped by a column's value, in the order of the values (one group if no key)."""
    if not key or key not in result.points.columns:
        return [(None, list(rows))]
    column = result.points.loc[list(rows), key]
    return [(v, [r for r in rows if column.at[r] == v or (v != v and column.at[r] != column.at[r])])
            for v in sorted_values(column)]


def unique_labels(labels: list[str], result: Result, rows: list[int]) -> list[str]:
    """Labels made unique by the parameters that tell apart the rows sharing one."""
    out = list(labels)
    for label in set(labels):
        same = [i for i, lab in enumerate(labels) if lab == label]
        if len(same) < 2:
            continue
        keys = varying(result, [rows[i] for i in same])
        for i in same:
            extra = label_of(result, rows[i], keys)
            out[i] = f"{label}, {extra}" if extra and label else (extra or f"{label} #{i}")
    return out


def group_rows_by(result: Result, rows: Sequence[int], keys: Sequence[str]):
    """(label, rows) per combination of `keys`' values, in the order of the values."""
    groups: dict[str, list[int]] = {}
    order = sorted(rows, key=lambda r: tuple(_sort_key(result.points.at[r, k]) for k in keys))
    for row in order:
        groups.setdefault(label_of(result, row, keys), []).append(row)
    return list(groups.items())


def _sort_key(value):
    if isinstance(value, str):
        return (1, 0.0, value)
    return (0, float(value) if value == value else math.inf, "")


# --- axes and figures ---------------------------------------------------------------------------


def axis_label(result: Result, key: str) -> str:
    """A parameter's name on an axis, with its unit."""
    # Fields without a unit go by their name ("endpoints") unless named here.
    names = {"collective.N": "N (ranks)", "network.rho":
             "rho (fraction of endpoints with background traffic)", fields.m: "m (nodes)"}
    unit = result.units.get(key, "")
    return names.get(key, short(key) + (f" [{unit}]" if unit and unit != "1" else ""))


def new_figure(panels: int, title: str, panel_size=(5.4, 4.2), max_columns: int = 3):
    """A figure of `panels` axes in a grid, its title wrapped to the figure's width, laid out by
    matplotlib's constrained layout (titles, labels and legends kept inside the figure)."""
    columns = max(1, min(panels, max_columns))
    rows = math.ceil(panels / columns)
    width, height = panel_size[0] * columns, panel_size[1] * rows
    fig = Figure(figsize=(width, height), layout="constrained")
    grid = fig.subplots(rows, columns, squeeze=False)
    axes = [ax for row in grid for ax in row]
    for ax in axes[panels:]:
        ax.set_axis_off()
    fig.suptitle(wrap(title, width - 0.3, 12), fontsize=12)
    return fig, axes[:panels]


def title_of(result: Result, what: str = "") -> str:
    """The run file's [plot] title, else the run's name and what the figure shows."""
    return result.settings.get("title") or (f"{result.name}: {what}" if what else result.name)


def set_x_scale(ax, scale: str, values) -> None:
    """The model's scale for x; a log axis of powers of two is in base 2."""
    if scale != "log":
        ax.set_xscale(scale or "linear")
        return
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    powers_of_two = v.size and (v > 0).all() and np.all(np.log2(v) == np.round(np.log2(v)))
    ax.set_xscale("log", base=2 if powers_of_two and v.max() / v.min() <= 2.0**24 else 10)


def auto_log_y(ax, values, factor: float = 50.0) -> None:
    """Logarithmic y when the positive values drawn span more than `factor` (the papers draw
    quantities growing as powers of N, or over decades of W, on logarithmic axes)."""
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v) & (v > 0)]
    if v.size and v.max() / v.min() > factor:
        ax.set_yscale("log")


def legend(ax, fontsize: float = 7, **kwargs) -> None:
    """A legend with each label once (the first artist drawn with it)."""
    handles, labels = ax.get_legend_handles_labels()
    seen: dict[str, object] = {}
    for handle, label in zip(handles, labels):
        if label and not label.startswith("_"):
            seen.setdefault(label, handle)
    if seen:
        ax.legend(list(seen.values()), list(seen), fontsize=fontsize, **kwargs)


def band(ax, x, low, high, color) -> None:
    low, high, x = (np.asarray(a, dtype=float) for a in (low, high, x))
    ok = np.isfinite(low) & np.isfinite(high) & np.isfinite(x)
    if ok.any():
        ax.fill_between(x[ok], low[ok], high[ok], color=color, alpha=0.25, linewidth=0)


def column(result: Result, rows: Sequence[int], key: str) -> np.ndarray:
    """A column at these rows as floats (NaN where absent or null)."""
    if not key or key not in result.points.columns:
        return np.full(len(rows), np.nan)
    return pd.to_numeric(result.points.loc[list(rows), key], errors="coerce").to_numpy(float)


def suffix_of(label: str) -> str:
    base = label.split(" [")[0].strip().lower()
    return "-".join("".join(c if c.isalnum() else " " for c in base).split()) or "figure"


def draw_extra_figure(result, out_path: str, dpi: int, make, missing: str) -> str:
    """Draws the figure `make(result)` (None when the result has nothing for it: ValueError
    `missing`) to `out_path` (PNG, PDF or SVG by its extension), written to a temporary name
    beside it and renamed (collnoise.figures.output); returns `out_path`. The figures drawn
    beside a model's own (attribution, bounds) share it."""
    fmt = format_of(out_path)
    if not isinstance(result, Result):
        result = load(result)
    fig = make(result)
    if fig is None:
        raise ValueError(f"{result.path}: {missing}")
    save_figure(fig, out_path, fmt, dpi)
    return out_path
