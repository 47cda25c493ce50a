#!/bin/bash
# Instructions per flow and per decision of PathWalker::walk_all as BM_PathWalkAll's timed loop
# calls it (callgrind): the inclusive cost of the timed loop's walk function (walk_all_clmul, where
# the CPU and the hash take it, else walk_all; GCC inlines walk_all's dispatch into the benchmark),
# per-call costs included, divided by the flows it walked. The timed loop's sink is the
# benchmark's second lambda ("#2"); the first counts the decisions in an untimed walk. Instruction
# counts do not depend on the machine's load, unlike CPU time. Any Release build works:
#   bench/walk_instructions.sh build/bench/bench_ecmp 'BM_PathWalkAll/0/3/2/64$' [more filters]
set -euo pipefail
bin=$1
shift
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for filter in "$@"; do
  flows=${filter##*/}
  flows=${flows%\$}
  valgrind --tool=callgrind --callgrind-out-file="$dir/cg.out" "$bin" --benchmark_filter="$filter" \
    --benchmark_min_time=1e-9 >"$dir/bench.txt" 2>/dev/null
  iterations=$(awk '/^BM_PathWalkAll/ {print $6}' "$dir/bench.txt")
  decisions=$(grep -oE '[0-9.]+ decisions/flow' "$dir/bench.txt" | head -1 | cut -d' ' -f1)
  walk=$(callgrind_annotate --inclusive=yes --threshold=100 --show-percs=no "$dir/cg.out" 2>/dev/null |
    awk '/PathWalker::walk_all_clmul<.*#2\}/ {gsub(",", "", $1); c += $1}
         /PathWalker::walk_all<.*#2\}/ {gsub(",", "", $1); w += $1}
         END {print (c > 0 ? c : w) + 0}')
  python3 - "$filter" "$walk" "$iterations" "$flows" "$decisions" <<'PY'
import sys
name, walk, iterations, flows, decisions = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
per_flow = walk / (iterations * flows)
print(f"{name}: {per_flow:.1f} instructions per flow, {per_flow / decisions:.1f} per decision "
      f"({decisions:.2f} decisions/flow, {iterations} call(s))")
PY
done
