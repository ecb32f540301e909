#!/usr/bin/env bash
# The whole machinery end to end through the CLI (run by ctest as
# end_to_end_Slow): solve five, six and seven completely and nine restricted
# to small stone counts, verify every stored value, prove the small games'
# starts by alpha-beta over the placement phase, query the starts, and check
# that a killed solve resumes to the same files and that the unit benchmark
# re-solves units identically.
# Usage: end_to_end_test.sh path/to/morris
set -euo pipefail

morris=${1:?usage: $0 path/to/morris}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# expect_start VARIANT VALUE: the start position's value printed by query.
expect_start() {
    local line
    line=$("$morris" query --variant "$1" --db "$work/$1" --moves "" | grep "to move:")
    [[ $line == *": $2" ]] || fail "$1 start: got '$line', expected '$2'"
}

for variant in five six seven; do
    "$morris" solve --variant "$variant" --db "$work/$variant" --no-progress > "$work/$variant.log"
    "$morris" verify --variant "$variant" --db "$work/$variant" 2>/dev/null |
        grep -q "^0 inconsistent entries in" || fail "verify $variant"
    "$morris" prove --variant "$variant" --db "$work/$variant" 2>/dev/null > "$work/prove.txt"
    grep -q ", 0 disagree" "$work/prove.txt" || fail "prove $variant: $(cat "$work/prove.txt")"
done
# Known results (De Clercq; Gasser 1996 for nine): five and six are draws, seven
# is a first-player win in 25 plies.
expect_start five draw
expect_start six draw
expect_start seven "win 25"
# A node limit stops the proof short, says so and fails.
if "$morris" prove --variant seven --db "$work/seven" --max-nodes 1000 > "$work/prove.txt" 2>/dev/null; then
    fail "prove with --max-nodes 1000 succeeded"
fi
grep -q "stopped after 1000 placement positions" "$work/prove.txt" || fail "$(cat "$work/prove.txt")"
grep -q "start is a draw" <(
    "$morris" prove --variant six --db "$work/six" 2>/dev/null) || fail "prove six is not a draw"
# A memory limit the proof cannot keep refuses it with one error line.
if "$morris" prove --variant six --db "$work/six" --memory-limit 1K 2> "$work/prove.err" >/dev/null; then
    fail "prove within 1 KiB succeeded"
fi
grep -q "^morris: error: .*memory limit" "$work/prove.err" || fail "$(cat "$work/prove.err")"

# The solve report counts every position the solve logged, in whole units.
report=$("$(dirname "$0")/../scripts/solve-report.sh" "$work/seven.log")
total=$("$morris" info --variant seven --db "$work/seven" 2>/dev/null | awk '$1 == "total" {print $2}')
[[ $(awk '$1 == "all" {print $3}' <<< "$report") == "$total" ]] ||
    fail "solve report of seven: $report (info total $total)"
grep -q "^moving " <<< "$report" && grep -q "^placement " <<< "$report" ||
    fail "solve report of seven lacks a phase: $report"

# Nine's moving phase up to 4-4 (3-3, 3-4, 4-3, 4-4), verified.
"$morris" solve --variant nine --db "$work/nine" --sectors 4-4-0-0 --no-progress > /dev/null
"$morris" verify --variant nine --db "$work/nine" --sectors 3-3-0-0,3-4-0-0,4-3-0-0,4-4-0-0 \
    2>/dev/null | grep -q "^0 inconsistent entries in" || fail "verify nine"

# The unit benchmark re-solves units of a solved database, value for value:
# nine's moving 3-4 with 4-3, and seven's placement sector 3-3-1-1.
bench=$(MORRIS="$morris" "$(dirname "$0")/../scripts/bench-units.sh" "$work/nine" 2 3-4)
[[ $(awk '$1 == "3-4" {print $2, $NF}' <<< "$bench") == "1520796 identical" ]] ||
    fail "bench-units nine 3-4: $bench"
# Its phases' seconds (first pass, push, pull, candidates, write) come from
# the stats line: a moving unit spends some in push or pull.
awk '$1 == "3-4" && NF == 13 && $9 + $10 > 0 {ok = 1} END {exit !ok}' <<< "$bench" ||
    fail "bench-units nine 3-4 lacks its phases: $bench"
bench=$(MORRIS="$morris" "$(dirname "$0")/../scripts/bench-units.sh" "$work/seven" 1 3-3-1-1)
[[ $(awk '$1 == "3-3-1-1" {print $NF}' <<< "$bench") == "identical" ]] ||
    fail "bench-units seven 3-3-1-1: $bench"

# Resume: a solve killed at once leaves no half file; solving again rebuilds
# the deleted sectors byte for byte.
cp -r "$work/six" "$work/six-copy"
rm "$work/six/six_4-4-1-1.mdb" "$work/six/six_6-5-0-0.mdb"
(timeout -s KILL 0.2 "$morris" solve --variant six --db "$work/six" --no-progress > /dev/null) 2>/dev/null || true
"$morris" solve --variant six --db "$work/six" --no-progress > /dev/null
diff -r "$work/six" "$work/six-copy" > /dev/null || fail "resumed six differs"
echo "end to end: ok"
