"""Known-answer tests: the numbers a seed gives, pinned.

For every shipped run file, tests/known_answers/ holds one small point of it (and a few run files
for models no shipped file uses). This script runs each, reads the result, and compares the first
raw samples of every sampled point and the estimates of every point (means; the curves of an
isoefficiency point; N_1/2) with tests/known_answers/expected.json, bit for bit. Any change to the
numbers a seed gives therefore fails here: make it deliberately, record anew and say why in
CHANGELOG.md.

    known_answers.py check  COLLNOISE_BINARY WORKDIR     (ctest)
    known_answers.py record COLLNOISE_BINARY WORKDIR     (rewrites expected.json)
"""
import glob
import json
import os
import subprocess
import sys

import h5py
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = os.path.join(HERE, "known_answers")
EXPECTED = os.path.join(CASES, "expected.json")
RAW_VALUES = 8
# Summary fields that carry the estimates (scalars or series), besides raw samples.
ESTIMATE_FIELDS = ("W", "T_q", "T_o", "nhalf_exact")


def is_estimate(name):
    return name == "mean" or name.endswith("_mean") or name in ESTIMATE_FIELDS


def exact(value):
    """A number or list of numbers as exact text (hex floats round-trip every bit)."""
    if isinstance(value, (list, tuple, np.ndarray)):
        return [exact(v) for v in value]
    if isinstance(value, (int, np.integer)):
        return int(value)
    return float(value).hex()


def fingerprint(path):
    points = []
    with h5py.File(path, "r") as f:
        group = f["points"]
        for name in sorted(group):
            point = group[name]
            entry = {}
            summary = point["summary"].attrs
            for key in summary:
                value = summary[key]
                if is_estimate(key) and not isinstance(value, (bytes, str)):
                    entry[key] = exact(np.atleast_1d(value).tolist()
                                       if np.ndim(value) else value.item())
            if "tally" in point and "raw" in point["tally"]:
                entry["raw"] = exact(point["tally"]["raw"][:RAW_VALUES].tolist())
            points.append(entry)
    return points


def run_case(binary, toml, work):
    name = os.path.splitext(os.path.basename(toml))[0]
    out = os.path.join(work, name + ".h5")
    command = [binary, "run", os.path.basename(toml), "--out", out, "--quiet", "--force",
               "--no-checkpoint", "--threads", "2"]
    done = subprocess.run(command, cwd=CASES, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{name}: collnoise exited {done.returncode}: {done.stderr.strip()}")
    return name, fingerprint(out)


def main():
    mode, binary, work = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    os.makedirs(work, exist_ok=True)
    results = dict(run_case(binary, toml, work)
                   for toml in sorted(glob.glob(os.path.join(CASES, "*.toml"))))
    if mode == "record":
        with open(EXPECTED, "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"recorded {len(results)} known-answer run files into {EXPECTED}")
        return 0
    with open(EXPECTED) as f:
        expected = json.load(f)
    failures = []
    for name in sorted(set(expected) | set(results)):
        if name not in results:
            failures.append(f"{name}: expected, but no run file")
            continue
        if name not in expected:
            failures.append(f"{name}: no recorded answer (run 'record')")
            continue
        got, want = results[name], expected[name]
        if len(got) != len(want):
            failures.append(f"{name}: {len(got)} points, {len(want)} recorded")
            continue
        for i, (g, w) in enumerate(zip(got, want)):
            for key in sorted(w):
                if g.get(key) != w[key]:
                    failures.append(f"{name}, point {i}, {key}: got {g.get(key)}, recorded {w[key]}")
    for line in failures:
        print("FAIL", line)
    print(f"{len(results) - len({f.split(':')[0].split(',')[0] for f in failures})} passed, "
          f"{len({f.split(':')[0].split(',')[0] for f in failures})} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
