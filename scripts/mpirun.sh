#!/usr/bin/env bash
# One run under mpirun: every point's samples shared among the processes, threads inside each,
# rank 0 writes the result, bit for bit the one-process result (docs/cli.md, "Many processes").
# Needs a collnoise built with MPI (`collnoise --version` says "MPI: Open MPI ...").
#
#   sbatch --nodes=4 --ntasks-per-node=2 --cpus-per-task=16 scripts/mpirun.sh RUNFILE [OPTIONS...]
#   COLLNOISE_PROCS=4 scripts/mpirun.sh RUNFILE [OPTIONS...]             (without Slurm)
#
# RUNFILE is a run file or the name of a shipped one; OPTIONS go to `collnoise run` (--out,
# --force, --resume, ...). The result goes to <name>.h5 in the current directory unless --out.
#
# Environment: COLLNOISE, the command (default: collnoise on the PATH); MPIRUN (default mpirun);
# COLLNOISE_PROCS, the processes (default: Slurm's SLURM_NTASKS, else 2); COLLNOISE_THREADS,
# threads per process (default: SLURM_CPUS_PER_TASK, else collnoise's own: the machine's cores
# shared among its processes); COLLNOISE_MPIRUN_ARGS, more mpirun options (e.g. --oversubscribe).
#
#SBATCH --job-name=collnoise-mpi
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=2
#SBATCH --cpus-per-task=16
#SBATCH --time=04:00:00
#SBATCH --output=collnoise-mpi-%j.out
set -euo pipefail

collnoise=${COLLNOISE:-collnoise}
run=${1:?usage: mpirun.sh RUNFILE [collnoise run options...]}
shift
procs=${COLLNOISE_PROCS:-${SLURM_NTASKS:-2}}
threads=${COLLNOISE_THREADS:-${SLURM_CPUS_PER_TASK:-}}

mpirun_args=(-np "$procs")
run_args=(run "$run")
if [[ -n $threads ]]; then
  # Each process gets `threads` cores of its own, and its threads stay on them.
  mpirun_args+=(--map-by "slot:PE=$threads" --bind-to core)
  run_args+=(--threads "$threads")
else
  mpirun_args+=(--bind-to none)
fi
# shellcheck disable=SC2206  # COLLNOISE_MPIRUN_ARGS is a list of words
mpirun_args+=(${COLLNOISE_MPIRUN_ARGS:-})
# exec: a SIGUSR1 to this script reaches mpirun, which forwards it to every process: they
# checkpoint and stop (resume with --resume <out>.ckpt).
exec "${MPIRUN:-mpirun}" "${mpirun_args[@]}" "$collnoise" "${run_args[@]}" "$@"
