"""User bounds in Python (run by ctest):

    /usr/bin/python3 -m pytest tests/python/test_bounds_figure.py --collnoise-binary BINARY \
        --work-dir WORKDIR

Runs a small tree barrier (seed 3, 6 points) whose run file writes six [[bound]] tables, chosen
so that every verdict appears: one that holds everywhere, one violated everywhere, an exact value
with tolerance 0 (undecided), a p90 bound (holds), one of a field that is null for exponential
noise (no verdict) and one that holds at the small points and is violated at the large. Checks
collnoise.bounds: one row per point and bound whose values are the summary's fields as `collnoise
summary --json` prints them, the parameters that vary, an empty frame for a result without
bounds. Then the bounds figure: one panel per bound in the run file's order, titled with its name
and claim, its estimate and value lines as the frame holds them, each point's marker that of its
verdict and the legend listing exactly the verdicts present; drawn by collnoise.figures.draw and
`collnoise plot` beside the phase-time figure (<name>-bounds.png), and not for a result without
bounds; a single point drawn at a position.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SOURCE, "python"))

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import numpy as np  # noqa: E402

import collnoise  # noqa: E402
from collnoise import figures  # noqa: E402
from collnoise.figures import bounds as figure  # noqa: E402

HEAD = """name = "{name}"
seed = 3
samples = 2000
[collective]
kind = "tree_barrier"
w = 1.0e-5
tau = 1.0e-6
[noise]
law = "exponential"
"""
SWEEP = """[sweep]
levels = [1, 2, 4]
"noise.f" = [0.01, 0.1]
"""
# One point: nothing varies.
ONE_POINT = HEAD.replace("tau = 1.0e-6\n", "tau = 1.0e-6\nlevels = 3\n").replace(
    'law = "exponential"\n', 'law = "exponential"\nf = 0.1\n')
BOUNDS = """
[[bound]]
name = "above the work"
relation = ">="
expression = "collective_w"

[[bound]]
name = "below the work"
relation = "<="
expression = "collective_w"

[[bound]]
name = "the exact mean"
relation = "=="
expression = "exact_mean"

[[bound]]
name = "p90 within twice its exact value"
statistic = "p90"
relation = "<="
expression = "2 * p90_exact"

[[bound]]
name = "Theorem 3"
relation = ">="
expression = "theorem3_lower"

