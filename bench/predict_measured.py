#!/usr/bin/env python3
"""Calibrated on 4 and 8 nodes, predicted at 16 and 32: the predictor's validation on the public
Netgauge data set (docs/calibration.md, "Validation on the public data set").

For every system of bench/validation-cases.csv (set `target`) with tables at 4 and 8 nodes and
at 16 or more, this script

1. writes a calibration file: the system's Netgauge run, the benchmark's loop and entry (the
   constants of bench/validate_measured.py's `after-loop` recipe, none from a table), every 4-
   and 8-node table of the system, and the same free keys for every system (KEYS below, one
   rule: nothing chosen per system or per case);
2. runs `collnoise calibrate` on it (timed: the 5-minute target is for one system, all its
   tables, on 2 cores);
3. for every table at 16 nodes or more, runs the machine file twice: at its fitted values (the
   point prediction, compared with the table by `collnoise compare --mode max`: KS with its
   interval, W1 relative to the measured median) and with `prediction.draws` (the predictive
   intervals of the median and the p99, read from `collnoise summary --json`);
4. writes per case: KS, W1 / median, the measured median and p99 and whether each lies inside
   its 90 % predictive interval, the interval's width relative to the prediction, and the
   interval score of the median (Gneiting and Raftery 2007: width plus 2/alpha times the miss,
   relative to the measured median: a wider interval is not a better one); and per system the
   calibration's time and fitted values.

The data set (DanieleDeSensi/cloud_noise_data) is not shipped with collnoise (it has no
license): clone it and give its path. Its archives are unpacked into --work as needed.

    /usr/bin/python3 bench/predict_measured.py DATASET --collnoise build/collnoise \\
        --work validation-work --out bench-predict

Only the standard library, collnoise and bench/validate_measured.py are used.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import validate_measured as vm

HERE = os.path.dirname(os.path.abspath(__file__))

# The keys every system's calibration fits, with their ranges (one rule for all systems): the
# per-message CPU overhead and gap, which Netgauge's fit inflates where its o holds a protocol's
# wait, and how much of the measured pools' upper tail transfers to the tables (ping-pong tails
# measured days before a table are heavier than the table's).
KEYS = {"loggops.o": ["0.05us", "20us"], "loggops.g": ["0.05us", "20us"],
        "latency.trim_quantile": [0.5, 1.0]}
FIT_NODES = (4, 8)
LEVEL = 0.9
COLUMNS = ["system", "pattern", "N", "bytes", "ks", "ks_low", "ks_high", "w1_relative",
           "measured_median", "predicted_median", "median_low", "median_high", "median_inside",
           "measured_p99", "predicted_p99", "p99_low", "p99_high", "p99_inside",
           "median_width_relative", "median_interval_score", "dominant", "note"]


def collective_table(case, prefix):
    pattern = vm.base_pattern(case["pattern"])
    return (f'[{prefix}collective]\nkind = "schedule"\n{vm.BUILT_INS[pattern]}'
            f'N = {case["N"]}\nmessage_bytes = {case["bytes"]}\n')


def table_file(tables, case):
    return os.path.join(tables, f'{case["pattern"]}_{case["N"]}_{case["bytes"]}.csv')


def calibration_file(system, netgauge, tables, fitted, args):
    """The calibration file of one system: its Netgauge run, the benchmark's constants and every
    table it is fitted to."""
    keys = "\n".join(f'"{k}" = {json.dumps(v)}' for k, v in KEYS.items())
    text = (f'name = "{system}"\nseed = 1\nnetgauge = "{netgauge}"\n\n'
            f'[measurements]\ndraws = {args.bootstrap}\nlevel = {LEVEL}\n\n'
            '[model.loop]\niterations = 100\nwarmups = 10\npause = 5.0e-5\nbarrier = true\n'
            '[model.entry]\nbarrier = "dissemination_barrier"\n'
            '[model.timing]\nmeasure = "per_rank"\n\n'
            f'[fit]\nsamples_per_table = {args.fit_samples}\n'
            f'evaluations = {args.evaluations}\nbootstrap = {args.bootstrap}\n'
            f'threads = {args.threads}\n[fit.keys]\n{keys}\n')
    for case in fitted:
        text += f'\n[[table]]\nfile = "{table_file(tables, case)}"\n'
        text += collective_table(case, "table.")
    return text


def run_file(case, machine, samples, draws):
    text = (f'name = "prediction"\nseed = 2\nsamples = {samples}\nconfidence = {LEVEL}\n'
            f'machine = "{machine}"\n\n')
    if draws:
        text += f'[prediction]\ndraws = {draws}\n\n'
    return text + collective_table(case, "") + '\n[output]\nraw_samples = true\n'


def checked(args, what):
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"
        raise RuntimeError(f"{what}: {last}")
    return done.stdout


def calibrate(system, cases, args, out):
    """Writes and runs the system's calibration; returns the machine file, its wall time and
    the printed fit."""
    tables = vm.unpacked(args.dataset, args.work, cases[0]["tables"])
    netgauge = vm.unpacked(args.dataset, args.work, cases[0]["netgauge"])
    fitted = [c for c in cases if c["N"] in FIT_NODES]
    folder = os.path.join(out, system)
    os.makedirs(folder, exist_ok=True)
    config = os.path.join(folder, "calibration.toml")
    with open(config, "w") as f:
        f.write(calibration_file(system, netgauge, tables, fitted, args))
    machine = os.path.join(folder, f"{system}.machine.toml")
    start = time.monotonic()
    printed = checked([args.collnoise, "calibrate", config, "--out", machine, "--force",
                       "--threads", str(args.threads)], f"{system}: calibrate")
    seconds = time.monotonic() - start
    with open(os.path.join(folder, "calibrate.txt"), "w") as f:
        f.write(printed)
    return machine, seconds, printed


def quantile(report, name, side):
    for q in report["quantiles"]:
        if q["name"] == name:
            return q[side]["value"]
    raise KeyError(name)


def predicted_interval(summary_json, estimate):
    """The prediction of one estimate (`median`, `p99`: the point's primary metric's, whatever
    its model names it) and its predictive interval, from the run's only prediction."""
    rows = summary_json.get("predictions", [])
    if len(rows) != 1:
        raise RuntimeError(f"expected one prediction, found {len(rows)}")
    fields = rows[0]
    names = [k for k in fields if k.endswith(estimate) and k + "_low" in fields]
    if not names:
        raise KeyError(f"no predicted {estimate}")
    name = min(names, key=len)
    return (fields[name], fields[name + "_low"], fields[name + "_high"],
            fields.get(name + "_dominant", ""))


