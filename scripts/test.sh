#!/usr/bin/env bash
# Checks the formatting (clang-format), then builds and runs the tests: every
# test in a Release build with warnings as
# errors (build/), then the tests not named "Slow" in an AddressSanitizer +
# UndefinedBehaviorSanitizer build (build-asan/, without -march=native, so
# the portable code paths of pext/pdep are tested too), then each libFuzzer target
# for 30 seconds (build-fuzz/, see scripts/fuzz.sh). Installs missing packages.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== Release build, warnings as errors"
scripts/setup.sh -DMORRIS_WERROR=ON  # installs missing packages, builds into build/

echo "== Formatting (clang-format)"
git ls-files '*.cpp' '*.hpp' '*.c' '*.h' | xargs clang-format --dry-run --Werror

echo "== Tests"
(cd build && ctest --output-on-failure -j2)

echo "== Sanitizer build (ASan + UBSan)"
# -g1: line tables, all the sanitizers' reports need, without the debug
# information of every variable, which made files compile 10-27% slower.
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMORRIS_SANITIZE=ON \
    -DMORRIS_NATIVE=OFF \
    -DMORRIS_BENCH=OFF \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"
cmake --build build-asan -j"$(nproc)"
(cd build-asan && ctest --output-on-failure -j2 -E Slow)

echo "== Fuzzing (libFuzzer, clang++, 30 s per target)"
scripts/fuzz.sh 30
