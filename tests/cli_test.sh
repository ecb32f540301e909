#!/usr/bin/env bash
# End-to-end test of the morris command-line tool (run by ctest as cli_test).
# Usage: cli_test.sh path/to/morris
# Checks known outputs of `morris perft` and `morris turns`, and that bad input
# gets exactly one "morris: error:" line on stderr and a non-zero exit code
# that is not a crash (not >= 128, i.e. no signal).
set -euo pipefail

if [[ $# -ne 1 || ! -x $1 ]]; then
    echo "usage: $0 path/to/morris" >&2
    exit 2
fi
morris=$1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

failures=0
fail() {
    echo "FAIL: $*" >&2
    failures=$((failures + 1))
}

# expect_output EXPECTED ARGS...: morris ARGS succeeds and prints exactly EXPECTED.
expect_output() {
    local expected=$1 actual rc=0
    shift
    actual=$("$morris" "$@" 2>"$work/stderr") || rc=$?
    if [[ $rc -ne 0 ]]; then
        fail "morris $* exited $rc: $(cat "$work/stderr")"
    elif [[ $actual != "$expected" ]]; then
        fail "morris $* printed '$actual', expected '$expected'"
    fi
}

# expect_lines COUNT ARGS...: morris ARGS succeeds and prints COUNT lines.
expect_lines() {
    local expected=$1 lines rc=0
    shift
    "$morris" "$@" >"$work/stdout" 2>"$work/stderr" || rc=$?
    lines=$(wc -l <"$work/stdout")
    if [[ $rc -ne 0 ]]; then
        fail "morris $* exited $rc: $(cat "$work/stderr")"
    elif [[ $lines -ne $expected ]]; then
        fail "morris $* printed $lines lines, expected $expected"
    fi
}

# expect_error ARGS...: morris ARGS fails cleanly with one error line.
expect_error() {
    local rc=0 lines
    "$morris" "$@" >"$work/stdout" 2>"$work/stderr" || rc=$?
    lines=$(wc -l <"$work/stderr")
    if [[ $rc -eq 0 ]]; then
        fail "morris $* succeeded, expected an error"
    elif [[ $rc -ge 128 ]]; then
        fail "morris $* crashed (exit code $rc): $(cat "$work/stderr")"
    elif [[ $lines -ne 1 ]]; then
        fail "morris $* wrote $lines lines to stderr, expected 1: $(cat "$work/stderr")"
    elif [[ $(head -n 1 "$work/stderr") != "morris: error: "* ]]; then
        fail "morris $* wrote '$(cat "$work/stderr")', expected 'morris: error: ...'"
    fi
}

start="........................ w 9 9"

# Known figures.
expect_output 12144 perft --variant nine --depth 3
expect_output 1 perft --variant nine --depth 0
expect_output 24 perft --variant nine --depth 1 "$start"
expect_lines 24 turns --variant nine "$start"
expect_lines 16 turns --variant five "................ w 5 5"
# A turn list from the start is a position too: 24 - 2 points taken.
expect_lines 22 turns --variant nine "d2 d6"
# White to move with 2 stones has lost.
expect_output loss turns --variant nine "WW..........BBB......... w 0 0"

# Bad input: unknown variant, bad rules.
expect_error perft --variant ten --depth 1
expect_error perft --variant nine --rule flying=4 --depth 1
expect_error perft --variant nine --rule nosuchrule=1 --depth 1
expect_error perft --variant nine --rule flying --depth 1
# Malformed positions.
expect_error turns --variant nine "......................... w 9 9"
expect_error turns --variant nine "X....................... w 9 9"
expect_error turns --variant nine "........................ x 9 9"
expect_error turns --variant nine "........................ w 9 8"
expect_error turns --variant nine "........................ w -1 9"
expect_error turns --variant nine "........................ w 99999999999 9"
expect_error turns --variant nine "WWWWWWWWWWBBB........... w 0 0"
expect_error turns --variant nine "WWW.........BB.......... w 0 0"
expect_error perft --variant five --depth 1 "........................ w 9 9"
# Illegal or malformed turns.
expect_error turns --variant nine "d2 d2"
expect_error turns --variant nine "a1-a4"
expect_error turns --variant nine "d2xg7"
expect_error turns --variant nine "h8"
expect_error turns --variant nine "a1-a4-a7"

# sectors: the table, and the unit that needs the most memory: in nine, the
# moving unit of the two largest sectors (8-9 and 9-8, with no stone in hand).
"$morris" sectors --variant nine >"$work/sectors"
[ "$(grep -cE '^[0-9]+-[0-9]+-[0-9]+-[0-9]+ ' "$work/sectors")" -eq 546 ] ||
    fail "sectors: nine's table does not list 546 sectors"
grep -qE '^largest unit: 8-9-0-0\+9-8-0-0, about [0-9]+ MiB while it is solved$' "$work/sectors" ||
    fail "sectors: $(tail -1 "$work/sectors")"
# Its unit column: 8-9 and 9-8 are one unit, solved after all 8-8 needs.
unit_of() { awk -v s="$1" '$1 == s {print $3}' "$work/sectors"; }
[ -n "$(unit_of 8-9-0-0)" ] && [ "$(unit_of 8-9-0-0)" == "$(unit_of 9-8-0-0)" ] &&
    [ "$(unit_of 8-8-0-0)" -lt "$(unit_of 8-9-0-0)" ] ||
    fail "sectors: units of 8-8, 8-9, 9-8: $(unit_of 8-8-0-0) $(unit_of 8-9-0-0) $(unit_of 9-8-0-0)"

# A partial database is verified as far as it goes, naming what is missing.
"$morris" solve --variant five --db "$work/five-part" --sectors 3-3-0-0 --no-progress >/dev/null
"$morris" verify --variant five --db "$work/five-part" >"$work/verify" 2>/dev/null ||
    fail "verify of a partial database failed: $(cat "$work/verify")"
grep -q "^0 inconsistent entries in 1 sectors verified" "$work/verify" ||
    fail "verify of a partial database: $(tail -1 "$work/verify")"
grep -q "sectors are not in" "$work/verify" || fail "verify does not name the missing sectors"
expect_error verify --variant five --db "$work/none"

# The whole run's progress ends with a line counting all the targets need,
# the same when the run resumes: what an earlier run wrote counts as done.
for run in first again; do
    "$morris" solve --variant five --db "$work/five-progress" --sectors 3-3-2-2 >/dev/null \
        2>"$work/progress-$run"
done
sectors_done() {
    tr '\r' '\n' <"$work/progress-$1" | tail -1 |
        sed -nE 's/^five: ([0-9]+ of [0-9]+) sectors, .* \(100\.0%\) in .*/\1/p'
}
first=$(sectors_done first)
[[ $first =~ ^([0-9]+)\ of\ ([0-9]+)$ && ${BASH_REMATCH[1]} == "${BASH_REMATCH[2]}" &&
    ${BASH_REMATCH[1]} -gt 1 && $(sectors_done again) == "$first" ]] ||
    fail "solve's run progress: '$(tail -c 200 "$work/progress-first")' then" \
        "'$(tail -c 200 "$work/progress-again")'"

# --stats: a line per unit, under its last sector's, that solve-report.sh sums.
"$morris" solve --variant five --db "$work/five-stats" --stats --no-progress >"$work/stats-log"
units=$(grep -c '^stats ' "$work/stats-log")
sectors=$(grep -cE '^[0-9]+-[0-9]+-[0-9]+-[0-9]+ ' "$work/stats-log")
[ "$units" -gt 20 ] && [ "$units" -le "$sectors" ] ||
    fail "solve --stats: $units stats lines for $sectors sectors"
"$(dirname "$0")/../scripts/solve-report.sh" "$work/stats-log" >"$work/stats-report"
grep -qE '^all +[0-9.]+ +[0-9.]+ ' "$work/stats-report" || fail "solve-report.sh sums no stats lines"
# compare-logs.py splits each unit's time over its sectors, whether a log
# ends units at stats lines (today's) or at twins (builds before --stats).
sector_line() { echo "$1 100 positions 50 wins 0 draws 50 losses $2s 0.1 GiB peak 10 bytes"; }
{
    sector_line 5-6-0-0 10.00
    sector_line 6-5-0-0 12.00
    sector_line 4-4-1-1 3.00
    sector_line 4-4-1-0 2.00
} >"$work/old-style-log"
{
    sector_line 5-6-0-0 4.00
    sector_line 6-5-0-0 6.00
    echo "stats 6-5-0-0 200 positions"
    sector_line 4-4-1-1 1.00
    sector_line 4-4-1-0 2.00
    echo "stats 4-4-1-0 200 positions"
} >"$work/new-style-log"
"$(dirname "$0")/../scripts/compare-logs.py" "$work/old-style-log" "$work/new-style-log" \
    6-5-0-0 4-4-1-1 | tr -s ' ' >"$work/compare-logs" || fail "compare-logs.py failed"
printf '%s\n' "placement 5.0 2.0 0.400" "moving 12.0 6.0 0.500" "all (4 sectors) 17.0 8.0 0.471" \
    "6-5-0-0 6.0 3.0 0.500" "4-4-1-1 3.0 1.0 0.333" | cmp -s - <(tail -n +2 "$work/compare-logs") ||
    fail "compare-logs.py: $(tail -n +2 "$work/compare-logs" | tr '\n' ';')"
! "$(dirname "$0")/../scripts/compare-logs.py" "$work/old-style-log" "$work/no-log" \
    2>"$work/compare-error" >/dev/null && [ "$(wc -l <"$work/compare-error")" -eq 1 ] ||
    fail "compare-logs.py on a missing log: $(cat "$work/compare-error")"
# Siblings are one unit by default and two with --no-sibling-walk: a stats
# line fewer, the same files. 3-3-1-1 and 3-3-1-0 are siblings.
"$morris" solve --variant five --db "$work/five-one-walk" --sectors 3-3-1-1,3-3-1-0 --stats \
    --no-progress --no-sibling-walk >"$work/stats-one-walk"
for k in 3-3-1-1 3-3-1-0; do
    cmp -s "$work/five-stats/five_$k.mdb" "$work/five-one-walk/five_$k.mdb" ||
        fail "--no-sibling-walk: five_$k.mdb differs"
done
grep -q '^stats 3-3-1-1 20224 positions ' "$work/stats-log" &&
    grep -q '^stats 3-3-1-1 10112 positions ' "$work/stats-one-walk" &&
    grep -q '^stats 3-3-1-0 10112 positions ' "$work/stats-one-walk" ||
    fail "--no-sibling-walk: 3-3-1-1 and 3-3-1-0 are not one unit with the walk, two without"
# A solve runs itself again with a huge-page heap in one arena (added to
# GLIBC_TUNABLES, a user's other tunables kept), unless the user chose the
# heap's pages: --stats names them.
huge='glibc.malloc.hugetlb=1:glibc.malloc.arena_max=1'
grep -qx "heap huge pages (GLIBC_TUNABLES=$huge)" "$work/stats-log" ||
    fail "solve --stats: the heap is not on huge pages: $(grep '^heap' "$work/stats-log")"
GLIBC_TUNABLES=glibc.malloc.tcache_count=0 "$morris" solve --variant five --db "$work/five-heap" \
    --sectors 3-3-0-0 --stats --no-progress >"$work/heap-kept" ||
    fail "solve with GLIBC_TUNABLES set failed"
grep -qx "heap huge pages (GLIBC_TUNABLES=glibc.malloc.tcache_count=0:$huge)" "$work/heap-kept" ||
    fail "solve with other tunables set: $(grep '^heap' "$work/heap-kept")"
GLIBC_TUNABLES=glibc.malloc.hugetlb=0 "$morris" solve --variant five --db "$work/five-heap" \
    --sectors 3-3-0-0 --stats --no-progress >"$work/heap-chosen" ||
    fail "solve with glibc.malloc.hugetlb=0 failed"
grep -qx 'heap 4 KiB pages (GLIBC_TUNABLES=glibc.malloc.hugetlb=0)' "$work/heap-chosen" ||
    fail "solve with glibc.malloc.hugetlb=0: $(grep '^heap' "$work/heap-chosen")"
# diff: the values of a database against another's. The sibling walk's run
# (3-3-1-1, 3-3-1-0 and what they need) holds what the whole run's does; the
# whole run has sectors it lacks (exit 1, counted); a WDL copy holds other
# values (win/draw/loss only) in every sector; a truncated file is an error,
# not a difference.
walked=$(find "$work/five-one-walk" -name '*.mdb' | wc -l)
expect_output "$walked sectors hold the same values, 0 differ, 0 are in one database only" \
    diff --variant five --db "$work/five-one-walk" --against "$work/five-stats"
rc=0
"$morris" diff --no-progress --variant five --db "$work/five-stats" \
    --against "$work/five-one-walk" >"$work/diff" || rc=$?
[[ $rc -eq 1 ]] && grep -qE "^$walked sectors hold the same values, 0 differ, [1-9][0-9]* are in " \
    "$work/diff" && grep -q "^0-0-5-5: not in $work/five-one-walk" "$work/diff" ||
    fail "diff against a partial database: exit $rc, $(tail -1 "$work/diff")"
"$morris" compact --variant five --db "$work/five-stats" --out "$work/five-wdl" --no-progress \
    >/dev/null
rc=0
"$morris" diff --no-progress --variant five --db "$work/five-wdl" --against "$work/five-stats" \
    >"$work/diff" || rc=$?
wdl=$(find "$work/five-wdl" -name '*.mdb' | wc -l)
[[ $rc -eq 1 && $(grep -c ': differs from position 0 on$' "$work/diff") -eq $wdl ]] &&
    grep -q "^0 sectors hold the same values, $wdl differ, 0 are in one database only$" \
        "$work/diff" || fail "diff of a WDL copy: exit $rc, $(tail -1 "$work/diff")"
mkdir "$work/five-cut"
head -c 200 "$work/five-stats/five_3-3-1-1.mdb" >"$work/five-cut/five_3-3-1-1.mdb"
expect_error diff --variant five --db "$work/five-stats" --against "$work/five-cut" \
    --sectors 3-3-1-1
cp "$work/five-stats/five_3-3-1-0.mdb" "$work/five-cut/five_3-3-1-1.mdb"
expect_error diff --variant five --db "$work/five-stats" --against "$work/five-cut" \
    --sectors 3-3-1-1
expect_error diff --variant five --db "$work/none" --against "$work/five-stats"
expect_error diff --variant five --db "$work/five-stats" --against "$work/five-one-walk" \
    --sectors 9-9-0-0
# A block damaged behind a sound header and index: found when compared.
cp "$work/five-stats/five_3-3-1-1.mdb" "$work/five-cut/five_3-3-1-1.mdb"
size=$(stat -c %s "$work/five-cut/five_3-3-1-1.mdb")
printf '\xff\xff\xff\xff' | dd of="$work/five-cut/five_3-3-1-1.mdb" bs=1 seek=$((size - 40)) \
    conv=notrunc status=none
expect_error diff --variant five --db "$work/five-stats" --against "$work/five-cut" \
    --sectors 3-3-1-1

# estimate-variant.py finds every unit of the log, and with --only those a
# sector needs: 3-3-1-0 needs 3-4-0-0, 4-3-0-0 and 3-3-0-0, and is solved
# with its sibling 3-3-1-1 (10,112 positions).
estimate="$(dirname "$0")/../scripts/estimate-variant.py"
MORRIS="$morris" "$estimate" five "$work/stats-log" >"$work/estimate"
grep -q "^logged: 1,006,923 positions in " "$work/estimate" ||
    fail "estimate-variant.py: $(grep logged "$work/estimate")"
grep -qE "^whole five: 1,006,923 positions, estimated [0-9]+ s" "$work/estimate" ||
    fail "estimate-variant.py: $(tail -1 "$work/estimate")"
MORRIS="$morris" "$estimate" five "$work/stats-log" --only 3-3-1-0 >"$work/estimate"
grep -q "^logged: 80,716 positions in " "$work/estimate" ||
    fail "estimate-variant.py --only: $(grep logged "$work/estimate")"

# The N-move rule: the option, and the counter as a fifth field.
expect_error perft --variant nine --rule n_move=0 --depth 1
expect_error perft --variant nine --rule n_move=x --depth 1
expect_error perft --variant nine --rule n_move=-5 --depth 1
expect_lines 24 turns --variant nine --rule n_move=50 "$start 49"
expect_error turns --variant nine --rule n_move=50 "$start 50"
expect_error turns --variant nine --rule n_move=50 "$start -1"
expect_error turns --variant nine --rule n_move=50 "$start x"
expect_error turns --variant nine "$start 3"
"$morris" solve --variant five --rule n_move=9 --db "$work/five-n9" --no-progress >/dev/null
expect_lines 1 query --variant five --rule n_move=9 --db "$work/five-n9" --json "................ w 5 5"
if ! "$morris" query --variant five --rule n_move=9 --db "$work/five-n9" --json \
    "................ w 5 5" | grep -q '"counter": 0'; then
    fail "query --json under n_move has no counter"
fi
expect_error query --variant five --db "$work/five-n9" "................ w 5 5"
expect_error query --variant five --rule n_move=10 --db "$work/five-n9" "................ w 5 5"
expect_error query --variant five --rule n_move=9 --db "$work/five-n9" --plain-db "$work/none" \
    "................ w 5 5"

# Sanmill's FEN: read wherever a position is, by query --fen, and written in --json.
fen="O@O@O@**/********/******** w m s 3 0 3 0 0 0 0 0 0 0 0 0 1"
expect_lines 24 turns --variant nine "********/********/******** w p p 0 9 0 9 0 0 0 0 0 0 0 0 1"
"$morris" solve --variant nine --db "$work/nine-3-3" --sectors 3-3-0-0 --no-progress >/dev/null
expect_lines 1 query --variant nine --db "$work/nine-3-3" --json --fen "$fen"
if ! "$morris" query --variant nine --db "$work/nine-3-3" --json "......B....WW..BWB...... w 0 0" |
    grep -qF "\"fen\": \"$fen\""; then
    fail "query --json does not write the position's FEN"
fi
expect_error query --variant nine --db "$work/nine-3-3" --fen "......B....WW..BWB...... w 0 0"
expect_error query --variant nine --db "$work/nine-3-3" --fen "${fen/w m s/w m r}"
expect_error query --variant nine --db "$work/nine-3-3" --fen "$fen" "$fen"
expect_error turns --variant five "********/********/******** w p p 0 5 0 5 0 0 0 0 0 0 0 0 1"

# A database of twelve answers under its other name, morabaraba.
"$morris" solve --variant twelve --db "$work/twelve" --sectors 3-3-0-0 --no-progress >/dev/null
twelve_3_3="WWW.........BBB......... w 0 0"
if [[ $("$morris" query --variant morabaraba --db "$work/twelve" "$twelve_3_3" --json) != \
      "$("$morris" query --variant twelve --db "$work/twelve" "$twelve_3_3" --json)" ]]; then
    fail "morabaraba and twelve answer differently from one database"
fi

# morris play: turns typed on standard input, answers from the database.
"$morris" solve --variant five --db "$work/five" --no-progress >/dev/null
win_in_1="WW.......WB..BB. w 0 0"  # White: c5-a5 closes a mill, Black is left with 2
play() { "$morris" play --variant five --db "$work/five" "$@" 2>&1; }
out=$(printf 'zz\nturns\nc5-a5xd2\n' | play --position "$win_in_1") ||
    fail "play exited $?: $out"
for needle in "unknown point 'zz'" "Legal turns: a1-c1" "c5-a5xd2     win 1" "White wins"; do
    [[ $out == *"$needle"* ]] || fail "play as White lacks '$needle': $out"
done
out=$(play --as black --position "$win_in_1" </dev/null) || fail "play exited $?: $out"
[[ $out == *"morris plays c5-a5x"*"White wins"* ]] || fail "play as Black: $out"
out=$(play </dev/null) || fail "play exited $?: $out"
[[ $out == *"Game left at"* ]] || fail "play at end of input: $out"
expect_error play --variant five --db "$work/five" --as green
expect_error play --variant five --db "$work/none"
expect_error play --variant five --db "$work/five" --position "a1 a1"

if [[ $failures -ne 0 ]]; then
    echo "cli_test: $failures failure(s)" >&2
    exit 1
fi
echo "cli_test: all passed"
