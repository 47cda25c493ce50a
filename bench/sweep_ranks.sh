#!/usr/bin/env bash
# The 1 -> 2 rank speed-up of a 200-point sweep (examples/lab-32.yaml: 50 node counts x 2 tier
# designs x 2 leaf cable lengths; plan + reliability with 1,000 trials, one seed), by wall clock:
#   bench/sweep_ranks.sh BUILD_DIR
# Prints the seconds on 1 and 2 ranks and their ratio, and checks that both wrote the same bytes.
set -euo pipefail
build=${1:?usage: sweep_ranks.sh BUILD_DIR}
src=$(cd "$(dirname "$0")/.." && pwd)
bin="$build/src/cli/clustertwin"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 CLUSTERTWIN_CATALOG="$src/catalog"
counts=$(seq -s, 1 50)
cat >"$work/sweep.yaml" <<YAML
base: $src/examples/lab-32.yaml
axes:
  - path: nodes.count
    values: [$counts]
  - path: backend.tiers
    values: [2, 3]
  - path: backend.oversubscription
    values: [[1], [1, 1]]
  - path: backend.cable_length_m.leaf
    values: [5, 10]
zip: [[backend.tiers, backend.oversubscription]]
studies:
  plan: {}
  reliability: {trials: 1000}
YAML
for n in 1 2; do
  start=$(date +%s.%N)
  mpirun --oversubscribe -np "$n" "$bin" sweep "$work/sweep.yaml" --quiet -o "$work/np$n.txt" --csv "$work/np$n.csv"
  end=$(date +%s.%N)
  echo "np $n: $(echo "$end - $start" | bc) s"
  eval "t$n=$(echo "$end - $start" | bc)"
done
cmp "$work/np1.csv" "$work/np2.csv" && echo "same bytes on 1 and 2 ranks"
echo "points: $(($(wc -l <"$work/np1.csv") - 1)); speed-up 1 -> 2 ranks: $(echo "scale=2; $t1 / $t2" | bc)x"
