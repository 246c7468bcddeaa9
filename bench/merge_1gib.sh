#!/usr/bin/env bash
# Merge time of a 1 GiB result set: four parts of bench/merge-1gib.toml, then `collnoise merge`
# (results in bench/RESULTS.md).   bash bench/merge_1gib.sh [build dir] [scratch dir]
set -euo pipefail
cd "$(dirname "$0")/.."
collnoise="$(pwd)/${1:-build}/collnoise"
out="${2:-$(mktemp -d)}"
for i in 1 2 3 4; do
  "$collnoise" run bench/merge-1gib.toml --part "$i/4" --out "$out/part$i.h5" --force --quiet
done
ls -l "$out"/part*.h5
/usr/bin/time -f "merge: %e s wall, %M KB peak memory" \
  "$collnoise" merge "$out"/part1.h5 "$out"/part2.h5 "$out"/part3.h5 "$out"/part4.h5 \
  --out "$out/merged.h5" --force --quiet
ls -l "$out/merged.h5"
