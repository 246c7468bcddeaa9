"""Why a sample is late: where the critical path's time went, and how much of the noise was
absorbed off it, for the schedule points of a result run with `[output] critical_path = true`
(collnoise.critical_path; docs/python.md).

    from collnoise.figures.attribution import attribution_figure, draw_attribution
    fig = attribution_figure(result)           # a Result or a path; None if no point has one
    draw_attribution("run.h5", "run-attribution.png")

    python3 -m collnoise.figures.attribution RESULT.h5 OUT.png|pdf|svg

Left, one bar per point: its mean completion time stacked by where the critical path spent it
(computation, CPU overhead, NIC gap, wire latency, noise, rendezvous wait, and the shared network
on a point with contention), with the completion's
mean and interval marked on top; the bars follow the swept key (collective.N) and are grouped by
case (the algorithm). Right, the absorption ratio (the share of the noise charged to the sample's
operations that never reached its completion) with its interval, against the swept key, one line
per case.

Not a figure a model names in its plot hints: a point's hints name one figure (schedules:
`curve`), and this one is drawn beside it for the points that carry the attribution, so the
module defines no `draw` (collnoise.figures.registered() lists the models' figures only).
collnoise.figures.draw adds it to a result's figures (the file <name>-attribution.png of
`collnoise plot`).
"""

from __future__ import annotations

import math
import sys

import numpy as np
from matplotlib.figure import Figure

from .. import fields
from ..critical_path import BASE_CATEGORIES, CATEGORIES, CATEGORY_NAMES, attribution_rows
from ..result import Result, load
from .common import (axis_label, band, column, Data, display_unit, draw_extra_figure,
                     extra_figure_main, FigureList, format_value, group_rows_by, legend,
                     set_x_scale, tag, title_of, varying, wrap)

__all__ = ["attribution_figure", "draw_attribution", "figures_of", "CATEGORY_STYLE", "SUFFIX"]

SUFFIX = "attribution"
# Colour and hatch of each category, as the timeline draws the spans of that kind.
CATEGORY_STYLE = {
    "calc": ("#4c78a8", None),
    "overhead": ("#f58518", None),
    "gap": ("#e8b77d", None),
    "wire": ("#b279a2", None),
    "noise": ("#9d9d9d", "////"),
    "rendezvous": ("#eeca3b", ".."),
    "network": ("#54a24b", "\\\\"),
}


def _x_key(result: Result, rows: list[int]) -> str | None:
    """The parameter the bars and the absorption ratio follow: the run file's [plot] x, else the
    model's (collective.N), when it varies; else the first numeric parameter that varies."""
    keys = varying(result, rows)
    hinted = result.settings.get("x") or result.plot_hints(rows[0]).get("x")
    if hinted in keys:
        return hinted
    numeric = [k for k in keys if result.points[k].dtype.kind in "fiu"]
    return numeric[0] if numeric else None


def _ticks(result: Result, key: str, rows: list[int]) -> list[str]:
    """The x values of the bars; powers of two as such when they all are and reach past 64."""
    values = [result.points.at[r, key] for r in rows]
    if all(isinstance(v, (int, float, np.number)) and v > 0 and math.log2(v).is_integer()
           for v in values) and max(values) > 64:
        return [f"$2^{{{int(math.log2(v))}}}$" for v in values]
    return [format_value(v, result.units.get(key, "")) for v in values]


def _ordered_groups(result: Result, rows: list[int], x: str | None):
    """(case label, rows sorted by x) for each case, in the order of the points (the run file's
    cases in their order)."""
    cases = varying(result, rows, [x] if x else [])
    groups = sorted(group_rows_by(result, rows, cases), key=lambda group: min(group[1]))
    if x:
        groups = [(label, sorted(g, key=lambda r: result.points.at[r, x])) for label, g in groups]
    return groups


def _draw_bars(ax, result: Result, groups, x: str | None) -> None:
    order = [r for _, g in groups for r in g]
    positions = np.arange(len(order), dtype=float)
    factor, unit = display_unit("seconds", column(result, order, fields.completion_ci_high))
    bottom = np.zeros(len(order))
    handles = []
    # The network's bars only where a point has the category (a shared network).
    for c in [c for c in CATEGORIES if c in BASE_CATEGORIES
              or np.isfinite(column(result, order, f"path_{c}_mean")).any()]:
        heights = np.nan_to_num(column(result, order, f"path_{c}_mean")) * factor
        color, hatch = CATEGORY_STYLE[c]
        bars = ax.bar(positions, heights, bottom=bottom, width=0.75, color=color, hatch=hatch,
                      edgecolor="white" if hatch is None else "#555555", linewidth=0.4,
                      label=CATEGORY_NAMES[c])
        bars.collnoise_category = c  # for tests: the bars of this category
        if np.any(heights > 0):  # a category the paths never spent time in stays out
            handles.append(bars)
        bottom += heights
    low = column(result, order, fields.completion_ci_low) * factor
    high = column(result, order, fields.completion_ci_high) * factor
    ax.vlines(positions, low, high, color="k", lw=1.0, zorder=4)
    completion = tag(ax.plot(positions, column(result, order, fields.completion_mean) * factor, "_",
                             ms=14, mew=1.6, color="k", zorder=5,
                             label="completion: mean and interval")[0],
                     order, Data("", "position"), Data(fields.completion_mean, scale=factor))
    # The legend lists the categories as they are stacked, the top one first.
    handles = [completion, *reversed(handles)]
    ax.legend(handles, [h.get_label() for h in handles], fontsize=7, loc="upper left")

    if x:
        ax.set_xticks(positions, _ticks(result, x, order), fontsize=8)
        ax.set_xlabel(axis_label(result, x))
        start = 0
        centres, labels = [], []
        for label, g in groups:
            centres.append(start + (len(g) - 1) / 2)
            labels.append(label)
            if start:
                ax.axvline(start - 0.5, color="#888888", lw=0.6)
            start += len(g)
        if any(labels):  # the case under its bars
            ax.set_xticks(centres, labels, minor=True, fontsize=8)
            ax.tick_params(axis="x", which="minor", length=0, pad=16)
    else:
        ax.set_xticks(positions, [label or str(r) for label, g in groups for r in g],
                      fontsize=8, rotation=20, ha="right")
    ax.set_xlim(-0.6, len(order) - 0.4)
    ax.set_ylim(bottom=0.0)  # a completion interval reaching below 0 is cut there
    ax.set_ylabel(f"mean completion time by critical-path category [{unit}]")
    ax.grid(True, axis="y", alpha=0.3)


