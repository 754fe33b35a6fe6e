"""Legal-play counts ("perft") from fixed seeded deals: catches rule bugs nothing else finds.

Perft follows ``Deal.perft_actions`` (the legal actions, with Dvoglavi Lav's bid amounts
counted one per class).

``python -m referee.perft --write GAME`` stores the counts in tests/golden/perft_<game>.json;
tests/test_perft.py recomputes them.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from referee.deal import Deal, Mode
from referee.game import Game
from referee.registry import all_games, load_game

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden"
SEEDS = (1, 2, 3)
PREFIXES = (0, 6, 15)  # random legal actions played before counting: start, mid-deal, later
DEPTH = 4


def perft(deal: Deal, depth: int) -> int:
    """The number of legal action sequences of length ``depth`` (shorter if the deal ends)."""
    if depth == 0 or deal.is_over:
        return 1
    total = 0
    for action in deal.perft_actions():
        deal.play(action)
        total += perft(deal, depth - 1)
        deal.undo()
    return total


def fixed_deal(game: Game, seed: int, prefix: int = 0) -> Deal:
    """A seeded deal after ``prefix`` seeded random legal actions."""
    rng = random.Random(seed)
    hands, setup = game.deal_cards(rng, dealer=seed % game.players)
    deal = game.new_deal(dealer=seed % game.players, hands=hands, setup=setup, mode=Mode.TABLE)
    for _ in range(prefix):
        if deal.is_over:
            break
        deal.play(rng.choice(deal.perft_actions()))
    return deal


def counts(game: Game, *, depth: int = DEPTH) -> dict[str, Any]:
    rows = []
    for seed in SEEDS:
        for prefix in PREFIXES:
            deal = fixed_deal(game, seed, prefix)
            rows.append(
                {
                    "seed": seed,
                    "prefix": prefix,
                    "counts": [perft(deal, d) for d in range(1, depth + 1)],
                }
            )
    return {"game": game.spec, "depth": depth, "deals": rows}


def specs() -> list[str]:
    """Every registered game plus the variants each class lists in ``perft_variants``."""
    out: list[str] = []
    for cls in all_games():
        out.append(cls.name)
        out.extend(getattr(cls, "perft_variants", ()))
    return out


def golden_path(spec: str) -> Path:
    safe = spec.replace("(", "_").replace(")", "").replace("=", "-").replace(",", "_")
    return GOLDEN / f"perft_{safe}.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", help="game names (default: all)")
    parser.add_argument("--write", action="store_true", help="write the golden files")
    args = parser.parse_args(argv)
    wanted = args.games or specs()
    for spec in wanted:
        game = load_game(spec)
        names = [spec] if "(" in spec else [spec, *getattr(type(game), "perft_variants", ())]
        for name in names:
            data = counts(load_game(name))
            if args.write:
                GOLDEN.mkdir(parents=True, exist_ok=True)
                golden_path(name).write_text(json.dumps(data) + "\n", encoding="utf-8")
        sys.stdout.write(json.dumps(data) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
