"""The figures of a result, one function per kind of figure.

Each model names the figure its points need in its plot hints (`/points/NNNN/plot`: `figure`,
`x`, `y`, `y_low`, `y_high`, `y_label`, `references`; engine/study.hpp). A function registered
here with `@figure("name")` draws that figure; a new model either names an existing figure
("curve" suits most collectives: y against x with its interval band and reference curves) or
registers its own function here, with no switch to edit elsewhere.

A figure function takes the result and the rows (points) it draws, and returns a list of
`(suffix, matplotlib Figure)`. It draws with the points table's values (`result.points`) and the
point groups' lists (`result.series`), and marks every data line with `tag()` so that tests can
compare what is drawn with what the file holds (tests/test_figures.py).

The run file's [plot] table refines the figure: `title`, `panels` (the parameter that splits a
figure into panels), `x` (the parameter on the horizontal axis) and `series` (the parameters
that make the curves; by default every parameter that varies and is not implied by the others).
"""

from __future__ import annotations

import dataclasses
import math
import textwrap
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from .result import Result

FigureList = list[tuple[str, Figure]]
_REGISTRY: dict[str, Callable[[Result, list[int]], FigureList]] = {}

# Models that wrote results before plot hints existed name their kind instead.
_FIGURE_OF_KIND = {"tree_barrier": "curve", "butterfly": "cycles", "dissemination": "cycles",
                   "nhalf": "nhalf", "isoefficiency": "isoefficiency", "schedule": "curve"}


class NoFigure(ValueError):
    """No figure is registered for the points of a result."""


def figure(name: str):
    """Registers a function as the figure named `name` in the models' plot hints."""

    def register(function):
        _REGISTRY[name] = function
        return function

    return register


def registered() -> list[str]:
    return sorted(_REGISTRY)


def figure_name(result: Result, row: int) -> str:
    hints = result.plot_hints(row)
    kind = result.points.at[row, "kind"] if "kind" in result.points else result.kind
    return hints.get("figure") or _FIGURE_OF_KIND.get(kind, kind)


def draw(result: Result) -> FigureList:
    """Every figure of a result, as (suffix, Figure): the files are named <name>-<suffix>."""
    by_figure: dict[str, list[int]] = {}
    for row in range(len(result)):
        by_figure.setdefault(figure_name(result, row), []).append(row)
    out: FigureList = []
    for name, rows in by_figure.items():
        if name not in _REGISTRY:
            raise NoFigure(f"{result.path}: no figure '{name}' for points of kind "
                           f"'{result.points.at[rows[0], 'kind']}' (known: "
                           f"{', '.join(registered())})")
        drawn = _REGISTRY[name](result, rows)
        if len(by_figure) > 1:  # a run mixing figures: keep the files apart
            drawn = [(f"{name}-{suffix}" if not suffix.startswith(name) else suffix, fig)
                     for suffix, fig in drawn]
        out.extend(drawn)
    return out


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


def _sorted_values(values) -> list:
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
            for v in _sorted_values(column)]


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


# --- axes and figures ---------------------------------------------------------------------------


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


# --- "curve": y against x, with its interval and the model's reference curves ------------------

_REFERENCE_NAMES = {
    "exact_mean": "exact mean",
    "theorem1_lower": "Theorem 1 lower bound",
    "theorem1_upper": "Theorem 1 upper bound",
    "bound_lower": "lower bound (any N)",
    "bound_upper": "upper bound (any N)",
    "noiseless_time": "noiseless",
    "noiseless_completion": "noiseless",
    "noiseless_closed_form": "noiseless",
}
_REFERENCE_STYLES = ["-", ":", "--", (0, (1, 3)), (0, (6, 3)), "-.", (0, (3, 1, 1, 1, 1, 1))]


