#!/usr/bin/env python3
"""The data set authors' at-scale study, simulated again by collnoise from the same inputs.

The authors of DanieleDeSensi/cloud_noise_data simulated 4 to 16384 nodes with their LogGOPSim
fork (code: DanieleDeSensi/cloud_noise, simulations/): n-way dissemination without compute at
16 B and 128 KiB, the pipelined ring at 16 MiB and 512 MiB, under four noise kinds (none, os: the
Netgauge detour trace, net: L and G drawn from the Netgauge latency and bandwidth samples,
os+net). Their samples are in the data set (simulations/total.tar.xz). This script writes, for
each configuration whose Netgauge run the data set holds, the collnoise run file that applies the
same rules (docs/validation.md, "The authors' at-scale study"), runs it, and compares its samples
with theirs: the Kolmogorov-Smirnov distance with both samples' DKW band (collnoise compare), and
the ratio of medians.

    /usr/bin/python3 bench/authors_study.py DATASET --collnoise build/collnoise \\
        --work /tmp/authors-work --out /tmp/authors-study [--providers daint,alps] [--samples 2000]

It writes OUT/results.csv (one row per configuration), OUT/results.md and, under OUT/runs/, each
configuration's run file, result and the authors' samples. `--write-run-files DIR` writes the
run files only (their Netgauge paths under DIR/netgauge/), to read or to run by hand.
"""
import argparse
import csv
import json
import math
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import authors_samples  # noqa: E402  (bench/: the authors' samples)
import validate_measured  # noqa: E402  (bench/: unpacking Netgauge runs, compare's medians)

# The authors' parameters of each configuration (their loggp_params.py tuples, as simulate.py
# passes them: L and G of the same-rack (near) and different-racks (far) tuples; o, g and S of the
# latter; O = 0), the Netgauge run their pools and trace come from, and their nodes_per_switch.
# Times in seconds, G in seconds per byte.
# pools_to_mean: how the configuration's pools were scaled to its LogGP values. Their code scales
# by the median; their Daint and Alps samples fit pools scaled by the mean, their Azure ones
# pools scaled by the median (docs/validation.md, "The authors' at-scale study": their pool files
# were built once and kept, so runs of different dates went through different code).
CONFIGURATIONS = {
    "daint": dict(provider="Daint", instance="HPC (Metal)", run="daint/2022_05_19_13_03_39",
                  L_near=0.5e-6, L_far=0.5e-6, o=0.0, g=6.0e-6, G_near=110e-12, G_far=140e-12,
                  S=4096, nodes_per_switch=16, pools_to_mean=True),
    "alps": dict(provider="Alps", instance="HPC (Metal)", run="alps/2022_07_14_12_59_18",
                 L_near=1.9e-6, L_far=1.9e-6, o=0.23e-6, g=0.0, G_near=79e-12, G_far=92e-12,
                 S=4096, nodes_per_switch=16, pools_to_mean=True),
    "azure_hc44rs": dict(provider="Azure", instance="HPC",
                         run="azure_hpc44rs_azure_rush_same_rack/2022_03_18_22_04_11",
                         L_near=1.3e-6, L_far=1.3e-6, o=0.15e-6, g=1.5e-6, G_near=86e-12,
                         G_far=86e-12, S=4096, nodes_per_switch=1, pools_to_mean=False),
    "azure_hbv2": dict(provider="Azure", instance="HPC (200 Gb/s)",
                       run="azure_hbv2_rush_hour/2022_03_25_17_01_24",
                       L_near=1.7e-6, L_far=1.7e-6, o=0.0, g=1.0e-6, G_near=46e-12,
                       G_far=46e-12, S=4096, nodes_per_switch=1, pools_to_mean=False),
}
# Simulated by the authors from Netgauge runs the data set does not hold: not reproducible.
MISSING = {"AWS HPC (Metal)": "aws_c5n.metal_spread/2022_03_28_22_19_59",
           "DEEP-EST HPC (Metal)": "deep-est/2022_05_13_17_15_46",
           "GCP HPC": "gcp_c2-standard-60_spread/2022_03_29_22_18_11",
           "Oracle HPC (Metal)": "oracle-hpc/2022_07_13_13_09_16"}

# The bandwidth file's message size: the authors' G pool is each sample over it.
BANDWIDTH_BYTES = 16777216

