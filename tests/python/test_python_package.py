"""The collnoise Python package's reading API against real result files (run by ctest).

    /usr/bin/python3 -m pytest tests/python/test_python_package.py --collnoise-binary BINARY \
        --work-dir WORKDIR

load(), the points table as a DataFrame, params, summary, exact, units, series, reasons,
histograms and their UHI view, files without a points table, refused files, the former reader
(python/legacy/collnoise_reader.py, deprecated) giving what it gave, and a missing module
reported in one line.
Checksums: a damaged file (a flipped bit, a truncated copy, a malformed seal, a file h5py
changed) is refused before h5py opens it, as `collnoise verify` refuses it; verify=False reads it;
an unsealed file is read with a warning; `collnoise plot` says in one line that a file is damaged.
Special files: a FIFO, a directory or a device is refused at once with NotARegularFileError by
load (verified or not) and verify, each run under a timeout so that a regression fails instead
of hanging.
"""

from __future__ import annotations

import math
import os
import shutil
import stat
import struct
import subprocess
import sys

import pytest
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(SOURCE, "python"))
sys.path.insert(0, os.path.join(SOURCE, "python", "legacy"))

import h5py  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

import collnoise  # noqa: E402
import collnoise_reader  # noqa: E402

TREE = """name = "api-tree"
seed = 5
samples = 500
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 2.0e-6
[noise]
law = "pareto"
a = 2.5
f = 0.01
[sweep]
N = [7, 1000]
[output]
raw_samples = true
"""

NHALF = """name = "api-nhalf"
kind = "nhalf"
seed = 4
[collective]
kind = "tree_barrier"
w = 1.0e-3
tau = 2.0e-6
sampling = "per_level"
[nhalf]
check_samples = 200
[noise]
law = "exponential"
f = 0.1
"""

ISO = """name = "api-iso"
kind = "isoefficiency"
seed = 3
[isoefficiency]
efficiency = 0.5
p = 1.0e6
m = [2, 4, 8]
[[case]]
"isoefficiency.imbalance" = "proportional_w"
"isoefficiency.c1" = 1.0e-8
[[case]]
"isoefficiency.imbalance" = "inverse_m"
"isoefficiency.c1" = 1.0e-2
"""




def run(binary: str, name: str, text: str) -> str:
    with open(f"{name}.toml", "w") as f:
        f.write(text)
    subprocess.run([binary, "run", f"{name}.toml", "--out", f"{name}.h5", "--force", "--quiet",
                    "--no-checkpoint"], check=True)
    return os.path.abspath(f"{name}.h5")


def check_table(path: str) -> None:
    result = collnoise.load(path)
    with h5py.File(path, "r") as f:
        raw = pd.DataFrame(f["points_table"][()])
        names = list(f["points_table"].dtype.names)
        groups = len(f["points"])
    assert (
        isinstance(result.points, pd.DataFrame) and len(result.points) == groups == len(result)
    ), f"{path}: one row per point"
    assert list(result.points.columns) == names, f"{path}: the table's columns, in order"
    assert list(result.points["point"]) == list(range(groups)), f"{path}: row i is point i"
    for name in names:
        got, want = result.points[name], raw[name]
        if want.dtype == object:
            assert all(g == w.decode() for g, w in zip(got, want)), f"{path}: {name} as str"
        else:
            assert np.array_equal(got.to_numpy(), want.to_numpy(), equal_nan=True), (
                f"{path}: {name} values")
    assert set(result.params.columns) == {c for c in names if result.sources[c] == "params"}, (
        f"{path}: params are the parameter columns")
    assert set(result.summary.columns) == {c for c in names if result.sources[c] == "summary"}, (
        f"{path}: summary is the summary columns")


