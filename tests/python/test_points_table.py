"""A fresh result's points table loads in one call with h5py and pandas (docs/hdf5-layout.md).

    /usr/bin/python3 -m pytest tests/python/test_points_table.py --collnoise-binary BINARY \
        --work-dir WORKDIR

Runs collnoise on a small sweep that mixes kinds of points, then checks that
pandas.DataFrame(h5py.File(path)["points_table"][()]) has one row per point, the units and
sources attributes aligned with its columns, and the values of the point groups.
"""

import math
import os
import re
import subprocess
import sys

import pytest

import h5py
import numpy as np
import pandas

SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(SOURCE, "python"))
import collnoise  # noqa: E402
from collnoise.result import BOUND_FIELDS as FIELDS  # noqa: E402

RUN = """name = "py-table"
seed = 7
samples = 100
[[case]]
"collective.kind" = "tree_barrier"
"collective.w" = 1.0e-3
"collective.tau" = 1.0e-6
"noise.law" = "exponential"
"noise.f" = 0.01
[[case]]
"collective.kind" = "schedule"
"collective.algorithm" = "dissemination_barrier"
"collective.log2_N" = 3
"loggops.L" = 1.0e-6
"loggops.o" = 1.0e-9
"loggops.g" = 0.0
"loggops.G" = 1.0e-9
"noise.law" = "periodic"
"noise.P" = 1.0e-3
"noise.D" = 2.5e-5
[sweep]
"collective.N" = [7, 8]
"""


BOUNDS_RUN = """name = "py-bounds"
seed = 3
samples = 20
[collective]
kind = "tree_barrier"
tau = 2.0e-6
sampling = "per_level"
w = 1.0e-3
levels = 1
[noise]
law = "exponential"
f = 0.05
"""


def bounds_run(count):
    """A cheap point with `count` bounds: bound i (from 1) is `mean <= i` seconds."""
    return BOUNDS_RUN + "".join(
        f'[[bound]]\nname = "b{i}"\nrelation = "<="\nexpression = "collective_N * 0 + {i}"\n'
        for i in range(1, count + 1))



def test_points_table_in_one_call(binary, work):
    with open("py-table.toml", "w") as f:
        f.write(RUN)
    subprocess.run([binary, "run", "py-table.toml", "--out", "py-table.h5", "--force", "--quiet",
                    "--no-checkpoint"], check=True)

    # The one call.
    with h5py.File("py-table.h5", "r") as f:
        frame = pandas.DataFrame(f["points_table"][()])
        table = f["points_table"]
        units = [u.decode() for u in table.attrs["units"]]
        sources = [s.decode() for s in table.attrs["sources"]]
        groups = [f["points"][name] for name in sorted(f["points"])]
        assert len(frame) == len(groups) == 4, f"{len(frame)} rows, {len(groups)} points"
        assert len(units) == len(frame.columns) == len(sources), "units and sources aligned"
        unit = dict(zip(frame.columns, units))
        assert unit["collective.w"] == "seconds", f"collective.w in {unit['collective.w']!r}"
        assert unit["mean"] == "seconds", f"mean in {unit['mean']!r}"
        assert unit["completion_mean"] == "seconds", "completion_mean in seconds"
        assert unit["samples"] == "", "samples has no unit"
        assert dict(zip(frame.columns, sources))["noise.f"] == "params", "noise.f from params"
        assert list(frame["point"]) == [0, 1, 2, 3], "point index"
        assert frame["exact_in_ci"].dtype == np.float64, "a bool column with gaps is float64"
        for i, group in enumerate(groups):
            values = frame.iloc[i].to_dict()
            kind = group.attrs["kind"]
            assert (
                values["kind"].decode() == (kind.decode() if isinstance(kind, bytes) else kind)
            ), "kind"
            for source in ("params", "summary"):
                for key, value in group[source].attrs.items():
                    if key.endswith(("_reason", "_units", "_missing")) or key not in values:
                        continue
                    got = values[key]
                    if isinstance(value, bytes):
                        value = value.decode()
                    if isinstance(got, bytes):
                        got = got.decode()
                    if np.ndim(value):
                        continue  # lists: not columns (parameters' lists are text)
                    if isinstance(value, str):
                        assert got == value, f"{source}.{key}: {got!r} != {value!r}"
                    else:
                        assert float(got) == float(value), f"{source}.{key}: {got} != {value}"
                    declared = group[source].attrs.get(key + "_units", b"")
                    declared = declared.decode() if isinstance(declared, bytes) else declared
                    assert declared == "" or declared in unit[key].split(" | "), (
                        f"{key}: unit {unit[key]!r}, the point declares {declared!r}")
            for key in ("noise.f", "completion_mean", "mean"):
                present = key in group["params"].attrs or key in group["summary"].attrs
                assert present or math.isnan(values[key]), f"{key} absent but not NaN"