PATTERNS = {"nwaydissemination_nocompute": 'algorithm = "nway_dissemination"\ncompute = false\n',
            "pipelinedring": 'algorithm = "pipelined_ring"\n'}


def collective_table(pattern, nodes, nbytes):
    # simulate.py skips a ring whose message is smaller than its node count.
    return (f'[collective]\nkind = "schedule"\n{PATTERNS[pattern]}N = {nodes}\n'
            f'message_bytes = {nbytes}\n\n')


def loggp_table(c):
    # The scalars of a run without pools: the near tuple's L and G (the fork ignores the far
    # scalars), the far tuple's o, g and S; a message above S arrives 2L later (the handshake).
    return (f'[loggops]\nL = {c["L_near"]!r}\no = {c["o"]!r}\ng = {c["g"]!r}\n'
            f'G = {c["G_near"]!r}\nO = 0.0\nS = {c["S"]}\nrendezvous = "handshake"\n\n')


def mawk_number(value):
    """How mawk, Debian's awk, prints a number: an integral value within its int range as an
    integer, any other with "%.6g" (so 101520599808240 becomes 1.01521e+14)."""
    if value == math.trunc(value) and abs(value) <= 2**31 - 1:
        return str(int(value))
    return f"{value:.6g}"


def authors_trace(netgauge, folder, conversion):
    """The detour trace as simulate.py hands it to LogGOPSim: comment lines dropped and every
    time converted from ns to whole ps by `awk '{print int(1000*$1)"\t"int(1000*$2)}'`, printed
    as mawk prints it ("mawk") or exactly ("exact": gawk's output); written back in ns."""
    source = os.path.join(netgauge, "ng_osnoise.out")
    path = os.path.join(folder, f"osnoise-{conversion}.ns")
    if os.path.isfile(path):
        return path
    with open(source) as f, open(path + ".tmp", "w") as out:
        for line in f:
            if "#" in line:
                continue
            # awk reads a missing field (a blank line) as 0, so a blank line is an entry (0, 0).
            ps = [math.trunc(1000.0 * float(x)) for x in (line.split() + ["0", "0"])[:2]]
            text = [mawk_number(v) if conversion == "mawk" else str(int(v)) for v in ps]
            out.write(f"{float(text[0]) / 1000.0!r}\t{float(text[1]) / 1000.0!r}\n")
    os.replace(path + ".tmp", path)
    return path


def trace_table(trace):
    # The trace read as LogGOPSim reads a file of appended runs, each operation charged as
    # LogGOPSim charges it.
    return (f'[noise]\nlaw = "trace"\nfile = "{trace}"\nunit = "ns"\n'
            f'semantics = "loggopsim"\nreading = "loggopsim"\n\n')


def pool_tables(c, netgauge, to_median):
    # L from the latency file's samples and G (per 16 MiB block of a message's s - 1 bytes) from
    # the bandwidth file's samples over 16 MiB; the first 21 of every 1000 samples dropped; each
    # pool scaled to its tuple's value (the latency pool to L, the bandwidth pool to G times its
    # size), near and far apart; a sample is the message's L itself; the drawn bytes' time
    # charged on the transfer (both NICs and the receiver), as the fork charges it.
    files = f'["{netgauge}/ng_netnoise_mpi_lat.out", "{netgauge}/ng_netnoise_mpi_bw.out"]'
    # The column, the use and the draw are the [latency] table's for both classes.
    common = f'file = {files}\nwarmup = 21\nblock = 1000\nmedian_by = "scale"\n'
    # The center: the pools' mean by default. The authors' code scales to the median, but their
    # samples fit pools scaled to the mean (docs/validation.md, "The authors' at-scale study").
    key = "latency.median" if to_median else "latency.pool_mean"
    key = key.split(".")[1]
    near = f'{key} = [{c["L_near"]!r}, {c["G_near"] * BANDWIDTH_BYTES!r}]\n'
    far = f'{key} = [{c["L_far"]!r}, {c["G_far"] * BANDWIDTH_BYTES!r}]\n'
    return (f'[latency]\n{common}column = "one_way"\nuse = "wire"\ndraw = "loggp"\nG_draw = "block"\n'
            f'G_charge = "transfer"\nG_block = {BANDWIDTH_BYTES}\n{near}\n'
            f'[latency.far]\n{common}{far}\n'
            f'[network]\nnodes_per_switch = {c["nodes_per_switch"]}\n\n')


