#!/usr/bin/env bash
# Speed of two builds side by side: the same kernel benchmarks and a whole run, each build in
# turn, repeated and interleaved in one sitting; the median time of each and their ratio
# (new / old), of wall-clock time and of CPU time. Used for the redesign measured against
# 645c846 and for the portable, dispatched build against -march=native). On a machine
# shared with other jobs only the ratios mean something, and the CPU-time ratio less than the
# wall-clock one is disturbed by time the process waits for a core. Results in bench/RESULTS.md.
#   bash bench/compare_builds.sh NEW_BUILD_DIR OLD_BUILD_DIR [repetitions]
set -euo pipefail
cd "$(dirname "$0")/.."
new="$(cd "$1" && pwd)"
old="$(cd "$2" && pwd)"
reps="${3:-5}"
/usr/bin/python3 - "$new" "$old" "$reps" <<'PY'
import json, os, statistics, subprocess, sys, tempfile, time
new, old, reps = sys.argv[1], sys.argv[2], int(sys.argv[3])
kernels = [
    ("collnoise_bench", "bare_loop$"),
    ("collnoise_bench", "per_rank/exponential/1/"),
    ("collnoise_bench", "per_rank/pareto/1/"),
    ("collnoise_bench", "per_rank/mixture/1/"),
    ("collnoise_bench", "per_level/1/"),
    ("collnoise_bench_cycles", "fast_conventional/12/1/"),
    ("collnoise_bench_cycles", "fast_redundant/12/1/"),
    ("collnoise_bench_cycles", "reference_conventional/12/1/"),
    ("collnoise_bench_network", "samples/xgft"),
    ("collnoise_bench_schedules", "generated/dissemination/16$"),
    ("collnoise_bench_schedules", "generated/recursive_doubling_noisy/16$"),
]
def kernel_time(build, binary, pattern):
    out = subprocess.run([f"{build}/bench/{binary}", f"--benchmark_filter={pattern}",
                          "--benchmark_format=json", "--benchmark_min_time=0.3"],
                         check=True, capture_output=True, text=True).stdout
    runs = json.loads(out)["benchmarks"]
    return runs[0]["real_time"], runs[0]["cpu_time"]
def run_time(build):
    with tempfile.TemporaryDirectory() as d:
        start, cpu = time.perf_counter(), os.times()
        subprocess.run([f"{build}/collnoise", "run", "runs/default.toml", "--out", f"{d}/r.h5",
                        "--force", "--quiet", "--threads", "1"], check=True)
        end = os.times()
        return (time.perf_counter() - start,
                end.children_user + end.children_system - cpu.children_user - cpu.children_system)
def compare(name, measure):
    t = {"new": [], "old": []}
    for _ in range(reps):
        for side, build in (("new", new), ("old", old)):
            t[side].append(measure(build))
    med = {side: [statistics.median(x[i] for x in t[side]) for i in (0, 1)] for side in t}
    print(f"| {name} | {med['new'][0]:.4g} | {med['old'][0]:.4g} | {med['new'][0] / med['old'][0]:.3f}"
          f" | {med['new'][1] / med['old'][1]:.3f} |", flush=True)
print("| benchmark | new | old | new / old | new / old, CPU time |\n|---|---|---|---|---|",
      flush=True)
for binary, pattern in kernels:
    compare(f"{binary} {pattern}", lambda build: kernel_time(build, binary, pattern))
compare("collnoise run runs/default.toml --threads 1 (s)", run_time)
PY
