#!/usr/bin/env bash
# check_architecture.sh SOURCE_DIR: docs/architecture.dot renders, and every folder of src/ appears
# in it (a label "name/"), so the picture of the stages cannot silently fall behind the code.
set -u
src=$1
dot_file="$src/docs/architecture.dot"
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v dot >/dev/null || fail "graphviz 'dot' is missing (scripts/setup.sh installs it)"
dot -Tsvg "$dot_file" -o /dev/null || fail "dot cannot render $dot_file"
for d in "$src"/src/*/; do
  name=$(basename "$d")
  grep -q "label=\"$name/" "$dot_file" || fail "src/$name/ is not in docs/architecture.dot"
  grep -q "\`$name/" "$src/docs/architecture.md" || fail "src/$name/ is not in docs/architecture.md's folder table"
done
echo "ok: every folder of src/ is in the architecture picture and table"
