"""The bounds a run file writes (`[[bound]]`, docs/bounds.md), drawn against the estimate they
are held to, for the points of a result that hold them (collnoise.bounds; docs/python.md).

    from collnoise.figures.bounds import bounds_figure, draw_bounds
    fig = bounds_figure(result)                # a Result or a path; None if no point has a bound
    draw_bounds("run.h5", "run-bounds.png")

    python3 -m collnoise.figures.bounds RESULT.h5 OUT.png|pdf|svg

One panel per bound (a grid when there are several), titled with its name and its claim
("mean >= <expression>"): against the swept key (the run file's [plot] x, else the model's, else
the first numeric parameter that varies; log or linear as the curve figure draws it), the
estimate of the bound's statistic with its interval as a band, and the bound's value as a dashed
line, a curve per value of the other parameters that vary (noise.f, collective.w, ...) as the
curve figure makes them. Each point's marker says its verdict: holds (green disc), violated (red
cross), undecided (hollow orange diamond), or none (grey x: the bound's value is not a number
there); the legend lists the verdicts present, with their counts.

Not a figure a model names in its plot hints: it is drawn beside the model's for the points that
hold bounds, so the module defines no `draw` (collnoise.figures.registered() lists the models'
figures only). collnoise.figures.draw adds it to a result's figures (the file <name>-bounds.png
of `collnoise plot`).
"""

from __future__ import annotations

import sys

import numpy as np
from matplotlib.figure import Figure

from .. import fields
from ..bounds import VERDICTS, bound_indices, bounded_rows, claim, expressions
from ..result import Result, load
from .common import (auto_log_y, axis_label, band, column, Data, display_unit, draw_extra_figure,
                     extra_figure_main, FigureList, group_rows_by, label_of, new_figure,
                     set_x_scale, tag, title_of, varying, with_unit, wrap)

__all__ = ["bounds_figure", "draw_bounds", "figures_of", "VERDICT_STYLE", "SUFFIX"]

SUFFIX = "bounds"
PANEL_SIZE = (6.2, 4.8)
# The marker of each verdict (and of a point without one); its colours are kept out of the
# curves' palette below, so that a marker never looks like a curve.
VERDICT_STYLE = {
    "holds": dict(marker="o", ms=5.5, mfc="#2ca02c", mec="white", mew=0.6),
    "violated": dict(marker="X", ms=8.0, mfc="#d62728", mec="white", mew=0.6),
    "undecided": dict(marker="D", ms=5.0, mfc="white", mec="#e08a00", mew=1.4),
    None: dict(marker="x", ms=5.0, mfc="#7f7f7f", mec="#7f7f7f", mew=1.2),
}
NO_VERDICT = "no verdict (bound not a number)"
# The curves' colours: tab10 without its green, red and orange (the verdicts').
PALETTE = ["#1f77b4", "#9467bd", "#8c564b", "#17becf", "#7f7f7f", "#bcbd22", "#e377c2",
           "#393b79", "#637939", "#7b4173"]


def _x_key(result: Result, rows: list[int]) -> str | None:
    """The parameter on the horizontal axis: the run file's [plot] x, else the model's, when it
    varies; else the first numeric parameter that varies; None when none does."""
    keys = varying(result, rows)
    hinted = result.settings.get("x") or result.plot_hints(rows[0]).get("x")
    if hinted in keys:
        return hinted
    numeric = [k for k in keys if result.points[k].dtype.kind in "fiu"]
    return numeric[0] if numeric else None


def _series_keys(result: Result, rows: list[int], x: str | None) -> list[str]:
    keys = result.settings.get("series") or varying(result, rows, [x] if x else [])
    return [keys] if isinstance(keys, str) else list(keys)


def _verdicts(result: Result, rows: list[int], i: int) -> list[str | None]:
    key = fields.bound(i, fields.BOUND.verdict)
    values = result.points.loc[rows, key] if key in result.points else [None] * len(rows)
    return [v if isinstance(v, str) and v in VERDICTS else None for v in values]


def _interval_text(result: Result, rows: list[int], i: int) -> str:
    """"95% interval", or the levels' range when the looks spent the error differently."""
    levels = column(result, rows, fields.bound(i, fields.BOUND.level))
    levels = levels[np.isfinite(levels)]
    if not levels.size:
        return "interval"
    low, high = levels.min() * 100, levels.max() * 100
    return f"{low:.4g}% interval" if low == high else f"{low:.4g}-{high:.4g}% intervals"