def test_bounds_table(binary, work):
    check_bounds_table(binary)


def test_old_bounds_layout(binary, work):
    check_old_bounds_layout(binary)


def check_bounds_table(binary):
    """10000 bounds: the bounds table loads in one call, and collnoise reads every bound."""
    count = 10000
    with open("py-bounds.toml", "w") as f:
        f.write(bounds_run(count))
    subprocess.run([binary, "run", "py-bounds.toml", "--out", "py-bounds.h5", "--force", "--quiet",
                    "--no-checkpoint"], check=True)
    with h5py.File("py-bounds.h5", "r") as f:
        frame = pandas.DataFrame(f["points_bounds"][()])
        assert len(frame) == count, f"{len(frame)} rows of bounds"
        assert list(frame["bound"]) == list(range(1, count + 1)), "bounds in order"
        assert list(frame["value"]) == [float(i) for i in range(1, count + 1)], "values exact"
        assert not any(re.match(r"bound_\d+_", c) for c in f["points_table"].dtype.names), (
            "no bound columns in the points table")  # the model's bound_lower is not one
        # Nothing else grows with the bounds: the summary group holds the model's fields only.
        summary = f["points"]["0000"]["summary"].attrs
        assert len(summary) < 120 and "bounds_decided" in summary, (
            f"{len(summary)} attributes in the summary group")
        assert len(f["points_table"].dtype.names) < 100, "points table columns"
    result = collnoise.load("py-bounds.h5")
    bounds = collnoise.bounds(result)
    assert len(bounds) == count, f"collnoise.bounds: {len(bounds)} rows"
    assert list(bounds.columns) == ["point", "bound", *FIELDS], (
        f"columns {list(bounds.columns)[:4]}...")
    assert list(bounds["value"]) == [float(i) for i in range(1, count + 1)], "bounds() values"
    assert set(bounds["verdict"]) == {"holds"}, f"verdicts {set(bounds['verdict'])}"
    assert bounds["name"].iloc[-1] == f"b{count}", "last name"
    assert result.units.get(f"bound_{count}_value") == "seconds", "wide column's unit"


