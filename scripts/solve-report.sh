#!/usr/bin/env bash
# Summarises a solve log (DIR/solve.log, as written by scripts/solve-nine.sh
# or `morris solve ... | tee`): positions, seconds and rates by phase, the
# slowest units, and bytes per position on disk; and where the log has the
# units' stats lines (`morris solve --stats`, which scripts/solve-variant.sh
# passes), their seconds and far memory accesses a position by solver phase
# (solver/stats.hpp): the count travels between hosts, the seconds do not.
#
#   scripts/solve-report.sh db-nine/solve.log
#   scripts/solve-report.sh --units db-nine/solve.log   # a line a unit, in log order:
#                                                       # its sectors (+), seconds, positions
#
# A unit of two sectors (9-8-0-0 with 8-9-0-0, or two sibling placement
# sectors walked together) logs two lines whose seconds both count from the unit's
# start: the unit's time is the second line's. A unit ends at its stats line
# where the log has them, and otherwise where the next sector is not the
# last one's with the sides swapped.
set -euo pipefail
units_only=0
[[ ${1:-} == --units ]] && units_only=1 && shift
log=${1:?usage: scripts/solve-report.sh [--units] SOLVE_LOG}
[[ -r $log ]] || { echo "solve-report: cannot read $log" >&2; exit 1; }
has_stats=0
grep -qE '^stats ' "$log" && has_stats=1

grep -E '^([0-9]+-[0-9]+-[0-9]+-[0-9]+|stats) ' "$log" | awk -v has_stats=$has_stats -v units_only=$units_only '
function twin(a, b,   x, y) {  # b is a with the sides swapped
    split(a, x, "-"); split(b, y, "-")
    return x[1] == y[2] && x[2] == y[1] && x[3] == y[4] && x[4] == y[3]
}
function close_unit() {
    if (unit == "") return
    if (units_only) { print unit, unit_seconds, unit_positions; unit = ""; return }
    phase = (unit ~ /-0-0(\+|$)/) ? "moving" : "placement"
    count[phase]++; positions[phase] += unit_positions; seconds[phase] += unit_seconds
    units[++n] = sprintf("%10.1f s %14.0f positions %7.2f M/s  %s", unit_seconds, unit_positions,
                         unit_positions / (unit_seconds > 0 ? unit_seconds : 1e-9) / 1e6, unit)
    unit = ""
}
$1 == "stats" { close_unit(); next }
{
    key = $1; n_positions = $2; secs = $10; sub(/s$/, "", secs); bytes_total += $14
    if (unit != "" && (has_stats || twin(last, key))) {
        unit = unit "+" key; unit_positions += n_positions; unit_seconds = secs
    } else {
        close_unit()
        unit = key; unit_positions = n_positions; unit_seconds = secs
    }
    last = key; all_positions += n_positions
}
END {
    close_unit()
    if (units_only) exit
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
((units_only)) && exit 0

{ grep -E '^stats ' "$log" || true; } | awk '
{
    n = $3
    split((($2 ~ /-0-0$/) ? "moving" : "placement") " all", phases)
    for (k in phases) {
        p = phases[k]; positions[p] += n
        first_s[p] += $6; first_r[p] += $8 * n; first_w[p] += $10 * n
        push_s[p] += $15; push_w[p] += $17 * n
        pull_s[p] += $22; pull_r[p] += $24 * n
        cand_s[p] += $27; cand_w[p] += $29 * n
        write_s[p] += $32
    }
}
function row(p,   n) {
    if (!(p in positions)) return
    n = positions[p]
    printf "%-10s %8.1f %5.2f %5.2f %8.1f %5.2f %8.1f %5.2f %8.1f %5.2f %8.1f %6.2f\n", p,
           first_s[p], first_r[p] / n, first_w[p] / n, push_s[p], push_w[p] / n, pull_s[p],
           pull_r[p] / n, cand_s[p], cand_w[p] / n, write_s[p],
           (first_r[p] + first_w[p] + push_w[p] + pull_r[p] + cand_w[p]) / n
}
END {
    if (length(positions) == 0) exit
    print ""
    print "by solver phase: seconds (wall), far accesses a position (r reads, w writes)"
    printf "%-10s %20s %14s %14s %14s %8s %6s\n", "", "first pass", "push", "pull",
           "candidates", "write", "far"
    printf "%-10s %8s %5s %5s %8s %5s %8s %5s %8s %5s %8s %6s\n", "phase", "s", "r", "w", "s",
           "w", "s", "r", "s", "w", "s", "a pos"
    row("placement"); row("moving"); row("all")
}'
