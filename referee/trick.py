"""Trick-taking deals of one card per seat per trick (Satir, Ulti, Dvoglavac, Dvoglavi Lav...).

A game subclasses ``TrickDeal`` and fills in the hooks: the trick winner, the play duties (as
"would holding ``other`` have made this play illegal?"), what happens after a trick, the
non-play actions of its auction, the penalty of a proven violation and the final score.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from referee.actions import Action, ActionType
from referee.cards import Card, Suit, card_order
from referee.deal import Deal, DealResult, GameT, Mode, Phase
from referee.errors import IllegalPlay
from referee.events import (
    CardPlayed,
    DealScored,
    Event,
    TrickWon,
    TurnChanged,
    Violation,
    ViolationProven,
    ViolationSuspected,
)
from referee.knowledge import HandKnowledge, PlayRecord
from referee.wording import Said, evidence, part, refusal

NOT_AN_ACTION = refusal("action.not_of_game", "{action}: {type} is not an action of {game}")
SEAT_MISSING = refusal(
    "action.no_such_seat", "{action}: seat {seat} does not exist (players: {players})"
)
NEEDS_CARD = refusal("play.needs_card", "{action}: a play needs a card")
NO_PLAY_NOW = refusal("play.not_now", "{action}: no card can be played now (phase {phase})")
NOT_IN_DECK = refusal("play.not_in_deck", "{action}: {card} is not in the {deck} deck")
PLAYED_TWICE = refusal("play.twice", "{action}: {card} was already played in this deal")
OUT_OF_TURN = refusal("play.out_of_turn", "{action}: out of turn, seat {turn} is to play")
STRICT_DUTY = refusal("play.duty", "{action}: {rule} — seat {seat} holds {other}")
NOT_IN_HAND = refusal(
    "play.not_in_hand", "seat {seat} plays {card}: that card is not in seat {seat}'s hand"
)
SHOWN_ELSEWHERE = refusal(
    "play.shown_elsewhere", "seat {seat} plays {card}: that card is shown in front of seat {other}"
)
NEEDS_HANDS = refusal("play.legal_needs_hands", "legal plays need known hands")

#: a play proven illegal by a card the seat played later
LATER_CARD = evidence(
    "revoke.later_card",
    "at trick {trick} seat {seat} played {card} ({constraint}); at trick {proven} the same seat "
    "played {witness}, which it must have held then",
)
#: a play proven illegal by the seat's known hand
KNOWN_HAND = evidence(
    "revoke.known_hand", "seat {seat} played {card} while holding {held} (known hand)"
)
#: the duty a play broke, where the play told nothing more about the hand
RULE_NAMED = part("part.rule", "{rule}")
#: what a play tells about the hand (``constraint_text``): the led suit (or ``trump``) lacking
NO_LED = part("part.no_led", "trick {trick}: no {led} in hand")
NO_LED_NO_TRUMP = part("part.no_led_no_trump", "trick {trick}: no {led} and no trump in hand")
NO_LED_NO_SUIT = part("part.no_led_no_suit", "trick {trick}: no {led} and no {trump} in hand")


@dataclass
class Trick:
    number: int  # 1-based
    leader: int
    plays: list[tuple[int, Card]] = field(default_factory=list)
    winner: int | None = None

    @property
    def lead(self) -> Card | None:
        return self.plays[0][1] if self.plays else None

    @property
    def lead_suit(self) -> Suit | None:
        lead = self.lead
        return lead.suit if lead is not None else None

    @property
    def cards(self) -> list[Card]:
        return [card for _, card in self.plays]

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "leader": self.leader,
            "plays": [[s, c.code] for s, c in self.plays],
            "winner": self.winner,
        }


class TrickDeal(Deal[GameT]):
    """A deal of tricks of one round each; see the module docstring for the hooks."""

    # -- state ---------------------------------------------------------------------------------
    def _reset(self) -> None:
        self.hands: dict[int, set[Card]] | None = (
            {s: set(cards) for s, cards in self.initial_hands.items()}
            if self.initial_hands is not None
            else None
        )
        self.played: set[Card] = set()
        self.tricks: list[Trick] = []
        self.trick: Trick | None = None
        self.to_act: int | None = None
        self.ply = 0
        self.knowledge = HandKnowledge(self.players)
        self.taken: dict[int, list[Card]] = {s: [] for s in range(self.players)}
        self.suspected: list[ViolationSuspected] = []
        self.proven: list[Violation] = []
        self.phase = Phase.SETUP
        self._result: DealResult | None = None
        self._free_cache: tuple[int, set[Card], frozenset[Card]] | None = None
        self._reset_game()

    @abstractmethod
    def _reset_game(self) -> None:
        """Reset the game's own state; set ``phase``/``to_act`` for the first action."""

    def start_play(self, leader: int) -> list[Event]:
        self.phase = Phase.PLAY
        self.trick = Trick(1, leader)
        self.to_act = leader
        return [TurnChanged(leader)]

    # -- hooks ---------------------------------------------------------------------------------
    @property
    @abstractmethod
    def tricks_per_deal(self) -> int: ...

    @abstractmethod
    def winner_index(self, trick: Trick) -> int:
        """Index into ``trick.plays`` of the winning card of a complete trick."""

    def duty(self, trick: Trick, seat: int, card: Card, other: Card) -> str | None:
        """The rule broken by playing ``card`` now had ``seat`` also held ``other`` (or None)."""
        return None

    def duties(self, trick: Trick, seat: int) -> Callable[[Card, Card], str | None]:
        """``duty`` at one moment, as a function of ``(card, other)``: a game whose duties
        depend on what the trick shows (the lead, the winning card) works that out here once
        for all the pairs of cards judged at that moment; by default ``duty`` itself."""
        return partial(self.duty, trick, seat)

    def constraint_text(self, trick: Trick, seat: int, card: Card) -> Said | None:
        """What this play tells about the seat's hand (for the evidence), or None."""
        return None

    def public_witness(self, trick: Trick, seat: int, card: Card) -> tuple[str, Said] | None:
        """(rule, evidence) if public information (not a known hand) proves the play illegal."""
        return None

    def _after_trick(self, trick: Trick) -> list[Event]:
        return []

    def _trick_complete(self, trick: Trick) -> bool:
        """Is the trick over after its latest card? One round by default; games of multi-round
        tricks (Fortuna) override this (play then passes on to the next seat)."""
        return len(trick.plays) == self.players

    def _validate_other(self, action: Action) -> None:
        raise NOT_AN_ACTION.error(action=action, type=action.type, game=self.game.name)

    def _apply_other(self, action: Action) -> list[Event]:
        raise AssertionError("validated")

    def _other_legal_actions(self) -> list[Action]:
        return []

    @abstractmethod
    def _penalty(self, violation: Violation) -> DealResult:
        """The deal's result when ``violation`` is proven and the rules stop the deal."""

    @abstractmethod
    def _final_result(self) -> DealResult:
        """The deal's result after the last trick."""

    def _stops_on_violation(self, violation: Violation) -> bool:
        return True

    # -- validation ----------------------------------------------------------------------------
    def _validate(self, action: Action) -> None:
        if not 0 <= action.seat < self.players:
            raise SEAT_MISSING.error(action=action, seat=action.seat, players=self.players)
        if action.type is not ActionType.PLAY:
            self._validate_other(action)
            return
        card = action.card
        if card is None:
            raise NEEDS_CARD.error(action=action)
        if self.phase is not Phase.PLAY or self.trick is None:
            raise NO_PLAY_NOW.error(action=action, phase=self.phase)
        deck = self._deck.card_set
        if card not in deck and card.logical not in deck:  # QC#1 in doubled
            raise NOT_IN_DECK.error(action=action, card=card, deck=self._deck)
        if card in self.played:
            raise PLAYED_TWICE.error(action=action, card=card, rule="card-played-twice")
        if action.seat != self.to_act:
            raise OUT_OF_TURN.error(action=action, turn=self.to_act, rule="out-of-turn")
        self._validate_card_source(action.seat, card)
        if self.mode is Mode.STRICT and self.hands is not None and card not in self._known_free():
            judge = self.duties(self.trick, action.seat)
            for other in sorted(self.hands[action.seat], key=card_order):
                if other == card:
                    continue
                rule = judge(card, other)
                if rule is not None:
                    raise STRICT_DUTY.error(
                        IllegalPlay, action=action, rule=rule, seat=action.seat, other=other
                    )

    def _validate_card_source(self, seat: int, card: Card) -> None:
        if self.hands is not None and card not in self.hands[seat]:
            raise NOT_IN_HAND.error(seat=seat, card=card)
        for other, cards in self.public_cards_elsewhere(seat).items():
            if card in cards:
                raise SHOWN_ELSEWHERE.error(seat=seat, card=card, other=other)

    def public_cards_elsewhere(self, seat: int) -> dict[int, set[Card]]:
        """Cards known to lie elsewhere (other seats' fans...), which ``seat`` cannot play."""
        return {}

    # -- applying ------------------------------------------------------------------------------
    def _apply(self, action: Action) -> list[Event]:
        if action.type is not ActionType.PLAY:
            return self._apply_other(action)
        assert action.card is not None and self.trick is not None
        seat, card, trick = action.seat, action.card, self.trick
        events: list[Event] = []
        proven: list[Violation] = []
        for rec, rule in self.knowledge.witnessed(seat, card):
            said = LATER_CARD(
                trick=rec.trick,
                seat=seat,
                card=rec.card,
                proven=trick.number,
                witness=card,
                constraint=rec.constraint or RULE_NAMED(rule=rule),
            )
            proven.append(
                Violation.of(
                    said,
                    seat=seat,
                    rule=rule,
                    trick=rec.trick,
                    card=rec.card,
                    witness=card,
                    proven_at_trick=trick.number,
                )
            )
        proven.extend(self._immediate(trick, seat, card))
        if self.hands is None and (
            not proven or all(v.trick != trick.number or v.card != card for v in proven)
        ):
            self._suspect(trick, seat, card, events)  # only the hidden hands are suspected
        constraint = self.constraint_text(trick, seat, card)
        self.knowledge.record(
            PlayRecord(
                seat=seat,
                trick=trick.number,
                ply=self.ply,
                card=card,
                duty=_bind(self, trick_snapshot(trick), seat, card),
                constraint=constraint,
                proven=bool(proven)
                and any(v.trick == trick.number and v.card == card for v in proven),
            )
        )
        if self.hands is not None:
            self.hands[seat].discard(card)
        self.played.add(card)
        trick.plays.append((seat, card))
        self._free_cache = None
        self.ply += 1
        events.append(CardPlayed(seat, card, trick.number, action.value or "play"))
        for violation in proven:
            events.append(ViolationProven(violation))
            self.proven.append(violation)
            self._violate(violation)
        if proven and any(self._stops_on_violation(v) for v in proven):
            result = self._penalty(proven[0])
            events.extend(self._finish(result))
            return events
        if self._trick_complete(trick):
            events.extend(self._complete_trick(trick))
        else:
            self.to_act = (seat + 1) % self.players  # the next seat
            events.append(TurnChanged(self.to_act))
        return events

    def _immediate(self, trick: Trick, seat: int, card: Card) -> list[Violation]:
        if self.hands is not None:
            if trick is self.trick and seat == self.to_act and card in self._known_free():
                return []  # the legal plays listed in this state hold it: no card forbids it
            judge = self.duties(trick, seat)
            for other in sorted(self.hands[seat], key=card_order):
                if other == card:
                    continue
                rule = judge(card, other)
                if rule is not None:
                    said = KNOWN_HAND(seat=seat, card=card, held=other)
                    return [
                        Violation.of(
                            said, seat=seat, rule=rule, trick=trick.number, card=card,
                            witness=other, proven_at_trick=trick.number,
                        )
                    ]  # fmt: skip
            return []
        found = self.public_witness(trick, seat, card)
        if found is None:
            return []
        rule, said = found
        return [
            Violation.of(
                said, seat=seat, rule=rule, trick=trick.number, card=card, witness=None,
                proven_at_trick=trick.number,
            )
        ]  # fmt: skip

    #: the order in which suspected duties are named (the first that could apply is reported)
    duty_priority: tuple[str, ...] = (
        "follow-suit",
        "must-overtake",
        "must-trump",
        "must-overtrump",
    )

    def _suspect(self, trick: Trick, seat: int, card: Card, events: list[Event]) -> None:
        if self.hands is not None:
            return
        elsewhere = set().union(*self.public_cards_elsewhere(seat).values())
        rules: set[str] = set()
        judge = self.duties(trick, seat)
        for other in self._deck.cards:
            if other == card or other in self.played or other in elsewhere:
                continue
            rule = judge(card, other)
            if rule is not None:
                rules.add(rule)
        if rules:
            order = {name: i for i, name in enumerate(self.duty_priority)}
            rule = min(rules, key=lambda r: (order.get(r, len(order)), r))
            suspicion = ViolationSuspected(seat, rule, trick.number, card)
            self.suspected.append(suspicion)
            events.append(suspicion)

    def _complete_trick(self, trick: Trick) -> list[Event]:
        index = self.winner_index(trick)
        winner = trick.plays[index][0]
        trick.winner = winner
        self.tricks.append(trick)
        self.taken[winner].extend(trick.cards)
        points = sum(self.game.card_points(c) for c in trick.cards)
        events: list[Event] = [
            TrickWon(trick.number, trick.leader, winner, tuple(trick.plays), points)
        ]
        events.extend(self._after_trick(trick))
        if self.is_over:
            self.trick = None
            return events
        if len(self.tricks) >= self.tricks_per_deal:
            self.trick = None  # no trick in progress once the last one is taken
            events.extend(self._finish(self._final_result()))
            return events
        self.trick = Trick(trick.number + 1, winner)
        self.to_act = winner
        events.append(TurnChanged(winner))
        return events

    def _finish(self, result: DealResult) -> list[Event]:
        self._result = result
        self.phase = Phase.OVER
        self.to_act = None
        return [DealScored(dict(result.scores), result.detail, result.said)]

    # -- queries -------------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def result(self) -> DealResult | None:
        return self._result

    def legal_plays(self) -> list[Card]:
        """The cards the seat to act may play (needs its hand known)."""
        if self.phase is not Phase.PLAY or self.to_act is None or self.trick is None:
            return []
        if self.hands is None:
            raise NEEDS_HANDS.error()
        return sorted(self._duty_free(), key=card_order)

    def _duty_free(self) -> frozenset[Card]:
        """The cards of the hand to act that no other card of it forbids, worked out once per
        state (the legal plays are listed, then the card chosen is judged against the hand)."""
        assert self.hands is not None and self.trick is not None and self.to_act is not None
        hand, trick, seat = self.hands[self.to_act], self.trick, self.to_act
        kept = self._free_cache
        if kept is not None and kept[0] == self.version and kept[1] is hand:
            return kept[2]
        judge = self.duties(trick, seat)
        free = frozenset(c for c in hand if not _forbidden(judge, c, hand))
        self._free_cache = (self.version, hand, free)
        return free

    def _known_free(self) -> frozenset[Card]:
        """``_duty_free`` if it was worked out in this state, else nothing."""
        kept = self._free_cache
        hand = (
            self.hands[self.to_act] if self.hands is not None and self.to_act is not None else None
        )
        if kept is not None and kept[0] == self.version and kept[1] is hand:
            return kept[2]
        return frozenset()

    def legal_actions(self) -> list[Action]:
        others = self._other_legal_actions()
        if self.phase is Phase.PLAY and self.to_act is not None:
            seat, play = self.to_act, ActionType.PLAY
            return others + [Action.kept(seat, play, c) for c in self.legal_plays()]
        return others

    def card_points_by_side(self) -> dict[str, int]:
        points = {side: 0 for side in self.game.sides}
        for seat, cards in self.taken.items():
            points[self.game.side_of(seat)] += sum(self.game.card_points(c) for c in cards)
        for side, extra in self._extra_points().items():
            points[side] += extra
        return points

    def _extra_points(self) -> dict[str, int]:
        """Card points outside the tricks (talon, centre cards), by side."""
        return {}

    def tricks_won(self, seat: int) -> int:
        return sum(1 for t in self.tricks if t.winner == seat)

    def snapshot(self) -> dict[str, Any]:
        return {
            "game": self.game.spec,
            "phase": self.phase.value,
            "dealer": self.dealer,
            "to_act": self.to_act,
            "trick": self.trick.to_dict() if self.trick is not None else None,
            "tricks": [t.to_dict() for t in self.tricks],
            "taken": {str(s): len(c) for s, c in self.taken.items()},
            "hand_sizes": (
                {str(s): len(h) for s, h in self.hands.items()} if self.hands is not None else None
            ),
            "suspected": [e.to_dict() for e in self.suspected],
            "violations": [v.to_dict() for v in self.proven],
            "constraints": {str(s): self.knowledge.constraints(s) for s in range(self.players)},
            "result": (
                {"scores": self._result.scores, "detail": self._result.detail}
                if self._result is not None
                else None
            ),
            **self._snapshot_game(),
        }

    def _snapshot_game(self) -> dict[str, Any]:
        return {}


def _forbidden(judge: Callable[[Card, Card], str | None], card: Card, hand: set[Card]) -> bool:
    """Does another card of ``hand`` make playing ``card`` illegal?"""
    for other in hand:
        if other is not card and judge(card, other) is not None:
            return True
    return False


def trick_snapshot(trick: Trick) -> Trick:
    """A frozen copy of the trick as it stood before a play (duties are judged against it)."""
    return Trick(trick.number, trick.leader, list(trick.plays), trick.winner)


def _bind(deal: TrickDeal, trick: Trick, seat: int, card: Card):  # type: ignore[no-untyped-def]
    """The duty of one recorded play, as a function of the other card. The game's duties at
    that moment are worked out when the first card is judged and kept for the later ones (a
    seat's later plays are judged against every earlier play of it)."""
    judge: Callable[[Card, Card], str | None] | None = None

    def duty(other: Card) -> str | None:
        nonlocal judge
        if other == card:
            return None
        if judge is None:
            judge = deal.duties(trick, seat)
        return judge(card, other)

    return duty
