#!/usr/bin/env bash
# Names the host a speed figure was measured on, in about ten seconds: CPU,
# cores, where its caches end (a chase over 512 KiB to 32 MiB), memory
# latency over 64 MiB and 1 GiB, random updates with prefetch,
# sequential bandwidth, whether the solver's arrays get huge pages, what a
# page faulted in costs (bench/host.cpp), and whether freed memory goes
# back to a virtual machine's host. Quote its output with
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
# Whether the guest gives its free memory back to its host (virtio-balloon's
# free page reporting, feature bit 5): there memory freed and taken again
# costs its first page faults again, which is why a solve keeps what it
# frees up to its budget (docs/performance.md, "Memory").
reporting=no
for device in /sys/bus/virtio/drivers/virtio_balloon/virtio*; do
    features=$(cat "$device/features" 2>/dev/null) || continue
    [ "${features:5:1}" = 1 ] || continue
    reporting="free blocks go back to the host (virtio-balloon)"
    # The smallest block reported, as a page order (kernels since 5.14 say).
    order=$(cat /sys/module/page_reporting/parameters/page_reporting_order 2>/dev/null) || continue
    kib=$((4 << order))
    block=$([ "$kib" -ge 1024 ] && echo "$((kib >> 10)) MiB" || echo "$kib KiB")
    reporting="free blocks of $block and more go back to the host (virtio-balloon)"
done
echo "freed memory $reporting"
echo "load         $load (1, 5, 15 min: above 0 means something else ran)"