def check_tree(path: str) -> None:
    result = collnoise.load(path)
    assert result.kind == "tree_barrier" and result.name == "api-tree", "tree: kind and name"
    assert (result.units["mean"] == "seconds" and result.units["collective.w"] == "seconds"
          and result.units["samples"] == ""), f"tree: units {result.units.get('mean')!r}"
    assert "collective.N" in result.params and "mean" not in result.params, "tree: params"
    exact = result.exact
    for key in ("exact_mean", "exact_sd", "theorem1_lower", "theorem1_upper", "noiseless_time",
                "median_exact", "bound_lower"):
        assert key in exact.columns, f"tree: exact has {key}"
    for key in ("mean", "ci_low", "exact_in_ci", "exact_in_ci_adjusted", "samples", "z_score"):
        assert key not in exact.columns, f"tree: exact has no {key}"
    assert np.array_equal(exact["exact_mean"], result.points["exact_mean"]), "tree: exact values"
    # The file's nulls: NaN in the table, None with a reason in the point group.
    big = result.point(1)
    assert math.isnan(result.points.at[1, "theorem1_lower"]), "tree: null is NaN in the table"
    assert (big.summary["theorem1_lower"] is None and
          "full tree" in result.reason(1, "theorem1_lower")), "tree: the reason of a null"
    assert big.units["mean"] == "seconds" and "mean_units" not in big.summary, (
        "tree: <key>_units is a unit, not a value")
    assert len(big.raw) == 500, "tree: raw samples"
    # Histograms and their UHI view.
    h = result.histogram(1)
    assert h.name == "phase_time" and h.unit == h.units == "seconds", f"histogram {h.name}"
    assert len(h.edges) == len(h.counts) + 1 and h.total() == 500, "histogram: edges and total"
    assert result.histogram(1, "phase_time") is h, "histogram by name"
    try:
        result.histogram(1, "nothing")
        pytest.fail("an unknown histogram name accepted")
    except KeyError as e:
        assert "phase_time" in str(e), "an unknown histogram's error lists the histograms"
    u = h.to_uhi()
    axis = u.axes[0]
    assert (u.kind == "COUNT" and np.array_equal(u.values(), h.counts) and
          np.array_equal(u.variances(), h.counts) and np.array_equal(u.counts(), h.counts)), (
        "UHI: kind, values, variances, counts")
    assert (len(axis) == len(h.counts) and axis[0] == (h.edges[0], h.edges[1]) and
          axis[-1] == (h.edges[-2], h.edges[-1]) and list(axis)[3] == axis[3]), (
        "UHI: the axis is a sequence of bin edges")
    assert axis.traits.circular is False and axis.traits.discrete is False, "UHI: traits"
    assert len(u.values(flow=True)) == len(h.counts) + 2 and u.values(flow=True).sum() == 500, (
        "UHI: flow bins")
    assert h.to_uhi_dict()["storage"]["values"].sum() == 500, "UHI serialization dictionary"
    try:  # where scikit-hep's uhi is installed, the protocol check itself
        from uhi.typing.plottable import PlottableHistogram
        assert isinstance(u, PlottableHistogram), "UHI: isinstance PlottableHistogram"
    except ImportError:
        pass
    assert result.plot_hints(0)["references"][0] == "exact_mean", "plot hints"

    # The former reader gives what it gave.
    old = collnoise_reader.load(path)
    assert old.root["seed"] == 5 and old.kind == "tree_barrier" and len(old.points) == 2, (
        "collnoise_reader: root, kind, points")
    for i, p in enumerate(old.points):
        assert p.summary == result.point(i).summary and p.params == result.point(i).params, (
            "collnoise_reader: summaries and parameters")
        uhi = p.histograms["phase_time"].to_uhi()
        assert isinstance(uhi, dict) and len(uhi["storage"]["values"]) == len(h.counts) + 2, (
            "collnoise_reader: to_uhi() is the serialization dictionary")
    assert old.run_file()["seed"] == 5, "collnoise_reader: run_file()"

    # A file written before the points table: the same table, from the point groups. h5py
    # changing it breaks its checksum: read without verification, as --no-verify does.
    shutil.copy(path, "api-tree-old.h5")
    with h5py.File("api-tree-old.h5", "r+") as f:
        del f["points_table"]
    older = collnoise.load("api-tree-old.h5", verify=False)
    for column in ("collective.N", "mean", "ci_low", "theorem1_lower", "exact_mean", "ci_method"):
        assert (older.points[column].tolist() == result.points[column].tolist() or
              np.array_equal(older.points[column], result.points[column], equal_nan=True)), (
            f"no points table: {column} from the point groups")
    assert older.units["mean"] == "seconds" and older.sources["noise.f"] == "params", (
        "no points table: units and sources")

    # Refused: another format version, another kind of file.
    with h5py.File("api-tree-old.h5", "r+") as f:
        f.attrs["format_version"] = 99
    with h5py.File("other.h5", "w") as f:
        f.attrs["filetype"] = "something-else"
    for bad, word in (("api-tree-old.h5", "format_version"), ("other.h5", "filetype")):
        try:
            with warnings.catch_warnings():  # other.h5, written by h5py, has no checksum
                warnings.simplefilter("ignore", collnoise.UnsealedFileWarning)
                collnoise.load(bad, verify=False)
            pytest.fail(f"{bad} accepted")
        except collnoise.FormatError as e:
            assert word in str(e) and bad in str(e), f"{bad}: the error names {word}"


