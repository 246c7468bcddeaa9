"""The deprecated Python reader and plotting script (python/legacy/) against real result files
(run by ctest): both check a file's checksum before reading it, and both say in one line on
stderr that they are deprecated. They go with the next result format version.

    /usr/bin/python3 -m pytest tests/python/test_reader.py --collnoise-binary BINARY \
        --work-dir WORKDIR
"""
import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
LEGACY = os.path.join(HERE, "..", "..", "python", "legacy")
PLOT_RESULT = os.path.join(LEGACY, "plot_result.py")
READER_NOTE = "collnoise_reader is deprecated: use the collnoise package (docs/python.md)"
PLOT_NOTE = "plot_result.py is deprecated: use collnoise plot (docs/python.md)"
sys.path.insert(0, LEGACY)
import collnoise_reader as cr  # noqa: E402

TREE = """name = "reader-tree"
seed = 5
samples = 2000
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 2.0e-6
[noise]
law = "pareto"
a = 1.8
f = 0.01
[sweep]
N = [7, 1000]
[output]
raw_phase_times = true
[plot]
title = "reader test"
"""

CYCLES = """name = "reader-cycles"
seed = 5
replications = 6
[collective]
kind = "butterfly"
cycles = 3
W = 1.0e-4
[noise]
law = "periodic"
P = 1.0e-3
D = 5.0e-5
[sweep]
N = [4, 64]
"""


@pytest.fixture(scope="module")
def results(binary, work):
    """The two runs, each with its `summary --json`."""
    summaries = {}
    for name, text in [("reader-tree", TREE), ("reader-cycles", CYCLES)]:
        with open(f"{name}.toml", "w") as f:
            f.write(text)
        subprocess.run([binary, "run", f"{name}.toml", "--out", f"{name}.h5", "--force",
                        "--quiet"], check=True)
        summaries[name] = json.loads(subprocess.run(
            [binary, "summary", f"{name}.h5", "--json"], check=True, capture_output=True,
            text=True).stdout)
    return summaries


@pytest.mark.parametrize("name", ["reader-tree", "reader-cycles"])
def test_reader_gives_the_summary_and_the_script_plots(results, name):
    summary = results[name]
    result = cr.load(f"{name}.h5")
    assert len(result.points) == len(summary["points"]), f"{name}: point count"
    assert result.root["seed"] == 5, f"{name}: seed"
    for p, s in zip(result.points, summary["points"]):
        for key, value in s.items():
            if key == "params" or key.endswith("_reason"):
                continue
            got = p.summary.get(key)
            if value is None:
                assert got is None and p.reasons.get(key) == s[key + "_reason"], (
                    f"{name}: {key} null with its reason")
            elif isinstance(value, float):
                assert got is not None and abs(got - value) <= 1e-15 * abs(value), (
                    f"{name}: {key} = {got}, json {value}")
            else:
                assert got == value, f"{name}: {key} = {got!r}, json {value!r}"
        for h in p.histograms.values():
            assert len(h.edges) == len(h.counts) + 1, f"{name}: {h.name} edges"
            uhi = h.to_uhi()
            assert len(uhi["storage"]["values"]) == len(h.counts) + 2, f"{name}: UHI flow bins"
    done = subprocess.run([sys.executable, PLOT_RESULT, f"{name}.h5", "--out", "figures"],
                          check=True, capture_output=True, text=True)
    out = done.stdout.split()
    assert len(out) >= 1 and all(os.path.getsize(f) > 10000 for f in out), f"{name}: figures"
    assert done.stderr.splitlines() == [PLOT_NOTE], f"plot_result.py's note: {done.stderr!r}"

def test_tree_points_raw_samples_and_reasons(results):
    tree = cr.load("reader-tree.h5")
    p = tree.points[1]
    assert len(p.raw) == 2000 and abs(p.raw.mean() - p.metrics["phase_time"]["mean"]) < 1e-12, (
        "raw phase times and the folded mean")
    assert p.summary["mean"] > 0 and p.summary["ci_method"] == "semiparametric_peng", (
        "heavy tail: semiparametric interval")
    assert tree.points[0].summary["theorem1_lower"] is not None, "N = 7 is a full tree"
    assert (tree.points[1].summary["theorem1_lower"] is None and
          "full tree" in tree.points[1].reasons["theorem1_lower"]), "N = 1000 is not"
    assert all(isinstance(q.wall_time_s, float) and q.wall_time_s >= 0 for q in tree.points), (
        "every point's wall time, outside its summary")
    assert all("wall_time_s" not in q.summary for q in tree.points), "no wall time in a summary"


# A file of another format version is refused with a clear message. h5py changing the file
# breaks its checksum: refused as damaged, by the reader and by the plotting script, unless read
# without verification.
def test_changed_file_refused(results):
    import h5py

    with h5py.File("reader-tree.h5", "r+") as f:
        f.attrs["format_version"] = 99
    try:
        cr.load("reader-tree.h5")
        pytest.fail("a file changed by h5py accepted")
    except cr.DamagedFileError as e:
        assert "'reader-tree.h5' is damaged: " in str(e) and "verify=False" in str(e), (
            f"a changed file: the error names it and says it is damaged: {e}")
    done = subprocess.run([sys.executable, PLOT_RESULT, "reader-tree.h5", "--out", "figures"],
                          capture_output=True, text=True)
    lines = done.stderr.strip().splitlines()
    assert (done.returncode == 2 and len(lines) == 2 and lines[0] == PLOT_NOTE and
          "'reader-tree.h5' is damaged" in lines[1] and "Traceback" not in done.stderr), (
        f"plot_result.py on a changed file: {done.stderr!r}")
    try:
        cr.load("reader-tree.h5", verify=False)
        pytest.fail("format version 99 accepted")
    except cr.FormatError as e:
        assert "format_version" in str(e), "format error names the attribute"


# Importing the reader says once, in one line, that it is deprecated (from any folder, finding
# the package beside it).
def test_import_says_deprecated_once():
    done = subprocess.run([sys.executable, "-c", "import collnoise_reader, collnoise_reader"],
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": LEGACY})
    assert done.returncode == 0 and done.stderr.splitlines() == [READER_NOTE], (
        f"importing collnoise_reader: {done.stderr!r}")


# The deprecated scripts are kept until the next format version, then removed.
def test_legacy_goes_with_the_next_format_version():
    assert cr.FORMAT_VERSION == 2, ("a new result format version: remove python/legacy/ (the "
          "deprecated collnoise_reader and plot_result.py), their install rules and this test")