def interval_score(low, high, truth, alpha):
    """Gneiting and Raftery's interval score of [low, high] at level 1 - alpha."""
    miss = max(low - truth, 0.0) + max(truth - high, 0.0)
    return (high - low) + 2.0 / alpha * miss


def predict_case(case, machine, tables, args, out):
    folder = os.path.join(out, case["system"], f'{case["pattern"]}-{case["N"]}-{case["bytes"]}')
    os.makedirs(folder, exist_ok=True)
    row = {k: case[k] for k in ("system", "pattern", "N", "bytes")}
    paths = {}
    for kind, draws, samples in (("point", 0, args.samples),
                                 ("draws", args.draws, args.draw_samples)):
        path = os.path.join(folder, f"{kind}.toml")
        with open(path, "w") as f:
            f.write(run_file(case, machine, samples, draws))
        paths[kind] = os.path.join(folder, f"{kind}.h5")
        checked([args.collnoise, "run", path, "--out", paths[kind], "--force", "--quiet",
                 "--no-checkpoint", "--threads", str(args.threads)], f"{folder}: run")
    report = json.loads(checked([args.collnoise, "compare", paths["point"],
                                 table_file(tables, case), "--json", "--mode", "max"],
                                f"{folder}: compare"))
    predicted = json.loads(checked([args.collnoise, "summary", paths["draws"], "--json"],
                                   f"{folder}: summary"))
    return fill_row(row, report, predicted)


def fill_row(row, report, predicted):
    measured_median = quantile(report, "median", "measured")
    measured_p99 = quantile(report, "p99", "measured")
    ks, w1 = report["ks_distance"], report["wasserstein1"]
    row.update(ks=ks["value"], ks_low=ks["ci_low"], ks_high=ks["ci_high"],
               w1_relative=w1["value"] / measured_median, measured_median=measured_median,
               measured_p99=measured_p99)
    median, low, high, dominant = predicted_interval(predicted, "median")
    row.update(predicted_median=median, median_low=low, median_high=high,
               median_inside=low <= measured_median <= high, dominant=dominant,
               median_width_relative=(high - low) / median,
               median_interval_score=interval_score(low, high, measured_median, 1 - LEVEL) /
               measured_median)
    p99, low, high, _ = predicted_interval(predicted, "p99")
    row.update(predicted_p99=p99, p99_low=low, p99_high=high,
               p99_inside=low <= measured_p99 <= high)
    return row


def summary(rows, systems):
    done = [r for r in rows if "ks" in r]
    lines = []
    for s in systems:
        lines.append(f'{s["system"]}: calibration {s["seconds"]:.0f} s on {s["threads"]} '
                     f'threads ({s["tables"]} tables); {s["fit"]}')
    if not done:
        return "\n".join(lines + ["no case predicted"]) + "\n"
    inside = sum(1 for r in done if r["median_inside"])
    p99 = sum(1 for r in done if r["p99_inside"])
    lines.append(
        f"{len(done)} predicted cases ({len(rows) - len(done)} failed): median KS "
        f"{statistics.median(r['ks'] for r in done):.3f} (target <= 0.3); measured median "
        f"inside the 90 % predictive interval in {inside} ({inside / len(done):.0%}, target "
        f">= 80 %), p99 inside in {p99} ({p99 / len(done):.0%}); median relative width "
        f"{statistics.median(r['median_width_relative'] for r in done):.3g}, median interval "
        f"score / measured median "
        f"{statistics.median(r['median_interval_score'] for r in done):.3g}; W1 within 25 % "
        f"in {sum(1 for r in done if r['w1_relative'] <= 0.25)}")
    return "\n".join(lines) + "\n"


