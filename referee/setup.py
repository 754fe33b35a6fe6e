"""A deal's setup fields (fans, centre, talon, upcard, stock, ...): each game declares the
fields it knows, and a setup is checked against them before the deal starts. An unknown field,
a value of the wrong shape, a card not in the deck or a card placed twice is refused with an
ActionError naming the field (and the seat and card).

>>> from referee.cards import Deck
>>> fields = {"fans": SetupField(FieldKind.SEAT_CARDS, in_hand=True), "centre": SetupField(FieldKind.CARDS)}
>>> check_setup({"fans": {"0": ["AS"], "1": ["AS"]}}, fields, deck=Deck.FRENCH_52, players=4)
Traceback (most recent call last):
...
referee.errors.ActionError: fans[1]: AS is placed twice (also in fans[0])
>>> check_setup({"fan": {}}, fields, deck=Deck.FRENCH_52, players=4)
Traceback (most recent call last):
...
referee.errors.ActionError: setup: unknown field 'fan' (this game knows: centre, fans)
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.cards import Card, Deck, Suit
from referee.errors import CardError
from referee.wording import refusal

UNKNOWN_FIELD = refusal(
    "setup.unknown_field", "setup: unknown field {names} (this game knows: {known})"
)
UNKNOWN_FIELDS = refusal(
    "setup.unknown_fields", "setup: unknown fields {names} (this game knows: {known})"
)
PLACED_TWICE = refusal("setup.placed_twice", "{where}: {card} is placed twice (also in {also})")
ALSO_IN_HAND = refusal("setup.also_in_hand", "{where}: {card} is also in seat {seat}'s hand")
NOT_A_SEAT = refusal("setup.not_a_seat", "{where}: {key} is not a seat number")
NO_SUCH_SEAT = refusal(
    "setup.no_such_seat", "{where}: seat {seat} does not exist (players: {players})"
)
NOT_A_FLAG = refusal("setup.not_a_flag", "{where}: expected true or false, got {shown}")
NOT_A_CHOICE = refusal("setup.not_a_choice", "{where}: expected one of {choices}, got {shown}")
NOT_SEAT_MAP = refusal(
    "setup.not_a_seat_map", "{where}: expected an object of seat -> value, got {shown}"
)
SEAT_TWICE = refusal("setup.seat_twice", "{where}: the seat is given twice")
NOT_AN_INTEGER = refusal("setup.not_an_integer", "{where}: expected an integer, got {shown}")
NOT_SUIT_COUNTS = refusal(
    "setup.not_suit_counts", "{where}: expected suit counts such as {{'H': 3}}, got {shown}"
)
BAD_CARD = refusal("setup.bad_card", "{where}: {reason}")
NOT_A_COUNT = refusal(
    "setup.not_a_count", "{where}[{suit}]: expected a count of cards, got {shown}"
)
NOT_CARDS = refusal("setup.not_cards", "{where}: expected a list of cards, got {shown}")


class FieldKind(enum.Enum):
    """The shape of a setup field's value."""

    CARD = "card"  # one card code
    CARDS = "cards"  # a list of card codes (or one space-separated string)
    SEAT_CARDS = "seat-cards"  # {"0": cards, "1": cards, ...}
    SEAT_NUMBERS = "seat-numbers"  # {"0": 15, ...}: an integer per seat
    SEAT_SUIT_COUNTS = "seat-suit-counts"  # {"0": {"H": 3, "S": 2}, ...}
    FLAG = "flag"  # true / false
    CHOICE = "choice"  # one of ``choices``


@dataclass(frozen=True)
class SetupField:
    """One field a game accepts in a deal's setup.

    ``in_hand``: its cards are part of the hands dealt (Satir's fans), so they may repeat a
    hand's card but not another field's. ``group``: cards of one group are placed once each; a
    field in a group of its own (SubRosa's redeal, a second deal) is checked by itself."""

    kind: FieldKind
    in_hand: bool = False
    group: str = "deal"
    choices: tuple[str, ...] = ()