def _metric_label(result: Result, row: int, statistic: str, unit: str) -> str:
    """"mean phase time [us]": the statistic of the point's primary metric (the model's y)."""
    label = result.plot_hints(row).get("y_label") or "primary metric"
    return with_unit(f"{statistic} {with_unit(label, '')}", unit)


def _panel_title(result: Result, rows: list[int], i: int, width: float) -> str:
    table = result.points
    name = str(table.at[rows[0], fields.bound(i, fields.BOUND.name)])
    statistic = str(table.at[rows[0], fields.bound(i, fields.BOUND.statistic)])
    relation = str(table.at[rows[0], fields.bound(i, fields.BOUND.relation)])
    written = expressions(result).get(name, {})
    right = " ".join(str(written.get("expression", "the bound's value")).split())
    text = claim(statistic, relation, right, written.get("tolerance"))
    return wrap(f"{name}\n{text}", width - 0.4, 8.5)


def _draw_verdicts(ax, result: Result, rows: list[int], xs, ys, i: int, counts: dict) -> None:
    """The estimate's markers, one line per verdict (line.collnoise_verdict, .collnoise_rows say
    which for tests)."""
    verdicts = _verdicts(result, rows, i)
    for verdict in (*VERDICTS, None):
        on = np.array([v == verdict for v in verdicts])
        if not on.any():
            continue
        counts[verdict] = counts.get(verdict, 0) + int(on.sum())
        line = ax.plot(xs[on], ys[on], linestyle="none", zorder=5, label="_verdict",
                       **VERDICT_STYLE[verdict])[0]
        line.collnoise_verdict = verdict
        line.collnoise_rows = [r for r, o in zip(rows, on) if o]


def _draw_series(ax, result: Result, rows: list[int], i: int, x: str | None, label: str,
                 color: str, factor: float, counts: dict) -> list[np.ndarray]:
    """One curve: the estimate (solid) with its interval band, the bound's value (dashed), the
    verdicts' markers. Without an x, the rows stand side by side at positions 0, 1, ..."""
    if x:
        rows = sorted(rows, key=lambda r: result.points.at[r, x])
        xs, xdata = column(result, rows, x), Data(x)
    else:
        xs, xdata = np.arange(len(rows), dtype=float), Data("", "position")
    estimate = column(result, rows, fields.bound(i, fields.BOUND.estimate)) * factor
    low = column(result, rows, fields.bound(i, fields.BOUND.ci_low)) * factor
    high = column(result, rows, fields.bound(i, fields.BOUND.ci_high)) * factor
    value = column(result, rows, fields.bound(i, fields.BOUND.value)) * factor
    joined = x is not None and len(rows) > 1
    tag(ax.plot(xs, estimate, "-" if joined else "none", lw=1.3, color=color,
                label=label or "_estimate")[0], rows, xdata,
        Data(fields.bound(i, fields.BOUND.estimate), scale=factor))
    if joined:
        band(ax, xs, low, high, color)
    else:  # no band to draw: an error bar per point, the bound a short tick
        ax.vlines(xs, low, high, color=color, lw=1.4)
    tag(ax.plot(xs, value, "--" if joined else "none", marker=None if joined else "_", ms=16,
                mew=1.6, lw=1.4, color=color, label="_bound")[0], rows, xdata,
        Data(fields.bound(i, fields.BOUND.value), scale=factor))
    _draw_verdicts(ax, result, rows, xs, estimate, i, counts)
    return [estimate, low, high, value]


def _legend(ax, result: Result, rows: list[int], i: int, counts: dict, joined: bool) -> None:
    """What the line styles (or, for points side by side, the bars and ticks) and the markers
    mean, then the curves (by colour)."""
    statistic = str(result.points.at[rows[0], fields.bound(i, fields.BOUND.statistic)])
    grey = "#555555"
    interval = _interval_text(result, rows, i)
    if joined:
        handles = [ax.plot([], [], "-", lw=1.3, color=grey,
                           label=f"{statistic} estimate (band: {interval})")[0],
                   ax.plot([], [], "--", lw=1.4, color=grey, label="the bound's value")[0]]
    else:
        handles = [ax.plot([], [], linestyle="none", marker="|", ms=12, mew=1.4, color=grey,
                           label=f"{statistic}: {interval}")[0],
                   ax.plot([], [], linestyle="none", marker="_", ms=14, mew=1.6, color=grey,
                           label="the bound's value")[0]]
    for verdict in (*VERDICTS, None):
        if verdict in counts:
            n = counts[verdict]
            text = f"{verdict or NO_VERDICT}: {n} point{'s' if n != 1 else ''}"
            handles.append(ax.plot([], [], linestyle="none", label=text,
                                   **VERDICT_STYLE[verdict])[0])
    handles += [line for line in ax.get_lines()
                if hasattr(line, "collnoise") and not line.get_label().startswith("_")]
    ax.legend(handles, [h.get_label() for h in handles], fontsize=7, loc="best")