@figure("curve")
def curve(result: Result, rows: list[int]) -> FigureList:
    """y against x (log x by default) with its interval band and the model's references: the tree
    barrier (mean phase time, exact mean, Theorem 1 or general bounds), the time-based tree
    barrier (time of all phases, noiseless time), schedules (completion time, noiseless)."""
    # Points of different models in one run (cases) may show different quantities: one figure
    # for each.
    by_y: dict[tuple, list[int]] = {}
    for row in rows:
        hints = result.plot_hints(row)
        by_y.setdefault((hints.get("y", "mean"), hints.get("y_label", "")), []).append(row)
    out = []
    for y_rows in by_y.values():
        hints = result.plot_hints(y_rows[0])
        fig = _draw_curve(result, y_rows, hints)
        out.append((suffix_of(hints.get("y_label") or hints.get("y", "y")), fig))
    return out


def _draw_curve(result: Result, rows: list[int], hints: dict) -> Figure:
    settings = result.settings
    x = settings.get("x") or hints.get("x", "collective.N")
    y, y_low, y_high = hints.get("y", "mean"), hints.get("y_low", ""), hints.get("y_high", "")
    references = [r for r in hints.get("references", []) if r in result.points.columns]
    panels_key = settings.get("panels")
    panels = group_rows(result, rows, panels_key)
    series_keys = settings.get("series") or varying(result, rows, [x, panels_key])
    if isinstance(series_keys, str):
        series_keys = [series_keys]
    fields = [y, y_low, y_high, *references]
    what = f"{with_unit(hints.get('y_label') or y, '')} against {axis_label(result, x)}"
    fig, axes = new_figure(len(panels), title_of(result, what))
    for ax, (panel_value, panel_rows) in zip(axes, panels):
        # Each panel in the unit that suits its values (8-byte and 16 MiB messages differ).
        factor, unit = display_unit(result.units.get(y, ""),
                                    np.concatenate([column(result, panel_rows, f)
                                                    for f in fields]))
        drawn, drawn_references = [], set()
        series = group_rows_by(result, panel_rows, series_keys)
        for k, (label, srows) in enumerate(series):
            srows = sorted(srows, key=lambda r: result.points.at[r, x])
            color = f"C{k % 10}"
            xs = column(result, srows, x)
            ys = column(result, srows, y) * factor
            drawn.append(ys)
            tag(ax.plot(xs, ys, "o", ms=3.5, color=color, label=label or "_estimate")[0], srows,
                Data(x), Data(y, scale=factor))
            band(ax, xs, column(result, srows, y_low) * factor,
                 column(result, srows, y_high) * factor, color)
            if len(srows) == 1:  # no band to draw: an error bar
                ax.errorbar(xs, ys, yerr=[ys - column(result, srows, y_low) * factor,
                                          column(result, srows, y_high) * factor - ys],
                            fmt="none", ecolor=color, capsize=3)
            shown: list[np.ndarray] = []
            for style, ref in zip(_REFERENCE_STYLES, references):
                values = column(result, srows, ref) * factor
                # A reference equal to one drawn already (the general bounds are Theorem 1's
                # on full trees) is left out.
                if np.isfinite(values).any() and not any(
                        np.allclose(values, v, rtol=1e-9, equal_nan=True) for v in shown):
                    shown.append(values)
                    drawn.append(values)
                    drawn_references.add(ref)
                    # A single point's reference is a short horizontal tick.
                    marker = "_" if len(srows) == 1 else None
                    tag(ax.plot(xs, values, linestyle=style, lw=1, color=color, marker=marker,
                                ms=14)[0], srows, Data(x), Data(ref, scale=factor))
        # Line styles say what a line is; colours which curve.
        ax.plot([], [], "o", ms=3.5, color="0.4",
                label=f"estimate (band: {confidence_text(result, rows)} interval)")
        for style, ref in zip(_REFERENCE_STYLES, references):
            if ref in drawn_references:
                ax.plot([], [], linestyle=style, lw=1, color="0.4",
                        label=_REFERENCE_NAMES.get(ref, ref.replace("_", " ")))
        set_x_scale(ax, hints.get("x_scale", "log"), column(result, panel_rows, x))
        auto_log_y(ax, np.concatenate(drawn) if drawn else [])
        ax.set_xlabel(axis_label(result, x))
        ax.set_ylabel(with_unit(hints.get("y_label") or y, unit))
        if panels_key and panel_value is not None:
            ax.set_title(f"{short(panels_key)} = "
                         f"{format_value(panel_value, result.units.get(panels_key, ''))}")
        ax.grid(True, which="both", alpha=0.3)
        legend(ax)
    return fig


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