[[bound]]
name = "under 12 us"
relation = "<="
expression = "1.2e-5"
"""
NAMES = ["above the work", "below the work", "the exact mean",
         "p90 within twice its exact value", "Theorem 3", "under 12 us"]
# The verdicts of each bound at the six points (levels 1, 2, 4 times f = 0.01, 0.1): the means
# run from 10.1 us to 19.1 us, so 12 us lies between the points of 3 and 7 ranks.
VERDICTS = [["holds"] * 6, ["violated"] * 6, ["undecided"] * 6, ["holds"] * 6, [None] * 6,
            ["holds", "holds", "violated", "violated", "violated", "violated"]]
COLUMNS = ["point", "collective.N", "noise.f", "bound", "name", "statistic", "relation", "value",
           "estimate", "ci_low", "ci_high", "ci_method", "level", "level_method", "verdict",
           "verdict_adjusted", "distance"]
FIELDS = COLUMNS[4:]




def run(binary: str, name: str, text: str) -> str:
    with open(f"{name}.toml", "w") as f:
        f.write(text.format(name=name))
    subprocess.run([binary, "run", f"{name}.toml", "--out", f"{name}.h5", "--force", "--quiet",
                    "--no-checkpoint", "--threads", "1"], check=True, stdout=subprocess.DEVNULL)
    return os.path.abspath(f"{name}.h5")


def same(got, want) -> bool:
    """A frame's value against the JSON's: null is NaN, numbers bit for bit."""
    if want is None:
        return isinstance(got, float) and math.isnan(got)
    if isinstance(want, float):
        return isinstance(got, float) and got == want
    return got == want


def check_frame(binary: str, path: str) -> None:
    result = collnoise.load(path)
    frame = collnoise.bounds(result)
    assert list(frame.columns) == COLUMNS, f"columns {list(frame.columns)}"
    assert len(frame) == 6 * 6, f"{len(frame)} rows, not 6 points x 6 bounds"
    assert list(frame["point"]) == [p for p in range(6) for _ in range(6)], "rows by point"
    assert list(frame["bound"]) == list(range(1, 7)) * 6, "bounds in the run file's order"
    assert list(frame["name"]) == NAMES * 6, "the bounds' names"
    assert (list(frame["collective.N"][::6]) == [1, 1, 3, 3, 15, 15] and
          list(frame["noise.f"][::6]) == [0.01, 0.1] * 3), "the varying parameters"
    summary = json.loads(subprocess.run([binary, "summary", path, "--json"], check=True,
                                        capture_output=True, text=True).stdout)
    for _, row in frame.iterrows():
        point = summary["points"][row["point"]]
        for field in FIELDS:
            want = point[f"bound_{row['bound']}_{field}"]
            assert same(row[field], want), (
                f"point {row['point']}, bound {row['bound']}: {field} {row[field]!r}, the "
                  f"summary's {want!r}")
    for i, verdicts in enumerate(VERDICTS, start=1):
        got = [v if isinstance(v, str) else None for v in frame[frame["bound"] == i]["verdict"]]
        assert got == verdicts, f"bound {i}: verdicts {got}, not {verdicts}"
    p90 = frame[frame["bound"] == 4]
    assert (list(p90["statistic"]) == ["p90"] * 6 and
          list(p90["estimate"]) == list(result.points["p90"])), (
        "the p90 bound is held against the points' p90")
    assert collnoise.bounds(path).equals(frame) and result.bounds().equals(frame), (
        "bounds(path) and Result.bounds() give the same frame")


def check_without(binary: str, path: str) -> None:
    frame = collnoise.bounds(path)
    assert frame.empty and list(frame.columns) == ["point", "bound", *FIELDS], (
        f"a result without bounds: an empty frame with its columns {list(frame.columns)}")
    result = collnoise.load(path)
    assert figure.bounds_figure(result) is None, "no bounds figure without bounds"
    assert [s for s, _ in figures.draw(result)] == ["phase-time"], (
        "without bounds, the phase-time figure alone")
    done = subprocess.run([binary, "plot", path, "--out", "plotted"], capture_output=True,
                          text=True)
    assert (done.returncode == 0 and
          done.stdout.split() == [os.path.join("plotted", "tiny-unbounded-phase-time.png")] and
          not os.path.exists(os.path.join("plotted", "tiny-unbounded-bounds.png"))), (
        f"collnoise plot without bounds: {done.returncode} {done.stdout!r} {done.stderr!r}")
    done = subprocess.run([sys.executable, "-m", "collnoise.figures.bounds", path, "x.png"],
                          capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": os.path.join(SOURCE, "python")})
    lines = done.stderr.strip().splitlines()
    assert (done.returncode == 2 and len(lines) == 1 and "no point holds a bound" in lines[0] and
          not os.path.exists("x.png")), f"no bounds to draw: {done.returncode} {done.stderr!r}"


def legend_verdicts(ax) -> dict[str, int]:
    """The verdicts the panel's legend lists, with their counts ("holds: 2 points")."""
    out = {}
    for text in (t.get_text() for t in ax.get_legend().get_texts()):
        word, _, count = text.partition(": ")
        if word in ("holds", "violated", "undecided", figure.NO_VERDICT):
            out[word] = int(count.split()[0])
    return out


