"""The figure "isoefficiency": Bosque et al.'s W(m) keeping an efficiency, and the efficiency
surfaces E(W) (engine/isoefficiency)."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from .. import fields
from ..result import Result
from .common import (Data, FigureList, band, label_of, legend, new_figure, sorted_values, tag,
                     title_of, unique_labels, varying, wrap)

def draw(result: Result, rows: list[int]) -> FigureList:
    """W(m) keeping the target efficiency (log-log), with its interval and the exact curve where
    one exists, one curve per point; with [plot] x = "W", the efficiency E(W) for each m, one
    panel per point (Bosque et al.'s Figs. 2-4 and 3)."""
    if result.settings.get("x") == fields.W:
        return [("efficiency", _efficiency_surface(result, rows))]
    fig, axes = new_figure(1, title_of(result), panel_size=(7.5, 5.4))
    ax = axes[0]
    labels = [result.points.at[r, fields.curve] if fields.curve in result.points else ""
              for r in rows]
    labels = unique_labels([lab or label_of(result, r, varying(result, rows))
                            for lab, r in zip(labels, rows)], result, rows)
    has_interval = has_exact = False
    for k, (row, label) in enumerate(zip(rows, labels)):
        point = result.point(row)
        m, w = point.series(fields.m), point.series(fields.W)
        color = f"C{k % 10}"
        if not np.isfinite(w).any():
            target = point.value(fields.efficiency_target)
            label += f" (no W keeps E = {target:g})" if target is not None else " (no W)"
        tag(ax.plot(m, w, "o", ms=3.5, color=color, label=label)[0], [row],
            Data(fields.m, "series"), Data(fields.W, "series"))
        low, high = point.series(fields.W_ci_low), point.series(fields.W_ci_high)
        has_interval |= bool(np.isfinite(low).any())
        band(ax, m, low, high, color)
        exact = point.series(fields.W_exact)
        if exact.size and np.isfinite(exact).any():
            has_exact = True
            tag(ax.plot(m, exact, "-", lw=1, color=color)[0], [row], Data(fields.m, "series"),
                Data(fields.W_exact, "series"))
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
    rows = [r for r in rows if result.series(r, fields.surface_W).size]
    fig, axes = new_figure(max(1, len(rows)), title_of(result))
    for ax, row in zip(axes, rows):
        point = result.point(row)
        w, m, e = (point.series(fields.surface_W), point.series(fields.surface_m),
                   point.series(fields.surface_E))
        for k, value in enumerate(sorted_values(m[np.isfinite(m)])):
            on = m == value
            line = ax.plot(w[on], e[on], "o-", ms=3, lw=1, color=f"C{k % 10}",
                           label=f"m = {value:g}")[0]
            line.collnoise = {"rows": [row], "x": Data(fields.surface_W, "series"),
                              "y": Data(fields.surface_E, "series"),
                              "where": (fields.surface_m, value)}
        target = point.value(fields.efficiency_target)
        if target is not None:
            ax.axhline(target, color="k", lw=0.7, ls=":", label=f"target E = {target:g}")
        ax.set_xscale("log")
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("W [work units]")
        ax.set_ylabel("efficiency")
        ax.set_title(wrap(point.value(fields.curve) or "", 5.0, 9), fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
        legend(ax, fontsize=6.5)
    return fig
