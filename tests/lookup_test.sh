#!/usr/bin/env bash
# Engines' view of the databases: programs linked with the lookup library
# alone (tests/lookup_only.cpp, C++) or with its C interface, libmorris.so
# (tests/c_api_test.c, C) load no OpenMP runtime, answer as `morris query`
# does on solved databases with and without the N-move rule, and name a
# damaged file instead of crashing.
#
#   tests/lookup_test.sh MORRIS PROGRAM...  (each run as PROGRAM DIR VARIANT RULES POSITION...)
set -euo pipefail
morris=$1
shift
db=$(mktemp -d)
trap 'rm -rf "$db"' EXIT
"$morris" solve --variant five --db "$db/five" --no-progress >/dev/null
"$morris" solve --variant five --db "$db/five-n9" --rule n_move=9 --no-progress >/dev/null
"$morris" compact --variant five --db "$db/five" --out "$db/five-wdl" --no-progress >/dev/null

# What morris query says of each position: its value line, then its turn
# lines "<turn> <value>".
query() {
    local dir=$1 rules=$2 position=$3
    "$morris" query "$position" --variant five --db "$dir" ${rules:+--rule "$rules"} |
        awk '/to move: /{sub(/.*to move: /, ""); sub(/ \(.*/, ""); print; next}
             started {sub(/ \(.*/, ""); $1 = $1; print} /^turn /{started = 1}'
}

plain=()
for moves in "" "a1 b2 a3 c2" "a1 b2 a3 c2 a5xb2"; do
    plain+=("$("$morris" query --variant five --db "$db/five" --moves "$moves" --json |
        sed 's/.*"position": "\([^"]*\)".*/\1/')")
done
moving="W.W.B.B.W.B.W.B. w 0 0"
counted=("$moving 0" "$moving 4" "$moving 6" "${plain[1]}")

cp -r "$db/five" "$db/damaged"
start_sector=$(ls "$db/damaged" | grep -e '_0-0-5-5\.')
truncate -s 100 "$db/damaged/$start_sector"

for program in "$@"; do
    name=$(basename "$program")
    if ldd "$program" | grep -q -e gomp -e libomp; then
        echo "FAIL: $name loads an OpenMP runtime:" >&2
        ldd "$program" >&2
        exit 1
    fi
    for run in "five||plain" "five-n9|n_move=9|counted"; do
        IFS='|' read -r dir rules list <<<"$run"
        declare -n positions=$list
        expected=""
        for position in "${positions[@]}"; do
            expected+=$(query "$db/$dir" "$rules" "$position")$'\n'
        done
        wdl=()
        [[ $dir == five ]] && wdl=(env MORRIS_WDL_DIR="$db/five-wdl")  # read by c_api_test
        actual=$("${wdl[@]}" "$program" "$db/$dir" five "$rules" "${positions[@]}")$'\n'
        if [[ $expected != "$actual" ]]; then
            echo "FAIL: $name disagrees with morris query on $dir" >&2
            diff <(echo "$expected") <(echo "$actual") >&2 || true
            exit 1
        fi
        unset -n positions
    done
    if error=$("$program" "$db/damaged" five "" "${plain[0]}" 2>&1); then
        echo "FAIL: $name answered from a truncated file: $error" >&2
        exit 1
    fi
    if [[ $error != *"$start_sector"* ]]; then
        echo "FAIL: $name's error does not name the damaged file: $error" >&2
        exit 1
    fi
    echo "$name agrees with morris query, loads no OpenMP runtime, names a damaged file"
done
