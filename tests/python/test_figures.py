"""Every shipped run file's figure, drawn from a small-sample version of it (run by ctest).

    /usr/bin/python3 -m pytest tests/python/test_figures.py --collnoise-binary BINARY \
        --work-dir WORKDIR

For each runs/*.toml (or the names in $COLLNOISE_FIGURE_RUNS, separated by spaces), writes a
copy with fewer samples and a smaller sweep
(SMALL below; runs/data beside it, so relative data paths resolve), runs it, and draws it twice:
with `collnoise plot` (exit 0, the expected files, written whole) and in this process with
collnoise.figures.draw, whose figures are checked: every line marked as data (figures.tag) shows
the points table's values (or the point's lists) at its rows, every point is drawn, the axes are
logarithmic where the paper's are, titles, labels and legends lie inside the figure, and no
legend repeats a label. A time-based tree barrier and a run mixing kinds of points are drawn too.
The lookup: every figure a C++ model names (PlotHints::figure) is the module of that name in
collnoise.figures, a name without one is refused, and results without a figure in their hints
(older files) are drawn by their kind.
"""

from __future__ import annotations

import concurrent.futures
import glob
import importlib
import os
import re
import shutil
import subprocess
import sys

import pytest
import tomllib

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SOURCE, "python"))

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import numpy as np  # noqa: E402
from matplotlib.backends.backend_agg import FigureCanvasAgg  # noqa: E402

import collnoise  # noqa: E402
from collnoise import figures  # noqa: E402

# --- small versions of the shipped run files ----------------------------------------------------
# (table path) -> value; a path names a key of the run file, [[case]] entries by index. Every
# run file also gets the CAPS. The sweeps keep their first and last sizes where the figure's
# shape depends on the range (logarithmic axes).
CAPS = {"samples": 20, "replications": 2}
LEVELS = [1, 4, 10, 16, 24, 30]
SMALL = {
    "agarwal-fig4-exponential": {("sweep", "levels"): [1, 4, 10, 20, 30, 40]},
    "agarwal-fig5a-pareto-a": {("sweep", "levels"): LEVELS},
    "agarwal-fig5b-pareto-f": {("sweep", "levels"): LEVELS},
    "agarwal-fig6-bernoulli": {("sweep", "levels"): LEVELS},
    "agarwal-nhalf": {("nhalf", "check_samples"): 200},
    "bosque-fig2": {},
    "bounds-agarwal-theorem1": {("sweep", "levels"): [1, 4, 16, 40]},
    "bounds-dissemination": {("sweep", "N"): [8, 64]},
    "bosque-fig3": {},
    "bosque-fig4": {},
    "chen-suda-fig8": {("sweep", "log2_N"): [1, 3, 5, 7]},
    "chen-suda-fig9": {("collective", "log2_N"): 7},
    "critical-path-allreduce": {("sweep", "log2_N"): [4, 6, 8], ("samples",): 8},
    # 64 ranks on a fat tree of 128 endpoints whose top level is tapered 4:1, as the shipped ones.
    **{f"contention-allreduce-{n}": {("sweep", "log2_N"): [6],
                                    ("network", "topology"): "xgft(3; 4,4,8; 1,4,1)",
                                    ("samples",): 4}
       for n in (16384, 65536, 262144, 1048576)},
    "default": {("sweep", "N"): [1, 7, 1023, 65535]},
    "hoefler-fig13": {("sweep", "network.topology"): ["xgft(2; 12,12; 1,6)",
                                                      "xgft(2; 12,24; 1,12)",
                                                      "xgft(3; 12,12,8; 1,12,4)"],
                      ("samples",): 4},
    "hoefler-fig15": {("sweep", "network.rho"): [0.1, 0.4, 0.9], ("samples",): 3},
    "hoefler-fig16": {("samples",): 3},
    "isoefficiency-noise": {("samples",): 200, ("isoefficiency", "log2_m"): [1, 2, 4, 6, 8],
                            ("case", 4, "isoefficiency.samples"): 20,
                            ("case", 4, "isoefficiency.log2_m"): [1, 2, 3]},
    "predict-synthetic": {("sweep", "collective.N"): [16, 32], ("prediction", "draws"): 2,
                          ("samples",): 4},
    "schedules-allreduce": {("sweep", "log2_N"): [4, 6, 8], ("samples",): 4},
    "schedules-allreduce-ring": {("sweep", "log2_N"): [4, 6], ("samples",): 4},
    "schedules-barriers": {("sweep", "log2_N"): [4, 6, 8], ("samples",): 4},
    "schedules-trace-replay": {("sweep", "log2_N"): [4, 6, 8], ("samples",): 4},
}

