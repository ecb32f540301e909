#!/usr/bin/env python3
"""Estimates how long a whole variant takes to solve from a partial solve's log.

    scripts/estimate-variant.py VARIANT LOG [--only SECTOR,...]
    scripts/estimate-variant.py lasker db-lasker/solve.log

LOG is what `morris solve` printed (DIR/solve.log of scripts/solve-variant.sh):
a line per sector written, with its positions and seconds. Every unit of the
variant (`morris sectors`, whose unit column numbers the sets of sectors that
are solved together) is put in a class by its kind and size:

    kind: moving (both hands empty), placing (a turn only places) or mixed
          (a turn may place or move: lasker);
    sectors: one, or two (a sector and its colour-swapped twin, between
          which every move goes: slower a position than one sector of the
          same size, whose moves stay in cache longer; or two sibling
          placement sectors walked together: faster a position);
    size: its positions, under 10 M, 10-100 M, 100-400 M, 400 M-1 G, more.

Each class's rate is the positions of the logged units of that class over
their seconds; a class with no logged unit borrows the rate of the nearest
logged size of its kind and sectors, the larger first (larger units are
slower per position), else of its kind, and is marked '*'. The estimate is

    time = sum over classes of (positions of the class / its rate)

--only SECTOR,... keeps from LOG only the units those sectors need (what
`morris solve --sectors` would solve, but a pair of siblings whole: the log
times the two together): to check the method on a complete log by
estimating the whole from a part of it. MORRIS names the build.
"""
import argparse
import os
import re
import subprocess
import sys

SIZES = [(10e6, "<10M"), (100e6, "10-100M"), (400e6, "100-400M"), (1e9, "400M-1G"),
         (float("inf"), "1G+")]
SECTOR_LINE = re.compile(r"^(\d+-\d+-\d+-\d+) +(\d+) positions .* ([0-9.]+)s +[0-9.]+ GiB peak")


def read_sectors(morris, variant):
    """Sector -> (positions, successors), and the units (lists of sectors, in
    the order they are solved) from `morris sectors`."""
    out = subprocess.run([morris, "sectors", "--variant", variant], check=True,
                         capture_output=True, text=True).stdout
    sectors, units = {}, {}
    for line in out.splitlines():
        fields = line.split()
        if len(fields) >= 3 and fields[1].isdigit():
            sectors[fields[0]] = (int(fields[1]), fields[3:])
            units.setdefault(int(fields[2]), []).append(fields[0])
    return sectors, [units[u] for u in sorted(units)]


def needed(sectors, targets):
    """The targets and every sector they lead to."""
    seen, todo = set(targets), list(targets)
    while todo:
        for child in sectors[todo.pop()][1]:
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


def has_hands(sector):
    """Whether a side of SECTOR (W-B-w-b) has stones in hand."""
    return sector.split("-")[2:] != ["0", "0"]


def kind(variant_moves_while_placing, unit):
    if not any(has_hands(s) for s in unit):
        return "moving"
    return "mixed" if variant_moves_while_placing else "placing"


def size_class(positions):
    return next(i for i, (limit, _) in enumerate(SIZES) if positions < limit)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant")
    parser.add_argument("log")
    parser.add_argument("--only", help="comma-separated sectors: keep the units they need")
    args = parser.parse_args()
    morris = os.environ.get("MORRIS", os.path.join(os.path.dirname(__file__), "../build/bin/morris"))

    sectors, units = read_sectors(morris, args.variant)
    unit_of = {s: i for i, unit in enumerate(units) for s in unit}
    # A variant moves while placing when some unit with stones in hand holds
    # a cycle: sectors that lead to each other or to themselves (siblings,
    # solved together, lead to neither).
    mixed = any(t in sectors[s][1] for u in units if any(has_hands(s) for s in u)
                for s in u for t in u)

    # A unit's seconds: its sectors' lines all count from the unit's start.
    # A sector logged again was solved again (a log appended to by a resumed
    # run): its unit's earlier lines are dropped.
    seconds, logged = {}, {}
    with open(args.log) as log:
        for line in log:
            match = SECTOR_LINE.match(line)
            if match and match.group(1) in unit_of:
                u = unit_of[match.group(1)]
                if match.group(1) in logged.get(u, set()):
                    del logged[u], seconds[u]
                # The log has hundredths: a unit logged at 0.00 s took less than 0.005.
                seconds[u] = max(seconds.get(u, 0.0), float(match.group(3)), 0.005)
                logged.setdefault(u, set()).add(match.group(1))
    solved = {u for u, members in logged.items() if len(members) == len(units[u])}
    if args.only:
        targets = args.only.split(",")
        if unknown := [s for s in targets if s not in sectors]:
            sys.exit(f"not sectors of {args.variant}: {', '.join(unknown)}")
        keep = {unit_of[s] for s in needed(sectors, targets)}
        solved &= keep

    # (kind, sectors, size) -> [units, positions, logged positions, logged seconds]
    classes = {}
    for u, unit in enumerate(units):
        positions = sum(sectors[s][0] for s in unit)
        key = (kind(mixed, unit), min(len(unit), 2), size_class(positions))
        c = classes.setdefault(key, [0, 0, 0, 0.0])
        c[0] += 1
        c[1] += positions
        if u in solved:
            c[2] += positions
            c[3] += seconds[u]

    def rate(k, n, size):
        order = sorted(range(len(SIZES)), key=lambda s: (abs(s - size), -s))
        for m in (n, 3 - n):
            for s in order:
                c = classes.get((k, m, s))
                if c and c[2]:
                    return c[2] / c[3], (m, s) != (n, size)
        return None, True

    print(f"{'kind':8} {'sectors':>7} {'size':9} {'units':>6} {'positions':>16} {'logged':>15} "
          f"{'M pos/s':>9} {'estimate':>10}")
    total = 0.0
    for (k, n, size), (count, positions, sampled, _) in sorted(classes.items()):
        r, borrowed = rate(k, n, size)
        if r is None:
            sys.exit(f"no logged unit of kind {k}: no estimate")
        total += positions / r
        mark = "*" if borrowed else " "
        print(f"{k:8} {n:7} {SIZES[size][1]:9} {count:6} {positions:16,} {sampled:15,} "
              f"{r / 1e6:8.2f}{mark} {positions / r:9.0f} s")
    logged_positions = sum(c[2] for c in classes.values())
    logged_seconds = sum(c[3] for c in classes.values())
    print(f"logged: {logged_positions:,} positions in {logged_seconds:.0f} s")
    print(f"whole {args.variant}: {sum(c[1] for c in classes.values()):,} positions, "
          f"estimated {total:.0f} s = {int(total // 3600)} h {int(total % 3600 // 60):02d} min")


if __name__ == "__main__":
    main()
