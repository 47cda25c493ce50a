#!/usr/bin/env bash
# check_good_spec.sh BINARY SPEC WORKDIR: the control for check_bad_spec.sh. A valid spec must
# exit 0 and write a non-empty output file.
set -u
binary=$1 spec=$2 work=$3
fail() { echo "FAIL ($(basename "$spec")): $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
"$binary" plan "$spec" -o "$work/out.json" >"$work/stdout" 2>"$work/stderr"
rc=$?
[ $rc -eq 0 ] || fail "exit code $rc; stderr: $(cat "$work/stderr")"
[ -s "$work/out.json" ] || fail "no output file"
echo "ok: $(basename "$spec")"