# Runs no shipped file makes: the tree barrier under time-based noise (one sample = a
# replication of M phases), and a run mixing the tree barrier and a schedule (two figures).
EXTRA = {
    "timed-tree": """name = "timed-tree"
seed = 11
replications = 8
[collective]
kind = "tree_barrier"
w = 1.0e-4
tau = 1.0e-6
phases = 3
[[case]]
"noise.law" = "periodic"
"noise.P" = 1.0e-3
"noise.D" = 5.0e-5
[[case]]
"noise.law" = "poisson"
"noise.rate" = 200.0
"noise.duration.mean" = 2.0e-5
[sweep]
N = [7, 63, 1023]
[plot]
title = "A tree barrier under time-based noise: periodic and Poisson detours"
""",
    "mixed-kinds": """name = "mixed-kinds"
seed = 7
samples = 20
[[case]]
"collective.kind" = "tree_barrier"
"collective.w" = 1.0e-3
"collective.tau" = 1.0e-6
"noise.law" = "exponential"
"noise.f" = 0.01
[[case]]
"collective.kind" = "schedule"
"collective.algorithm" = "dissemination_barrier"
"loggops.L" = 1.0e-6
"loggops.o" = 1.0e-9
"loggops.g" = 0.0
"loggops.G" = 1.0e-9
"noise.law" = "periodic"
"noise.P" = 1.0e-3
"noise.D" = 2.5e-5
[sweep]
"collective.N" = [8, 64]
""",
}

# The files each result gives (<name>-<suffix>.png).
EXPECTED_FILES = {
    "chen-suda-fig8": ["run-time", "overhead"],
    "chen-suda-fig9": ["overhead"],
    "agarwal-nhalf": ["nhalf"],
    "bosque-fig3": ["efficiency"],
    "timed-tree": ["time-of-all-phases"],
    "mixed-kinds": ["phase-time", "completion-time"],
    # Points that recorded their critical paths: the attribution figure after the model's.
    "critical-path-allreduce": ["completion-time", "attribution"],
    # Run files with [[bound]] tables: the bounds figure after the model's.
    "bounds-agarwal-theorem1": ["phase-time", "bounds"],
    "bounds-dissemination": ["completion-time", "bounds"],
}
for name in ("bosque-fig2", "bosque-fig4", "isoefficiency-noise"):
    EXPECTED_FILES[name] = ["isoefficiency"]
for name in ("hoefler-fig13", "hoefler-fig15", "hoefler-fig16"):
    EXPECTED_FILES[name] = ["slowdown"]
for name in ("default", "agarwal-fig4-exponential", "agarwal-fig5a-pareto-a",
             "agarwal-fig5b-pareto-f", "agarwal-fig6-bernoulli"):
    EXPECTED_FILES[name] = ["phase-time"]
for name in ("schedules-allreduce", "schedules-allreduce-ring", "schedules-barriers",
             "schedules-trace-replay", "predict-synthetic", "contention-allreduce-16384",
             "contention-allreduce-65536", "contention-allreduce-262144",
             "contention-allreduce-1048576"):
    EXPECTED_FILES[name] = ["completion-time"]

# Axis scales the papers use: (name, suffix) -> (x scale, y scale), None where not pinned.
SCALES = {
    ("agarwal-fig4-exponential", "phase-time"): ("log", "linear"),  # E[T] grows as log N
    ("agarwal-fig5a-pareto-a", "phase-time"): ("log", "log"),  # as a power of N, over decades
    ("agarwal-fig6-bernoulli", "phase-time"): ("log", "linear"),  # "the x-axis is logarithmic"
    ("bosque-fig2", "isoefficiency"): ("log", "log"),
    ("bosque-fig3", "efficiency"): ("log", "linear"),
    ("bosque-fig4", "isoefficiency"): ("log", "log"),
    ("isoefficiency-noise", "isoefficiency"): ("log", "log"),
    ("chen-suda-fig8", "run-time"): ("log", None),
    ("chen-suda-fig9", "overhead"): ("linear", "linear"),
    ("hoefler-fig13", "slowdown"): ("log", "linear"),
    ("hoefler-fig15", "slowdown"): ("linear", "linear"),
    ("hoefler-fig16", "slowdown"): ("log", "linear"),
    ("agarwal-nhalf", "nhalf"): [("log", None), ("linear", None)],  # N_1/2; E[T] / 2w
    ("timed-tree", "time-of-all-phases"): ("log", None),
    ("critical-path-allreduce", "attribution"): [(None, "linear"), ("log", "linear")],
    ("bounds-agarwal-theorem1", "bounds"): ("log", None),
}

