#!/usr/bin/env bash
# Compares two builds of morris on units of an already solved database, side
# by side: for each unit both builds re-solve it at the same time, one thread
# each (scripts/bench-units.sh, which also compares the files' values).
# This virtual machine's speed drifts by 10-25% between hours, so two builds
# timed one after the other differ by the drift; run together they share it.
# The two slots are not equal either (one ran 14-34% slower than the other on
# some hosts), so each unit runs twice, the builds swapping slots,
# and the change is the geometric mean of the two runs' (ONE_ORDER=1: once,
# the old build first).
#
#   scripts/compare-builds.sh OLD_MORRIS NEW_MORRIS DB UNIT...
#   scripts/compare-builds.sh /tmp/old/bin/morris build/bin/morris db-nine 4-7 6-6 6-6-2-2
#
# NEW_DB and NEW_FLAGS give the new side a database and solve flags of its
# own (both default to the old side's: DB and SOLVE_FLAGS), to compare one
# build under two rule sets, e.g. the N-move rule against the plain game:
#   NEW_DB=db-nine-n100 NEW_FLAGS="--rule n_move=100" \
#       scripts/compare-builds.sh build/bin/morris build/bin/morris db-nine 6-6 5-5-1-1
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: scripts/compare-builds.sh OLD_MORRIS NEW_MORRIS DB UNIT..."
old=$(realpath "${1:?$usage}"); new=$(realpath "${2:?$usage}"); db=${3:?$usage}
old_flags=${SOLVE_FLAGS:-}
new_db=${NEW_DB:-$db} new_flags=${NEW_FLAGS-$old_flags}
shift 3
[[ $# -gt 0 ]] || { echo "$usage" >&2; exit 1; }
out=$(mktemp -d)
# Background runs ignore Ctrl-C: stop them with the script.
first_run=; second_run=
trap 'kill $first_run $second_run 2>/dev/null || true; rm -rf "$out"' EXIT

# Runs one unit with build $1 (flags $2, database $3) in the first slot and
# build $4 (flags $5, database $6) in the second, at the same time; leaves
# their bench-units.sh lines in $out/first and $out/second.
run_pair() {
    MORRIS=$1 SOLVE_FLAGS=$2 scripts/bench-units.sh "$3" 1 "$unit" >"$out/first" 2>&1 &
    first_run=$!
    MORRIS=$4 SOLVE_FLAGS=$5 scripts/bench-units.sh "$6" 1 "$unit" >"$out/second" 2>&1 &
    second_run=$!
    local failed=0
    wait $first_run || failed=1
    wait $second_run || failed=1
    first_run=; second_run=
    [[ $failed == 0 ]] || { cat "$out/first" "$out/second" >&2; exit 1; }
}

# "old 1st" and "new 1st": the change with that build in the first slot.
printf "%-8s %14s %10s %10s %8s %8s %8s %s\n" unit positions "old s" "new s" "old 1st" "new 1st" change files
different=0
for unit in "$@"; do
    # bench-units.sh prints a header, then: unit positions seconds ... files
    run_pair "$old" "$old_flags" "$db" "$new" "$new_flags" "$new_db"
    runs=$(paste <(tail -1 "$out/first") <(tail -1 "$out/second"))
    if [[ ${ONE_ORDER:-0} != 1 ]]; then
        run_pair "$new" "$new_flags" "$new_db" "$old" "$old_flags" "$db"
        runs+=$'\n'$(paste <(tail -1 "$out/second") <(tail -1 "$out/first"))
    fi
    # A line per order, old build first then new: the old build's fields,
    # then the new build's.
    line=$(echo "$runs" | awk '
        { n = NF / 2; old_s += $3; new_s += $(n + 3); unit = $1; positions = $2
          # The log rounds to 0.01 s: a unit that took 0 s changed by 0.
          ratio[NR] = $3 > 0 ? $(n + 3) / $3 : 1
          if ($n != "identical" || $NF != "identical") different = 1 }
        END {
            files = different ? "DIFFERENT" : "identical"
            new_first = NR > 1 ? sprintf("%+7.1f%%", (ratio[2] - 1) * 100) : "      --"
            mean = NR > 1 ? sqrt(ratio[1] * ratio[2]) : ratio[1]
            printf "%-8s %14d %10.2f %10.2f %+7.1f%% %s %+7.1f%% %s\n", unit, positions,
                   old_s / NR, new_s / NR, (ratio[1] - 1) * 100, new_first, (mean - 1) * 100, files
        }')
    echo "$line"
    [[ $line == *DIFFERENT ]] && different=1
done
exit $different
