"""Events: what the referee says happened. Frozen records that displays subscribe to.

Every event has a ``kind`` (a short snake_case name) and ``to_dict()`` giving JSON-ready data.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from typing import Any, ClassVar

from referee.cards import Card
from referee.wording import Said


def _jsonable(value: Any) -> Any:
    if isinstance(value, Card):
        return value.code
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Violation):
        return value.to_dict()
    if isinstance(value, Said):
        return {
            "code": value.code,
            "facts": _jsonable(value.facts),
            "inner": _jsonable(value.inner),
        }
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


@dataclass(frozen=True)
class Event:
    kind: ClassVar[str] = "event"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, **_jsonable(self)}


@dataclass(frozen=True)
class Violation:
    """A broken rule with its evidence.

    ``trick``/``card``: where and with what the duty was broken. ``witness``: the card that
    proves it (played later, or held in a known hand), ``proven_at_trick``: when it was proven.
    """

    seat: int
    rule: str
    trick: int
    card: Card | None
    witness: Card | None
    proven_at_trick: int
    evidence: str
    #: the evidence as a statement (code and facts) for wording it in the table's language
    said: Said | None = field(default=None, compare=False)

    @classmethod
    def of(
        cls, said: Said, *, seat: int, rule: str, trick: int, card: Card | None,
        witness: Card | None, proven_at_trick: int,
    ) -> Violation:  # fmt: skip
        """A violation whose evidence is ``said`` (its English text is the ``evidence``)."""
        return cls(seat, rule, trick, card, witness, proven_at_trick, said.text, said)

    @property
    def code(self) -> str | None:
        return self.said.code if self.said is not None else None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            f.name: _jsonable(getattr(self, f.name)) for f in dataclasses.fields(self)
            if f.name != "said"
        }  # fmt: skip
        if self.said is not None:
            out.update(self.said.to_dict())
        return out


@dataclass(frozen=True)
class ActionRecorded(Event):
    """A spoken or non-play action was accepted (contract, bid, pass, kontra, show...)."""

    kind: ClassVar[str] = "action"
    seat: int
    type: str
    value: str | None = None
    cards: tuple[Card, ...] = ()


@dataclass(frozen=True)
class CardPlayed(Event):
    kind: ClassVar[str] = "card_played"
    seat: int
    card: Card
    trick: int
    mode: str = "play"


@dataclass(frozen=True)
class CardPickedUp(Event):
    """A public card moved into a hand (Satir fan pick-up, talon taken)."""

    kind: ClassVar[str] = "card_picked_up"
    seat: int
    card: Card | None
    trick: int


@dataclass(frozen=True)
class TrickWon(Event):
    kind: ClassVar[str] = "trick_won"
    trick: int
    leader: int
    winner: int
    plays: tuple[tuple[int, Card], ...]
    points: int = 0


@dataclass(frozen=True)
class ViolationSuspected(Event):
    kind: ClassVar[str] = "violation_suspected"
    seat: int
    rule: str
    trick: int
    card: Card


@dataclass(frozen=True)
class ViolationProven(Event):
    kind: ClassVar[str] = "violation_proven"
    violation: Violation


@dataclass(frozen=True)
class PenaltyAssessed(Event):
    kind: ClassVar[str] = "penalty"
    violation: Violation
    scores: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class DealScored(Event):
    """The deal is over; ``scores`` per side/seat label, in the game's integer units."""

    kind: ClassVar[str] = "deal_scored"
    scores: dict[str, int]
    detail: str = ""
    said: Said | None = field(default=None, compare=False)


@dataclass(frozen=True)
class TurnChanged(Event):
    kind: ClassVar[str] = "turn"
    seat: int


@dataclass(frozen=True)
class Notice(Event):
    """Something the table should know that is not a score (partnership found, joker changed)."""

    kind: ClassVar[str] = "notice"
    text: str
    seat: int | None = None
    #: the notice as a statement (code and facts), for wording it in the table's language
    said: Said | None = field(default=None, compare=False)

    @classmethod
    def of(cls, said: Said, seat: int | None = None) -> Notice:
        return cls(said.text, seat, said)


@dataclass(frozen=True)
class PartijaOver(Event):
    """A game (partija) ended; ``points`` are the match points it gave each side."""

    kind: ClassVar[str] = "partija_over"
    winner: str
    totals: dict[str, int]
    points: dict[str, int]


@dataclass(frozen=True)
class ScoreAdjusted(Event):
    """A director's correction of ``side``'s total by ``units`` (the game's integer units),
    written on the sheet with its ``reason`` (``Match.adjust``)."""

    kind: ClassVar[str] = "score_adjusted"
    side: str
    units: int
    reason: str


@dataclass(frozen=True)
class MatchOver(Event):
    kind: ClassVar[str] = "match_over"
    winner: str
    points: dict[str, int]


@dataclass(frozen=True)
class DirectorCalled(Event):
    """Someone at the table called the director (a seat button held, or the table page).
    No rule event: the table's runtime raises it; ``seat`` is None for the whole table."""

    kind: ClassVar[str] = "director_called"
    call: str
    seat: int | None
    source: str


@dataclass(frozen=True)
class DirectorAnswered(Event):
    """The director answered the call ``call``."""

    kind: ClassVar[str] = "director_answered"
    call: str
    seat: int | None
