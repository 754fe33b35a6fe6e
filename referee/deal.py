"""The deal: an append-only log of actions whose replay is the state.

Check / can / do: ``check(action)`` raises an error naming the rule, ``can(action)`` answers,
``play(action)`` applies it and returns the events it caused. ``undo()`` pops the last action
and rebuilds the state from the log, so any state can be recovered from its log.
"""

from __future__ import annotations

import enum
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic

from typing_extensions import TypeVar

from referee.actions import Action
from referee.cards import Card
from referee.errors import ActionError, CardError, IllegalPlay, RefereeError
from referee.events import Event, Violation
from referee.seats import Seat
from referee.setup import SetupField, check_setup
from referee.wording import Said, refusal

DEALER_MISSING = refusal(
    "deal.dealer_missing", "dealer {dealer} is not a seat at a table of {players}"
)
DEAL_OVER = refusal("deal.over", "{action}: the deal is already over")
NOT_IN_DECK = refusal("deal.card_not_in_deck", "{action}: {reason}")
NOTHING_TO_UNDO = refusal("deal.nothing_to_undo", "nothing to undo")
HANDS_MISSING = refusal(
    "hands.missing", "hands: no hand for seat {seats}; give every seat's hand or none"
)
HANDS_SEAT = refusal(
    "hands.no_such_seat", "hands: seat {seat} does not exist at a table of {players}"
)
HANDS_CARD = refusal("hands.bad_card", "hands: seat {seat}: {reason}")
HANDS_TWICE = refusal("hands.dealt_twice", "hands: {card} is dealt twice")
STRICT_VIOLATION = refusal(
    "deal.strict_violation", "seat {seat}: {rule} at trick {trick}: {evidence}"
)

if TYPE_CHECKING:
    from referee.game import Game

#: the rules class of a deal: ``Deal["GinRummy"]`` reads ``game`` as gin rummy (``Deal``: any game)
GameT = TypeVar("GameT", bound="Game[Any]", default="Game", covariant=True)


class Mode(enum.Enum):
    """STRICT raises on a proven violation (tests, tools); TABLE records it and penalises."""

    STRICT = "strict"
    TABLE = "table"


class Phase(enum.Enum):
    SETUP = "setup"
    AUCTION = "auction"
    PLAY = "play"
    OVER = "over"


@dataclass(frozen=True)
class DealResult:
    """The score of one deal per side label, in the game's integer units (tenths for Satir)."""

    scores: dict[str, int]
    detail: str = ""
    violations: tuple[Violation, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)
    #: the detail as a statement (code and facts), for wording it in the table's language
    said: Said | None = field(default=None, compare=False)

    @classmethod
    def of(
        cls, scores: dict[str, int], said: Said, violations: tuple[Violation, ...] = (),
        extra: dict[str, Any] | None = None,
    ) -> DealResult:  # fmt: skip
        """A result whose detail is ``said`` (its English text is the ``detail``)."""
        return cls(scores, said.text, violations, extra or {}, said)


