#!/usr/bin/env python3
"""Checks a WDL-only database (morris compact) against its full database on
positions of random games, every phase included: the WDL probe must give
the full database's value. Prints the count compared and the WDL probes'
mean and slowest time. Needs the Python module on PYTHONPATH (build/python).

    scripts/sample-wdl.py VARIANT FULL_DIR WDL_DIR [GAMES]
"""
import random
import sys
import time

import morris


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    variant, full_dir, wdl_dir = sys.argv[1:4]
    games = int(sys.argv[4]) if len(sys.argv) > 4 else 200
    full = morris.open(full_dir, variant)
    wdl = morris.open(wdl_dir, variant)
    rng = random.Random(20261202)
    compared = wrong = 0
    slowest = total = 0.0
    for _ in range(games):
        moves = []
        while True:
            position = " ".join(moves)
            expected = full.probe(position).value
            start = time.perf_counter()
            got = wdl.probe_wdl(position)
            elapsed = time.perf_counter() - start
            total += elapsed
            slowest = max(slowest, elapsed)
            compared += 1
            if got != expected:
                wrong += 1
                print(f"WRONG: {position!r}: WDL {got}, full {expected}")
            turns = full.turns(position)
            if not turns or len(moves) >= 200:
                break
            moves.append(rng.choice(turns).text)
    print(f"{compared} positions of {games} random games: {wrong} differ; WDL probe "
          f"(from Python, cache warming) mean {1e6 * total / compared:.1f} us, "
          f"slowest {1e6 * slowest:.0f} us")
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
