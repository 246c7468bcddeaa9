#!/usr/bin/env python3
"""Simulated against measured: the validation of a machine model on the public Netgauge data set.

For every case of bench/validation-cases.csv (system, table run, Netgauge run, pattern, N, bytes,
set), this script builds a run file from that machine's Netgauge files alone (a recipe: nothing
in it comes from the measured table), runs `collnoise run`, and compares the simulated times
with the measured table by `collnoise compare --json`, in `--mode max` (per iteration, the
largest rank time against the simulated sample: the targets) and `--mode ranks` (every rank's
time). It writes, per case and mode, the Kolmogorov-Smirnov distance with its interval, the
Wasserstein-1 distance relative to the measured median, and the ratio of the medians
(simulated / measured); then the summary the targets are stated in (docs/validation.md).

The data set (DanieleDeSensi/cloud_noise_data) is not shipped with collnoise (it has no
license): clone it and give its path. Its archives are unpacked into --work as needed.

    /usr/bin/python3 bench/validate_measured.py DATASET --collnoise build/collnoise \\
        --recipe before --schedgen FORK_SCHEDGEN --out bench/validation-before

Recipes:
  before  today's recipe of docs/models/netgauge-files.md: LogGP from ng_loggp.out at the
          message's row, the detour trace replayed on every rank, the 1-byte latency pool drawn
          as an excess; every rank enters at 0 and the completion is timed. The benchmarks'
          patterns are the authors' GOAL files (their Schedgen fork, given by --schedgen: a
          generator of the files, never a dependency), but for the two with an equal built-in.
  after   the machine as the benchmark runs it: the built-in patterns at their own message
          sizes, LogGP per protocol regime (loggops.file_fit = "regimes"), the detour trace,
          ranks entering from a simulated barrier and each timed from its own start.
  after-pools  the same patterns and LogGP with each message's one-way time drawn from the
          latency, bandwidth and one-one pools around its size (whole samples, warm-up
          dropped), every rank entering at 0 and the completion timed.

Only the standard library and collnoise are used.
"""
import argparse
import csv
import json
import math
import os
import statistics
import subprocess
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
MODES = ("max", "ranks")
RESULT_COLUMNS = ["system", "pattern", "N", "bytes", "set", "recipe", "mode", "ks", "ks_low",
                  "ks_high", "w1_relative", "median_ratio", "simulated_median",
                  "measured_median", "note"]


def read_cases(path, wanted_sets):
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f)]
    for r in rows:
        r["N"], r["bytes"] = int(r["N"]), int(r["bytes"])
    return [r for r in rows if r["set"] in wanted_sets]


def unpacked(dataset, work, run):
    """The folder of `run` (e.g. daint/2022_05_13_17_07_22) under `work`, unpacked once."""
    folder = os.path.join(work, run)
    if os.path.isdir(folder):
        return folder
    archive = os.path.join(dataset, run + ".tar.xz")
    if not os.path.isfile(archive):
        raise SystemExit(f"validate_measured: {archive}: no such archive in the data set")
    parent = os.path.dirname(folder)
    os.makedirs(parent, exist_ok=True)
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():  # the archive's own folder only, no links out of it
            inside = os.path.realpath(os.path.join(parent, member.name))
            if not inside.startswith(os.path.realpath(parent) + os.sep) or member.issym() \
                    or member.islnk():
                raise SystemExit(f"validate_measured: {archive}: refusing {member.name!r}")
        tar.extractall(parent)
    if not os.path.isdir(folder):
        raise SystemExit(f"validate_measured: {archive} did not unpack into {folder}")
    return folder


def base_pattern(pattern):
    """The benchmark's pattern without the MPI variant's suffix (_test polls, _nbsend Isends)."""
    for suffix in ("_test", "_nbsend"):
        if pattern.endswith(suffix):
            return pattern[: -len(suffix)]
    return pattern


