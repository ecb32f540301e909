#!/usr/bin/env python3
"""Compares two whole solves' logs (DIR/solve.log) sector by sector: seconds
by phase of the game in each, and for the units named, with the ratio new /
old. The logs may come from builds of any age: a unit's time is split evenly
over its sectors (units are read as scripts/solve-report.sh reads them), so
two builds that group sectors into units differently still compare.

    scripts/compare-logs.py OLD_LOG NEW_LOG [SECTOR[+SECTOR]...]
    scripts/compare-logs.py old/solve.log new/solve.log 8-8-0-0 7-8-0-0+8-7-0-0
"""
import re
import sys


def twins(a, b):
    """Whether sector b is sector a with the sides swapped."""
    x, y = a.split("-"), b.split("-")
    return x[0] == y[1] and x[1] == y[0] and x[2] == y[3] and x[3] == y[2]


def sector_seconds(path):
    """Each sector's share of its unit's seconds. A unit's sector lines all
    count seconds from the unit's start; a unit ends at its stats line where
    the log has them, otherwise where the next sector is not the last one's
    twin."""
    lines = [line.split() for line in open(path)]
    has_stats = any(f and f[0] == "stats" for f in lines)
    seconds, unit, unit_seconds = {}, [], 0.0

    def close():
        for sector in unit:
            seconds[sector] = unit_seconds / len(unit)
        unit.clear()

    for f in lines:
        if f and f[0] == "stats":
            close()
        elif len(f) > 10 and re.fullmatch(r"\d+-\d+-\d+-\d+", f[0]) and f[2] == "positions":
            if unit and not has_stats and not twins(unit[-1], f[0]):
                close()
            unit.append(f[0])
            unit_seconds = float(f[9].rstrip("s"))
    close()
    return seconds


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: scripts/compare-logs.py OLD_LOG NEW_LOG [SECTOR[+SECTOR]...]")
    old, new = sector_seconds(sys.argv[1]), sector_seconds(sys.argv[2])
    both = set(old) & set(new)
    if not both:
        sys.exit("compare-logs: the logs have no sector in common")

    def row(name, sectors):
        o, n = sum(old[s] for s in sectors), sum(new[s] for s in sectors)
        print(f"{name:24s} {o:9.1f} {n:9.1f} {n / o if o else float('nan'):8.3f}")

    print(f"{'':24s} {'old s':>9s} {'new s':>9s} {'new/old':>8s}")
    for phase, moving in (("placement", False), ("moving", True)):
        row(phase, [s for s in both if s.endswith("-0-0") == moving])
    row(f"all ({len(both)} sectors)", both)
    for unit in sys.argv[3:]:
        sectors = unit.split("+")
        missing = [s for s in sectors if s not in both]
        if missing:
            sys.exit(f"compare-logs: {', '.join(missing)} not in both logs")
        row(unit, sectors)


if __name__ == "__main__":
    main()
