#!/usr/bin/env bash
# Installs, by Debian package name, whatever clustertwin needs that is missing. Idempotent: when
# everything is present it only runs dpkg-query and exits.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config ccache mold
  libyaml-dev libyaml-cpp-dev libcli11-dev nlohmann-json3-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev libboost-dev
  graphviz iproute2 iperf3 conntrack
  libsimgrid-dev zlib1g-dev libns3-dev
  opensm ibsim-utils infiniband-diags
  bind9 dnsutils bird2 gobgpd
  libre2-dev
  chromium python3-websocket
  prometheus prometheus-node-exporter prometheus-snmp-exporter libcurl4-openssl-dev
  openmpi-bin libopenmpi-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
