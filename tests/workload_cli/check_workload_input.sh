#!/usr/bin/env bash
# check_workload_input.sh BINARY SPEC WORKDIR
# `clustertwin simulate --scenario` and `clustertwin hash FLOWS` on bad input: each run must exit
# with 1, name file:line:column and the field of every problem on stderr (once each), print nothing
# on stdout and write no output file. Then the controls: the same commands on good input write
# every output asked for, and a wrong output folder leaves none of the other outputs behind.
set -u
binary=$1 spec=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"

expect_error() {  # expect_error STDERR FILE LINE FIELD
  grep -q -F -- "$2:$3:" "$1" || fail "no diagnostic at $2:$3 in: $(cat "$1")"
  grep -F -- "$2:$3:" "$1" | grep -q -F -- ": error: $4" || fail "diagnostic at $2:$3 lacks field '$4': $(cat "$1")"
}
expect_clean_failure() {  # expect_clean_failure RC STDOUT ERRORS STDERR
  [ "$1" -eq 1 ] || fail "exit code $1, expected 1; stderr: $(cat "$4")"
  [ ! -s "$2" ] || fail "something was printed on stdout: $(head -3 "$2")"
  [ "$(grep -c -F ': error: ' "$4")" -eq "$3" ] || fail "expected $3 diagnostics: $(cat "$4")"
  [ -z "$(ls -A "$work/out")" ] || fail "output files were written: $(ls -A "$work/out")"
}

mkdir -p "$work/out"
cat >"$work/bad-scenario.yaml" <<'YAML'
scenario:
  collectives:
    - kind: all-reduce
      bytes: 12 potatoes
  transfers:
    - {src: host0/gpu0, dst: host99/gpu0, bytes: 1GiB, weight: 0}
  faults:
    - {kind: degrade, port: host0/nic0, fraction: 1.7, at: 0us}
YAML
"$binary" simulate "$spec" --scenario "$work/bad-scenario.yaml" --csv-links "$work/out/links.csv" \
  --csv-flows "$work/out/flows.csv" -o "$work/out/report.txt" >"$work/stdout" 2>"$work/stderr"
rc=$?
expect_error "$work/stderr" "$work/bad-scenario.yaml" 4 "scenario.collectives[0].bytes"
expect_error "$work/stderr" "$work/bad-scenario.yaml" 6 "scenario.transfers[0].dst"
expect_error "$work/stderr" "$work/bad-scenario.yaml" 6 "scenario.transfers[0].weight"
expect_error "$work/stderr" "$work/bad-scenario.yaml" 8 "scenario.faults[0].fraction"
expect_clean_failure $rc "$work/stdout" 4 "$work/stderr"

# The same rules from the flags, each diagnostic naming its flag (no YAML in between).
"$binary" simulate "$spec" --collective all-reduce --bytes 12potatoes --iterations 0 --channels 65 \
  --gpus host0/gpu0,host40/gpu0 --fail "p0/leaf/0 -- p0/spnie/0@1ms" --degrade "host0/nic0=1.5" \
  -o "$work/out/report.txt" >"$work/stdout" 2>"$work/stderr"
rc=$?
for flag in --bytes --iterations --channels --gpus --fail --degrade; do
  grep -q -F -- "command line: error: $flag: " "$work/stderr" || fail "no diagnostic naming $flag: $(cat "$work/stderr")"
done
grep -q -F "did you mean 'p0/spine/0'" "$work/stderr" || fail "--fail: no did-you-mean: $(cat "$work/stderr")"
grep -q -F "host0..host31 with gpu0..gpu7" "$work/stderr" || fail "--gpus: fabric size not said: $(cat "$work/stderr")"
expect_clean_failure $rc "$work/stdout" 6 "$work/stderr"
"$binary" simulate "$spec" --collective all-reduce --algorithm halving-doubling --bytes 1MiB --gpus gpu0,gpu8,gpu16 \
  >"$work/stdout" 2>"$work/stderr"
rc=$?
grep -q -F "command line: error: --collective: halving-doubling needs a power-of-two" "$work/stderr" ||
  fail "halving-doubling over 3 GPUs: $(cat "$work/stderr")"
expect_clean_failure $rc "$work/stdout" 1 "$work/stderr"

printf 'src,dst,src_port,size\nhost0/nic0,host5/nic1,49152,1GiB\nhost1/nic0,nowhere,70000,zz\n' >"$work/bad-flows.csv"
"$binary" hash "$spec" "$work/bad-flows.csv" -o "$work/out/hash.txt" >"$work/stdout" 2>"$work/stderr"
rc=$?
expect_error "$work/stderr" "$work/bad-flows.csv" 3 "dst"
expect_error "$work/stderr" "$work/bad-flows.csv" 3 "src_port"
expect_error "$work/stderr" "$work/bad-flows.csv" 3 "size"
expect_clean_failure $rc "$work/stdout" 3 "$work/stderr"

printf 'flows:\n  - {src: host0/nic0, dst: host5/nic1, src_port: 49152}\n  - {src: host1/nic0, dst: host5/nic1, protocol: sctpp, src_port: 1}\n' >"$work/bad-flows.yaml"
"$binary" hash "$spec" "$work/bad-flows.yaml" -o "$work/out/hash.txt" >"$work/stdout" 2>"$work/stderr"
rc=$?
expect_error "$work/stderr" "$work/bad-flows.yaml" 3 "flows[1].protocol"
expect_clean_failure $rc "$work/stdout" 1 "$work/stderr"

# A folder that does not exist for one output: nothing written at all.
cat >"$work/good-scenario.yaml" <<'YAML'
scenario:
  transfers:
    - {src: host0/gpu0, dst: host3/gpu0, bytes: 1MiB}
YAML
"$binary" simulate "$spec" --scenario "$work/good-scenario.yaml" --csv-links "$work/out/links.csv" \
  -o "$work/no-such-folder/report.txt" >"$work/stdout" 2>"$work/stderr"
rc=$?
grep -q -F -- "$work/no-such-folder/report.txt: error: output" "$work/stderr" || fail "no diagnostic naming the output: $(cat "$work/stderr")"
expect_clean_failure $rc "$work/stdout" 1 "$work/stderr"

# Controls.
"$binary" simulate "$spec" --scenario "$work/good-scenario.yaml" --csv-links "$work/out/links.csv" \
  --csv-flows "$work/out/flows.csv" -o "$work/out/report.txt" 2>"$work/stderr" || fail "good scenario: $(cat "$work/stderr")"
for f in links.csv flows.csv report.txt; do [ -s "$work/out/$f" ] || fail "good scenario: $f missing or empty"; done
printf 'src,dst,src_port\nhost0/nic0,host5/nic1,49152\n' >"$work/good-flows.csv"
"$binary" hash "$spec" "$work/good-flows.csv" -o "$work/out/hash.txt" 2>"$work/stderr" || fail "good flows: $(cat "$work/stderr")"
"$binary" simulate "$spec" --collective all-reduce --bytes 1MiB --gpus host0/gpu0,gpu8,16,host3/gpu0 \
  -o "$work/out/list.txt" 2>"$work/stderr" || fail "GPU list: $(cat "$work/stderr")"
grep -q "all-reduce ring  *1  *4 " "$work/out/list.txt" || fail "GPU list: not 4 GPUs: $(cat "$work/out/list.txt")"
[ -s "$work/out/hash.txt" ] || fail "good flows: no output"
echo "ok"
