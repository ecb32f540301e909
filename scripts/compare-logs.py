#!/usr/bin/env python3
"""Compares two whole solves' logs (DIR/solve.log) sector by sector: seconds
by phase of the game in each, and for the units named, with the ratio new /
old. The logs may come from builds of any age: a unit's time is split evenly
over its sectors (units are read as scripts/solve-report.sh reads them), so
two builds that group sectors into units differently still compare.

    scripts/compare-logs.py OLD_LOG NEW_LOG [SECTOR[+SECTOR]...]
    scripts/compare-logs.py old/solve.log new/solve.log 8-8-0-0 7-8-0-0+8-7-0-0
"""
import os
import subprocess
import sys

REPORT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "solve-report.sh")


def sector_seconds(path):
    """Each sector's share of its unit's seconds, the units as
    scripts/solve-report.sh reads them."""
    report = subprocess.run([REPORT, "--units", path], capture_output=True, text=True)
    if report.returncode != 0:
        sys.exit(f"compare-logs: {report.stderr.strip() or 'solve-report.sh failed'}")
    seconds = {}
    for line in report.stdout.splitlines():
        unit, unit_seconds = line.split()[:2]
        sectors = unit.split("+")
        for sector in sectors:
            seconds[sector] = float(unit_seconds) / len(sectors)
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
