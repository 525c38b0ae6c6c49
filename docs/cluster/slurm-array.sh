#!/usr/bin/env bash
# An ethersim study as a Slurm job array: one array task per run, then one merge.
#
# OUT must be a directory every node sees (a shared file system); each task writes its
# run's file to OUT/runs/ and nothing else. Count the runs, submit the array with task
# ids 0..N-1, and the merge to start when every task has succeeded:
#
#   export OUT=$HOME/studies/stations
#   n=$(ethersim sweep scenarios/saturate.toml --param nodes.stations.count --range 1..32 \
#         --replications 5 --out "$OUT" --list-runs | head -n 1)
#   jid=$(sbatch --parsable --export=ALL --array=0-$((n - 1))%50 slurm-array.sh)
#   sbatch --dependency=afterok:"$jid" --export=ALL --wrap "ethersim merge $OUT"
#
# (%50: at most 50 tasks at once.) The study below must be the one listed: set STUDY in
# the environment or edit the default. A task that failed or was preempted is run again
# by its index (sbatch --array=7,12 slurm-array.sh); submitting the whole array again is
# harmless: a task whose run is complete returns at once, saying so in its log.
#
#SBATCH --job-name=ethersim-study
#SBATCH --cpus-per-task=1
#SBATCH --time=00:30:00
#SBATCH --output=ethersim-%A_%a.log

set -euo pipefail

ETHERSIM="${ETHERSIM:-ethersim}"
OUT="${OUT:-$HOME/ethersim-study}"
# the study's arguments, the same for every task, for --list-runs and for the merge
read -r -a STUDY <<< "${STUDY:-sweep scenarios/saturate.toml --param nodes.stations.count --range 1..32 --replications 5}"
: "${SLURM_ARRAY_TASK_ID:?run this script as a Slurm array task: sbatch --array=0-N slurm-array.sh}"

exec "$ETHERSIM" "${STUDY[@]}" --out "$OUT" --run-index "$SLURM_ARRAY_TASK_ID" \
    --jobs "${SLURM_CPUS_PER_TASK:-1}"