def check_nhalf(path: str) -> None:
    result = collnoise.load(path)
    exact = result.exact
    for key in ("nhalf_exact", "nhalf_paper_approx", "nhalf_full_tree", "exact_mean_at_half",
                "exact_mean_at_double", "target_time"):
        assert key in exact.columns, f"nhalf: exact has {key}"
    for key in ("check_below_mean", "check_passed", "nhalf_exact_resolved"):
        assert key not in exact.columns, f"nhalf: exact has no {key}"
    assert result.histograms(0) == {}, "nhalf: an analysis has no histograms"


def check_isoefficiency(path: str) -> None:
    result = collnoise.load(path)
    w = result.series(0, "W")
    with h5py.File(path, "r") as f:
        summary = f["points/0000/summary"].attrs
        stored, missing = summary["W"], set(summary.get("W_missing", []))
    assert len(w) == len(stored) == 3, "isoefficiency: W over m"
    assert all(math.isnan(w[i]) if i in missing else w[i] == stored[i] for i in range(len(w))), (
        "isoefficiency: a list with null entries reads as NaN there")
    assert np.array_equal(result.series(1, "m"), [2, 4, 8]), "isoefficiency: m"


def check_missing_module(work: str, path: str) -> None:
    """An interpreter without h5py: one line naming the module, exit 2."""
    fake = os.path.join(work, "without-h5py")
    os.makedirs(fake, exist_ok=True)
    with open(os.path.join(fake, "h5py.py"), "w") as f:
        f.write("raise ModuleNotFoundError(\"No module named 'h5py'\", name='h5py')\n")
    env = dict(os.environ, PYTHONPATH=f"{fake}:{os.path.join(SOURCE, 'python')}")
    done = subprocess.run([sys.executable, "-m", "collnoise.plot", path], env=env, cwd=work,
                          capture_output=True, text=True)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "h5py" in lines[0], (
        f"without h5py: exit {done.returncode}, {done.stderr!r}")


def expect_damaged(path: str, words: str) -> None:
    """collnoise.load and the former reader refuse `path` with DamagedFileError naming it and
    saying `words`."""
    for load in (collnoise.load, collnoise_reader.load):
        try:
            load(path)
            pytest.fail(f"{path}: a damaged file accepted by {load.__module__}.load")
        except collnoise.DamagedFileError as e:
            remedy = "verify=False" in str(e) or "neither" in str(e)  # as collnoise verify
            assert (e.path == path and f"'{path}'" in str(e) and words in str(e) and remedy and
                  isinstance(e, ValueError)), (
                f"{path}: the error names the file and says {words!r}: {e}")


def flipped_exponent(path: str, copy: str) -> float:
    """`copy` is `path` with the lowest exponent bit of point 0's mean flipped where the points
    table holds it (found by reading each candidate without verification); its mean as read."""
    mean = collnoise.load(path).points.at[0, "mean"]
    data = open(path, "rb").read()
    at = data.find(struct.pack("<d", mean), 512)
    while at >= 0:
        damaged = bytearray(data)
        damaged[at + 6] ^= 0x10  # bit 52 of a little-endian double: the exponent's lowest bit
        with open(copy, "wb") as f:
            f.write(damaged)
        read = collnoise.load(copy, verify=False).points.at[0, "mean"]
        if read != mean:
            return read
        at = data.find(struct.pack("<d", mean), at + 1)
    raise AssertionError(f"{path}: the mean {mean!r} is not stored in the points table")


