"""The JSON API's schemas: what goes over the wire, separate from the referee's domain objects.

Inputs are strict (unknown fields are refused) and card codes are parsed here, so a malformed
request gets FastAPI's 422 naming the field (``["body", "card"]``) before the runtime sees it.
Outputs describe the runtime's snapshot; a deal's game-specific fields pass through unchanged.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from referee.actions import Action, ActionType
from referee.cards import Card
from referee.errors import RefereeError
from referee.registry import load_game

# -- inputs --------------------------------------------------------------------------------------


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


def _card_code(value: str) -> str:
    return Card.parse(value).code  # CardError is a ValueError: pydantic reports it on the field


class ActionIn(_Input):
    """A referee action: a play, a bid, a declaration (zvanje), a contract, a show..."""

    seat: int = Field(ge=0, le=7, description="Seat number, 0..n-1 in the order of play")
    type: ActionType = Field(description="Action type, e.g. play, contract, bid, declare, show")
    card: str | None = Field(default=None, description="One card code, e.g. AS, 10H, JK")
    cards: list[str] = Field(default_factory=list, description="Several card codes")
    value: str | None = Field(
        default=None, max_length=200, description="Contract, bid level or declaration text"
    )

    model_config = ConfigDict(
        json_schema_extra={"examples": [{"seat": 0, "type": "contract", "value": "zatvoreno"}]}
    )

    @field_validator("card")
    @classmethod
    def _parse_card(cls, value: str | None) -> str | None:
        return None if value is None else _card_code(value)

    @field_validator("cards")
    @classmethod
    def _parse_cards(cls, value: list[str]) -> list[str]:
        return [_card_code(code) for code in value]

    def to_action(self) -> Action:
        return Action(
            self.seat,
            self.type,
            Card.parse(self.card) if self.card is not None else None,
            tuple(Card.parse(code) for code in self.cards),
            self.value,
        )


class StartGameIn(_Input):
    spec: str = Field(
        min_length=1,
        max_length=200,
        description="Game name with options, e.g. veliki-satir or veliki-satir(players=3)",
    )
    names: list[str] | None = Field(
        default=None, description="Seat names in seat order; defaults to the configured names"
    )

    @field_validator("spec")
    @classmethod
    def _known_game(cls, value: str) -> str:
        try:
            load_game(value)
        except RefereeError as exc:  # 422 on "spec", its text alone (not the error's statement)
            raise ValueError(str(exc)) from None
        return value

    @field_validator("names")
    @classmethod
    def _non_empty(cls, value: list[str] | None) -> list[str] | None:
        if value is not None:
            value = [name.strip() for name in value]
            if not all(value):
                raise ValueError("every name must be non-empty")
        return value


class ScoreAdjustmentIn(_Input):
    side: str = Field(min_length=1, max_length=20, description="Side label, e.g. A or B")
    units: int = Field(description="Points in the game's units (tenths for Satir), may be < 0")
    reason: str = Field(min_length=1, max_length=500, description="Why (goes on the sheet)")

    @field_validator("units")
    @classmethod
    def _not_zero(cls, value: int) -> int:
        if value == 0:  # the form's starting value, sent with a reason but no number
            raise ValueError("a score adjustment of 0 changes nothing")
        return value


class ConfirmCardIn(_Input):
    card: str = Field(description="The card actually played, e.g. QS")

    @field_validator("card")
    @classmethod
    def _parse_card(cls, value: str) -> str:
        return _card_code(value)


class CorrectCardIn(_Input):
    """A misread card put right: the card ``seat`` is recorded as playing was really another."""

    seat: int = Field(ge=0, le=15, description="The seat that played the card")
    played: str = Field(description="The card recorded (the camera's misreading), e.g. 8S")
    card: str = Field(description="The card actually played, e.g. 9S")

    @field_validator("played", "card")
    @classmethod
    def _parse_cards(cls, value: str) -> str:
        return _card_code(value)


class CallDirectorIn(_Input):
    seat: int | None = Field(
        default=None, ge=0, le=15, description="The calling seat; null for the whole table"
    )


class AgreeDealIn(_Input):
    side: str = Field(min_length=1, max_length=20, description="The side confirming the score")


class AgreedOut(BaseModel):
    """A deal's confirmations after a side confirmed it."""

    deal: int
    agreed: list[str]
    confirmed: bool
    seq: int


# -- outputs -------------------------------------------------------------------------------------


