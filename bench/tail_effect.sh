#!/usr/bin/env bash
# How much a prediction at 2^14 and 2^20 ranks rests on the tails beyond the data
# (docs/models/tails.md): the 16 B n-way dissemination on the synthetic machine of
# runs/data/synthetic-machine/ (its LogGP, its 1-byte latency pool as excesses, its detour
# trace), every rank entering at 0 and the completion timed, under four noise models:
#   replay    the trace replayed, the pool drawn as measured (no value beyond the data);
#   poisson   the trace's detours as a Poisson process of its rate and durations, no tail;
#   detours   the same, the durations spliced to a generalised Pareto tail;
#   both      and the latency pool spliced too.
# SAMPLES_14 at 2^14 and SAMPLES_20 at 2^20 (defaults 400 and 40); prints each point's mean,
# median and p99 with their intervals, and with a tail the share of its samples whose slowest
# rank drew from it.
#   bash bench/tail_effect.sh [COLLNOISE] [THREADS] [WORK] [SAMPLES_14] [SAMPLES_20]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
collnoise=$(realpath "${1:-build/collnoise}")
threads=${2:-2}
work=${3:-$(mktemp -d)}
samples14=${4:-400}
samples20=${5:-40}
data="$here/runs/data/synthetic-machine/netgauge"
mkdir -p "$work"
cases() {
  cat <<'CASES'
[[case]]
"noise.replay" = "trace"
"latency.tail" = "none"
[[case]]
"noise.replay" = "poisson"
"latency.tail" = "none"
[[case]]
"noise.replay" = "poisson"
"noise.tail" = "gpd"
"latency.tail" = "none"
[[case]]
"noise.replay" = "poisson"
"noise.tail" = "gpd"
"latency.tail" = "gpd"
CASES
}
for log2 in 14 20; do
  samples=$samples14
  [ "$log2" = 20 ] && samples=$samples20
  {
    cat <<RUN
name = "tail-effect-2e$log2"
seed = 3
samples = $samples
[collective]
kind = "schedule"
algorithm = "nway_dissemination"
compute = false
log2_N = $log2
message_bytes = 16
[loggops]
L = 1.0e-6
o = 4.0e-7
g = 1.0e-6
G = 1.0e-10
[latency]
file = ["$data/ng_netnoise_mpi_lat.out"]
column = "one_way"
use = "excess"
warmup = 21
block = 1000
[noise]
law = "trace"
file = "$data/ng_osnoise.out"
RUN
    cases
  } > "$work/tail-2e$log2.toml"
  /usr/bin/time -f "2^$log2: %e s wall" "$collnoise" run "$work/tail-2e$log2.toml" \
    --out "$work/tail-2e$log2.h5" --force --no-checkpoint --threads "$threads"
  # Each point's share of samples whose slowest rank drew from a fitted tail (none: no tail).
  "$collnoise" summary "$work/tail-2e$log2.h5" --json |
    PYTHONPATH="$here/python" /usr/bin/python3 -c '
import json, sys
from collnoise import fields
for point in json.load(sys.stdin)["points"]:
    share = point.get(fields.slowest_tail_share)
    what = ", ".join(f"{k} = {v}" for k, v in sorted(point["params"].items())
                     if k in ("noise.replay", "noise.tail", "latency.tail"))
    if share is None:
        print(f"{what}: no fitted tail")
    else:
        low, high = point[fields.slowest_tail_share_ci_low], point[fields.slowest_tail_share_ci_high]
        print(f"{what}: slowest rank from the tail in {share:.3f} [{low:.3f}, {high:.3f}]")
'
done
