#!/usr/bin/env bash
# Estimates how long solving the whole of nine takes with the current solver,
# without solving it: a fixed sample of units of a complete database DB is
# solved again (scripts/bench-units.sh, which also checks the files byte for
# byte), each phase's rate is the sample's positions over its seconds, and
# the estimate is each phase's positions in DB over its rate:
#
#   time = moving positions / moving rate + placement positions / placement rate
#
#   scripts/estimate-nine.sh DB [THREADS]     # 13-16 minutes with 2 threads
#
# The sample spans both phases and the sizes of units, from 51 million to
# 592 million positions. This machine's speed drifts by 10-25% between hours,
# so an estimate says little about one change: compare two builds with
# scripts/compare-builds.sh, which runs them side by side.
set -euo pipefail
cd "$(dirname "$0")/.."
db=${1:?usage: scripts/estimate-nine.sh DB [THREADS]}
threads=${2:-2}
morris=${MORRIS:-build/bin/morris}
moving=(3-8 4-7 5-8 6-6 9-9 8-8)
placement=(4-4-5-5 5-6-3-3 6-5-2-2 6-6-2-2 7-6-2-2 7-7-2-2 8-7-1-0 8-8-1-1)

sample=$(mktemp)
trap 'rm -f "$sample"' EXIT
scripts/bench-units.sh "$db" "$threads" "${moving[@]}" "${placement[@]}" | tee "$sample"
if grep -q DIFFERENT "$sample"; then
    echo "some re-solved files differ from $db: no estimate" >&2
    exit 1
fi

# Positions of each phase in DB: moving sectors have both hands empty.
"$morris" info --variant nine --db "$db" | awk -v sample="$sample" '
    BEGIN {
        while ((getline line < sample) > 0) {
            split(line, f, " ")
            if (f[1] == "unit") continue
            phase = (f[1] ~ /^[0-9]+-[0-9]+$/) ? "moving" : "placement"
            sampled[phase] += f[2]; seconds[phase] += f[3]
        }
    }
    $1 ~ /^[0-9]+-[0-9]+-[0-9]+-[0-9]+$/ {
        all[($1 ~ /-0-0$/) ? "moving" : "placement"] += $2
    }
    END {
        printf "\n%-10s %16s %14s %9s %16s\n", "phase", "positions", "sampled", "M pos/s", "estimate"
        for (p in all) {
            rate = sampled[p] / seconds[p]
            total += all[p] / rate
            printf "%-10s %16.0f %14.0f %9.2f %14.0f s\n", p, all[p], sampled[p], rate / 1e6, all[p] / rate
        }
        printf "%-10s %16.0f %14s %9s %14.0f s = %d h %02d min\n", "whole", all["moving"] + all["placement"],
               "", "", total, total / 3600, (total % 3600) / 60
    }'
