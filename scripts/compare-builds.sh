#!/usr/bin/env bash
# Compares two builds of morris on units of an already solved database, side
# by side: for each unit both builds re-solve it at the same time, one thread
# each (scripts/bench-units.sh, which also checks the files byte for byte).
# This virtual machine's speed drifts by 10-25% between hours, so two builds
# timed one after the other differ by the drift; run together they share it
# (one build against itself agrees within 1-3%).
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
new_db=${NEW_DB:-$db} new_flags=${NEW_FLAGS-${SOLVE_FLAGS:-}}
shift 3
[[ $# -gt 0 ]] || { echo "$usage" >&2; exit 1; }
out=$(mktemp -d)
old_run=; new_run=
# Background runs ignore Ctrl-C: stop them with the script.
trap 'kill $old_run $new_run 2>/dev/null || true; rm -rf "$out"' EXIT
printf "%-8s %14s %10s %10s %8s %s\n" unit positions "old s" "new s" change files
different=0
for unit in "$@"; do
    MORRIS=$old scripts/bench-units.sh "$db" 1 "$unit" >"$out/old" 2>&1 &
    old_run=$!
    MORRIS=$new SOLVE_FLAGS=$new_flags scripts/bench-units.sh "$new_db" 1 "$unit" >"$out/new" 2>&1 &
    new_run=$!
    failed=0
    wait $old_run || failed=1
    wait $new_run || failed=1
    old_run=; new_run=
    [[ $failed == 0 ]] || { cat "$out/old" "$out/new" >&2; exit 1; }
    # bench-units.sh prints a header, then: unit positions seconds ... files
    line=$(paste <(tail -1 "$out/old") <(tail -1 "$out/new") | awk '{
        n = NF / 2; files = ($n == "identical" && $NF == "identical") ? "identical" : "DIFFERENT"
        change = $3 > 0 ? ($(n + 3) / $3 - 1) * 100 : 0  # the log rounds to 0.01 s
        printf "%-8s %14d %10.2f %10.2f %+7.1f%% %s\n", $1, $2, $3, $(n + 3), change, files
    }')
    echo "$line"
    [[ $line == *DIFFERENT ]] && different=1
done
exit $different
