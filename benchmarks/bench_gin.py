"""Gin rummy hands replayed per second: Kibic vs. pyspiel's Python loop, on the same hands.

The hands are played once by the seeded OpenSpiel harness of tests/test_gin_openspiel.py;
then, timed separately, Kibic replays their transcripts (``referee.transcript.replay``) and
pyspiel re-applies their recorded actions (chance outcomes included) one ``apply_action`` at a
time from a new initial state. Needs ``open_spiel`` (a test-only dependency).

    .venv/bin/python benchmarks/bench_gin.py [--hands 500]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    try:
        import pyspiel
    except ImportError:
        print("bench_gin: pyspiel is not installed (pip install open_spiel==2.0.2)")
        return 0
    import test_gin_openspiel as oracle

    from referee.transcript import replay

    harness = oracle.Harness()
    hands = [harness.play(seed) for seed in range(args.hands)]
    hands = [h for h in hands if not h.capped]
    transcripts = [
        json.loads(json.dumps({"game": "gin-rummy", "options": oracle.OPTIONS, "deals": [h.deal]}))
        for h in hands
    ]
    game = pyspiel.load_game(oracle.GAME_STRING)

    def run_kibic() -> None:
        for data in transcripts:
            replay(data)

    def run_pyspiel() -> None:
        for hand in hands:
            state = game.new_initial_state()
            for action in hand.actions:
                state.apply_action(action)
            state.returns()

    results = {}
    for name, fn in (("kibic", run_kibic), ("pyspiel", run_pyspiel)):
        best = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            fn()
            best = min(best, time.perf_counter() - start)
        results[name] = len(hands) / best
    actions = sum(len(h.actions) for h in hands)
    print(f"gin rummy: {len(hands)} hands, {actions} OpenSpiel actions (chance included)")
    for name, rate in results.items():
        print(f"  {name:8s} {rate:10.0f} hands/s")
    print(f"  ratio    {results['kibic'] / results['pyspiel']:10.2f} (kibic / pyspiel)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
