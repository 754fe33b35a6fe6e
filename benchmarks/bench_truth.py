"""Refereeing truth at scale: per game and variant, seeded legal deals refereed from the table
alone (false accusations must be 0) and seeded deals with one play duty broken at a random
moment (proven at the first card that proves it, late, never, before it was provable; the
penalty checked against RULES.md). Prints the per-game table and the time of the run.

Run: .venv/bin/python benchmarks/bench_truth.py [--deals 1000] [--broken N] [--game SPEC ...]
(the issue's full run: --deals 10000)
"""

from __future__ import annotations

import argparse
import sys
import time

from referee.perft import specs
from referee.truth import HEADER, check_game, table_lines

DEALS = 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=DEALS, help="legal deals per game")
    parser.add_argument("--broken", type=int, help="broken deals per game (default: --deals)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", action="append", help="a game or variant (default: all)")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    reports = []
    sys.stdout.write(HEADER + "\n")
    for spec in args.game or specs():
        reports.append(check_game(spec, deals=args.deals, broken=args.broken, seed=args.seed))
        sys.stdout.write(table_lines(reports[-1:])[-1] + "\n")
        sys.stdout.flush()
    broken = args.deals if args.broken is None else args.broken
    sys.stdout.write(
        f"{len(reports)} games, {args.deals} legal + {broken} broken deals each: "
        f"{time.perf_counter() - start:.1f} s; clean: {all(r.ok for r in reports)}\n"
    )
    for r in reports:
        for example in r.examples:
            sys.stdout.write(f"{r.spec}: {example['kind']}: {example}\n")
    return 0 if all(r.ok for r in reports) else 1


if __name__ == "__main__":
    sys.exit(main())
