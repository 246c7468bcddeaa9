"""The QQ figure of `collnoise compare` (python/collnoise/figures/qq.py), run by ctest:

    /usr/bin/python3 -m pytest tests/python/test_compare_figure.py --collnoise-binary BINARY \
        --work-dir WORKDIR

Runs a small allreduce with raw samples, writes a per-rank table of measured times in the
format of Netgauge's collective benchmarks (generated here at a fixed seed), compares them with
`--json`, and checks the figure drawn from that JSON: its points are the JSON's QQ pairs, in the
unit shown, with the diagonal; then `collnoise compare --figure` writes a PNG (and refuses to
replace one without --force), and a JSON that is not a comparison is refused. A figure that
cannot be written (a missing folder, a full disk) exits 1 naming the figure, not its temporary;
SIGTERM while Python draws exits 3 and leaves neither the figure nor a temporary.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys

import pytest
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.join(os.path.dirname(os.path.dirname(HERE)), "python")
sys.path.insert(0, PACKAGE)

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




def measured_table(path: str) -> None:
    rng = random.Random(17)
    with open(path, "w", encoding="utf-8") as f:
        f.write("#MessageSize " + " ".join(f"Rank{r}Time(us)" for r in range(4)) + " \n")
        for _ in range(250):
            f.write("8 " + " ".join(f"{2.5 + rng.expovariate(2.0):.6f}" for _ in range(4)) + " \n")


def leftovers(folder: str) -> list[str]:
    """Temporaries left in `folder`: Python's figure temporaries and compare's data files."""
    return [n for n in os.listdir(folder) if n.endswith(".tmp") or n.startswith("collnoise-")]


def figure_failures(binary: str) -> None:
    """A figure that cannot be written names its own path and exits 1; a stop request while
    Python draws leaves no temporary and exits 3."""
    env = {**os.environ, "PYTHONPATH": PACKAGE}
    # Python alone: a missing folder is named as the figure's, not as its hidden temporary.
    missing = subprocess.run([sys.executable, "-m", "collnoise.figures.qq", "compare.json",
                              "no-such-folder/qq.png"], capture_output=True, text=True, env=env)
    assert (missing.returncode == 1 and missing.stderr.strip() ==
          "collnoise.figures.qq: failure: cannot write the figure 'no-such-folder/qq.png': "
          "No such file or directory"), f"a missing folder: {missing.returncode} {missing.stderr}"

    # SIGTERM while the figure is being written: its temporary is removed, exit 128 + 15.
    from collnoise.figures import common

    os.makedirs("stopped", exist_ok=True)

    def draw_and_stop(json_path: str, out_path: str) -> str:
        fig = qq.qq_figure(qq.read_comparison(json_path))
        original = fig.savefig

        def savefig(f, **kwargs):
            original(f, **kwargs)
            os.kill(os.getpid(), signal.SIGTERM)  # after bytes reached the temporary

        fig.savefig = savefig
        common.save_figure(fig, out_path, "png", 72)
        return out_path

    previous = signal.getsignal(signal.SIGTERM)
    code = common.extra_figure_main(["compare.json", "stopped/qq.png"], "qq", draw_and_stop,
                                    "COMPARE.json")
    signal.signal(signal.SIGTERM, previous)
    signal.signal(signal.SIGUSR1, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    assert code == 128 + signal.SIGTERM, f"stopped while writing: exit {code}"
    assert os.listdir("stopped") == [], f"nothing left when stopped: {os.listdir('stopped')}"

    # A full disk: the folder passes compare's checks, the write fails in Python: exit 1,
    # naming the figure. Needs root for a small tmpfs.
    os.makedirs("full", exist_ok=True)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", "full"],
                             capture_output=True).returncode == 0
    if not mounted:
        print("skipped: a full disk needs a small tmpfs (mount as root)")
    else:
        try:
            with open("full/fill", "wb") as f:
                f.write(b"\0" * 12000)
            full = subprocess.run([binary, "compare", "qq.h5", "measured.csv", "--figure",
                                   "full/qq.png"], capture_output=True, text=True)
            assert (full.returncode == 1 and "collnoise.figures.qq: failure: cannot write the "
                  "figure 'full/qq.png': No space left on device" in full.stderr
                  and ".tmp" not in full.stderr), f"a full disk: {full.returncode} {full.stderr}"
            assert sorted(os.listdir("full")) == ["fill"], (f"left on the full disk: "
                  f"{os.listdir('full')}")
        finally:
            subprocess.run(["umount", "full"])

    # SIGTERM to compare alone and to its process group, while Python draws: exit 3, one line,
    # neither the figure nor a temporary left (the comparison's data file in TMPDIR included).
    os.makedirs("tmpdir", exist_ok=True)
    for group in (False, True):
        for delay in (0.2, 0.9):
            if os.path.exists("signalled.png"):
                os.unlink("signalled.png")
            child = subprocess.Popen([binary, "compare", "qq.h5", "measured.csv", "--figure",
                                      "signalled.png"], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, text=True,
                                     env={**os.environ, "TMPDIR": os.path.abspath("tmpdir")},
                                     start_new_session=group)
            time.sleep(delay)
            started = time.monotonic()
            if group:
                os.killpg(child.pid, signal.SIGTERM)
            else:
                child.send_signal(signal.SIGTERM)
            _, err = child.communicate(timeout=30)
            took = time.monotonic() - started
            what = f"SIGTERM {'to the group' if group else 'to compare'} after {delay} s"
            if child.returncode == 0:  # drawn whole before the signal came
                assert (os.path.exists("signalled.png") and leftovers(".") == []
                      and leftovers("tmpdir") == []), (f"{what}: exit 0 without the figure, or "
                      f"with {leftovers('.')} {leftovers('tmpdir')}")
                continue
            assert child.returncode == 3 and "collnoise: interrupted by signal 15" in err, (
                f"{what}: exit {child.returncode} {err}")
            assert took < 1.0, f"{what}: ended {took:.2f} s after the signal"
            assert not os.path.exists("signalled.png"), f"{what}: no figure"
            assert leftovers(".") == [] and leftovers("tmpdir") == [], (
                f"{what}: left {leftovers('.')} {leftovers('tmpdir')}")


@pytest.fixture(scope="module")
def comparison(binary, work) -> dict:
    """A small run compared with a generated per-rank table: compare.json, read back."""
    with open("qq.toml", "w", encoding="utf-8") as f:
        f.write(RUN)
    subprocess.run([binary, "run", "qq.toml", "--out", "qq.h5", "--force", "--quiet"], check=True)
    measured_table("measured.csv")
    done = subprocess.run([binary, "compare", "qq.h5", "measured.csv", "--json"], check=True,
                          capture_output=True, text=True)
    with open("compare.json", "w", encoding="utf-8") as f:
        f.write(done.stdout)
    return qq.read_comparison("compare.json")


def test_qq_figure_from_the_json(comparison):
    assert comparison["measured"]["values"] == 250, "250 iteration maxima"

    fig = qq.qq_figure(comparison)
    points = [line for line in fig.axes[0].get_lines() if line.get_marker() == "o"]
    assert len(points) == 1, f"one line of QQ points, found {len(points)}"
    sim = np.asarray(comparison["qq"]["simulated"]) * 1e6  # seconds -> us, the unit drawn
    meas = np.asarray(comparison["qq"]["measured"]) * 1e6
    assert np.allclose(points[0].get_xdata(), sim) and np.allclose(points[0].get_ydata(), meas), (
        "the points are the JSON's quantile pairs, in us")
    assert "[us]" in fig.axes[0].get_ylabel(), f"y label {fig.axes[0].get_ylabel()}"
    assert any(line.get_linestyle() == "--" for line in fig.axes[0].get_lines()), "the diagonal"



def test_compare_draws_the_figure(binary, comparison):
    made = subprocess.run([binary, "compare", "qq.h5", "measured.csv", "--figure", "qq.png"],
                          capture_output=True, text=True)
    assert made.returncode == 0, f"compare --figure: {made.stdout} {made.stderr}"
    with open("qq.png", "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n", "a PNG written"
    again = subprocess.run([binary, "compare", "qq.h5", "measured.csv", "--figure", "qq.png"],
                           capture_output=True, text=True)
    assert again.returncode == 2 and "--force" in again.stderr, "an existing figure kept"



def test_another_json_refused(comparison):
    with open("other.json", "w", encoding="utf-8") as f:
        json.dump({"format": "something else"}, f)
    refused = subprocess.run([sys.executable, "-m", "collnoise.figures.qq", "other.json", "x.png"],
                             capture_output=True, text=True,
                             env={**os.environ, "PYTHONPATH": PACKAGE})
    assert refused.returncode == 2 and "not the JSON of collnoise compare" in refused.stderr, (
        f"another JSON refused: {refused.stderr}")


def test_figure_failures(binary, comparison):
    figure_failures(binary)