def fork_goal(schedgen, pattern, n, nbytes, path):
    """Writes the authors' GOAL file of `pattern` (their Schedgen fork's rules, as simulate.py
    calls it: the ring's segment int(bytes/N); the _nocompute variant with every calc 0)."""
    if schedgen is None:
        raise SystemExit(f"validate_measured: the pattern {pattern} needs --schedgen (the "
                         f"authors' Schedgen fork) under the 'before' recipe")
    name = "nwaydissemination" if pattern == "nwaydissemination_nocompute" else pattern
    args = [schedgen, "-s", str(n), "-p", name, "-d", str(nbytes), "-o", path]
    if name == "pipelinedring":
        args += ["--segmentsize", str(nbytes // n)]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    if pattern == "nwaydissemination_nocompute":
        with open(path) as f:
            lines = f.read().splitlines()
        with open(path, "w") as f:
            for line in lines:
                parts = line.split()
                f.write(f"{parts[0]} calc 0\n" if len(parts) == 3 and parts[1] == "calc"
                        else line + "\n")


def message_bytes(pattern, n, nbytes):
    """The size of the pattern's messages (the ring's segment), for the LogGP row."""
    return max(1, nbytes // n) if pattern == "pipelinedring" else nbytes


def before_collective(case, schedgen, folder):
    """The [collective] table of today's recipe and the LogGP row it reads."""
    pattern, n, nbytes = base_pattern(case["pattern"]), case["N"], case["bytes"]
    row = message_bytes(pattern, n, nbytes)
    if pattern == "nwaydissemination_nocompute":  # equal noiselessly (docs/models/schedules.md)
        return (f'algorithm = "dissemination_barrier"\nN = {n}\nmessage_bytes = {nbytes}\n'
                f'receives = "preposted"\n', row)
    if pattern == "binomialtreebcast":
        return f'algorithm = "binomial_broadcast"\nN = {n}\nmessage_bytes = {nbytes}\n', row
    goal = os.path.join(folder, "pattern.goal")
    fork_goal(schedgen, pattern, n, nbytes, goal)
    return f'goal = "{goal}"\n', row


def before_run_file(case, netgauge, schedgen, folder, samples):
    collective, row = before_collective(case, schedgen, folder)
    return (f'name = "validation"\nseed = 1\nsamples = {samples}\n\n'
            f'[collective]\nkind = "schedule"\n{collective}\n'
            f'[loggops]\nfile = "{netgauge}/ng_loggp.out"\nfile_bytes = {row}\n\n'
            f'[noise]\nlaw = "trace"\nfile = "{netgauge}/ng_osnoise.out"\n\n'
            f'[latency]\nfile = "{netgauge}/ng_netnoise_mpi_lat.out"\n\n'
            f'[output]\nraw_samples = true\n')


# The benchmarks' patterns as collnoise's built-ins (docs/reference/algorithms.md): each equal
# noiselessly to the authors' Schedgen fork's GOAL output (binomialtreebcast up to the ranks'
# bit-reversed numbering, the same times at powers of two).
BUILT_INS = {"nwaydissemination": 'algorithm = "nway_dissemination"\n',
             "nwaydissemination_nocompute":
                 'algorithm = "nway_dissemination"\ncompute = false\n',
             "pipelinedring": 'algorithm = "pipelined_ring"\n',
             "binomialtreebcast": 'algorithm = "binomial_broadcast"\n',
             "binarytreebcast": 'algorithm = "binary_tree_broadcast"\n',
             "linear_alltoall": 'algorithm = "linear_alltoall"\n'}

# What the 'after' recipe asks of a run beside its collective (docs/validation.md): how ranks
# enter and how time is taken, as the benchmarks do. Constants of the run file, none from a table.
AFTER_ENTRY = ('[entry]\nmode = "barrier"\nbarrier = "dissemination_barrier"\n\n'
               '[timing]\nmeasure = "per_rank"\n\n')


def netgauge_pools(netgauge):
    """The measured one-way times of the run: the 1-byte latency file, the bandwidth file and the
    one-one ping-pongs at every power of two, where the run has them."""
    names = ("ng_netnoise_mpi_lat.out", "ng_netnoise_mpi_bw.out", "ng_one_one_mpi_stripe1.out")
    return [os.path.join(netgauge, n) for n in names if os.path.isfile(os.path.join(netgauge, n))]


def after_base(case, netgauge, samples):
    """The machine's pattern and costs: the built-in pattern at its own message sizes (every
    message its own LogGP regime, fitted robustly per protocol, S detected) and the detour
    trace."""
    pattern, n, nbytes = base_pattern(case["pattern"]), case["N"], case["bytes"]
    return (f'name = "validation"\nseed = 1\nsamples = {samples}\n\n'
            f'[collective]\nkind = "schedule"\n{BUILT_INS[pattern]}N = {n}\n'
            f'message_bytes = {nbytes}\n\n'
            f'[loggops]\nfile = "{netgauge}/ng_loggp.out"\nfile_fit = "regimes"\n\n'
            f'[noise]\nlaw = "trace"\nfile = "{netgauge}/ng_osnoise.out"\n\n')


def after_run_file(case, netgauge, schedgen, folder, samples):
    """The machine as the benchmark runs it: ranks entering from a simulated barrier, each rank
    timed from its own start (a barrier entry takes no measured pools: the barrier's messages
    and the collective's would draw the same delays)."""
    del schedgen, folder  # the built-ins need no generated file
    return after_base(case, netgauge, samples) + AFTER_ENTRY + '[output]\nraw_samples = true\n'


def after_pools_run_file(case, netgauge, schedgen, folder, samples):
    """The machine's measured network: each message's one-way time drawn from the latency,
    bandwidth and one-one pools around its size (whole samples, the first 21 of each block of
    1000 dropped as warm-up), every rank entering at 0, the completion timed."""
    del schedgen, folder
    pools = ", ".join(f'"{p}"' for p in netgauge_pools(netgauge))
    return (after_base(case, netgauge, samples) +
            f'[latency]\nfile = [{pools}]\ncolumn = "one_way"\nuse = "whole"\n'
            f'warmup = 21\nblock = 1000\n\n[output]\nraw_samples = true\n')


# The benchmark's loop (docs/models/schedules.md, "The benchmark loop"): 10 warm-ups, then each
# iteration a pause, a barrier and the timed collective. The pause is usleep(1) under Linux's
# default timer slack of 50 us: a constant of the kernel, not of a table.
LOOP = ('[loop]\niterations = 100\nwarmups = 10\npause = 5.0e-5\nbarrier = true\n'
        '[entry]\nbarrier = "dissemination_barrier"\n\n'
        '[timing]\nmeasure = "per_rank"\n\n')


def after_loop_run_file(case, netgauge, schedgen, folder, samples):
    """The machine's measured network as the benchmark meets it: the pools of after-pools, in
    the benchmark's loop (samples of 100 recorded iterations each, after 10 warm-ups), each rank
    timed from its own start of the collective."""
    del schedgen, folder
    pools = ", ".join(f'"{p}"' for p in netgauge_pools(netgauge))
    return (after_base(case, netgauge, samples) +
            f'[latency]\nfile = [{pools}]\ncolumn = "one_way"\nuse = "whole"\n'
            f'warmup = 21\nblock = 1000\n\n' + LOOP + '[output]\nraw_samples = true\n')


RECIPES = {"before": before_run_file, "after": after_run_file,
           "after-pools": after_pools_run_file, "after-loop": after_loop_run_file}


def compare(collnoise, result, table, mode):
    out = subprocess.run([collnoise, "compare", result, table, "--json", "--mode", mode],
                         capture_output=True, text=True)
    if out.returncode != 0:
        return None, out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "failed"
    return json.loads(out.stdout), ""


def median_of(report, side):
    for q in report["quantiles"]:
        if q["name"] == "median":
            return q[side]["value"]
    raise KeyError("median")


def case_rows(case, recipe, report, mode, note):
    row = {k: case[k] for k in ("system", "pattern", "N", "bytes", "set")}
    row.update(recipe=recipe, mode=mode, note=note)
    if report is None:
        return row
    sim, meas = median_of(report, "simulated"), median_of(report, "measured")
    ks, w1 = report["ks_distance"], report["wasserstein1"]
    row.update(ks=ks["value"], ks_low=ks["ci_low"], ks_high=ks["ci_high"],
               w1_relative=w1["value"] / meas, median_ratio=sim / meas,
               simulated_median=sim, measured_median=meas)
    return row


def run_case(case, args, counter):
    work = os.path.abspath(args.work)
    tables = unpacked(args.dataset, work, case["tables"])
    netgauge = unpacked(args.dataset, work, case["netgauge"])
    name = f'{case["system"]}-{case["pattern"]}-{case["N"]}-{case["bytes"]}'
    folder = os.path.join(os.path.abspath(args.out), "runs", name)
    os.makedirs(folder, exist_ok=True)
    run_file = os.path.join(folder, f"{args.recipe}.toml")
    with open(run_file, "w") as f:
        f.write(RECIPES[args.recipe](case, netgauge, args.schedgen, folder, args.samples))
    result = os.path.join(folder, f"{args.recipe}.h5")
    done = subprocess.run([args.collnoise, "run", run_file, "--out", result, "--force", "--quiet",
                           "--no-checkpoint", "--threads", str(args.threads)],
                          capture_output=True, text=True)
    table = os.path.join(tables, f'{case["pattern"]}_{case["N"]}_{case["bytes"]}.csv')
    print(f"[{counter}] {name}", file=sys.stderr)
    if done.returncode != 0:
        note = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "run failed"
        return [case_rows(case, args.recipe, None, m, note) for m in MODES]
    rows = []
    for mode in MODES:
        report, note = compare(args.collnoise, result, table, mode)
        rows.append(case_rows(case, args.recipe, report, mode, note))
    return rows


def summary(rows, mode):
    """The targets' figures over the cases of one mode: median KS, the share with W1 within 25 %
    of the measured median, and the cases that could not be compared."""
    done = [r for r in rows if r["mode"] == mode and "ks" in r]
    if not done:
        return f"{mode}: no case compared"
    ks = statistics.median(r["ks"] for r in done)
    within = sum(1 for r in done if r["w1_relative"] <= 0.25)
    ratio = statistics.median(r["median_ratio"] for r in done)
    failed = sum(1 for r in rows if r["mode"] == mode and "ks" not in r)
    return (f"{mode}: {len(done)} cases, median KS {ks:.3f}, W1 within 25 % of the measured "
            f"median in {within} ({within / len(done):.0%}), median ratio of medians "
            f"{ratio:.3g}, {failed} not compared")


def markdown(rows):
    lines = ["| system | pattern | N | bytes | mode | KS [interval] | W1 / median | median ratio |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if "ks" not in r:
            lines.append(f'| {r["system"]} | {r["pattern"]} | {r["N"]} | {r["bytes"]} | '
                         f'{r["mode"]} | not compared: {r["note"]} | | |')
            continue
        lines.append(f'| {r["system"]} | {r["pattern"]} | {r["N"]} | {r["bytes"]} | {r["mode"]} '
                     f'| {r["ks"]:.3f} [{r["ks_low"]:.3f}, {r["ks_high"]:.3f}] | '
                     f'{r["w1_relative"]:.3g} | {r["median_ratio"]:.3g} |')
    return "\n".join(lines) + "\n"


def read_results(path):
    """The rows of an earlier run's results.csv (another recipe's), for the comparison."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for k in ("ks", "ks_low", "ks_high", "w1_relative", "median_ratio"):
            if r.get(k):
                r[k] = float(r[k])
            else:
                r.pop(k, None)
    return rows


def case_key(r):
    return (r["system"], r["pattern"], str(r["N"]), str(r["bytes"]), r["mode"])


def against_baseline(rows, baseline):
    """Per mode, how many cases improved, and every case worse than the baseline recipe beyond
    the intervals: its KS interval lies wholly above the baseline's (the two intervals apart)."""
    before = {case_key(r): r for r in baseline if "ks" in r}
    lines = []
    for mode in MODES:
        pairs = [(r, before[case_key(r)]) for r in rows
                 if r["mode"] == mode and "ks" in r and case_key(r) in before]
        better = sum(1 for r, b in pairs if r["ks"] < b["ks"])
        worse = [(r, b) for r, b in pairs if r["ks_low"] > b["ks_high"]]
        name = pairs[0][1]["recipe"] if pairs else "-"
        lines.append(f"{mode}: {len(pairs)} cases beside the baseline recipe {name}: "
                     f"KS smaller in {better}, worse beyond the intervals in {len(worse)}")
        for r, b in worse:
            lines.append(f"  worse: {r['system']} {r['pattern']} N={r['N']} {r['bytes']} B: "
                         f"KS {r['ks']:.3f} [{r['ks_low']:.3f}, {r['ks_high']:.3f}] against "
                         f"{b['ks']:.3f} [{b['ks_low']:.3f}, {b['ks_high']:.3f}]")
    return "\n".join(lines) + "\n"


def write_csv(rows, columns, path):
    """Rows as CSV (numbers to 6 digits), written to a temporary name and renamed."""
    with open(path + ".tmp", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns)
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{v:.6g}" if isinstance(v, float) and math.isfinite(v) else v)
                        for k, v in r.items()})
    os.replace(path + ".tmp", path)


def write_outputs(rows, out, baseline=None):
    """results.csv and results.md, each written to a temporary name and renamed."""
    os.makedirs(out, exist_ok=True)
    write_csv(rows, RESULT_COLUMNS, os.path.join(out, "results.csv"))
    text = markdown(rows) + "\n" + "\n".join(summary(rows, m) for m in MODES) + "\n"
    if baseline is not None:
        text += "\n" + against_baseline(rows, baseline)
    with open(os.path.join(out, "results.md.tmp"), "w") as f:
        f.write(text)
    os.replace(os.path.join(out, "results.md.tmp"), os.path.join(out, "results.md"))
    return text


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dataset", help="a clone of DanieleDeSensi/cloud_noise_data")
    p.add_argument("--collnoise", default=os.path.join(HERE, "..", "build", "collnoise"))
    p.add_argument("--recipe", choices=sorted(RECIPES), default="before")
    p.add_argument("--schedgen", help="the authors' Schedgen fork (the 'before' recipe's GOAL)")
    p.add_argument("--cases", default=os.path.join(HERE, "validation-cases.csv"))
    p.add_argument("--set", dest="sets", action="append",
                   help="target (default) or other; repeat for both")
    p.add_argument("--samples", type=int, default=2000)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--work", default="validation-work", help="where archives are unpacked")
    p.add_argument("--out", default="validation-out")
    p.add_argument("--baseline", help="another recipe's results.csv: report each case beside it")
    args = p.parse_args(argv)
    baseline = read_results(args.baseline) if args.baseline else None
    cases = read_cases(args.cases, set(args.sets or ["target"]))
    rows = []
    for i, case in enumerate(cases, 1):
        rows += run_case(case, args, f"{i}/{len(cases)}")
    print(write_outputs(rows, args.out, baseline))
    return 0


if __name__ == "__main__":
    sys.exit(main())
