#!/usr/bin/env bash
# Times `collnoise calibrate` on the public data set (docs/calibration.md): Piz Daint's Netgauge
# run 2022_05_13_17_07_22, loggops.o fitted to its 4- and 8-node 16 B n-way dissemination tables
# (2022_05_10_21_34_00), in the benchmark's loop. Fetches nothing: it takes the unpacked data
# set's path (the folders bench/validate_measured.py unpacks under its --work).
#   bash bench/calibration_time.sh DATASET_WORK [COLLNOISE] [WORK]
set -euo pipefail
data=$(realpath "$1")
collnoise=$(realpath "${2:-build/collnoise}")
work=${3:-$(mktemp -d)}
mkdir -p "$work"
tables=$data/daint/2022_05_10_21_34_00
table() {
  cat <<TABLE
[[table]]
file = "$tables/nwaydissemination_nocompute_$1_16.csv"
[table.collective]
kind = "schedule"
algorithm = "nway_dissemination"
compute = false
N = $1
message_bytes = 16
TABLE
}
{
  cat <<HEAD
name = "daint"
seed = 1
netgauge = "$data/daint/2022_05_13_17_07_22"
[measurements]
draws = 100
[model.loop]
iterations = 100
warmups = 10
pause = 5.0e-5
barrier = true
[model.entry]
barrier = "dissemination_barrier"
[model.timing]
measure = "per_rank"
[fit]
samples_per_table = 300
evaluations = 40
bootstrap = 4
[fit.keys]
"loggops.o" = ["0.1us", "5us"]
HEAD
  table 4
  table 8
} > "$work/daint.toml"
cd "$work"
/usr/bin/time -f "calibrate: %e s wall, %U s user, %M KiB peak" \
  "$collnoise" calibrate daint.toml --out daint.machine.toml --force
