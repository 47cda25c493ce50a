#!/usr/bin/env bash
# Runs the same Google Benchmark binaries of two builds back to back, interleaved per binary, and
# prints one Markdown table of median CPU times (before | after | after/before), for the
# before/after tables of docs/performance.md:
#   bench/compare_builds.sh OLD_BUILD_DIR NEW_BUILD_DIR [bench_name...] [-- extra benchmark flags]
# e.g. bench/compare_builds.sh /tmp/old/build build bench_plan bench_ecmp -- --benchmark_filter=Walk
# Only benchmarks present in both builds are compared (a renamed benchmark is listed as missing).
set -euo pipefail
old=${1:?usage: $0 OLD_BUILD_DIR NEW_BUILD_DIR [bench...] [-- flags]}
new=${2:?usage: $0 OLD_BUILD_DIR NEW_BUILD_DIR [bench...] [-- flags]}
shift 2
benches=() flags=()
while [ $# -gt 0 ]; do
  if [ "$1" = "--" ]; then shift; flags=("$@"); break; fi
  benches+=("$1"); shift
done
[ ${#benches[@]} -eq 0 ] && benches=(bench_plan bench_hash bench_ecmp bench_ib bench_simulate bench_flow)
work=$(mktemp -d /tmp/ct-compare-XXXXXX)
trap 'rm -rf "$work"' EXIT
for b in "${benches[@]}"; do
  for side in old new; do
    dir=$old; [ "$side" = new ] && dir=$new
    exe="$dir/bench/$b"
    if [ ! -x "$exe" ]; then echo "skip $b: no $exe" >&2; continue; fi
    echo "running $side $b" >&2
    "$exe" --benchmark_repetitions=3 --benchmark_report_aggregates_only=true \
      --benchmark_format=json "${flags[@]}" > "$work/$side-$b.json" 2> /dev/null
  done
done
python3 - "$work" "${benches[@]}" <<'EOF'
import json, os, sys
work, benches = sys.argv[1], sys.argv[2:]
def medians(path):
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        runs = json.load(f)["benchmarks"]
    return {r["run_name"]: (r["cpu_time"], r["time_unit"]) for r in runs
            if r.get("aggregate_name") == "median"}
print("| benchmark | before (CPU) | after (CPU) | after/before |")
print("|---|---|---|---|")
for b in benches:
    old, new = medians(f"{work}/old-{b}.json"), medians(f"{work}/new-{b}.json")
    for name in sorted(set(old) | set(new)):
        o, n = old.get(name), new.get(name)
        cell = lambda v: f"{v[0]:.4g} {v[1]}" if v else "missing"
        ratio = f"{n[0] / o[0]:.2f}" if o and n and o[1] == n[1] and o[0] > 0 else ""
        print(f"| {b}/{name} | {cell(o)} | {cell(n)} | {ratio} |")
EOF
