"""The timeline figure (python/collnoise/figures/timeline.py), run by ctest:

    /usr/bin/python3 -m pytest tests/python/test_timeline_figure.py --work-dir WORKDIR

Reads tests/fixtures/data/timeline-sample.json, the C++ writer's output for the hand-made
timeline of tests/outputs/test_timeline_files.cpp (that test keeps the file equal to what the
writer writes), into DataFrames with the expected rows, and draws it to a PNG with the Agg backend; then a timeline of
64 ranks written here in the same format, drawn to a figure of bounded height with one label per
rank. The figure is not among the figures the models name.
"""

from __future__ import annotations

import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "python"))

import matplotlib  # noqa: E402

matplotlib.use("Agg")

from collnoise import figures  # noqa: E402
from collnoise.figures import timeline  # noqa: E402

SAMPLE = os.path.join(HERE, "..", "fixtures", "data", "timeline-sample.json")



def check_sample(workdir: str) -> None:
    spans, messages = timeline.read_timeline(SAMPLE)
    assert len(spans) == 9, f"9 spans, read {len(spans)}"
    assert list(spans.columns) == timeline.SPAN_COLUMNS, f"span columns {list(spans.columns)}"
    assert int(spans["critical"].sum()) == 5, "5 critical spans"
    calc = spans[(spans["rank"] == 0) & (spans["kind"] == "calc")]
    assert (len(calc) == 1 and calc["start_ns"].iloc[0] == 1500.0 and calc["end_ns"].iloc[0] ==
          4000.0), "rank 0's calc from 1500 to 4000 ns"
    assert set(spans[spans["rank"] == 1]["lane"]) == {"CPU", "receive NIC"}, "rank 1's lanes"
    assert len(messages) == 3, f"3 messages, read {len(messages)}"
    both = messages[messages["from_shown"] & messages["to_shown"]]
    assert (len(both) == 1 and int(both["bytes"].iloc[0]) == 8 and bool(both["critical"].iloc[0])
          and both["sent_ns"].iloc[0] == 4500.0 and both["arrived_ns"].iloc[0] == 7000.0), (
        "the critical message from rank 0 to rank 1")
    assert sorted(messages[~messages["to_shown"]]["to"]) == [3], "the message to rank 3"
    assert sorted(messages[~messages["from_shown"]]["from"]) == [3], "the message from rank 3"
    info = spans.attrs["timeline"]
    assert info["completion_ns"] == 7500.0 and info["last_rank"] == 1, "completion"
    assert info["path_leaves_chosen"] is True, "path_leaves_chosen"

    out = os.path.join(workdir, "sample.png")
    assert timeline.draw_timeline(SAMPLE, out) == out, "draw_timeline returns the path"
    with open(out, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n", "a PNG file"
    assert not [n for n in os.listdir(workdir) if n.endswith(".tmp")], "no temporary left"
    fig = timeline.timeline_figure(SAMPLE)
    ax = fig.axes[0]
    assert ax.get_title() == timeline.NOT_SHOWN_NOTE, "the note on the critical path"
    assert len(ax.get_yticks()) == 6, "a row per lane: 6"
    red = [line for line in ax.get_lines() if line.get_color() == timeline.CRITICAL]
    assert len(red) == 1, f"one critical message line, drawn {len(red)}"


def write_wide(path: str, ranks: int) -> None:
    """A ring of `ranks` ranks in the writer's format: each computes, sends to the next."""
    events, spans = [], []
    for r in range(ranks):
        events.append({"ph": "M", "name": "process_name", "pid": r, "tid": 0,
                       "args": {"name": f"rank {r}"}})
        for lane, tid, kind, start, end in (("CPU", 0, "calc", 0, 1000 + 10 * r),
                                            ("CPU", 0, "noise", 200, 300),
                                            ("send NIC", 256, "send gap", 1000 + 10 * r,
                                             1500 + 10 * r)):
            args = {"rank": r, "lane": lane, "index": 0, "kind": kind, "op": 0,
                    "critical": r == ranks - 1, "start_ns": float(start), "end_ns": float(end)}
            spans.append(args)
            events.append({"ph": "X", "name": kind, "cat": "span", "pid": r, "tid": tid,
                           "ts": start / 1e3, "dur": (end - start) / 1e3, "args": args})
        events.append({"ph": "s", "name": "message", "cat": "message", "id": r, "pid": r,
                       "tid": 256, "ts": (1000 + 10 * r) / 1e3,
                       "args": {"from": r, "to": (r + 1) % ranks, "send_op": 1, "bytes": 8,
                                "tag": 0, "sent_ns": 1000.0 + 10 * r,
                                "arrived_ns": 2000.0 + 10 * r, "critical": False}})
    info = {"format": "collnoise timeline", "title": f"a ring of {ranks} ranks",
            "ranks_total": ranks, "ranks": list(range(ranks)), "window_start_ns": 0.0,
            "window_end_ns": None, "completion_ns": 2700.0, "last_rank": ranks - 1,
            "path_leaves_chosen": False}
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"displayTimeUnit": "ns", "otherData": info, "traceEvents": events}, f)


def check_wide(workdir: str) -> None:
    path = os.path.join(workdir, "ring64.json")
    write_wide(path, 64)
    spans, messages = timeline.read_timeline(path)
    assert len(spans) == 3 * 64 and len(messages) == 64, "64 ranks' spans and messages"
    fig = timeline.timeline_figure(path)
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()][:2] == ["rank 0", "rank 1"], (
        "one label per rank beyond 48 rows")
    assert fig.get_figheight() <= 60.0, f"height {fig.get_figheight()} inches"
    assert ax.get_title() == "", "no note when the critical path stays on the chosen ranks"
    out = os.path.join(workdir, "ring64.pdf")
    timeline.draw_timeline(path, out)
    assert os.path.getsize(out) > 0, "the 64-rank figure written"


def check_not_a_model_figure(workdir: str) -> None:
    assert "timeline" not in figures.registered(), "timeline is not a model figure"
    other = os.path.join(workdir, "other.json")
    with open(other, "w", encoding="utf-8") as f:
        json.dump({"traceEvents": []}, f)
    try:
        timeline.read_timeline(other)
        assert False, "a trace not written by collnoise is refused"
    except ValueError as error:
        assert "not a collnoise timeline" in str(error), f"the refusal: {error}"


def test_sample(work):
    check_sample(work)


def test_wide(work):
    check_wide(work)


def test_not_a_model_figure(work):
    check_not_a_model_figure(work)
