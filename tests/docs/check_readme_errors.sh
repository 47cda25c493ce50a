#!/usr/bin/env bash
# check_readme_errors.sh BINARY SOURCE_DIR WORKDIR: every README block that runs a file of
# examples/errors/ ("$ clustertwin ARGS" then the output) gives exactly that output (stdout and
# stderr together), exit code 1, and no output file. The README cannot show an error a shipped file
# does not produce.
set -u
binary=$1 src=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work/run" || fail "cannot create $work"
ln -s "$src/examples" "$work/run/examples"
awk -v dir="$work" '
  /^```/ { if (inblock) { inblock = 0; if (file != "") close(file); file = "" } else { inblock = 1; first = 1 } next }
  inblock && first { first = 0
    if ($0 ~ /^\$ clustertwin .*examples\/errors\//) { n++; file = dir "/case" n ".expected"; print substr($0, 15) > (dir "/case" n ".args") }
    next }
  inblock && file != "" { print > file }
' "$src/README.md"
cases=$(ls "$work"/case*.args 2>/dev/null | wc -l)
[ "$cases" -ge 2 ] || fail "expected at least 2 README examples running examples/errors/, found $cases"
for args_file in "$work"/case*.args; do
  c=${args_file%.args}
  read -r -a args <"$args_file"
  for f in "${args[@]}"; do
    case $f in examples/errors/*) [ -f "$src/$f" ] || fail "README names $f, which is not shipped";; esac
  done
  (cd "$work/run" && CLUSTERTWIN_CATALOG="$src/catalog" "$binary" "${args[@]}" >"$c.actual" 2>&1)
  rc=$?
  [ $rc -eq 1 ] || fail "clustertwin ${args[*]}: exit code $rc, expected 1"
  if ! cmp -s "$c.expected" "$c.actual"; then
    diff -u "$c.expected" "$c.actual"
    fail "clustertwin ${args[*]}: output differs from the README"
  fi
  [ -z "$(ls "$work/run" | grep -v '^examples$')" ] || fail "clustertwin ${args[*]} left output: $(ls "$work/run")"
  echo "ok: clustertwin ${args[*]}"
done