def check_old_bounds_layout(binary):
    """A file of the layout before the bounds table (bound fields as summary attributes and
    points-table columns) reads as it did, in C++ and in Python, to the same values."""
    with open("py-bounds-3.toml", "w") as f:
        f.write(bounds_run(3))
    subprocess.run([binary, "run", "py-bounds-3.toml", "--out", "new.h5", "--force", "--quiet",
                    "--no-checkpoint"], check=True)
    new_json = subprocess.run([binary, "summary", "new.h5", "--json"], check=True,
                              capture_output=True, text=True).stdout
    with open("new.h5", "rb") as source, open("old.h5", "wb") as target:
        target.write(source.read())
    with h5py.File("old.h5", "r+") as f:
        rows = f["points_bounds"][()]
        summary = f["points"]["0000"]["summary"]
        decided = summary.attrs["bounds_decided"]
        del summary.attrs["bounds_decided"]  # re-added after the bounds, where it was
        table = f["points_table"][()]
        extra = []
        for row in rows:
            i = int(row["bound"])
            for field in FIELDS:
                value = row[field]
                key = f"bound_{i}_{field}"
                summary.attrs[key] = np.bytes_(value) if isinstance(value, bytes) else value
                extra.append((key, np.asarray([value])))
            for q in ("value", "estimate", "ci_low", "ci_high"):
                summary.attrs[f"bound_{i}_{q}_units"] = np.bytes_(b"seconds")
        summary.attrs["bounds_decided"] = decided
        import numpy.lib.recfunctions as rf
        widened = rf.append_fields(table, [k for k, _ in extra], [v for _, v in extra],
                                   usemask=False)
        units = list(f["points_table"].attrs["units"]) + [b""] * len(extra)
        sources = list(f["points_table"].attrs["sources"]) + [b"summary"] * len(extra)
        del f["points_table"]
        del f["points_bounds"]
        f["points_table"] = widened
        f["points_table"].attrs["units"] = np.array(units, dtype="S")
        f["points_table"].attrs["sources"] = np.array(sources, dtype="S")
    old_json = subprocess.run([binary, "summary", "old.h5", "--json", "--no-verify"], check=True,
                              capture_output=True, text=True).stdout
    import json
    old_point, new_point = json.loads(old_json)["points"][0], json.loads(new_json)["points"][0]
    assert old_point == new_point, "summary --json of the old layout is the new one's"
    assert list(old_point)[-1] == "bounds_decided", "bounds_decided last"
    old_bounds = collnoise.bounds(collnoise.load("old.h5", verify=False))
    new_bounds = collnoise.bounds(collnoise.load("new.h5"))
    assert list(old_bounds["value"]) == list(new_bounds["value"]) == [1.0, 2.0, 3.0], (
        "bounds() of both layouts")
    assert list(old_bounds["verdict"]) == list(new_bounds["verdict"]), "verdicts of both layouts"
    wide_old = collnoise.load("old.h5", verify=False).points
    wide_new = collnoise.load("new.h5").points
    columns = [f"bound_{i}_{field}" for i in (1, 2, 3) for field in FIELDS]
    assert sorted(wide_new.columns) == sorted(wide_old.columns), "the same points columns"
    assert wide_new[columns].iloc[0].tolist() == wide_old[columns].iloc[0].tolist(), (
        "the same bound columns")
    assert wide_new.at[0, "bound_3_value"] == 3.0, "a bound's column"
    old_point = collnoise.load("old.h5", verify=False).point(0)
    new_point = collnoise.load("new.h5").point(0)
    for i in (1, 2, 3):
        for field in FIELDS:
            key = f"bound_{i}_{field}"
            assert old_point.summary.get(key) == new_point.summary.get(key), (
                f"{key}: {old_point.summary.get(key)!r} != {new_point.summary.get(key)!r}")
        assert new_point.units.get(f"bound_{i}_value") == "seconds", "a bound's unit"



MACHINE = """[machine]
format = 1
name = "py-machine"
largest_ranks = 4
[[machine.draws]]
"loggops.o" = 1.0e-7
[[machine.draws]]
"loggops.o" = 3.0e-7
[[machine.draws]]
"loggops.o" = 2.0e-7
[loggops]
L = 1.0e-6
o = 2.0e-7
g = 0.0
G = 1.0e-9
"""

PREDICT_RUN = """name = "py-predict"
seed = 5
samples = 50
confidence = 0.9
machine = "py.machine.toml"
[collective]
kind = "schedule"
algorithm = "dissemination_barrier"
[noise]
law = "periodic"
P = 1.0e-3
D = 2.5e-5
[prediction]
draws = 3
[sweep]
"collective.N" = [4, 8]
"""


def test_predictions_table(binary, work):
    """A run with prediction.draws writes one prediction per point of its run file, read as
    Result.predictions: the draws' median with its intervals, and whether it extrapolates."""
    with open("py.machine.toml", "w") as f:
        f.write(MACHINE)
    with open("predict.toml", "w") as f:
        f.write(PREDICT_RUN)
    subprocess.run([binary, "run", "predict.toml", "--out", "predict.h5", "--quiet"], check=True)
    result = collnoise.load("predict.h5")
    assert len(result.points) == 6
    predictions = result.predictions
    assert list(predictions["collective.N"]) == [4, 8]
    assert list(predictions[collnoise.fields.extrapolation]) == [False, True]
    name = collnoise.fields.completion_mean
    for row, first in enumerate(predictions[collnoise.fields.first_point]):
        draws = result.points[name][first:first + 3].to_numpy()
        assert predictions[name][row] == pytest.approx(np.median(draws), rel=1e-15)
        low, high = np.quantile(draws, [0.05, 0.95])  # numpy's default is type 7
        assert predictions[name + collnoise.fields.PREDICTED.low][row] == pytest.approx(low)
        assert predictions[name + collnoise.fields.PREDICTED.high][row] == pytest.approx(high)
        assert predictions[name + collnoise.fields.PREDICTED.dominant][row] in (
            "calibration", "Monte Carlo")
