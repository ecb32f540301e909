#!/usr/bin/env bash
# Generates the complete Nine Men's Morris database (every sector of valid
# positions, placement included) into DIR, prints the start position's value,
# then proves it by alpha-beta over the placement phase.
#
#   scripts/solve-nine.sh DIR [MEMORY_LIMIT]     e.g. scripts/solve-nine.sh db-nine 20G
#
# Resumable: a killed run restarts where it stopped (finished sectors are
# skipped, a half-written one was never renamed into place). MEMORY_LIMIT
# defaults to 80% of RAM; a sector (or the proof, which takes about 8.6 GB)
# needing more is refused before it starts.
# Each sector's positions, seconds, peak memory and bytes on disk are logged
# to standard output and to DIR/solve.log.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=${1:?usage: scripts/solve-nine.sh DIR [MEMORY_LIMIT]}
limit=${2:-}
mkdir -p "$dir"
[ -x build/bin/morris ] || scripts/setup.sh

args=(--variant nine --db "$dir")
[ -n "$limit" ] && args+=(--memory-limit "$limit")
build/bin/morris solve "${args[@]}" | tee -a "$dir/solve.log"
build/bin/morris info --variant nine --db "$dir" | tail -2 | tee -a "$dir/solve.log"
build/bin/morris query --variant nine --db "$dir" --moves "" | tee -a "$dir/solve.log"
# Last, as it is long: the independent alpha-beta proof of the start's value.
build/bin/morris prove "${args[@]}" | tee -a "$dir/solve.log"
