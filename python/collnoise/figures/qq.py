"""The QQ figure of a comparison of simulated with measured times, read from the JSON that
`collnoise compare ... --json` prints (docs/compare.md; `collnoise compare ... --figure qq.png`
draws it through this module).

    from collnoise.figures.qq import read_comparison, qq_figure, draw_qq
    comparison = read_comparison("compare.json")   # the JSON as a dict
    fig = qq_figure(comparison)                    # a matplotlib Figure
    draw_qq("compare.json", "qq.png")              # the figure, written whole

    python3 -m collnoise.figures.qq COMPARE.json OUT.png|pdf|svg

Each point is one probability's quantile of both samples (simulated across, measured up); on the
diagonal the two laws agree, above it the measurement is slower. The medians and p99s are
marked, the title gives the two distances with their intervals.

Not a figure of a result's points: it defines no `draw(result, rows)`, so no model can name it.
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np
from matplotlib.figure import Figure

from .common import display_unit, wrap
from .output import extra_figure_main, format_of, save_figure

__all__ = ["read_comparison", "qq_figure", "draw_qq"]

FORMAT = "collnoise comparison"


def read_comparison(path: str) -> dict:
    """The comparison in a JSON file written by `collnoise compare --json`. ValueError if the
    file is not one."""
    with open(path, encoding="utf-8") as f:
        comparison = json.load(f)
    if not isinstance(comparison, dict) or comparison.get("format") != FORMAT:
        raise ValueError(f"{path}: not the JSON of collnoise compare (its format is '{FORMAT}')")
    return comparison


def _interval(entry: dict, scale: float = 1.0) -> str:
    low, high = entry.get("ci_low"), entry.get("ci_high")
    shown = [("n/a" if v is None else f"{v * scale:.3g}") for v in (low, high)]
    return f"[{shown[0]}, {shown[1]}]"


def qq_figure(comparison: dict) -> Figure:
    """The QQ plot of a comparison (module docstring)."""
    qq = comparison["qq"]
    simulated = np.asarray(qq["simulated"], dtype=float)
    measured = np.asarray(qq["measured"], dtype=float)
    factor, unit = display_unit("seconds", np.concatenate([simulated, measured]))
    fig = Figure(figsize=(6.4, 6.0), layout="constrained")
    ax = fig.subplots()
    ax.plot(simulated * factor, measured * factor, "o", ms=3, color="#4c78a8",
            label="quantiles (simulated, measured)")
    everything = np.concatenate([simulated, measured]) * factor
    low, high = float(everything.min()), float(everything.max())
    ax.plot([low, high], [low, high], "--", color="#888888", lw=1, label="equal laws")
    for q in comparison["quantiles"]:
        if q["name"] in ("median", "p99") and q["simulated"]["value"] is not None:
            ax.plot(q["simulated"]["value"] * factor, q["measured"]["value"] * factor, "s",
                    ms=7, mfc="none", color="#d62728")
            ax.annotate(q["name"], (q["simulated"]["value"] * factor,
                                    q["measured"]["value"] * factor),
                        textcoords="offset points", xytext=(6, -10), fontsize=8, color="#d62728")
    if low > 0 and high / low > 100:  # times over orders of magnitude
        ax.set_xscale("log")
        ax.set_yscale("log")
    ax.set_xlabel(f"simulated [{unit}]: {comparison['simulated']['what']}"[:110])
    ax.set_ylabel(f"measured [{unit}]")
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left", fontsize=8)
    ks, w1 = comparison["ks_distance"], comparison["wasserstein1"]
    title = (f"{os.path.basename(comparison['result'])} point {comparison['point']} vs "
             f"{os.path.basename(comparison['measured_file'])} (--mode {comparison['mode']})\n"
             f"KS {ks['value']:.3g} {_interval(ks)}, W1 {w1['value'] * factor:.3g} {unit} "
             f"{_interval(w1, factor)} at {comparison['confidence']:g}")
    fig.suptitle(wrap(title, 6.2, 10), fontsize=10)
    return fig


def draw_qq(json_path: str, out_path: str, dpi: int = 130) -> str:
    """Draws the comparison in `json_path` to `out_path` (PNG, PDF or SVG by its extension),
    written to a temporary name beside it and renamed; returns `out_path`. FigureNotWritten
    (collnoise.figures.output) naming `out_path` when it cannot be written."""
    fmt = format_of(out_path)
    save_figure(qq_figure(read_comparison(json_path)), out_path, fmt, dpi)
    return out_path


def main(argv: list[str] | None = None) -> int:
    return extra_figure_main(sys.argv[1:] if argv is None else argv, "qq", draw_qq, "COMPARE.json")

if __name__ == "__main__":
    import matplotlib

    matplotlib.use("Agg")
    sys.exit(main())
