"""Match-queue statistics in Python (collnoise.read_queue_stats), run by ctest:

    /usr/bin/python3 -m pytest tests/python/test_queue_stats.py --collnoise-binary BINARY \
        --work-dir WORKDIR

Replays a sample of a small recursive-doubling allreduce with `collnoise timeline --queues`,
once to JSON and once to HDF5, and reads both: the same arrays, every rank's, with the counts
recursive doubling gives. Then damaged files are refused (a flipped byte of the HDF5 file, a
mean edited in the JSON, truncated JSON) and files of another kind are refused as such.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SOURCE, "python"))

import numpy as np  # noqa: E402

import collnoise  # noqa: E402
from replay_file_checks import check_damaged_refused, check_other_files_refused  # noqa: E402

RUN = """name = "queues"
seed = 3
samples = 6
[collective]
kind = "schedule"
algorithm = "recursive_doubling_allreduce"
log2_N = 4
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
"""

KEYS = [f"{q}_{k}" for q in ("posted", "unexpected")
        for k in ("samples", "mean", "max", "histogram_offsets", "histogram_counts")]


@pytest.fixture(scope="module")
def files(binary, work):
    with open("run.toml", "w", encoding="utf-8") as f:
        f.write(RUN)
    subprocess.run([binary, "run", "run.toml", "--out", "run.h5", "--quiet", "--force"],
                   check=True)
    for out in ("q.json", "q.h5"):
        subprocess.run([binary, "timeline", "run.h5", "--sample", "2", "--ranks", "0-3",
                        "--out", "t.json", "--queues", out, "--force"], check=True)
    return os.path.join(work, "q.json"), os.path.join(work, "q.h5")


def test_queue_stats_both_formats(files):
    from_json, from_h5 = (collnoise.read_queue_stats(p) for p in files)
    for key in KEYS:
        np.testing.assert_array_equal(from_json[key], from_h5[key], err_msg=key)
    assert from_json["ranks"] == from_h5["ranks"] == 16
    assert from_json["title"] == from_h5["title"]
    assert "LogGOPSim" in from_json["rule"]
    # Recursive doubling on 16 ranks: 4 receives and 4 messages a rank, every rank sampled.
    np.testing.assert_array_equal(from_json["posted_samples"], np.full(16, 4))
    np.testing.assert_array_equal(from_json["unexpected_samples"], np.full(16, 4))
    for r in range(16):
        h = from_h5["posted_histogram"][r]
        assert len(h) == from_h5["posted_max"][r] + 1
        assert from_h5["posted_mean"][r] == (h * np.arange(len(h))).sum() / h.sum()
    assert from_json["posted_mean"].dtype == np.float64
    assert from_json["unexpected_max"].dtype == np.int64


def test_queue_stats_damaged_files_refused(files, work):
    from_json, from_h5 = files

    def mean(doc):
        doc["posted_mean"][1] += 0.25

    def histogram(doc):
        doc["unexpected_histogram"][0].append(0)  # a trailing zero: not a histogram to its max

    check_damaged_refused(collnoise.read_queue_stats, from_json, from_h5,
                          [(mean, "rank 1's mean"), (histogram, "unexpected queues disagree")])


def test_queue_stats_other_files_refused(files, work):
    check_other_files_refused(collnoise.read_queue_stats, "queue statistics", "run.h5")
