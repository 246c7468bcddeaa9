#!/usr/bin/env python3
"""The data set's own simulated samples, as lists `collnoise compare` reads.

The data set DanieleDeSensi/cloud_noise_data holds, in simulations/total.tar.xz, the samples its
authors simulated with their LogGOPSim fork from the same Netgauge runs (4 to 16384 nodes; one
row a simulated run: noise mode, pattern, provider, instance type, placement, nodes, the
Netgauge run, the time in us, the message size). This script lists the configurations it holds
and writes one configuration's samples as a list of times in us, one a line, for

    collnoise compare RESULT.h5 authors.txt --unit us

so that a collnoise run built from the same inputs with the same rules can be compared with the
authors' simulation (docs/validation.md, "The authors' at-scale study").

    /usr/bin/python3 bench/authors_samples.py DATASET --list
    /usr/bin/python3 bench/authors_samples.py DATASET --noise os+net --pattern pipelinedring \\
        --provider Daint --nodes 16 --bytes 16777216 --out authors.txt

Only the standard library is used. The archive is read in place, never unpacked to disk.
"""
import argparse
import collections
import csv
import io
import math
import os
import sys
import tarfile

COLUMNS = ["", "Noise", "Type", "Collective", "Provider", "Instance Type", "Placement", "Nodes",
           "Scenario", "Time (us)", "Message Size"]


def rows_of(dataset):
    """The archive's rows as dicts, its repeated header lines (one per process of the authors'
    pipeline) skipped; a line of another shape is refused with its number."""
    archive = os.path.join(dataset, "simulations", "total.tar.xz")
    if not os.path.isfile(archive):
        raise SystemExit(f"authors_samples: {archive}: no such file (a clone of the data set?)")
    with tarfile.open(archive) as tar:
        member = next((m for m in tar.getmembers() if m.name.endswith("total.csv")), None)
        if member is None:
            raise SystemExit(f"authors_samples: {archive} holds no total.csv")
        text = io.TextIOWrapper(tar.extractfile(member), encoding="utf-8")
        for number, row in enumerate(csv.reader(text), 1):
            if row == COLUMNS:
                continue
            if len(row) != len(COLUMNS):
                raise SystemExit(f"authors_samples: {archive}: total.csv:{number}: "
                                 f"{len(row)} fields, expected {len(COLUMNS)}")
            yield dict(zip(COLUMNS, row))


def key_of(row):
    return (row["Noise"], row["Collective"], row["Provider"], row["Instance Type"],
            row["Placement"], int(row["Nodes"]), int(row["Message Size"]),
            row["Scenario"].replace("../data/", ""))


def list_configurations(dataset):
    counts = collections.Counter(key_of(r) for r in rows_of(dataset))
    print("noise,pattern,provider,instance,placement,nodes,bytes,netgauge_run,samples")
    for k in sorted(counts):
        print(",".join(str(x) for x in k) + f",{counts[k]}")


def write_samples(dataset, args):
    times = []
    for r in rows_of(dataset):
        k = key_of(r)
        if (k[0], k[1], k[2], k[5], k[6]) != (args.noise, args.pattern, args.provider, args.nodes,
                                              args.bytes):
            continue
        if args.instance and k[3] != args.instance:
            continue
        t = float(r["Time (us)"])
        if math.isfinite(t):  # the 'none' rows of the 16 MiB ring hold NaN
            times.append(t)
    if not times:
        raise SystemExit("authors_samples: no sample of that configuration (see --list)")
    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        f.write(f"# the authors' simulated times (data set simulations/total.tar.xz): "
                f"{args.noise} {args.pattern} {args.provider} N={args.nodes} "
                f"{args.bytes} B, in us\n")
        for t in times:
            f.write(f"{t!r}\n")
    os.replace(tmp, args.out)
    print(f"{len(times)} samples written to {args.out}")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dataset", help="a clone of DanieleDeSensi/cloud_noise_data")
    p.add_argument("--list", action="store_true", help="list the configurations and stop")
    p.add_argument("--noise", default="os+net", help="none, os, net or os+net")
    p.add_argument("--pattern", default="nwaydissemination_nocompute")
    p.add_argument("--provider", default="Daint")
    p.add_argument("--instance", help="the instance type, where a provider has several")
    p.add_argument("--nodes", type=int, default=16)
    p.add_argument("--bytes", type=int, default=16)
    p.add_argument("--out", default="authors.txt")
    args = p.parse_args(argv)
    if args.list:
        list_configurations(args.dataset)
    else:
        write_samples(args.dataset, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