def run_file(c, case, netgauge, samples, trace, to_median=None):
    noise, pattern, nodes, nbytes = case
    text = (f'name = "authors-{noise}-{pattern}-{nodes}-{nbytes}"\nseed = 1\n'
            f'samples = {samples}\n\n' + collective_table(pattern, nodes, nbytes) + loggp_table(c))
    if "os" in noise.split("+"):
        text += trace_table(trace)
    if "net" in noise.split("+"):
        text += pool_tables(c, netgauge,
                            not c["pools_to_mean"] if to_median is None else to_median)
    return text + '[output]\nraw_samples = true\n'


def authors_cases(dataset, chosen):
    """The authors' samples of each chosen configuration, by (noise, pattern, nodes, bytes), in
    one pass over their archive."""
    wanted = {(c["provider"], c["instance"], c["run"]): name for name, c in chosen.items()}
    cases = {name: {} for name in chosen}
    for row in authors_samples.rows_of(dataset):
        k = authors_samples.key_of(row)
        name = wanted.get((k[2], k[3], k[7]))
        if name is None or k[1] not in PATTERNS:
            continue
        t = float(row["Time (us)"]) if row["Time (us)"] else math.nan
        if math.isfinite(t):
            cases[name].setdefault((k[0], k[1], k[5], k[6]), []).append(t)
    return cases


def write_list(path, times, what):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(f"# the authors' simulated times (data set simulations/total.tar.xz): {what}, us\n")
        f.writelines(f"{t!r}\n" for t in times)
    os.replace(tmp, path)


def compare_case(args, folder, result, times, what):
    authors = os.path.join(folder, "authors.txt")
    write_list(authors, times, what)
    # The authors' times are whole picoseconds: collnoise's doubles are rounded to them too.
    out = subprocess.run([args.collnoise, "compare", result, authors, "--unit", "us", "--json",
                          "--resolution", "1e-12"], capture_output=True, text=True)
    if out.returncode != 0:
        return None, out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "failed"
    return json.loads(out.stdout), ""


