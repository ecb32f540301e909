#!/usr/bin/env bash
# Installs the Debian packages morris needs (only those missing) and builds it
# into build/ (Release). Arguments are passed on to CMake's configure step,
# e.g. scripts/setup.sh -DMORRIS_WERROR=ON. Safe to run again: it only
# installs what is missing and rebuilds what changed.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake g++ make libzstd-dev libcli11-dev libfmt-dev libgtest-dev libbenchmark-dev
          libomp-dev pkg-config clang libclang-rt-14-dev clang-format git
          python3-dev pybind11-dev python3-pytest libcpp-httplib-dev chromium)

missing=()
for package in "${packages[@]}"; do
    # dpkg -s also knows removed packages whose config files are left.
    status=$(dpkg -s "$package" 2>/dev/null || true)
    if [[ $status != *"Status: install ok installed"* ]]; then
        missing+=("$package")
    fi
done

if [[ ${#missing[@]} -gt 0 ]]; then
    echo "setup: installing ${missing[*]}"
    sudo=()
    if [[ $(id -u) -ne 0 ]]; then
        sudo=(sudo)
    fi
    "${sudo[@]}" apt-get update
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        "${missing[@]}"
fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@"
cmake --build build -j"$(nproc)"