class Deal(ABC, Generic[GameT]):
    """Base of every game's deal. Subclasses implement ``_reset``, ``_validate``, ``_apply``."""

    #: False for games where not every card ends up taken by a side (gin rummy)
    conserves_card_points: bool = True
    #: the fields this game's deals accept in their setup; any other is refused by name
    setup_fields: ClassVar[Mapping[str, SetupField]] = {}

    def __init__(
        self,
        game: GameT,
        *,
        dealer: int = 0,
        hands: Mapping[int, Sequence[Card]] | None = None,
        setup: Mapping[str, Any] | None = None,
        mode: Mode = Mode.TABLE,
    ) -> None:
        self.game = game
        self.players = game.players
        #: the game's deck (fixed by its options), asked for every card named
        self._deck = game.deck
        if not 0 <= dealer < self.players:
            raise DEALER_MISSING.error(dealer=dealer, players=self.players)
        self.dealer = dealer
        self.mode = mode
        self.setup: dict[str, Any] = dict(setup or {})
        self.initial_hands: dict[int, tuple[Card, ...]] | None = None
        if hands is not None:
            self.initial_hands = {int(s): tuple(cards) for s, cards in hands.items()}
            self._check_hands(self.initial_hands)
        check_setup(
            self.setup,
            self.setup_fields,
            deck=game.deck,
            players=self.players,
            hands=self.initial_hands,
        )
        self.actions: list[Action] = []
        self.events: list[Event] = []
        #: counts the changes of state: what is worked out for one state is kept with it
        self.version = 0
        #: the action ``check`` last accepted in this state (``play`` does not check it again)
        self._checked: Action | None = None
        self._reset()

    # -- seats ---------------------------------------------------------------------------------
    def seat(self, index: int) -> Seat:
        return Seat.of(index, self.players)

    @property
    def forehand(self) -> int:
        return self.seat(self.dealer).next().index

    # -- the log -------------------------------------------------------------------------------
    def play(self, action: Action) -> list[Event]:
        """Apply ``action`` and return the events it caused; on any error nothing changes."""
        if self.is_over:
            raise DEAL_OVER.error(action=action)
        if action is not self._checked:
            self._check_deck(action)
            self._validate(action)
        self._checked = None
        try:
            events = self._apply(action)
        except RefereeError:
            self._rebuild()
            raise
        self.version += 1
        self.actions.append(action)
        self.events.extend(events)
        return events

    def check(self, action: Action) -> None:
        """Raise an ActionError (or IllegalPlay) naming the rule if ``action`` cannot be played."""
        if self.is_over:
            raise DEAL_OVER.error(action=action)
        self._check_deck(action)
        self._validate(action)
        self._checked = action

    def _check_deck(self, action: Action) -> None:
        """Every card an action names belongs to the game's deck (a copy index only where the
        deck holds copies), whatever the game's own checks."""
        named = (action.card, *action.cards) if action.card is not None else action.cards
        deck = self._deck.card_set
        for card in named:
            if card in deck:
                continue  # the plain case, without a call
            try:
                self._deck.check(card)
            except CardError as exc:
                raise NOT_IN_DECK.error(action=action, reason=exc) from None

    def can(self, action: Action) -> bool:
        try:
            self.check(action)
        except ActionError:
            return False
        return True

    def undo(self) -> Action:
        if not self.actions:
            raise NOTHING_TO_UNDO.error()
        action = self.actions.pop()
        self._rebuild()
        return action

    def _rebuild(self) -> None:
        self.version += 1
        self._checked = None
        self._reset()
        self.events = []
        for action in self.actions:
            self.events.extend(self._apply(action))

    # -- for subclasses ------------------------------------------------------------------------
    def _check_hands(self, hands: Mapping[int, Sequence[Card]]) -> None:
        deck = self.game.deck
        in_deck = deck.card_set
        seen: set[Card] = set()
        missing = sorted(set(range(self.players)) - set(hands))
        if missing:
            names = ", ".join(str(s) for s in missing)
            raise HANDS_MISSING.error(seats=names)
        for seat, cards in hands.items():
            if not 0 <= seat < self.players:
                raise HANDS_SEAT.error(seat=seat, players=self.players)
            for card in cards:
                if card not in in_deck:  # a card of the deck passes without a call
                    try:
                        deck.check(card)
                    except CardError as exc:
                        raise HANDS_CARD.error(seat=seat, reason=exc) from None
                if card in seen:
                    raise HANDS_TWICE.error(card=card)
                seen.add(card)

    def _violate(self, violation: Violation) -> None:
        """Strict mode raises on a proven violation; table mode lets the game penalise it."""
        if self.mode is Mode.STRICT:
            raise STRICT_VIOLATION.error(
                IllegalPlay,
                rule=violation.rule,
                seat=violation.seat,
                trick=violation.trick,
                evidence=violation.said if violation.said is not None else violation.evidence,
            )

    @abstractmethod
    def _reset(self) -> None:
        """Set the state as it is before the first action."""

    @abstractmethod
    def _validate(self, action: Action) -> None:
        """Raise ActionError if ``action`` is impossible now (no state change)."""

    @abstractmethod
    def _apply(self, action: Action) -> list[Event]:
        """Change the state by ``action`` (already validated) and return its events."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every legal action now (needs known hands for plays); used by simulations."""

    def perft_actions(self) -> list[Action]:
        """The actions perft follows: ``legal_actions`` unless a game counts some of them as
        one class (Dvoglavi Lav's bid amounts)."""
        return self.legal_actions()

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @property
    @abstractmethod
    def result(self) -> DealResult | None:
        """The deal's score once it is over."""

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """A JSON-ready view of the public state (for displays and for exact comparisons)."""

    def card_points_by_side(self) -> dict[str, int]:
        """Card points taken so far per side label (sums to the deck's total at the end)."""
        raise NotImplementedError(f"{type(self).__name__} does not count card points")

    @property
    def violations(self) -> list[Violation]:
        return [e.violation for e in self.events if e.kind == "violation_proven"]  # type: ignore[attr-defined]

    def to_transcript(self) -> dict[str, Any]:
        out: dict[str, Any] = {"dealer": self.dealer}
        if self.initial_hands is not None:
            out["hands"] = {
                str(s): [c.code for c in cards] for s, cards in self.initial_hands.items()
            }
        for key, value in self.setup.items():
            out[key] = value
        out["events"] = [a.to_dict() for a in self.actions]
        return out
