#!/usr/bin/env bash
# How much of a solve's wall time ran on fewer threads than it had, and what
# ran then: from a profile of the running solver,
#
#   perf record -e cpu-clock -F 99 -p "$(pgrep -f 'morris solve')" -o solve.perf
#   scripts/serial-time.sh solve.perf
#
# A thread sampled at F Hz leaves F/10 samples in each tenth of a second it
# runs: a tenth with at most (threads - 1) times that (and a quarter to
# spare) had a thread idle. Prints the share of such tenths and the
# functions sampled in them, most first: the code that keeps the other
# threads waiting. Seconds are a host's; the share travels between hosts.
# The team is the threads holding a twentieth of the samples or more.
set -euo pipefail
data=${1:?usage: scripts/serial-time.sh PERF_DATA}
hz=$(perf report -i "$data" --header-only 2>/dev/null | sed -n "s/.*sample_freq } = \([0-9]*\).*/\1/p" | head -1)
[[ -n $hz ]] || { echo "$data: no sample frequency in its header (perf record -F HZ)" >&2; exit 1; }
perf script -i "$data" -F tid,time,ip,sym 2>/dev/null | awk -v hz="$hz" '
/^ *[0-9]+ +[0-9]+\.[0-9]+:/ {
    tid = $1; tenth = int($2 * 10); threads[tid]++; total++
    samples[tenth]++
    if (first == "" || tenth < first) first = tenth
    if (tenth > last) last = tenth
    name = $0; sub(/^ *[0-9]+ +[0-9.]+: +[0-9a-f]+ /, "", name)
    by[tenth SUBSEP substr(name, 1, 70)]++
}
END {
    # The team: threads with a share of the samples. A thread that writes
    # a unit'"'"'s files (a new one each unit) runs a second or two.
    n = 0; for (t in threads) if (threads[t] >= total / 20) n++
    short = (n - 1) * hz / 10 * 1.25
    for (t = first; t <= last; t++) if (samples[t] + 0 <= short) idle++
    printf "%d threads sampled at %d Hz over %.1f s: %.1f s (%.1f%%) with a thread idle\n",
           n, hz, (last - first + 1) / 10, idle / 10, 100 * idle / (last - first + 1)
    for (k in by) { split(k, part, SUBSEP); if (samples[part[1]] <= short) where[part[2]] += by[k] }
    print "sampled then (seconds of one thread):"
    for (w in where) printf "%8.1f  %s\n", where[w] / hz, w | "sort -rn | head -15"
}'
