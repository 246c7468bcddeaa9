#!/usr/bin/env bash
# One run file over a Slurm job array: task i of n samples part i/n of every point (`collnoise
# run --part i/n`, docs/cli.md), and `--merge` joins the n parts into the result an unsplit run
# writes, bit for bit.
#
#   jobid=$(sbatch --parsable --array=1-16 scripts/slurm-array.sh RUNFILE [OUTDIR])
#   sbatch --dependency=afterok:$jobid scripts/slurm-array.sh --merge RUNFILE [OUTDIR]
#
# RUNFILE is a run file or the name of a shipped one (`chen-suda-fig8`). Part i goes to
# OUTDIR/<stem>.part<i>of<n>.h5, the merged result to OUTDIR/<stem>.h5 (stem: RUNFILE's file
# name without .toml; OUTDIR: the current directory). A task stopped by its time limit (Slurm
# sends SIGTERM) keeps a checkpoint; submitting the same array again resumes each unfinished
# part from its checkpoint and skips the finished ones. Precision targets cannot be split: run
# those with scripts/mpirun.sh.
#
# Environment: COLLNOISE, the command (default: collnoise on the PATH); Slurm's
# SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT, SLURM_ARRAY_TASK_MIN (default 1) and
# SLURM_CPUS_PER_TASK (threads; default: collnoise's, all cores). The array must be contiguous
# (--array=1-16 or 0-15, no step).
#
#SBATCH --job-name=collnoise
#SBATCH --cpus-per-task=16
#SBATCH --time=04:00:00
#SBATCH --output=collnoise-%A_%a.out
set -euo pipefail

collnoise=${COLLNOISE:-collnoise}
usage="usage: slurm-array.sh [--merge] RUNFILE [OUTDIR]"
merge=0
if [[ ${1:-} == --merge ]]; then
  merge=1
  shift
fi
run=${1:?$usage}
outdir=${2:-.}
stem=$(basename "$run" .toml)
mkdir -p "$outdir"

if ((merge)); then
  shopt -s nullglob
  parts=("$outdir/$stem".part*of*.h5)
  if ((${#parts[@]} == 0)); then
    echo "slurm-array.sh: no parts $outdir/$stem.part*of*.h5 to merge" >&2
    exit 2
  fi
  exec "$collnoise" merge "${parts[@]}" --out "$outdir/$stem.h5"
fi

: "${SLURM_ARRAY_TASK_ID:?not in a Slurm job array (sbatch --array=1-N ...)}"
: "${SLURM_ARRAY_TASK_COUNT:?not in a Slurm job array (sbatch --array=1-N ...)}"
count=$SLURM_ARRAY_TASK_COUNT
part=$((SLURM_ARRAY_TASK_ID - ${SLURM_ARRAY_TASK_MIN:-1} + 1))
if ((part < 1 || part > count)); then
  echo "slurm-array.sh: task $SLURM_ARRAY_TASK_ID is not one of $count contiguous tasks" \
    "starting at ${SLURM_ARRAY_TASK_MIN:-1} (use --array=1-$count)" >&2
  exit 2
fi
out="$outdir/$stem.part${part}of${count}.h5"
if [[ -f $out ]] && "$collnoise" verify "$out" > /dev/null 2>&1; then
  echo "slurm-array.sh: $out is already complete"
  exit 0
fi
args=(run "$run" --part "$part/$count" --out "$out")
if [[ -f $out.ckpt ]]; then
  echo "slurm-array.sh: resuming part $part/$count from $out.ckpt"
  args+=(--resume "$out.ckpt")
fi
if [[ -n ${SLURM_CPUS_PER_TASK:-} ]]; then
  args+=(--threads "$SLURM_CPUS_PER_TASK")
fi
# exec: Slurm's SIGTERM at the time limit reaches collnoise itself, which checkpoints.
exec "$collnoise" "${args[@]}"
