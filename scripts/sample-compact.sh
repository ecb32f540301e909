#!/usr/bin/env bash
# Compacts a few sectors of a full database into WDL files with a given
# block size, and prints each one's bits per position and the seconds it
# took: to choose `morris compact --block-entries` from a sample instead of
# an hour's whole run. The sectors' successors are linked into the scratch
# directory (compact reads their values) but not compacted.
#
#   scripts/sample-compact.sh VARIANT FULL_DB BLOCK_ENTRIES SECTOR...
#   scripts/sample-compact.sh nine db-nine 8192 6-6-2-1 6-7-0-0 6-6-0-0
#
# MORRIS names another build of morris.
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: scripts/sample-compact.sh VARIANT FULL_DB BLOCK_ENTRIES SECTOR..."
variant=${1:?$usage}
full=$(realpath "${2:?$usage}")
block_entries=${3:?$usage}
shift 3
[[ $# -gt 0 ]] || { echo "$usage" >&2; exit 1; }
morris=${MORRIS:-build/bin/morris}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

printf "%-10s %12s %12s %10s %8s\n" sector positions bytes bits/pos seconds
for sector in "$@"; do
    from="$scratch/from-$sector" to="$scratch/to-$sector"
    mkdir -p "$from" "$to"
    # Every sector file: compact reads the sector's successors; an empty file
    # of each name in the output marks all but the sample as done.
    for file in "$full"/"${variant}"_*.mdb; do
        name=$(basename "$file")
        ln -s "$file" "$from/$name"
        [[ $name == "${variant}_${sector}.mdb" ]] || : >"$to/$name"
    done
    start=$(date +%s.%N)
    "$morris" compact --variant "$variant" --db "$from" --out "$to" \
        --block-entries "$block_entries" --no-progress >/dev/null
    end=$(date +%s.%N)
    positions=$("$morris" sectors --variant "$variant" | awk -v s="$sector" '$1 == s {print $2}')
    bytes=$(stat -c %s "$to/${variant}_${sector}.mdb")
    awk -v s="$sector" -v n="$positions" -v b="$bytes" -v t0="$start" -v t1="$end" \
        'BEGIN { printf "%-10s %12d %12d %10.3f %8.1f\n", s, n, b, 8 * b / n, t1 - t0 }'
done
