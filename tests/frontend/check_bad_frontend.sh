#!/usr/bin/env bash
# check_bad_frontend.sh BINARY INPUT WORKDIR
# INPUT is a manifest (*.yaml, run as `clustertwin routes INPUT -o OUT`) or a named.conf (*.conf,
# run as `clustertwin export dns INPUT -o OUTDIR`) with one "# expect: LINE TEXT" line per expected
# diagnostic: stderr must hold "INPUT:LINE:COLUMN: error: ..." containing TEXT. The run must exit 1,
# print nothing on stdout, and write nothing (an existing output stays byte-for-byte).
set -u
binary=$1 input=$2 work=$3
fail() { echo "FAIL ($(basename "$input")): $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
mapfile -t expects < <(sed -n 's/^# expect: //p' "$input")
[ ${#expects[@]} -gt 0 ] || fail "fixture has no '# expect: LINE TEXT' line"
case "$input" in
  *.yaml) cmd=(routes "$input" -o "$work/out") ;;
  *.conf) cmd=(export dns "$input" -o "$work/out") ;;
  *) fail "unknown fixture type" ;;
esac
"$binary" "${cmd[@]}" >"$work/stdout" 2>"$work/stderr"
rc=$?
[ $rc -eq 1 ] || fail "exit code $rc, expected 1; stderr: $(cat "$work/stderr")"
for e in "${expects[@]}"; do
  line=${e%% *} text=${e#* }
  grep -F -- "$input:$line:" "$work/stderr" | grep -F -- ": error: " | grep -q -F -- "$text" ||
    fail "no error at $input:$line: with '$text' in: $(cat "$work/stderr")"
done
count=$(grep -c -F -- ": error: " "$work/stderr")
[ "$count" -eq ${#expects[@]} ] || fail "expected ${#expects[@]} errors, got $count: $(cat "$work/stderr")"
[ ! -e "$work/out" ] || fail "an output was written"
[ ! -s "$work/stdout" ] || fail "something was printed on stdout"
if [ "${cmd[0]}" = routes ]; then
  printf 'previous output\n' >"$work/out"
  "$binary" "${cmd[@]}" >/dev/null 2>&1
  [ "$(cat "$work/out")" = "previous output" ] || fail "the existing output file was changed"
  extra=$(ls -A "$work" | grep -v -x -e out -e stdout -e stderr)
  [ -z "$extra" ] || fail "files left behind: $extra"
fi
echo "ok: $(basename "$input")"
