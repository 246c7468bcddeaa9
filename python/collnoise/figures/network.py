"""The figure "network": Hoefler et al.'s slowdown under background traffic, against the network's
size or rho (engine/network)."""

from __future__ import annotations

import numpy as np

from .. import fields
from ..result import Result
from .common import (Data, FigureList, axis_label, band, column, group_rows_by, legend,
                     new_figure, tag, title_of, varying)

def draw(result: Result, rows: list[int]) -> FigureList:
    """Slowdown (cost with / without background traffic) with its interval, against the number of
    endpoints (log axis; one curve per family of networks) or against rho (one curve per
    topology)."""
    hints = result.plot_hints(rows[0])
    rho = column(result, rows, "network.rho")
    x = result.settings.get("x") or ("network.rho" if len(set(rho[np.isfinite(rho)])) > 1
                                     else hints.get("x", fields.endpoints))
    y, y_low, y_high = (hints.get(k) or d for k, d in
                        (("y", fields.slowdown_mean), ("y_low", fields.slowdown_ci_low),
                         ("y_high", fields.slowdown_ci_high)))
    if x == fields.endpoints:
        # Sizes on the axis: a curve per family of networks (2-D torus, 3-level fat tree).
        keys = [fields.topology_family] + varying(result, rows, [x, "network.topology"])
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
    if x == fields.endpoints:
        ax.set_xscale("log")
    ax.set_xlabel(axis_label(result, x))
    ax.set_ylabel("slowdown (cost with / without background traffic)")
    ax.grid(True, which="both", alpha=0.3)
    legend(ax)
    return [("slowdown", fig)]
