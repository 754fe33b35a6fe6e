"""Learning a deck at the table, without enrolment: several deals with one deck, where a
person answers every request for confirmation with the true card.

    python benchmarks/bench_vision_learning.py [--designs 3] [--deals 4] [--json OUT]

A club table that never enrolled its deck learns it from the answers
(``vision.enrol.ConfirmationLearner``): each answered card's views become references of a
deck profile kept across the deals. This prints, per deck and per deal, the plays committed
with the right card and seat, the plays asked about and any wrong card, on held-out designs
(100 003 + d, the designs of ``bench_vision.py``'s tables). A report: nothing is chosen on it.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cv2  # noqa: E402
from bench_vision import HELD_OUT_DESIGN, TABLE_DECKS, placement_of  # noqa: E402

from referee.cards import Deck  # noqa: E402
from vision.deck_profile import DeckProfile  # noqa: E402
from vision.enrol import ConfirmationLearner  # noqa: E402
from vision.events import CardSeen, ConfirmationRequested  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402
from vision.synthetic import SyntheticTable, random_plays  # noqa: E402
from vision.tracker import CardTracker  # noqa: E402

cv2.setNumThreads(1)


def one_deal(rec: Recognizer, learner: ConfirmationLearner, table: SyntheticTable,
             deck: Deck, tag: str) -> dict[str, int]:  # fmt: skip
    """Play ``table`` through, answering every request with the card truly put down."""
    tracker = CardTracker(rec, table.calibration, deck=deck, profile=learner.profile,
                          on_commit=learner.on_commit)  # fmt: skip
    taken: set[int] = set()
    tally = {"plays": len(table.placements), "right": 0, "asked": 0, "wrong": 0, "wrong_seat": 0}
    for frame in table:
        for k, ev in enumerate(tracker.process(frame)):
            placement = placement_of(table, ev, taken)
            if placement is None:
                continue
            tally["wrong_seat"] += ev.seat != placement.seat
            if isinstance(ev, ConfirmationRequested):
                request = f"{tag}-{tracker.frame_index}-{k}"
                learner.asked(ev, request)
                learner.confirmed(request, placement.card)
                tally["asked"] += 1
            elif isinstance(ev, CardSeen):
                good = ev.card == placement.card.logical and ev.seat == placement.seat
                tally["right" if good else "wrong"] += 1
        learner.apply()
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--designs", type=int, default=3, help="decks (designs) a deck type")
    parser.add_argument("--deals", type=int, default=4, help="deals played with each deck")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    rec = Recognizer(threads=1)
    out: dict[str, object] = {}
    for deck, seats in TABLE_DECKS:
        per_deal = [{"plays": 0, "right": 0, "asked": 0, "wrong": 0, "wrong_seat": 0}
                    for _ in range(args.deals)]  # fmt: skip
        learnt = 0
        for d in range(args.designs):
            learner = ConfirmationLearner(rec, DeckProfile(deck))
            for n in range(args.deals):
                seed = 2000 + 10 * d + n
                table = SyntheticTable(random_plays(deck, seats, seed), n_seats=seats, deck=deck,
                                       seed=seed, fast=n % 2 == 0,
                                       design_seed=HELD_OUT_DESIGN + d)  # fmt: skip
                tally = one_deal(rec, learner, table, deck, f"{d}-{n}")
                for key, value in tally.items():
                    per_deal[n][key] += value
            learnt += learner.profile.coverage()["enrolled"]
        out[deck.value] = {"deals": per_deal, "cards_learnt": learnt,
                           "of": args.designs * len(DeckProfile(deck).labels)}  # fmt: skip
        rows = " | ".join(f"deal {n + 1}: {t['right']}/{t['plays']} right, {t['asked']} asked, "
                          f"{t['wrong']} wrong" for n, t in enumerate(per_deal))  # fmt: skip
        sys.stdout.write(f"{deck.value}: {rows}; cards learnt {learnt} of "
                         f"{out[deck.value]['of']}\n")  # type: ignore[index]  # fmt: skip
        sys.stdout.flush()
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
