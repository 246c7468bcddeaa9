#!/usr/bin/env python3
"""Piz Daint's concurrent ping-pongs (Netgauge one_one with k pairs) against collnoise's flow model
on a dragonfly model of the machine.

Netgauge's one_one pattern (cloud_noise's benchmarks/netgauge/ptrn_one_one.cpp) with P = 2k ranks:
even rank 2i pings odd rank 2i+1; every iteration is MPI_Barrier, then each client times its own
ping-pong, and rank 0 writes (max over clients of the end - min over clients of the start) / 2,
in microseconds, under a size column of data_size * k (the bytes of all pairs). One warm-up
iteration is left out of the file. The data set's run.sh started the k-pair runs with
`srun -n 2k` and MPICH_RANK_REORDER_METHOD=0 (round robin over the nodes) in the job of the
one-pair tests; the measured times at large sizes (the k pairs together move about what one pair
does alone) say the job had two nodes: all k clients on one node, all k servers on the other,
sharing one NIC each way. That is placement "two-nodes" (the default); "spread" puts every rank
on a node of its own, each pair between two other groups, for comparison.

Each (k, size) is one collnoise run: a GOAL file of the k pairs (client: send, then receive;
server: receive, then send back), the benchmark loop (1 warm-up, then as many recorded
iterations as the measurement has, a dissemination barrier before each), LogGP fitted per protocol
regime from the run's ng_loggp.out, the run's OS-noise trace (ng_osnoise.out) and (--noise
os+latency, the default) its 1-byte latency samples (ng_netnoise_mpi_lat.out, each message an
excess over their minimum drawn on its own), on
dragonfly(4, 96, 10, 21) with network.contention = "flows", every link at the NIC's large-message
bandwidth (1/G of the fit's rendezvous regime). The simulated completion (last finish
less first start) over 2 is compared with the measured times: the KS distance (scipy's ks_2samp)
and the ratio of medians, and the slowdown of k pairs over one pair (medians) measured and
simulated. The one-pair reference is ng_one_one_mpi_stripe1.out (k = 1: two ranks, one per node).
"""

import argparse
import csv
import json
import os
import subprocess
import sys
import tarfile
import time

import h5py
import numpy as np
from scipy.stats import ks_2samp

TOPOLOGY = "dragonfly(4, 96, 10, 21)"
P, A, H, G = 4, 96, 10, 21
KS = [1, 2, 4, 8, 16]


def find_run(data, system, run, work):
    """The unpacked run folder: data may be the data set's checkout (with .tar.xz archives), an
    extract of it, or the run folder itself."""
    candidates = [data, os.path.join(data, run), os.path.join(data, system, run),
                  os.path.join(data, system, run, run), os.path.join(data, run, run)]
    for c in candidates:
        if os.path.isfile(os.path.join(c, "ng_loggp.out")):
            return c
    for arch in (os.path.join(data, system, run + ".tar.xz"), os.path.join(data, run + ".tar.xz")):
        if os.path.isfile(arch):
            dest = os.path.join(work, "unpacked")
            os.makedirs(dest, exist_ok=True)
            with tarfile.open(arch, "r:xz") as t:
                t.extractall(dest)
            for c in (os.path.join(dest, run), dest):
                if os.path.isfile(os.path.join(c, "ng_loggp.out")):
                    return c
    sys.exit(f"no unpacked run {system}/{run} with ng_loggp.out under {data}")


