#!/usr/bin/env bash
# The cost of contention (docs/models/contention.md, "Cost"): each run file of contention beside
# the same file without its [network] table, one thread, alternating REPS times; prints the
# median wall seconds of each, their ratio, and the flow model's recomputations.
#
#   bench/network_contention.sh BINARY        e.g. bench/network_contention.sh build/collnoise
#
# Environment: REPS=3 (runs per file), FILES (run files, by default the flow model's target file
# bench/contention-recdoub-2e16-flows.toml). Writes only into a temporary directory.
set -euo pipefail
if [[ $# -ne 1 || ! -x "$1" ]]; then
  echo "usage: $0 BINARY" >&2
  exit 2
fi
bin=$(readlink -f "$1")
here=$(cd "$(dirname "$0")" && pwd)
REPS=${REPS:-3}
FILES=${FILES:-"$here/contention-recdoub-2e16-flows.toml"}
work=$(mktemp -d /tmp/collnoise-network-contention.XXXXXX)
trap 'rm -rf "$work"' EXIT
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
median() { sort -g | awk '{v[NR] = $1} END {print v[int((NR + 1) / 2)]}'; }
for file in $FILES; do
  base=$(basename "$file" .toml)
  cp "$file" "$work/$base.toml"
  # The same point without contention: the file up to its [network] table.
  sed '/^\[network\]/,$d' "$file" > "$work/$base-plain.toml"
  for ((i = 0; i < REPS; ++i)); do
    for variant in "$base" "$base-plain"; do
      /usr/bin/time -f "%e" -o "$work/$variant.$i.time" \
        "$bin" run "$work/$variant.toml" --out "$work/$variant.h5" --force --threads 1 --quiet
    done
  done
  with=$(cat "$work/$base".[0-9]*.time | median)
  without=$(cat "$work/$base-plain".[0-9]*.time | median)
  echo "$base: ${with} s with contention, ${without} s without:" \
    "$(awk -v a="$with" -v b="$without" 'BEGIN {printf "%.1f", a / b}') times"
  "$bin" summary "$work/$base.h5" --json | grep -E '"(completion_mean|noiseless_network_repolls)"' |
    head -2
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