def check_seals(binary: str, work: str, path: str) -> None:
    """The checksum, checked as `collnoise verify` checks it."""
    assert collnoise.verify(path) is True and collnoise.load(path).sealed, (
        "a file collnoise wrote: its checksum matches")
    with open(path, "rb") as f:
        seal = f.read(512).split(b"\0")[0].decode().splitlines()
    length = os.path.getsize(path) - 512
    assert seal[0] == "collnoise sealed file 1" and seal[2] == f"bytes {length}", (
        f"the seal's text: {seal}")
    import xxhash
    with open(path, "rb") as f:
        f.seek(512)
        assert seal[1] == "xxh3-128 " + xxhash.xxh3_128(f.read()).hexdigest(), (
            "the seal's digest is xxhash's hexdigest (high 64 bits first)")

    # One exponent bit flipped: the mean reads as twice or half itself without verification.
    mean = collnoise.load(path).points.at[0, "mean"]
    read = flipped_exponent(path, "flipped.h5")
    assert read in (2 * mean, mean / 2), f"flipped: the mean {mean} reads as {read} unverified"
    expect_damaged("flipped.h5", "its checksum does not match its content")
    done = subprocess.run([binary, "verify", "flipped.h5"], capture_output=True, text=True)
    assert done.returncode == 2 and "its checksum does not match its content" in done.stderr, (
        f"collnoise verify flipped.h5: {done.returncode} {done.stderr!r}")
    assert len(collnoise_reader.load("flipped.h5", verify=False).points) == 2, (
        "collnoise_reader.load(verify=False) reads a damaged file")

    # Refused before h5py parses any of it.
    import collnoise.result as result_module
    opened = []
    real = result_module.h5py.File
    result_module.h5py.File = lambda *a, **k: opened.append(a) or real(*a, **k)
    try:
        collnoise.load("flipped.h5")
    except collnoise.DamagedFileError:
        pass
    finally:
        result_module.h5py.File = real
    assert opened == [], f"a damaged file was opened by h5py: {opened}"

    # A file replaced after it was loaded is checked again before a point group is read.
    shutil.copy(path, "replaced.h5")
    result = collnoise.load("replaced.h5")
    shutil.copy("flipped.h5", "replaced.tmp")
    os.replace("replaced.tmp", "replaced.h5")
    try:
        result.point(0)
        pytest.fail("a point group read from a file damaged after it was loaded")
    except collnoise.DamagedFileError as e:
        assert "replaced.h5" in str(e), f"replaced: {e}"

    # Truncated: after the seal, and inside it.
    data = open(path, "rb").read()
    for name, size in (("truncated.h5", len(data) - 100), ("cut-in-seal.h5", 300)):
        with open(name, "wb") as f:
            f.write(data[:size])
    expect_damaged("truncated.h5", f"it holds {len(data) - 612} bytes after its seal, the seal "
                                   f"says {len(data) - 512} (truncated or extended)")
    expect_damaged("cut-in-seal.h5", "is neither a collnoise file nor HDF5")

    # A malformed seal: a misspelt tag, a length that is no number, a byte after the seal.
    end, digit = data.index(b"\0"), data.index(b"bytes ") + len("bytes ")
    for name, damaged in (("tag.h5", data.replace(b"bytes ", b"bytez ", 1)),
                          ("length.h5", data[:digit] + b"x" + data[digit + 1:]),
                          ("tail.h5", data[:end + 5] + b"x" + data[end + 6:])):
        with open(name, "wb") as f:
            f.write(damaged)
        expect_damaged(name, "its seal is unreadable")
        done = subprocess.run([binary, "verify", name], capture_output=True, text=True)
        assert done.returncode == 2 and "its seal is unreadable" in done.stderr, (
            f"collnoise verify {name}: {done.returncode} {done.stderr!r}")

    # Without a seal (an HDF5 file another program wrote, here h5py): read with a warning.
    with h5py.File(path, "r") as src, h5py.File("unsealed.h5", "w") as dst:
        for key in src:
            src.copy(src[key], dst)
        for key, value in src.attrs.items():
            dst.attrs[key] = value
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        unsealed = collnoise.load("unsealed.h5")
    notes = [w for w in seen if issubclass(w.category, collnoise.UnsealedFileWarning)]
    assert len(notes) == 1 and "'unsealed.h5' carries no checksum" in str(notes[0].message), (
        f"unsealed: one warning naming the file: {[str(w.message) for w in seen]}")
    assert unsealed.points.at[0, "mean"] == mean and not unsealed.sealed, "unsealed: read"
    done = subprocess.run([binary, "verify", "unsealed.h5"], capture_output=True, text=True)
    assert done.returncode == 0 and "no checksum" in done.stdout, "collnoise verify: no checksum"

    # collnoise plot: one line naming the damaged file, exit 2, no traceback; --no-verify draws.
    for name in ("flipped.h5", "truncated.h5", "tag.h5"):
        done = subprocess.run([binary, "plot", name, "--out", "damaged-figures"],
                              capture_output=True, text=True)
        lines = done.stderr.strip().splitlines()
        assert (done.returncode == 2 and len(lines) == 1 and
              f"error: '{name}' is damaged: " in lines[0] and "--no-verify" in lines[0] and
              done.stdout == ""), f"collnoise plot {name}: exit {done.returncode}, {done.stderr!r}"
    done = subprocess.run([binary, "plot", "flipped.h5", "--no-verify", "--out", "unverified"],
                          capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() and done.stderr == "", (
        f"collnoise plot --no-verify: exit {done.returncode}, {done.stderr!r}")

    # Without xxhash: one line saying what to install, unless the check is skipped.
    fake = os.path.join(work, "without-xxhash")
    os.makedirs(fake, exist_ok=True)
    with open(os.path.join(fake, "xxhash.py"), "w") as f:
        f.write("raise ModuleNotFoundError(\"No module named 'xxhash'\", name='xxhash')\n")
    env = dict(os.environ, PYTHONPATH=f"{fake}:{os.path.join(SOURCE, 'python')}")
    code = ("import collnoise\ntry:\n    collnoise.load({0!r})\nexcept ModuleNotFoundError as e:"
            "\n    print(e)\nprint(collnoise.load({0!r}, verify=False).points.at[0, 'mean'])")
    done = subprocess.run([sys.executable, "-c", code.format(path)], env=env, capture_output=True,
                          text=True)
    out = done.stdout.splitlines()
    assert (done.returncode == 0 and len(out) == 2 and "python3-xxhash" in out[0] and
          path in out[0] and float(out[1]) == mean), f"without xxhash: {done.stdout!r}"
    done = subprocess.run([sys.executable, "-m", "collnoise.plot", path], env=env, cwd=work,
                          capture_output=True, text=True)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and "python3-xxhash" in lines[0], (
        f"collnoise plot without xxhash: exit {done.returncode}, {done.stderr!r}")


def check_special_files(work: str) -> None:
    """A FIFO, a directory or a device given to load() or verify() is refused at once, in a
    subprocess with a timeout (a FIFO opened by h5py or open() would block it for ever)."""
    fifo = os.path.join(work, "result-fifo.h5")
    if os.path.lexists(fifo):
        os.unlink(fifo)
    os.mkfifo(fifo)
    folder = os.path.join(work, "result-folder.h5")
    os.makedirs(folder, exist_ok=True)
    code = ("import collnoise, sys\n"
            "for call in (lambda: collnoise.load(sys.argv[1]),\n"
            "             lambda: collnoise.load(sys.argv[1], verify=False),\n"
            "             lambda: collnoise.verify(sys.argv[1])):\n"
            "    try:\n"
            "        call()\n"
            "        print('read')\n"
            "    except collnoise.NotARegularFileError as e:\n"
            "        assert isinstance(e, collnoise.FormatError) and isinstance(e, ValueError)\n"
            "        print(e.path, '|', e.kind, '|', e)\n")
    env = dict(os.environ, PYTHONPATH=os.path.join(SOURCE, "python"))
    for path, kind in ((fifo, "a FIFO (pipe)"), (folder, "a directory"),
                       ("/dev/zero", "a character device")):
        message = (f"'{path}' is {kind}, not a regular file: results, parts and checkpoints are "
                   f"read only from regular files")
        try:
            done = subprocess.run([sys.executable, "-c", code, path], env=env, timeout=10,
                                  capture_output=True, text=True)
        except subprocess.TimeoutExpired:
            assert False, f"collnoise.load({path!r}) still waits after 10 s"
            continue
        assert done.returncode == 0 and done.stdout == f"{path} | {kind} | {message}\n" * 3, (
            f"load/verify {path}: exit {done.returncode}, {done.stdout!r} {done.stderr!r}")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode), "the FIFO is kept"


@pytest.fixture(scope="module")
def results(binary, work) -> dict[str, str]:
    return {n: run(binary, n, t) for n, t in
            (("api-tree", TREE), ("api-nhalf", NHALF), ("api-iso", ISO))}


@pytest.mark.parametrize("name", ["api-tree", "api-nhalf", "api-iso"])
def test_table(results, name):
    check_table(results[name])


def test_tree(results):
    check_tree(results["api-tree"])


def test_nhalf(results):
    check_nhalf(results["api-nhalf"])


def test_isoefficiency(results):
    check_isoefficiency(results["api-iso"])


def test_missing_module(work, results):
    check_missing_module(work, results["api-tree"])


def test_seals(binary, work, results):
    check_seals(binary, work, results["api-tree"])


def test_special_files(work):
    check_special_files(work)
