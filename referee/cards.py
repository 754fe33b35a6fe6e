"""Cards, suits, ranks and decks: the one card vocabulary every Kibic package uses.

Canonical text form is ``<rank><suit>`` (``AS``, ``TH``, ``7D``, ``QC``); ``10H`` is accepted
on input, the Joker is ``JK`` (``X`` accepted), and the two copies of a Doppelkopf card are
``QC#1`` / ``QC#2``.

>>> Card.parse("10h")
Card.parse('TH')
>>> str(Card.parse("QC#2"))
'QC#2'
>>> len(Deck.FRENCH_52.cards), len(Deck.SERBIAN_33.cards), len(Deck.DOPPELKOPF_48.cards)
(52, 33, 48)
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property
from operator import attrgetter

from referee.errors import CardError
from referee.wording import refusal

NOT_IN_DECK = refusal("deck.not_in_deck", "{card} is not in the {deck} deck")
ONE_COPY = refusal(
    "deck.one_copy",
    "{card}: the {deck} deck holds one copy of each card; a copy index (#1, #2) is only for "
    "doubled decks",
)
NAME_THE_COPY = refusal(
    "deck.name_the_copy",
    "{card}: the {deck} deck holds {copies} copies of each card; name the copy ({first} to {last})",
)
TOO_FEW_COPIES = refusal(
    "deck.too_few_copies", "{card}: the {deck} deck holds only {copies} copies"
)


class Suit(enum.Enum):
    """The four suits, by their standard one-letter code."""

    CLUBS = "C"  # Tref; Serbian Šišarka; German Makk
    DIAMONDS = "D"  # Karo; Serbian Dunja; German Tök
    HEARTS = "H"  # Herc; Serbian Ruža; German Piros
    SPADES = "S"  # Pik; Serbian Zeleno; German Zöld

    #: a suit is one object, equal only to itself: hashed by identity in C (an enum member's
    #: own hash is computed in Python each time, and sets of suits are made for every hand)
    __hash__ = object.__hash__

    @property
    def symbol(self) -> str:
        return {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[self.value]

    @classmethod
    def parse(cls, text: str) -> Suit:
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise CardError(f"unknown suit {text!r} (expected one of C D H S)") from None

    def __str__(self) -> str:
        return self.value


class Rank(enum.IntEnum):
    """Ranks with their natural (ace-high) order; games define their own strength orders."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    JOKER = 15

    @property
    def code(self) -> str:
        return _RANK_CODES[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        key = text.strip().upper()
        if key in _RANK_BY_CODE:
            return _RANK_BY_CODE[key]
        raise CardError(f"unknown rank {text!r} (expected 2-9, T or 10, J, Q, K, A)")

    def __str__(self) -> str:
        return self.code


_RANK_CODES = {
    Rank.TWO: "2", Rank.THREE: "3", Rank.FOUR: "4", Rank.FIVE: "5", Rank.SIX: "6",
    Rank.SEVEN: "7", Rank.EIGHT: "8", Rank.NINE: "9", Rank.TEN: "T", Rank.JACK: "J",
    Rank.QUEEN: "Q", Rank.KING: "K", Rank.ACE: "A", Rank.JOKER: "JK",
}  # fmt: skip
_RANK_BY_CODE = {code: rank for rank, code in _RANK_CODES.items()} | {"10": Rank.TEN}
#: the one object of each card made so far, by (rank, suit, copy)
_CARDS: dict[tuple[Rank, Suit | None, int], Card] = {}


@dataclass(frozen=True, slots=True, init=False, eq=False)
class Card:
    """A logical card. ``suit`` is None only for the Joker; ``copy`` is 1/2 in doubled decks.

    There is one object per card: ``Card(rank, suit, copy)`` gives the same object every time,
    so cards compare and hash by identity, at the speed of the interpreter's own sets and dicts
    (the referee puts cards in sets and compares them in every listing of legal plays).

    >>> Card(Rank.ACE, Suit.SPADES) is Card.parse("AS")
    True
    """

    rank: Rank
    suit: Suit | None
    copy: int = 0
    #: the sorting key, computed once (cards are sorted in every listing of legal plays)
    _key: tuple[str, int, int] = field(init=False, repr=False, compare=False)
    #: the canonical text, computed once (statements and events name cards by it)
    _code: str = field(init=False, repr=False, compare=False)

    def __new__(cls, rank: Rank, suit: Suit | None, copy: int = 0) -> Card:
        known = _CARDS.get((rank, suit, copy))
        if known is not None:
            return known
        try:
            rank = Rank(rank)
            suit = None if suit is None else Suit(suit)
        except ValueError:
            raise CardError(f"no card of rank {rank!r} and suit {suit!r}") from None
        if (rank is Rank.JOKER) != (suit is None):
            raise CardError("only the Joker has no suit")
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "copy", copy)
        object.__setattr__(card, "_key", (suit.value if suit else "Z", int(rank), copy))
        base = "JK" if suit is None else f"{rank.code}{suit.value}"
        object.__setattr__(card, "_code", f"{base}#{copy}" if copy else base)
        return _CARDS.setdefault((rank, suit, copy), card)

    def __reduce__(self) -> tuple[type[Card], tuple[Rank, Suit | None, int]]:
        # rebuilt, never restored: the one object of that card
        return (Card, (self.rank, self.suit, self.copy))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``AS``, ``10H``, ``th``, ``JK``/``X`` or ``QC#1``; raise CardError naming the text."""
        if not isinstance(text, str):
            raise CardError(f"a card must be a string, not {type(text).__name__}")
        card = _PARSED.get(text)
        if card is None:
            card = cls._parse(text)
            if len(_PARSED) < _PARSED_LIMIT:
                _PARSED[text] = card
        return card

    @classmethod
    def _parse(cls, text: str) -> Card:
        raw = text.strip()
        body, _, copy_text = raw.partition("#")
        copy = 0
        if copy_text:
            if copy_text not in ("1", "2"):
                raise CardError(f"bad copy index in {text!r} (expected #1 or #2)")
            copy = int(copy_text)
        upper = body.upper()
        if upper in ("JK", "X", "JOKER"):
            return cls(Rank.JOKER, None, copy)
        if len(upper) < 2:
            raise CardError(f"unknown card {text!r}")
        try:
            return cls(Rank.parse(upper[:-1]), Suit.parse(upper[-1]), copy)
        except CardError as exc:
            raise CardError(f"unknown card {text!r}: {exc}") from None

    @property
    def code(self) -> str:
        return self._code

    @property
    def logical(self) -> Card:
        """The card without its copy index (identical Doppelkopf cards compare equal here)."""
        return Card(self.rank, self.suit) if self.copy else self

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def sort_key(self) -> tuple[str, int, int]:
        return self._key

    def __lt__(self, other: Card) -> bool:
        return self._key < other._key

    def __le__(self, other: Card) -> bool:
        return self._key <= other._key

    def __gt__(self, other: Card) -> bool:
        return self._key > other._key

    def __ge__(self, other: Card) -> bool:
        return self._key >= other._key

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


