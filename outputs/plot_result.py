#!/usr/bin/python3
"""Figures from a collnoise result file (PNG), one per figure of the paper the run reproduces.

    outputs/plot_result.py RESULT.h5 [--out DIR]

The kind of plot follows the points' kind; the run file's optional [plot] table (stored in the
result) gives a title and `panels`, the parameter that splits the figure into panels. Other
parameters that vary between points become separate curves.
  tree_barrier   mean phase time against N (log axis) with its interval band, the exact mean,
                 and Theorem 1's bounds (or the general bounds where N is not a full tree);
  butterfly      Chen & Suda's Fig. 8 (T_M against N for the quiet, conventional and redundant
                 cases) and Fig. 9 (overhead T_c - c x noiseless cycle against c at the largest N);
  dissemination  as butterfly, without the redundant case;
  network        slowdown against endpoints (or rho) with its interval;
  isoefficiency  W(m) with its interval and the exact curve where one exists; with [plot]
                 x = "W", the efficiency surfaces E(W) for each m, one panel per curve.
Needs python3-matplotlib and python3-h5py (Debian).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import collnoise_reader as cr  # noqa: E402

IGNORED = {"collective.N", "collective.N_string", "collective.kind", "collective.engine"}


def varying(points, exclude):
    keys = sorted({k for p in points for k in p.params if not k.endswith("_string")})
    out = []
    for k in keys:
        if k in exclude:
            continue
        values = {repr(p.params.get(k)) for p in points}
        if len(values) > 1:
            out.append(k)
    return out


def label_of(point, keys):
    parts = []
    for k in keys:
        v = point.params.get(k)
        short = k.split(".", 1)[-1]
        parts.append(f"{short}={v:.3g}" if isinstance(v, float) else f"{short}={v}")
    return ", ".join(parts)


def group(points, key):
    groups = defaultdict(list)
    for p in points:
        groups[p.params.get(key) if key else None].append(p)
    return groups


def panel_axes(n, title):
    cols = min(n, 3)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 4.2 * rows), squeeze=False)
    fig.suptitle(title)
    return fig, [ax for row in axes for ax in row][:n], [ax for row in axes for ax in row][n:]


def values(points, key, scale=1.0):
    return [None if p.value(key) is None else p.value(key) * scale for p in points]


def band(ax, x, lo, hi, color):
    xs = [a for a, b, c in zip(x, lo, hi) if b is not None and c is not None]
    ls = [b for b, c in zip(lo, hi) if b is not None and c is not None]
    hs = [c for b, c in zip(lo, hi) if b is not None and c is not None]
    if xs:
        ax.fill_between(xs, ls, hs, color=color, alpha=0.25, linewidth=0)


def plot_tree(result, settings, out):
    points = result.points
    panels = settings.get("panels")
    figs = []
    groups = group(points, panels)
    fig, axes, spare = panel_axes(len(groups), settings.get("title", result.root.get("name")))
    for ax, (panel_value, pts) in zip(axes, sorted(groups.items(), key=lambda kv: str(kv[0]))):
        series_keys = varying(pts, IGNORED | {panels})
        by_series = defaultdict(list)
        for p in pts:
            by_series[label_of(p, series_keys)].append(p)
        for k, (label, sp) in enumerate(sorted(by_series.items())):
            sp.sort(key=lambda p: p.params["collective.N"])
            color = f"C{k % 10}"
            n = [p.params["collective.N"] for p in sp]
            ms = 1e3
            ax.plot(n, values(sp, "mean", ms), "o", ms=3, color=color, label=label or "estimate")
            band(ax, n, values(sp, "ci_low", ms), values(sp, "ci_high", ms), color)
            # References the model gives (a time-based tree has no exact mean or theorems).
            exact = values(sp, "exact_mean", ms)
            if any(v is not None for v in exact):
                ax.plot(n, exact, "-", lw=1, color=color)
            lower = [p.value("theorem1_lower") or p.value("bound_lower") for p in sp]
            upper = [p.value("theorem1_upper") or p.value("bound_upper") for p in sp]
            if all(v is not None for v in lower + upper):
                ax.plot(n, [v * ms for v in lower], ":", lw=1, color=color)
                ax.plot(n, [v * ms for v in upper], "--", lw=0.8, color=color)
            noiseless = values(sp, "noiseless_time", ms)
            if not any(v is not None for v in exact) and all(v is not None for v in noiseless):
                ax.plot(n, noiseless, "-", lw=1, color=color)
        ax.set_xscale("log")
        ax.set_xlabel("N (ranks)")
        ax.set_ylabel("mean phase time (ms)")
        if panels:
            v = panel_value
            ax.set_title(f"{panels.split('.')[-1]} = {v:.3g}" if isinstance(v, float) else str(v))
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, title="dots: estimate (band: CI); line: exact;\n"
                  "dotted/dashed: Theorem 1 lower/upper", title_fontsize=6)
    for ax in spare:
        ax.axis("off")
    fig.tight_layout()
    figs.append(save(fig, out, result, "phase-time"))
    return figs


CASES = [("quiet", "C2"), ("conventional", "C3"), ("redundant", "C0")]


def plot_cycles(result, settings, out):
    points = result.points
    panels = settings.get("panels")
    groups = group(points, panels)
    title = settings.get("title", result.root.get("name"))
    figs = []
    # Figure 8: T_M against N.
    if len({p.params["collective.N"] for p in points}) > 1:
        fig, axes, spare = panel_axes(len(groups), title)
        for ax, (panel_value, pts) in zip(axes, sorted(groups.items(), key=lambda kv: str(kv[0]))):
            pts = sorted(pts, key=lambda p: p.params["collective.N"])
            n = [p.params["collective.N"] for p in pts]
            for case, color in CASES:
                if pts[0].value(f"{case}_mean") is None:
                    continue
                ax.plot(n, values(pts, f"{case}_mean", 1e3), "o-", ms=3, color=color, label=case)
                band(ax, n, values(pts, f"{case}_ci_low", 1e3), values(pts, f"{case}_ci_high", 1e3),
                     color)
            ax.plot(n, values(pts, "noiseless_closed_form", 1e3), "k:", lw=1, label="noiseless")
            ax.set_xscale("log", base=2)
            ax.set_xlabel("N (ranks)")
            ax.set_ylabel(f"T_M, {pts[0].params.get('collective.cycles')} cycles (ms)")
            ax.set_title(label_of(pts[0], varying(points, IGNORED)))
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=7)
        for ax in spare:
            ax.axis("off")
        fig.tight_layout()
        figs.append(save(fig, out, result, "run-time"))
    # Figure 9: overhead against cycles at the largest N of each panel.
    fig, axes, spare = panel_axes(len(groups), title + " (overhead at the largest N)")
    for ax, (panel_value, pts) in zip(axes, sorted(groups.items(), key=lambda kv: str(kv[0]))):
        p = max(pts, key=lambda q: q.params["collective.N"])
        cycles = p.value("cycle")
        per_cycle = p.value("noiseless_closed_form") / len(cycles)
        for case, color in CASES:
            t = p.value(f"{case}_T")
            if t is None:
                continue
            over = [(v - c * per_cycle) * 1e6 for v, c in zip(t, cycles)]
            lo = [None if v is None else (v - c * per_cycle) * 1e6
                  for v, c in zip(p.value(f"{case}_T_ci_low"), cycles)]
            hi = [None if v is None else (v - c * per_cycle) * 1e6
                  for v, c in zip(p.value(f"{case}_T_ci_high"), cycles)]
            ax.plot(cycles, over, "o-", ms=3, color=color, label=case)
            band(ax, cycles, lo, hi, color)
        ratio = p.value("recovery_ratio")
        ax.set_title(f"N = {p.params.get('collective.N_string')}, {label_of(p, varying(points, IGNORED))}"
                     + (f"\nrecovery ratio {ratio:.3f} [{p.value('recovery_ratio_ci_low'):.3f}, "
                        f"{p.value('recovery_ratio_ci_high'):.3f}]" if ratio is not None else ""),
                     fontsize=8)
        ax.set_xlabel("cycles c")
        ax.set_ylabel("T_c - c x noiseless cycle (us)")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=7)
    for ax in spare:
        ax.axis("off")
    fig.tight_layout()
    figs.append(save(fig, out, result, "overhead"))
    return figs


def plot_network(result, settings, out):
    points = result.points
    x_key = settings.get("x") or ("network.rho" if len({p.value("network.rho") for p in points}) > 1
                                  else "endpoints")
    series_keys = varying(points, IGNORED | {x_key, "network.topology"}) + (
        ["network.topology"] if x_key != "endpoints" else [])
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    by_series = defaultdict(list)
    for p in points:
        label = label_of(p, series_keys)
        if x_key == "endpoints":  # sizes on the axis: one curve per family of networks
            label = ", ".join(x for x in [p.value("topology_family"), label] if x)
        by_series[label].append(p)
    for k, (label, sp) in enumerate(sorted(by_series.items())):
        sp.sort(key=lambda p: p.value(x_key))
        x = [p.value(x_key) for p in sp]
        color = f"C{k % 10}"
        ax.plot(x, values(sp, "slowdown_mean"), "o-", ms=3, color=color, label=label or "slowdown")
        band(ax, x, values(sp, "slowdown_ci_low"), values(sp, "slowdown_ci_high"), color)
    if x_key == "endpoints":
        ax.set_xscale("log")
    ax.set_xlabel(x_key)
    ax.set_ylabel("slowdown (cost with / without background traffic)")
    return [save_single(fig, ax, out, result, settings, "slowdown", legend_size=7)]


def plot_efficiency_surface(result, settings, out):
    """One panel per curve: E against W for each m (Bosque et al.'s Figs. 2-3)."""
    points = [p for p in result.points if p.value("surface_W")]
    if not points:
        return []
    fig, axes, spare = panel_axes(len(points), settings.get("title", result.root.get("name")))
    for ax in spare:
        ax.axis("off")
    for ax, p in zip(axes, points):
        by_m = defaultdict(list)
        for m, w, e in zip(p.value("surface_m"), p.value("surface_W"), p.value("surface_E")):
            if e is not None:
                by_m[m].append((w, e))
        for k, (m, pairs) in enumerate(sorted(by_m.items())):
            ax.plot([w for w, _ in pairs], [e for _, e in pairs], "o-", ms=3, lw=1,
                    color=f"C{k % 10}", label=f"m={m:g}")
        ax.axhline(p.value("efficiency_target"), color="k", lw=0.7, ls=":")
        ax.set_xscale("log")
        ax.set_ylim(0, 1.02)
        ax.set_xlabel("W (work units)")
        ax.set_ylabel("efficiency")
        ax.set_title(p.value("curve"), fontsize=7)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=6)
    fig.tight_layout()
    return [save(fig, out, result, "efficiency")]