def _ratio_label(result: Result, rows: list[int], label: str) -> str:
    """A line's label; when it has no ratio at all, why (in the panel's width)."""
    if np.isfinite(column(result, rows, fields.absorption_ratio)).any():
        return label
    reasons = dict.fromkeys(result.reason(r, fields.absorption_ratio) or "null" for r in rows)
    return wrap(f"{label} (none: {'; '.join(reasons)})", 3.0, 7)


def _draw_ratio(ax, result: Result, rows: list[int], xs, xdata: Data, label: str, color,
                joined: bool = True) -> None:
    """The ratios with their intervals: a line and a band, or (cases side by side, nothing
    between them) markers and bars."""
    low = column(result, rows, fields.absorption_ratio_ci_low)
    high = column(result, rows, fields.absorption_ratio_ci_high)
    tag(ax.plot(xs, column(result, rows, fields.absorption_ratio), "o-" if joined else "o", ms=3.5,
                lw=1.3, color=color, label=_ratio_label(result, rows, label))[0], rows, xdata,
        Data(fields.absorption_ratio))
    if joined:
        band(ax, xs, low, high, color)
    else:
        ax.vlines(xs, low, high, color=color, lw=1.2)


def _draw_absorption(ax, result: Result, groups, x: str | None) -> None:
    order = [r for _, g in groups for r in g]
    if x:  # a line per case against x
        for k, (label, g) in enumerate(groups):
            _draw_ratio(ax, result, g, column(result, g, x), Data(x), label or "absorption ratio",
                        f"C{k % 10}")
        hints = result.plot_hints(order[0])
        set_x_scale(ax, hints.get("x_scale", "linear") if x == hints.get("x") else "linear",
                    column(result, order, x))
        ax.set_xlabel(axis_label(result, x))
    else:  # no numeric parameter varies: one line over the bars' positions, labelled as they are
        positions = np.arange(len(order), dtype=float)
        _draw_ratio(ax, result, order, positions, Data("", "position"), "absorption ratio", "C0",
                    joined=False)
        ax.set_xlim(-0.6, len(order) - 0.4)
        ax.set_xticks(positions, [label or str(r) for label, g in groups for r in g],
                      fontsize=8, rotation=20, ha="right")
    # From 0, or from the tenth below the lowest interval when the ratios are all high.
    low = column(result, order, fields.absorption_ratio_ci_low)
    low = low[np.isfinite(low)]
    bottom = max(0.0, math.floor(10 * float(low.min())) / 10) if low.size else 0.0
    ax.set_ylim(bottom - 0.02, 1.02)
    ax.set_ylabel("absorbed off the critical path\n(share of the noise charged)")
    ax.grid(True, which="both", alpha=0.3)
    legend(ax, fontsize=7, loc="best")


def attribution_figure(result: Result | str, rows: list[int] | None = None) -> Figure | None:
    """The figure of the points (rows; default: every point carrying the attribution) of a
    result, or None when none carries it. `result` is a Result or a path (read with
    collnoise.load, its checksum checked)."""
    if not isinstance(result, Result):
        result = load(result)
    have = set(attribution_rows(result))
    rows = [r for r in (sorted(have) if rows is None else rows) if r in have]
    if not rows:
        return None
    x = _x_key(result, rows)
    groups = _ordered_groups(result, rows, x)
    width = min(16.0, 9.0 + 0.3 * len(rows))
    fig = Figure(figsize=(width, 5.0), layout="constrained")
    bars, absorbed = fig.subplots(1, 2, width_ratios=[1.5, 1.0])
    _draw_bars(bars, result, groups, x)
    bars.set_title("where the critical path's time went", fontsize=10)
    _draw_absorption(absorbed, result, groups, x)
    absorbed.set_title("noise absorbed off the critical path", fontsize=10)
    fig.suptitle(wrap(title_of(result, "why a sample is late"), width - 0.3, 12), fontsize=12)
    return fig


def figures_of(result: Result) -> FigureList:
    """[("attribution", the figure)] for a result with points carrying the attribution, else []
    (what collnoise.figures.draw adds to a result's figures)."""
    fig = attribution_figure(result)
    return [] if fig is None else [(SUFFIX, fig)]


def draw_attribution(result: Result | str, out_path: str, dpi: int = 130) -> str:
    """Draws a result's attribution figure to `out_path` (PNG, PDF or SVG by its extension),
    written to a temporary name beside it and renamed; returns `out_path`. ValueError when no
    point of the result carries the attribution."""
    return draw_extra_figure(result, out_path, dpi, attribution_figure,
                             "no point records its critical path (run it with "
                             "[output] critical_path = true)")


def main(argv: list[str] | None = None) -> int:
    return extra_figure_main(sys.argv[1:] if argv is None else argv, "attribution", draw_attribution)


if __name__ == "__main__":
    import matplotlib

    matplotlib.use("Agg")
    sys.exit(main())
