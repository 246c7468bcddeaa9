"""The QQ figure of `collnoise compare` (python/collnoise/figures/qq.py), run by ctest:

    /usr/bin/python3 tests/test_compare_figure.py BINARY WORKDIR

Runs a small allreduce with raw samples, writes a per-rank table of measured times in the
format of Netgauge's collective benchmarks (generated here at a fixed seed), compares them with
`--json`, and checks the figure drawn from that JSON: its points are the JSON's QQ pairs, in the
unit shown, with the diagonal; then `collnoise compare --figure` writes a PNG (and refuses to
replace one without --force), and a JSON that is not a comparison is refused.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import numpy as np  # noqa: E402

from collnoise.figures import qq  # noqa: E402

RUN = """name = "qq"
seed = 4
samples = 300
[collective]
kind = "schedule"
algorithm = "recursive_doubling_allreduce"
log2_N = 2
message_bytes = 8
[loggops]
L = 1.0e-6
o = 1.0e-7
g = 0.0
G = 1.0e-9
[noise]
law = "periodic"
P = 1.0e-5
D = 1.0e-6
[output]
raw_samples = true
"""

failures: list[str] = []


def check(condition: bool, what: str) -> None:
    if not condition:
        failures.append(what)
        print(f"FAILED: {what}", file=sys.stderr)


def measured_table(path: str) -> None:
    rng = random.Random(17)
    with open(path, "w", encoding="utf-8") as f:
        f.write("#MessageSize " + " ".join(f"Rank{r}Time(us)" for r in range(4)) + " \n")
        for _ in range(250):
            f.write("8 " + " ".join(f"{2.5 + rng.expovariate(2.0):.6f}" for _ in range(4)) + " \n")


def main() -> int:
    binary, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    os.chdir(work)
    with open("qq.toml", "w", encoding="utf-8") as f:
        f.write(RUN)
    subprocess.run([binary, "run", "qq.toml", "--out", "qq.h5", "--force", "--quiet"], check=True)
    measured_table("measured.csv")
    done = subprocess.run([binary, "compare", "qq.h5", "measured.csv", "--json"], check=True,
                          capture_output=True, text=True)
    with open("compare.json", "w", encoding="utf-8") as f:
        f.write(done.stdout)
    comparison = qq.read_comparison("compare.json")
    check(comparison["measured"]["values"] == 250, "250 iteration maxima")

    fig = qq.qq_figure(comparison)
    points = [line for line in fig.axes[0].get_lines() if line.get_marker() == "o"]
    check(len(points) == 1, f"one line of QQ points, found {len(points)}")
    sim = np.asarray(comparison["qq"]["simulated"]) * 1e6  # seconds -> us, the unit drawn
    meas = np.asarray(comparison["qq"]["measured"]) * 1e6
    check(np.allclose(points[0].get_xdata(), sim) and np.allclose(points[0].get_ydata(), meas),
          "the points are the JSON's quantile pairs, in us")
    check("[us]" in fig.axes[0].get_ylabel(), f"y label {fig.axes[0].get_ylabel()}")
    check(any(line.get_linestyle() == "--" for line in fig.axes[0].get_lines()), "the diagonal")

    made = subprocess.run([binary, "compare", "qq.h5", "measured.csv", "--figure", "qq.png"],
                          capture_output=True, text=True)
    check(made.returncode == 0, f"compare --figure: {made.stdout} {made.stderr}")
    with open("qq.png", "rb") as f:
        check(f.read(8) == b"\x89PNG\r\n\x1a\n", "a PNG written")
    again = subprocess.run([binary, "compare", "qq.h5", "measured.csv", "--figure", "qq.png"],
                           capture_output=True, text=True)
    check(again.returncode == 2 and "--force" in again.stderr, "an existing figure kept")

    with open("other.json", "w", encoding="utf-8") as f:
        json.dump({"format": "something else"}, f)
    refused = subprocess.run([sys.executable, "-m", "collnoise.figures.qq", "other.json", "x.png"],
                             capture_output=True, text=True,
                             env={**os.environ, "PYTHONPATH": os.path.join(os.path.dirname(HERE),
                                                                           "python")})
    check(refused.returncode == 2 and "not the JSON of collnoise compare" in refused.stderr,
          f"another JSON refused: {refused.stderr}")
    if failures:
        print("\n".join(failures))
        return 1
    print("compare: the QQ figure drawn from the comparison's JSON")
    return 0


if __name__ == "__main__":
    sys.exit(main())