def plot_isoefficiency(result, settings, out):
    if settings.get("x") == "W":
        return plot_efficiency_surface(result, settings, out)
    fig, ax = plt.subplots(figsize=(6.5, 4.8))
    for k, p in enumerate(result.points):
        m = p.value("m")
        w = p.value("W")
        if not m or not w:
            continue
        color = f"C{k % 10}"
        label = p.value("curve") or label_of(p, varying(result.points, IGNORED))
        pairs = [(a, b) for a, b in zip(m, w) if b is not None]
        ax.plot([a for a, _ in pairs], [b for _, b in pairs], "o", ms=3, color=color, label=label)
        band(ax, m, p.value("W_ci_low") or [], p.value("W_ci_high") or [], color)
        exact = p.value("W_exact")
        if exact:
            ax.plot(m, exact, "-", lw=1, color=color)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("m (nodes)")
    ax.set_ylabel("W keeping the target efficiency (work units)")
    return [save_single(fig, ax, out, result, settings, "isoefficiency", legend_size=6)]


def save_single(fig, ax, out, result, settings, what, legend_size):
    """Title, grid and legend of a one-panel figure, then save it."""
    ax.set_title(settings.get("title", result.root.get("name")))
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=legend_size)
    fig.tight_layout()
    return save(fig, out, result, what)


