#!/usr/bin/env bash
# Estimates how long solving the whole of nine takes with the current solver,
# without solving it: a fixed sample of units of a complete database DB is
# solved again (scripts/bench-units.sh, which also compares the files' values
# with DB's), each kind's rate is the sample's positions over its seconds, and
# the estimate is each kind's positions in DB over its rate:
#
#   time = moving positions / moving rate
#        + paired placement positions / paired rate
#        + single placement positions / single rate
#
#   scripts/estimate-nine.sh DB [THREADS]     # 13-16 minutes with 2 threads
#
# Placement units are sampled as `morris solve` takes them: two sibling
# sectors walked together (184 units, 65% of the placement positions) or one
# sector alone (129 units), whose rates differ (docs/performance.md,
# "Siblings in one walk"); `morris sectors` says which sector is which. The
# sample spans the sizes of units, from 6 million to 842 million positions.
# This machine's speed drifts by 10-25% between hours, so an estimate says
# little about one change: compare two builds with scripts/compare-builds.sh,
# which runs them side by side.
set -euo pipefail
cd "$(dirname "$0")/.."
db=${1:?usage: scripts/estimate-nine.sh DB [THREADS]}
threads=${2:-2}
morris=${MORRIS:-build/bin/morris}
moving=(3-8 4-7 5-8 6-6 9-9 8-8)
paired=(4-4-5-4+4-4-5-5 6-5-2-1+6-5-2-2 6-6-2-1+6-6-2-2 7-7-2-1+7-7-2-2)
single=(5-6-3-3 6-7-2-2 7-8-1-1)

sample=$(mktemp)
trap 'rm -f "$sample"' EXIT
scripts/bench-units.sh "$db" "$threads" "${moving[@]}" "${paired[@]}" "${single[@]}" | tee "$sample"
if grep -q DIFFERENT "$sample"; then
    echo "some re-solved files differ from $db: no estimate" >&2
    exit 1
fi

# Positions of each kind in DB: moving sectors have both hands empty, and a
# placement sector is paired when its unit (the third column of `morris
# sectors`) has two sectors.
"$morris" sectors --variant nine | awk -v sample="$sample" '
    function kind(unit) {
        if (unit ~ /\+/) return "paired"
        return (unit ~ /^[0-9]+-[0-9]+$/) ? "moving" : "single"
    }
    BEGIN {
        while ((getline line < sample) > 0) {
            split(line, f, " ")
            if (f[1] == "unit") continue
            sampled[kind(f[1])] += f[2]; seconds[kind(f[1])] += f[3]
        }
    }
    $1 ~ /^[0-9]+-[0-9]+-[0-9]+-[0-9]+$/ { key[NR] = $1; positions[NR] = $2; unit[NR] = $3; ++in_unit[$3] }
    END {
        for (n in key) {
            k = (key[n] ~ /-0-0$/) ? "moving" : (in_unit[unit[n]] == 2 ? "paired" : "single")
            all[k] += positions[n]
        }
        printf "\n%-10s %16s %14s %9s %16s\n", "kind", "positions", "sampled", "M pos/s", "estimate"
        for (k in all) {
            rate = sampled[k] / seconds[k]
            total += all[k] / rate
            whole += all[k]
            printf "%-10s %16.0f %14.0f %9.2f %14.0f s\n", k, all[k], sampled[k], rate / 1e6, all[k] / rate
        }
        printf "%-10s %16.0f %14s %9s %14.0f s = %d h %02d min\n", "whole", whole, "", "", total,
               total / 3600, (total % 3600) / 60
    }'
