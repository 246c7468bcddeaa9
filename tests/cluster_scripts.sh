#!/usr/bin/env bash
# scripts/slurm-array.sh and scripts/mpirun.sh, here without Slurm: the array variables are set by
# hand. A 3-task array, one task interrupted and resubmitted (it resumes from its checkpoint), a
# resubmitted finished task (skipped), the merge, and an mpirun over 2 processes must all give
# the summary of the plain run; a task outside the array is refused.
#   bash tests/cluster_scripts.sh COLLNOISE WORKDIR
set -euo pipefail
collnoise=$(realpath "$1")
work=$2
scripts=$(realpath "$(dirname "$0")/../scripts")
rm -rf "$work"
mkdir -p "$work"
cd "$work"
export COLLNOISE=$collnoise
run=hoefler-fig13  # a shipped run file, by name: 7 points, 100 samples each, 14 chunks

fail() {
  echo "cluster_scripts.sh: $*" >&2
  exit 1
}
task() {  # task ID COUNT [MIN]: one array task, as Slurm would start it
  SLURM_ARRAY_TASK_ID=$1 SLURM_ARRAY_TASK_COUNT=$2 SLURM_ARRAY_TASK_MIN=${3:-1} \
    SLURM_CPUS_PER_TASK=1 bash "$scripts/slurm-array.sh" "$run" parts
}

"$collnoise" run "$run" --out whole.h5 --quiet
"$collnoise" summary whole.h5 --json > whole.json

# Task 2 stopped after one chunk, as by the time limit; its resubmission resumes it.
mkdir parts
"$collnoise" run "$run" --part 2/3 --out "parts/$run.part2of3.h5" --interrupt-after-chunks 1 \
  --quiet > /dev/null 2>&1 && fail "the interrupted part did not stop"
[[ -f parts/$run.part2of3.h5.ckpt ]] || fail "no checkpoint for the interrupted part"
for i in 1 2 3; do task "$i" 3 > "task$i.log" 2>&1 || fail "task $i failed: $(cat "task$i.log")"; done
grep -q "resuming part 2/3" task2.log || fail "task 2 did not resume: $(cat task2.log)"
[[ ! -f parts/$run.part2of3.h5.ckpt ]] || fail "task 2 left its checkpoint"
task 3 3 | grep -q "already complete" || fail "a finished task was not skipped"
bash "$scripts/slurm-array.sh" --merge "$run" parts > merge.log
"$collnoise" summary "parts/$run.h5" --json > merged.json
cmp -s whole.json merged.json || fail "the merged array differs from the plain run"

# --array=0-1 numbers tasks from 0: they are parts 1 and 2.
task 0 2 0 > /dev/null 2>&1 && task 1 2 0 > /dev/null 2>&1
[[ -f parts/$run.part1of2.h5 && -f parts/$run.part2of2.h5 ]] || fail "tasks from 0 not mapped"
if task 4 3 > out_of_range.log 2>&1; then fail "task 4 of 3 was accepted"; fi
grep -q "not one of 3" out_of_range.log || fail "task 4 of 3: $(cat out_of_range.log)"

if "$collnoise" --version | grep -q "MPI: not built in"; then
  echo "cluster_scripts.sh: collnoise built without MPI: mpirun.sh not tried"
  exit 0
fi
# Open MPI refuses root without these (its documented switch; CI runs as root).
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 COLLNOISE_PROCS=2 COLLNOISE_THREADS=1 \
  COLLNOISE_MPIRUN_ARGS=--oversubscribe bash "$scripts/mpirun.sh" "$run" --out mpi.h5 --quiet
"$collnoise" summary mpi.h5 --json > mpi.json
cmp -s whole.json mpi.json || fail "the mpirun result differs from the plain run"
echo "cluster_scripts.sh: array, resume, merge and mpirun agree with the plain run"
