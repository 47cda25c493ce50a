#!/usr/bin/env bash
# check_cli_golden.sh BINARY SOURCE_DIR NAME ARGS...: runs `clustertwin ARGS...` from SOURCE_DIR and
# compares its exit code, stdout and stderr with tests/golden/cli/NAME.txt (CT_UPDATE_GOLDEN=1
# rewrites the file instead).
set -u
binary=$1 src=$2 name=$3
shift 3
expected="$src/tests/golden/cli/$name.txt"
cd "$src" || exit 1
out=$(mktemp) err=$(mktemp) actual=$(mktemp)
trap 'rm -f "$out" "$err" "$actual"' EXIT
CLUSTERTWIN_CATALOG=catalog "$binary" "$@" >"$out" 2>"$err"
rc=$?
{
  printf '$ clustertwin'; printf ' %q' "$@"; printf '\n'
  printf 'exit: %d\n' "$rc"
  printf -- '--- stdout\n'; cat "$out"
  printf -- '--- stderr\n'; cat "$err"
} >"$actual"
if [ "${CT_UPDATE_GOLDEN:-}" = 1 ]; then
  cp "$actual" "$expected" && echo "updated $expected" && exit 0
  exit 1
fi
[ -f "$expected" ] || { echo "missing $expected: run CT_UPDATE_GOLDEN=1 ctest -R cli_golden (make golden)"; exit 1; }
if ! cmp -s "$expected" "$actual"; then
  echo "golden mismatch for $name (CT_UPDATE_GOLDEN=1 to accept, then review the diff):"
  diff -u "$expected" "$actual" | head -40
  exit 1
fi
echo "ok: $name"
