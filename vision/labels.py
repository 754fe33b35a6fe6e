"""The recognition model's classes: one per physical face design family and face label.

A class is ``<family>:<face>`` where family is ``french`` (52 + Joker, also used by the piquet,
cut and Doppelkopf decks), ``german`` (Hungarian/German 32) or ``serbian`` (32 + Joker), and
face is the label of :func:`referee.faces.face_label`.

>>> ALL_LABELS[0], len(ALL_LABELS)
('french:2C', 118)
>>> card_for_label("serbian:4Š")
Card.parse('AC')
>>> labels_for_deck(Deck.PIQUET_32)[:2]
('french:7C', 'french:8C')
"""

from __future__ import annotations

from functools import cache

from referee.cards import Card, Deck
from referee.faces import card_from_face, face_label

FAMILY_DECK: dict[str, Deck] = {
    "french": Deck.FRENCH_53,
    "german": Deck.GERMAN_32,
    "serbian": Deck.SERBIAN_33,
}


def family_of(deck: Deck) -> str:
    """The face family a deck is printed in."""
    if deck is Deck.GERMAN_32:
        return "german"
    if deck is Deck.SERBIAN_33:
        return "serbian"
    return "french"


def index_readable(deck: Deck) -> bool:
    """Whether a card of ``deck`` is told by its corner index alone: French-suited, one copy of
    each card (an index does not tell two copies apart)."""
    return family_of(deck) == "french" and deck.copies == 1


def _family_labels(family: str) -> tuple[str, ...]:
    deck = FAMILY_DECK[family]
    return tuple(f"{family}:{face_label(card, deck)}" for card in deck.cards)


NONE_LABEL = "none"  # the model's class for "no card face here"
# always asked, never committed, at the table and in still photos: the Joker's corner carries no
# rank and suit sign (a word or a picture, by design); the box reader reads printed text as it
# (experiment 31), the table classifier pictures and labels as its whole face (experiment 35),
# the still-photo classifier the print of books and card boxes (experiment 41)
ASKED_ALWAYS = frozenset({"french:JK"})

ALL_LABELS: tuple[str, ...] = tuple(
    label for family in ("french", "german", "serbian") for label in _family_labels(family)
)


def split_label(label: str) -> tuple[str, str]:
    family, _, face = label.partition(":")
    return family, face


@cache
def card_for_label(label: str) -> Card:
    """The logical card of a class label (copy index 0)."""
    family, face = split_label(label)
    return card_from_face(face, FAMILY_DECK[family])


def deck_for_label(label: str) -> Deck:
    return FAMILY_DECK[split_label(label)[0]]


@cache
def labels_for_deck(deck: Deck) -> tuple[str, ...]:
    """The class labels a card of ``deck`` can carry (its family, restricted to its cards)."""
    family = family_of(deck)
    fam_deck = FAMILY_DECK[family]
    seen: list[str] = []
    for card in deck.cards:
        label = f"{family}:{face_label(card.logical, fam_deck)}"
        if label not in seen:
            seen.append(label)
    return tuple(seen)
