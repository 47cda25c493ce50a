#!/usr/bin/env bash
# check_cable_names.sh BINARY SOURCE_DIR WORKDIR: a cable name copied out of one command's output
# reads back in another command as that one cable (fabric/name_directory.h cable_name: "A -- B #k"
# for a cable with parallel twins, k from 0).
#   hash:  every link that `hash examples/twin-uplinks.yaml --json` lists (each leaf has two cables
#          to the spine) given back as --fail fails exactly that link: the JSON's failed list is
#          [{link: NAME, id: ID}] with the listed id, and the text says "failed: NAME".
#   spof/break: every parallel frontend cable that `spof --spec examples/platform/cluster.yaml
#          --json` lists given to `break --link NAME` is accepted (exit 0) and echoed as a link failure.
#   ib:    a cable of plane 1 given to `ib route --plane 0 --fail` is refused by the cable's name
#          ("p1/leaf/0 -- p1/spine/0 #0" on a dual-plane IB fabric whose leaves have twin cables to
#          each spine), and that name, given to `--plane 1 --fail` (routed by updn: one cable less is no
#          longer a fat tree), is taken (exit 0).
set -u
binary=$1 src=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
cd "$src" || fail "no $src"
export CLUSTERTWIN_CATALOG=catalog

spec=examples/twin-uplinks.yaml
"$binary" hash "$spec" --trials 0 --json >"$work/hash.json" || fail "hash --json exited $?"
python3 -c 'import json,sys
for l in json.load(open(sys.argv[1]))["loads"]["links"]: print(str(l["id"]) + "\t" + l["link"])' "$work/hash.json" \
  | sort -u >"$work/links.tsv" || fail "cannot read $work/hash.json"
[ "$(grep -c ' #' "$work/links.tsv")" -ge 2 ] || fail "expected parallel cables among the links: $(cat "$work/links.tsv")"
while IFS=$'\t' read -r id name; do
  "$binary" hash "$spec" --trials 0 --fail "$name" --json >"$work/failed.json" || fail "--fail '$name' exited $?"
  got=$(python3 -c 'import json,sys
print(json.dumps(json.load(open(sys.argv[1]))["fabric"]["failed"]))' "$work/failed.json")
  want=$(python3 -c 'import json,sys; print(json.dumps([{"link": sys.argv[1], "id": int(sys.argv[2])}]))' "$name" "$id")
  [ "$got" = "$want" ] || fail "--fail '$name' failed $got, expected $want"
  "$binary" hash "$spec" --trials 0 --fail "$name" | grep -q -x -F -- "failed: $name" || fail "no 'failed: $name' line"
done <"$work/links.tsv"

platform=(examples/platform/manifests --dns examples/platform/dns/named.conf --spec examples/platform/cluster.yaml)
"$binary" spof "${platform[@]}" --json >"$work/spof.json" || fail "spof --json exited $?"
python3 -c 'import json,sys
def walk(x):
  if isinstance(x, dict):
    if x.get("kind") == "link" and " #" in x.get("name", ""): print(x["name"])
    for v in x.values(): walk(v)
  elif isinstance(x, list):
    for v in x: walk(v)
walk(json.load(open(sys.argv[1])))' "$work/spof.json" | sort -u >"$work/twins.txt" || fail "cannot read $work/spof.json"
[ "$(wc -l <"$work/twins.txt")" -eq 16 ] || fail "expected 16 parallel frontend cables: $(cat "$work/twins.txt")"
grep -q -x -F "fe/leaf/0 -- fe/spine/0 #0" "$work/twins.txt" || fail "the first twin is not '#0': $(head -3 "$work/twins.txt")"
while read -r name; do
  "$binary" break "${platform[@]}" --link "$name" --json >"$work/break.json" 2>"$work/break.err" \
    || fail "break --link '$name' exited $?: $(cat "$work/break.err")"
  python3 -c 'import json,sys
f = json.load(open(sys.argv[1]))["failures"]
sys.exit(0 if f == [{"at_s": 0.0, "kind": "link", "name": sys.argv[2]}] else 1)' "$work/break.json" "$name" \
    || fail "break --link '$name' did not fail that link"
done <"$work/twins.txt"
sed -e 's/model: hgx-h100/model: hgx-b300/; s/planes: 1 .*/planes: 2/; s/count: 32/count: 16/' examples/lab-32.yaml \
  >"$work/ib-dual.yaml" || fail "cannot write $work/ib-dual.yaml"
"$binary" ib route "$work/ib-dual.yaml" --plane 0 --fail 'p1/leaf/0 -- p1/spine/0' --quiet >/dev/null 2>"$work/ib.err"
rc=$?
[ $rc -eq 1 ] || fail "ib route --plane 0 --fail (a plane-1 cable) exited $rc: $(cat "$work/ib.err")"
grep -q -F "link p1/leaf/0 -- p1/spine/0 #0 is not in this subnet (it is in plane 1" "$work/ib.err" \
  || fail "the refusal does not name the cable as the directory does: $(cat "$work/ib.err")"
"$binary" ib route "$work/ib-dual.yaml" --plane 1 --engine updn --fail 'p1/leaf/0 -- p1/spine/0 #0' --quiet >/dev/null 2>"$work/ib.err" \
  || fail "ib route --plane 1 --fail 'p1/leaf/0 -- p1/spine/0 #0' exited $?: $(cat "$work/ib.err")"
echo "ok: cable names read back through hash --fail, break --link and ib route --fail"
