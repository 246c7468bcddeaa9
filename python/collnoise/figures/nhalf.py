"""The figure "nhalf": N_1/2 of the tree barrier, exact against the paper's approximation, and the
simulated check (engine/tree_barrier/nhalf_study.cpp)."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from .. import fields
from ..result import Result
from .common import Data, FigureList, column, label_of, legend, tag, title_of, unique_labels, \
    varying, wrap

def draw(result: Result, rows: list[int]) -> FigureList:
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

    half = column(result, rows, fields.check_N_half)
    double = column(result, rows, fields.check_N_double)
    passed = result.points.loc[rows, fields.check_passed].to_numpy() \
        if fields.check_passed in result.points else np.zeros(len(rows), bool)
    for i, (lo, hi, ok) in enumerate(zip(half, double, passed == 1)):
        if np.isfinite(lo) and np.isfinite(hi):
            ax.plot([lo, hi], [pos[i], pos[i]], "-", lw=5, alpha=0.35, color="C2" if ok else "C3",
                    label="simulated check passed: E[T] < 2w at N/2, >= 2w at 2N" if ok
                    else "simulated check failed")
    exact = column(result, rows, fields.nhalf_exact)
    low = column(result, rows, fields.nhalf_exact_low)
    high = column(result, rows, fields.nhalf_exact_high)
    unresolved = np.isfinite(low) & np.isfinite(high)
    if unresolved.any():
        ax.errorbar(exact[unresolved], pos[unresolved],
                    xerr=[exact[unresolved] - low[unresolved], high[unresolved] -
                          exact[unresolved]], fmt="none", ecolor="k", capsize=3)
    tag(ax.plot(exact, pos, "o", color="k", ms=6, label="exact N_1/2")[0], rows,
        Data(fields.nhalf_exact), Data("", "position"))
    tag(ax.plot(column(result, rows, fields.nhalf_paper_approx), pos, "x", color="C3", ms=8, mew=2,
                label="the paper's approximation")[0], rows, Data(fields.nhalf_paper_approx),
        Data("", "position"))
    tag(ax.plot(column(result, rows, fields.nhalf_full_tree), pos, "|", color="C0", ms=12, mew=2,
                label="smallest full tree 2^k - 1")[0], rows, Data(fields.nhalf_full_tree),
        Data("", "position"))
    ax.set_xscale("log")
    ax.set_yticks(pos, labels, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("N_1/2 (ranks): E[T](N) >= 2w")
    ax.grid(True, which="both", axis="x", alpha=0.3)
    legend(ax, fontsize=7)

    # The check: E[T] / 2w below 1 at N_1/2 / 2 and above it at 2 N_1/2.
    target = column(result, rows, fields.target_time)
    for name, (mean_field, low_field, high_field), exact_field, color, marker in (
            ("N/2", (fields.check_below_mean, fields.check_below_ci_low,
                     fields.check_below_ci_high), fields.exact_mean_at_half, "C0", "<"),
            ("2N", (fields.check_above_mean, fields.check_above_ci_low,
                    fields.check_above_ci_high), fields.exact_mean_at_double, "C1", ">")):
        mean = column(result, rows, mean_field) / target
        lo = column(result, rows, low_field) / target
        hi = column(result, rows, high_field) / target
        ok = np.isfinite(mean) & np.isfinite(lo) & np.isfinite(hi)
        check.errorbar(mean[ok], pos[ok], xerr=[mean[ok] - lo[ok], hi[ok] - mean[ok]], fmt="none",
                       ecolor=color, capsize=2, lw=1)
        tag(check.plot(mean, pos, marker, color=color, ms=5,
                       label=f"simulated at {name} (bar: interval)")[0], rows,
            Data(mean_field, per=fields.target_time), Data("", "position"))
        tag(check.plot(column(result, rows, exact_field) / target,
                       pos, "o", mfc="none", color=color, ms=7, label=f"exact at {name}")[0],
            rows, Data(exact_field, per=fields.target_time), Data("", "position"))
    check.axvline(1.0, color="k", lw=0.8, ls=":")
    check.set_xlabel("E[T] / 2w")
    check.grid(True, axis="x", alpha=0.3)
    legend(check, fontsize=7)
    return [("nhalf", fig)]
