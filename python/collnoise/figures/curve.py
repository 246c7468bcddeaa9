"""The figure "curve": y against x with its interval band and the model's reference curves. Most
collectives name it (the default of PlotHints, engine/study.hpp): the tree barrier, the
time-based tree barrier and the schedules."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from .. import fields
from ..result import Result
from .common import (Data, FigureList, auto_log_y, axis_label, band, column, display_unit,
                     format_value, group_rows, group_rows_by, legend, new_figure, set_x_scale,
                     short, suffix_of, tag, title_of, varying, with_unit)

_REFERENCE_NAMES = {
    fields.exact_mean: "exact mean",
    fields.theorem1_lower: "Theorem 1 lower bound",
    fields.theorem1_upper: "Theorem 1 upper bound",
    fields.bound_lower: "lower bound (any N)",
    fields.bound_upper: "upper bound (any N)",
    fields.noiseless_time: "noiseless",
    fields.noiseless_completion: "noiseless",
    fields.noiseless_closed_form: "noiseless",
}
_REFERENCE_STYLES = ["-", ":", "--", (0, (1, 3)), (0, (6, 3)), "-.", (0, (3, 1, 1, 1, 1, 1))]


def draw(result: Result, rows: list[int]) -> FigureList:
    """y against x (log x by default) with its interval band and the model's references: the tree
    barrier (mean phase time, exact mean, Theorem 1 or general bounds), the time-based tree
    barrier (time of all phases, noiseless time), schedules (completion time, noiseless)."""
    # Points of different models in one run (cases) may show different quantities: one figure
    # for each.
    by_y: dict[tuple, list[int]] = {}
    for row in rows:
        hints = result.plot_hints(row)
        by_y.setdefault((hints.get("y", fields.MEAN.mean), hints.get("y_label", "")),
                         []).append(row)
    out = []
    for y_rows in by_y.values():
        hints = result.plot_hints(y_rows[0])
        fig = _draw_curve(result, y_rows, hints)
        out.append((suffix_of(hints.get("y_label") or hints.get("y", "y")), fig))
    return out


def _draw_curve(result: Result, rows: list[int], hints: dict) -> Figure:
    settings = result.settings
    x = settings.get("x") or hints.get("x", "collective.N")
    y = hints.get("y", fields.MEAN.mean)
    y_low, y_high = hints.get("y_low", ""), hints.get("y_high", "")
    references = [r for r in hints.get("references", []) if r in result.points.columns]
    panels_key = settings.get("panels")
    panels = group_rows(result, rows, panels_key)
    series_keys = settings.get("series") or varying(result, rows, [x, panels_key])
    if isinstance(series_keys, str):
        series_keys = [series_keys]
    drawn_fields = [y, y_low, y_high, *references]
    what = f"{with_unit(hints.get('y_label') or y, '')} against {axis_label(result, x)}"
    fig, axes = new_figure(len(panels), title_of(result, what))
    for ax, (panel_value, panel_rows) in zip(axes, panels):
        # Each panel in the unit that suits its values (8-byte and 16 MiB messages differ).
        factor, unit = display_unit(result.units.get(y, ""),
                                    np.concatenate([column(result, panel_rows, f)
                                                    for f in drawn_fields]))
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


def confidence_text(result: Result, rows) -> str:
    """The confidence of the rows' intervals, as "95%"."""
    c = column(result, rows, fields.confidence)
    c = c[np.isfinite(c)]
    if not c.size:
        c = np.array([result.attrs.get("confidence", 0.95)])
    return f"{c[0] * 100:g}%"