def read_one_one(path, k):
    """{per-pair data size: samples in us}; the file's size column is data_size * k."""
    out = {}
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            s, t = line.split()[:2]
            s = int(s)
            if s % k:
                sys.exit(f"{path}: size {s} is not a multiple of k = {k}")
            out.setdefault(s // k, []).append(float(t))
    return {s: np.array(v) for s, v in out.items()}


def endpoint(group, router, t=0):
    return (group * A + router) * P + t


def write_mapping(path, k, placement):
    """`rank node switch endpoint` lines (switch = the router, numbered g a + r)."""
    lines = []
    for i in range(k):
        for side in (0, 1):  # 0: client (even rank), 1: server (odd rank)
            rank = 2 * i + side
            if placement == "two-nodes":
                group, router, node = side, 0, side  # node 0 in group 0, node 1 in group 1
            else:  # spread: pair i from group 2i mod g to group 2i+1 mod g, router i
                group, router, node = (2 * i + side) % G, i % A, rank
            lines.append(f"{rank} {node} {group * A + router} {endpoint(group, router)}")
    with open(path, "w") as f:
        f.write("# rank node switch endpoint\n" + "\n".join(lines) + "\n")


def write_goal(path, k, size):
    out = [f"num_ranks {2 * k}"]
    for i in range(k):
        c, s = 2 * i, 2 * i + 1
        out += [f"rank {c} {{", f"  l1: send {size}b to {s} tag 0",
                f"  l2: recv {size}b from {s} tag 0", "  l2 requires l1", "}",
                f"rank {s} {{", f"  l1: recv {size}b from {c} tag 0",
                f"  l2: send {size}b to {c} tag 0", "  l2 requires l1", "}"]
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def write_run(path, name, goal, mapping, run_dir, iterations, seed, link_bandwidth=None,
              noise="os+latency"):
    q = lambda p: '"' + os.path.abspath(p).replace("\\", "\\\\").replace('"', '\\"') + '"'
    latency = "" if noise == "os" else f"""[latency]
file = {q(os.path.join(run_dir, "ng_netnoise_mpi_lat.out"))}
column = "one_way"
use = "excess"
warmup = 21
"""
    text = f"""name = "{name}"
seed = {seed}
samples = {iterations}

[collective]
kind = "schedule"
goal = {q(goal)}

[loggops]
file = {q(os.path.join(run_dir, "ng_loggp.out"))}
file_fit = "regimes"

[noise]
law = "trace"
file = {q(os.path.join(run_dir, "ng_osnoise.out"))}
unit = "ns"
measurement = 0
semantics = "preempt"

{latency}
[network]
topology = "{TOPOLOGY}"
contention = "flows"
placement = "mapping"
mapping = {q(mapping)}
{"" if link_bandwidth is None else f"link_bandwidth = {link_bandwidth!r}"}

[loop]
iterations = {iterations}
warmups = 1
barrier = true

[output]
raw_samples = true
"""
    with open(path, "w") as f:
        f.write(text)


def raw_samples(h5path):
    with h5py.File(h5path, "r") as f:
        found = []
        f.visititems(lambda n, o: found.append(n) if isinstance(o, h5py.Dataset)
                     and n.endswith("tally/raw") else None)
        if len(found) != 1:
            sys.exit(f"{h5path}: expected one tally/raw dataset, found {found}")
        d = f[found[0]]
        unit = d.attrs.get("units", b"s")
        unit = unit.decode() if isinstance(unit, bytes) else str(unit)
        if unit not in ("s", "seconds"):
            sys.exit(f"{h5path}: raw samples in {unit!r}, expected seconds")
        return np.array(d[()], dtype=float)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data", help="the data set (checkout or extract) or an unpacked run folder")
    ap.add_argument("--collnoise", default="build/collnoise")
    ap.add_argument("--out", default="/tmp", help="folder for the CSV and the work files")
    ap.add_argument("--system", default="daint")
    ap.add_argument("--run", default="2022_05_13_17_07_22")
    ap.add_argument("--placement", default="two-nodes", choices=["two-nodes", "spread"])
    ap.add_argument("--noise", default="os+latency", choices=["os+latency", "os"],
                    help="os: the detour trace only; os+latency: and every message's latency "
                    "excess drawn from ng_netnoise_mpi_lat.out")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ks", default="1,2,4,8,16")
    ap.add_argument("--max-bytes", type=int, default=None, help="skip larger per-pair sizes")
    args = ap.parse_args()

    work = os.path.join(args.out, f"daint_concurrent_pingpong_{args.placement}_{args.noise}")
    os.makedirs(work, exist_ok=True)
    run_dir = find_run(args.data, args.system, args.run, work)
    ks = [int(x) for x in args.ks.split(",")]

    measured = {}
    for k in sorted(set(ks) | {1}):
        name = "ng_one_one_mpi_stripe1.out" if k == 1 else f"ng_one_one_mpi_conc{k}.out"
        path = os.path.join(run_dir, name)
        if not os.path.isfile(path):
            sys.exit(f"missing {path}")
        measured[k] = read_one_one(path, k)

    # Every link's bandwidth: the NIC's large-message rate, 1/G of the rendezvous regime the
    # fit finds in ng_loggp.out (the flow model's default, 1/G of the point's [loggops] G, would
    # be the eager regime's, 2.7 times slower on Daint). Read from a probe run's summary.
    probe = os.path.join(work, "probe")
    write_goal(probe + ".goal", 1, 1)
    write_mapping(probe + ".map", 1, args.placement)
    write_run(probe + ".toml", "daint-conc-probe", probe + ".goal", probe + ".map", run_dir, 2,
              args.seed)
    subprocess.run([args.collnoise, "run", probe + ".toml", "--out", probe + ".h5", "--force",
                    "--quiet", "--progress", "none"], check=True, capture_output=True)
    summ = json.loads(subprocess.run([args.collnoise, "summary", probe + ".h5", "--json"],
                                     check=True, capture_output=True, text=True).stdout)
    pt = summ["points"][0]
    g_large = pt.get("loggp_rendezvous_G") or pt["loggp_eager_G"]
    link_bw = 1.0 / g_large
    print(f"LogGP fit: S = {pt['loggp_eager_bytes']} B, eager o {pt['loggp_eager_o'] * 1e6:.3f} us "
          f"G {pt['loggp_eager_G'] * 1e9:.4f} ns/B, rendezvous o "
          f"{(pt.get('loggp_rendezvous_o') or 0) * 1e6:.3f} us G {g_large * 1e9:.4f} ns/B, "
          f"L {pt['loggp_eager_L'] * 1e6:.3f} us; link bandwidth {link_bw / 1e9:.3f} GB/s", flush=True)

    rows, sim_median = [], {}
    for k in sorted(set(ks) | {1}):
        mapping = os.path.join(work, f"map_{k}.txt")
        write_mapping(mapping, k, args.placement)
        for size in sorted(measured[k]):
            if args.max_bytes and size > args.max_bytes:
                continue
            meas = measured[k][size]
            tag = f"k{k}_s{size}"
            goal = os.path.join(work, tag + ".goal")
            runf = os.path.join(work, tag + ".toml")
            h5 = os.path.join(work, tag + ".h5")
            write_goal(goal, k, size)
            write_run(runf, f"daint-conc-{tag}", goal, mapping, run_dir, len(meas), args.seed,
                      link_bw, args.noise)
            t0 = time.time()
            r = subprocess.run([args.collnoise, "run", runf, "--out", h5, "--force", "--quiet",
                                "--threads", str(args.threads), "--progress", "none"],
                               capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"collnoise failed on {runf} ({r.returncode}):\n{r.stderr}")
            sim = raw_samples(h5) * 1e6 / 2.0  # half the span, us, as Netgauge writes it
            os.remove(h5)
            ks_d = ks_2samp(sim, meas).statistic
            mm, ms = float(np.median(meas)), float(np.median(sim))
            sim_median[(k, size)] = ms
            row = dict(k=k, bytes=size, n_measured=len(meas), n_simulated=len(sim),
                       measured_median_us=mm, simulated_median_us=ms,
                       median_ratio=ms / mm, ks=float(ks_d),
                       wall_s=round(time.time() - t0, 2))
            if k > 1 and size in measured[1]:
                m1 = float(np.median(measured[1][size]))
                row["measured_slowdown"] = mm / m1
                if (1, size) in sim_median:
                    row["simulated_slowdown"] = ms / sim_median[(1, size)]
            rows.append(row)
            print(f"k={k:2d} {size:>9d} B  meas {mm:10.2f} us  sim {ms:10.2f} us  "
                  f"ratio {ms / mm:6.2f}  KS {ks_d:.3f}  slowdown meas "
                  f"{row.get('measured_slowdown', float('nan')):6.2f} sim "
                  f"{row.get('simulated_slowdown', float('nan')):6.2f}", flush=True)

    fields = ["k", "bytes", "n_measured", "n_simulated", "measured_median_us",
              "simulated_median_us", "median_ratio", "ks", "measured_slowdown",
              "simulated_slowdown", "wall_s"]
    csv_path = os.path.join(args.out, f"daint_concurrent_pingpong_{args.placement}_{args.noise}.csv")
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, restval="")
        w.writeheader()
        for row in rows:
            w.writerow({k: (f"{v:.4g}" if isinstance(v, float) else v) for k, v in row.items()})
    print(f"\nrun {run_dir}, topology {TOPOLOGY}, placement {args.placement}, noise {args.noise}; table: {csv_path}")


if __name__ == "__main__":
    main()