def _draw_panel(ax, result: Result, rows: list[int], i: int, x: str | None,
                width: float) -> None:
    values = np.concatenate([column(result, rows, fields.bound(i, f))
                             for f in fields.BOUND_QUANTITY_MEMBERS])
    factor, unit = display_unit(result.units.get(fields.bound(i, fields.BOUND.value), ""),
                                values)
    counts: dict = {}
    drawn: list[np.ndarray] = []
    if x:
        series = group_rows_by(result, rows, _series_keys(result, rows, x))
    else:
        series = [("", rows)]
    for k, (label, srows) in enumerate(series):
        drawn += _draw_series(ax, result, srows, i, x, label, PALETTE[k % len(PALETTE)], factor,
                              counts)
    if x:
        hints = result.plot_hints(rows[0])
        xs = column(result, rows, x)
        positive = bool(np.all(xs[np.isfinite(xs)] > 0))
        set_x_scale(ax, hints.get("x_scale", "log") if positive else "linear", xs)
        ax.set_xlabel(axis_label(result, x))
    else:  # each point labelled by what tells it apart
        keys = varying(result, rows)
        ax.set_xticks(np.arange(len(rows)), [label_of(result, r, keys) or str(r) for r in rows],
                      fontsize=8, rotation=20, ha="right")
        ax.set_xlim(-0.6, len(rows) - 0.4)
    auto_log_y(ax, np.concatenate(drawn))
    statistic = str(result.points.at[rows[0], fields.bound(i, fields.BOUND.statistic)])
    ax.set_ylabel(_metric_label(result, rows[0], statistic, unit))
    ax.set_title(_panel_title(result, rows, i, width), fontsize=8.5)
    ax.grid(True, which="both", alpha=0.3)
    _legend(ax, result, rows, i, counts, joined=any(len(g) > 1 for _, g in series) and bool(x))
    ax.collnoise_bound = i  # for tests: the bound this panel draws


def bounds_figure(result: Result | str, rows: list[int] | None = None) -> Figure | None:
    """The figure of the points (rows; default: every point holding a bound) of a result, a
    panel per bound, or None when none holds one. `result` is a Result or a path (read with
    collnoise.load, its checksum checked)."""
    if not isinstance(result, Result):
        result = load(result)
    have = set(bounded_rows(result))
    rows = [r for r in (sorted(have) if rows is None else rows) if r in have]
    if not rows:
        return None
    panels = []
    for i in bound_indices(result):
        held = result.points.loc[rows, fields.bound(i, fields.BOUND.name)].notna()
        if held.any():
            panels.append((i, [int(r) for r in held.index[held]]))
    x = _x_key(result, rows)
    fig, axes = new_figure(len(panels), title_of(result, "user bounds against the estimate"),
                           panel_size=PANEL_SIZE, max_columns=2)
    for ax, (i, panel_rows) in zip(axes, panels):
        _draw_panel(ax, result, panel_rows, i, x, PANEL_SIZE[0])
    return fig


def figures_of(result: Result) -> FigureList:
    """[("bounds", the figure)] for a result with points holding bounds, else [] (what
    collnoise.figures.draw adds to a result's figures)."""
    fig = bounds_figure(result)
    return [] if fig is None else [(SUFFIX, fig)]


def draw_bounds(result: Result | str, out_path: str, dpi: int = 130) -> str:
    """Draws a result's bounds figure to `out_path` (PNG, PDF or SVG by its extension), written
    to a temporary name beside it and renamed; returns `out_path`. ValueError when no point of
    the result holds a bound."""
    return draw_extra_figure(result, out_path, dpi, bounds_figure,
                             "no point holds a bound (a run file's [[bound]] tables, "
                             "docs/bounds.md)")


def main(argv: list[str] | None = None) -> int:
    return extra_figure_main(sys.argv[1:] if argv is None else argv, "bounds", draw_bounds)


if __name__ == "__main__":
    import matplotlib

    matplotlib.use("Agg")
    sys.exit(main())
