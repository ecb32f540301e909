#!/usr/bin/env bash
# Builds and runs the tests: every test in a Release build with warnings as
# errors (build/), then the tests not named "Slow" in an AddressSanitizer +
# UndefinedBehaviorSanitizer build (build-asan/). Installs missing packages.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh  # packages, and a first Release build
jobs=$(nproc)

echo "== Release build, warnings as errors"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DMORRIS_WERROR=ON
cmake --build build -j"$jobs"
(cd build && ctest --output-on-failure -j2)

echo "== Sanitizer build (ASan + UBSan)"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMORRIS_SANITIZE=ON \
    -DMORRIS_BENCH=OFF -DMORRIS_WERROR=ON
cmake --build build-asan -j"$jobs"
(cd build-asan && ctest --output-on-failure -j2 -E Slow)
