"""Actions: what happens at the table and goes into a deal's log (RULES.md §16.4)."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.cards import Card
from referee.errors import CardError, TranscriptError
from referee.wording import refusal

NOT_CARDS = refusal("cards.not_a_list", "{where}: expected a list of cards")
BAD_CARDS = refusal("cards.bad_card", "{where}: {reason}")


class ActionType(enum.Enum):
    """Every kind of table action, spoken or played. Each game accepts its own subset."""

    PLAY = "play"  # a card played face up (``value`` may say "discard" / "overtake")
    CONTRACT = "contract"  # deal type or final contract (Satir: zatvoreno/aktivno/pasivno)
    BID = "bid"
    PASS = "pass"  # "Dalje"
    KONTRA = "kontra"  # kontra / rekontra / ... (``value`` names the level or components)
    ANNOUNCE = "announce"  # Solo, marriages, "Fortuna na znanje", ...
    SHOW = "show"  # cards shown without playing (fan, Jack, key card, declaration)
    DECLARE = "declare"  # SubRosa zvanje
    OFFER = "offer"  # a face-down card (Ružička nuđenje)
    KNOCK = "knock"
    BREAK = "break"  # Ružička brejk
    REVEAL = "reveal"
    PICKUP = "pickup"
    EXCHANGE = "exchange"  # talon / centre-card exchange
    OPEN = "open"  # Otvoreno
    CLAIM = "claim"  # Kec herc deli / ne deli
    DRAW = "draw"  # gin: ``value`` "stock" or "upcard"
    DISCARD = "discard"
    LAYOFF = "layoff"

    #: one object per type, equal only to itself: hashed by identity in C (an enum member's
    #: own hash is computed in Python each time, and actions are hashed and looked up often)
    __hash__ = object.__hash__


#: the fields of an event, and its types by name (a transcript holds one event per action)
_FIELDS = frozenset({"seat", "type", "card", "cards", "value"})
_TYPES: dict[Any, ActionType] = {kind.value: kind for kind in ActionType}


def card_list(raw: Any, where: str) -> list[Card]:
    """Cards from a transcript/setup field (a list of codes or one space-separated string);
    None is no cards. Errors name ``where``."""
    if raw is None:
        return []
    if isinstance(raw, str):
        raw = raw.split()
    if not isinstance(raw, list | tuple):
        raise NOT_CARDS.error(where=where)
    try:
        return [c if isinstance(c, Card) else Card.parse(c) for c in raw]
    except CardError as exc:
        raise BAD_CARDS.error(where=where, reason=exc) from None


@dataclass(frozen=True, slots=True)
class Action:
    """One entry of a deal's log. ``card`` for single-card actions, ``cards`` for several."""

    seat: int
    type: ActionType
    card: Card | None = None
    cards: tuple[Card, ...] = ()
    value: str | None = None

    @classmethod
    def play(cls, seat: int, card: Card | str, value: str | None = None) -> Action:
        return cls(
            seat, ActionType.PLAY, Card.parse(card) if isinstance(card, str) else card, value=value
        )

    @classmethod
    def kept(
        cls, seat: int, kind: ActionType, card: Card | None = None, value: str | None = None
    ) -> Action:
        """The action of one card (or none) and a value, made once and then kept (actions are
        immutable): listing the legal actions of every state makes the same few again and
        again."""
        key = (seat, kind, card, value)
        made = _KEPT.get(key)
        if made is None:
            made = _KEPT[key] = cls(seat, kind, card, value=value)
        return made

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "type": self.type.value}
        if self.card is not None:
            out["card"] = self.card.code
        if self.cards:
            out["cards"] = [c.code for c in self.cards]
        if self.value is not None:
            out["value"] = self.value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, where: str = "event") -> Action:
        """Build an action from a transcript event; errors name ``where`` and the field."""
        if not isinstance(data, dict) and not isinstance(data, Mapping):
            raise TranscriptError(f"{where}: an event must be an object, got {type(data).__name__}")
        if not _FIELDS.issuperset(data):
            unknown = set(data) - _FIELDS
            raise TranscriptError(f"{where}: unknown field(s) {sorted(unknown)}")
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise TranscriptError(f"{where}: 'seat' must be an integer, got {seat!r}")
        try:
            kind = _TYPES[data.get("type")]
        except (KeyError, TypeError):
            raise TranscriptError(f"{where}: unknown event type {data.get('type')!r}") from None
        try:
            card = Card.parse(data["card"]) if data.get("card") is not None else None
            raw_cards = data.get("cards", [])
            if isinstance(raw_cards, str):
                raw_cards = raw_cards.split()
            if not isinstance(raw_cards, list):
                raise TranscriptError(f"{where}: 'cards' must be a list of card codes")
            cards = tuple(Card.parse(c) for c in raw_cards)
        except CardError as exc:
            raise TranscriptError(f"{where}: {exc}") from None
        value = data.get("value")
        if value is not None and not isinstance(value, str | int | float):
            raise TranscriptError(f"{where}: 'value' must be a string or number")
        return cls(seat, kind, card, cards, None if value is None else str(value))

    def __str__(self) -> str:
        parts = [f"seat {self.seat}", self.type.value]
        if self.card is not None:
            parts.append(self.card.code)
        if self.cards:
            parts.append("[" + " ".join(c.code for c in self.cards) + "]")
        if self.value is not None:
            parts.append(repr(self.value))
        return " ".join(parts)


#: the actions ``Action.kept`` made so far, by seat, type, card and value
_KEPT: dict[tuple[int, ActionType, Card | None, str | None], Action] = {}
