#!/usr/bin/env bash
# What checksums and locks cost (bench/HISTORY.md, "What checksums and locks cost"): the same binary with them on and with them off
# (the hidden flag --bench-without-integrity: no locks, no seals, no checksum checks), in
# interleaved repetitions in one sitting; medians and their ratio (results in bench/RESULTS.md).
#   bash bench/integrity_overhead.sh [build dir] [repetitions] [scratch dir]
set -euo pipefail
cd "$(dirname "$0")/.."
collnoise="$(pwd)/${1:-build}/collnoise"
reps="${2:-7}"
out="${3:-$(mktemp -d)}"
mkdir -p "$out"
/usr/bin/python3 - "$collnoise" "$reps" "$out" <<'PY'
import statistics, subprocess, sys, time
binary, reps, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
runs = {"runs/default.toml": "default run file",
        "bench/integrity-large-result.toml": "160 MB result (20e6 raw samples)"}
for runfile, label in runs.items():
    times = {"on": [], "off": []}
    for _ in range(reps):
        for mode in ("on", "off"):
            args = [binary, "run", runfile, "--out", f"{out}/r-{mode}.h5", "--force", "--quiet"]
            if mode == "off":
                args.append("--bench-without-integrity")
            start = time.perf_counter()
            subprocess.run(args, check=True)
            times[mode].append(time.perf_counter() - start)
    on, off = statistics.median(times["on"]), statistics.median(times["off"])
    print(f"{label}: with checks {on:.3f} s, without {off:.3f} s (medians of {reps}), "
          f"ratio {on / off:.4f}")
PY
