#!/usr/bin/env bash
# check_ib_input_cli.sh BINARY SPEC WORKDIR
# What `ib route` takes from an ibnetdiscover file, through the binary:
#   1. LIDs: `ib export SPEC --lids`, every LID moved up by 1000 (so no assignment of our own could
#      produce them), routed with --lft: every CA port's LID in the dump is the one the file states.
#   2. Order: the same file with its node blocks reversed gives a byte-identical LFT dump and the
#      same report (but for the line naming the file).
#   3. A roots file naming a CA is refused at its line (exit 1, no output file), not dropped.
#   4. --fail takes "A -- B" and link ids as every command does; a bad --fail prints only the error.
set -u
binary=$1 spec=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"

"$binary" ib export "$spec" --lids -o "$work/export.net" || fail "export failed"
awk '{ out = ""; while (match($0, /lid [0-9]+/)) { n = substr($0, RSTART + 4, RLENGTH - 4) + 1000;
       out = out substr($0, 1, RSTART - 1) "lid " n; $0 = substr($0, RSTART + RLENGTH) } print out $0 }' \
  "$work/export.net" >"$work/fabric.net"
"$binary" ib route --ibnetdiscover "$work/fabric.net" --engine updn --lft "$work/fabric.dump" -o "$work/fabric.txt" ||
  fail "route failed: $(cat "$work/fabric.txt" 2>/dev/null)"

# 1. "[1](portguid) ... # lid N lmc 0 ..." in the file; "0xLID PORT : (Channel Adapter portguid 0x..." in the dump.
sed -n 's/^\[[0-9]*\](\([0-9a-f]*\)).*# lid \([0-9]*\) lmc.*/\1 \2/p' "$work/fabric.net" | sort >"$work/stated"
awk '/^Unicast lids/ { n++ } n == 1 && /Channel Adapter portguid/ {
       guid = $0; sub(/.*portguid 0x0*/, "", guid); sub(/:.*/, "", guid); print guid, $1 }' "$work/fabric.dump" |
  while read -r guid hexlid; do echo "$guid $((hexlid))"; done | sort >"$work/used"
stated=$(wc -l <"$work/stated")
[ "$stated" -gt 200 ] || fail "only $stated stated LIDs found in the exported file"
cmp -s "$work/stated" "$work/used" ||
  fail "LIDs differ from the file's: $(diff "$work/stated" "$work/used" | head -5)"
echo "ok: $stated CA port LIDs as the file states them"

# 2. Node blocks (blank-line separated) in reverse order.
awk 'BEGIN { RS = ""; ORS = "\n\n" } { block[NR] = $0 } END { print block[1]; for (i = NR; i > 1; i--) print block[i] }' \
  "$work/fabric.net" >"$work/reversed.net"
cmp -s "$work/fabric.net" "$work/reversed.net" && fail "reversing changed nothing"
"$binary" ib route --ibnetdiscover "$work/reversed.net" --engine updn --lft "$work/reversed.dump" -o "$work/reversed.txt" ||
  fail "route of the reversed file failed"
cmp -s "$work/fabric.dump" "$work/reversed.dump" || fail "the LFT dump depends on the file's order"
diff <(tail -n +2 "$work/fabric.txt") <(tail -n +2 "$work/reversed.txt") >/dev/null ||
  fail "the report depends on the file's order: $(diff <(tail -n +2 "$work/fabric.txt") <(tail -n +2 "$work/reversed.txt") | head -5)"
echo "ok: reversed file, same tables and report"

# 3. A CA in the roots file.
printf 'p0/spine/0\nhost3/nic0\n' >"$work/roots.txt"
"$binary" ib route --ibnetdiscover "$work/fabric.net" --engine updn --roots "$work/roots.txt" -o "$work/roots-out.txt" \
  >"$work/stdout" 2>"$work/stderr"
rc=$?
[ $rc -eq 1 ] || fail "a CA in the roots file: exit $rc, expected 1"
grep -q -F "$work/roots.txt:2:1: error: node: \"host3/nic0\" is a CA" "$work/stderr" ||
  fail "a CA in the roots file: no located error in: $(cat "$work/stderr")"
[ ! -e "$work/roots-out.txt" ] || fail "a CA in the roots file: the report was written"
echo "ok: a CA in the roots file is refused at its line"

# 4. One link syntax: --fail "A -- B" (as hash and simulate take it) removes what NODE,NODE does,
#    a link id what NODE:PORT does; a --fail that names no cable is an error before any output.
"$binary" ib route "$spec" --engine updn --fail "p0/leaf/0,p0/spine/1" -o "$work/comma.txt" || fail "NODE,NODE failed"
"$binary" ib route "$spec" --engine updn --fail "p0/leaf/0 -- p0/spine/1" -o "$work/dashes.txt" || fail "'A -- B' failed"
cmp -s "$work/comma.txt" "$work/dashes.txt" || fail "'A -- B' and NODE,NODE differ: $(diff "$work/comma.txt" "$work/dashes.txt" | head -5)"
grep -q "After removing 8 cable(s)" "$work/dashes.txt" || fail "'A -- B' removed: $(grep After "$work/dashes.txt")"
"$binary" ib route "$spec" --engine updn --fail "host0/nic0:1" -o "$work/port.txt" || fail "NODE:PORT failed"
"$binary" ib route "$spec" --engine updn --fail 0 -o "$work/id.txt" || fail "a link id failed"
cmp -s "$work/port.txt" "$work/id.txt" || fail "link 0 and host0/nic0:1 differ: $(diff "$work/port.txt" "$work/id.txt" | head -5)"
for bad in "p0/leaf/0 -- p0/spine/9" "p0/leaf/0 -- p0/leaf/1" "host0,host1" "p0/spine/0"; do
  "$binary" ib route "$spec" --fail "$bad" >"$work/stdout" 2>"$work/stderr"
  rc=$?
  [ $rc -eq 1 ] || fail "--fail '$bad': exit $rc, expected 1"
  [ ! -s "$work/stdout" ] || fail "--fail '$bad': printed before the error: $(head -2 "$work/stdout")"
  grep -q "error" "$work/stderr" || fail "--fail '$bad': no error in: $(cat "$work/stderr")"
done
echo "ok: one link syntax for --fail, and a bad --fail prints nothing but the error"
