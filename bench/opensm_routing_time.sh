#!/usr/bin/env bash
# OpenSM's routing step on the fabrics of bench_ib, for docs/performance.md ("InfiniBand routing").
# Needs the Debian packages opensm and ibsim-utils (scripts/setup.sh) and a built bench_ib:
#   bench/opensm_routing_time.sh build/bench/bench_ib [2level|3level ...] [ftree updn minhop]
# For each fabric and engine: a fresh ibsim (socket name of its own) simulates the net file that
# bench_ib writes, `opensm -o -R ENGINE -a ROOTS -D 0x07` routes it once under umad2sim, and the
# time between its log lines "building routing with 'ENGINE'" and "ENGINE tables configured" is
# printed (it includes queueing the LFT blocks to the MAD layer, not their delivery). Everything
# runs in a mktemp folder (umad2sim leaves ./sys-<pid> there if killed), processes are stopped by
# PID, and the folder is removed on exit.
set -euo pipefail
bench=${1:?usage: $0 path/to/bench_ib [2level|3level...] [ftree|updn|minhop...]}
shift
fabrics=() engines=()
for a in "$@"; do case $a in 2level|3level) fabrics+=("$a") ;; *) engines+=("$a") ;; esac; done
[ ${#fabrics[@]} -eq 0 ] && fabrics=(2level 3level)
[ ${#engines[@]} -eq 0 ] && engines=(ftree updn minhop)
umad=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so
work=$(mktemp -d /tmp/ct-osmbench-XXXXXX)
sim_pid=""
cleanup() {
  if [ -n "$sim_pid" ]; then kill "$sim_pid" 2>/dev/null || true; wait "$sim_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM  # a signal exits through cleanup too
"$bench" --write-net="$work" > /dev/null
seconds() { awk '{split($3, t, ":"); printf "%.6f\n", t[1] * 3600 + t[2] * 60 + t[3] + $4 / 1e6}'; }
for fabric in "${fabrics[@]}"; do
  net="$work/ib-$fabric.net"
  nodes=$(grep -cE '^(Switch|Ca)' "$net")
  switches=$(grep -c '^Switch' "$net")
  ports=$(awk '/^(Switch|Ca)/ {n += $2 + 1} END {print n}' "$net")
  # Roots: the top tier (cores for 3 levels, spines for 2), as bench_ib routes them.
  if [ "$fabric" = 2level ]; then grep -B1 '/spine' "$net" | sed -n 's/^switchguid=\(0x[0-9a-f]*\).*/\1/p' > "$work/roots"; fi
  if [ "$fabric" = 3level ]; then grep -B1 '"core' "$net" | sed -n 's/^switchguid=\(0x[0-9a-f]*\).*/\1/p' > "$work/roots"; fi
  for engine in "${engines[@]}"; do
    run="$work/$fabric-$engine"
    mkdir -p "$run"
    sock="ctb$$${fabric}${engine}"
    (cd "$run" && IBSIM_SOCKNAME=$sock exec ibsim -s -n -N $((nodes + 16)) -S $((switches + 16)) -P $((ports + 64)) "$net" > ibsim.log 2>&1) &
    sim_pid=$!
    for _ in $(seq 600); do grep -q "simulator ready" "$run/ibsim.log" 2>/dev/null && break; sleep 0.1; done
    roots=()
    [ "$engine" != minhop ] && roots=(-a "$work/roots")
    (cd "$run" && IBSIM_SOCKNAME=$sock OSM_TMP_DIR=$run OSM_CACHE_DIR=$run LD_PRELOAD=$umad \
      timeout 1800 opensm -o -R "$engine" "${roots[@]}" -D 0x07 -f "$run/osm.log" > opensm.out 2>&1) || true
    start=$(grep -m1 "building routing with '$engine'" "$run/osm.log" | seconds || true)
    used=$(grep -m1 -oE "[a-z]+ tables configured" "$run/osm.log" | cut -d' ' -f1 || true)
    stop=$(grep -m1 "tables configured on all switches" "$run/osm.log" | seconds || true)
    kill "$sim_pid" 2>/dev/null || true
    wait "$sim_pid" 2>/dev/null || true
    sim_pid=""
    if [ -n "$start" ] && [ -n "$stop" ]; then
      awk -v f="$fabric" -v e="$engine" -v u="$used" -v a="$start" -v b="$stop" \
        'BEGIN {printf "%s %s (OpenSM used %s): %.3f s\n", f, e, u, b - a}'
    else
      printf '%s %s: no routing step found in the OpenSM log\n' "$fabric" "$engine"
    fi
    rm -rf "$run"
  done
done
