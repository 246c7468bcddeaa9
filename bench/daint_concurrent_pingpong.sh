#!/usr/bin/env bash
# Piz Daint's concurrent ping-pongs (Netgauge one_one, k = 2, 4, 8, 16 pairs at once, and the
# one-pair reference) simulated with collnoise's flow model on a dragonfly model of the machine,
# against the measured per-iteration times: KS distance and median ratio per (k, size), and the
# slowdown of k pairs over one pair, measured and simulated (bench/daint_concurrent_pingpong.py
# says how each case is built; bench/RESULTS.md, "Concurrent ping-pongs of Piz Daint on a
# dragonfly (contention)", the results).
#
#   bench/daint_concurrent_pingpong.sh DATA [COLLNOISE] [OUTDIR]
#
# DATA: the public data set DanieleDeSensi/cloud_noise_data (a checkout with its daint/*.tar.xz,
# or a folder where daint/<run>/ is unpacked, or the unpacked run folder itself); the run is
# daint/2022_05_13_17_07_22 unless RUN is set. COLLNOISE: default build/collnoise. OUTDIR
# (default /tmp): one CSV per configuration, daint_concurrent_pingpong_<placement>_<noise>.csv,
# and their work folders. Three configurations, each over every k and size:
#   two-nodes os+latency   the placement the measurements imply, the run's detour trace and
#                          per-message latency excess (the main model)
#   two-nodes os           the same without the latency excess
#   spread    os+latency   every rank on a node of its own (no shared link), for comparison
# CONFIGS="two-nodes:os+latency" runs one only. THREADS (default 2) per collnoise run.
# Cost on 2 cores: about 3 minutes per configuration.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
data=${1:?usage: $0 DATA [COLLNOISE] [OUTDIR]}
collnoise=${2:-build/collnoise}
out=${3:-/tmp}
run=${RUN:-2022_05_13_17_07_22}
configs=${CONFIGS:-"two-nodes:os+latency two-nodes:os spread:os+latency"}
py=python3
for cand in /usr/bin/python3 python3; do
  if "$cand" -c 'import numpy, scipy, h5py' 2>/dev/null; then py=$cand; break; fi
done
[ -x "$collnoise" ] || { echo "no collnoise binary at $collnoise" >&2; exit 1; }
mkdir -p "$out"
for c in $configs; do
  placement=${c%%:*}; noise=${c#*:}
  echo "== placement $placement, noise $noise"
  "$py" "$here/daint_concurrent_pingpong.py" "$data" --collnoise "$collnoise" --out "$out" \
    --run "$run" --placement "$placement" --noise "$noise" --threads "${THREADS:-2}"
done
