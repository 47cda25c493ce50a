#!/usr/bin/env bash
# check_alerts_promtool.sh BINARY SOURCE_DIR: `promtool check rules` accepts the rule file
# `clustertwin alerts -o FILE` writes, for each exporter convention, on the lab's two fabrics.
# Exit 77 (skipped) without promtool (Debian prometheus).
set -u
binary=$1 src=$2
command -v promtool >/dev/null || { echo "promtool not installed"; exit 77; }
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$src" || exit 1
for spec in examples/lab/fat-tree-4.yaml examples/lab/leaf-spine-4.yaml; do
  for source in node_exporter snmp gnmic; do
    out="$work/rules-$source.yaml"
    CLUSTERTWIN_CATALOG=catalog "$binary" alerts "$spec" --source "$source" -o "$out" || { echo "FAIL: alerts $spec --source $source"; exit 1; }
    promtool check rules "$out" || { echo "FAIL: promtool check rules on alerts $spec --source $source"; exit 1; }
  done
done
echo "ok: promtool accepts every rule file"
