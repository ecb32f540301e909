#!/usr/bin/env bash
# Times one-shot `morris query` runs on nine, what a user or a script that
# calls the command once per position waits for: the process starts, opens
# the database, builds the tables its sectors need and answers. Each build
# answers each position REPEAT times, builds alternating; prints the median
# and fastest wall seconds of each build on each position.
#
#   scripts/time-queries.sh DB [REPEAT] [MORRIS...]
#   scripts/time-queries.sh db-nine 9 /tmp/old/bin/morris build/bin/morris
set -euo pipefail
cd "$(dirname "$0")/.."
db=${1:?usage: scripts/time-queries.sh DB [REPEAT] [MORRIS...]}
shift
repeat=9
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then repeat=$1; shift; fi
builds=("$@")
[[ ${#builds[@]} -gt 0 ]] || builds=(build/bin/morris)

# An opening (a placement sector with few stones), six stones each on the
# board with three each in hand, and a moving position of nine against eight.
positions=(
    "--moves=d2 f4 d6"
    "WWB.WB.BWB.WB.W.B....... w 3 3"
    "WWB.WB.BWB.WB.W.BWB.WBW. w 0 0"
)
names=(opening placement moving)

seconds() {  # wall seconds of one query
    local start end
    start=$(date +%s.%N)
    "$1" query --db "$db" "$2" >/dev/null
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}

printf "%-10s %-40s %9s %9s\n" position build median fastest
for p in "${!positions[@]}"; do
    declare -A times=()
    for ((r = 0; r < repeat; ++r)); do
        for b in "${builds[@]}"; do times[$b]+="$(seconds "$b" "${positions[p]}") "; done
    done
    for b in "${builds[@]}"; do
        read -ra runs <<<"${times[$b]}"
        sorted=$(printf "%s\n" "${runs[@]}" | sort -n)
        median=$(sed -n "$(((repeat + 1) / 2))p" <<<"$sorted")
        fastest=$(head -1 <<<"$sorted")
        printf "%-10s %-40s %9.3f %9.3f\n" "${names[p]}" "$b" "$median" "$fastest"
    done
    unset times
done
