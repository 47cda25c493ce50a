#!/usr/bin/env bash
# check_bad_files.sh BINARY SOURCE WORKDIR
# Files that are not what a command expects (issue 23, items 1-3, 5 and 6), each run checked for
# exit 1, nothing on stdout, no output file, no abort ("terminate called"), and the one located
# error it must print:
#   1. a symbolic link loop and a dangling link in a manifests folder (routes, route, trace,
#      export bgp), named as such;
#   2. a folder where a file is expected, for every file argument of diagnose and traffic and for
#      plan's spec: "FOLDER: error: is a folder, expected ...";
#   3. a flow table .csv.gz that inflates past the input limit (--max-input, CLUSTERTWIN_MAX_INPUT),
#      and a plain file larger than it: refused, the error naming the limit and the flag; an 8 GiB
#      counter scrape wrong in its first line: refused at that line (streamed, not read whole);
#   5. a 1 MB line and terminal escape codes in a counter scrape and a flow table: the error
#      quotes a short excerpt, escaped;
#   6. trace --dns on an empty named.conf names the file; export bgp on manifests without a
#      LoadBalancer Service names the folder, not --vip, which was never given;
#   8. inputs that hold nothing (a port map, flows, scrapes, connection tables, a named.conf) and a
#      sweep journal entry out of range (audit of 2026-12-07, items 1 and 10).
set -u
binary=$1 source=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
export CLUSTERTWIN_CATALOG=$source/catalog
diag=$source/tests/golden/diagnose
platform=$source/examples/platform
request='GET https://api.example.com/v1/models'