# What each figure must draw (the y of some data line), beyond what the model's hints name.
MUST_DRAW = {
    ("agarwal-nhalf", "nhalf"): {"nhalf_exact", "nhalf_paper_approx", "nhalf_full_tree",
                                 "check_below_mean", "check_above_mean", "exact_mean_at_half",
                                 "exact_mean_at_double"},
    ("agarwal-fig4-exponential", "phase-time"): {"mean", "exact_mean", "theorem1_lower"},
    ("timed-tree", "time-of-all-phases"): {"mean", "noiseless_time"},
    ("chen-suda-fig8", "run-time"): {"quiet_mean", "conventional_mean", "redundant_mean",
                                     "noiseless_closed_form"},
    ("chen-suda-fig9", "overhead"): {"quiet_T", "conventional_T", "redundant_T"},
    ("bosque-fig2", "isoefficiency"): {"W", "W_exact"},
    ("critical-path-allreduce", "attribution"): {"completion_mean", "absorption_ratio"},
    ("bounds-agarwal-theorem1", "bounds"): {"bound_1_estimate", "bound_1_value",
                                            "bound_2_estimate", "bound_2_value"},
}




# --- writing run files ----------------------------------------------------------------------------


def toml_key(key) -> str:
    key = str(key)
    bare = key and all(c.isalnum() or c in "_-" for c in key)
    return key if bare else '"' + key.replace("\\", "\\\\").replace('"', '\\"') + '"'


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML for {value!r}")


def dump_toml(data: dict, prefix: str = "") -> str:
    """TOML text for a parsed run file (scalars, arrays, tables, arrays of tables)."""
    lines, tables = [], []
    for key, value in data.items():
        if isinstance(value, dict):
            tables.append((key, value))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            tables.append((key, value))
        else:
            lines.append(f"{toml_key(key)} = {toml_value(value)}")
    text = "\n".join(lines) + ("\n" if lines else "")
    for key, value in tables:
        name = f"{prefix}{toml_key(key)}"
        if isinstance(value, dict):
            text += f"\n[{name}]\n" + dump_toml(value, name + ".")
        else:
            for entry in value:
                text += f"\n[[{name}]]\n" + dump_toml(entry, name + ".")
    return text


def small_version(name: str, data: dict) -> dict:
    for key, cap in CAPS.items():
        if key in data:
            data[key] = min(data[key], cap)
    for path, value in SMALL.get(name, {}).items():
        target = data
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value
    return data


def write_run_files(work: str, names: list[str]) -> dict[str, str]:
    runs = os.path.join(work, "runs")
    shutil.rmtree(runs, ignore_errors=True)
    shutil.copytree(os.path.join(SOURCE, "runs", "data"), os.path.join(runs, "data"))
    paths = {}
    for name in names:
        path = os.path.join(runs, f"{name}.toml")
        if name in EXTRA:
            text = EXTRA[name]
        else:
            with open(os.path.join(SOURCE, "runs", f"{name}.toml"), "rb") as f:
                text = dump_toml(small_version(name, tomllib.load(f)))
        with open(path, "w") as f:
            f.write(text)
        paths[name] = path
    return paths


# --- checks of a drawn figure ---------------------------------------------------------------------


def raw_values(result, rows, data) -> np.ndarray:
    if data.source == "column":
        values = figures.column(result, rows, data.key)
    elif data.source == "series":
        assert len(rows) == 1, f"a list is drawn for one point, not {rows}"
        values = result.series(rows[0], data.key)
    else:
        values = np.arange(len(rows), dtype=float)
    if data.per:
        values = values / figures.column(result, rows, data.per)
    return values


