#!/usr/bin/env bash
# The whole `clustertwin simulate` command on an all-reduce of 1 GiB over the 32,768 GPUs of
# examples/b300-32k.yaml (4,096 HGX B300, two planes, three tiers), once per algorithm, under
# /usr/bin/time -v: wall time, CPU time and peak resident set, and the simulated time, busbw and
# bound from --json. For docs/performance.md ("Collectives at 32,768 GPUs"). Goal: each under 10 s
# and 2 GiB. `--paths` picks the path model (ecmp, spray, adaptive), `--random-hash` runs the same
# fabric with per-switch random hashing (routing.ecmp hash: random, seed_mode: per-switch) and
# `--spec` another cluster spec: the cross-checks of a collision-dominated result against its bound.
#   bench/allreduce_32k.sh build/src/cli/clustertwin [ring tree halving-doubling hierarchical sharp]
#                          [--model stepwise] [--paths adaptive] [--random-hash] [--spec FILE]
set -euo pipefail
bin=${1:?usage: $0 path/to/clustertwin [algorithms...] [--model M] [--paths P] [--spec FILE]}
shift
algorithms=() extra=()
spec=$(dirname "$0")/../examples/b300-32k.yaml
random_hash=0
while [ $# -gt 0 ]; do
  case $1 in
    --model | --paths) extra+=("$1" "$2"); shift 2 ;;
    --spec) spec=$2; shift 2 ;;
    --random-hash) random_hash=1; shift ;;
    *) algorithms+=("$1"); shift ;;
  esac
done
[ ${#algorithms[@]} -eq 0 ] && algorithms=(ring tree halving-doubling hierarchical sharp)
work=$(mktemp -d /tmp/ct-ar32k-XXXXXX)
trap 'rm -rf "$work"' EXIT
if [ $random_hash -eq 1 ]; then
  { cat "$spec"; printf 'routing:\n  ecmp:\n    hash: random\n    seed_mode: per-switch\n'; } > "$work/spec.yaml"
  spec=$work/spec.yaml
fi
printf '%-17s %8s %8s %9s %12s %12s %12s %8s %9s\n' algorithm wall_s cpu_s rss_MiB time_ms busbw_GBps bound_ms flows instants
for a in "${algorithms[@]}"; do
  /usr/bin/time -v "$bin" simulate "$spec" --collective all-reduce --bytes 1GiB --algorithm "$a" "${extra[@]}" --json \
    > "$work/out.json" 2> "$work/time.txt"
  python3 - "$a" "$work/out.json" "$work/time.txt" <<'PY'
import json, re, sys
a, out, tv = sys.argv[1:]
r = json.load(open(out))
t = open(tv).read()
def field(name):
    return re.search(re.escape(name) + r": (.*)", t).group(1).strip()
wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")
wall_s = sum(float(x) * 60 ** i for i, x in enumerate(reversed(wall)))
cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
rss = int(field("Maximum resident set size (kbytes)")) / 1024
op = r["operations"][0]
flows = r["flows"]
print(f"{a:<17} {wall_s:8.2f} {cpu:8.2f} {rss:9.0f} {op['time_s'] * 1e3:12.3f} {op['busbw_GBps']:12.1f} "
      f"{op['bound_s'] * 1e3:12.3f} {flows!s:>8} {r['instants']!s:>9}")
PY
done
