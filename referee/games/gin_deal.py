"""The deal of gin rummy (RULES.md §14): draws, discards, the knock, lay-offs and the score.

Gin rummy is not a trick game, so this is its own ``Deal``. The referee sees the upcard, every
discard and every card taken from the discard pile; stock draws are hidden (a DRAW from the
stock may carry ``card=None`` in table mode) and the hands are exposed at the knock, where the
knock is checked. Nothing is guessed: an unknown card stays unknown until it is shown.

Actions (``referee.actions.ActionType``):

* ``PASS`` - refuse the first upcard (non-dealer first, then dealer); at the wall, end the
  deal with no score.
* ``DRAW`` - ``value`` ``"stock"`` or ``"upcard"`` (the top of the discard pile); ``card``
  is the card drawn (optional where the referee knows it or cannot see it).
* ``DISCARD`` - ``card`` is the card laid face up on the discard pile.
* ``KNOCK`` - right after one's own discard; ``cards`` are the exposed ten cards (may be
  empty where the hand is known). Deadwood 0 is gin.
* ``LAYOFF`` - the defender lays ``card`` off on the knocker's melds.
* ``SHOW`` - the defender exposes his remaining cards (``value`` "hand"); the hand is scored.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from referee.actions import Action, ActionType, card_list
from referee.cards import Card, Suit, card_order
from referee.deal import Deal, DealResult
from referee.events import (
    ActionRecorded,
    CardPickedUp,
    DealScored,
    Event,
    Notice,
    TurnChanged,
    Violation,
    ViolationProven,
)
from referee.games.gin_rules import (
    Arrangement,
    card_value,
    format_hand,
    knock_deadwood,
    layoff_candidates,
    layoffs_fit,
    min_deadwood,
    optimal_arrangements,
    score_hand,
)
from referee.setup import FieldKind, SetupField
from referee.wording import Said, detail, evidence, notice, part, refusal

STOPPED = detail(
    "gin.stopped",
    "{rule} by seat {seat}: hand stopped, seat {other} scores {points} (F3 names no penalty; "
    "option 'penalty')",
)
DEAD = detail(
    "gin.dead", "the stock is down to {wall} cards and nobody knocked: no score (AMBIGUITY 71)"
)
GIN = notice("gin.gin", "seat {seat}: gin; {best}")
KNOCK = notice("gin.knock", "seat {seat}: knock with {deadwood}; {best}")
HANDS = {
    "gin": part("gin.hand_gin", "gin"),
    "knock": part("gin.hand_knock", "knock"),
    "undercut": part("gin.hand_undercut", "undercut"),
}
SCORED = detail(
    "gin.scored",
    "{result}: seat {seat} deadwood {deadwood}, seat {other} deadwood {other_deadwood} after "
    "lay-offs ({laid_cards}); seat {winner} scores {points}",
)
SCORED_DOUBLED = detail(
    "gin.scored_doubled",
    "{result}: seat {seat} deadwood {deadwood}, seat {other} deadwood {other_deadwood} after "
    "lay-offs ({laid_cards}); seat {winner} scores {points} (spade upcard: doubled)",
)
IN_PILE = part("gin.in_pile", "in the discard pile")
IN_HAND = part("gin.in_hand", "in seat {seat}'s hand")
NOT_IN_HAND = part("gin.not_in_hand", "not in seat {seat} hand")
ALREADY_IN_HAND = part("gin.already_in_hand", "already in the hand")
LAID_OFF = part("gin.laid_off", "laid off")
IN_STOCK = part("gin.in_stock", "still in the stock")
DISCARDS = part("gin.discards", "discards")
LAYS_OFF = part("gin.lays_off", "lays off")

DREW_STOCK = evidence(
    "gin.drew_stock", "turn {turn}: seat {seat} drew from the stock while seat {other} was to draw"
)
DREW_PILE = evidence(
    "gin.drew_pile",
    "turn {turn}: seat {seat} drew from the discard pile while seat {other} was to draw",
)
DREW_STOCK_DISCARD = evidence(
    "gin.drew_stock_discard",
    "turn {turn}: seat {seat} drew from the stock while seat {other} had drawn and was to discard",
)
DREW_PILE_DISCARD = evidence(
    "gin.drew_pile_discard",
    "turn {turn}: seat {seat} drew from the discard pile while seat {other} had drawn and was to discard",
)
BAD_KNOCK = evidence(
    "gin.bad_knock",
    "turn {turn}: seat {seat} knocked with {hand}; the best arrangement is {best}, over the knock limit {limit}",
)

R_GIN_RUMMY_NEEDS_FIRST = refusal(
    "gin.gin_rummy_needs_first", "gin rummy needs the first upcard in the deal ('upcard')"
)
R_STOCK_EXPECTED_CARDS_GOT = refusal(
    "gin.stock_expected_cards_got", "stock: expected {stock_left} cards, got {stock_count}"
)
R_UPCARD_STOCK_CARD_ALSO = refusal(
    "gin.upcard_stock_card_also", "the upcard or a stock card is also in a hand"
)
R_SEAT_THAT_CARD = refusal("gin.card_not_held", "seat {seat} {what} {card}: that card is {where}")
R_SEAT_DOES_EXIST_PLAYERS = refusal(
    "gin.seat_does_exist_players", "{action}: seat {seat} does not exist (players: 2)"
)
R_FRENCH_DECK = refusal("gin.french_deck", "{action}: {card} is not in the french-52 deck")
R_DRAW_FROM_STOCK_UPCARD = refusal(
    "gin.draw_from_stock_upcard", "{action}: draw from 'stock' or 'upcard'"
)
R_NOBODY_DRAWS_AFTER_KNOCK = refusal(
    "gin.nobody_draws_after_knock", "{action}: nobody draws after the knock"
)
R_SEAT_FIRST_TAKES_REFUSES = refusal(
    "gin.seat_first_takes_refuses", "{action}: seat {seat} first takes or refuses the upcard (PASS)"
)
R_STOCK_DOWN_CARDS_HAND = refusal(
    "gin.stock_down_cards_hand", "{action}: the stock is down to {wall} cards; the hand is dead"
)
R_FIRST_UPCARD_CAN_REFUSED = refusal(
    "gin.first_upcard_can_refused", "{action}: only the first upcard can be refused"
)
R_SEAT_DECIDES_ON_UPCARD = refusal(
    "gin.seat_decides_on_upcard", "{action}: seat {to_act} decides on the upcard now"
)
R_SEAT_CANNOT_DISCARD_NOW = refusal(
    "gin.seat_cannot_discard_now", "{action}: seat {seat} cannot discard now (draw first)"
)
R_DISCARD_NEEDS_CARD = refusal("gin.discard_needs_card", "{action}: a discard needs a card")
R_CARD_TAKEN_FROM_DISCARD = refusal(
    "gin.card_taken_from_discard",
    "{action}: the card taken from the discard pile may not be discarded in the same turn (AMBIGUITY 71)",
)
R_KNOCK_COMES_RIGHT_AFTER = refusal(
    "gin.knock_comes_right_after", "{action}: a knock comes right after one's own discard"
)
R_SEAT_SHOWS_CARDS_HAND = refusal(
    "gin.seat_shows_cards_hand", "seat {seat} shows {cards_count} cards; the hand has {size}"
)
R_SEAT_SHOWN_HAND_LACKS = refusal(
    "gin.seat_shown_hand_lacks", "seat {seat}'s shown hand lacks {cards}"
)
R_DEFENDER_LAYS_OFF_AFTER = refusal(
    "gin.defender_lays_off_after", "{action}: only the defender lays off, after the knock"
)
R_LAY_OFFS_AGAINST_GIN = refusal(
    "gin.lay_offs_against_gin", "{action}: no lay-offs against gin (option layoff-on-gin)"
)
R_LAY_OFF_NEEDS_CARD = refusal("gin.lay_off_needs_card", "{action}: a lay-off needs a card")
R_DOES_FIT_KNOCKER_MELDS = refusal(
    "gin.does_fit_knocker_melds", "{action}: {card} does not fit the knocker's melds ({melds})"
)
R_DEFENDER_SHOWS_HIS_HAND = refusal(
    "gin.defender_shows_his_hand", "{action}: the defender shows his hand after the knock"
)
R_LEGAL_ACTIONS_NEED_KNOWN = refusal(
    "gin.legal_actions_need_known", "legal actions need known hands"
)
R_BOTH_REFUSED_FIRST_UPCARD = refusal(
    "gin.both_refused_first_upcard", "{action}: both refused the first upcard; take from the stock"
)
R_TOP_DISCARD_PILE = refusal(
    "gin.top_discard_pile", "{action}: the top of the discard pile is {pile_card}"
)
R_TOP_STOCK = refusal("gin.top_stock", "{action}: the top of the stock is {stock_card}")
R_SEAT_MUST_SHOW_CARDS = refusal(
    "gin.seat_must_show_cards", "seat {seat} must show the cards of the hand"
)
R_SEAT_SHOWS_WHICH = refusal("gin.seat_shows_which", "seat {seat} shows {card}, which is {where}")
R_HANDS_SEAT_MUST_DEALT = refusal(
    "gin.hands_seat_must_dealt", "hands: seat {seat} must be dealt {size} cards"
)
R_ERROR = refusal("gin.card_elsewhere", "{action}: {card} is {where}")
R_ACTION_GIN_RUMMY = refusal(
    "gin.action_gin_rummy", "{action}: {type} is not an action of gin rummy"
)

if TYPE_CHECKING:
    from referee.games.gin_rummy import GinRummy  # noqa: F401 - the base class's type argument

HAND_SIZE = 10
WALL = 2  # AMBIGUITY 71: with 2 cards left in the stock and no knock, the hand is dead
UPCARD_WORDS = ("upcard", "discard", "pile")


class GinPhase(enum.Enum):
    FIRST_UPCARD = "first-upcard"  # the refusal sequence of the first upcard (§14.3.1)
    DRAW = "draw"
    DISCARD = "discard"
    WALL = "wall"  # stock down to two cards: knock now or the hand is dead
    LAYOFF = "layoff"
    OVER = "over"


class GinDeal(Deal["GinRummy"]):
    """One hand of gin rummy. Seats 0 and 1; the non-dealer acts first."""

    setup_fields: ClassVar[Mapping[str, SetupField]] = {
        "upcard": SetupField(FieldKind.CARD),
        "stock": SetupField(FieldKind.CARDS),
    }

    conserves_card_points = False

    # -- state ---------------------------------------------------------------------------------
    def _reset(self) -> None:
        opts = self.game.options
        self.known_hands = self.initial_hands is not None
        if self.initial_hands is not None:
            for seat, cards in self.initial_hands.items():
                if len(cards) != HAND_SIZE:
                    raise R_HANDS_SEAT_MUST_DEALT.error(seat=seat, size=HAND_SIZE)
        self.hands: dict[int, set[Card]] = {
            s: set(self.initial_hands[s]) if self.initial_hands is not None else set()
            for s in range(2)
        }
        self.unknown: dict[int, int] = {s: 0 if self.known_hands else HAND_SIZE for s in range(2)}
        self.public: dict[int, set[Card]] = {0: set(), 1: set()}  # taken from the pile
        if "upcard" not in self.setup:
            raise R_GIN_RUMMY_NEEDS_FIRST.error()
        upcard = card_list([self.setup["upcard"]], "upcard")[0]
        self.stock: list[Card] | None = (
            card_list(self.setup["stock"], "stock") if "stock" in self.setup else None
        )
        self.stock_left = 52 - 2 * HAND_SIZE - 1
        if self.stock is not None and len(self.stock) != self.stock_left:
            raise R_STOCK_EXPECTED_CARDS_GOT.error(
                stock_left=self.stock_left, stock_count=len(self.stock)
            )
        located = [c for h in self.hands.values() for c in h] + [upcard] + (self.stock or [])
        if len(set(located)) != len(located):
            raise R_UPCARD_STOCK_CARD_ALSO.error()
        self.pile: list[Card] = [upcard]
        self.upcard = upcard
        self.multiplier = 2 if opts.oklahoma and upcard.suit is Suit.SPADES else 1
        self.knock_limit = card_value(upcard) if opts.oklahoma else opts.knock_limit
        self.phase = GinPhase.FIRST_UPCARD
        self.to_act: int | None = self.forehand
        self.passed: list[int] = []
        self.stock_only = False  # both refused the first upcard: the non-dealer takes stock
        self.taken: Card | None = None  # card taken from the pile this turn (not re-discarded)
        self.may_knock: int | None = None
        self.wall_draw = False
        self.knocker: int | None = None
        self.knocker_deadwood = 0
        self.arrangements: list[Arrangement] = []
        self.layoffs: list[Card] = []
        self.defender_cards: list[Card] = []
        self.proven: list[Violation] = []
        self.turns = 0
        self._result: DealResult | None = None

    @property
    def is_over(self) -> bool:
        return self.phase is GinPhase.OVER

    @property
    def result(self) -> DealResult | None:
        return self._result

    def hand_size(self, seat: int) -> int:
        return len(self.hands[seat]) + self.unknown[seat]

    def _elsewhere(self, seat: int, card: Card) -> Said | None:
        """Where ``card`` is known to be, if not possibly in ``seat``'s hand."""
        if card in self.pile:
            return IN_PILE()
        if card in self.hands[1 - seat]:
            return IN_HAND(seat=1 - seat)
        if card in self.layoffs:
            return LAID_OFF()
        if self.stock is not None and card in self.stock:
            return IN_STOCK()
        return None

    def _check_holds(self, seat: int, card: Card, what: Said) -> None:
        if card in self.hands[seat]:
            return
        where = self._elsewhere(seat, card)
        if self.unknown[seat] == 0 or where is not None:
            raise R_SEAT_THAT_CARD.error(
                seat=seat, what=what, card=card, where=where or NOT_IN_HAND(seat=seat)
            )

    def _remove(self, seat: int, card: Card) -> None:
        if card in self.hands[seat]:
            self.hands[seat].discard(card)
        else:
            self.unknown[seat] -= 1
        self.public[seat].discard(card)

    # -- validation ----------------------------------------------------------------------------
    def _validate(self, action: Action) -> None:
        seat, kind = action.seat, action.type
        if seat not in (0, 1):
            raise R_SEAT_DOES_EXIST_PLAYERS.error(action=action, seat=seat)
        if action.card is not None and action.card.logical not in self.game.deck:
            raise R_FRENCH_DECK.error(action=action, card=action.card)
        if kind is ActionType.DRAW:
            self._validate_draw(action)
        elif kind is ActionType.PASS:
            self._validate_pass(action)
        elif kind is ActionType.DISCARD:
            self._validate_discard(action)
        elif kind is ActionType.KNOCK:
            self._validate_knock(action)
        elif kind is ActionType.LAYOFF:
            self._validate_layoff(action)
        elif kind is ActionType.SHOW:
            self._validate_show(action)
        else:
            raise R_ACTION_GIN_RUMMY.error(action=action, type=kind)

    def _draw_source(self, action: Action) -> str:
        value = (action.value or "stock").lower()
        if value in UPCARD_WORDS:
            return "upcard"
        if value != "stock":
            raise R_DRAW_FROM_STOCK_UPCARD.error(action=action)
        return "stock"

    def _draw_out_of_turn(self, action: Action) -> bool:
        drawing = self.phase in (GinPhase.FIRST_UPCARD, GinPhase.DRAW, GinPhase.WALL)
        return not drawing or action.seat != self.to_act

    def _validate_draw(self, action: Action) -> None:
        source = self._draw_source(action)
        if self.phase in (GinPhase.LAYOFF, GinPhase.OVER):
            raise R_NOBODY_DRAWS_AFTER_KNOCK.error(action=action)
        if self._draw_out_of_turn(action):
            return  # physically possible: a violation, proven in _apply
        if source == "upcard":
            if self.stock_only:
                raise R_BOTH_REFUSED_FIRST_UPCARD.error(action=action)
            if self.phase is GinPhase.WALL and not self.game.options.wall_knock:
                raise R_STOCK_DOWN_CARDS_HAND.error(action=action, wall=WALL)
            if action.card is not None and action.card != self.pile[-1]:
                raise R_TOP_DISCARD_PILE.error(action=action, pile_card=self.pile[-1])
            return
        if self.phase is GinPhase.FIRST_UPCARD:
            raise R_SEAT_FIRST_TAKES_REFUSES.error(action=action, seat=action.seat)
        if self.phase is GinPhase.WALL:
            raise R_STOCK_DOWN_CARDS_HAND.error(action=action, wall=WALL)
        card = action.card
        if self.stock is not None:
            if card is not None and card != self.stock[0]:
                raise R_TOP_STOCK.error(action=action, stock_card=self.stock[0])
        elif card is not None:
            where = self._elsewhere(action.seat, card)
            if where is not None or card in self.hands[action.seat]:
                raise R_ERROR.error(action=action, card=card, where=where or ALREADY_IN_HAND())

    def _validate_pass(self, action: Action) -> None:
        if self.phase is GinPhase.WALL:
            return
        if self.phase is not GinPhase.FIRST_UPCARD or self.stock_only:
            raise R_FIRST_UPCARD_CAN_REFUSED.error(action=action)
        if action.seat != self.to_act:
            raise R_SEAT_DECIDES_ON_UPCARD.error(action=action, to_act=self.to_act)

    def _validate_discard(self, action: Action) -> None:
        if self.phase is not GinPhase.DISCARD or action.seat != self.to_act:
            raise R_SEAT_CANNOT_DISCARD_NOW.error(action=action, seat=action.seat)
        card = action.card
        if card is None:
            raise R_DISCARD_NEEDS_CARD.error(action=action)
        if card == self.taken:
            raise R_CARD_TAKEN_FROM_DISCARD.error(action=action, rule="rediscard")
        self._check_holds(action.seat, card, DISCARDS())

    def _validate_knock(self, action: Action) -> None:
        if self.may_knock != action.seat:
            raise R_KNOCK_COMES_RIGHT_AFTER.error(action=action)
        self._exposed(action.seat, action.cards, HAND_SIZE)

    def _exposed(self, seat: int, cards: Sequence[Card], size: int) -> set[Card]:
        if not cards:
            if self.unknown[seat]:
                raise R_SEAT_MUST_SHOW_CARDS.error(seat=seat)
            return set(self.hands[seat])
        shown = set(cards)
        if len(shown) != len(cards) or len(shown) != size:
            raise R_SEAT_SHOWS_CARDS_HAND.error(seat=seat, cards_count=len(cards), size=size)
        missing = self.hands[seat] - shown
        if missing:
            raise R_SEAT_SHOWN_HAND_LACKS.error(seat=seat, cards=sorted(missing))
        for card in shown - self.hands[seat]:
            where = self._elsewhere(seat, card)
            if where is not None:
                raise R_SEAT_SHOWS_WHICH.error(seat=seat, card=card, where=where)
        return shown

    def _validate_layoff(self, action: Action) -> None:
        if self.phase is not GinPhase.LAYOFF or action.seat != self.to_act:
            raise R_DEFENDER_LAYS_OFF_AFTER.error(action=action)
        if self.knocker_deadwood == 0 and not self.game.options.layoff_on_gin:
            raise R_LAY_OFFS_AGAINST_GIN.error(action=action)
        card = action.card
        if card is None:
            raise R_LAY_OFF_NEEDS_CARD.error(action=action)
        self._check_holds(action.seat, card, LAYS_OFF())
        laid = [*self.layoffs, card]
        if not any(layoffs_fit(a.melds, laid) for a in self.arrangements):
            raise R_DOES_FIT_KNOCKER_MELDS.error(
                action=action, card=card, melds=self.arrangements[0].said(), rule="layoff"
            )

    def _validate_show(self, action: Action) -> None:
        if self.phase is not GinPhase.LAYOFF or action.seat != self.to_act:
            raise R_DEFENDER_SHOWS_HIS_HAND.error(action=action)
        self._exposed(action.seat, action.cards, self.hand_size(action.seat))

    # -- applying ------------------------------------------------------------------------------
    def _apply(self, action: Action) -> list[Event]:
        kind = action.type
        if kind is ActionType.DRAW:
            if self._draw_out_of_turn(action):
                return self._out_of_turn(action)
            return self._apply_draw(action)
        # a discard or a lay-off names its one card: it lies face up
        cards = action.cards or ((action.card,) if action.card is not None else ())
        events: list[Event] = [ActionRecorded(action.seat, kind.value, action.value, cards)]
        if kind is ActionType.PASS:
            events.extend(self._apply_pass(action))
        elif kind is ActionType.DISCARD:
            events.extend(self._apply_discard(action))
        elif kind is ActionType.KNOCK:
            events.extend(self._apply_knock(action))
        elif kind is ActionType.LAYOFF:
            assert action.card is not None
            self._remove(action.seat, action.card)
            self.layoffs.append(action.card)
        elif kind is ActionType.SHOW:
            shown = self._exposed(action.seat, action.cards, self.hand_size(action.seat))
            self.hands[action.seat], self.unknown[action.seat] = shown, 0
            events.extend(self._finish(self._score()))
        return events

    def _out_of_turn(self, action: Action) -> list[Event]:
        stock = self._draw_source(action) == "stock"
        kinds = (DREW_STOCK, DREW_PILE) if self.phase is not GinPhase.DISCARD else (
            DREW_STOCK_DISCARD, DREW_PILE_DISCARD)  # fmt: skip
        said = kinds[0 if stock else 1](turn=self.turns, seat=action.seat, other=self.to_act)
        violation = Violation.of(
            said, seat=action.seat, rule="draw-out-of-turn", trick=self.turns, card=action.card,
            witness=None, proven_at_trick=self.turns,
        )  # fmt: skip
        return self._penalise(violation)

    def _penalise(self, violation: Violation) -> list[Event]:
        self.proven.append(violation)
        events: list[Event] = [ViolationProven(violation)]
        self._violate(violation)
        penalty = self.game.options.penalty
        other = 1 - violation.seat
        scores = {"0": 0, "1": 0}
        scores[str(other)] = penalty
        said = STOPPED(rule=violation.rule, seat=violation.seat, other=other, points=penalty)
        result = DealResult.of(scores, said, (violation,), {"winner": other, "kind": "penalty"})
        events.extend(self._finish(result))
        return events

    def _apply_draw(self, action: Action) -> list[Event]:
        seat = action.seat
        card: Card | None
        if self._draw_source(action) == "upcard":
            card = self.pile.pop()
            self.hands[seat].add(card)
            self.public[seat].add(card)
            self.taken = card
            self.wall_draw = self.phase is GinPhase.WALL
        else:
            if self.stock is not None:
                card = self.stock.pop(0)
            else:
                card = action.card
            if card is None:
                self.unknown[seat] += 1
            else:
                self.hands[seat].add(card)
            self.stock_left -= 1
            self.taken = None
        self.stock_only = False
        self.may_knock = None
        self.phase = GinPhase.DISCARD
        self.turns += 1
        shown = card if self.taken is not None else None
        return [
            ActionRecorded(seat, "draw", action.value or "stock", ()),
            CardPickedUp(seat, shown, self.turns),
        ]

    def _apply_pass(self, action: Action) -> list[Event]:
        if self.phase is GinPhase.WALL:
            result = DealResult.of(
                {"0": 0, "1": 0}, DEAD(wall=WALL), extra={"winner": None, "kind": "dead"}
            )
            return self._finish(result)
        self.passed.append(action.seat)
        if len(self.passed) == 2:
            self.stock_only = True
            self.phase = GinPhase.DRAW
            self.to_act = self.forehand
        else:
            self.to_act = 1 - action.seat
        return [TurnChanged(self.to_act)]

    def _apply_discard(self, action: Action) -> list[Event]:
        seat, card = action.seat, action.card
        assert card is not None
        self._remove(seat, card)
        self.pile.append(card)
        self.taken = None
        self.may_knock = seat
        self.to_act = 1 - seat
        if self.wall_draw:
            self.phase, self.to_act = GinPhase.WALL, seat
        elif self.stock_left <= WALL:
            self.phase = GinPhase.WALL
        else:
            self.phase = GinPhase.DRAW
        return [TurnChanged(self.to_act)]

    def _apply_knock(self, action: Action) -> list[Event]:
        seat = action.seat
        shown = self._exposed(seat, action.cards, HAND_SIZE)
        self.hands[seat], self.unknown[seat] = shown, 0
        cards = sorted(shown)
        self.arrangements = optimal_arrangements(cards)
        deadwood = self.arrangements[0].deadwood_points
        if deadwood > self.knock_limit:
            said = BAD_KNOCK(turn=self.turns, seat=seat, hand=format_hand(cards),
                             best=self.arrangements[0].said(), limit=self.knock_limit)  # fmt: skip
            violation = Violation.of(
                said, seat=seat, rule="illegal-knock", trick=self.turns, card=self.pile[-1],
                witness=None, proven_at_trick=self.turns,
            )  # fmt: skip
            return self._penalise(violation)
        self.knocker, self.knocker_deadwood = seat, deadwood
        self.phase, self.to_act, self.may_knock = GinPhase.LAYOFF, 1 - seat, None
        best = self.arrangements[0].said()
        said = (
            GIN(seat=seat, best=best)
            if deadwood == 0
            else KNOCK(seat=seat, deadwood=deadwood, best=best)
        )
        return [Notice.of(said, seat)]

    def _score(self) -> DealResult:
        assert self.knocker is not None
        opts = self.game.options
        defender = 1 - self.knocker
        remaining = sorted(self.hands[defender])
        o = min_deadwood(remaining)
        hand = score_hand(
            knocker=self.knocker, knocker_deadwood=self.knocker_deadwood, defender_deadwood=o,
            gin_bonus=opts.gin_bonus, undercut_bonus=opts.undercut_bonus,
            gin_can_be_undercut=opts.gin_undercut,
        )  # fmt: skip
        assert hand.winner is not None
        points = hand.points * self.multiplier
        scores = {"0": 0, "1": 0}
        scores[str(hand.winner)] = points
        laid = " ".join(c.code for c in self.layoffs) or "-"
        kind = SCORED_DOUBLED if self.multiplier == 2 else SCORED
        said = kind(result=HANDS[hand.kind](), seat=self.knocker, deadwood=hand.knocker_deadwood,
                    other=defender, other_deadwood=o, laid_cards=laid, winner=hand.winner, points=points)  # fmt: skip
        extra = {
            "winner": hand.winner, "kind": hand.kind, "knocker": self.knocker,
            "knocker_deadwood": hand.knocker_deadwood, "defender_deadwood": o,
            "points": points,
        }  # fmt: skip
        return DealResult.of(scores, said, extra=extra)

    def _finish(self, result: DealResult) -> list[Event]:
        self._result = result
        self.phase = GinPhase.OVER
        self.to_act = None
        self.may_knock = None
        return [DealScored(dict(result.scores), result.detail, result.said)]

    # -- queries -------------------------------------------------------------------------------
    def can_knock(self, seat: int) -> bool:
        """Is the hand of ``seat`` (known) within the knock limit now?"""
        if self.unknown[seat] or self.hand_size(seat) != HAND_SIZE:
            return False
        return min_deadwood(sorted(self.hands[seat], key=card_order)) <= self.knock_limit

    def legal_actions(self) -> list[Action]:
        if self.phase is GinPhase.OVER or self.to_act is None:
            return []
        if not self.known_hands:
            raise R_LEGAL_ACTIONS_NEED_KNOWN.error()
        seat = self.to_act
        out: list[Action] = []
        if self.may_knock is not None and self.can_knock(self.may_knock):
            out.append(Action.kept(self.may_knock, ActionType.KNOCK))
        phase = self.phase
        if phase is GinPhase.FIRST_UPCARD:
            out.append(Action.kept(seat, ActionType.DRAW, self.pile[-1], value="upcard"))
            out.append(Action.kept(seat, ActionType.PASS))
        elif phase is GinPhase.DRAW:
            if not self.stock_only:
                out.append(Action.kept(seat, ActionType.DRAW, self.pile[-1], value="upcard"))
            top = self.stock[0] if self.stock is not None else None
            out.append(Action.kept(seat, ActionType.DRAW, top, value="stock"))
        elif phase is GinPhase.WALL:
            if self.game.options.wall_knock and not self.wall_draw:
                after = sorted(self.hands[seat] | {self.pile[-1]})
                if knock_deadwood(after) <= self.knock_limit:
                    out.append(Action.kept(seat, ActionType.DRAW, self.pile[-1], value="upcard"))
            out.append(Action(seat, ActionType.PASS, value="wall"))
        elif phase is GinPhase.DISCARD:
            out.extend(
                Action.kept(seat, ActionType.DISCARD, c)
                for c in sorted(self.hands[seat] - {self.taken}, key=card_order)
            )  # fmt: skip
        elif phase is GinPhase.LAYOFF:
            out.extend(Action(seat, ActionType.LAYOFF, c) for c in self.legal_layoffs())
            out.append(Action(seat, ActionType.SHOW, value="hand"))
        return out

    def legal_layoffs(self) -> list[Card]:
        if self.phase is not GinPhase.LAYOFF or self.to_act is None:
            return []
        if self.knocker_deadwood == 0 and not self.game.options.layoff_on_gin:
            return []
        hand = self.hands[self.to_act]
        out: set[Card] = set()
        for arrangement in self.arrangements:
            for card in layoff_candidates(arrangement.melds, self.layoffs) & hand:
                if card not in out and any(
                    layoffs_fit(a.melds, [*self.layoffs, card]) for a in self.arrangements
                ):
                    out.add(card)
        return sorted(out)

    @property
    def violations(self) -> list[Violation]:
        return list(self.proven)

    def snapshot(self) -> dict[str, Any]:
        result = self._result
        return {
            "game": self.game.spec,
            "phase": self.phase.value,
            "dealer": self.dealer,
            "to_act": self.to_act,
            "may_knock": self.may_knock,
            "upcard": self.upcard.code,
            "knock_limit": self.knock_limit,
            "multiplier": self.multiplier,
            "discard_pile": [c.code for c in self.pile],
            "stock_left": self.stock_left,
            "hand_sizes": {str(s): self.hand_size(s) for s in range(2)},
            "public_in_hand": {str(s): sorted(c.code for c in self.public[s]) for s in range(2)},
            "passed": list(self.passed),
            "knocker": self.knocker,
            "knocker_melds": (
                self.arrangements[0].describe() if self.knocker is not None else None
            ),
            "layoffs": [c.code for c in self.layoffs],
            "violations": [v.to_dict() for v in self.proven],
            "result": (
                {"scores": result.scores, "detail": result.detail} if result is not None else None
            ),
        }