def expected(result, rows, data, other_raw) -> np.ndarray:
    values = raw_values(result, rows, data)
    if data.offset_per_x:
        values = values + data.offset_per_x * other_raw
    return values * data.scale


def check_lines(where: str, result, fig) -> set:
    """Each data line against the file's values; returns the y keys drawn and rows drawn."""
    drawn_keys, drawn_rows = set(), set()
    lines = figures.tagged_lines(fig)
    assert any(np.isfinite(line.get_ydata()).any() for line in lines), f"{where}: no data drawn"
    for line in lines:
        tag = line.collnoise
        rows, x, y = tag["rows"], tag["x"], tag["y"]
        x_raw, y_raw = raw_values(result, rows, x), raw_values(result, rows, y)
        if "where" in tag:  # one m of an efficiency surface
            key, value = tag["where"]
            on = result.series(rows[0], key) == value
            x_raw, y_raw = x_raw[on], y_raw[on]
            want_x, want_y = x_raw * x.scale, y_raw * y.scale
        else:
            want_x, want_y = expected(result, rows, x, y_raw), expected(result, rows, y, x_raw)
        got_x = np.asarray(line.get_xdata(), dtype=float)
        got_y = np.asarray(line.get_ydata(), dtype=float)
        label = f"{where}: line {line.get_label()!r} ({y.key} against {x.key or 'position'})"
        assert (got_x.shape == want_x.shape and np.allclose(got_x, want_x, rtol=1e-12,
                                                          equal_nan=True)), (
            f"{label}: x {got_x} != {want_x}")
        assert (got_y.shape == want_y.shape and np.allclose(got_y, want_y, rtol=1e-12,
                                                          equal_nan=True)), (
            f"{label}: y {got_y} != {want_y}")
        drawn_rows.update(rows)  # a point with nothing to show is still in the legend
        if np.isfinite(want_y).any():
            drawn_keys.update({y.key, x.key} - {""})
    return drawn_keys, drawn_rows


def inside(box, outer, slack=1.5) -> bool:
    return (box.x0 >= outer.x0 - slack and box.y0 >= outer.y0 - slack and
            box.x1 <= outer.x1 + slack and box.y1 <= outer.y1 + slack)


def check_layout(where: str, fig) -> None:
    FigureCanvasAgg(fig)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    frame = fig.bbox
    for text in fig.texts:  # the figure's title
        if text.get_text():
            assert inside(text.get_window_extent(renderer), frame), (
                f"{where}: title {text.get_text()!r} does not fit in the figure")
    for ax in fig.axes:
        if not ax.axison:
            continue
        for text in (ax.title, ax.xaxis.label, ax.yaxis.label):
            if text.get_text():
                assert inside(text.get_window_extent(renderer), frame), (
                    f"{where}: {text.get_text()!r} does not fit in the figure")
        assert inside(ax.get_tightbbox(renderer), frame), (
            f"{where}: an axes' labels or legend reach outside the figure")
        legend = ax.get_legend()
        if legend is not None:
            labels = [t.get_text() for t in legend.get_texts()]
            assert len(labels) == len(set(labels)), f"{where}: legend repeats labels {labels}"
        # Curves told apart by their labels: no two data lines of a panel share one.
        curves = [line.get_label() for line in figures.tagged_lines(fig)
                  if line.axes is ax and not line.get_label().startswith("_")]
        assert len(curves) == len(set(curves)), f"{where}: curves share labels {curves}"
    # Titles of neighbouring panels must not run into each other.
    titles = [ax.title.get_window_extent(renderer) for ax in fig.axes
              if ax.axison and ax.title.get_text()]
    for i, a in enumerate(titles):
        for b in titles[i + 1:]:
            assert not a.overlaps(b), f"{where}: panel titles overlap"


