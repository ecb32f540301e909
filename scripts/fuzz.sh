#!/usr/bin/env bash
# Builds the libFuzzer targets with clang++ (ASan + UBSan, into build-fuzz/)
# and runs each for a short time from its seed corpus:
#   position_fuzz     the notation parsers, seeded from fuzz/corpus/position/
#   sector_file_fuzz  the sector file reader, seeded with small files written
#                     now by sector_file_seeds (no binary files are committed)
# Usage: scripts/fuzz.sh [seconds per target, default 30]; MORRIS_FUZZ_BUILD
# names another build directory. A finding stops the script with a non-zero
# exit code; the input that triggered it is kept in build-fuzz/artifacts/.
# Inputs found interesting accumulate in build-fuzz/corpus/ and seed the next
# run.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-30}
build=${MORRIS_FUZZ_BUILD:-build-fuzz}  # the build directory

cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DMORRIS_FUZZ=ON -DMORRIS_BENCH=OFF \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG"  # -g1: line tables only (test.sh)
cmake --build "$build" -j"$(nproc)" --target position_fuzz sector_file_fuzz sector_file_seeds

mkdir -p "$build/corpus/position" "$build/corpus/sector_file" "$build/artifacts"
"$build/bin/sector_file_seeds" "$build/corpus/sector_file"

run() {
    local target=$1
    shift
    echo "== fuzz: $target for ${seconds} s"
    # The first directory receives new inputs; the others are only read.
    "$build/bin/$target" -max_total_time="$seconds" -print_final_stats=1 \
        -artifact_prefix="$build/artifacts/$target-" "$@" 2>"$build/$target.log" ||
        { tail -n 60 "$build/$target.log"; echo "fuzz: $target found a problem" >&2; return 1; }
    grep -E '^(Done|stat::number_of_executed_units|stat::new_units_added)' "$build/$target.log"
}

run position_fuzz "$build/corpus/position" fuzz/corpus/position
run sector_file_fuzz -use_value_profile=1 "$build/corpus/sector_file"