def confidence_text(result: Result, rows) -> str:
    c = column(result, rows, "confidence")
    c = c[np.isfinite(c)]
    if not c.size:
        c = np.array([result.attrs.get("confidence", 0.95)])
    return f"{c[0] * 100:g}%"


def axis_label(result: Result, key: str) -> str:
    names = {"collective.N": "N (ranks)", "endpoints": "endpoints", "network.rho":
             "rho (fraction of endpoints with background traffic)", "m": "m (nodes)"}
    unit = result.units.get(key, "")
    return names.get(key, short(key) + (f" [{unit}]" if unit and unit != "1" else ""))


# --- "cycles": Chen & Suda's Figures 8 and 9 ---------------------------------------------------------

_CASES = [("quiet", "C2"), ("conventional", "C3"), ("redundant", "C0")]


@figure("cycles")
def cycles(result: Result, rows: list[int]) -> FigureList:
    """Fig. 8 (T_M against N for the quiet, conventional and redundant cases, with the noiseless
    closed form) when N varies, and Fig. 9 (the overhead T_c - c x noiseless cycle against c, at
    the largest N of each panel)."""
    out = []
    if len(set(column(result, rows, "collective.N"))) > 1:
        out.append(("run-time", _cycles_run_time(result, rows)))
    out.append(("overhead", _cycles_overhead(result, rows)))
    return out


def _cycle_panels(result: Result, rows):
    panels_key = result.settings.get("panels")
    panels = group_rows(result, rows, panels_key)
    label_keys = varying(result, rows, ["collective.N"])
    return panels, label_keys


