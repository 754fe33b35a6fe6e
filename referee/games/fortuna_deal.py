"""The deal of Fortuna (RULES.md §12): taking the game, the joker-trump, two-round tricks.

Actions besides plays:

- ``ANNOUNCE`` ``take`` (the first to take it is the soloist) or ``fortuna-na-znanje``
  (10 cards only), or ``PASS`` ("Dalje"). Three passes: every player discards two cards with
  ``DISCARD`` (one action per card, face down: ``card`` may be omitted with hidden hands) and
  the taking is repeated with 8, then 6 cards; a third all-pass round is a redeal (no score).
- Fortuna na znanje: the holder of K♣ hands it over with ``EXCHANGE`` ``value="fortuna"``,
  ``card="KC"``, ``cards=[the card given back face down]`` (AMBIGUITY 53: skipped when the K♣
  is the soloist's own or in the talon).
- ``SHOW`` ``card`` the joker-trump (the K♣ after Fortuna na znanje).
- ``EXCHANGE`` ``value="talon"`` with ``cards`` the two cards put away (10 cards only, before
  the first lead; leading without it plays without the exchange).
- ``PASS`` by a trick's leader after round one: no second round (AMBIGUITY 56).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from itertools import combinations
from typing import Any, ClassVar

from referee.actions import Action, ActionType, card_list
from referee.cards import Card
from referee.deal import DealResult, Phase
from referee.errors import ActionError
from referee.events import ActionRecorded, Event, Notice, TurnChanged, Violation
from referee.games.fortuna_rules import (
    FORTUNA,
    Bracket,
    Jokers,
    deal_points,
    duties,
    duty,
    winner_index,
)
from referee.setup import FieldKind, SetupField
from referee.trick import Trick, TrickDeal

HAND_SIZES = (10, 8, 6)


class Stage(enum.Enum):
    TAKING = "taking"
    DISCARD = "discard"
    FORTUNA_GIVE = "fortuna-give"
    SHOW = "show"
    PLAY = "play"


class FortunaDeal(TrickDeal):
    """One deal of Fortuna; see the module docstring."""

    setup_fields: ClassVar[Mapping[str, SetupField]] = {
        "talon": SetupField(FieldKind.CARDS),
        "scores": SetupField(FieldKind.SEAT_NUMBERS),
    }

    conserves_card_points = False  # talon and discarded cards are out of play

    # -- state ---------------------------------------------------------------------------------
    def _reset_game(self) -> None:
        self.phase = Phase.AUCTION
        self.stage = Stage.TAKING
        self.to_act = self.forehand
        self.hand_size = 10
        self.passes = 0
        self.discards: dict[int, list[Card | None]] = {s: [] for s in range(self.players)}
        self.calls: list[str] = []
        self.soloist: int | None = None
        self.na_znanje = False
        self.jokers: Jokers | None = None
        self.exchanged = False
        self.goal: str | None = None
        self.talon: list[Card] | None = (
            card_list(self.setup["talon"], "talon") if "talon" in self.setup else None
        )
        raw = self.setup.get("scores") or {}
        self.scores = {s: int(raw.get(str(s), 0)) for s in range(self.players)}

    @property
    def tricks_per_deal(self) -> int:  # type: ignore[override]
        played = sum(len(t.plays) for t in self.tricks)
        return len(self.tricks) if played >= self.players * self.hand_size else len(self.tricks) + 1

    def _cards_left(self, seat: int) -> int:
        if self.hands is not None:
            return len(self.hands[seat])
        played = sum(1 for t in self.tricks for s, _ in t.plays if s == seat)
        if self.trick is not None:
            played += sum(1 for s, _ in self.trick.plays if s == seat)
        return self.hand_size - played

    # -- spoken actions ------------------------------------------------------------------------
    def _validate_other(self, action: Action) -> None:
        seat, kind = action.seat, action.type
        if self.stage is Stage.PLAY:
            self._validate_play_stage_other(action)
            return
        if seat != self.to_act and not (self.stage is Stage.FORTUNA_GIVE and self.to_act is None):
            raise ActionError(f"{action}: out of turn, seat {self.to_act} is to act")
        if self.stage is Stage.TAKING:
            if kind is ActionType.PASS:
                return
            value = action.value or ""
            if kind is ActionType.ANNOUNCE and value == "take":
                return
            if kind is ActionType.ANNOUNCE and value == "fortuna-na-znanje":
                if self.hand_size != 10:
                    raise ActionError(f"{action}: Fortuna na znanje only with 10 cards (AMB. 53)")
                return
            raise ActionError(f"{action}: take the game (announce take), or say Dalje (pass)")
        if self.stage is Stage.DISCARD:
            if kind is not ActionType.DISCARD:
                raise ActionError(f"{action}: after three 'Dalje' every player discards 2 cards")
            self._check_own(action, action.card, "discard")
            return
        if self.stage is Stage.FORTUNA_GIVE:
            if kind is ActionType.SHOW and seat == self.soloist and self.hands is None:
                self._validate_show(action)
                return
            if kind is not ActionType.EXCHANGE or action.card != FORTUNA:
                raise ActionError(f"{action}: the holder of K♣ hands it to the soloist")
            if self.hands is not None:
                if len(action.cards) != 1 or action.cards[0] not in self.hands[self.soloist or 0]:
                    raise ActionError(f"{action}: name the soloist's card given back face down")
            return
        if kind is not ActionType.SHOW:
            raise ActionError(f"{action}: the soloist shows the joker-trump")
        self._validate_show(action)

    def _check_own(self, action: Action, card: Card | None, what: str) -> None:
        if self.hands is None:
            return
        if card is None or card not in self.hands[action.seat]:
            raise ActionError(f"{action}: {what} a card of seat {action.seat}'s hand")

    def _validate_show(self, action: Action) -> None:
        card = action.card
        if card is None or card not in self.game.deck:
            raise ActionError(f"{action}: show one card of the deck")
        if self.na_znanje and card != FORTUNA:
            raise ActionError(f"{action}: after Fortuna na znanje the K♣ must be shown")
        if self.hands is not None and card not in self.hands[action.seat]:
            if not (self.na_znanje and self.talon is not None and card in self.talon):
                raise ActionError(f"{action}: the joker-trump must be in the soloist's hand")

    def _validate_play_stage_other(self, action: Action) -> None:
        trick = self.trick
        assert trick is not None
        if action.seat != self.to_act:
            raise ActionError(f"{action}: out of turn, seat {self.to_act} is to act")
        if action.type is ActionType.PASS and len(trick.plays) == self.players:
            return  # the leader declines the second round
        if action.type is ActionType.EXCHANGE and (action.value or "talon") == "talon":
            if self.hand_size != 10 or self.exchanged or self.tricks or trick.plays:
                raise ActionError(
                    f"{action}: the talon is exchanged with 10 cards, before the lead"
                )
            if self.hands is not None:
                pool = self.hands[action.seat] | set(self.talon or ())
                assert self.jokers is not None
                if (
                    self.talon is None
                    or len(action.cards) != 2
                    or not set(action.cards) <= pool
                    or self.jokers.shown in action.cards
                ):
                    raise ActionError(
                        f"{action}: put away 2 cards of hand and talon (not the joker-trump)"
                    )
            return
        raise ActionError(f"{action}: not an action of the play")

    def _apply_other(self, action: Action) -> list[Event]:
        seat = action.seat
        shown = (action.card,) if action.card is not None else action.cards
        events: list[Event] = [ActionRecorded(seat, action.type.value, action.value, shown)]
        if self.stage is Stage.TAKING:
            if action.type is ActionType.PASS:
                self.calls.append(f"{seat}: Dalje")
                self.passes += 1
                self.to_act = self.seat(seat).next().index
                if self.passes == self.players:
                    events.extend(self._all_passed())
                return events
            self.soloist = seat
            self.na_znanje = action.value == "fortuna-na-znanje"
            self.calls.append(f"{seat}: {action.value} ({self.hand_size} cards)")
            events.append(Notice(f"seat {seat} takes the game with {self.hand_size} cards", seat))
            self.stage = Stage.SHOW
            if self.na_znanje:
                # AMBIGUITY 53: the holder hands the K♣ over; if it is the soloist's own it is
                # ordinary Fortuna, if it is in the talon the exchange becomes compulsory
                holder = self._fortuna_holder()
                if holder == -1:  # hidden hands: the holder or the soloist acts next
                    self.stage, self.to_act = Stage.FORTUNA_GIVE, None
                elif holder is not None and holder != seat:
                    self.stage, self.to_act = Stage.FORTUNA_GIVE, holder
                    events.append(TurnChanged(holder))
            return events
        if self.stage is Stage.DISCARD:
            self.discards[seat].append(action.card)
            if self.hands is not None and action.card is not None:
                self.hands[seat].discard(action.card)
            if len(self.discards[seat]) % 2 == 0:
                self.to_act = self.seat(seat).next().index
                if self.to_act == self.forehand:
                    self.hand_size -= 2
                    self.passes = 0
                    self.stage = Stage.TAKING
                    self.calls.append(f"all discard 2: taking with {self.hand_size} cards")
            return events
        if self.stage is Stage.FORTUNA_GIVE and action.type is ActionType.EXCHANGE:
            soloist = self.soloist
            assert soloist is not None
            if self.hands is not None:
                given = action.cards[0]
                self.hands[seat].discard(FORTUNA)
                self.hands[seat].add(given)
                self.hands[soloist].discard(given)
                self.hands[soloist].add(FORTUNA)
            self.knowledge.acquire(soloist, FORTUNA, -1)
            for card in action.cards:
                self.knowledge.acquire(seat, card, -1)
            self.calls.append(f"{seat}: gives K♣ to seat {soloist}")
            self.stage = Stage.SHOW
            self.to_act = soloist
            return events + [TurnChanged(soloist)]
        if self.stage is Stage.PLAY:
            if action.type is ActionType.PASS:
                self.calls.append(f"{seat}: no second round")
                assert self.trick is not None
                return events + self._complete_trick(self.trick)
            self._exchange(action)
            return events
        assert action.card is not None and self.soloist is not None
        self.jokers = Jokers(action.card)
        self.calls.append(f"{seat}: shows {action.card}")
        fortuna = " — FORTUNA: the deal counts double" if action.card == FORTUNA else ""
        events.append(
            Notice(
                f"joker-trump {action.card}: the four {action.card.rank.code}s are jokers, "
                f"{self.jokers.trump.symbol} is trump{fortuna}"
            )
        )
        self.stage = Stage.PLAY
        events.extend(self.start_play(self.soloist))
        return events

    def _exchange(self, action: Action) -> None:
        seat = action.seat
        self.exchanged = True
        self.calls.append(f"{seat}: exchanges the talon")
        if self.talon is not None:
            for card in self.talon:
                self.knowledge.acquire(seat, card, -1)
        if self.hands is not None and self.talon is not None:
            self.hands[seat] |= set(self.talon)
            self.hands[seat] -= set(action.cards)

    def _fortuna_holder(self) -> int | None:
        if self.hands is None:
            return -1  # unknown: the holder (or the soloist himself) acts next
        return next((s for s, h in self.hands.items() if FORTUNA in h), None)

    def _all_passed(self) -> list[Event]:
        if self.hand_size == HAND_SIZES[-1]:
            self.calls.append("all passed three times: redeal")
            scores = {side: 0 for side in self.game.sides}
            result = DealResult(scores, "all passed three times: redeal", extra={"redeal": True})
            return [Notice("all passed three times: the same dealer deals again"),
                    *self._finish(result)]  # fmt: skip
        self.stage = Stage.DISCARD
        self.to_act = self.forehand
        return [Notice(f"all passed with {self.hand_size} cards: everyone discards 2")]

    def _other_legal_actions(self) -> list[Action]:
        seat = self.to_act
        if self.stage is Stage.TAKING and seat is not None:
            out = [Action(seat, ActionType.PASS), Action(seat, ActionType.ANNOUNCE, value="take")]
            if self.hand_size == 10:
                out.append(Action(seat, ActionType.ANNOUNCE, value="fortuna-na-znanje"))
            return out
        if self.hands is None or seat is None:
            return []
        hand = sorted(self.hands[seat])
        if self.stage is Stage.DISCARD:
            return [Action(seat, ActionType.DISCARD, c) for c in hand]
        if self.stage is Stage.FORTUNA_GIVE:
            given = sorted(self.hands[self.soloist or 0])
            return [
                Action(seat, ActionType.EXCHANGE, FORTUNA, (c,), value="fortuna") for c in given
            ]
        if self.stage is Stage.SHOW:
            if self.na_znanje:
                return [Action(seat, ActionType.SHOW, FORTUNA)]
            return [Action(seat, ActionType.SHOW, c) for c in hand]
        trick = self.trick
        if self.stage is Stage.PLAY and trick is not None:
            if len(trick.plays) == self.players:
                return [Action(seat, ActionType.PASS)]
            if not trick.plays and not self.tricks and self.hand_size == 10 and not self.exchanged:
                assert self.jokers is not None
                pool = sorted((set(hand) | set(self.talon or ())) - {self.jokers.shown})
                return [
                    Action(seat, ActionType.EXCHANGE, cards=pair, value="talon")
                    for pair in combinations(pool, 2)
                ]
        return []

    def _must_exchange(self) -> bool:
        """Fortuna na znanje with the K♣ in the talon: the exchange is compulsory (AMB. 53)."""
        return (
            self.na_znanje
            and not self.exchanged
            and self.hands is not None
            and self.soloist is not None
            and FORTUNA not in self.hands[self.soloist]
        )

    # -- play ----------------------------------------------------------------------------------
    def _round_lead(self, trick: Trick) -> Card | None:
        n = len(trick.plays)
        if n == 0 or n == self.players:
            return None
        return trick.plays[0 if n < self.players else self.players][1]

    def _winner_card(self, trick: Trick) -> Card:
        assert self.jokers is not None
        return trick.cards[winner_index(trick.cards, self.jokers)]

    def _opponents(self, a: int, b: int) -> bool:
        return (a == self.soloist) != (b == self.soloist)

    def _may_continue(self, trick: Trick) -> bool:
        """After round one: may the leader open a second round? (§12.6, AMBIGUITY 56 (c))"""
        assert self.jokers is not None
        index = winner_index(trick.cards, self.jokers)
        leader = trick.leader
        if index == 0 or not self._opponents(leader, trick.plays[index][0]):
            return False
        if self.scores[leader] >= 30 or self._cards_left(leader) == 0:
            return False
        if self.hands is None:
            return True
        winner = trick.cards[index]
        score = self.scores[leader]
        return any(Bracket.allows(score, c, winner, self.jokers) for c in self.hands[leader])

    def _trick_complete(self, trick: Trick) -> bool:
        n = len(trick.plays)
        if n >= 2 * self.players:
            return True
        return n == self.players and not self._may_continue(trick)

    def _validate(self, action: Action) -> None:
        super()._validate(action)
        trick = self.trick
        if action.type is ActionType.PLAY and trick is not None and action.card is not None:
            if not trick.plays and not self.tricks and self._must_exchange():
                raise ActionError(f"{action}: the K♣ is in the talon: exchange first (AMB. 53)")
            if len(trick.plays) == self.players:
                assert self.jokers is not None
                score = self.scores[action.seat]
                if not Bracket.allows(score, action.card, self._winner_card(trick), self.jokers):
                    raise ActionError(
                        f"{action}: with {score} points a second round opens only with "
                        f"{_bracket_text(score)} that beats {self._winner_card(trick)}",
                        rule="second-round",
                    )

    def legal_plays(self) -> list[Card]:
        trick = self.trick
        if self.stage is not Stage.PLAY or trick is None or self.to_act is None:
            return []
        if not trick.plays and not self.tricks and self._must_exchange():
            return []
        plays = super().legal_plays()
        if len(trick.plays) == self.players:
            assert self.jokers is not None
            winner, score = self._winner_card(trick), self.scores[self.to_act]
            return [c for c in plays if Bracket.allows(score, c, winner, self.jokers)]
        return plays

    def public_cards_elsewhere(self, seat: int) -> dict[int, set[Card]]:
        if self.jokers is None or self.soloist == seat or self.jokers.shown in self.played:
            return {}
        return {self.soloist: {self.jokers.shown}}  # type: ignore[dict-item]

    def winner_index(self, trick: Trick) -> int:
        assert self.jokers is not None
        return winner_index(trick.cards, self.jokers)

    def duty(self, trick: Trick, seat: int, card: Card, other: Card) -> str | None:
        assert self.jokers is not None
        return duty(self._round_lead(trick), card, other, self.jokers)

    def duties(self, trick: Trick, seat: int) -> Callable[[Card, Card], str | None]:
        assert self.jokers is not None
        return duties(self._round_lead(trick), self.jokers)

    duty_priority = ("follow-suit", "must-trump")

    def constraint_text(self, trick: Trick, seat: int, card: Card) -> str:
        lead = self._round_lead(trick)
        assert self.jokers is not None
        if lead is None:
            return ""
        led, role = self.jokers.role(lead), self.jokers.role(card)
        if role in (led, "J"):
            return ""
        name = {"J": "joker", "T": "trump"}.get(led, led)
        if role == "T" or led == "T":
            return f"trick {trick.number}: no {name} in hand"
        return f"trick {trick.number}: no {name} and no trump in hand"

    def _after_trick(self, trick: Trick) -> list[Event]:
        if trick.number != 1:
            return []
        self.goal = "all" if trick.winner == self.soloist else "nothing"
        text = "every trick" if self.goal == "all" else "no trick"
        return [Notice(f"seat {self.soloist} must now take {text}", self.soloist)]

    # -- scores --------------------------------------------------------------------------------
    def _score(
        self, passed: bool, detail: str, violations: tuple[Violation, ...] = ()
    ) -> DealResult:
        assert self.soloist is not None and self.jokers is not None
        points = deal_points(
            passed=passed,
            hand=self.hand_size,
            exchanged=self.exchanged,
            fortuna=self.jokers.shown == FORTUNA,
            na_znanje=self.na_znanje,
        )
        scores = {side: 0 for side in self.game.sides}
        scores[str(self.soloist)] = points
        extra: dict[str, Any] = {"soloist": self.soloist}
        if passed and self.scores[self.soloist] >= 30:
            extra["marks"] = {f"exit:{self.soloist}": 1}  # AMBIGUITY 57 (b)
        verdict = "pass" if passed else "fall"
        return DealResult(scores, f"{detail}: {verdict}, seat {self.soloist} {points:+d}",
                          violations, extra)  # fmt: skip

    def _penalty(self, violation: Violation) -> DealResult:
        """The source is silent: the soloist's revoke is a fall, a defender's a pass."""
        passed = violation.seat != self.soloist
        return self._score(passed, f"{violation.rule} by seat {violation.seat}", (violation,))

    def _final_result(self) -> DealResult:
        won = sum(1 for t in self.tricks if t.winner == self.soloist)
        passed = won == len(self.tricks) if self.goal == "all" else won == 0
        detail = f"going for {self.goal}, seat {self.soloist} took {won} of {len(self.tricks)}"
        return self._score(passed, detail)

    def snapshot(self) -> dict[str, Any]:
        snap = super().snapshot()
        for item in [*snap["tricks"], snap["trick"]]:
            if item is not None and len(item["plays"]) > self.players:
                item["rounds"] = [
                    {"plays": [[s, c, "I"] for s, c in item["plays"][: self.players]]},
                    {"plays": [[s, c, "II"] for s, c in item["plays"][self.players :]]},
                ]
        return snap

    def _snapshot_game(self) -> dict[str, Any]:
        return {
            "stage": self.stage.value,
            "calls": list(self.calls),
            "hand_size": self.hand_size,
            "soloist": self.soloist,
            "joker_trump": self.jokers.shown.code if self.jokers is not None else None,
            "fortuna": self.jokers is not None and self.jokers.shown == FORTUNA,
            "na_znanje": self.na_znanje,
            "exchanged": self.exchanged,
            "goal": self.goal,
            "scores": {str(s): v for s, v in self.scores.items()},
        }


def _bracket_text(score: int) -> str:
    if score >= 30:
        return "nothing (30 or more: no second round)"
    if score <= 10:
        return "any card"
    return "a trump or joker" if score <= 20 else "a joker"