def save(fig, out, result, what):
    path = os.path.join(out, f"{result.root.get('name', 'result')}-{what}.png")
    fig.savefig(path, dpi=130)
    plt.close(fig)
    return path


FIGURE_OF_KIND = {"tree_barrier": "curve", "butterfly": "cycles", "dissemination": "cycles"}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("result", help="a collnoise result file (.h5)")
    parser.add_argument("--out", default=".", help="folder for the PNG files")
    args = parser.parse_args(argv)
    try:
        result = cr.load(args.result)
    except (OSError, cr.FormatError) as e:
        print(f"plot_result: {e}", file=sys.stderr)
        return 2
    settings = result.run_file().get("plot", {})
    os.makedirs(args.out, exist_ok=True)
    # The figure each model asks for (its plot hints, stored with every point); files written
    # before models gave hints name their kind instead.
    figures = {p.plot.get("figure") or FIGURE_OF_KIND.get(p.kind, p.kind) for p in result.points}
    plotters = {"curve": plot_tree, "cycles": plot_cycles, "network": plot_network,
                "isoefficiency": plot_isoefficiency}
    kind = figures.pop() if len(figures) == 1 else result.kind
    if kind not in plotters:
        print(f"plot_result: no figure for points of kind '{kind}'", file=sys.stderr)
        return 2
    for path in plotters[kind](result, settings, args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
