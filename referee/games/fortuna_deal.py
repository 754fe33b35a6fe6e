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
from referee.trick import NO_LED, NO_LED_NO_TRUMP, Trick, TrickDeal
from referee.wording import Said, detail, notice, part, refusal

R_ACTION_PLAY = refusal("fortuna.action_play", "{action}: not an action of the play")
R_OUT_TURN_SEAT_ACT = refusal(
    "fortuna.out_turn_seat_act", "{action}: out of turn, seat {to_act} is to act"
)
R_TAKE_GAME_ANNOUNCE_TAKE = refusal(
    "fortuna.take_game_announce_take",
    "{action}: take the game (announce take), or say Dalje (pass)",
)
R_SOLOIST_SHOWS_JOKER_TRUMP = refusal(
    "fortuna.soloist_shows_joker_trump", "{action}: the soloist shows the joker-trump"
)
R_CARD_SEAT_HAND = refusal(
    "fortuna.card_seat_hand", "{action}: discard a card of seat {seat}'s hand"
)
R_SHOW_ONE_CARD_DECK = refusal("fortuna.show_one_card_deck", "{action}: show one card of the deck")
R_AFTER_FORTUNA_NA_ZNANJE = refusal(
    "fortuna.after_fortuna_na_znanje", "{action}: after Fortuna na znanje the K♣ must be shown"
)
R_AFTER_THREE_DALJE_EVERY = refusal(
    "fortuna.after_three_dalje_every", "{action}: after three 'Dalje' every player discards 2 cards"
)
R_HOLDER_K_HANDS_IT = refusal(
    "fortuna.holder_k_hands_it", "{action}: the holder of K♣ hands it to the soloist"
)
R_JOKER_TRUMP_MUST_SOLOIST = refusal(
    "fortuna.joker_trump_must_soloist", "{action}: the joker-trump must be in the soloist's hand"
)
R_TALON_EXCHANGED_WITH_CARDS = refusal(
    "fortuna.talon_exchanged_with_cards",
    "{action}: the talon is exchanged with 10 cards, before the lead",
)
R_K_TALON_EXCHANGE_FIRST = refusal(
    "fortuna.k_talon_exchange_first", "{action}: the K♣ is in the talon: exchange first (AMB. 53)"
)
R_FORTUNA_NA_ZNANJE_WITH = refusal(
    "fortuna.fortuna_na_znanje_with", "{action}: Fortuna na znanje only with 10 cards (AMB. 53)"
)
R_NAME_SOLOIST_CARD_GIVEN = refusal(
    "fortuna.name_soloist_card_given", "{action}: name the soloist's card given back face down"
)
R_PUT_AWAY_CARDS_HAND = refusal(
    "fortuna.put_away_cards_hand",
    "{action}: put away 2 cards of hand and talon (not the joker-trump)",
)
R_WITH_POINTS_SECOND_ROUND = refusal(
    "fortuna.with_points_second_round",
    "{action}: with {score} points a second round opens only with {bracket} that beats {winner_card}",
)

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
            raise R_OUT_TURN_SEAT_ACT.error(action=action, to_act=self.to_act)
        if self.stage is Stage.TAKING:
            if kind is ActionType.PASS:
                return
            value = action.value or ""
            if kind is ActionType.ANNOUNCE and value == "take":
                return
            if kind is ActionType.ANNOUNCE and value == "fortuna-na-znanje":
                if self.hand_size != 10:
                    raise R_FORTUNA_NA_ZNANJE_WITH.error(action=action)
                return
            raise R_TAKE_GAME_ANNOUNCE_TAKE.error(action=action)
        if self.stage is Stage.DISCARD:
            if kind is not ActionType.DISCARD:
                raise R_AFTER_THREE_DALJE_EVERY.error(action=action)
            self._check_own(action, action.card, "discard")
            return
        if self.stage is Stage.FORTUNA_GIVE:
            if kind is ActionType.SHOW and seat == self.soloist and self.hands is None:
                self._validate_show(action)
                return
            if kind is not ActionType.EXCHANGE or action.card != FORTUNA:
                raise R_HOLDER_K_HANDS_IT.error(action=action)
            if self.hands is not None:
                if len(action.cards) != 1 or action.cards[0] not in self.hands[self.soloist or 0]:
                    raise R_NAME_SOLOIST_CARD_GIVEN.error(action=action)
            return
        if kind is not ActionType.SHOW:
            raise R_SOLOIST_SHOWS_JOKER_TRUMP.error(action=action)
        self._validate_show(action)

    def _check_own(self, action: Action, card: Card | None, what: str) -> None:
        if self.hands is None:
            return
        if card is None or card not in self.hands[action.seat]:
            raise R_CARD_SEAT_HAND.error(action=action, seat=action.seat)

    def _validate_show(self, action: Action) -> None:
        card = action.card
        if card is None or card not in self.game.deck:
            raise R_SHOW_ONE_CARD_DECK.error(action=action)
        if self.na_znanje and card != FORTUNA:
            raise R_AFTER_FORTUNA_NA_ZNANJE.error(action=action)
        if self.hands is not None and card not in self.hands[action.seat]:
            if not (self.na_znanje and self.talon is not None and card in self.talon):
                raise R_JOKER_TRUMP_MUST_SOLOIST.error(action=action)

    def _validate_play_stage_other(self, action: Action) -> None:
        trick = self.trick
        assert trick is not None
        if action.seat != self.to_act:
            raise R_OUT_TURN_SEAT_ACT.error(action=action, to_act=self.to_act)
        if action.type is ActionType.PASS and len(trick.plays) == self.players:
            return  # the leader declines the second round
        if action.type is ActionType.EXCHANGE and (action.value or "talon") == "talon":
            if self.hand_size != 10 or self.exchanged or self.tricks or trick.plays:
                raise R_TALON_EXCHANGED_WITH_CARDS.error(action=action)
            if self.hands is not None:
                pool = self.hands[action.seat] | set(self.talon or ())
                assert self.jokers is not None
                if (
                    self.talon is None
                    or len(action.cards) != 2
                    or not set(action.cards) <= pool
                    or self.jokers.shown in action.cards
                ):
                    raise R_PUT_AWAY_CARDS_HAND.error(action=action)
            return
        raise R_ACTION_PLAY.error(action=action)

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
            events.append(Notice.of(TAKES(seat=seat, size=self.hand_size), seat))
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
        kind = JOKER_TRUMP_FORTUNA if action.card == FORTUNA else JOKER_TRUMP
        said = kind(card=action.card, rank=action.card.rank.code, trump=self.jokers.trump.symbol)
        events.append(Notice.of(said))
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
            result = DealResult.of(scores, REDEAL(), extra={"redeal": True})
            return [Notice.of(DEALS_AGAIN()), *self._finish(result)]
        self.stage = Stage.DISCARD
        self.to_act = self.forehand
        return [Notice.of(EVERYONE_DISCARDS(size=self.hand_size))]

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
                raise R_K_TALON_EXCHANGE_FIRST.error(action=action)
            if len(trick.plays) == self.players:
                assert self.jokers is not None
                score = self.scores[action.seat]
                if not Bracket.allows(score, action.card, self._winner_card(trick), self.jokers):
                    raise R_WITH_POINTS_SECOND_ROUND.error(
                        action=action,
                        score=score,
                        bracket=_bracket_text(score),
                        winner_card=self._winner_card(trick),
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

    duty_priority: tuple[str, ...] = ("follow-suit", "must-trump")

    def constraint_text(self, trick: Trick, seat: int, card: Card) -> Said | None:
        lead = self._round_lead(trick)
        assert self.jokers is not None
        if lead is None:
            return None
        led, role = self.jokers.role(lead), self.jokers.role(card)
        if role in (led, "J"):
            return None
        name = {"J": "joker", "T": "trump"}.get(led, led)
        if role == "T" or led == "T":
            return NO_LED(trick=trick.number, led=name)
        return NO_LED_NO_TRUMP(trick=trick.number, led=name)

    def _after_trick(self, trick: Trick) -> list[Event]:
        if trick.number != 1:
            return []
        self.goal = "all" if trick.winner == self.soloist else "nothing"
        kind = MUST_TAKE_ALL if self.goal == "all" else MUST_TAKE_NONE
        return [Notice.of(kind(seat=self.soloist), self.soloist)]

    # -- scores --------------------------------------------------------------------------------
    def _score(
        self, passed: bool, detail: Said, violations: tuple[Violation, ...] = ()
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
        kind = SCORED_PASS if passed else SCORED_FALL
        said = kind(what=detail, seat=self.soloist, points=f"{points:+d}")
        return DealResult.of(scores, said, violations, extra)

    def _penalty(self, violation: Violation) -> DealResult:
        """The source is silent: the soloist's revoke is a fall, a defender's a pass."""
        passed = violation.seat != self.soloist
        return self._score(passed, BROKEN(rule=violation.rule, seat=violation.seat), (violation,))

    def _final_result(self) -> DealResult:
        won = sum(1 for t in self.tricks if t.winner == self.soloist)
        passed = won == len(self.tricks) if self.goal == "all" else won == 0
        kind = GOING_ALL if self.goal == "all" else GOING_NOTHING
        return self._score(passed, kind(seat=self.soloist, won=won, of=len(self.tricks)))

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


TAKES = notice("fortuna.takes", "seat {seat} takes the game with {size} cards")
JOKER_TRUMP = notice(
    "fortuna.joker_trump", "joker-trump {card}: the four {rank}s are jokers, {trump} is trump"
)
JOKER_TRUMP_FORTUNA = notice(
    "fortuna.joker_trump_fortuna",
    "joker-trump {card}: the four {rank}s are jokers, {trump} is trump — FORTUNA: the deal "
    "counts double",
)
REDEAL = detail("fortuna.redeal", "all passed three times: redeal")
DEALS_AGAIN = notice("fortuna.deals_again", "all passed three times: the same dealer deals again")
EVERYONE_DISCARDS = notice(
    "fortuna.everyone_discards", "all passed with {size} cards: everyone discards 2"
)
MUST_TAKE_ALL = notice("fortuna.must_take_all", "seat {seat} must now take every trick")
MUST_TAKE_NONE = notice("fortuna.must_take_none", "seat {seat} must now take no trick")
SCORED_PASS = detail("fortuna.scored_pass", "{what}: pass, seat {seat} {points}")
SCORED_FALL = detail("fortuna.scored_fall", "{what}: fall, seat {seat} {points}")
BROKEN = part("fortuna.broken", "{rule} by seat {seat}")
GOING_ALL = part("fortuna.going_all", "going for all, seat {seat} took {won} of {of}")
GOING_NOTHING = part("fortuna.going_nothing", "going for nothing, seat {seat} took {won} of {of}")
BRACKET_NONE = part("fortuna.bracket_none", "nothing (30 or more: no second round)")
BRACKET_ANY = part("fortuna.bracket_any", "any card")
BRACKET_TRUMP = part("fortuna.bracket_trump", "a trump or joker")
BRACKET_JOKER = part("fortuna.bracket_joker", "a joker")


def _bracket_text(score: int) -> Said:
    if score >= 30:
        return BRACKET_NONE()
    if score <= 10:
        return BRACKET_ANY()
    return BRACKET_TRUMP() if score <= 20 else BRACKET_JOKER()