def check_figure(binary: str, path: str) -> None:
    result = collnoise.load(path)
    frame = collnoise.bounds(result)
    fig = figure.bounds_figure(result)
    panels = [ax for ax in fig.axes if ax.axison]
    assert len(panels) == 6 and [ax.collnoise_bound for ax in panels] == list(range(1, 7)), (
        f"{len(panels)} panels, not one per bound")
    for ax, name in zip(panels, NAMES):
        assert ax.get_title().startswith(name + "\n"), f"panel title {ax.get_title()!r}"
    assert ("mean >= collective_w" in panels[0].get_title() and
          "p90 <= 2 * p90_exact" in panels[3].get_title()), "titles state the claims"
    assert panels[0].get_xscale() == "log" and panels[0].get_xlabel() == "N (ranks)", (
        "N on the model's log axis")
    for ax, i, verdicts in zip(panels, range(1, 7), VERDICTS):
        mine = frame[frame["bound"] == i].set_index("point")
        lines = [line for line in figures.tagged_lines(fig) if line.axes is ax]
        estimate = [line for line in lines if line.collnoise["y"].key == f"bound_{i}_estimate"]
        value = [line for line in lines if line.collnoise["y"].key == f"bound_{i}_value"]
        assert (len(estimate) == len(value) == 2 and
              sorted(line.get_label() for line in estimate) == ["f = 0.01", "f = 0.1"]), (
            f"bound {i}: a curve per noise.f")
        for line in estimate + value:
            rows = line.collnoise["rows"]
            key = line.collnoise["y"].key.rsplit("_", 1)[1]
            scale = line.collnoise["y"].scale
            assert (np.array_equal(line.get_xdata(), mine.loc[rows, "collective.N"].to_numpy()) and
                  np.allclose(line.get_ydata(), mine.loc[rows, key].to_numpy() * scale,
                              rtol=1e-12, equal_nan=True)), (
                f"bound {i}: the {key} line is not the frame's")
        markers = [line for line in ax.get_lines() if hasattr(line, "collnoise_verdict")]
        drawn = {r: line.collnoise_verdict for line in markers for r in line.collnoise_rows}
        assert drawn == dict(enumerate(verdicts)), f"bound {i}: markers {drawn}"
        for line in markers:
            style = figure.VERDICT_STYLE[line.collnoise_verdict]
            assert line.get_marker() == style["marker"], f"bound {i}: a marker's shape"
        present = {v or figure.NO_VERDICT: verdicts.count(v) for v in set(verdicts)}
        assert legend_verdicts(ax) == present, (
            f"bound {i}: the legend lists {legend_verdicts(ax)}, present {present}")

    out = os.path.abspath("tiny-bounds-alone.png")
    assert figure.draw_bounds(path, out) == out, "draw_bounds returns the path"
    with open(out, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n", "a PNG file"
    assert not [n for n in os.listdir(".") if n.endswith(".tmp")], "no temporary file left"
    assert [s for s, _ in figures.draw(result)] == ["phase-time", "bounds"], (
        "collnoise.figures.draw: the phase time, then the bounds")
    assert "bounds" not in figures.registered() and figures.draw_function("bounds") is None, (
        "not a figure a model can name")
    done = subprocess.run([binary, "plot", path, "--out", "plotted"], capture_output=True,
                          text=True)
    want = [os.path.join("plotted", f"tiny-bounds-{s}.png") for s in ("phase-time", "bounds")]
    assert done.returncode == 0 and done.stdout.split() == want, (
        f"collnoise plot: {done.returncode} {done.stdout!r} {done.stderr!r}")
    for written in want[1:]:
        with open(written, "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n" and os.path.getsize(written) > 5000, (
                f"{written}: a whole PNG")


def check_single(path: str) -> None:
    """One point: nothing varies, so the point stands at position 0 of each panel."""
    frame = collnoise.bounds(path)
    assert list(frame.columns) == ["point", "bound", *FIELDS] and len(frame) == 6, (
        "one point: no parameter columns, a row per bound")
    fig = figure.bounds_figure(path)
    lines = figures.tagged_lines(fig)
    assert (len([ax for ax in fig.axes if ax.axison]) == 6 and len(lines) == 12 and
          all(list(line.get_xdata()) == [0.0] for line in lines)), (
        "one point: each panel's lines at position 0")


@pytest.fixture(scope="module")
def bounded(binary, work) -> str:
    return run(binary, "tiny-bounds", HEAD + SWEEP + BOUNDS)


def test_frame(binary, bounded):
    check_frame(binary, bounded)


def test_figure(binary, bounded):
    check_figure(binary, bounded)


def test_without_bounds(binary, work):
    check_without(binary, run(binary, "tiny-unbounded", HEAD + SWEEP))


def test_single_point(binary, work):
    check_single(run(binary, "tiny-one-point", ONE_POINT + BOUNDS))
