#!/usr/bin/env bash
# check_every_command.sh BINARY SPEC: every command that takes a spec (plan, topology, hash,
# simulate, reliability, ib route, ib export, ib trace --spec) refuses SPEC the same way: exit 1,
# nothing on stdout, and on stderr the same single diagnostic "SPEC:LINE:COLUMN: error: FIELD: ..."
# with LINE and FIELD from the fixture's "# expect: LINE FIELD" line. One build stage
# (fabric/fabric.h) decides for all of them.
set -u
binary=$1 spec=$2
fail() { echo "FAIL ($(basename "$spec")): $*" >&2; exit 1; }
expect=$(sed -n 's/^# expect: //p' "$spec")
[ -n "$expect" ] || fail "fixture has no '# expect: LINE FIELD' line"
line=${expect%% *} field=${expect#* }
work=$(mktemp -d) || fail "no temporary folder"
trap 'rm -rf "$work"' EXIT

commands=(
  "plan $spec"
  "topology $spec"
  "hash $spec --trials 10"
  "simulate $spec --collective all-reduce --algorithm ring --bytes 1MiB"
  "reliability $spec --trials 10"
  "ib route $spec"
  "ib export $spec"
  "ib trace host0/nic0 host1/nic0 --spec $spec"
)
first=""
for c in "${commands[@]}"; do
  # shellcheck disable=SC2086  # the words of each command line are meant to split
  "$binary" $c >"$work/stdout" 2>"$work/stderr"
  rc=$?
  [ $rc -eq 1 ] || fail "'$c': exit code $rc, expected 1; stderr: $(cat "$work/stderr")"
  [ ! -s "$work/stdout" ] || fail "'$c' printed on stdout: $(head -3 "$work/stdout")"
  [ "$(wc -l <"$work/stderr")" -eq 1 ] || fail "'$c': expected one diagnostic, got: $(cat "$work/stderr")"
  grep -q -E -- "^$spec:$line:[0-9]+: error: $field: " "$work/stderr" ||
    fail "'$c': no '$spec:$line:COL: error: $field:' diagnostic in: $(cat "$work/stderr")"
  if [ -z "$first" ]; then
    first=$(cat "$work/stderr")
  elif [ "$(cat "$work/stderr")" != "$first" ]; then
    fail "'$c' says '$(cat "$work/stderr")' where plan says '$first'"
  fi
  echo "ok: $c"
done
