#!/usr/bin/env bash
# Coverage of the user bounds' intervals under optional stopping (docs/bounds.md), end to end:
# a tree barrier whose exact mean is known, a bound `mean == exact_mean` (tolerance 0, so it can
# never hold), and `[precision] until = "bounds_decided"`. The run stops early only when an
# interval excludes the exact mean, i.e. only on a coverage failure: the share of seeds that stop
# before the cap is the method's error rate, to be at most 1 - confidence (0.05). (At a fixed
# 95% per look the same rule errs far more often: tests/runs/test_user_bounds.cpp measures both.)
#
#   bash bench/bounds_coverage.sh [COLLNOISE] [SEEDS]      # defaults: build/collnoise 200
set -euo pipefail
collnoise=${1:-build/collnoise}
seeds=${2:-200}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stopped=0
for seed in $(seq 1 "$seeds"); do
  cat > "$work/run.toml" <<TOML
name = "coverage"
seed = $seed
[precision]
until = "bounds_decided"
min_samples = 1024
max_samples = 262144
[collective]
kind = "tree_barrier"
tau = 2.0e-6
sampling = "per_level"
w = 1.0e-3
levels = 10
[noise]
law = "exponential"
f = 0.05
[[bound]]
name = "exact"
relation = "=="
expression = "exact_mean"
TOML
  "$collnoise" run "$work/run.toml" --out "$work/r.h5" --force --quiet --threads 1
  decided=$("$collnoise" summary "$work/r.h5" --json |
    python3 -c 'import json,sys; print(int(json.load(sys.stdin)["points"][0]["bounds_decided"]))')
  stopped=$((stopped + decided))
done
python3 - "$stopped" "$seeds" <<'PY'
import math, sys
k, n = int(sys.argv[1]), int(sys.argv[2])
rate = k / n
sd = math.sqrt(0.05 * 0.95 / n)
print(f"seeds {n}: stopped before the cap (interval excluded the exact mean) {k}, rate {rate:.4f} "
      f"(nominal at most 0.05; one sd of the rate at 0.05 is {sd:.4f})")
PY
