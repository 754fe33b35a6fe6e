"""``kibic vision profile``: what a deck profile holds, and forgetting cards in it.

A club director checks a table's profile before a session (which cards are enrolled, which
were learnt from people's answers) and drops a card whose references are wrong, for example
after a person confirmed the wrong card and the play was not undone at once. The card is then
shown again with ``kibic vision enrol --add --order CARD``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee.cards import Card, parse_cards
from referee.errors import CardError

if TYPE_CHECKING:
    from vision.deck_profile import DeckProfile


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = sub.add_parser("profile", help="show a deck profile, or forget cards in it")
    parser.add_argument("path", type=Path, help="the deck profile (.npz)")
    parser.add_argument("--forget", default=None, metavar="CARDS",
                        help="drop every reference of these cards, e.g. 'KS KC'; the file is "
                             "rewritten")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="one JSON document")
    parser.set_defaults(handler=_profile_command)


def profile_summary(profile: DeckProfile) -> dict[str, Any]:
    """Per card of the deck (in deck order): references kept, and how many were learnt from
    confirmations at the table; the totals (``DeckProfile.coverage``); the cards without any."""
    from vision.enrol import enrolment_order, label_of

    cards = []
    for card in enrolment_order(profile.deck):
        label = label_of(card, profile.deck)
        refs = len(profile.references.get(label, []))
        cards.append({"card": card.code, "label": label, "references": refs,
                      "learnt": profile.learnt(label) if refs else 0})  # fmt: skip
    return {"deck": profile.deck.value, "cards": cards, **profile.coverage(),
            "missing": [c["card"] for c in cards if not c["references"]]}  # fmt: skip


def _profile_command(args: argparse.Namespace) -> int:
    from vision.deck_profile import DeckProfile, ProfileError
    from vision.enrol import enrolment_order, label_of

    try:
        profile = DeckProfile.load(args.path)
    except ProfileError as exc:
        raise SystemExit(f"kibic vision profile: {exc}") from None
    dropped: list[tuple[Card, int]] = []
    if args.forget:
        try:
            cards = [card.logical for card in parse_cards(args.forget)]
        except CardError as exc:
            raise SystemExit(f"kibic vision profile: --forget: {exc}") from None
        deck_cards = enrolment_order(profile.deck)
        foreign = [card.code for card in cards if card not in deck_cards]
        if foreign:
            raise SystemExit(f"kibic vision profile: --forget: {' '.join(foreign)} not in the "
                             f"{profile.deck.value} deck; nothing changed")  # fmt: skip
        dropped = [(card, profile.forget_card(label_of(card, profile.deck))) for card in cards]
        profile.save(args.path)
    summary = profile_summary(profile)
    if args.json:
        summary["forgotten"] = {card.code: n for card, n in dropped}
        print(json.dumps(summary, indent=2, ensure_ascii=False))
        return 0
    for card, n in dropped:
        print(f"forgot {card.code}: {n} reference{'s' if n != 1 else ''}")
    print(f"{args.path}: a profile of the {summary['deck']} deck; {summary['enrolled']} of "
          f"{summary['of']} cards have references, {summary['learnt']} learnt at the table")  # fmt: skip
    for row in summary["cards"]:
        if row["references"]:
            learnt = f" ({row['learnt']} learnt)" if row["learnt"] else ""
            print(f"  {row['card']:4s} {row['references']}{learnt}")
    if summary["missing"]:
        print("no references: " + " ".join(summary["missing"])
              + "  (show them with kibic vision enrol --add --order '...')")  # fmt: skip
    return 0
