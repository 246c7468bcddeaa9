"""The links' load in Python (collnoise.read_link_load), run by ctest:

    /usr/bin/python3 -m pytest tests/python/test_link_load.py --collnoise-binary BINARY \
        --work-dir WORKDIR

Replays a sample of a small recursive-doubling allreduce on a fat tree under the flow model with
background traffic, with `collnoise timeline --links`, once to JSON and once to HDF5, and reads
both: the same arrays, busiest first, utilisations of their bytes, the busiest links' steps.
Then damaged files are refused (a flipped byte of the HDF5 file, a utilisation edited in the
JSON, steps out of order, truncated JSON) and files of another kind are refused as such.
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

RUN = """name = "links"
seed = 3
samples = 4
[collective]
kind = "schedule"
algorithm = "recursive_doubling_allreduce"
log2_N = 3
message_bytes = 65536
[loggops]
L = 1.0e-6
o = 1.0e-7
g = 0.0
G = 1.0e-9
[noise]
law = "periodic"
P = 1.0e-5
D = 1.0e-6
[network]
topology = "xgft(2; 4,4; 1,2)"
contention = "flows"
rho = 0.25
"""

ARRAYS = ("link", "bytes_carried", "busy_ns", "mean_messages", "max_messages", "mean_rate",
          "max_rate", "bandwidth", "utilisation", "background_messages", "step_offsets",
          "step_times_ns", "step_messages", "step_rates", "step_end_ns", "steps_truncated")


@pytest.fixture(scope="module")
def files(binary, work):
    with open("run.toml", "w", encoding="utf-8") as f:
        f.write(RUN)
    subprocess.run([binary, "run", "run.toml", "--out", "run.h5", "--quiet", "--force"],
                   check=True)
    for out in ("k.json", "k.h5"):
        subprocess.run([binary, "timeline", "run.h5", "--sample", "1", "--out", "t.json",
                        "--links", out, "--top-links", "3", "--force"], check=True)
    return os.path.join(work, "k.json"), os.path.join(work, "k.h5")


def test_link_load_both_formats(files):
    from_json, from_h5 = (collnoise.read_link_load(p) for p in files)
    for key in ARRAYS:
        np.testing.assert_array_equal(from_json[key], from_h5[key], err_msg=key)
    assert from_json["link_name"] == from_h5["link_name"]
    assert from_json["model"] == "flows"
    assert from_json["completion_ns"] == from_h5["completion_ns"] > 0
    # Busiest first, by bytes; every utilisation its bytes over bandwidth x completion.
    assert np.all(np.diff(from_h5["bytes_carried"]) <= 0)
    np.testing.assert_array_equal(
        from_h5["utilisation"],
        from_h5["bytes_carried"] / (from_h5["bandwidth"] * from_h5["completion_ns"]))
    # 1 GB/s links (1/G): 1 byte per ns; each rank's up-link carries its three messages' bytes.
    assert np.all(from_h5["bandwidth"] == 1.0)
    assert from_h5["bytes_carried"][0] >= 3 * 65535
    # The three busiest links' steps, from 0 to the completion; a flow's rate never beyond the
    # link's bandwidth.
    assert len(from_h5["steps"]) == 3
    for s in from_h5["steps"]:
        assert s["times_ns"][0] == 0.0 and s["end_ns"] == from_h5["completion_ns"]
        assert not s["truncated"]
        assert np.all(s["rates"] <= 1.0 + 1e-12)
    assert from_h5["steps"][0]["link_name"] == from_h5["link_name"][0]
    assert from_json["link"].dtype == np.int64 and from_json["busy_ns"].dtype == np.float64


def test_link_load_damaged_files_refused(files, work):
    from_json, from_h5 = files

    def utilisation(doc):
        doc["utilisation"][1] *= 1.5

    def steps(doc):
        doc["step_times_ns"][0].reverse()

    check_damaged_refused(collnoise.read_link_load, from_json, from_h5,
                          [(utilisation, "utilisation"), (steps, "steps are not increasing")])


def test_link_load_other_files_refused(files, work):
    check_other_files_refused(collnoise.read_link_load, "link load", "run.h5")
