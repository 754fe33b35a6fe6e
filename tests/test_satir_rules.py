"""RULES.md §2.6, §6 and §8 trick vectors, and the legal-play vectors."""

import pytest

from referee.cards import Card, parse_cards
from referee.games.satir_rules import mali_strength, satir_duty, satir_winner


@pytest.mark.parametrize(
    "trick,winner",
    [
        ("5S 9S 2H KS", "2H"), ("5C AH 9C 3D", "9C"), ("5C 9C 9D 7C", "9D"), ("5C 9C 9D KC", "KC"),
        ("TH QD QH 2H", "QD"), ("TH QD KH 2H", "KH"), ("8D JH TD QD", "QD"), ("8D 8H 3D 2D", "8D"),
        ("7S AD 2S 3S", "7S"), ("6H 2H AD KH", "AD"),
    ],
)  # fmt: skip
def test_veliki_satir_vectors(trick: str, winner: str) -> None:
    cards = parse_cards(trick)
    assert cards[satir_winner(cards)] == Card.parse(winner)


@pytest.mark.parametrize(
    "trick,winner", [("5S AH 3C 9S", "9S"), ("5C 9D 2S 7C", "7C"), ("8D 2H 3S 5D", "2H"),
                     ("6H 9D 3C 8H", "9D")],
)  # fmt: skip
def test_anarhija_vectors(trick: str, winner: str) -> None:
    cards = parse_cards(trick)
    assert cards[satir_winner(cards, anarchy=True)] == Card.parse(winner)


@pytest.mark.parametrize(
    "trick,winner",
    [("AS 7S KS 8H", "8H"), ("AS 7S KS 9S", "7S"), ("9H 8H AD KH", "AD"), ("8C TC 7D AC", "7D"),
     ("7D KH 8D 9D", "7D"), ("8S 9S 7D TS", "TS")],
)  # fmt: skip
def test_mali_satir_vectors(trick: str, winner: str) -> None:
    cards = parse_cards(trick)
    assert cards[satir_winner(cards, strength=mali_strength)] == Card.parse(winner)


def legal(lead: str, hand: str) -> set[str]:
    cards = parse_cards(hand)
    suit = Card.parse(lead).suit
    return {c.code for c in cards if all(o == c or satir_duty(suit, c, o) is None for o in cards)}


def test_legal_play_vectors() -> None:
    assert legal("5S", "2H KD 4C") == {"2H"}
    assert legal("5S", "KD 4C") == {"KD", "4C"}
    assert legal("5D", "3D 5H") == {"3D"}
    assert legal("5C", "2H 9D") == {"2H"}  # a heart is compulsory on clubs although it cannot win
