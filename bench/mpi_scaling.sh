#!/usr/bin/env bash
# Strong and weak scaling of MPI mode on this machine (results in bench/RESULTS.md).
#   bash bench/mpi_scaling.sh [build dir]
set -euo pipefail
cd "$(dirname "$0")/.."
collnoise="${1:-build}/collnoise"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
sed 's/^samples = 256/samples = 512/' bench/mpi-scaling.toml > "$out/weak2.toml"
time_of() {  # label, then the command
  local label=$1; shift
  local t0 t1 ms
  t0=$(date +%s%N)
  "$@" > /dev/null
  t1=$(date +%s%N)
  ms=$(( (t1 - t0) / 1000000 ))
  printf '%-44s %6d.%03d s\n' "$label" $((ms / 1000)) $((ms % 1000))
}
echo "strong scaling: 256 phases of 2^24 ranks"
time_of "1 process x 1 thread" "$collnoise" run bench/mpi-scaling.toml --out "$out/a.h5" --force --quiet --threads 1
time_of "1 process x 2 threads" "$collnoise" run bench/mpi-scaling.toml --out "$out/b.h5" --force --quiet --threads 2
time_of "2 processes x 1 thread (mpirun)" mpirun -np 2 --bind-to core "$collnoise" run bench/mpi-scaling.toml --out "$out/c.h5" --force --quiet --threads 1
echo "weak scaling: 256 phases per process"
time_of "1 process x 1 thread, 256 phases" "$collnoise" run bench/mpi-scaling.toml --out "$out/d.h5" --force --quiet --threads 1
time_of "2 processes x 1 thread, 512 phases" mpirun -np 2 --bind-to core "$collnoise" run "$out/weak2.toml" --out "$out/e.h5" --force --quiet --threads 1
# The same bits whatever the split.
cmp <("$collnoise" summary "$out/a.h5" --json) <("$collnoise" summary "$out/c.h5" --json) && echo "1 and 2 processes: identical summaries"
