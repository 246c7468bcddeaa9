#!/usr/bin/env bash
# A noisy GOAL schedule (bench/HISTORY.md, "Noisy GOAL schedules"): Schedgen's 2^16-rank
# dissemination barrier read from its GOAL file and simulated for 20 samples under a synthetic
# detour trace (bench/detour_trace.py: 10-100 us about every millisecond), one thread; wall
# time, user time and peak memory of each binary given, alternated, and the summaries compared
# (the same bits but for git_sha).
#   bash bench/noisy_goal.sh SCHEDGEN ROUNDS COLLNOISE...
# SCHEDGEN is spcl/LogGOPSim's src/Schedgen/schedgen (built with its Makefile): a generator of
# the file, never a dependency.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
schedgen=$1
rounds=$2
shift 2
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$schedgen" -p dissemination -s 65536 -o "$work/d16.goal" > /dev/null
python3 "$here/detour_trace.py" > "$work/detours.txt"
cat > "$work/noisy.toml" <<TOML
name = "noisy-goal"
seed = 1
samples = 20

[collective]
kind = "schedule"
goal = "d16.goal"

[loggops]
L = 1.0e-6
o = 1.0e-9
g = 0.0
G = 1.0e-9
O = 0.0

[noise]
law = "trace"
file = "detours.txt"
unit = "ns"
TOML
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((r = 1; r <= rounds; r++)); do
  i=0
  for bin in "$@"; do
    /usr/bin/time -f "%e s wall, %U s user, %M KB" -o "$work/time" "$bin" run "$work/noisy.toml" \
      --out "$work/r$i.h5" --force --threads 1 --quiet
    echo "round $r, $bin: $(cat "$work/time")"
    "$bin" summary "$work/r$i.h5" --json | grep -v '"git_sha"' > "$work/s$i.json"
    cmp -s "$work/s0.json" "$work/s$i.json" || echo "  summaries differ from the first binary's"
    i=$((i + 1))
  done
done
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