def run_case(args, name, c, case, times):
    netgauge = validate_measured.unpacked(args.dataset, os.path.abspath(args.work), c["run"])
    noise, pattern, nodes, nbytes = case
    folder = os.path.join(os.path.abspath(args.out), "runs", name,
                          f"{noise}-{pattern}-{nodes}-{nbytes}")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "run.toml")
    trace = authors_trace(netgauge, os.path.dirname(folder), args.trace_conversion)
    with open(path, "w") as f:
        f.write(run_file(c, case, netgauge, args.samples, trace, args.scale_to_median))
    result = os.path.join(folder, "run.h5")
    row = dict(configuration=name, noise=noise, pattern=pattern, nodes=nodes, bytes=nbytes,
               authors_samples=len(times))
    done = subprocess.run([args.collnoise, "run", path, "--out", result, "--force", "--quiet",
                           "--no-checkpoint", "--threads", str(args.threads)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        row["note"] = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"
        return row
    report, note = compare_case(args, folder, result, times, f"{name} {' '.join(map(str, case))}")
    if report is None:
        row["note"] = note
        return row
    ks = report["ks_distance"]
    sim, auth = (validate_measured.median_of(report, s) for s in ("simulated", "measured"))
    row.update(ks=ks["value"], ks_low=ks["ci_low"], ks_high=ks["ci_high"],
               beyond_band=ks["ci_low"] > 0.0, simulated_median=sim, authors_median=auth,
               median_ratio=sim / auth, note="")
    if noise == "none":
        # Both sides one value each: a KS distance of 1 says only that they differ in some bit
        # (the authors' times are whole picoseconds, collnoise's doubles in seconds).
        gap = abs(sim / auth - 1.0)
        row["beyond_band"] = gap > NOISELESS_TOLERANCE
        row["note"] = f"noise-free: one value each, equal within {gap:.0e}" if gap else \
            "noise-free: one value each, equal"
    return row


# Noise-free times equal to this relative difference are the same time (picoseconds as integers
# against seconds as doubles: 1e-14 at 60 ms).
NOISELESS_TOLERANCE = 1e-12


FIELDS = ["configuration", "noise", "pattern", "nodes", "bytes", "authors_samples", "ks", "ks_low",
          "ks_high", "beyond_band", "simulated_median", "authors_median", "median_ratio", "note"]


def markdown(rows):
    lines = ["| configuration | noise | pattern | nodes | bytes | KS [band] | median ratio | note |",
             "|---|---|---|---:|---:|---|---:|---|"]
    for r in rows:
        ks = (f'{r["ks"]:.3f} [{r["ks_low"]:.3f}, {r["ks_high"]:.3f}]' if "ks" in r else "")
        ratio = f'{r["median_ratio"]:.4f}' if "median_ratio" in r else ""
        lines.append(f'| {r["configuration"]} | {r["noise"]} | {r["pattern"]} | {r["nodes"]} | '
                     f'{r["bytes"]} | {ks} | {ratio} | {r.get("note", "")} |')
    done = [r for r in rows if "ks" in r]
    if done:
        beyond = sum(1 for r in done if r["beyond_band"])
        lines += ["", f"{len(done)} configurations compared: median KS "
                      f"{statistics.median(r['ks'] for r in done):.3f}; {beyond} beyond both "
                      f"samples' DKW band."]
    lines += ["", "Not reproducible (their Netgauge runs are not in the data set): " +
              ", ".join(f"{k} ({v})" for k, v in MISSING.items()) + "."]
    return "\n".join(lines) + "\n"


def write_outputs(rows, out):
    os.makedirs(out, exist_ok=True)
    for name, text in (("results.md", markdown(rows)), ("results.csv", None)):
        path = os.path.join(out, name)
        with open(path + ".tmp", "w", newline="") as f:
            if text is not None:
                f.write(text)
            else:
                w = csv.DictWriter(f, fieldnames=FIELDS)
                w.writeheader()
                w.writerows(rows)
        os.replace(path + ".tmp", path)


def write_run_files(args, chosen, cases):
    for name, c in chosen.items():
        for case in sorted(cases[name]):
            folder = os.path.join(args.write_run_files, name)
            os.makedirs(folder, exist_ok=True)
            netgauge = os.path.join("netgauge", c["run"])
            trace = os.path.join(netgauge, f"osnoise-{args.trace_conversion}.ns")
            with open(os.path.join(folder, "-".join(map(str, case)) + ".toml"), "w") as f:
                f.write(run_file(c, case, netgauge, args.samples, trace, args.scale_to_median))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dataset", help="a clone of DanieleDeSensi/cloud_noise_data")
    p.add_argument("--collnoise", default="build/collnoise")
    p.add_argument("--work", default="authors-work", help="where Netgauge runs are unpacked")
    p.add_argument("--out", default="authors-study")
    p.add_argument("--providers", default=",".join(CONFIGURATIONS))
    p.add_argument("--noise", default="none,os,net,os+net")
    p.add_argument("--max-nodes", type=int, default=16384)
    p.add_argument("--samples", type=int, default=2000)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--trace-conversion", choices=("mawk", "exact"), default="mawk",
                   help="the authors' ns-to-ps conversion of the trace as mawk prints it (the "
                        "default awk of Debian and Ubuntu) or exactly (gawk)")
    scaling = p.add_mutually_exclusive_group()
    scaling.add_argument("--scale-to-median", dest="scale_to_median", action="store_const",
                         const=True, help="scale every pool to its LogGP value by its median "
                                          "(what the authors' code says)")
    scaling.add_argument("--scale-to-mean", dest="scale_to_median", action="store_const",
                         const=False, help="scale every pool by its mean (by default each "
                                           "configuration as its samples fit)")
    p.add_argument("--write-run-files", metavar="DIR")
    args = p.parse_args(argv)
    unknown = set(args.providers.split(",")) - set(CONFIGURATIONS)
    if unknown:
        raise SystemExit(f"authors_study: --providers: {', '.join(sorted(unknown))}: use "
                         f"{', '.join(CONFIGURATIONS)} (not reproducible: {', '.join(MISSING)})")
    chosen = {k: CONFIGURATIONS[k] for k in args.providers.split(",")}
    cases = authors_cases(args.dataset, chosen)
    if args.write_run_files:
        write_run_files(args, chosen, cases)
        return 0
    noises = set(args.noise.split(","))
    rows = []
    for name, c in chosen.items():
        for case in sorted(cases[name]):
            if case[0] in noises and case[2] <= args.max_nodes:
                print(f"{name} {' '.join(map(str, case))}", file=sys.stderr)
                rows.append(run_case(args, name, c, case, cases[name][case]))
                write_outputs(rows, args.out)
    write_outputs(rows, args.out)
    print(markdown(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
