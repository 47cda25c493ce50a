#!/usr/bin/env bash
# check_install.sh BUILD_DIR SOURCE_DIR WORKDIR: `cmake --install` into a staging DESTDIR puts the binary in
# PREFIX/bin and the catalog in PREFIX/share/clustertwin/catalog, and the installed binary, run
# without CLUSTERTWIN_CATALOG, reads that catalog (not the source tree's): a file added to the
# installed catalog only is what its error names.
set -u
build=$1 src=$2 work=$3
fail() { echo "FAIL (install): $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work" || fail "cannot create $work"
stage="$work/stage" prefix=/opt/clustertwin-test
DESTDIR="$stage" cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 || fail "cmake --install: $(cat "$work/install.log")"
bin="$stage$prefix/bin/clustertwin" catalog="$stage$prefix/share/clustertwin/catalog"
[ -x "$bin" ] || fail "no $bin"
[ -f "$catalog/switches.yaml" ] || fail "no $catalog/switches.yaml"
[ -f "$stage$prefix/share/clustertwin/examples/lab-32.yaml" ] || fail "examples not installed"
unset CLUSTERTWIN_CATALOG
(cd "$work" && "$bin" catalog --kind switches >"$work/stdout" 2>"$work/stderr") || fail "installed binary: $(cat "$work/stderr")"
grep -q '^sn5600 ' "$work/stdout" || fail "installed binary printed no catalog: $(cat "$work/stdout")"
# Only the installed catalog has this broken file: its name in the error proves which folder is read.
printf 'switches: [\n' >"$catalog/zz-only-installed.yaml"
(cd "$work" && "$bin" catalog --kind switches >"$work/stdout" 2>"$work/stderr")
rc=$?
[ $rc -eq 1 ] || fail "expected exit 1 with a broken installed catalog, got $rc"
grep -q "share/clustertwin/catalog/zz-only-installed.yaml" "$work/stderr" || fail "error does not name the installed catalog: $(cat "$work/stderr")"
# The environment still overrides the installed catalog.
(cd "$work" && CLUSTERTWIN_CATALOG="$src/catalog" "$bin" catalog --kind switches >/dev/null 2>"$work/stderr") ||
  fail "CLUSTERTWIN_CATALOG does not override the installed catalog: $(cat "$work/stderr")"
echo "ok: installed binary reads $prefix/share/clustertwin/catalog"
