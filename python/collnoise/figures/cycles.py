"""The figure "cycles": Chen & Suda's Figures 8 and 9, for the LogGOPS cycles of the butterfly and
dissemination collectives (engine/cycles)."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from .. import fields
from ..result import Result
from .common import (Data, FigureList, auto_log_y, band, column, display_unit, group_rows,
                     label_of, legend, new_figure, tag, title_of, varying, wrap)

_CASES = [("quiet", "C2"), ("conventional", "C3"), ("redundant", "C0")]
# A case's fields are <case>_<member>: its T_M's mean (fields.MEAN) and T_c at each cycle.
_MEAN, _LOW, _HIGH = fields.MEAN.mean, fields.MEAN.ci_low, fields.MEAN.ci_high


def _case_field(case: str, member: str) -> str:
    """The name of case `case`'s field `member` (_MEAN, _LOW, _HIGH; "T", "T_ci_low", ...)."""
    return f"{case}_{member}"


def draw(result: Result, rows: list[int]) -> FigureList:
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
    names = [_case_field(c, s) for c, _ in _CASES for s in (_MEAN, _LOW, _HIGH)]
    factor, unit = display_unit("seconds", np.concatenate([column(result, rows, f)
                                                             for f in names]))
    for ax, (_, prow) in zip(axes, panels):
        prow = sorted(prow, key=lambda r: result.points.at[r, "collective.N"])
        n = column(result, prow, "collective.N")
        drawn = []
        for case, color in _CASES:
            ys = column(result, prow, _case_field(case, _MEAN)) * factor
            if not np.isfinite(ys).any():
                continue
            drawn.append(ys)
            tag(ax.plot(n, ys, "o-", ms=3, lw=1, color=color, label=case)[0], prow,
                Data("collective.N"), Data(_case_field(case, _MEAN), scale=factor))
            band(ax, n, column(result, prow, _case_field(case, _LOW)) * factor,
                 column(result, prow, _case_field(case, _HIGH)) * factor, color)
        noiseless = column(result, prow, fields.noiseless_closed_form) * factor
        tag(ax.plot(n, noiseless, "k:", lw=1, label="noiseless")[0], prow,
            Data("collective.N"), Data(fields.noiseless_closed_form, scale=factor))
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
        cyc = point.series(fields.cycle)
        for case, color in _CASES:
            t = point.series(_case_field(case, "T"))
            if not t.size or not np.isfinite(t).any():
                continue
            noiseless = point.value(fields.noiseless_closed_form_redundant) \
                if case == "redundant" else None
            if noiseless is None:
                noiseless = point.value(fields.noiseless_closed_form)
            per_cycle = noiseless / len(cyc)
            ys = (t - cyc * per_cycle) * 1e6
            tag(ax.plot(cyc, ys, "o-", ms=3, lw=1, color=color, label=case)[0], [row],
                Data(fields.cycle, "series"),
                Data(_case_field(case, "T"), "series", scale=1e6, offset_per_x=-per_cycle))
            band(ax, cyc, (point.series(_case_field(case, "T_ci_low")) - cyc * per_cycle) * 1e6,
                 (point.series(_case_field(case, "T_ci_high")) - cyc * per_cycle) * 1e6, color)
        ratio = point.value(fields.recovery_ratio)
        text = f"N = {point.params.get('collective.N_string', point.params.get('collective.N'))}"
        extra = label_of(result, row, [k for k in label_keys if k != "collective.N"])
        text += f", {extra}" if extra else ""
        if ratio is not None:
            low = point.value(fields.recovery_ratio_ci_low)
            high = point.value(fields.recovery_ratio_ci_high)
            text += f"\nrecovery ratio {ratio:.3f} [{low:.3f}, {high:.3f}]"
        ax.set_title(wrap(text, 5.0, 9), fontsize=9)
        ax.set_xlabel("cycles c")
        ax.set_ylabel("T_c - c x noiseless cycle [us]")
        ax.grid(True, alpha=0.3)
        legend(ax)
    return fig
