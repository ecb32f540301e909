#!/usr/bin/env bash
# The main job: installs what is missing, builds, then prints perft figures
# (the number of turn sequences of 1..5 plies from the start) for the
# variants five and nine. (Later this will solve a small variant.)
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh

for variant in five nine; do
    for depth in 1 2 3 4 5; do
        echo "perft $variant depth $depth: $(build/bin/morris perft --variant "$variant" --depth "$depth")"
    done
done