def fitted_values(printed):
    """The lines of `collnoise calibrate`'s output that give a fitted key of KEYS."""
    keep = [" ".join(line.split()) for line in printed.splitlines()
            if any(line.strip().startswith(k) for k in KEYS)]
    return "; ".join(keep) if keep else "no fitted value printed"


def markdown(rows):
    lines = ["| system | pattern | N | bytes | KS [interval] | W1 / median | measured median "
             "(us) | predicted [90 % interval] (us) | inside | measured p99 | p99 interval | "
             "inside | width / prediction | interval score / median |",
             "|" + "---|" * 14]
    for r in rows:
        head = f'| {r["system"]} | {r["pattern"]} | {r["N"]} | {r["bytes"]} |'
        if "ks" not in r:
            lines.append(head + f' failed: {r["note"]} |' + " |" * 9)
            continue
        us = 1e6
        lines.append(
            head + f' {r["ks"]:.3f} [{r["ks_low"]:.3f}, {r["ks_high"]:.3f}] | '
            f'{r["w1_relative"]:.3g} | {r["measured_median"] * us:.4g} | '
            f'{r["predicted_median"] * us:.4g} [{r["median_low"] * us:.4g}, '
            f'{r["median_high"] * us:.4g}] | {"yes" if r["median_inside"] else "no"} | '
            f'{r["measured_p99"] * us:.4g} | [{r["p99_low"] * us:.4g}, {r["p99_high"] * us:.4g}]'
            f' | {"yes" if r["p99_inside"] else "no"} | {r["median_width_relative"]:.3g} | '
            f'{r["median_interval_score"]:.3g} |')
    return "\n".join(lines) + "\n"


def write_outputs(rows, systems, out):
    """results.csv and results.md, each written to a temporary name and renamed."""
    vm.write_csv(rows, COLUMNS, os.path.join(out, "results.csv"))
    text = markdown(rows) + "\n" + summary(rows, systems)
    with open(os.path.join(out, "results.md.tmp"), "w") as f:
        f.write(text)
    os.replace(os.path.join(out, "results.md.tmp"), os.path.join(out, "results.md"))
    return text


def by_system(cases):
    systems = {}
    for c in cases:
        systems.setdefault(c["system"], []).append(c)
    return {s: cs for s, cs in systems.items()
            if {4, 8} <= {c["N"] for c in cs} and any(c["N"] >= 16 for c in cs)}


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dataset", help="a clone of DanieleDeSensi/cloud_noise_data")
    p.add_argument("--collnoise", default=os.path.join(HERE, "..", "build", "collnoise"))
    p.add_argument("--cases", default=os.path.join(HERE, "validation-cases.csv"))
    p.add_argument("--system", action="append", help="only these systems (repeatable)")
    p.add_argument("--fit-samples", type=int, default=100, help="simulated samples per table")
    p.add_argument("--evaluations", type=int, default=60)
    p.add_argument("--bootstrap", type=int, default=20, help="refits: the prediction's draws")
    p.add_argument("--draws", type=int, default=20, help="prediction.draws (<= --bootstrap)")
    p.add_argument("--samples", type=int, default=1000, help="samples of the point prediction")
    p.add_argument("--draw-samples", type=int, default=200, help="samples per draw")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--work", default="validation-work", help="where archives are unpacked")
    p.add_argument("--out", default="predict-out")
    args = p.parse_args(argv)
    args.work, out = os.path.abspath(args.work), os.path.abspath(args.out)
    args.collnoise = os.path.abspath(args.collnoise)
    os.makedirs(out, exist_ok=True)
    systems = by_system(vm.read_cases(args.cases, {"target"}))
    rows, fits = [], []
    for system, cases in systems.items():
        if args.system and system not in args.system:
            continue
        machine, seconds, printed = calibrate(system, cases, args, out)
        fits.append({"system": system, "seconds": seconds, "threads": args.threads,
                     "tables": sum(1 for c in cases if c["N"] in FIT_NODES),
                     "fit": fitted_values(printed)})
        tables = vm.unpacked(args.dataset, args.work, cases[0]["tables"])
        for case in (c for c in cases if c["N"] >= 16):
            print(f'{system} {case["pattern"]} N={case["N"]} {case["bytes"]} B', file=sys.stderr)
            try:
                rows.append(predict_case(case, machine, tables, args, out))
            except (RuntimeError, KeyError) as e:
                rows.append({**{k: case[k] for k in ("system", "pattern", "N", "bytes")},
                             "note": str(e)})
        print(write_outputs(rows, fits, out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
