"""A fresh result's points table loads in one call with h5py and pandas (docs/hdf5-layout.md).

    /usr/bin/python3 tests/test_points_table.py BINARY WORKDIR

Runs collnoise on a small sweep that mixes kinds of points, then checks that
pandas.DataFrame(h5py.File(path)["points_table"][()]) has one row per point, the units and
sources attributes aligned with its columns, and the values of the point groups.
"""

import math
import os
import subprocess
import sys

import h5py
import numpy as np
import pandas

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

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def main():
    binary, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.makedirs(work, exist_ok=True)
    os.chdir(work)
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
        check(len(frame) == len(groups) == 4, f"{len(frame)} rows, {len(groups)} points")
        check(len(units) == len(frame.columns) == len(sources), "units and sources aligned")
        unit = dict(zip(frame.columns, units))
        check(unit["collective.w"] == "seconds", f"collective.w in {unit['collective.w']!r}")
        check(unit["mean"] == "seconds", f"mean in {unit['mean']!r}")
        check(unit["completion_mean"] == "seconds", "completion_mean in seconds")
        check(unit["samples"] == "", "samples has no unit")
        check(dict(zip(frame.columns, sources))["noise.f"] == "params", "noise.f from params")
        check(list(frame["point"]) == [0, 1, 2, 3], "point index")
        check(frame["exact_in_ci"].dtype == np.float64, "a bool column with gaps is float64")
        for i, group in enumerate(groups):
            values = frame.iloc[i].to_dict()
            kind = group.attrs["kind"]
            check(values["kind"].decode() == (kind.decode() if isinstance(kind, bytes) else kind),
                  "kind")
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
                        check(got == value, f"{source}.{key}: {got!r} != {value!r}")
                    else:
                        check(float(got) == float(value), f"{source}.{key}: {got} != {value}")
                    declared = group[source].attrs.get(key + "_units", b"")
                    declared = declared.decode() if isinstance(declared, bytes) else declared
                    check(declared == "" or declared in unit[key].split(" | "),
                          f"{key}: unit {unit[key]!r}, the point declares {declared!r}")
            for key in ("noise.f", "completion_mean", "mean"):
                present = key in group["params"].attrs or key in group["summary"].attrs
                check(present or math.isnan(values[key]), f"{key} absent but not NaN")
    if failures:
        print("\n".join(failures))
        sys.exit(1)
    print("points table: one call, rows and units as in the point groups")


if __name__ == "__main__":
    main()
