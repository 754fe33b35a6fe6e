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
from referee.events import ActionRecorded, CardPickedUp, Event, Notice, Violation
from referee.games.satir_rules import Strength, satir_duty, satir_winner, to_tenths
from referee.setup import FieldKind, SetupField
from referee.trick import NO_LED, NO_LED_NO_SUIT, Trick, TrickDeal
from referee.wording import Said, detail, evidence, notice, part, refusal

MAJORITY = notice("satir.majority", "side {side} took trick {won} first (majority)")
PENALTY = detail(
    "satir.penalty",
    "{rule} by seat {seat} ({contract}): deal stopped, penalty {victims} to each other side, "
    "{offender} to side {side}",
)
FINAL = detail("satir.final", "{contract}; majority {major}; {parts}", joiner=", ")
SIDE_CARDS = part("satir.side_cards", "{side}: {count} cards = {score}")
BACKS_SHOW = evidence("satir.backs_show", "the backs show {count} {suit} in hand")

R_SATIR_U_DUGINIM_BOJAMA = refusal(
    "satir.satir_u_duginim_bojama",
    "Satir u duginim bojama needs the back colours ('backs') or the hands",
)
R_SEAT_PLAYS_THAT_CARD = refusal(
    "satir.seat_plays_that_card", "seat {seat} plays {card}: that card is still in the seat's fan"
)
R_FANS_EXPECTED_OBJECT_SEAT = refusal(
    "satir.fans_expected_object_seat", "fans: expected an object of seat -> cards (top first)"
)
R_DEAL_TYPE_ALREADY = refusal(
    "satir.deal_type_already", "{action}: the deal type is already {contract}"
)
R_FOREHAND_SEAT_DECLARES = refusal(
    "satir.forehand_seat_declares", "{action}: only the forehand (seat {forehand}) declares"
)
R_UNKNOWN_DEAL_TYPE_ZATVORENO = refusal(
    "satir.unknown_deal_type_zatvoreno", "{action}: unknown deal type (zatvoreno, aktivno, pasivno)"
)
R_FANS_SHOWN_AFTER_ACTIVE = refusal(
    "satir.fans_shown_after_active", "{action}: fans are shown after an Active/Passive declaration"
)
R_SEAT_FAN_ALREADY_ON = refusal(
    "satir.seat_fan_already_on", "{action}: seat {seat}'s fan is already on the table"
)
R_FAN_HAS_CARDS = refusal("satir.fan_has_cards", "{action}: a fan has {fan_size} cards")
R_CENTRE_CARDS_EXCHANGED_ACTIVE = refusal(
    "satir.centre_cards_exchanged_active",
    "{action}: the centre cards are exchanged only in Active/Passive",
)
R_EXCHANGE_OVER = refusal("satir.exchange_over", "{action}: the exchange is over")
R_FOREHAND_SEAT_EXCHANGES = refusal(
    "satir.forehand_seat_exchanges", "{action}: only the forehand (seat {forehand}) exchanges"
)
R_PUT_ASIDE_EXACTLY_CARD = refusal(
    "satir.put_aside_exactly_card", "{action}: put aside exactly {centre} card(s)"
)
R_BACKS_EXPECTED_SUIT_COUNTS = refusal(
    "satir.backs_expected_suit_counts", "backs[{seat}]: expected suit counts such as {{'H': 3}}"
)
R_CANNOT_THIS_FAN = refusal("satir.cannot_this_fan", "{action}: {card} cannot be in this fan")
R_WAS_DEALT_SEAT = refusal("satir.was_dealt_seat", "{action}: {card} was not dealt to seat {seat}")
R_KNOWN_HANDS_NEED_CENTRE = refusal(
    "satir.known_hands_need_centre", "{action}: known hands need the centre cards in the deal"
)
R_CARDS_PUT_ASIDE_MUST = refusal(
    "satir.cards_put_aside_must", "{action}: the cards put aside must come from hand or centre"
)
R_FANS_FAN_HAS_CARDS = refusal(
    "satir.fans_fan_has_cards", "fans[{seat}]: a fan has {fan_size} cards"
)
R_FANS_FAN_MUST_COME = refusal(
    "satir.fans_fan_must_come", "fans[{seat}]: the fan must come from the cards dealt"
)

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
                raise R_FANS_EXPECTED_OBJECT_SEAT.error()
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
                raise R_DEAL_TYPE_ALREADY.error(action=action, contract=self.contract)
            if action.seat != self.forehand:
                raise R_FOREHAND_SEAT_DECLARES.error(action=action, forehand=self.forehand)
            if (action.value or "").lower() not in CONTRACTS:
                raise R_UNKNOWN_DEAL_TYPE_ZATVORENO.error(action=action)
            return
        if kind is ActionType.SHOW and (action.value or "fan") == "fan":
            if self.contract not in ("aktivno", "pasivno") or self.tricks or self._trick_started():
                raise R_FANS_SHOWN_AFTER_ACTIVE.error(action=action)
            if action.seat in self.fans:
                raise R_SEAT_FAN_ALREADY_ON.error(action=action, seat=action.seat)
            if len(action.cards) != self.facts.fan_size:
                raise R_FAN_HAS_CARDS.error(action=action, fan_size=self.facts.fan_size)
            shown = {c for cards in self.fans.values() for c in cards}
            for card in action.cards:
                if card not in self.game.deck or card in shown:
                    raise R_CANNOT_THIS_FAN.error(action=action, card=card)
                if self.initial_hands is not None and card not in self.initial_hands[action.seat]:
                    raise R_WAS_DEALT_SEAT.error(action=action, card=card, seat=action.seat)
            return
        if kind is ActionType.EXCHANGE:
            if not self.facts.centre or self.contract not in ("aktivno", "pasivno"):
                raise R_CENTRE_CARDS_EXCHANGED_ACTIVE.error(action=action)
            if self.exchanged or self._trick_started() or self.tricks:
                raise R_EXCHANGE_OVER.error(action=action)
            if action.seat != self.forehand:
                raise R_FOREHAND_SEAT_EXCHANGES.error(action=action, forehand=self.forehand)
            if action.cards and len(action.cards) != self.facts.centre:
                raise R_PUT_ASIDE_EXACTLY_CARD.error(action=action, centre=self.facts.centre)
            if self.hands is not None:
                if self.centre is None:
                    raise R_KNOWN_HANDS_NEED_CENTRE.error(action=action)
                pool = self.hands[action.seat] | set(self.centre)
                if not action.cards or not set(action.cards) <= pool:
                    raise R_CARDS_PUT_ASIDE_MUST.error(action=action)
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
                    raise R_FANS_FAN_HAS_CARDS.error(seat=seat, fan_size=self.facts.fan_size)
                if self.hands is not None:
                    if not set(fan) <= self.hands[seat]:
                        raise R_FANS_FAN_MUST_COME.error(seat=seat)
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
            raise R_SATIR_U_DUGINIM_BOJAMA.error()
        self.counts = {}
        for seat in range(self.players):
            entry = raw.get(str(seat), raw.get(seat))  # type: ignore[call-overload]
            if not isinstance(entry, Mapping):
                raise R_BACKS_EXPECTED_SUIT_COUNTS.error(seat=seat)
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
            raise R_SEAT_PLAYS_THAT_CARD.error(seat=seat, card=card)
        super()._validate_card_source(seat, card)

    def public_cards_elsewhere(self, seat: int) -> dict[int, set[Card]]:
        return {s: set(fan) for s, fan in self.fans.items() if s != seat and fan}

    def winner_index(self, trick: Trick) -> int:
        return satir_winner(trick.cards, anarchy=self.facts.anarchy, strength=self.facts.strength)

    def duty(self, trick: Trick, seat: int, card: Card, other: Card) -> str | None:
        return satir_duty(trick.lead_suit, card, other)

    def duties(self, trick: Trick, seat: int) -> Callable[[Card, Card], str | None]:
        return partial(satir_duty, trick.lead_suit)

    def constraint_text(self, trick: Trick, seat: int, card: Card) -> Said | None:
        lead = trick.lead_suit
        if lead is None or card.suit is lead:
            return None
        if card.suit is Suit.HEARTS:
            return NO_LED(trick=trick.number, led=lead.symbol)
        return NO_LED_NO_SUIT(trick=trick.number, led=lead.symbol, trump="♥")

    def public_witness(self, trick: Trick, seat: int, card: Card) -> tuple[str, Said] | None:
        if self.counts is None:
            return None
        counts, lead = self.counts[seat], trick.lead_suit
        result: tuple[str, Said] | None = None
        if lead is not None and card.suit is not lead:
            if counts.get(lead, 0) > 0:
                result = ("follow-suit", BACKS_SHOW(count=counts[lead], suit=lead.symbol))
            elif card.suit is not Suit.HEARTS and counts.get(Suit.HEARTS, 0) > 0:
                result = ("must-trump", BACKS_SHOW(count=counts[Suit.HEARTS], suit="♥"))
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
                events.append(Notice.of(MAJORITY(side=side, won=won)))
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
        said = PENALTY(rule=violation.rule, seat=violation.seat, contract=self.contract,
                       victims=self.game.format_score(victims),
                       offender=self.game.format_score(offender), side=guilty)  # fmt: skip
        return DealResult.of(scores, said, (violation,))

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
        parts = [SIDE_CARDS(side=s, count=n, score=self.game.format_score(scores[s]))
                 for s, n in taken.items()]  # fmt: skip
        said = FINAL(
            contract=str(self.contract), major="—" if major is None else major, parts=parts
        )
        return DealResult.of(scores, said, extra={"cards": taken})

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
