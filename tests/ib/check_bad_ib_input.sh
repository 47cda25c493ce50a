#!/usr/bin/env bash
# check_bad_ib_input.sh BINARY FIXTURE WORKDIR GOOD_NET
# FIXTURE is a malformed ibnetdiscover file (*.net), read with `ib route --ibnetdiscover FIXTURE`,
# or a malformed LFT dump (*.dump), checked with `ib route --ibnetdiscover GOOD_NET --check-lft
# FIXTURE`. It carries one line "# expect: LINE TEXT" (both formats skip such a line): stderr must
# hold "FIXTURE:LINE:...: error: ..." containing TEXT (the field). The run must exit with 1, print
# nothing on stdout, and neither create the -o and --lft files nor change existing ones.
# With FIXTURE = GOOD_NET it is the control: exit 0 and both files written; then, with a cable
# removed (--fail) that makes ftree refuse, exit 1 and no file written.
set -u
binary=$1 fixture=$2 work=$3 good=$4
fail() { echo "FAIL ($(basename "$fixture")): $*" >&2; exit 1; }

rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
run() {
  case $fixture in
    *.dump) "$binary" ib route --ibnetdiscover "$good" --check-lft "$fixture" -o "$work/out.txt" --lft "$work/out.fts" ;;
    *) "$binary" ib route --ibnetdiscover "$fixture" -o "$work/out.txt" --lft "$work/out.fts" ;;
  esac
}

if [ "$fixture" = "$good" ]; then
  run >"$work/stdout" 2>"$work/stderr" || fail "exit code $?: $(cat "$work/stderr")"
  grep -q "Reachability: 12 of 12" "$work/out.txt" || fail "unexpected report: $(cat "$work/out.txt")"
  grep -q "^Unicast lids" "$work/out.fts" || fail "no LFT dump written"
  # After removing L2-S2 ftree refuses the fabric (no root file): exit 1, the error alone (nothing
  # on stdout: a failed run prints no half report), and no file written.
  rm -f "$work/out.txt" "$work/out.fts"
  "$binary" ib route --ibnetdiscover "$good" --engine ftree --fail L2,S2 -o "$work/out.txt" --lft "$work/out.fts" \
    >"$work/stdout" 2>"$work/stderr"
  rc=$?
  [ $rc -eq 1 ] || fail "degraded ftree: exit code $rc, expected 1"
  grep -q "not a fat tree" "$work/stderr" || fail "degraded ftree: no refusal in: $(cat "$work/stderr")"
  [ ! -s "$work/stdout" ] || fail "degraded ftree: a report was printed before the error: $(head -3 "$work/stdout")"
  [ ! -e "$work/out.txt" ] && [ ! -e "$work/out.fts" ] || fail "degraded ftree: an output file was written"
  echo "ok: control"
  exit 0
fi

expect=$(sed -n 's/^# expect: //p' "$fixture" | head -1)
[ -n "$expect" ] || fail "fixture has no '# expect: LINE TEXT' line"
line=${expect%% *} text=${expect#* }

run >"$work/stdout" 2>"$work/stderr"
rc=$?
[ $rc -eq 1 ] || fail "exit code $rc, expected 1; stderr: $(cat "$work/stderr")"
grep -F -- "$fixture:$line:" "$work/stderr" | grep -q -F -- ": error: $text" ||
  fail "no error at $fixture:$line with '$text' in: $(cat "$work/stderr")"
[ ! -s "$work/stdout" ] || fail "something was printed on stdout: $(cat "$work/stdout")"
[ ! -e "$work/out.txt" ] && [ ! -e "$work/out.fts" ] || fail "an output file was created"

printf 'previous\n' >"$work/out.txt"
printf 'previous\n' >"$work/out.fts"
run >/dev/null 2>&1
[ "$(cat "$work/out.txt")" = previous ] && [ "$(cat "$work/out.fts")" = previous ] || fail "an existing output file changed"
extra=$(ls -A "$work" | grep -v -x -e out.txt -e out.fts -e stdout -e stderr)
[ -z "$extra" ] || fail "files left behind: $extra"
echo "ok: $(basename "$fixture")"
