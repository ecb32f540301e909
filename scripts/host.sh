#!/usr/bin/env bash
# Names the host a speed figure was measured on, in about ten seconds: CPU,
# cores, where its caches end (a chase over 512 KiB to 32 MiB), memory
# latency over 64 MiB and 1 GiB, random updates with prefetch,
# sequential bandwidth, whether the solver's arrays get huge pages, and
# what a page faulted in costs (bench/host.cpp). Quote its output with
# every figure: the solve is bound by memory latency, which differs 2-3
# times between hosts.
#
#   scripts/host.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
[ -x "$build/bin/morris_host" ] || cmake --build "$build" --target morris_host >/dev/null
load=$(cut -d' ' -f1-3 /proc/loadavg)
"$build/bin/morris_host"
echo "load         $load (1, 5, 15 min: above 0 means something else ran)"
