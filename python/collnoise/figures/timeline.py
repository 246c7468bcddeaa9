"""The timeline of one sample as a Gantt chart, read from its Chrome trace-event JSON file (written
by outputs/timeline_chrome.cpp; the format: docs/timelines.md).

    from collnoise.figures.timeline import read_timeline, timeline_figure, draw_timeline
    spans, messages = read_timeline("sample.json")   # pandas DataFrames
    spans.attrs["timeline"]                          # title, ranks, completion_ns, ...
    draw_timeline("sample.json", "sample.png")       # the figure, written whole

    python3 -m collnoise.figures.timeline SAMPLE.json OUT.png|pdf|svg

Not a figure of a result's points: it draws one replayed sample, so it has no `draw(result,
rows)` and is not among the figures a model names (collnoise.figures.registered()).

Each chosen rank is a band of rows, one per lane (CPU 0, send NIC 0, receive NIC 0, ...); each span
a bar coloured by its kind, noise grey and hatched over the operation it delays; each message a
thin line from the sender's send NIC (or CPU) at its send to the receiver's receive NIC (or CPU)
at its arrival, and a triangle where its other end is a rank not shown. The critical path is
drawn over it in red: a line along each critical span, critical messages thick. A dashed line
marks the completion; a red note says when the critical path passes through ranks not shown.
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from .common import display_unit, wrap
from .output import extra_figure_main, format_of, save_figure

__all__ = ["read_timeline", "timeline_figure", "draw_timeline", "KIND_STYLE", "NOT_SHOWN_NOTE"]

NOT_SHOWN_NOTE = "the critical path passes through ranks not shown"
# Colour and hatch of each span kind (outputs/timeline_chrome.cpp names them).
KIND_STYLE = {
    "calc": ("#4c78a8", None),
    "send overhead": ("#f58518", None),
    "receive overhead": ("#54a24b", None),
    "send gap": ("#e8b77d", None),
    "receive gap": ("#9ecf95", None),
    "noise": ("#9d9d9d", "////"),
    "rendezvous wait": ("#eeca3b", ".."),
}
CRITICAL = "#d62728"
LANES = ("CPU", "send NIC", "receive NIC")

SPAN_COLUMNS = ["rank", "lane", "index", "kind", "op", "critical", "start_ns", "end_ns"]
MESSAGE_COLUMNS = ["from", "to", "send_op", "bytes", "tag", "sent_ns", "arrived_ns", "critical",
                   "from_shown", "to_shown"]


def read_timeline(path: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The spans (rank, lane, index, kind, op, critical, start_ns, end_ns) and the messages (from,
    to, send_op, bytes, tag, sent_ns, arrived_ns, critical, from_shown, to_shown) of a timeline's
    Chrome trace JSON file, times in nanoseconds. Both carry the file's "otherData" (title,
    ranks, ranks_total, window_start_ns, window_end_ns, completion_ns, last_rank,
    path_leaves_chosen, note) as .attrs["timeline"]. ValueError if the file is not one."""
    with open(path, encoding="utf-8") as f:
        trace = json.load(f)
    info = trace.get("otherData", {}) if isinstance(trace, dict) else {}
    if info.get("format") != "collnoise timeline":
        raise ValueError(f"{path}: not a collnoise timeline (Chrome trace JSON written by "
                         f"collnoise; its otherData.format is 'collnoise timeline')")
    shown = set(info.get("ranks", []))
    spans, messages = [], []
    for event in trace.get("traceEvents", []):
        args = event.get("args", {})
        if event.get("ph") == "X":
            spans.append([args[c] for c in SPAN_COLUMNS])
        elif event.get("ph") in ("s", "i") and "sent_ns" in args:  # a flow's start, or a mark
            messages.append([args[c] for c in MESSAGE_COLUMNS[:-2]] +
                            [args["from"] in shown, args["to"] in shown])
    spans = pd.DataFrame(spans, columns=SPAN_COLUMNS)
    messages = pd.DataFrame(messages, columns=MESSAGE_COLUMNS)
    for frame in (spans, messages):
        frame.attrs["timeline"] = dict(info)
    return spans, messages


def _rows(spans: pd.DataFrame, ranks: list[int]) -> dict[tuple[int, str, int], float]:
    """The y position of every (rank, lane, index): ranks top to bottom, lanes in LANES order,
    each rank's CPU 0 always there."""
    lanes = {(r, "CPU", 0) for r in ranks}
    lanes |= set(zip(spans["rank"], spans["lane"], spans["index"]))
    order = sorted(lanes, key=lambda k: (ranks.index(k[0]) if k[0] in ranks else len(ranks),
                                         LANES.index(k[1]) if k[1] in LANES else 9, k[2]))
    return {key: float(y) for y, key in enumerate(order)}


def _message_row(rows, rank: int, lane: str) -> float | None:
    for key in ((rank, lane, 0), (rank, "CPU", 0)):
        if key in rows:
            return rows[key]
    return None


def _draw_spans(ax, spans: pd.DataFrame, rows, scale: float) -> None:
    for kind, (color, hatch) in KIND_STYLE.items():
        of_kind = spans[spans["kind"] == kind]
        # Noise lies over the operation it delays: drawn after it, a little thinner.
        height, z = (0.5, 3) if kind == "noise" else (0.7, 2)
        for (rank, lane, index), group in of_kind.groupby(["rank", "lane", "index"]):
            y = rows[(rank, lane, index)]
            ranges = [(s * scale, (e - s) * scale) for s, e in zip(group["start_ns"],
                                                                   group["end_ns"])]
            ax.broken_barh(ranges, (y - height / 2, height), facecolors=color, hatch=hatch,
                           edgecolor="#555555" if hatch else color, linewidth=0.3, zorder=z)


