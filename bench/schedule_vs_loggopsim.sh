#!/usr/bin/env bash
# collnoise's schedule engine side by side with LogGOPSim (bench/HISTORY.md,
# "Schedules"): a dissemination barrier of 2^k ranks written by Schedgen, simulated without noise
# by LogGOPSim (Schedgen + txt2bin + LogGOPSim, each timed) and by collnoise (the same GOAL file
# read and simulated; the same algorithm generated on the fly), wall time and peak memory of each,
# and the two completion times, which must be equal.
#   bash bench/schedule_vs_loggopsim.sh LOGGOPSIM_SRC [log2_N ...]
# LOGGOPSIM_SRC is a build of spcl/LogGOPSim's src/ (LogGOPSim/LogGOPSim, LogGOPSim/txt2bin,
# Schedgen/schedgen built with their Makefiles, -O2): a peer to compare with, never a dependency.
set -euo pipefail
cd "$(dirname "$0")/.."
src="$(cd "$1" && pwd)"
shift
sizes=("${@:-16}")
collnoise="$(pwd)/build/collnoise"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
timed() {  # timed LABEL COMMAND...: prints "LABEL: S s, M MB"
  local label=$1
  shift
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" > "$work/out" 2>&1
  read -r secs kb < "$work/time"
  printf '  %-34s %8.2f s %8.0f MB\n' "$label" "$secs" "$((kb / 1024))"
}
net='L = 1.0e-6
o = 1.0e-9
g = 0.0
G = 1.0e-9
O = 0.0'
for k in "${sizes[@]}"; do
  n=$((1 << k))
  echo "dissemination barrier, 2^$k ranks (L = 1 us, o = 1 ns, g = 0, G = 1 ns/byte)"
  timed "Schedgen (GOAL text)" "$src/Schedgen/schedgen" -p dissemination -s "$n" -o "$work/d.goal"
  echo "  GOAL text: $(($(stat -c %s "$work/d.goal") / 1000000)) MB"
  timed "LogGOPSim txt2bin" "$src/LogGOPSim/txt2bin" -i "$work/d.goal" -o "$work/d.bin"
  timed "LogGOPSim simulation" "$src/LogGOPSim/LogGOPSim" -f "$work/d.bin" -L 1000 -o 1 -g 0 -G 1 \
    -O 0 -S 65535
  # Small runs list every host, larger ones the maximum only.
  lgs=$( (grep '^Host' "$work/out" | awk '{print $3}'
    grep -o 'Maximum finishing time at host [0-9]*: [0-9]*' "$work/out" | awk '{print $NF}') |
    sort -n | tail -1)
  cat > "$work/goal.toml" <<TOML
name = "goal"
seed = 1
samples = 2
[collective]
kind = "schedule"
goal = "d.goal"
[loggops]
$net
TOML
  sed -e 's/^goal = "d.goal"/algorithm = "dissemination_barrier"\nN = '"$n"'\nmessage_bytes = 1\nreceives = "preposted"/' \
    "$work/goal.toml" > "$work/generated.toml"
  timed "collnoise, the GOAL file" "$collnoise" run "$work/goal.toml" --out "$work/g.h5" --force \
    --threads 1 --quiet
  timed "collnoise, generated (preposted)" "$collnoise" run "$work/generated.toml" \
    --out "$work/p.h5" --force --threads 1 --quiet
  mine=$("$collnoise" summary "$work/g.h5" --json | grep '"noiseless_completion"' | head -1 |
    sed 's/.*: \([^,]*\),*/\1/')
  echo "  completion: LogGOPSim ${lgs} ns, collnoise ${mine} s"
  rm -f "$work/d.goal" "$work/d.bin"
done
