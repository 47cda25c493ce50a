#!/bin/bash
# Instructions per flow walked by BM_PathWalkAll (callgrind): the benchmark function's own
# instructions (walk_all and the hash are inlined into it) in a short and a long run, divided by
# the difference of the flows walked, so that the setup cancels. The flows walked are read from
# the line of begin_lane that runs once per flow, so the binary needs line tables:
#   cmake -S . -B build-g -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS=-g
#   cmake --build build-g --target bench_ecmp
#   bench/walk_instructions.sh build-g/bench/bench_ecmp 'BM_PathWalkAll/0/3/2/4096$'
set -euo pipefail
bin=$1
filter=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
flows=()
own=()
for t in 0.02 0.2; do
  valgrind --tool=callgrind --callgrind-out-file="$dir/cg.out" "$bin" --benchmark_filter="$filter" \
    --benchmark_min_time=$t >/dev/null 2>&1
  callgrind_annotate --auto=yes --show-percs=no "$dir/cg.out" >"$dir/ann.txt" 2>/dev/null
  flows+=("$(grep -E '^ *[0-9,]+ +lane.count = 0;' "$dir/ann.txt" | awk '{gsub(",", "", $1); print $1}')")
  own+=("$(grep -E 'BM_PathWalkAll' "$dir/ann.txt" | grep -v '^--\|Profiled' | awk '{gsub(",", "", $1); s += $1} END {print s}')")
done
python3 - "${own[0]}" "${flows[0]}" "${own[1]}" "${flows[1]}" <<'PY'
import sys
o0, f0, o1, f1 = map(int, sys.argv[1:])
print(f"{(o1 - o0) / (f1 - f0):.1f} instructions per flow ({f1 - f0} flows)")
PY