def check_setup(
    setup: Mapping[str, Any],
    fields: Mapping[str, SetupField],
    *,
    deck: Deck,
    players: int,
    hands: Mapping[int, Sequence[Card]] | None = None,
) -> None:
    """Raise ActionError naming the field if ``setup`` does not fit ``fields``."""
    unknown = sorted(str(key) for key in setup if key not in fields)
    if unknown:
        known = ", ".join(sorted(fields)) or "no setup fields"
        names = ", ".join(repr(key) for key in unknown)
        kind = UNKNOWN_FIELDS if len(unknown) > 1 else UNKNOWN_FIELD
        raise kind.error(names=names, known=known)
    if not setup:
        return  # nothing placed (most deals)
    placed: dict[str, dict[Card, str]] = {}
    in_hands = {c: s for s, cards in (hands or {}).items() for c in cards}
    for name, spec in fields.items():
        if name not in setup:
            continue
        for where, card in _cards_of(name, setup[name], spec, deck=deck, players=players):
            group = placed.setdefault(spec.group, {})
            if card in group:
                raise PLACED_TWICE.error(where=where, card=card, also=group[card])
            group[card] = where
            if spec.group == "deal" and not spec.in_hand and card in in_hands:
                raise ALSO_IN_HAND.error(where=where, card=card, seat=in_hands[card])


def seat_of(key: Any, where: str, players: int) -> int:
    """A seat number from a JSON object key (``"0"``) or an integer; errors name ``where``."""
    if isinstance(key, bool) or not isinstance(key, int | str):
        raise NOT_A_SEAT.error(where=where, key=repr(key))
    text = str(key).strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 3:
        raise NOT_A_SEAT.error(where=where, key=repr(key))
    seat = int(text)
    if not 0 <= seat < players:
        raise NO_SUCH_SEAT.error(where=where, seat=seat, players=players)
    return seat


def _cards_of(
    name: str, raw: Any, spec: SetupField, *, deck: Deck, players: int
) -> list[tuple[str, Card]]:
    """The cards a field places, each with where it lies (``fans[1]``); checks its shape."""
    kind = spec.kind
    if kind is FieldKind.FLAG:
        if not isinstance(raw, bool):
            raise NOT_A_FLAG.error(where=name, shown=_shown(raw))
        return []
    if kind is FieldKind.CHOICE:
        if raw not in spec.choices:
            raise NOT_A_CHOICE.error(where=name, choices=", ".join(spec.choices), shown=_shown(raw))
        return []
    if kind is FieldKind.CARD:
        return [(name, _card(raw, name, deck))]
    if kind is FieldKind.CARDS:
        return [(name, card) for card in _card_list(raw, name, deck)]
    if not isinstance(raw, Mapping):
        raise NOT_SEAT_MAP.error(where=name, shown=_shown(raw))
    out: list[tuple[str, Card]] = []
    seen: set[int] = set()
    for key, value in raw.items():
        seat = seat_of(key, name, players)
        where = f"{name}[{seat}]"
        if seat in seen:
            raise SEAT_TWICE.error(where=where)
        seen.add(seat)
        if kind is FieldKind.SEAT_CARDS:
            out.extend((where, card) for card in _card_list(value, where, deck))
        elif kind is FieldKind.SEAT_NUMBERS:
            if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 10**9:
                raise NOT_AN_INTEGER.error(where=where, shown=_shown(value))
        else:
            _suit_counts(value, where)
    return out


def _suit_counts(raw: Any, where: str) -> None:
    if not isinstance(raw, Mapping):
        raise NOT_SUIT_COUNTS.error(where=where, shown=_shown(raw))
    for suit, count in raw.items():
        try:
            Suit.parse(suit) if isinstance(suit, str) else Suit.parse(repr(suit))
        except CardError as exc:
            raise BAD_CARD.error(where=where, reason=exc) from None
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 64:
            raise NOT_A_COUNT.error(where=where, suit=suit, shown=_shown(count))


def _card(raw: Any, where: str, deck: Deck) -> Card:
    try:
        return deck.check(Card.parse(raw))
    except CardError as exc:
        raise BAD_CARD.error(where=where, reason=exc) from None


def _card_list(raw: Any, where: str, deck: Deck) -> list[Card]:
    if isinstance(raw, str):
        raw = raw.split()
    if not isinstance(raw, list):
        raise NOT_CARDS.error(where=where, shown=_shown(raw))
    return [_card(item, where, deck) for item in raw]


def _shown(value: Any) -> str:
    """A short description of a bad value for a message (never the whole of a huge one)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"an integer of {value.bit_length()} bits"
    text = repr(value)
    return f"{type(value).__name__} {text if len(text) <= 40 else text[:37] + '...'}"