class TrickOut(BaseModel):
    model_config = ConfigDict(extra="allow")

    number: int
    leader: int
    plays: list[tuple[int, str]]
    winner: int | None = None


class ViolationOut(BaseModel):
    model_config = ConfigDict(extra="allow")

    seat: int
    rule: str
    trick: int
    card: str | None
    witness: str | None
    proven_at_trick: int
    evidence: str


class DealOut(BaseModel):
    """A deal in progress; games add their own fields (contract, trump, joker_suit, fans...)."""

    model_config = ConfigDict(extra="allow")

    phase: str
    dealer: int
    to_act: int | None
    trick: TrickOut | None
    tricks: list[TrickOut]
    violations: list[ViolationOut]
    suspected: list[dict[str, Any]] = Field(default_factory=list)
    result: dict[str, Any] | None = None


class SheetRowOut(BaseModel):
    model_config = ConfigDict(extra="allow")

    partija: int
    deal: int
    dealer: int
    scores: dict[str, str]
    totals: dict[str, str]
    corrected: bool
    detail: str


class MatchOut(BaseModel):
    """The score sheet: formatted totals per side and one row per deal."""

    model_config = ConfigDict(extra="allow")

    sides: list[str]
    totals: dict[str, str]
    points: dict[str, int]
    partija: int
    rows: list[SheetRowOut]
    winner: str | None = None


class PendingCardOut(BaseModel):
    id: str
    seat: int
    candidates: list[str]
    confidences: list[float]
    # set when the camera asks because the deck profile names another card than it read
    profile_card: str | None = None
    crop: str | None = Field(
        default=None, description="The camera's picture of the card: GET /crops/{crop}"
    )


class DeckProfileOut(BaseModel):
    """How much of the deck in use the camera has learnt (``kibic vision enrol`` and the cards
    people confirmed): cards with references, of how many, and how many learnt at the table."""

    enrolled: int
    of: int
    learnt: int
    saved: bool


class CameraOut(BaseModel):
    """What the table's camera reports; absent when the table has no camera."""

    source: str
    deck: str
    calibrated: bool
    profile: DeckProfileOut | None = None
    # why no frames come, while none do (the camera failed, or its source ended)
    stopped: str | None = None


class DealRecordOut(BaseModel):
    model_config = ConfigDict(extra="allow")

    number: int
    tricks: Any = None
    violations: list[ViolationOut] = Field(default_factory=list)
    scores: dict[str, Any] = Field(default_factory=dict)
    detail: str = ""
    agreed: list[str] = Field(
        default_factory=list, description="The sides that confirmed this deal's score"
    )
    confirmed: bool = Field(default=False, description="Every side confirmed the score")


class TableStateOut(BaseModel):
    """The whole public state of the table (what GET /api/state and every live message carry)."""

    model_config = ConfigDict(extra="allow")

    table_id: str
    game: str | None
    title: str | None = None
    names: list[str]
    seq: int
    sides: list[str]
    deal: DealOut | None
    match: MatchOut | None
    pending: list[PendingCardOut] = Field(default_factory=list)
    calls: list[DirectorCallOut] = Field(default_factory=list)
    log: list[dict[str, Any]] = Field(default_factory=list)
    deals: list[DealRecordOut] = Field(default_factory=list)
    camera: CameraOut | None = None
    crops: dict[str, str] = Field(
        default_factory=dict,
        description="The camera's picture of each card played in this deal, by card code: "
        "GET /crops/{id}",
    )


class HistoryOut(BaseModel):
    table_id: str
    game: str | None
    names: list[str]
    deals: list[DealRecordOut]
    match: MatchOut | None


class DirectorCallOut(BaseModel):
    """An open call for the director."""

    id: str
    seat: int | None
    source: str
    ts: float = 0.0


class CallOut(BaseModel):
    """The call for the director that a request opened (or the seat's call already open)."""

    id: str
    seat: int | None
    seq: int


class EventsOut(BaseModel):
    """What an admin action caused: the referee's events and the table's new sequence number."""

    seq: int
    events: list[dict[str, Any]]


class GameOut(BaseModel):
    name: str
    title: str
    aliases: list[str]


class LiveMessageOut(BaseModel):
    """One Server-Sent Event of GET /api/live (documentation only: the stream is text)."""

    seq: int
    events: list[dict[str, Any]]
    state: TableStateOut


class ErrorOut(BaseModel):
    detail: str
