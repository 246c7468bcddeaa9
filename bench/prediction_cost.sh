#!/usr/bin/env bash
# The cost of a prediction with intervals (docs/calibration.md, "Predictions with intervals"):
# the 16 B n-way dissemination at 16384 ranks under a machine file of 20 calibration draws, run
# with prediction.draws = 20 and 1000 samples per draw, against the same point run once with
# 20000 samples at the machine's own values. The target: at most 1.2 times. The machine file is
# made here (its draws vary loggops.o and loggops.g as a calibration's would); no data needed.
# PER_DRAW samples per draw (default 1000; fewer makes each draw's fixed cost weigh more, so the
# ratio at 1000 is at most the one measured with fewer).
#   bash bench/prediction_cost.sh [COLLNOISE] [THREADS] [WORK] [PER_DRAW]
set -euo pipefail
collnoise=$(realpath "${1:-build/collnoise}")
threads=${2:-1}
work=${3:-$(mktemp -d)}
per_draw=${4:-1000}
mkdir -p "$work"
{
  cat <<'HEAD'
# A machine file as `collnoise calibrate` writes one, its draws made up for this measurement.
[machine]
format = 1
name = "bench"
largest_ranks = 32
HEAD
  for d in $(seq 0 19); do
    printf '[[machine.draws]]\n"loggops.o" = %s\n"loggops.g" = %s\n' \
      "$(awk -v d="$d" 'BEGIN { printf "%.6e", 1.0e-6 * (0.9 + 0.01 * d) }')" \
      "$(awk -v d="$d" 'BEGIN { printf "%.6e", 2.0e-6 * (1.1 - 0.01 * d) }')"
  done
  cat <<'KEYS'
[loggops]
L = 1.0e-6
o = 1.0e-6
g = 2.0e-6
G = 1.0e-10
[noise]
law = "periodic"
P = 1.0e-3
D = 2.5e-5
KEYS
} > "$work/bench.machine.toml"
point() {
  cat <<POINT
name = "$1"
seed = 1
samples = $2
machine = "bench.machine.toml"
[collective]
kind = "schedule"
algorithm = "nway_dissemination"
compute = false
N = 16384
message_bytes = 16
POINT
}
{ point predicted "$per_draw"; printf '[prediction]\ndraws = 20\n'; } > "$work/predicted.toml"
point single $((20 * per_draw)) > "$work/single.toml"
seconds() {
  local start end
  start=$(date +%s.%N)
  "$collnoise" run "$work/$1.toml" --out "$work/$1.h5" --force --quiet --threads "$threads"
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }'
}
single=$(seconds single)
predicted=$(seconds predicted)
echo "16384-rank 16 B n-way dissemination, $threads thread(s), $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
echo "one parameter set, $((20 * per_draw)) samples: $single s"
echo "20 draws x $per_draw samples (prediction.draws = 20): $predicted s"
awk -v a="$single" -v b="$predicted" 'BEGIN { printf "ratio %.3f (target <= 1.2)\n", b / a }'
