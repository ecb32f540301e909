#!/usr/bin/env bash
# Generates the complete Nine Men's Morris database into DIR (see
# scripts/solve-variant.sh, which this calls), prints the start position's
# value and proves it by alpha-beta over the placement phase.
#
#   scripts/solve-nine.sh DIR [MEMORY_LIMIT]     e.g. scripts/solve-nine.sh db-nine 20G
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:?usage: scripts/solve-nine.sh DIR [MEMORY_LIMIT]}
exec scripts/solve-variant.sh nine "$dir" ${2:+--memory-limit "$2"}
