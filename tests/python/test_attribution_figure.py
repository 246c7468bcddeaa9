"""Where the critical path's time went, in Python (run by ctest):

    /usr/bin/python3 -m pytest tests/python/test_attribution_figure.py --collnoise-binary BINARY \
        --work-dir WORKDIR

Runs a small recursive-doubling allreduce under periodic noise with `[output] critical_path =
true` (and once without), and checks collnoise.attribution: one row per point and category whose
means add up to the point's mean completion time, the values as the points table and the point
groups hold them, a frame per point with the absorption ratio and the lists, empty frames for a
result without critical paths, and a damaged file refused. Then the attribution figure: its bars
are the category means, stacked, its line the absorption ratio; drawn to a PNG with Agg, by
collnoise.figures.draw and `collnoise plot` beside the completion-time figure, and not for a
result without critical paths.
"""

from __future__ import annotations

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
# The points here share no network: the six categories, without the network's.
from collnoise.critical_path import BASE_CATEGORIES as CATEGORIES  # noqa: E402
from collnoise.critical_path import CATEGORIES as ALL_CATEGORIES  # noqa: E402
from collnoise.figures import attribution as figure  # noqa: E402

RUN = """name = "{name}"
seed = 5
samples = 8
[output]
critical_path = {critical_path}
[collective]
kind = "schedule"
algorithm = "recursive_doubling_allreduce"
message_bytes = 8
[loggops]
L = 1.0e-6
o = 1.0e-9
g = 0.0
G = 1.0e-9
[noise]
law = "periodic"
P = 1.0e-4
D = 2.5e-5
[sweep]
log2_N = [3, 4]
"""

# Cases at one N: no numeric parameter varies, so the bars and the ratios stand side by side.
CASES = """name = "tiny-cases"
seed = 5
samples = 8
[output]
critical_path = true
[collective]
kind = "schedule"
N = 16
message_bytes = 8
[loggops]
L = 1.0e-6
o = 1.0e-9
g = 0.0
G = 1.0e-9
[noise]
law = "periodic"
P = 1.0e-4
D = 2.5e-5
[[case]]
"collective.algorithm" = "recursive_doubling_allreduce"
[[case]]
"collective.algorithm" = "ring_allreduce"
"""




def run(binary: str, name: str, critical_path: bool, text: str = RUN) -> str:
    with open(f"{name}.toml", "w") as f:
        f.write(text.format(name=name, critical_path="true" if critical_path else "false"))
    subprocess.run([binary, "run", f"{name}.toml", "--out", f"{name}.h5", "--force", "--quiet",
                    "--no-checkpoint", "--threads", "1"], check=True)
    return os.path.abspath(f"{name}.h5")


def check_frames(path: str) -> None:
    result = collnoise.load(path)
    by_category, by_point = collnoise.attribution(result)
    table = result.points
    assert len(by_category) == 2 * len(CATEGORIES), f"{len(by_category)} rows, not 2 x 6"
    assert len(by_point) == 2, f"{len(by_point)} point rows, not 2"
    assert (list(by_category.columns) == ["point", "collective.N", "category", "mean", "ci_low",
                                        "ci_high", "noiseless", "excess"]), (
        f"category columns {list(by_category.columns)}")
    assert list(by_category["category"][:6]) == list(CATEGORIES), "the categories, in order"
    assert list(by_point["collective.N"]) == [8, 16], f"N {list(by_point['collective.N'])}"
    for row in range(2):
        mine = by_category[by_category["point"] == row].set_index("category")
        total = float(mine["mean"].sum())
        completion = float(table.at[row, "completion_mean"])
        assert abs(total - completion) <= 1e-9 * completion, (
            f"point {row}: the category means add up to {total}, the completion is "
              f"{completion}")
        assert mine.at["noise", "mean"] > 0, f"point {row}: noise on the critical path"
        for c in CATEGORIES:
            for s in ("mean", "ci_low", "ci_high", "noiseless", "excess"):
                assert mine.at[c, s] == table.at[row, f"path_{c}_{s}"], (
                    f"point {row}: {c} {s} is not the points table's")
            assert (math.isclose(mine.at[c, "excess"], mine.at[c, "mean"] - mine.at[c, "noiseless"],
                               rel_tol=1e-12, abs_tol=1e-18)), (
                f"point {row}: {c}'s excess is its mean less its noiseless time")
        point = by_point.iloc[row]
        summary = result.point(row).summary
        for key in ("absorption_ratio", "absorption_ratio_ci_low", "absorption_ratio_ci_high",
                    "noise_charged_mean", "completion_mean"):
            assert point[key] == table.at[row, key], f"point {row}: {key}"
        assert 0.0 < point["absorption_ratio"] < 1.0, (
            f"point {row}: absorption ratio {point['absorption_ratio']}")
        assert (point["path_noise_by_step"] == summary["path_noise_by_step"] and
              len(point["path_noise_by_step"]) > 0), f"point {row}: path_noise_by_step"
        assert (point["last_rank_top"] == [int(r) for r in summary["last_rank_top"]] and
              all(type(r) is int for r in point["last_rank_top"])), (
            f"point {row}: last_rank_top {point['last_rank_top']}")
        shares = point["last_rank_share"]
        assert len(shares) == len(point["last_rank_top"]) and 0.0 < sum(shares) <= 1.0 + 1e-12, (
            f"point {row}: last_rank_share {shares}")
        assert int(point["path_steps_per_bucket"]) >= 1, f"point {row}: path_steps_per_bucket"
    same = result.attribution()
    assert same.categories.equals(by_category) and same.points.equals(by_point), (
        "Result.attribution() is collnoise.attribution(result)")
    from_path = collnoise.attribution(path)
    assert from_path.categories.equals(by_category), "attribution(path) reads the file"


