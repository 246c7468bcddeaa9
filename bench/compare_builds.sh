#!/usr/bin/env bash
# Speed of two builds side by side (issue 13: the redesign against 645c846): the same kernel
# benchmarks and a whole run, each build in turn, repeated and interleaved in one sitting; the
# median time of each and their ratio (new / old). Results in bench/RESULTS.md.
#   bash bench/compare_builds.sh NEW_BUILD_DIR OLD_BUILD_DIR [repetitions]
set -euo pipefail
cd "$(dirname "$0")/.."
new="$(cd "$1" && pwd)"
old="$(cd "$2" && pwd)"
reps="${3:-5}"
/usr/bin/python3 - "$new" "$old" "$reps" <<'PY'
import json, statistics, subprocess, sys, tempfile, time
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
]
def kernel_time(build, binary, pattern):
    out = subprocess.run([f"{build}/bench/{binary}", f"--benchmark_filter={pattern}",
                          "--benchmark_format=json", "--benchmark_min_time=0.3"],
                         check=True, capture_output=True, text=True).stdout
    runs = json.loads(out)["benchmarks"]
    return runs[0]["real_time"]
def run_time(build):
    with tempfile.TemporaryDirectory() as d:
        start = time.perf_counter()
        subprocess.run([f"{build}/collnoise", "run", "runs/default.toml", "--out", f"{d}/r.h5",
                        "--force", "--quiet", "--threads", "1"], check=True)
        return time.perf_counter() - start
rows = []
for binary, pattern in kernels:
    t = {"new": [], "old": []}
    for _ in range(reps):
        for name, build in (("new", new), ("old", old)):
            t[name].append(kernel_time(build, binary, pattern))
    rows.append((f"{binary} {pattern}", statistics.median(t["new"]), statistics.median(t["old"])))
t = {"new": [], "old": []}
for _ in range(reps):
    for name, build in (("new", new), ("old", old)):
        t[name].append(run_time(build))
rows.append(("collnoise run runs/default.toml --threads 1 (s)", statistics.median(t["new"]),
             statistics.median(t["old"])))
print(f"| benchmark | new | old | new / old |\n|---|---|---|---|")
for name, n, o in rows:
    print(f"| {name} | {n:.4g} | {o:.4g} | {n / o:.3f} |")
PY
