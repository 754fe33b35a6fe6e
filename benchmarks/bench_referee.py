"""Random-playout throughput per game: actions validated per second (median of 5 runs); an
action is a card played, or a draw/discard/bid/contract in the games that have them.

Baseline named in the same run: the bare ``random.choice`` over pre-dealt cards without the
referee (``shuffle-only``), so the ratio shows what the referee costs. ``actions/CPU-s`` counts
the process's own CPU time, which other work on a shared machine disturbs far less than the
wall clock: compare code versions with it. The first line says which referee ran: the compiled
one (``make compiled``, then ``make bench`` puts it on ``PYTHONPATH``) or the interpreted one.
Run: .venv/bin/python benchmarks/bench_referee.py [--games subrosa dvoglavac ...]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

import referee.deal
from referee.deal import Mode
from referee.perft import specs
from referee.registry import load_game

DEALS = 30
RUNS = 5


def playout(spec: str, seed: int) -> tuple[int, float, float]:
    """(actions, wall seconds, CPU seconds) of ``DEALS`` seeded random deals."""
    game = load_game(spec)
    rng = random.Random(seed)
    plays = 0
    start, cpu = time.perf_counter(), time.process_time()
    for _ in range(DEALS):
        hands, setup = game.deal_cards(rng, dealer=0)
        deal = game.new_deal(dealer=0, hands=hands, setup=setup, mode=Mode.TABLE)
        while not deal.is_over:
            action = rng.choice(deal.legal_actions())
            deal.check(action)
            deal.play(action)
            plays += 1
    return plays, time.perf_counter() - start, time.process_time() - cpu


def baseline(seed: int) -> float:
    rng = random.Random(seed)
    cards = list(range(52))
    start = time.perf_counter()
    n = 0
    for _ in range(DEALS * 4):
        rng.shuffle(cards)
        for _c in cards:
            n += 1
    return n / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--games", nargs="+", metavar="SPEC", help="only these games and variants (as listed)"
    )
    args = parser.parse_args(argv)
    chosen = specs()
    if args.games:
        unknown = sorted(set(args.games) - set(chosen))
        if unknown:
            parser.error(
                f"unknown game or variant: {', '.join(unknown)} (known: {', '.join(chosen)})"
            )
        chosen = [s for s in chosen if s in args.games]
    base = statistics.median(baseline(s) for s in range(RUNS))
    compiled = not referee.deal.__file__.endswith(".py")
    print(f"referee: {'compiled (mypyc)' if compiled else 'interpreted'}, {referee.deal.__file__}")
    print(f"{'game':<34} {'actions/s (median)':>18} {'vs shuffle-only':>16} {'actions/CPU-s':>14}")
    print(f"{'shuffle-only baseline':<34} {base:>18,.0f} {1.0:>16.4f}")
    for spec in chosen:
        rates, cpu_rates = [], []
        for seed in range(RUNS):
            plays, seconds, cpu = playout(spec, seed)
            rates.append(plays / seconds)
            cpu_rates.append(plays / cpu)
        rate = statistics.median(rates)
        cpu_rate = statistics.median(cpu_rates)
        print(f"{spec:<34} {rate:>18,.0f} {rate / base:>16.4f} {cpu_rate:>14,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