#: a card's sorting key, read in C: ``sorted(cards, key=card_order)`` gives ``sorted(cards)``
#: without a call to ``Card.__lt__`` per comparison (hands are sorted for every listing)
card_order = attrgetter("_key")

#: texts already read as cards (a card is immutable, so one object serves every reading)
_PARSED: dict[str, Card] = {}
_PARSED_LIMIT = 4096


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse a space-separated string (or an iterable of codes) into cards."""
    items = text.split() if isinstance(text, str) else list(text)
    return tuple(Card.parse(item) for item in items)


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(card.code for card in cards)


SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
_ALL_RANKS = tuple(r for r in Rank if r is not Rank.JOKER)


def _suited(ranks: Iterable[Rank], *, copies: tuple[int, ...] = (0,)) -> tuple[Card, ...]:
    ranks = tuple(ranks)
    return tuple(Card(r, s, c) for s in SUITS for r in ranks for c in copies)


class Deck(enum.Enum):
    """Every deck Kibic knows. ``cards`` lists the logical cards once each."""

    FRENCH_52 = "french-52"
    FRENCH_53 = "french-53"  # 52 + Joker
    PIQUET_32 = "piquet-32"  # 7..A
    CUT_40 = "cut-40"  # 5..A (Veliki Satir for 3)
    CUT_28 = "cut-28"  # 8..A (Veliki Satir for 2)
    GERMAN_32 = "german-32"  # Hungarian/German faces; logical cards as piquet
    SERBIAN_33 = "serbian-33"  # 32 + Joker, Serbian faces
    DOPPELKOPF_48 = "doppelkopf-48"  # 9..A doubled: QC#1, QC#2, ...

    @cached_property
    def cards(self) -> tuple[Card, ...]:
        joker = (Card(Rank.JOKER, None),)
        match self:
            case Deck.FRENCH_52:
                return _suited(_ALL_RANKS)
            case Deck.FRENCH_53:
                return _suited(_ALL_RANKS) + joker
            case Deck.PIQUET_32 | Deck.GERMAN_32:
                return _suited(r for r in _ALL_RANKS if r >= Rank.SEVEN)
            case Deck.CUT_40:
                return _suited(r for r in _ALL_RANKS if r >= Rank.FIVE)
            case Deck.CUT_28:
                return _suited(r for r in _ALL_RANKS if r >= Rank.EIGHT)
            case Deck.SERBIAN_33:
                return _suited(r for r in _ALL_RANKS if r >= Rank.SEVEN) + joker
            case Deck.DOPPELKOPF_48:
                return _suited((r for r in _ALL_RANKS if r >= Rank.NINE), copies=(1, 2))
        raise AssertionError(self)

    @cached_property
    def card_set(self) -> frozenset[Card]:
        return frozenset(self.cards)

    @property
    def copies(self) -> int:
        """How many physical copies of each card the deck holds (2 only in the doubled deck)."""
        return 2 if self is Deck.DOPPELKOPF_48 else 1

    def check(self, card: Card) -> Card:
        """Return ``card`` if it belongs to this deck, else raise CardError saying why: a copy
        index (``5S#1``) belongs only to a doubled deck, and only up to its number of copies.

        >>> Deck.FRENCH_52.check(Card.parse("5S#1"))
        Traceback (most recent call last):
        ...
        referee.errors.CardError: 5S#1: the french-52 deck holds one copy of each card; a copy index (#1, #2) is only for doubled decks
        >>> Deck.DOPPELKOPF_48.check(Card.parse("QC#2"))
        Card.parse('QC#2')
        """
        if card in self.card_set:
            return card
        base = card.logical
        if base not in self.card_set and Card(base.rank, base.suit, 1) not in self.card_set:
            raise NOT_IN_DECK.error(CardError, card=card, deck=self.value)
        if self.copies == 1:
            raise ONE_COPY.error(CardError, card=card, deck=self.value)
        if card.copy == 0:
            raise NAME_THE_COPY.error(CardError, card=card, deck=self.value, copies=self.copies,
                                      first=f"{card}#1", last=f"{card}#{self.copies}")  # fmt: skip
        raise TOO_FEW_COPIES.error(CardError, card=card, deck=self.value, copies=self.copies)

    def __contains__(self, card: object) -> bool:
        return card in self.card_set

    def __iter__(self) -> Iterator[Card]:  # type: ignore[override]
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    @classmethod
    def parse(cls, name: str) -> Deck:
        try:
            return cls(name.strip().lower())
        except ValueError:
            known = ", ".join(d.value for d in cls)
            raise CardError(f"unknown deck {name!r} (known: {known})") from None
