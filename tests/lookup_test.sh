#!/usr/bin/env bash
# The lookup library stands alone: a program linked with morris_lookup only
# (tests/lookup_only.cpp) does not load OpenMP's runtime, and answers as
# `morris query` does on a solved database.
#
#   tests/lookup_test.sh MORRIS LOOKUP_ONLY
set -euo pipefail
morris=$1 lookup=$2
if ldd "$lookup" | grep -q -e gomp -e libomp; then
    echo "FAIL: $lookup loads an OpenMP runtime:" >&2
    ldd "$lookup" >&2
    exit 1
fi
db=$(mktemp -d)
trap 'rm -rf "$db"' EXIT
"$morris" solve --variant five --db "$db" --no-progress >/dev/null
for moves in "" "a1 b2 a3 c2" "a1 b2 a3 c2 a5xb2"; do
    position=$("$morris" query --variant five --db "$db" --moves "$moves" --json |
        sed 's/.*"position": "\([^"]*\)".*/\1/')
    # query's turn lines: "<turn>  <value>" after the header; the value line first.
    expected=$("$morris" query --variant five --db "$db" "$position" |
        awk '/to move: /{sub(/.*to move: /, ""); print; next}
             started {$1 = $1; print} /^turn /{started = 1}')
    actual=$("$lookup" "$db" five "$position")
    if [[ $expected != "$actual" ]]; then
        echo "FAIL: $position" >&2
        diff <(echo "$expected") <(echo "$actual") >&2 || true
        exit 1
    fi
done
echo "lookup_only agrees with morris query and loads no OpenMP runtime"