def check_without(path: str) -> None:
    by_category, by_point = collnoise.attribution(path)
    assert (by_category.empty and by_point.empty and "mean" in by_category.columns and
          "absorption_ratio" in by_point.columns), (
        "a result without critical paths: empty frames with their columns")
    result = collnoise.load(path)
    assert figure.attribution_figure(result) is None, "no attribution figure without paths"
    assert [s for s, _ in figures.draw(result)] == ["completion-time"], (
        "without paths, the completion-time figure alone")
    done = subprocess.run([sys.executable, "-m", "collnoise.figures.attribution", path, "x.png"],
                          capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": os.path.join(SOURCE, "python")})
    lines = done.stderr.strip().splitlines()
    assert (done.returncode == 2 and len(lines) == 1 and "critical_path = true" in lines[0] and
          not os.path.exists("x.png")), f"no paths to draw: {done.returncode} {done.stderr!r}"


def check_damaged(path: str) -> None:
    """A flipped byte is refused by the reader's checksum before anything is read."""
    damaged = "damaged.h5"
    data = bytearray(open(path, "rb").read())
    data[len(data) // 2] ^= 0x01
    with open(damaged, "wb") as f:
        f.write(data)
    for what, call in (("attribution", lambda: collnoise.attribution(damaged)),
                       ("attribution_figure", lambda: figure.attribution_figure(damaged)),
                       ("draw_attribution", lambda: figure.draw_attribution(damaged, "d.png"))):
        try:
            call()
            pytest.fail(f"{what}: a damaged file read")
        except collnoise.DamagedFileError as e:
            assert e.path == damaged, f"{what}: the error names the file: {e}"
    assert not os.path.exists("d.png"), "nothing drawn from a damaged file"


def check_figure(binary: str, path: str) -> None:
    result = collnoise.load(path)
    by_category, by_point = collnoise.attribution(result)
    fig = figure.attribution_figure(result)
    bars_ax, ratio_ax = fig.axes
    bars = {c.collnoise_category: c for c in bars_ax.containers
            if hasattr(c, "collnoise_category")}
    assert list(bars) == list(CATEGORIES), f"bars of {list(bars)}"
    completion = figures.tagged_lines(fig)[0]
    factor = completion.collnoise["y"].scale
    tops = np.zeros(2)
    for c, container in bars.items():
        heights = np.array([p.get_height() for p in container.patches])
        bottoms = np.array([p.get_y() for p in container.patches])
        want = by_category[by_category["category"] == c]["mean"].to_numpy() * factor
        assert np.allclose(heights, want, rtol=1e-12, atol=0), f"{c}: bars {heights} != {want}"
        assert np.allclose(bottoms, tops, rtol=1e-12, atol=1e-15), f"{c}: stacked on the others"
        tops = bottoms + heights
    assert np.allclose(tops, completion.get_ydata(), rtol=1e-9), (
        f"the stacks' tops {tops} are the completion means {completion.get_ydata()}")
    ratio = [line for line in figures.tagged_lines(fig) if line.axes is ratio_ax]
    assert (len(ratio) == 1 and np.array_equal(ratio[0].get_ydata(),
                                             by_point["absorption_ratio"].to_numpy()) and
          np.array_equal(ratio[0].get_xdata(), [8.0, 16.0])), "the absorption ratio against N"
    assert ratio_ax.get_xscale() == "log", "N on a log axis"
    labels = [t.get_text() for t in bars_ax.get_legend().get_texts()]
    assert (labels[0] == "completion: mean and interval" and "noise" in labels and
          "computation (calc)" not in labels), (
        f"the legend names the completion and the categories with time: {labels}")

    out = os.path.abspath("tiny-attribution.png")
    assert figure.draw_attribution(path, out) == out, "draw_attribution returns the path"
    with open(out, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n", "a PNG file"
    assert not [n for n in os.listdir(".") if n.endswith(".tmp")], "no temporary file left"

    assert [s for s, _ in figures.draw(result)] == ["completion-time", "attribution"], (
        "collnoise.figures.draw: the completion time, then the attribution")
    assert ("attribution" not in figures.registered() and
          figures.draw_function("attribution") is None), "not a figure a model can name"
    done = subprocess.run([binary, "plot", path, "--out", "plotted"], capture_output=True,
                          text=True)
    want = [os.path.join("plotted", f"tiny-paths-{s}.png")
            for s in ("completion-time", "attribution")]
    assert done.returncode == 0 and done.stdout.split() == want, (
        f"collnoise plot: {done.returncode} {done.stdout!r} {done.stderr!r}")


def check_cases(path: str) -> None:
    """Two algorithms at one N: a bar and a ratio per case, at positions 0 and 1, labelled by
    the algorithm."""
    result = collnoise.load(path)
    by_category, by_point = collnoise.attribution(result)
    assert (list(by_point["collective.algorithm"]) == ["recursive_doubling_allreduce",
                                                     "ring_allreduce"]), "the cases' algorithms"
    fig = figure.attribution_figure(result)
    ratio = [line for line in figures.tagged_lines(fig) if line.axes is fig.axes[1]]
    assert (len(ratio) == 1 and np.array_equal(ratio[0].get_xdata(), [0.0, 1.0]) and
          np.array_equal(ratio[0].get_ydata(), by_point["absorption_ratio"].to_numpy())), (
        "the ratios side by side")
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert labels == ["recursive_doubling_allreduce", "ring_allreduce"], f"bar labels {labels}"


@pytest.fixture(scope="module")
def with_paths(binary, work) -> str:
    return run(binary, "tiny-paths", True)


@pytest.fixture(scope="module")
def without(binary, work) -> str:
    return run(binary, "tiny-no-paths", False)


def test_frames(with_paths):
    check_frames(with_paths)


def test_without_critical_paths(without):
    check_without(without)


def test_damaged_file_refused(with_paths):
    check_damaged(with_paths)


def test_figure(binary, with_paths):
    check_figure(binary, with_paths)


def test_cases(binary, work):
    check_cases(run(binary, "tiny-cases", True, CASES))


# On a shared network: the seventh category, the network's (docs/models/critical-path.md).
NETWORK = RUN.replace("message_bytes = 8", "message_bytes = 65536").replace(
    "[noise]", '[network]\ntopology = "xgft(2; 4,4; 1,2)"\ncontention = "flows"\n[noise]')


def check_network(path: str) -> None:
    """Every point has the seven categories, the network's among them and above zero (a flow's
    bytes take its time), their means adding up to the completion; its bars are drawn."""
    result = collnoise.load(path)
    by_category, by_point = collnoise.attribution(result)
    assert len(by_category) == 2 * len(ALL_CATEGORIES), f"{len(by_category)} rows, not 2 x 7"
    for row in range(2):
        mine = by_category[by_category["point"] == row].set_index("category")
        assert list(mine.index) == list(ALL_CATEGORIES), f"point {row}: {list(mine.index)}"
        assert mine.at["network", "mean"] > 0, f"point {row}: no network time"
        total = float(mine["mean"].sum())
        completion = float(result.points.at[row, "completion_mean"])
        assert abs(total - completion) <= 1e-9 * completion, (
            f"point {row}: the category means add up to {total}, the completion is {completion}")
    bars = figure.attribution_figure(result).axes[0].containers
    drawn = [c.collnoise_category for c in bars if hasattr(c, "collnoise_category")]
    assert drawn == list(ALL_CATEGORIES), f"bars of {drawn}"


def test_network(binary, work):
    check_network(run(binary, "tiny-network", True, NETWORK))
