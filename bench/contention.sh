#!/usr/bin/env bash
# Two threads against one, on an idle machine and beside a busy process: a thread that waits
# by spinning takes the core its partner needs, so on a shared node (another job, a hyper-thread
# sibling) two threads can end up slower than one. This runs the same run files at --threads 1
# and --threads 2, idle and busy, and prints the median wall and user seconds of REPS runs.
#
#   bench/contention.sh BINARY [BINARY...]     e.g. bench/contention.sh /work/main/build/collnoise build/collnoise
#
# With several binaries (before and after a change) the runs alternate between them, so that a
# change in the machine's load hits both alike. Environment:
#   REPS=3                 runs per cell (the median is printed)
#   WORKLOADS="tree network cycles cycles16 schedule"   which workloads to run
#   BUSY_CPU=0             the CPU the busy process is pinned to ("none": not pinned)
#   CONDITIONS="idle busy" which conditions to run
# The machine's load average is printed before and after: other processes count as load too.
set -euo pipefail

if [[ $# -lt 1 ]]; then
  echo "usage: $0 BINARY [BINARY...]" >&2
  exit 2
fi
binaries=()
for b in "$@"; do
  [[ -x "$b" ]] || { echo "$0: $b is not an executable" >&2; exit 2; }
  binaries+=("$(readlink -f "$b")")
done
REPS=${REPS:-3}
WORKLOADS=${WORKLOADS:-"tree network cycles cycles16 schedule"}
CONDITIONS=${CONDITIONS:-"idle busy"}
BUSY_CPU=${BUSY_CPU:-0}

work=$(mktemp -d /tmp/collnoise-contention.XXXXXX)
busy_pid=""
cleanup() {
  if [[ -n "$busy_pid" ]]; then kill "$busy_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The per-level tree barrier at N = 2^40 - 1: 10^6 phases of microseconds each, in chunks of
# 1024 (one parallel loop per chunk).
cat >"$work/tree.toml" <<'EOF'
name = "contention-tree"
seed = 1
samples = 1000000
[collective]
kind = "tree_barrier"
levels = 40
w = 1.0e-3
tau = 2.0e-6
sampling = "per_level"
[noise]
law = "exponential"
f = 0.01
EOF
# A model whose samples go through core/parallel_for.hpp one by one: network mappings.
cat >"$work/network.toml" <<'EOF'
name = "contention-network"
seed = 2
samples = 16000
[collective]
kind = "binomial_broadcast"
[network]
topology = "xgft(3; 12,12,8; 1,12,4)"
rho = 0.5
EOF
# The cycle engine (engine/cycles): butterfly cycles at 2^20 ranks, its parallel loops per cycle.
cat >"$work/cycles.toml" <<'EOF'
name = "contention-cycles"
seed = 3
replications = 2
[collective]
kind = "butterfly"
log2_N = 20
cycles = 2
W = 6.66667e-3
[loggops]
L = 1.0e-6
o = 1.0e-9
g = 0.0
G = 1.0e-9
O = 0.0
message_bytes = 8
[noise]
law = "periodic"
P = 0.01
D = 1.0e-4
EOF
# The same at 2^16 ranks and 50 cycles: parallel loops of a hundred microseconds or so, where
# waking sleeping threads costs most.
sed -e 's/^name = .*/name = "contention-cycles16"/' -e 's/^log2_N = 20$/log2_N = 16/' \
  -e 's/^cycles = 2$/cycles = 50/' "$work/cycles.toml" >"$work/cycles16.toml"
# The schedule engine (oneTBB tasks over replications): recursive doubling at 2^16 ranks.
cat >"$work/schedule.toml" <<'EOF'
name = "contention-schedule"
seed = 4
samples = 4
[collective]
kind = "schedule"
algorithm = "recursive_doubling_allreduce"
log2_N = 16
message_bytes = 8
[loggops]
L = 1.0e-6
o = 1.0e-9
g = 0.0
G = 1.0e-9
[noise]
law = "periodic"
P = 1.0e-3
D = 1.0e-4
EOF

start_busy() {
  if [[ "$BUSY_CPU" == none ]]; then
    sh -c 'while :; do :; done' &
  else
    taskset -c "$BUSY_CPU" sh -c 'while :; do :; done' &
  fi
  busy_pid=$!
  sleep 0.5
}
stop_busy() {
  kill "$busy_pid" 2>/dev/null || true
  wait "$busy_pid" 2>/dev/null || true
  busy_pid=""
}

# One run: prints "wall user" (seconds).
one_run() {
  local binary=$1 workload=$2 threads=$3
  local times="$work/time"
  /usr/bin/time -f "%e %U" -o "$times" "$binary" run "$work/$workload.toml" \
    --out "$work/$workload.h5" --force --threads "$threads" >/dev/null 2>"$work/stderr" || {
    echo "$0: $binary run $workload --threads $threads failed:" >&2
    cat "$work/stderr" >&2
    exit 1
  }
  tail -n 1 "$times"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# busy process: $([[ "$BUSY_CPU" == none ]] && echo "not pinned" || echo "pinned to CPU $BUSY_CPU"); medians of $REPS runs"
for b in "${!binaries[@]}"; do echo "# binary $b: ${binaries[$b]}"; done
printf '%-9s %-5s %7s %6s %9s %9s\n' workload load threads binary wall_s user_s
for workload in $WORKLOADS; do
  for condition in $CONDITIONS; do
    [[ "$condition" == busy ]] && start_busy
    declare -A walls=() users=()
    for ((rep = 0; rep < REPS; ++rep)); do
      for threads in 1 2; do
        for b in "${!binaries[@]}"; do
          read -r wall user < <(one_run "${binaries[$b]}" "$workload" "$threads")
          walls[$threads,$b]+="$wall "
          users[$threads,$b]+="$user "
        done
      done
    done
    [[ "$condition" == busy ]] && stop_busy
    for threads in 1 2; do
      for b in "${!binaries[@]}"; do
        printf '%-9s %-5s %7s %6s %9s %9s\n' "$workload" "$condition" "$threads" "$b" \
          "$(tr ' ' '\n' <<<"${walls[$threads,$b]}" | grep . | median)" \
          "$(tr ' ' '\n' <<<"${users[$threads,$b]}" | grep . | median)"
      done
    done
    unset walls users
  done
done
echo "# load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
