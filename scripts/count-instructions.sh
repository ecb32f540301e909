#!/usr/bin/env bash
# Counts the instructions builds of morris execute to re-solve one unit of an
# already solved database, per position: a figure that, unlike seconds, is
# the same on every host and in every hour (this virtual machine's speed
# drifts by 10-30%, more than most changes gain). Each build runs under
# valgrind's callgrind, one thread, all at once (the counts do not depend on
# sharing the cores), and its files' values are compared with DB's
# (scripts/bench-units.sh).
#
#   scripts/count-instructions.sh DB UNIT MORRIS...
#   scripts/count-instructions.sh db-nine 5-5-2-2 /tmp/old/bin/morris build-v3/bin/morris
#
# Valgrind decodes no AVX-512, so the builds must not use it: configure them
# with cmake -B build-v3 -DCMAKE_BUILD_TYPE=Release -DMORRIS_NATIVE=OFF
# -DCMAKE_CXX_FLAGS=-march=x86-64-v3 (AVX2 and BMI2, what most hosts have).
# Under valgrind a unit takes about 50 times as long: 5-5-2-2 of nine (31 M
# positions) about 4 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: scripts/count-instructions.sh DB UNIT MORRIS..."
db=${1:?$usage}
unit=${2:?$usage}
shift 2
[[ $# -gt 0 ]] || { echo "$usage" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "valgrind is not installed (apt-get install valgrind)" >&2; exit 1; }
out=$(mktemp -d)
runs=()
trap 'kill "${runs[@]}" 2>/dev/null || true; rm -rf "$out"' EXIT

for morris in "$@"; do
    [[ -f $morris && -x $morris ]] || { echo "$morris is not a program" >&2; exit 1; }
done
for k in $(seq 1 $#); do
    morris=$(realpath "${!k}")
    # bench-units.sh runs $MORRIS: let it run the build under callgrind.
    # The heap's pages chosen, so that the solve does not run itself again
    # for huge pages (tools/morris.cpp), which would leave callgrind: its
    # allocator replaces glibc's anyway.
    cat >"$out/morris-$k" <<EOF
#!/bin/sh
GLIBC_TUNABLES=glibc.malloc.hugetlb=0 exec valgrind --tool=callgrind \\
    --callgrind-out-file="$out/calls-$k" -q "$morris" "\$@"
EOF
    chmod +x "$out/morris-$k"
    CHECKER=$morris MORRIS=$out/morris-$k scripts/bench-units.sh "$db" 1 "$unit" >"$out/bench-$k" 2>&1 &
    runs+=($!)
done
failed=0
for run in "${runs[@]}"; do wait "$run" || failed=1; done
runs=()
[[ $failed == 0 ]] || { cat "$out"/bench-* >&2; exit 1; }

printf "%-8s %14s %18s %12s %s\n" unit positions instructions "a position" files
for k in $(seq 1 $#); do
    # bench-units.sh's last line: unit positions seconds ... files
    read -r name positions _ _ _ _ _ files < <(tail -1 "$out/bench-$k")
    instructions=$(sed -n 's/^summary: //p' "$out/calls-$k")
    awk -v u="$name" -v p="$positions" -v i="$instructions" -v f="$files" -v m="${!k}" \
        'BEGIN { printf "%-8s %14.0f %18.0f %12.1f %s  %s\n", u, p, i, (p > 0 ? i / p : 0), f, m }'
done
