#!/usr/bin/env bash
# An ethersim study spread with GNU parallel over this machine or over ssh logins, then
# merged. Without GNU parallel the runs go on this machine through xargs -P.
#
#   gnu-parallel.sh OUT ETHERSIM-ARGUMENTS...
#
#   gnu-parallel.sh study sweep scenarios/saturate.toml --param nodes.stations.count \
#       --range 1..32 --replications 5
#   SSH_LOGINS=8/alpha,8/beta,: gnu-parallel.sh /shared/study reproduce figure1
#
# SSH_LOGINS is GNU parallel's --sshlogin list (8/alpha: 8 runs at once on alpha; ':' is
# this machine). OUT and the scenario must be at the same path on every machine (a shared
# file system), and ethersim on each machine's PATH (or set ETHERSIM). Each run i is one
# job: `{}` is the index from `seq 0 N-1` (GNU parallel's `{#}`, the job's number, is
# i + 1). A run that failed is run again by running this script again: runs whose file is
# complete return at once.
set -euo pipefail

ETHERSIM="${ETHERSIM:-ethersim}"
JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
out="${1:?usage: gnu-parallel.sh OUT ETHERSIM-ARGUMENTS...}"
shift

n=$("$ETHERSIM" "$@" --out "$out" --list-runs | head -n 1)
if command -v parallel >/dev/null 2>&1; then
    echo "running $n runs with GNU parallel" >&2
    seq 0 $((n - 1)) | parallel -q --jobs "$JOBS" ${SSH_LOGINS:+--sshlogin "$SSH_LOGINS"} \
        --joblog "$out.joblog" "$ETHERSIM" "$@" --out "$out" --run-index {}
else
    echo "running $n runs with xargs -P $JOBS (no GNU parallel here)" >&2
    seq 0 $((n - 1)) | xargs -P "$JOBS" -I{} "$ETHERSIM" "$@" --out "$out" --run-index {}
fi
"$ETHERSIM" merge "$out"