def _draw_messages(ax, messages: pd.DataFrame, rows, scale: float) -> None:
    for m in messages.to_dict("records"):  # "from" is a keyword: no itertuples
        critical = bool(m["critical"])
        color, width, z = (CRITICAL, 1.8, 6) if critical else ("#333333", 0.6, 4)
        y_from = _message_row(rows, m["from"], "send NIC") if m["from_shown"] else None
        y_to = _message_row(rows, m["to"], "receive NIC") if m["to_shown"] else None
        x_from, x_to = m["sent_ns"] * scale, m["arrived_ns"] * scale
        if y_from is not None and y_to is not None:
            ax.plot([x_from, x_to], [y_from, y_to], color=color, lw=width,
                    alpha=0.9 if critical else 0.45, zorder=z)
        elif y_from is not None:  # to a rank not shown
            ax.plot([x_from], [y_from], marker=">", color=color, ms=5, zorder=z)
        elif y_to is not None:  # from a rank not shown
            ax.plot([x_to], [y_to], marker="<", color=color, ms=5, zorder=z)


def _draw_critical(ax, spans: pd.DataFrame, rows, scale: float) -> None:
    critical = spans[spans["critical"].astype(bool)]
    if critical.empty:
        return
    ys = [rows[k] for k in zip(critical["rank"], critical["lane"], critical["index"])]
    ax.hlines(ys, critical["start_ns"] * scale, critical["end_ns"] * scale, colors=CRITICAL,
              lw=2.2, zorder=5)


def _legend(ax, completion_label: str) -> None:
    handles = [Patch(facecolor=color, hatch=hatch, edgecolor="#555555" if hatch else color,
                     label=kind) for kind, (color, hatch) in KIND_STYLE.items()]
    handles += [Line2D([], [], color="#333333", lw=0.6, alpha=0.6, label="message"),
                Line2D([], [], color="#333333", marker=">", ls="none",
                       label="message to/from a rank not shown"),
                Line2D([], [], color=CRITICAL, lw=2.2, label="critical path"),
                Line2D([], [], color="k", ls="--", lw=1, label=completion_label)]
    ax.legend(handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.005, 1.0))


def timeline_figure(json_path: str) -> Figure:
    """The Gantt chart of a timeline's Chrome trace JSON file (module docstring)."""
    spans, messages = read_timeline(json_path)
    info = spans.attrs["timeline"]
    ranks = [int(r) for r in info.get("ranks", [])]
    rows = _rows(spans, ranks)
    ends = np.concatenate([spans["end_ns"].to_numpy(float), messages["arrived_ns"].to_numpy(float),
                           [float(info.get("completion_ns", 0.0))]])
    start = float(info.get("window_start_ns") or 0.0)
    end = float(info.get("window_end_ns") or 1.02 * ends.max(initial=1.0))
    factor, unit = display_unit("seconds", [max(end, 1.0) * 1e-9])
    scale = 1e-9 * factor  # nanoseconds -> the unit drawn

    many = len(rows) > 48  # beyond this, a label per rank instead of one per lane
    height = min(60.0, 1.6 + (0.11 if many else 0.22) * max(len(rows), 4))
    fig = Figure(figsize=(12.0, height), layout="constrained")
    ax = fig.subplots()
    _draw_spans(ax, spans, rows, scale)
    _draw_critical(ax, spans, rows, scale)
    _draw_messages(ax, messages, rows, scale)
    completion = float(info.get("completion_ns", 0.0))
    ax.axvline(completion * scale, color="k", ls="--", lw=1, zorder=7)

    if many:
        centres = {r: np.mean([y for k, y in rows.items() if k[0] == r]) for r in ranks}
        ax.set_yticks(list(centres.values()), [f"rank {r}" for r in centres], fontsize=6)
    else:
        ax.set_yticks(list(rows.values()), [f"rank {r}  {lane} {i}" for r, lane, i in rows],
                      fontsize=7)
    for r in ranks[1:]:  # a line between ranks
        ax.axhline(min(y for k, y in rows.items() if k[0] == r) - 0.5, color="#bbbbbb", lw=0.5)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(start * scale, end * scale)
    ax.set_xlabel(f"time [{unit}]")
    ax.grid(True, axis="x", alpha=0.3)
    _legend(ax, f"completion: {completion * scale:.4g} {unit}, rank {info.get('last_rank')}")
    title = info.get("title") or os.path.basename(json_path)
    fig.suptitle(wrap(title, 11.5, 11), fontsize=11)
    if info.get("path_leaves_chosen"):
        ax.set_title(NOT_SHOWN_NOTE, color=CRITICAL, fontsize=9)
    return fig


def draw_timeline(json_path: str, out_path: str, dpi: int = 130) -> str:
    """Draws a timeline's Chrome trace JSON file to `out_path` (PNG, PDF or SVG by its
    extension), written to a temporary name beside it and renamed; returns `out_path`."""
    fmt = format_of(out_path)
    save_figure(timeline_figure(json_path), out_path, fmt, dpi)
    return out_path


def main(argv: list[str] | None = None) -> int:
    return extra_figure_main(sys.argv[1:] if argv is None else argv, "timeline", draw_timeline, "SAMPLE.json")

if __name__ == "__main__":
    import matplotlib

    matplotlib.use("Agg")
    sys.exit(main())