def check_result(name: str, h5: str) -> None:
    result = collnoise.load(h5)
    assert len(result.points) == len(result.all_points()) > 0, f"{name}: one row per point"
    drawn = figures.draw(result)
    suffixes = [s for s, _ in drawn]
    assert suffixes == EXPECTED_FILES.get(name, suffixes), f"{name}: figures {suffixes}"
    all_rows = set()
    for suffix, fig in drawn:
        where = f"{name}-{suffix}"
        keys, rows = check_lines(where, result, fig)
        all_rows |= rows
        hints = result.plot_hints(min(rows)) if rows else {}
        if hints.get("figure") == "curve" and suffix != "bounds":  # bounds: their estimates
            assert hints["y"] in keys, f"{where}: the hints' y ({hints['y']}) is not drawn"
        must = MUST_DRAW.get((name, suffix), set())
        assert must <= keys, f"{where}: {sorted(must - keys)} not drawn"
        scales = SCALES.get((name, suffix))
        if scales:
            panels = [ax for ax in fig.axes if ax.axison]
            # One pair for every panel, or a pair per panel.
            pairs = scales if isinstance(scales, list) else [scales] * len(panels)
            assert len(pairs) == len(panels), f"{where}: {len(panels)} panels"
            for ax, scales in zip(panels, pairs):
                if scales[0]:
                    assert ax.get_xscale() == scales[0], (
                        f"{where}: x axis {ax.get_xscale()}, the paper's is {scales[0]}")
                if scales[1]:
                    assert ax.get_yscale() == scales[1], (
                        f"{where}: y axis {ax.get_yscale()}, the paper's is {scales[1]}")
        check_layout(where, fig)
    missing = set(range(len(result))) - all_rows
    assert not missing, f"{name}: points {sorted(missing)[:5]} not drawn"


# --- finding a figure by its name ---------------------------------------------------------------


def figures_named_by_models() -> set[str]:
    """The figures the C++ models name in their plot hints (`figure = "..."`, engine/)."""
    names = set()
    for path in glob.glob(os.path.join(SOURCE, "engine", "**", "*.[ch]pp"), recursive=True):
        with open(path) as f:
            names |= set(re.findall(r'\bfigure = "([^"]*)"', f.read()))
    return names


def check_lookup(results: dict) -> None:
    """Each model's figure is the `draw` of the module collnoise.figures.<figure>, and there is
    no other; unknown names are refused naming the known ones; a registered function comes first;
    a result without a figure in its hints is drawn by its kind."""
    named = figures_named_by_models()
    assert {"curve", "cycles", "network", "isoefficiency", "nhalf"} <= named, (
        f"figures named in engine/: {sorted(named)}")
    for name in sorted(named):
        try:
            module = importlib.import_module(f"collnoise.figures.{name}")
        except ModuleNotFoundError:
            pytest.fail(f"figure '{name}' (engine/) has no module collnoise/figures/{name}.py")
            continue
        assert figures.draw_function(name) is module.draw, (
            f"figure '{name}': not drawn by collnoise.figures.{name}.draw")
    assert figures.registered() == sorted(named), (
        f"figures {figures.registered()}, the models name {sorted(named)}")
    for name in ("no_such_figure", "common", "_private", "curve.draw", "../curve", ""):
        assert figures.draw_function(name) is None, f"'{name}' is taken for a figure"

    if "default" not in results or not os.path.exists(results["default"]):
        return
    result = collnoise.load(results["default"])
    hints = result.plot_hints
    result.plot_hints = lambda row: {**hints(row), "figure": "no_such_figure"}
    try:
        figures.draw(result)
        pytest.fail("a figure without a module drawn")
    except figures.NoFigure as e:
        assert ("no figure 'no_such_figure'" in str(e) and
              "(known: curve, cycles, isoefficiency, network, nhalf)" in str(e)), (
            f"an unknown figure: {e}")
    figures.figure("no_such_figure")(lambda result, rows: [("registered", None)])
    try:
        assert figures.draw(result) == [("registered", None)], (
            "a function registered with @figure draws its figure")
    finally:
        del figures._REGISTRY["no_such_figure"]
    # Files written before plot hints named a figure: their kind decides.
    for name, kind, figure in (("default", "tree_barrier", "curve"),
                               ("schedules-barriers", "schedule", "curve"),
                               ("chen-suda-fig8", "butterfly", "cycles"),
                               ("agarwal-nhalf", "nhalf", "nhalf"),
                               ("bosque-fig2", "isoefficiency", "isoefficiency"),
                               ("hoefler-fig13", "network", "network")):
        if name not in results or not os.path.exists(results[name]):
            continue
        result = collnoise.load(results[name])
        hints = result.plot_hints
        result.plot_hints = lambda row, hints=hints: {k: v for k, v in hints(row).items()
                                                      if k != "figure"}
        got = {figures.figure_name(result, row) for row in range(len(result))}
        assert got == {figure}, f"{name}: points of kind {kind} without a figure: {got}"