def _cycles_run_time(result: Result, rows) -> Figure:
    panels, label_keys = _cycle_panels(result, rows)
    fig, axes = new_figure(len(panels), title_of(result))
    fields = [f"{c}_{s}" for c, _ in _CASES for s in ("mean", "ci_low", "ci_high")]
    factor, unit = display_unit("seconds", np.concatenate([column(result, rows, f)
                                                             for f in fields]))
    for ax, (_, prow) in zip(axes, panels):
        prow = sorted(prow, key=lambda r: result.points.at[r, "collective.N"])
        n = column(result, prow, "collective.N")
        drawn = []
        for case, color in _CASES:
            ys = column(result, prow, f"{case}_mean") * factor
            if not np.isfinite(ys).any():
                continue
            drawn.append(ys)
            tag(ax.plot(n, ys, "o-", ms=3, lw=1, color=color, label=case)[0], prow,
                Data("collective.N"), Data(f"{case}_mean", scale=factor))
            band(ax, n, column(result, prow, f"{case}_ci_low") * factor,
                 column(result, prow, f"{case}_ci_high") * factor, color)
        noiseless = column(result, prow, "noiseless_closed_form") * factor
        tag(ax.plot(n, noiseless, "k:", lw=1, label="noiseless")[0], prow,
            Data("collective.N"), Data("noiseless_closed_form", scale=factor))
        ax.set_xscale("log", base=2)
        auto_log_y(ax, np.concatenate(drawn + [noiseless]))
        ax.set_xlabel("N (ranks)")
        cycles_count = result.points.at[prow[0], "collective.cycles"] \
            if "collective.cycles" in result.points else ""
        ax.set_ylabel(f"T_M, {cycles_count} cycles [{unit}]")
        ax.set_title(wrap(label_of(result, prow[0], label_keys), 5.0, 10), fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        legend(ax)
    return fig


def _cycles_overhead(result: Result, rows) -> Figure:
    panels, label_keys = _cycle_panels(result, rows)
    title = title_of(result)
    if len(set(column(result, rows, "collective.N"))) > 1:
        title += " (overhead at the largest N)"
    fig, axes = new_figure(len(panels), title)
    for ax, (_, prow) in zip(axes, panels):
        row = max(prow, key=lambda r: result.points.at[r, "collective.N"])
        point = result.point(row)
        cyc = point.series("cycle")
        for case, color in _CASES:
            t = point.series(f"{case}_T")
            if not t.size or not np.isfinite(t).any():
                continue
            noiseless = point.value("noiseless_closed_form_redundant") if case == "redundant" \
                else None
            noiseless = noiseless if noiseless is not None else point.value("noiseless_closed_form")
            per_cycle = noiseless / len(cyc)
            ys = (t - cyc * per_cycle) * 1e6
            tag(ax.plot(cyc, ys, "o-", ms=3, lw=1, color=color, label=case)[0], [row],
                Data("cycle", "series"),
                Data(f"{case}_T", "series", scale=1e6, offset_per_x=-per_cycle))
            band(ax, cyc, (point.series(f"{case}_T_ci_low") - cyc * per_cycle) * 1e6,
                 (point.series(f"{case}_T_ci_high") - cyc * per_cycle) * 1e6, color)
        ratio = point.value("recovery_ratio")
        text = f"N = {point.params.get('collective.N_string', point.params.get('collective.N'))}"
        extra = label_of(result, row, [k for k in label_keys if k != "collective.N"])
        text += f", {extra}" if extra else ""
        if ratio is not None:
            text += (f"\nrecovery ratio {ratio:.3f} [{point.value('recovery_ratio_ci_low'):.3f}, "
                     f"{point.value('recovery_ratio_ci_high'):.3f}]")
        ax.set_title(wrap(text, 5.0, 9), fontsize=9)
        ax.set_xlabel("cycles c")
        ax.set_ylabel("T_c - c x noiseless cycle [us]")
        ax.grid(True, alpha=0.3)
        legend(ax)
    return fig


# --- "network": Hoefler et al.'s slowdown against size or rho -----------------------------------


@figure("network")
def network(result: Result, rows: list[int]) -> FigureList:
    """Slowdown (cost with / without background traffic) with its interval, against the number of
    endpoints (log axis; one curve per family of networks) or against rho (one curve per
    topology)."""
    hints = result.plot_hints(rows[0])
    rho = column(result, rows, "network.rho")
    x = result.settings.get("x") or ("network.rho" if len(set(rho[np.isfinite(rho)])) > 1
                                     else hints.get("x", "endpoints"))
    y, y_low, y_high = (hints.get(k) or d for k, d in
                        (("y", "slowdown_mean"), ("y_low", "slowdown_ci_low"),
                         ("y_high", "slowdown_ci_high")))
    if x == "endpoints":
        # Sizes on the axis: a curve per family of networks (2-D torus, 3-level fat tree).
        keys = ["topology_family"] + varying(result, rows, [x, "network.topology"])
    else:
        keys = varying(result, rows, [x])
    fig, axes = new_figure(1, title_of(result), panel_size=(7.0, 4.8))
    ax = axes[0]
    for k, (label, srows) in enumerate(group_rows_by(result, rows, keys)):
        srows = sorted(srows, key=lambda r: result.points.at[r, x])
        xs = column(result, srows, x)
        color = f"C{k % 10}"
        tag(ax.plot(xs, column(result, srows, y), "o-", ms=3, lw=1.2, color=color,
                    label=label or "slowdown")[0], srows, Data(x), Data(y))
        band(ax, xs, column(result, srows, y_low), column(result, srows, y_high), color)
    if x == "endpoints":
        ax.set_xscale("log")
    ax.set_xlabel(axis_label(result, x))
    ax.set_ylabel("slowdown (cost with / without background traffic)")
    ax.grid(True, which="both", alpha=0.3)
    legend(ax)
    return [("slowdown", fig)]


# --- "isoefficiency": Bosque et al.'s W(m) and efficiency surfaces ------------------------------


@figure("isoefficiency")
def isoefficiency(result: Result, rows: list[int]) -> FigureList:
    """W(m) keeping the target efficiency (log-log), with its interval and the exact curve where
    one exists, one curve per point; with [plot] x = "W", the efficiency E(W) for each m, one
    panel per point (Bosque et al.'s Figs. 2-4 and 3)."""
    if result.settings.get("x") == "W":
        return [("efficiency", _efficiency_surface(result, rows))]
    fig, axes = new_figure(1, title_of(result), panel_size=(7.5, 5.4))
    ax = axes[0]
    labels = [result.points.at[r, "curve"] if "curve" in result.points else "" for r in rows]
    labels = unique_labels([lab or label_of(result, r, varying(result, rows))
                            for lab, r in zip(labels, rows)], result, rows)
    has_interval = has_exact = False
    for k, (row, label) in enumerate(zip(rows, labels)):
        point = result.point(row)
        m, w = point.series("m"), point.series("W")
        color = f"C{k % 10}"
        if not np.isfinite(w).any():
            target = point.value("efficiency_target")
            label += f" (no W keeps E = {target:g})" if target is not None else " (no W)"
        tag(ax.plot(m, w, "o", ms=3.5, color=color, label=label)[0], [row],
            Data("m", "series"), Data("W", "series"))
        low, high = point.series("W_ci_low"), point.series("W_ci_high")
        has_interval |= bool(np.isfinite(low).any())
        band(ax, m, low, high, color)
        exact = point.series("W_exact")
        if exact.size and np.isfinite(exact).any():
            has_exact = True
            tag(ax.plot(m, exact, "-", lw=1, color=color)[0], [row], Data("m", "series"),
                Data("W_exact", "series"))
    # Sampled overheads have intervals; closed-form ones (Bosque et al.'s) are exact already.
    ax.plot([], [], "o", ms=3.5, color="0.4",
            label="W, root search (band: interval)" if has_interval else "W, root search")
    if has_exact:
        ax.plot([], [], "-", lw=1, color="0.4", label="W from the exact T_q and T_o")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("m (nodes)")
    ax.set_ylabel("W keeping the target efficiency [work units]")
    ax.grid(True, which="both", alpha=0.3)
    legend(ax, fontsize=6.5)
    return [("isoefficiency", fig)]


def _efficiency_surface(result: Result, rows) -> Figure:
    rows = [r for r in rows if result.series(r, "surface_W").size]
    fig, axes = new_figure(max(1, len(rows)), title_of(result))
    for ax, row in zip(axes, rows):
        point = result.point(row)
        w, m, e = point.series("surface_W"), point.series("surface_m"), point.series("surface_E")
        for k, value in enumerate(_sorted_values(m[np.isfinite(m)])):
            on = m == value
            line = ax.plot(w[on], e[on], "o-", ms=3, lw=1, color=f"C{k % 10}",
                           label=f"m = {value:g}")[0]
            line.collnoise = {"rows": [row], "x": Data("surface_W", "series"),
                              "y": Data("surface_E", "series"), "where": ("surface_m", value)}
        target = point.value("efficiency_target")
        if target is not None:
            ax.axhline(target, color="k", lw=0.7, ls=":", label=f"target E = {target:g}")
        ax.set_xscale("log")
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("W [work units]")
        ax.set_ylabel("efficiency")
        ax.set_title(wrap(point.value("curve") or "", 5.0, 9), fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        legend(ax, fontsize=6.5)
    return fig


# --- "nhalf": N_1/2, exact against the paper's approximation and the simulated check ------------


@figure("nhalf")
def nhalf(result: Result, rows: list[int]) -> FigureList:
    """Left: N_1/2 for each case (log axis): the exact value (with its range where double
    precision cannot resolve it), the paper's approximation and the smallest full tree reaching
    2w, and the bracket [N_1/2 / 2, 2 N_1/2] the simulation checked. Right: that check, E[T] / 2w
    simulated (with its interval) and exact at N_1/2 / 2 and 2 N_1/2: below and above 1."""
    keys = varying(result, rows)
    labels = unique_labels([label_of(result, r, keys) for r in rows], result, rows)
    pos = np.arange(len(rows), dtype=float)
    height = max(3.5, 0.42 * len(rows) + 1.6)
    fig = Figure(figsize=(12.0, height), layout="constrained")
    ax, check = fig.subplots(1, 2, sharey=True, gridspec_kw={"width_ratios": [1.25, 1]})
    fig.suptitle(wrap(title_of(result, "N_1/2 exact, the paper's approximation and the simulated "
                                        "check"), 11.7, 12), fontsize=12)

    half, double = column(result, rows, "check_N_half"), column(result, rows, "check_N_double")
    passed = result.points.loc[rows, "check_passed"].to_numpy() \
        if "check_passed" in result.points else np.zeros(len(rows), bool)
    for i, (lo, hi, ok) in enumerate(zip(half, double, passed == 1)):
        if np.isfinite(lo) and np.isfinite(hi):
            ax.plot([lo, hi], [pos[i], pos[i]], "-", lw=5, alpha=0.35, color="C2" if ok else "C3",
                    label="simulated check passed: E[T] < 2w at N/2, >= 2w at 2N" if ok
                    else "simulated check failed")
    exact = column(result, rows, "nhalf_exact")
    low, high = column(result, rows, "nhalf_exact_low"), column(result, rows, "nhalf_exact_high")
    unresolved = np.isfinite(low) & np.isfinite(high)
    if unresolved.any():
        ax.errorbar(exact[unresolved], pos[unresolved],
                    xerr=[exact[unresolved] - low[unresolved], high[unresolved] -
                          exact[unresolved]], fmt="none", ecolor="k", capsize=3)
    tag(ax.plot(exact, pos, "o", color="k", ms=6, label="exact N_1/2")[0], rows,
        Data("nhalf_exact"), Data("", "position"))
    tag(ax.plot(column(result, rows, "nhalf_paper_approx"), pos, "x", color="C3", ms=8, mew=2,
                label="the paper's approximation")[0], rows, Data("nhalf_paper_approx"),
        Data("", "position"))
    tag(ax.plot(column(result, rows, "nhalf_full_tree"), pos, "|", color="C0", ms=12, mew=2,
                label="smallest full tree 2^k - 1")[0], rows, Data("nhalf_full_tree"),
        Data("", "position"))
    ax.set_xscale("log")
    ax.set_yticks(pos, labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("N_1/2 (ranks): E[T](N) >= 2w")
    ax.grid(True, which="both", axis="x", alpha=0.3)
    legend(ax, fontsize=7)

    # The check: E[T] / 2w below 1 at N_1/2 / 2 and above it at 2 N_1/2.
    for name, field, exact_field, color, marker in (
            ("N/2", "check_below", "exact_mean_at_half", "C0", "<"),
            ("2N", "check_above", "exact_mean_at_double", "C1", ">")):
        mean = column(result, rows, f"{field}_mean") / column(result, rows, "target_time")
        lo = column(result, rows, f"{field}_ci_low") / column(result, rows, "target_time")
        hi = column(result, rows, f"{field}_ci_high") / column(result, rows, "target_time")
        ok = np.isfinite(mean) & np.isfinite(lo) & np.isfinite(hi)
        check.errorbar(mean[ok], pos[ok], xerr=[mean[ok] - lo[ok], hi[ok] - mean[ok]], fmt="none",
                       ecolor=color, capsize=2, lw=1)
        tag(check.plot(mean, pos, marker, color=color, ms=5,
                       label=f"simulated at {name} (bar: interval)")[0], rows,
            Data(f"{field}_mean", per="target_time"), Data("", "position"))
        tag(check.plot(column(result, rows, exact_field) / column(result, rows, "target_time"),
                       pos, "o", mfc="none", color=color, ms=7, label=f"exact at {name}")[0],
            rows, Data(exact_field, per="target_time"), Data("", "position"))
    check.axvline(1.0, color="k", lw=0.8, ls=":")
    check.set_xlabel("E[T] / 2w")
    check.grid(True, axis="x", alpha=0.3)
    legend(check, fontsize=7)
    return [("nhalf", fig)]
