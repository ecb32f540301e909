#!/usr/bin/env bash
# Measures the solver on single units of an already solved database: each
# unit is solved again from its solved children (a scratch directory of links
# to DB's files, the unit's own left out), timed, and its files' values
# compared with DB's. Prints positions, seconds, positions per second and per
# core, peak memory, and the seconds of each phase per unit (first pass,
# push, pull, win candidates, writing the files: `morris solve --stats`).
#
#   scripts/bench-units.sh DB [THREADS] UNIT...
#   scripts/bench-units.sh db-nine 2 8-8 7-8 3-8
#   SOLVE_FLAGS="--propagation push" scripts/bench-units.sh db-nine 2 3-8
#
# A moving-phase unit is named by one of its sectors' board counts (7-8 means
# 7-8-0-0 with 8-7-0-0), a placement sector by its key (7-7-1-1); the variant
# is read from DB's file names. Sectors joined by + are solved as one unit
# (8-8-2-2+8-8-2-1: siblings, walked together unless
# SOLVE_FLAGS=--no-sibling-walk).
set -euo pipefail
cd "$(dirname "$0")/.."
db=$(realpath "${1:?usage: scripts/bench-units.sh DB [THREADS] UNIT...}")
shift
threads=2
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then threads=$1; shift; fi
[[ $# -gt 0 ]] || { echo "no unit given" >&2; exit 1; }
morris=${MORRIS:-build/bin/morris}  # or another build
[[ -x $morris ]] || { echo "$morris not built (run scripts/setup.sh)" >&2; exit 1; }
# One file names the variant. (head -1 on a longer listing failed the script at
# random under pipefail: sed, still writing, got SIGPIPE once head had gone.)
first=$(find "$db" -maxdepth 1 -name '*.mdb' -print -quit)
variant=$(basename "${first:-none}" | sed -n 's/_[0-9-]*\.mdb$//p')
[[ -n $variant ]] || { echo "$db holds no database files" >&2; exit 1; }

# Files are compared by their values (`morris diff`), not their bytes: a
# build that compresses differently writes other bytes for the same values.
# CHECKER names the build that compares (default: MORRIS; one older than
# `morris diff --no-progress` leaves it to this tree's).
checker=${CHECKER:-$morris}
# (Its help read whole first: grep -q leaving a pipe early would fail it.)
has_diff() { [[ -x $1 ]] && grep -q -- '--no-progress' <<<"$("$1" diff --help 2>/dev/null)"; }
has_diff "$checker" || checker=build/bin/morris
if ! has_diff "$checker"; then
    echo "no build with \`morris diff --no-progress\` to compare files: set CHECKER" >&2
    exit 1
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
printf "%-6s %14s %9s %9s %12s %10s %7s %7s %7s %7s %7s %s\n" unit positions seconds "M pos/s" \
    "M pos/s/core" peak "1st" push pull cand write files
for unit in "$@"; do
    IFS=- read -r a b c d <<<"$unit"
    if [[ $unit == *+* ]]; then  # sectors solved as one unit (siblings: one walk)
        IFS=+ read -ra sectors <<<"$unit"
    elif [[ -n $c ]]; then  # a sector key: one placement sector
        sectors=("$unit")
    else
        sectors=("$a-$b-0-0")
        [[ $a != "$b" ]] && sectors+=("$b-$a-0-0")
    fi
    rm -rf "$scratch"/*
    for f in "$db"/*.mdb; do ln -s "$f" "$scratch/"; done
    for s in "${sectors[@]}"; do
        [[ -e $db/${variant}_$s.mdb ]] || { echo "$db has no sector $s" >&2; exit 1; }
        rm "$scratch/${variant}_$s.mdb"
    done
    "$morris" solve --variant "$variant" --db "$scratch" --sectors "$(IFS=,; echo "${sectors[*]}")" \
        --threads "$threads" --no-progress --stats ${SOLVE_FLAGS:-} >"$scratch/log" 2>&1 || { cat "$scratch/log" >&2; exit 1; }
    positions=0
    for s in "${sectors[@]}"; do
        positions=$((positions + $(awk -v s="$s" '$1 == s {print $2}' "$scratch/log")))
    done
    # The unit's time and peak memory are on its last sector's line.
    seconds=$(awk -v s="${sectors[-1]}" '$1 == s {sub(/s$/, "", $10); print $10}' "$scratch/log")
    peak=$(awk -v s="${sectors[-1]}" '$1 == s {print $11}' "$scratch/log")
    same=identical
    if ! "$checker" diff --variant "$variant" --db "$scratch" --against "$db" --no-progress \
        --sectors "$(IFS=,; echo "${sectors[*]}")" >"$scratch/diff" 2>&1; then
        same=DIFFERENT
        cat "$scratch/diff" >&2
    fi
    # The unit's phases are on its stats line: "first-pass S s ... push L
    # layers S s ... pull L layers S s ... candidates S s ... write S s".
    phases=$(awk '$1 == "stats" {
        for (i = 2; i < NF && $i != "scales"; ++i) {  # the line ends "scales push X pull Y"
            if ($i == "first-pass" || $i == "candidates" || $i == "write") s[$i] = $(i + 1)
            if ($i == "push" || $i == "pull") s[$i] = $(i + 3)
        }
        printf "%7.2f %7.2f %7.2f %7.2f %7.2f", s["first-pass"], s["push"], s["pull"],
               s["candidates"], s["write"] }' "$scratch/log" | tail -1)
    awk -v u="$unit" -v p="$positions" -v s="$seconds" -v t="$threads" -v k="$peak" \
        -v ph="$phases" -v f="$same" 'BEGIN {
        r = p / (s > 0 ? s : 0.005) / 1e6  # the log rounds to 0.01 s
        printf "%-6s %14d %9.2f %9.2f %12.2f %7.2f GiB %s %s\n", u, p, s, r, r / t, k, ph, f }'
done
