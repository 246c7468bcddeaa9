#!/usr/bin/env bash
# Installs the Debian 12 packages collnoise needs (root, apt reachable); skips what is present.
set -euo pipefail
pkgs=(cmake g++ make pkg-config libtbb-dev libpcg-cpp-dev libhdf5-dev catch2 libcli11-dev
      libtomlplusplus-dev libfmt-dev libboost-math-dev libsleef-dev python3-h5py python3-matplotlib
      python3-numpy python3-pandas libopenmpi-dev openmpi-bin libxxhash-dev nlohmann-json3-dev
      hdf5-tools help2man python3-xxhash libotf2-trace-dev otf2-tools libmuparser-dev libnlopt-cxx-dev
      libgraphviz-dev ccache python3-pytest)
missing=()
for p in "${pkgs[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
if [ ${#missing[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi
