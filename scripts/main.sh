#!/usr/bin/env bash
# The main job: installs what is missing, builds, solves Seven Men's Morris
# completely into db-seven/ (a minute or less on two cores; a rerun resumes
# and skips what is solved), verifies it, and prints the start position.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/setup.sh

variant=${1:-seven}
db=db-$variant
build/bin/morris solve --variant "$variant" --db "$db"
build/bin/morris verify --variant "$variant" --db "$db"
build/bin/morris query --variant "$variant" --db "$db" --moves ""
