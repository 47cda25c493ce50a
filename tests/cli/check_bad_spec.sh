#!/usr/bin/env bash
# check_bad_spec.sh BINARY SPEC WORKDIR
# SPEC carries one line "# expect: LINE TEXT" per expected diagnostic: stderr must hold a diagnostic
# "SPEC:LINE:COLUMN: error: ..." containing TEXT (usually the field). The run must exit with 1
# (input error), create no output file, leave an existing output file byte-for-byte unchanged and
# leave no temporary file behind.
set -u
binary=$1 spec=$2 work=$3
fail() { echo "FAIL ($(basename "$spec")): $*" >&2; exit 1; }

rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
mapfile -t expects < <(sed -n 's/^# expect: //p' "$spec")
[ ${#expects[@]} -gt 0 ] || fail "fixture has no '# expect: LINE TEXT' line"

check_stderr() {
  local err=$1 count
  for e in "${expects[@]}"; do
    local line=${e%% *} text=${e#* }
    grep -F -- "$spec:$line:" "$err" | grep -q -F -- ": error: " || fail "no diagnostic at $spec:$line: in: $(cat "$err")"
    grep -F -- "$spec:$line:" "$err" | grep -q -F -- "$text" || fail "diagnostic at line $line lacks '$text': $(cat "$err")"
  done
  count=$(grep -c -F -- ": error: " "$err")
  [ "$count" -eq ${#expects[@]} ] || fail "expected ${#expects[@]} diagnostics, got $count: $(cat "$err")"
}

# 1. No output file yet: none may appear.
"$binary" plan "$spec" -o "$work/out.json" >"$work/stdout" 2>"$work/stderr"
rc=$?
[ $rc -eq 1 ] || fail "exit code $rc, expected 1; stderr: $(cat "$work/stderr")"
check_stderr "$work/stderr"
[ ! -e "$work/out.json" ] || fail "an output file was created"
[ ! -s "$work/stdout" ] || fail "something was printed on stdout: $(cat "$work/stdout")"

# 2. An existing output file must stay as it was, with nothing else left in the folder.
printf 'previous output\n' >"$work/out.json"
"$binary" plan "$spec" -o "$work/out.json" >"$work/stdout" 2>"$work/stderr2"
rc=$?
[ $rc -eq 1 ] || fail "second run: exit code $rc, expected 1"
[ "$(cat "$work/out.json")" = "previous output" ] || fail "the existing output file was changed"
extra=$(ls -A "$work" | grep -v -x -e out.json -e stdout -e stderr -e stderr2)
[ -z "$extra" ] || fail "files left behind: $extra"
echo "ok: $(basename "$spec")"
