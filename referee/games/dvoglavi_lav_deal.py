"""The deal of Dvoglavi Lav (RULES.md §11): auction, commitment, key card, kontra, 8 tricks.

Spoken actions (all go into the log):

- ``BID`` with ``value`` the points (free jumps, higher than the last bid) or ``PASS`` ("Dalje");
  four passes with 6 cards: the table cards are picked up and the bidding restarts with 8;
  four passes again: Repom Dvoglavog Lava (no trump, standard order, payment duty).
- ``CONTRACT`` by the auction winner: the final commitment C, bid <= C <= 100 (AMBIGUITY 44).
- ``SHOW`` with ``card`` and ``value="key"``: the key card, from the hand (AMBIGUITY 45).
- ``KONTRA`` (``value`` "kontra") or ``PASS`` by the opponents in seat order, then
  ``KONTRA`` (``value`` "rekontra") or ``PASS`` by the declarer (AMBIGUITY 46).
- ``SHOW`` with ``card="8C"`` (optional): the first leader shows the 8♣. With hidden hands a
  first lead without the show is accepted and proven wrong if another seat later plays the 8♣.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

from referee.actions import Action, ActionType
from referee.cards import Card, Rank, Suit
from referee.deal import DealResult, Phase
from referee.errors import CardError
from referee.events import ActionRecorded, CardPickedUp, Event, Notice, TurnChanged, Violation
from referee.games.dvoglavi_lav_rules import (
    COUNTERPART,
    EIGHT_OF_CLUBS,
    TOTAL,
    duty,
    key_order,
    repom_scores,
    score_deal,
    strength_for,
    trick_winner,
)
from referee.setup import FieldKind, SetupField
from referee.trick import NO_LED, Trick, TrickDeal
from referee.wording import Said, detail, evidence, notice, part, refusal

PAID = part(
    "lav.paid",
    "trick {trick}: no {led} in hand; paid {card} (says {value}), so no card worth more than "
    "{value}",
)
PAID_TRUMP = part(
    "lav.paid_trump",
    "trick {trick}: no {led} and no {trump} in hand; paid {card} (says {value}), so no card "
    "worth more than {value}",
)
EIGHT_LEADS = notice("lav.eight_leads", "the holder of the 8♣ leads")
WINS_AUCTION = notice("lav.wins_auction", "seat {seat} wins the auction with {bid}")
ALL_PASSED = notice("lav.all_passed", "all passed: table cards picked up, bidding with 8 cards")
ALL_PASSED_TWICE = notice(
    "lav.all_passed_twice", "all passed twice: Repom Dvoglavog Lava (no trump)"
)
KEY_CARD = notice("lav.key_card", "key card {card}: trump {trump}, order {order}")
REPOM_PENALTY = detail(
    "lav.repom_penalty", "{rule} by seat {seat}: Repom scored 0 : 100 against {side}"
)
STOPPED = detail(
    "lav.stopped",
    "{rule} by seat {seat}: deal stopped and scored as if the declarers took {points}; {result}",
)
COMMITTED_PASS = detail(
    "lav.committed_pass",
    "side {side} committed {commitment} x{times}, took {points}: pass; A {a}, B {b}",
)
COMMITTED_FALL = detail(
    "lav.committed_fall",
    "side {side} committed {commitment} x{times}, took {points}: fall; A {a}, B {b}",
)
REPOM = detail("lav.repom", "Repom Dvoglavog Lava {a} : {b}")
WITH_MARK = detail("lav.with_mark", "{result}; štih-mač by side {side}")
WRONG_LEADER = evidence(
    "lav.wrong_leader",
    "seat {seat} led trick 1 without showing the 8♣; at trick {proven} seat {other} played the "
    "8♣, so the lead was seat {other}'s",
)

R_DECLARER_SAYS_REKONTRA_PASS = refusal(
    "lav.declarer_says_rekontra_pass", "{action}: the declarer says rekontra or pass"
)
R_VALUE_MUST_NUMBER_POINTS = refusal(
    "lav.value_must_number_points", "{action}: the value must be a number of points"
)
R_AUCTION_OVER = refusal("lav.auction_over", "{action}: the auction is over")
R_OUT_TURN_SEAT_SPEAK = refusal(
    "lav.out_turn_seat_speak", "{action}: out of turn, seat {to_act} is to speak"
)
R_OPPONENTS_SAY_KONTRA_PASS = refusal(
    "lav.opponents_say_kontra_pass", "{action}: the opponents say kontra or pass"
)
R_SHOWN_BEFORE_FIRST_LEAD = refusal(
    "lav.shown_before_first_lead", "{action}: the 8♣ is shown only before the first lead"
)
R_SEAT_DOES_HOLD = refusal("lav.seat_does_hold", "{action}: seat {seat} does not hold the 8♣")
R_HANDS_SEAT_HOLDS_CARDS = refusal(
    "lav.hands_seat_holds_cards", "hands: seat {seat} holds {cards_count} cards; a hand is {per}"
)
R_TABLE_EXPECTED_OBJECT_SEAT = refusal(
    "lav.table_expected_object_seat", "table: expected an object of seat -> 2 cards"
)
R_AUCTION_NEEDS_BID_DALJE = refusal(
    "lav.auction_needs_bid_dalje", "{action}: the auction needs a bid or 'Dalje' (pass)"
)
R_BID_MUST_HIGHER_THAN = refusal(
    "lav.bid_must_higher_than",
    "{action}: a bid must be higher than {high_bid} and at most {most}",
)
R_AUCTION_WINNER_STATES_HIS = refusal(
    "lav.auction_winner_states_his", "{action}: the auction winner states his final commitment"
)
R_COMMITMENT_MUST_BETWEEN_BID = refusal(
    "lav.commitment_must_between_bid",
    "{action}: the commitment must be between the bid {high_bid} and {most} (AMBIGUITY 44)",
)
R_DECLARER_SHOWS_KEY_CARD = refusal(
    "lav.declarer_shows_key_card", "{action}: the declarer shows the key card"
)
R_DECK = refusal("lav.not_in_deck", "{action}: {card} is not in the {deck} deck")
R_KEY_CARD_MUST_DECLARER = refusal(
    "lav.key_card_must_declarer",
    "{action}: the key card must be in the declarer's hand of {cards_in_hand} cards (AMBIGUITY 45)",
)
R_TABLE = refusal("lav.table_bad_card", "table[{seat}]: {reason}")

MAX_BID = 100


class Stage(enum.Enum):
    """Where the deal stands before and during the play."""

    BIDDING = "bidding"
    COMMITMENT = "commitment"
    KEY = "key"
    KONTRA = "kontra"
    REKONTRA = "rekontra"
    PLAY = "play"


def bid_amounts(low: int) -> list[int]:
    """Every amount a bid or commitment may name from ``low`` up (AMBIGUITY 44: at most 100)."""
    return list(range(max(low, 1), MAX_BID + 1))


def perft_amounts(low: int) -> list[int]:
    """The amounts perft follows from ``low`` up, one per class: ``low`` itself, then every
    tenth (following all of them would make the counted tree 100 wide at each call)."""
    return sorted({low} | {v for v in range(10, MAX_BID + 1, 10) if v > low}) if low <= 100 else []


def _int_value(action: Action) -> int:
    try:
        return int(action.value or "")
    except ValueError:
        raise R_VALUE_MUST_NUMBER_POINTS.error(action=action) from None


class DvoglaviLavDeal(TrickDeal):
    """One deal of Dvoglavi Lav; see the module docstring for the actions."""

    setup_fields: ClassVar[Mapping[str, SetupField]] = {
        "table": SetupField(FieldKind.SEAT_CARDS, in_hand=True),
    }

    def _check_hands(self, hands: Mapping[int, Sequence[Card]]) -> None:
        """Known hands are the whole deck, 8 cards a seat (the holder of 8♣ leads)."""
        super()._check_hands(hands)
        per = len(self.game.deck) // self.players
        for seat, cards in sorted(hands.items()):
            if len(cards) != per:
                raise R_HANDS_SEAT_HOLDS_CARDS.error(seat=seat, cards_count=len(cards), per=per)

    tricks_per_deal = 8

    # -- state ---------------------------------------------------------------------------------
    def _reset_game(self) -> None:
        self.points_table: Mapping[Rank, int] = self.game.points_table  # type: ignore[attr-defined]
        self.phase = Phase.AUCTION
        self.stage = Stage.BIDDING
        self.to_act = self.forehand
        self.cards_in_hand = 6
        self.six_card_auction = True
        self.high_bid = 0
        self.high_bidder: int | None = None
        self.passes = 0  # consecutive passes
        self.calls: list[str] = []
        self.declarer: int | None = None
        self.commitment: int | None = None
        self.key: Card | None = None
        self.trump: Suit | None = None
        self.top = Rank.ACE
        self.strength = strength_for(Rank.ACE)
        self.multiplier = 1
        self.kontra_turns = 0
        self.repom = False
        self.shown_eight: int | None = None
        self.unshown_leader: int | None = None
        self.table_cards = self._table_cards()

    def _table_cards(self) -> dict[int, list[Card]] | None:
        raw = self.setup.get("table")
        if raw is not None:
            if not isinstance(raw, Mapping):
                raise R_TABLE_EXPECTED_OBJECT_SEAT.error()
            out: dict[int, list[Card]] = {}
            for seat, cards in raw.items():
                items = cards.split() if isinstance(cards, str) else cards
                try:
                    out[int(seat)] = [Card.parse(c) for c in items]
                except (CardError, ValueError) as exc:
                    raise R_TABLE.error(seat=seat, reason=exc) from None
            return out
        if self.initial_hands is not None:
            return {s: list(cards[-2:]) for s, cards in self.initial_hands.items()}
        return None

    @property
    def declaring_side(self) -> str | None:
        return None if self.declarer is None else self.game.side_of(self.declarer)

    # -- spoken actions ------------------------------------------------------------------------
    def _validate_other(self, action: Action) -> None:
        kind, seat = action.type, action.seat
        if kind is ActionType.SHOW and action.card == EIGHT_OF_CLUBS and self.stage is Stage.PLAY:
            self._validate_eight_show(action)
            return
        if self.stage not in (Stage.BIDDING, Stage.COMMITMENT, Stage.KEY, Stage.KONTRA,
                              Stage.REKONTRA):  # fmt: skip
            raise R_AUCTION_OVER.error(action=action)
        if seat != self.to_act:
            raise R_OUT_TURN_SEAT_SPEAK.error(action=action, to_act=self.to_act)
        if self.stage is Stage.BIDDING:
            if kind is ActionType.PASS:
                return
            if kind is not ActionType.BID:
                raise R_AUCTION_NEEDS_BID_DALJE.error(action=action)
            amount = _int_value(action)
            if not self.high_bid < amount <= MAX_BID:
                raise R_BID_MUST_HIGHER_THAN.error(
                    action=action, high_bid=self.high_bid, most=MAX_BID
                )
            return
        if self.stage is Stage.COMMITMENT:
            if kind is not ActionType.CONTRACT:
                raise R_AUCTION_WINNER_STATES_HIS.error(action=action)
            amount = _int_value(action)
            if not self.high_bid <= amount <= MAX_BID:
                raise R_COMMITMENT_MUST_BETWEEN_BID.error(
                    action=action, high_bid=self.high_bid, most=MAX_BID
                )
            return
        if self.stage is Stage.KEY:
            if kind is not ActionType.SHOW or action.card is None:
                raise R_DECLARER_SHOWS_KEY_CARD.error(action=action)
            card = action.card
            if card not in self.game.deck:
                raise R_DECK.error(action=action, card=card, deck=self.game.deck.value)
            if self.hands is not None and card not in self._hand_now(seat):
                raise R_KEY_CARD_MUST_DECLARER.error(
                    action=action, cards_in_hand=self.cards_in_hand
                )
            return
        if self.stage is Stage.KONTRA:
            if kind is ActionType.PASS or (
                kind is ActionType.KONTRA and (action.value or "kontra") == "kontra"
            ):
                return
            raise R_OPPONENTS_SAY_KONTRA_PASS.error(action=action)
        if kind is ActionType.PASS or (kind is ActionType.KONTRA and action.value == "rekontra"):
            return
        raise R_DECLARER_SAYS_REKONTRA_PASS.error(action=action)

    def _hand_now(self, seat: int) -> set[Card]:
        assert self.hands is not None
        if self.cards_in_hand == 6 and self.table_cards is not None:
            return self.hands[seat] - set(self.table_cards.get(seat, ()))
        return set(self.hands[seat])

    def _lead_open(self) -> bool:
        return (
            self.stage is Stage.PLAY
            and not self.tricks
            and self.trick is not None
            and not self.trick.plays
        )

    def _validate_eight_show(self, action: Action) -> None:
        if not self._lead_open() or self.shown_eight is not None:
            raise R_SHOWN_BEFORE_FIRST_LEAD.error(action=action)
        if self.hands is not None and EIGHT_OF_CLUBS not in self.hands[action.seat]:
            raise R_SEAT_DOES_HOLD.error(action=action, seat=action.seat)

    def _apply_other(self, action: Action) -> list[Event]:
        seat = action.seat
        shown = (action.card,) if action.card is not None else action.cards
        events: list[Event] = [ActionRecorded(seat, action.type.value, action.value, shown)]
        if self.stage is Stage.PLAY:  # the 8♣ shown
            self.shown_eight = seat
            assert self.trick is not None
            self.trick.leader = seat
            self.to_act = seat
            self.calls.append(f"{seat}: shows 8C")
            events += [Notice.of(EIGHT_LEADS(), seat), TurnChanged(seat)]
            return events
        if self.stage is Stage.BIDDING:
            events += self._apply_bid(action)
        elif self.stage is Stage.COMMITMENT:
            self.commitment = _int_value(action)
            self.calls.append(f"{seat}: commitment {self.commitment}")
            self.stage = Stage.KEY
        elif self.stage is Stage.KEY:
            events += self._apply_key(action)
        elif self.stage is Stage.KONTRA:
            events += self._apply_kontra(action)
        else:
            if action.type is ActionType.KONTRA:
                self.multiplier = 3
                self.calls.append(f"{seat}: rekontra")
            else:
                self.calls.append(f"{seat}: no rekontra")
            events += self._begin_play()
        return events

    def _apply_bid(self, action: Action) -> list[Event]:
        seat = action.seat
        events: list[Event] = []
        if action.type is ActionType.BID:
            self.high_bid = _int_value(action)
            self.high_bidder = seat
            self.passes = 0
            self.calls.append(f"{seat}: {self.high_bid}")
        else:
            self.passes += 1
            self.calls.append(f"{seat}: Dalje")
        if self.high_bidder is not None and self.passes == 3:
            self.declarer = self.high_bidder
            self.stage = Stage.COMMITMENT
            self.to_act = self.declarer
            events.append(Notice.of(WINS_AUCTION(seat=self.declarer, bid=self.high_bid)))
        elif self.high_bidder is None and self.passes == 4:
            if self.cards_in_hand == 6:
                self.cards_in_hand = 8
                self.six_card_auction = False
                self.passes = 0
                self.to_act = self.forehand
                events.append(Notice.of(ALL_PASSED()))
                events.extend(self._pick_up_table())
            else:
                self.repom = True
                self.calls.append("Repom Dvoglavog Lava")
                events.append(Notice.of(ALL_PASSED_TWICE()))
                events.extend(self._begin_play())
                return events
        else:
            self.to_act = self.seat(seat).next().index
        if self.stage is not Stage.PLAY:
            events.append(TurnChanged(self.to_act))  # type: ignore[arg-type]
        return events

    def _pick_up_table(self) -> list[Event]:
        events: list[Event] = []
        for seat in range(self.players):
            events.append(CardPickedUp(seat, None, 0))
        return events

    def _apply_key(self, action: Action) -> list[Event]:
        assert action.card is not None and self.declarer is not None
        self.key = action.card
        self.trump = action.card.suit
        self.top = COUNTERPART[action.card.rank]
        self.strength = strength_for(self.top)
        self.calls.append(f"{action.seat}: key {action.card}")
        self.stage = Stage.KONTRA
        self.to_act = self.seat(self.declarer).next().index
        order = " ".join(r.code for r in key_order(action.card.rank))
        assert self.trump is not None
        return [
            Notice.of(KEY_CARD(card=action.card, trump=self.trump.symbol, order=order)),
            TurnChanged(self.to_act),
        ]

    def _apply_kontra(self, action: Action) -> list[Event]:
        assert self.declarer is not None
        seat = action.seat
        if action.type is ActionType.KONTRA:
            self.multiplier = 2
            self.calls.append(f"{seat}: kontra")
            self.stage = Stage.REKONTRA
            self.to_act = self.declarer
            return [TurnChanged(self.declarer)]
        self.calls.append(f"{seat}: no kontra")
        self.kontra_turns += 1
        if self.kontra_turns == 1:
            self.to_act = self.seat(self.declarer).offset(3).index
            return [TurnChanged(self.to_act)]
        return self._begin_play()

    def _begin_play(self) -> list[Event]:
        events: list[Event] = []
        if self.cards_in_hand == 6:
            self.cards_in_hand = 8
            events.extend(self._pick_up_table())
        self.stage = Stage.PLAY
        leader = None
        if self.hands is not None:
            leader = next(s for s, h in self.hands.items() if EIGHT_OF_CLUBS in h)
        if leader is not None:
            events.extend(self.start_play(leader))
        else:
            self.phase = Phase.PLAY
            self.trick = Trick(1, -1)  # the leader is whoever shows or plays first
            self.to_act = None
        return events

    def perft_actions(self) -> list[Action]:
        """The legal actions with the bid and commitment amounts cut to one per class
        (``perft_amounts``): perft counts amounts as classes, ``legal_actions`` lists all."""
        if self.stage not in (Stage.BIDDING, Stage.COMMITMENT):
            return self.legal_actions()
        low = self.high_bid + (1 if self.stage is Stage.BIDDING else 0)
        keep = {str(v) for v in perft_amounts(low)}
        return [
            a
            for a in self.legal_actions()
            if a.type not in (ActionType.BID, ActionType.CONTRACT) or a.value in keep
        ]

    def _other_legal_actions(self) -> list[Action]:
        seat = self.to_act
        if self.stage is Stage.PLAY:
            if self._lead_open() and self.shown_eight is None and seat is not None:
                return [Action(seat, ActionType.SHOW, EIGHT_OF_CLUBS, value="8C")]
            return []
        if seat is None:
            return []
        if self.stage is Stage.BIDDING:
            return [Action.kept(seat, ActionType.PASS)] + [
                Action.kept(seat, ActionType.BID, value=str(v))
                for v in bid_amounts(self.high_bid + 1)
            ]
        if self.stage is Stage.COMMITMENT:
            return [
                Action.kept(seat, ActionType.CONTRACT, value=str(v))
                for v in bid_amounts(self.high_bid)
            ]
        if self.stage is Stage.KEY:
            if self.hands is None:
                return []
            return [
                Action(seat, ActionType.SHOW, c, value="key") for c in sorted(self._hand_now(seat))
            ]
        if self.stage is Stage.KONTRA:
            return [Action(seat, ActionType.PASS), Action(seat, ActionType.KONTRA, value="kontra")]
        return [Action(seat, ActionType.PASS), Action(seat, ActionType.KONTRA, value="rekontra")]

    # -- play ----------------------------------------------------------------------------------
    def _validate(self, action: Action) -> None:
        if action.type is ActionType.PLAY and self._lead_open() and self.to_act is None:
            self.to_act = action.seat  # hidden hands: any seat may lead (proven later)
            try:
                super()._validate(action)
            finally:
                self.to_act = None
            return
        super()._validate(action)

    def _apply(self, action: Action) -> list[Event]:
        if action.type is ActionType.PLAY and self._lead_open() and self.to_act is None:
            assert self.trick is not None
            self.trick.leader = action.seat
            self.to_act = action.seat
            self.unshown_leader = action.seat
        return super()._apply(action)

    def public_cards_elsewhere(self, seat: int) -> dict[int, set[Card]]:
        out: dict[int, set[Card]] = {}
        if self.key is not None and self.declarer != seat and self.key not in self.played:
            out[self.declarer] = {self.key}  # type: ignore[index]
        if (
            self.shown_eight is not None
            and self.shown_eight != seat
            and EIGHT_OF_CLUBS not in self.played
        ):
            out.setdefault(self.shown_eight, set()).add(EIGHT_OF_CLUBS)
        return out

    def winner_index(self, trick: Trick) -> int:
        return trick_winner(trick.cards, self.trump, self.strength)

    def duty(self, trick: Trick, seat: int, card: Card, other: Card) -> str | None:
        return duty(trick.lead_suit, self.trump, card, other, self.points_table)

    def duties(self, trick: Trick, seat: int) -> Callable[[Card, Card], str | None]:
        lead, trump, points = trick.lead_suit, self.trump, self.points_table  # read once

        def judge(card: Card, other: Card) -> str | None:
            return duty(lead, trump, card, other, points)

        return judge

    duty_priority: tuple[str, ...] = ("follow-suit", "must-trump", "wrong-payment")

    def constraint_text(self, trick: Trick, seat: int, card: Card) -> Said | None:
        lead = trick.lead_suit
        if lead is None or card.suit is lead:
            return None
        if self.trump is not None and card.suit is self.trump:
            return NO_LED(trick=trick.number, led=lead.symbol)
        value = self.points_table[card.rank]
        if self.trump is not None:
            return PAID_TRUMP(trick=trick.number, led=lead.symbol, trump=self.trump.symbol,
                              card=card, value=value)  # fmt: skip
        return PAID(trick=trick.number, led=lead.symbol, card=card, value=value)

    def _immediate(self, trick: Trick, seat: int, card: Card) -> list[Violation]:
        found = super()._immediate(trick, seat, card)
        leader = self.unshown_leader
        if card == EIGHT_OF_CLUBS and leader is not None and seat != leader:
            first = self.tricks[0] if self.tricks else trick
            found.append(
                Violation.of(
                    WRONG_LEADER(seat=leader, proven=trick.number, other=seat),
                    seat=leader, rule="wrong-leader", trick=1, card=first.plays[0][1],
                    witness=card, proven_at_trick=trick.number,
                )
            )  # fmt: skip
        return found

    # -- scores --------------------------------------------------------------------------------
    def _penalty(self, violation: Violation) -> DealResult:
        """AMBIGUITY 50: the offending side loses the deal (declarers D = 0, opponents O = 0)."""
        guilty = self.game.side_of(violation.seat)
        if self.repom:
            scores = {s: (0 if s == guilty else repom_scores(TOTAL)[0]) for s in ("A", "B")}
            said = REPOM_PENALTY(rule=violation.rule, seat=violation.seat, side=guilty)
            return DealResult.of(scores, said, (violation,))
        assert self.commitment is not None
        declarer_points = 0 if guilty == self.declaring_side else TOTAL
        scores = self._scores(declarer_points)
        said = STOPPED(rule=violation.rule, seat=violation.seat, points=declarer_points,
                       result=self._describe(declarer_points, scores))  # fmt: skip
        return DealResult.of(scores, said, (violation,))

    def _scores(self, declarer_points: int) -> dict[str, int]:
        assert self.commitment is not None and self.declaring_side is not None
        dec, opp = score_deal(
            commitment=self.commitment,
            declarer_points=declarer_points,
            multiplier=self.multiplier,
            six_cards=self.declarer_bid_with_six,
        )
        side = self.declaring_side
        return {s: (dec if s == side else opp) for s in ("A", "B")}

    @property
    def declarer_bid_with_six(self) -> bool:
        return self.six_card_auction

    def _describe(self, declarer_points: int, scores: dict[str, int]) -> Said:
        kind = COMMITTED_PASS if declarer_points >= (self.commitment or 0) else COMMITTED_FALL
        return kind(side=str(self.declaring_side), commitment=str(self.commitment),
                    times=self.multiplier, points=declarer_points, a=scores["A"], b=scores["B"])  # fmt: skip

    def _final_result(self) -> DealResult:
        points = self.card_points_by_side()
        marks: dict[str, int] = {}
        for side in ("A", "B"):
            if all(self.game.side_of(t.winner or 0) == side for t in self.tricks):
                marks[side] = 1
        extra: dict[str, Any] = {"card_points": points}
        if marks:
            extra["marks"] = marks
        if self.repom:
            a, b = repom_scores(points["A"])
            scores = {"A": a, "B": b}
            said = REPOM(a=points["A"], b=points["B"])
            return DealResult.of(scores, said, extra=extra)
        assert self.declaring_side is not None
        declarer_points = points[self.declaring_side]
        scores = self._scores(declarer_points)
        said = self._describe(declarer_points, scores)
        if marks:
            said = WITH_MARK(result=said, side=next(iter(marks)))
        return DealResult.of(scores, said, extra=extra)

    def _snapshot_game(self) -> dict[str, Any]:
        return {
            "stage": self.stage.value,
            "calls": list(self.calls),
            "cards_in_hand": self.cards_in_hand,
            "high_bid": self.high_bid,
            "declarer": self.declarer,
            "commitment": self.commitment,
            "key": self.key.code if self.key is not None else None,
            "trump": self.trump.value if self.trump is not None else None,
            "order": [r.code for r in key_order(COUNTERPART[self.top])],
            "multiplier": self.multiplier,
            "repom": self.repom,
            "eight_shown_by": self.shown_eight,
        }
