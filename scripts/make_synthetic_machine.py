#!/usr/bin/env python3
"""Makes the synthetic machine of runs/data/synthetic-machine/ (docs/calibration.md, "A shipped
prediction"): a Netgauge folder and two measured tables of a machine known exactly, and the
machine file `collnoise calibrate` fits to them. The public data set is not shipped; this
machine stands in for it, so the shipped prediction runs anywhere.

The machine: L = 1 us, o = 0.4 us, g = 1 us, G = 0.1 ns/B; each message's latency L plus an
exponential excess of mean 0.3 us (its Netgauge latency file holds one-way times 2o + L + the
excess); detours as a Poisson process of one a millisecond, durations those of a trace of 4000
(most of 2-6 us, one in 50 a Pareto-tailed one of 20 us and more). Its Netgauge LogGP file says
o = 1 us, as Netgauge's fit inflates o where its ping-pong waits; the tables (the benchmark's
loop, 16 B n-way dissemination at 4 and 8 ranks, 300 iterations each) are simulated by
collnoise at the true o, and the calibration fits loggops.o to them.

    /usr/bin/python3 scripts/make_synthetic_machine.py build/collnoise [OUT]

OUT defaults to runs/data/synthetic-machine. Every file is written to a temporary name and
renamed; the numbers come from fixed seeds, so the files are the same at every run.
"""
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TRUE_O = 0.4e-6
LOOP = ('[loop]\niterations = 100\nwarmups = 10\npause = 5.0e-5\nbarrier = true\n'
        '[entry]\nbarrier = "dissemination_barrier"\n[timing]\nmeasure = "per_rank"\n')


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def loggp_rows():
    """ng_loggp.out: sizes 1 + 1024 j, o = 1 + x/65536 us (x = s - 1), gap = 1 + x/10000 us over
    the 9 messages of each train, the file's L 3 us (L = 3 - 2o = 1 us); its own g and G columns
    (a fit collnoise does not take) agree."""
    lines = ["# size n PRTT(1,0,s) PRTT(n,0,s) PRTT(n,PRTT(1,0,s),s) L o_s o_r g G lsqu(g,G)"]
    for j in range(7):
        x = 1024 * j
        o, gap = 1.0 + x / 65536, 1.0 + x / 10000
        lines.append(f"{x + 1} 10 6 {6 + 9 * gap:.6f} 0 3 {o:.6f} {o:.6f} 1.0 0.0001 0")
    return "\n".join(lines) + "\n"


def latency_samples(rng):
    """ng_netnoise_mpi_lat.out: two blocks of 1000 one-way times of 1 byte, us."""
    values = [2 * TRUE_O * 1e6 + 1.0 + rng.expovariate(1 / 0.3) for _ in range(2000)]
    return "#size\trtt\n" + "".join(f"1\t{v:.6f}\n" for v in values)


def detour_trace(rng):
    """ng_osnoise.out: 4000 detours, one a millisecond on average, ns."""
    lines = ["# Benchmark Method: selfish (synthetic: scripts/make_synthetic_machine.py)"]
    t = 0.0
    for _ in range(4000):
        t += rng.expovariate(1 / 1.0e6)
        d = 2000 + 4000 * rng.random()
        if rng.random() < 0.02:
            d = 20000 * rng.paretovariate(2.5)
        lines.append(f"{t:.2f}\t{d:.2f}")
        t += d
    return "\n".join(lines) + "\n"


def truth_run(netgauge, n, samples):
    return (f'name = "truth"\nseed = {100 + n}\nsamples = {samples}\n'
            f'[collective]\nkind = "schedule"\nalgorithm = "nway_dissemination"\ncompute = false\n'
            f'N = {n}\nmessage_bytes = 16\n'
            f'[loggops]\nL = 1.0e-6\no = {TRUE_O}\ng = 1.0e-6\nG = 1.0e-10\n'
            f'[latency]\nfile = ["{netgauge}/ng_netnoise_mpi_lat.out"]\ncolumn = "one_way"\n'
            f'use = "excess"\nwarmup = 21\nblock = 1000\n'
            f'[noise]\nlaw = "trace"\nfile = "{netgauge}/ng_osnoise.out"\nreplay = "poisson"\n'
            + LOOP + '[output]\nraw_samples = true\n')


def measured_table(collnoise, netgauge, n, samples, work):
    """The machine's measured iterations at n ranks: each iteration's slowest rank, seconds."""
    sys.path.insert(0, os.path.join(HERE, "..", "python"))
    import collnoise as cn  # the repository's package, for the raw samples
    run = os.path.join(work, f"truth-{n}.toml")
    write(run, truth_run(netgauge, n, samples))
    out = os.path.join(work, f"truth-{n}.h5")
    subprocess.run([collnoise, "run", run, "--out", out, "--force", "--quiet", "--no-checkpoint"],
                   check=True)
    raw = cn.load(out).point(0).raw
    return (f"# 16 B n-way dissemination at {n} ranks, the synthetic machine's measured "
            f"iterations (slowest rank, seconds): scripts/make_synthetic_machine.py\n"
            + "".join(f"{v:.9e}\n" for v in raw))


def calibration_file():
    tables = "".join(
        f'[[table]]\nfile = "tables/nway_{n}_16.txt"\nunit = "s"\n[table.collective]\n'
        f'kind = "schedule"\nalgorithm = "nway_dissemination"\ncompute = false\nN = {n}\n'
        f'message_bytes = 16\n' for n in (4, 8))
    model = LOOP.replace("[loop]", "[model.loop]").replace("[entry]", "[model.entry]") \
        .replace("[timing]", "[model.timing]")
    return ('name = "synthetic"\nseed = 1\nnetgauge = "netgauge"\n'
            '[measurements]\ndraws = 40\nlevel = 0.9\ntails = "gpd"\n' + model +
            '[model.latency]\nuse = "excess"\n' +
            '[fit]\nsamples_per_table = 300\nevaluations = 60\nbootstrap = 40\n'
            '[fit.keys]\n"loggops.o" = ["0.05us", "3us"]\n' + tables)


def main(argv):
    if len(argv) < 2:
        print(__doc__.split("\n\n")[-2], file=sys.stderr)
        return 2
    collnoise = os.path.abspath(argv[1])
    out = os.path.abspath(argv[2] if len(argv) > 2 else
                          os.path.join(HERE, "..", "runs", "data", "synthetic-machine"))
    rng = random.Random(20261204)
    netgauge = os.path.join(out, "netgauge")
    write(os.path.join(netgauge, "ng_loggp.out"), loggp_rows())
    write(os.path.join(netgauge, "ng_netnoise_mpi_lat.out"), latency_samples(rng))
    write(os.path.join(netgauge, "ng_osnoise.out"), detour_trace(rng))
    with tempfile.TemporaryDirectory() as work:
        for n in (4, 8):
            write(os.path.join(out, "tables", f"nway_{n}_16.txt"),
                  measured_table(collnoise, netgauge, n, 300, work))
    write(os.path.join(out, "calibration.toml"), calibration_file())
    # From the folder itself, so that the machine file's header names it as a user would.
    subprocess.run([collnoise, "calibrate", "calibration.toml", "--out", "synthetic.machine.toml",
                    "--force"], check=True, cwd=out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
