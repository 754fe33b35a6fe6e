"""The hand check (``vision.hands``): the synthetic tables of ``bench_vision.py`` with each check,
the same tables on a skin-coloured wooden table, and what the check costs.

    python benchmarks/bench_hands.py [--games 2] [--json OUT]

Sections: (1) ``synthetic_tables``, ``synthetic_tables_index_cards``,
``synthetic_tables_demo_design`` and ``synthetic_tables_demo_design_index_cards`` of
``bench_vision.py`` (the same games, counted the same way), once with the hand check ``skin``
(any skin-coloured region is a hand) and once with ``table`` (the table's own colour, wood grain
and a card's print are no hand); (2) the same held-out tables on light oak
(``vision.synthetic.Surface.WOOD``) with each check; (3) the median ms of the hand check on one
core for a 1280x720 frame of eight cards with an arm over the mat, felt and oak.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench_vision  # noqa: E402

from referee.cards import Deck  # noqa: E402
from vision import synthetic  # noqa: E402
from vision.hands import HandCheck, HandConfig, find_hands  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402
from vision.tracker import CardTracker, TrackerConfig  # noqa: E402

SECTIONS = {
    "synthetic_tables": {},
    "synthetic_tables_index_cards": {"index_cards": True},
    "synthetic_tables_demo_design": {"held_out": False},
    "synthetic_tables_demo_design_index_cards": {"held_out": False, "index_cards": True},
}


def _counts(result: dict[str, Any]) -> dict[str, str]:
    """Per deck: committed right / asked / wrong (card or seat) / missed / extra events."""
    return {deck: f"{r['committed_right']}/{r['confirmations']}/"
                  f"{r['wrong_card'] + r['wrong_seat']}/{r['missed']}/{r['extra_events']}"
            for deck, r in result.items()}  # fmt: skip


def tables(rec: Recognizer, games: int, check: HandCheck, **options: Any) -> dict[str, str]:
    """``bench_vision.synthetic_tables`` with the tracker's hand check ``check``."""
    config = TrackerConfig(hands=HandConfig(check=check))
    plain = bench_vision.CardTracker
    bench_vision.CardTracker = partial(CardTracker, config=config)  # type: ignore[misc, assignment]
    try:
        return _counts(bench_vision.synthetic_tables(rec, games, **options))
    finally:
        bench_vision.CardTracker = plain  # type: ignore[misc]


def on_wood(rec: Recognizer, games: int, check: HandCheck) -> dict[str, str]:
    """The held-out synthetic tables played on light oak, with the hand check ``check``."""
    plain = synthetic.SyntheticTable
    synthetic.SyntheticTable = partial(plain, surface=synthetic.Surface.WOOD)  # type: ignore[misc, assignment]
    try:
        return tables(rec, games, check)
    finally:
        synthetic.SyntheticTable = plain  # type: ignore[misc]


def cost(surface: synthetic.Surface) -> dict[str, float]:
    """Median ms of the hand check (each kind) on a frame of eight cards and an arm."""
    table = synthetic.SyntheticTable(bench_vision_plays(), n_seats=8, deck=Deck.PIQUET_32,
                                     seed=77, fast=True, surface=surface)  # fmt: skip
    last = table.placements[-1].settled_frame - 1  # the last card lies, the arm over it
    frame = table.render(last)
    tracker = CardTracker(Recognizer(threads=1), table.calibration, deck=Deck.PIQUET_32)
    area = tracker._expected_card_area()
    out = {}
    for check in HandCheck:
        config = HandConfig(check=check)
        times = []
        for _ in range(30):
            t = time.perf_counter()
            find_hands(frame, card_area_px=area, config=config)
            times.append((time.perf_counter() - t) * 1000)
        out[check.value] = round(statistics.median(times), 2)
    return out


def bench_vision_plays() -> list[tuple[int, Any]]:
    """The eight plays of ``bench_vision.py``'s speed frame."""
    return synthetic.random_plays(Deck.PIQUET_32, 8, 77, count=8)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    rec = Recognizer(threads=1)
    results: dict[str, Any] = {"counts": "committed right/asked/wrong/missed/extra events"}
    for name, options in SECTIONS.items():
        results[name] = {check.value: tables(rec, args.games, check, **options)
                         for check in HandCheck}  # fmt: skip
        print(f"== {name}\n{json.dumps(results[name], indent=1)}", flush=True)
    wood = results["synthetic_tables_on_wood"] = {
        check.value: on_wood(rec, args.games, check) for check in HandCheck
    }
    print(f"== synthetic_tables_on_wood\n{json.dumps(wood, indent=1)}", flush=True)
    ms = results["hand_check_ms"] = {s.value: cost(s) for s in synthetic.Surface}
    print(f"== hand_check_ms (median, one core)\n{json.dumps(ms, indent=1)}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
