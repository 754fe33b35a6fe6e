"""The deal of every Satir game: contract, public fans, centre cards, tricks, score, penalty.

Facts that differ between Veliki Satir (4/3/2 players, Anarhija, rainbow) and Mali Satir are in
one frozen ``SatirFacts`` record chosen by the game class.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar

from referee.actions import Action, ActionType, card_list
from referee.cards import Card, Suit
from referee.deal import DealResult, Phase
from referee.errors import ActionError
from referee.events import ActionRecorded, CardPickedUp, Event, Notice, Violation
from referee.games.satir_rules import Strength, satir_duty, satir_winner, to_tenths
from referee.setup import FieldKind, SetupField
from referee.trick import Trick, TrickDeal

CONTRACTS = {
    "zatvoreno": "zatvoreno", "closed": "zatvoreno", "z": "zatvoreno",
    "aktivno": "aktivno", "active": "aktivno", "a": "aktivno",
    "pasivno": "pasivno", "passive": "pasivno", "p": "pasivno",
}  # fmt: skip


@dataclass(frozen=True)
class SatirFacts:
    tricks: int  # tricks per deal
    fan_size: int  # cards in each public fan (Active/Passive)
    per_point: int  # cards per point
    majority: int  # tricks that decide the doubled / negative side
    centre: int  # cards set aside in the centre (3 and 2 players)
    # penalty in tenths: (victims, offender) per contract
    penalty: Mapping[str, tuple[int, int]]
    strength: Strength
    anarchy: bool = False
    rainbow: bool = False


class SatirDeal(TrickDeal):
    setup_fields: ClassVar[Mapping[str, SetupField]] = {
        "fans": SetupField(FieldKind.SEAT_CARDS, in_hand=True),
        "centre": SetupField(FieldKind.CARDS),
        "backs": SetupField(FieldKind.SEAT_SUIT_COUNTS),
    }
    facts: SatirFacts

    # -- state ---------------------------------------------------------------------------------
    def _reset_game(self) -> None:
        self.facts = self.game.facts  # type: ignore[attr-defined]
        self.contract: str | None = None
        self.fans: dict[int, list[Card]] = {}
        self.exchanged = False
        self.majority_side: str | None = None
        self.to_act = self.forehand
        self.centre: list[Card] | None = (
            card_list(self.setup["centre"], "centre") if "centre" in self.setup else None
        )
        self.counts: dict[int, dict[Suit, int]] | None = None

    @property
    def tricks_per_deal(self) -> int:
        return self.facts.tricks

    def _given_fans(self) -> dict[int, list[Card]] | None:
        raw = self.setup.get("fans")
        if raw is not None:
            if not isinstance(raw, Mapping):
                raise ActionError("fans: expected an object of seat -> cards (top first)")
            return {int(s): card_list(v, f"fans[{s}]") for s, v in raw.items()}
        if self.initial_hands is not None:
            # AMBIGUITY 6: with no recorded order, the last card dealt is on top.
            n = self.facts.fan_size
            return {s: list(reversed(cards[-n:])) for s, cards in self.initial_hands.items()}
        return None

    # -- non-play actions ----------------------------------------------------------------------
    def _validate_other(self, action: Action) -> None:
        kind = action.type
        if kind is ActionType.CONTRACT:
            if self.contract is not None:
                raise ActionError(f"{action}: the deal type is already {self.contract}")
            if action.seat != self.forehand:
                raise ActionError(f"{action}: only the forehand (seat {self.forehand}) declares")
            if (action.value or "").lower() not in CONTRACTS:
                raise ActionError(f"{action}: unknown deal type (zatvoreno, aktivno, pasivno)")
            return
        if kind is ActionType.SHOW and (action.value or "fan") == "fan":
            if self.contract not in ("aktivno", "pasivno") or self.tricks or self._trick_started():
                raise ActionError(f"{action}: fans are shown after an Active/Passive declaration")
            if action.seat in self.fans:
                raise ActionError(f"{action}: seat {action.seat}'s fan is already on the table")
            if len(action.cards) != self.facts.fan_size:
                raise ActionError(f"{action}: a fan has {self.facts.fan_size} cards")
            shown = {c for cards in self.fans.values() for c in cards}
            for card in action.cards:
                if card not in self.game.deck or card in shown:
                    raise ActionError(f"{action}: {card} cannot be in this fan")
                if self.initial_hands is not None and card not in self.initial_hands[action.seat]:
                    raise ActionError(f"{action}: {card} was not dealt to seat {action.seat}")
            return
        if kind is ActionType.EXCHANGE:
            if not self.facts.centre or self.contract not in ("aktivno", "pasivno"):
                raise ActionError(
                    f"{action}: the centre cards are exchanged only in Active/Passive"
                )
            if self.exchanged or self._trick_started() or self.tricks:
                raise ActionError(f"{action}: the exchange is over")
            if action.seat != self.forehand:
                raise ActionError(f"{action}: only the forehand (seat {self.forehand}) exchanges")
            if action.cards and len(action.cards) != self.facts.centre:
                raise ActionError(f"{action}: put aside exactly {self.facts.centre} card(s)")
            if self.hands is not None:
                if self.centre is None:
                    raise ActionError(f"{action}: known hands need the centre cards in the deal")
                pool = self.hands[action.seat] | set(self.centre)
                if not action.cards or not set(action.cards) <= pool:
                    raise ActionError(
                        f"{action}: the cards put aside must come from hand or centre"
                    )
            return
        super()._validate_other(action)

    def _trick_started(self) -> bool:
        return self.trick is not None and bool(self.trick.plays)

    def _apply_other(self, action: Action) -> list[Event]:
        events: list[Event] = [
            ActionRecorded(action.seat, action.type.value, action.value, action.cards)
        ]
        if action.type is ActionType.CONTRACT:
            self.contract = CONTRACTS[(action.value or "").lower()]
            if self.contract != "zatvoreno":
                given = self._given_fans()
                if given is not None:
                    self.fans = {s: list(v) for s, v in given.items()}
            elif self.initial_hands is not None and "fans" in self.setup:
                pass  # closed: every dealt card is in the hand
        elif action.type is ActionType.SHOW:
            self.fans[action.seat] = list(action.cards)
        elif action.type is ActionType.EXCHANGE:
            self.exchanged = True
            if self.hands is not None and self.centre is not None:
                self.hands[action.seat] |= set(self.centre)
                self.hands[action.seat] -= set(action.cards)
                for card in self.centre:
                    self.knowledge.acquire(action.seat, card, -1)
            return events
        events.extend(self._maybe_start())
        return events

    def _maybe_start(self) -> list[Event]:
        if self.phase is not Phase.SETUP or self.contract is None:
            return []
        if self.contract != "zatvoreno":
            if len(self.fans) < self.players:
                return []
            for seat, fan in self.fans.items():
                if len(fan) != self.facts.fan_size:
                    raise ActionError(f"fans[{seat}]: a fan has {self.facts.fan_size} cards")
                if self.hands is not None:
                    if not set(fan) <= self.hands[seat]:
                        raise ActionError(f"fans[{seat}]: the fan must come from the cards dealt")
                    self.hands[seat] -= set(fan)
        self._init_counts()
        return self.start_play(self.forehand)

    def _init_counts(self) -> None:
        if not self.facts.rainbow:
            return
        if self.hands is not None:
            self.counts = {s: _suit_counts(h) for s, h in self.hands.items()}
            return
        raw = self.setup.get("backs")
        if not isinstance(raw, Mapping):
            raise ActionError(
                "Satir u duginim bojama needs the back colours ('backs') or the hands"
            )
        self.counts = {}
        for seat in range(self.players):
            entry = raw.get(str(seat), raw.get(seat))  # type: ignore[call-overload]
            if not isinstance(entry, Mapping):
                raise ActionError(f"backs[{seat}]: expected suit counts such as {{'H': 3}}")
            self.counts[seat] = {Suit.parse(k): int(v) for k, v in entry.items()}

    def _other_legal_actions(self) -> list[Action]:
        if self.contract is None and self.phase is Phase.SETUP:
            return [
                Action(self.forehand, ActionType.CONTRACT, value=v)
                for v in ("zatvoreno", "aktivno", "pasivno")
            ]
        if (
            self.facts.centre
            and self.contract in ("aktivno", "pasivno")
            and not self.exchanged
            and not self.tricks
            and not self._trick_started()
            and self.hands is not None
            and self.centre is not None
            and self.facts.centre == 1
        ):
            pool = sorted(self.hands[self.forehand] | set(self.centre))
            return [Action(self.forehand, ActionType.EXCHANGE, cards=(c,)) for c in pool]
        return []

    # -- play ----------------------------------------------------------------------------------
    def _validate_card_source(self, seat: int, card: Card) -> None:
        if card in self.fans.get(seat, ()):
            raise ActionError(f"seat {seat} plays {card}: that card is still in the seat's fan")
        super()._validate_card_source(seat, card)

    def public_cards_elsewhere(self, seat: int) -> dict[int, set[Card]]:
        return {s: set(fan) for s, fan in self.fans.items() if s != seat and fan}

    def winner_index(self, trick: Trick) -> int:
        return satir_winner(trick.cards, anarchy=self.facts.anarchy, strength=self.facts.strength)

    def duty(self, trick: Trick, seat: int, card: Card, other: Card) -> str | None:
        return satir_duty(trick.lead_suit, card, other)

    def duties(self, trick: Trick, seat: int) -> Callable[[Card, Card], str | None]:
        return partial(satir_duty, trick.lead_suit)

    def constraint_text(self, trick: Trick, seat: int, card: Card) -> str:
        lead = trick.lead_suit
        if lead is None or card.suit is lead:
            return ""
        if card.suit is Suit.HEARTS:
            return f"trick {trick.number}: no {lead.symbol} in hand"
        return f"trick {trick.number}: no {lead.symbol} and no ♥ in hand"

    def public_witness(self, trick: Trick, seat: int, card: Card) -> tuple[str, str] | None:
        if self.counts is None:
            return None
        counts, lead = self.counts[seat], trick.lead_suit
        result: tuple[str, str] | None = None
        if lead is not None and card.suit is not lead:
            if counts.get(lead, 0) > 0:
                result = ("follow-suit", f"the backs show {counts[lead]} {lead.symbol} in hand")
            elif card.suit is not Suit.HEARTS and counts.get(Suit.HEARTS, 0) > 0:
                result = ("must-trump", f"the backs show {counts[Suit.HEARTS]} ♥ in hand")
        assert card.suit is not None
        counts[card.suit] = counts.get(card.suit, 0) - 1
        return result

    def _after_trick(self, trick: Trick) -> list[Event]:
        events: list[Event] = []
        if self.majority_side is None:
            side = self.game.side_of(trick.winner or 0)
            won = sum(1 for t in self.tricks if self.game.side_of(t.winner or 0) == side)
            if won >= self.facts.majority:
                self.majority_side = side
                events.append(Notice(f"side {side} took trick {won} first (majority)"))
        if self.contract != "zatvoreno" and trick.number <= self.facts.fan_size:
            for seat in range(self.players):
                fan = self.fans.get(seat)
                if not fan:
                    continue
                card = fan.pop(0)
                if self.hands is not None:
                    self.hands[seat].add(card)
                if self.counts is not None:
                    assert card.suit is not None
                    self.counts[seat][card.suit] = self.counts[seat].get(card.suit, 0) + 1
                self.knowledge.acquire(seat, card, self.ply)
                events.append(CardPickedUp(seat, card, trick.number))
        return events

    # -- scores --------------------------------------------------------------------------------
    def _penalty(self, violation: Violation) -> DealResult:
        assert self.contract is not None
        victims, offender = self.facts.penalty[self.contract]
        guilty = self.game.side_of(violation.seat)
        scores = {side: (offender if side == guilty else victims) for side in self.game.sides}
        detail = (
            f"{violation.rule} by seat {violation.seat} ({self.contract}): deal stopped, "
            f"penalty {self.game.format_score(victims)} to each other side, "
            f"{self.game.format_score(offender)} to side {guilty}"
        )
        return DealResult(scores, detail, (violation,))

    def _extra_points(self) -> dict[str, int]:
        """The centre card(s) of the 3- and 2-player game go to the winner of the last trick."""
        if self.facts.centre and len(self.tricks) == self.facts.tricks:
            last = self.tricks[-1].winner
            assert last is not None
            return {self.game.side_of(last): self.facts.centre}
        return {}

    def cards_taken(self) -> dict[str, int]:
        return self.card_points_by_side()

    def _final_result(self) -> DealResult:
        taken = self.cards_taken()
        scores = {side: to_tenths(n, self.facts.per_point) for side, n in taken.items()}
        major = self.majority_side
        if major is not None and self.contract == "aktivno":
            scores[major] *= 2
        elif major is not None and self.contract == "pasivno":
            scores[major] = -scores[major]
        parts = ", ".join(
            f"{s}: {n} cards = {self.game.format_score(scores[s])}" for s, n in taken.items()
        )
        return DealResult(
            scores, f"{self.contract}; majority {major}; {parts}", extra={"cards": taken}
        )

    def _snapshot_game(self) -> dict[str, Any]:
        return {
            "contract": self.contract,
            "fans": {str(s): [c.code for c in fan] for s, fan in self.fans.items()},
            "majority": self.majority_side,
            "trump": "H",
            "joker_suit": "D",
        }


def _suit_counts(cards: set[Card]) -> dict[Suit, int]:
    counts: dict[Suit, int] = {}
    for card in cards:
        assert card.suit is not None
        counts[card.suit] = counts.get(card.suit, 0) + 1
    return counts
