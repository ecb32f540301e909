#!/usr/bin/env bash
# Summarises a solve log (DIR/solve.log, as written by scripts/solve-nine.sh
# or `morris solve ... | tee`): positions, seconds and rates by phase, the
# slowest units, and bytes per position on disk.
#
#   scripts/solve-report.sh db-nine/solve.log
#
# A unit of two sectors (9-8-0-0 with 8-9-0-0) logs two lines whose seconds
# both count from the unit's start: the unit's time is the second line's.
set -euo pipefail
log=${1:?usage: scripts/solve-report.sh SOLVE_LOG}

grep -E '^[0-9]+-[0-9]+-[0-9]+-[0-9]+ ' "$log" | awk '
function twin(a, b,   x, y) {  # b is a with the sides swapped
    split(a, x, "-"); split(b, y, "-")
    return x[1] == y[2] && x[2] == y[1] && x[3] == y[4] && x[4] == y[3]
}
function close_unit() {
    if (unit == "") return
    phase = (unit ~ /-0-0(\+|$)/) ? "moving" : "placement"
    count[phase]++; positions[phase] += unit_positions; seconds[phase] += unit_seconds
    units[++n] = sprintf("%10.1f s %14.0f positions %7.2f M/s  %s", unit_seconds, unit_positions,
                         unit_positions / (unit_seconds > 0 ? unit_seconds : 1e-9) / 1e6, unit)
    unit = ""
}
{
    key = $1; n_positions = $2; secs = $10; sub(/s$/, "", secs); bytes_total += $14
    if (unit != "" && twin(last, key)) {
        unit = unit "+" key; unit_positions += n_positions; unit_seconds = secs
    } else {
        close_unit()
        unit = key; unit_positions = n_positions; unit_seconds = secs
    }
    last = key; all_positions += n_positions
}
END {
    close_unit()
    printf "%-10s %6s %16s %10s %9s\n", "phase", "units", "positions", "seconds", "M pos/s"
    for (p in count)
        printf "%-10s %6d %16.0f %10.0f %9.2f\n", p, count[p], positions[p], seconds[p],
               positions[p] / seconds[p] / 1e6
    total = seconds["moving"] + seconds["placement"]
    printf "%-10s %6d %16.0f %10.0f %9.2f\n", "all", count["moving"] + count["placement"],
           all_positions, total, all_positions / total / 1e6
    printf "on disk: %.2f GB, %.3f bits per position\n", bytes_total / 1e9,
           8 * bytes_total / all_positions
    print "slowest units:"
    for (i = 1; i <= n; i++) print units[i] | "sort -rn | head -8"
}'