# expect_error NAME EXPECTED_LINE_PREFIX -- COMMAND...: exit 1, stderr holds a line starting with
# EXPECTED (a fixed string), nothing on stdout, no output file, no abort.
expect_error() {
  local name=$1 expected=$2
  shift 3
  rm -rf "$work/out"
  "$binary" "$@" -o "$work/out" >"$work/$name.stdout" 2>"$work/$name.stderr"
  local rc=$?
  [ $rc -eq 1 ] || fail "$name: exit $rc, expected 1; stderr: $(head -c 600 "$work/$name.stderr")"
  grep -q -F "terminate called" "$work/$name.stderr" && fail "$name: an exception escaped main"
  grep -q -F -- "$expected" <(cut -c1-${#expected} "$work/$name.stderr") ||
    fail "$name: no line starting '$expected' in: $(head -c 600 "$work/$name.stderr")"
  grep -q -F "<input>" "$work/$name.stderr" && fail "$name: an error located as <input>"
  [ ! -s "$work/$name.stdout" ] || fail "$name: something was printed on stdout"
  [ ! -e "$work/out" ] || fail "$name: an output was written"
  echo "ok: $name"
}

# 1. Manifests folders with a link loop and with a dangling link.
loop=$work/loop && mkdir -p "$loop" && cp "$platform"/manifests/*.yaml "$loop/"
ln -s b.yaml "$loop/a.yaml" && ln -s a.yaml "$loop/b.yaml"
dangling=$work/dangling && mkdir -p "$dangling" && cp "$platform"/manifests/*.yaml "$dangling/"
ln -s nowhere.yaml "$dangling/gone.yaml"
for m in loop dangling; do
  dir=$work/$m
  if [ $m = loop ]; then expected="$dir/a.yaml: error: cannot open: Too many levels of symbolic links"
  else expected="$dir/gone.yaml: error: a symbolic link to 'nowhere.yaml', which does not exist"; fi
  expect_error "routes-$m" "$expected" -- routes "$dir"
  expect_error "route-$m" "$expected" -- route "$dir" --request "$request"
  expect_error "trace-$m" "$expected" -- trace "$request" "$dir" --from 198.51.100.7
  expect_error "export-bgp-$m" "$expected" -- export bgp "$dir"
done

# 2. A folder where a file is expected.
spec=$source/examples/lab/fat-tree-4.yaml
folder=$work/folder && mkdir -p "$folder"
expect_error plan-folder "$source/examples: error: is a folder, expected a spec file" -- plan "$source/examples"
expect_error counters-folder "$folder: error: is a folder, expected a counter scrape" -- \
  diagnose "$spec" --counters "$diag/lab-before.prom" "$folder" --map "$diag/lab-map.csv"
expect_error map-folder "$folder: error: is a folder, expected a port map" -- \
  diagnose "$spec" --counters "$diag/lab-before.prom" "$diag/lab-after.prom" --map "$folder"
expect_error flows-folder "$folder: error: is a folder, expected a flow result file" -- \
  diagnose "$spec" --counters "$diag/lab-before.prom" "$diag/lab-after.prom" --map "$diag/lab-map.csv" --flows "$folder"
expect_error ethtool-folder "$folder: error: is a folder, expected a counter scrape" -- \
  diagnose "$spec" --counters "host0/nic0,l0=$diag/ethtool-host0-t0.txt" "host0/nic0,l0=$folder" --interval 10 \
  --map "$diag/lab-map.csv"
expect_error ss-folder "$folder: error: is a folder, expected ss -tin output" -- traffic --ss "$folder" --width 8
expect_error conntrack-folder "$folder: error: is a folder, expected conntrack -L output" -- traffic --conntrack "$folder" --width 8
expect_error scenario-folder "$folder: error: is a folder, expected a scenario file" -- \
  simulate "$source/examples/lab-32.yaml" --scenario "$folder"

# 3. A decompression bomb (40 members of 1 MiB of zeros: 40 MiB of text from about 40 kB), and a
#    plain file over the limit.
python3 - "$work/bomb.csv.gz" "$work/big.csv" <<'EOF'
import gzip, sys
member = gzip.compress(b"0" * (1 << 20))
open(sys.argv[1], "wb").write(member * 40)
open(sys.argv[2], "wb").write(b"flow,src,dst,bytes\n" + b"#" * (2 << 20) + b"\n")
EOF
CLUSTERTWIN_MAX_INPUT=8MiB expect_error gzip-bomb \
  "$work/bomb.csv.gz: error: gzip data inflates to more than 8 MiB, the most one input may hold (a decompression bomb?); give --max-input SIZE (or set CLUSTERTWIN_MAX_INPUT)" -- \
  simulate "$source/examples/lab-32.yaml" --flows "$work/bomb.csv.gz"
expect_error gzip-bomb-flag "$work/bomb.csv.gz: error: gzip data inflates to more than 8 MiB" -- \
  simulate "$source/examples/lab-32.yaml" --flows "$work/bomb.csv.gz" --max-input 8MiB
CLUSTERTWIN_MAX_INPUT=1MiB expect_error big-file \
  "$work/big.csv: error: is 2097172 bytes, more than 1 MiB, the most one input may hold; give --max-input SIZE (or set CLUSTERTWIN_MAX_INPUT)" -- \
  simulate "$source/examples/lab-32.yaml" --flows "$work/big.csv"
# The flag wins over the variable, and a value that is not a size is refused as bad input.
CLUSTERTWIN_MAX_INPUT=1KiB expect_error big-file-flag "$work/big.csv:2:" -- \
  simulate "$source/examples/lab-32.yaml" --flows "$work/big.csv" --max-input 4MiB
expect_error max-input-bad "command line: error: --max-input: 'lots': expected a size above 0" -- \
  simulate "$source/examples/lab-32.yaml" --flows "$work/big.csv" --max-input lots
# A counter scrape of 8 GiB (sparse: its first line, then holes) that is wrong in its first line:
# streamed, the error comes after one piece; read whole it would need 8 GiB (issue 23 item 3).
printf 'node_network_transmit_bytes_total{device="eth0"} twelve\n' >"$work/huge.prom"
truncate -s 8G "$work/huge.prom"
expect_error huge-scrape "$work/huge.prom:1:" -- \
  diagnose "$source/examples/lab-32.yaml" --counters "a=$work/huge.prom" "a=$work/huge.prom" --interval 10 --max-input 16GiB
rm -f "$work/huge.prom"

# 5. A 1 MB cell with escape codes in a flow table: a short, escaped excerpt.
python3 - "$work/long.csv" <<'EOF'
import sys
open(sys.argv[1], "w").write("flow,src,dst,bytes\n0,host0/nic0,host1/nic0,\x1b[2J" + "9x" * 500000 + "\n")
EOF
expect_error long-cell "$work/long.csv:2:" -- simulate "$source/examples/lab-32.yaml" --flows "$work/long.csv"
size=$(wc -c <"$work/long-cell.stderr")
[ "$size" -lt 1000 ] || fail "long-cell: $size bytes on stderr for one error"
grep -q -F '\e[2J' "$work/long-cell.stderr" || fail "long-cell: the escape code is not shown escaped: $(cat -v "$work/long-cell.stderr")"
LC_ALL=C grep -q -P '[\x00-\x09\x0b-\x1f]' "$work/long-cell.stderr" && fail "long-cell: a raw control character on stderr"

# 6. Errors located at the file or the option really given.
: >"$work/empty.conf"
expect_error trace-empty-dns "$work/empty.conf:1:1: error: zone: no zones: the named.conf declares no primary zone" -- \
  trace "$request" "$platform/manifests" --dns "$work/empty.conf"
expect_error trace-no-client "command line: error: give --dns named.conf" -- trace "$request" "$platform/manifests"
nolb=$work/nolb && mkdir -p "$nolb" && cp "$platform/manifests/40-routes.yaml" "$nolb/"
expect_error export-bgp-no-service "$nolb: error: no LoadBalancer Service with an address in these manifests" -- export bgp "$nolb"
nopool=$work/nopool && mkdir -p "$nopool" && cp "$platform/manifests/30-gateway.yaml" "$nopool/"
line=$(grep -n -m1 '^kind: Service' "$nopool/30-gateway.yaml" | cut -d: -f1)
expect_error export-bgp-no-pool "$nopool/30-gateway.yaml:$((line - 1)):1: error: VIP 198.51.100.10: no IPAddressPool" -- \
  export bgp "$nopool"
expect_error export-bgp-bad-vip "command line: error: --vip: expected an IPv4 address" -- export bgp "$platform/manifests" --vip x
# 7. A backend.links end the fabric does not have, at its line (4 spines and 8 leaves per plane).
printf '%s\n' 'name: link-beyond-tier' 'nodes: {model: hgx-b300, count: 64}' 'backend:' '  planes: 2' \
  '  switch: sn5600' '  links:' '    - [plane0.spine.0, plane0.spine.7]' >"$work/links.yaml"
expect_error link-beyond-tier \
  "$work/links.yaml:7:24: error: backend.links[0][1]: plane0.spine.7: the fabric has 4 spine switch(es) per plane" -- \
  plan "$work/links.yaml"
# 8. Inputs that hold nothing (empty, comments or a header alone, no counter, no zone): each
#    refused at FILE:1:1 by its one reader, whichever command reads it, instead of an all-clear
#    report of nothing ("0 of 0 groups ... imbalanced", "0 connections", "wrote 1 file(s)").
: >"$work/empty"
printf 'instance,device,vertex,peer\n' >"$work/header.csv"
printf '# HELP up\nup 1 1796296663435\n' >"$work/other.prom"
printf '.1.3.6.1.2.1.31.1.1.1.1.5 = STRING: Ethernet4\n.1.3.6.1.2.1.31.1.1.1.7.5 = Counter64: 12\n' >"$work/names.snmp"
printf 'NIC statistics:\n     rx_packets: 5\n' >"$work/nobytes.txt"
printf 'options { recursion no; };\nview "inside" { match-clients { any; }; };\n' >"$work/nozone.conf"
counters=(--counters "$diag/lab-before.prom" "$diag/lab-after.prom")
expect_error diagnose-empty-map "$work/empty:1:1: error: map: no port-map rows: the map names no link" -- \
  diagnose "$spec" "${counters[@]}" --map "$work/empty"
expect_error diagnose-header-map "$work/header.csv:1:1: error: map: no port-map rows" -- \
  diagnose "$spec" "${counters[@]}" --map "$work/header.csv"
expect_error alerts-empty-map "$work/empty:1:1: error: map: no port-map rows" -- alerts "$spec" --map "$work/empty"
expect_error diagnose-empty-flows "$work/empty:1:1: error: flows: the file lists no flows" -- \
  diagnose "$spec" "${counters[@]}" --map "$diag/lab-map.csv" --flows "$work/empty"
expect_error diagnose-empty-scrape "$work/empty:1:1: error: samples: no samples: an empty scrape" -- \
  diagnose "$spec" --counters "$diag/lab-before.prom" "$work/empty" --map "$diag/lab-map.csv"
expect_error lab-counters-empty-scrape "$work/empty:1:1: error: samples: no samples: an empty scrape" -- \
  lab counters "$spec" --diff "$diag/lab-before.prom" "$work/empty"
expect_error diagnose-other-metrics "$work/other.prom:1:1: error: samples: 1 sample(s), none an interface byte counter" -- \
  diagnose "$spec" --counters "$diag/lab-before.prom" "$work/other.prom" --map "$diag/lab-map.csv"
expect_error diagnose-snmpwalk-no-octets "$work/names.snmp:1:1: error: snmpwalk: no interface counters" -- \
  diagnose "$spec" --counters "p0/pod0/leaf/0=$diag/leaf0-t0.snmp" "p0/pod0/leaf/0=$work/names.snmp" --interval 10 \
  --map "$diag/leaf0-map.csv"
expect_error diagnose-ethtool-no-bytes "$work/nobytes.txt:1:1: error: statistic: no byte counter" -- \
  diagnose "$spec" --counters "host0/nic0,l0=$diag/ethtool-host0-t0.txt" "host0/nic0,l0=$work/nobytes.txt" --interval 10 \
  --map "$diag/lab-map.csv"
expect_error traffic-empty-conntrack "$work/empty:1:1: error: conntrack: no connections" -- \
  traffic --conntrack "$work/empty" --width 8
expect_error traffic-empty-ss "$work/empty:1:1: error: ss: no connections" -- \
  traffic "$source/examples/lab-32.yaml" --ss "$work/empty"
expect_error traffic-empty-counters "$work/empty:1:1: error: samples: no samples" -- \
  traffic "$source/examples/lab-32.yaml" --ss "$source/tests/golden/traffic/host-ss.txt" \
  --counters "$work/empty" "$source/tests/golden/traffic/host-t1.prom"
for conf in empty nozone.conf; do
  expect_error "export-dns-$conf" "$work/$conf:1:1: error: zone: no zones" -- export dns "$work/$conf"
  expect_error "break-dns-$conf" "$work/$conf:1:1: error: zone: no zones" -- break "$platform/manifests" --dns "$work/$conf" --dns-server inside
done
# A sweep --checkpoint entry holding what no study computes (switches -5, bisection 9.9e307):
# an error naming the entry and the field, not a row.
printf 'base: %s\naxes:\n  - path: nodes.count\n    values: [16]\nstudies: {plan: {}}\n' \
  "$source/examples/lab-32.yaml" >"$work/sweep.yaml"
"$binary" sweep "$work/sweep.yaml" --checkpoint "$work/ck" -o "$work/sweep-first.txt" 2>/dev/null ||
  fail "sweep-checkpoint: the first run failed"
entry=$(ls "$work"/ck/*-000000.json)
sed -i -E 's/"metrics":\[[^,]*,[^,]*,/"metrics":[-5.0,9.9e+307,/' "$entry"
expect_error sweep-checkpoint-range "$entry:1: error: rows[0].metrics[0]: switches = -5.0: expected a count" -- \
  sweep "$work/sweep.yaml" --checkpoint "$work/ck"
grep -q -F "rows[0].metrics[1]: bisection_tbps = 9.9e+307" "$work/sweep-checkpoint-range.stderr" ||
  fail "sweep-checkpoint-range: the second field is not named: $(cat "$work/sweep-checkpoint-range.stderr")"
echo "all ok"
