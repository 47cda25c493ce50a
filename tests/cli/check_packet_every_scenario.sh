#!/usr/bin/env bash
# check_packet_every_scenario.sh BINARY SOURCE_DIR WORKDIR: `simulate --engine packet` on every shipped
# scenario (examples/scenarios/*.yaml, scaled down: the same shapes, kilobytes to a few MiB) and on
# the shipped flow table, as a user runs them (issue 26, items 1 and 4):
#   - exit 0, every flow done (the flows CSV's status), no drop (the JSON's packet.drops), no
#     deadlock; each flow's status the flow engine's (a NIC down for good stalls the same flows);
#   - every output (report, JSON, flows, links and queues CSV, HTML: its command line aside) the same
#     bytes with --threads 1, with --threads 2 and on a second run; --compare-engines the same with --threads 1 and 2;
#   - spine-failure-tor64.yaml sprays (paths: spray, packet by packet), and runs again with
#     paths: ecmp.
set -u
binary=$1 src=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
packet=(--engine packet --switch-latency 300ns --switch-buffer 64KiB --forwarding cut-through
        --sharp-latency 100ns --sharp-trees 2)

# The shipped scenarios, scaled down (sizes, counts, the all-GPU selections, times).
scale() {
  sed -e 's/bytes: 1GiB/bytes: 1MiB/; s/bytes: 512MiB/bytes: 64KiB/; s/count: 5000/count: 50/' \
      -e 's/bytes: 8MiB/bytes: 1MiB/; s/bytes: 4MiB/bytes: 1MiB/; s/bytes: 32MiB/bytes: 2MiB/' \
      -e 's/gpus: all/gpus: [0, 8, 16, 24]/; s/gpus: per-rail/gpus: [0, 8, 16, 24]/; s/compute: 5ms/compute: 10us/' \
      -e 's/count: 64/count: 16/; s/convergence: 500us/convergence: 5us/' \
      -e 's/at: 3ms/at: 20us/; s/at: 12ms/at: 80us/; s|p0/spine/3|p0/spine/1|' "$1"
}

# One case: the run with every output, three times; the outputs compared. $1 name, then the args.
run_case() {
  local name=$1; shift
  local rc
  for run in t1 t2 again; do
    local threads=1; [ $run = t2 ] && threads=2
    local out="$work/$name.$run"
    mkdir -p "$out"
    # Relative output paths: the HTML shows its command line, which then differs only in --threads.
    (cd "$out" && "$binary" simulate "$@" "${packet[@]}" --threads $threads --json -o report.json --csv-flows flows.csv \
      --csv-links links.csv --csv-queues queues.csv --html report.html >stdout 2>stderr)
    rc=$?
    sed -i 's/--threads [12]/--threads N/' "$out/report.html"
    [ $rc -eq 0 ] || fail "$name: exit $rc: $(cat "$out/stderr")"
  done
  for f in report.json flows.csv links.csv queues.csv report.html stdout; do
    cmp -s "$work/$name.t1/$f" "$work/$name.t2/$f" || fail "$name: $f differs between --threads 1 and 2"
    cmp -s "$work/$name.t1/$f" "$work/$name.again/$f" || fail "$name: $f differs between two runs"
  done
  grep -q '"drops": 0,' "$work/$name.t1/report.json" || fail "$name: drops"
  grep -qF '"deadlock": []' "$work/$name.t1/report.json" || fail "$name: deadlock"
  "$binary" simulate "$@" --csv-flows "$work/$name.flow.csv" >/dev/null 2>&1 || fail "$name: the flow engine"
  status() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "status") s = i; next } { print $s }' "$1"; }
  [ "$(status "$work/$name.t1/flows.csv")" = "$(status "$work/$name.flow.csv")" ] ||
    fail "$name: flows done differ from the flow engine's"
  if [ -z "${STALLED:-}" ]; then
    status "$work/$name.t1/flows.csv" | grep -qv '^done$' && fail "$name: a flow is not done"
  fi
  "$binary" simulate "$@" "${packet[@]:2}" --compare-engines --threads 1 >"$work/$name.c1" 2>&1 || fail "$name: compare"
  "$binary" simulate "$@" "${packet[@]:2}" --compare-engines --threads 2 >"$work/$name.c2" 2>&1 || fail "$name: compare"
  cmp -s "$work/$name.c1" "$work/$name.c2" || fail "$name: --compare-engines differs between --threads 1 and 2"
  echo "ok: $name"
}

cases=0
for scenario in "$src"/examples/scenarios/*.yaml; do
  name=$(basename "$scenario" .yaml)
  scale "$scenario" >"$work/$name.yaml"
  # The spine failure keeps its rings per rail across its 16 nodes: flows cross the spines, and spray.
  [[ $name == spine-failure* ]] && sed -i 's/gpus: \[0, 8, 16, 24\]/gpus: per-rail/' "$work/$name.yaml"
  if grep -q -- '--ibnetdiscover' "$scenario"; then
    # A subnet from the wire (the ring): up/down routes, under which every flow completes.
    run_case "$name" --ibnetdiscover "$src/examples/ring-5.net" --ib-routing updn --scenario "$work/$name.yaml"
  elif grep -q '^nodes:' "$scenario"; then
    run_case "$name" "$work/$name.yaml"  # a spec with its own scenario
  elif [[ $name == *roce* ]]; then
    run_case "$name" "$src/examples/lab-32-roce.yaml" --scenario "$work/$name.yaml"
  else
    run_case "$name" "$src/examples/lab-32.yaml" --scenario "$work/$name.yaml"
  fi
  cases=$((cases + 1))
done
[ $cases -ge 7 ] || fail "only $cases shipped scenarios found"
sed -e 's/,1GiB,/,1MiB,/g; s/,512MiB,/,512KiB,/; s/,256MiB,/,256KiB,/; s/,64MiB,/,64KiB,/; s/,128MiB,/,128KiB,/' \
  -e 's/,0.002,/,0.00002,/; s/,0.0001,/,0.00001,/' "$src/tests/golden/flows/lab32.csv" >"$work/flows.csv"
run_case flow-table "$src/examples/lab-32.yaml" --flows "$work/flows.csv"
STALLED=1 run_case dead-nic "$src/examples/lab-32.yaml" --flows "$work/flows.csv" --fail host0/nic0@5us
run_case generated-collective "$src/examples/lab-32-roce.yaml" --collective all-to-all --bytes 1MiB --gpus "[0, 8, 16, 24]" \
  --degrade "p0/leaf/0 -- p0/spine/0=0.5@2us"

# The shipped spine failure with ECMP instead of its spraying.
sed 's/paths: spray/paths: ecmp/' "$work/spine-failure-tor64.yaml" >"$work/spine-failure-tor64-ecmp.yaml"
run_case spine-failure-tor64-ecmp "$work/spine-failure-tor64-ecmp.yaml"
grep -q '"spraying": true' "$work/spine-failure-tor64.t1/report.json" || fail "spray: the JSON does not say the run sprayed"
grep -q '"out_of_order": [1-9]' "$work/spine-failure-tor64.t1/report.json" || fail "spray: no packet counted out of order"
echo "ok: spray"