# --- running ----------------------------------------------------------------------------------------


def run(binary: str, toml: str, h5: str) -> str | None:
    done = subprocess.run([binary, "run", toml, "--out", h5, "--force", "--quiet",
                           "--no-checkpoint", "--threads", "1"], capture_output=True, text=True)
    return None if done.returncode == 0 else f"run {toml}: exit {done.returncode}: {done.stderr}"


def plot_with_command(binary: str, names: list[str], results: dict, out: str) -> list[str]:
    """`collnoise plot` on every result at once: exit 0, each expected file printed and whole,
    no temporary file left."""
    done = subprocess.run([binary, "plot", *(results[n] for n in names), "--out", out],
                          capture_output=True, text=True)
    errors = []
    if done.returncode != 0:
        errors.append(f"collnoise plot: exit {done.returncode}: {done.stderr.strip()}")
    want = [os.path.join(out, f"{n}-{s}.png") for n in names for s in EXPECTED_FILES[n]]
    printed = done.stdout.split()
    if printed != want:
        errors.append(f"collnoise plot wrote {printed}, expected {want}")
    for path in printed:
        with open(path, "rb") as f:
            if f.read(8) != b"\x89PNG\r\n\x1a\n" or os.path.getsize(path) < 5000:
                errors.append(f"collnoise plot: {path} is not a whole PNG")
    leftovers = [f for f in os.listdir(out) if f.endswith(".tmp")]
    if leftovers:
        errors.append(f"collnoise plot: temporary files left: {leftovers}")
    return errors


def check_command_errors(binary: str, work: str) -> None:
    """Bad input: exit 2 and one line naming the file."""
    with open(os.path.join(work, "not-a-result.h5"), "w") as f:
        f.write("plain text\n")
    for path in ("no-such-result.h5", os.path.join(work, "not-a-result.h5")):
        done = subprocess.run([binary, "plot", path], capture_output=True, text=True, cwd=work)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1 and path in lines[0], (
            f"collnoise plot {path}: exit {done.returncode}, stderr {done.stderr!r}")


def shipped_run_files() -> list[str]:
    return sorted(f[:-5] for f in os.listdir(os.path.join(SOURCE, "runs")) if f.endswith(".toml"))


def test_every_shipped_run_file_has_a_small_version():
    unknown = sorted(set(shipped_run_files()) - set(SMALL))
    assert not unknown, f"shipped run files without a small version in SMALL: {unknown}"


@pytest.fixture(scope="module")
def drawn(binary, work):
    """Every run file run, its figures drawn by `collnoise plot` and checked in this process:
    the results and what failed (a run, a figure, the command), every failure listed."""
    names = os.environ.get("COLLNOISE_FIGURE_RUNS", "").split() or (shipped_run_files() +
                                                                    sorted(EXTRA))
    tomls = write_run_files(work, names)
    results = {name: os.path.join(work, f"{name}.h5") for name in names}
    out = os.path.join(work, "figures")
    os.makedirs(out)
    failures = []
    # Two at a time (the machine's cores); each run on one thread.
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        failures += [error for error in pool.map(lambda n: run(binary, tomls[n], results[n]),
                                                 names) if error is not None]
        ran = [n for n in names if os.path.exists(results[n])]
        plotted = pool.submit(plot_with_command, binary, ran, results, out)
        for name in ran:  # in this process meanwhile: the figures' data, scales and layout
            try:
                check_result(name, results[name])
            except AssertionError as e:
                failures.append(f"{name}: {e}")
            except Exception as e:  # noqa: BLE001 - a crash is a failure of that figure
                failures.append(f"{name}: drawing raised {type(e).__name__}: {e}")
        failures.extend(plotted.result())
    return results, failures


def test_figures_of_the_run_files(drawn):
    _, failures = drawn
    assert not failures, "\n".join(failures)


def test_command_errors(binary, work):
    check_command_errors(binary, work)


def test_lookup(drawn):
    check_lookup(drawn[0])
