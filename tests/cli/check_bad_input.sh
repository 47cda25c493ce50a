#!/usr/bin/env bash
# check_bad_input.sh BINARY KIND FIXTURE WORKDIR SPEC CATALOG
# A bad scenario (KIND=scenario: `simulate SPEC --scenario FIXTURE`) or a bad catalog file
# (KIND=catalog: FIXTURE added to a copy of the CATALOG folder, `catalog --catalog COPY --json`).
# FIXTURE carries "# expect: LINE TEXT" lines as in check_bad_spec.sh: each must match one
# diagnostic at FIXTURE:LINE: (the catalog copy's path), no other diagnostic may appear, the run
# exits 1 and prints nothing on stdout.
set -u
binary=$1 kind=$2 fixture=$3 work=$4 spec=$5 catalog=$6
fail() { echo "FAIL ($(basename "$fixture")): $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
mapfile -t expects < <(sed -n 's/^# expect: //p' "$fixture")
[ ${#expects[@]} -gt 0 ] || fail "fixture has no '# expect: LINE TEXT' line"
if [ "$kind" = catalog ]; then
  cp "$catalog"/*.yaml "$work/" && cp "$fixture" "$work/" || fail "cannot copy the catalog"
  named="$work/$(basename "$fixture")"
  "$binary" catalog --catalog "$work" --json >"$work/stdout" 2>"$work/stderr"
else
  named=$fixture
  "$binary" simulate "$spec" --scenario "$fixture" >"$work/stdout" 2>"$work/stderr"
fi
rc=$?
[ $rc -eq 1 ] || fail "exit code $rc, expected 1; stderr: $(cat "$work/stderr")"
[ ! -s "$work/stdout" ] || fail "something was printed on stdout: $(head -3 "$work/stdout")"
for e in "${expects[@]}"; do
  line=${e%% *} text=${e#* }
  grep -F -- "$named:$line:" "$work/stderr" | grep -q -F -- "$text" || fail "no diagnostic at line $line with '$text': $(cat "$work/stderr")"
done
count=$(grep -c -F -- ": error: " "$work/stderr")
[ "$count" -eq ${#expects[@]} ] || fail "expected ${#expects[@]} diagnostics, got $count: $(cat "$work/stderr")"
echo "ok: $(basename "$fixture")"
