#!/usr/bin/env bash
# The whole `clustertwin diagnose` command at 32,768 GPUs (examples/b300-32k.yaml: 4,096 HGX B300,
# two planes, three tiers, 196,608 backend links): gen_scrape_pair writes two node_exporter scrapes
# of 393,216 series each and their port map (bench/scrape_pair.h, seeded), then the command runs
# under /usr/bin/time -v, `runs` times (3 when not given): wall time, CPU time (user + system),
# peak resident set, and the groups judged and imbalanced from the report's second line. The
# report is the default text; `--json` measures the JSON report instead (every member of every
# group: 100 MB). For docs/performance.md ("diagnose at 32,768 GPUs"). Goal: 2 s of CPU.
#   bench/diagnose_32k.sh build/src/cli/clustertwin build/bench/gen_scrape_pair [runs] [--json]
#                         [--spec FILE] [--seed N]
set -euo pipefail
bin=${1:?usage: $0 path/to/clustertwin path/to/gen_scrape_pair [runs] [--spec FILE] [--seed N]}
gen=${2:?usage: $0 path/to/clustertwin path/to/gen_scrape_pair [runs] [--spec FILE] [--seed N]}
shift 2
runs=3
spec=$(dirname "$0")/../examples/b300-32k.yaml
seed=1
json=()
while [ $# -gt 0 ]; do
  case $1 in
    --spec) spec=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --json) json=(--json); shift ;;
    *) runs=$1; shift ;;
  esac
done
work=$(mktemp -d /tmp/ct-diag32k-XXXXXX)
trap 'rm -rf "$work"' EXIT
"$gen" "$spec" "$work" "$seed"
printf '%-4s %8s %8s %9s %8s %11s\n' run wall_s cpu_s rss_MiB groups imbalanced
for r in $(seq 1 "$runs"); do
  /usr/bin/time -v "$bin" diagnose "$spec" --counters "$work/before.prom" "$work/after.prom" --map "$work/map.csv" "${json[@]}" \
    > "$work/out.txt" 2> "$work/time.txt" || { cat "$work/time.txt" >&2; exit 1; }
  python3 - "$r" "$work/out.txt" "$work/time.txt" <<'PY'
import json, re, sys
run, out, tv = sys.argv[1:]
t = open(tv).read()
def field(name):
    return re.search(re.escape(name) + r": (.*)", t).group(1).strip()
wall = field("Elapsed (wall clock) time (h:mm:ss or m:ss)").split(":")
wall_s = sum(float(x) * 60 ** i for i, x in enumerate(reversed(wall)))
cpu = float(field("User time (seconds)")) + float(field("System time (seconds)"))
rss = int(field("Maximum resident set size (kbytes)")) / 1024
text = open(out).read()
if text.startswith("{"):
    groups = json.loads(text)["groups"]
    judged, imbalanced = len(groups), sum(1 for g in groups if g["imbalanced"])
else:
    m = re.search(r"^(\d+) of (\d+) groups with traffic are imbalanced$", text, re.M)
    imbalanced, judged = int(m.group(1)), int(m.group(2))
print(f"{run:<4} {wall_s:8.2f} {cpu:8.2f} {rss:9.0f} {judged:8} {imbalanced:11}")
PY
done
