#!/usr/bin/env bash
# Generates a variant's complete database (every sector of valid positions,
# placement included) into DIR, prints the start position's value, then
# proves it by alpha-beta over the placement phase (place-only variants).
#
#   scripts/solve-variant.sh VARIANT DIR [OPTION...]
#   scripts/solve-variant.sh nine db-nine
#   scripts/solve-variant.sh nine db-nine-n100 --rule n_move=100 --memory-limit 20G
#
# OPTIONs go to every morris command (--rule, --memory-limit for solve and
# prove). Resumable: a killed run restarts where it stopped (finished sectors
# are skipped, a half-written one was never renamed into place). Each sector's
# positions, seconds, peak memory and bytes on disk are logged to standard
# output and to DIR/solve.log, with what each unit cost by phase (--stats);
# MORRIS names another build of morris, SOLVE_FLAGS adds options to its solve
# (SOLVE_FLAGS=--no-sibling-walk).
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: scripts/solve-variant.sh VARIANT DIR [OPTION...]"
variant=${1:?$usage}
dir=${2:?$usage}
shift 2
morris=${MORRIS:-build/bin/morris}
[ -x "$morris" ] || scripts/setup.sh
mkdir -p "$dir"

rules=() limit=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --rule) rules+=(--rule "${2:?--rule needs option=value}"); shift 2 ;;
        --memory-limit) limit=(--memory-limit "${2:?--memory-limit needs a size}"); shift 2 ;;
        *) echo "$usage (unknown option $1)" >&2; exit 1 ;;
    esac
done
common=(--variant "$variant" --db "$dir" "${rules[@]}")

"$morris" solve "${common[@]}" "${limit[@]}" --stats ${SOLVE_FLAGS:-} | tee -a "$dir/solve.log"
"$morris" info "${common[@]}" | tail -3 | tee -a "$dir/solve.log"
"$morris" query "${common[@]}" --moves "" | tee -a "$dir/solve.log"
# Last, as it is long: the independent alpha-beta proof of the start's value.
"$morris" prove "${common[@]}" "${limit[@]}" | tee -a "$dir/solve.log"
