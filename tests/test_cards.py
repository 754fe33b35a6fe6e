import pytest

from referee.cards import Card, Deck, Rank, Suit, format_cards, parse_cards
from referee.errors import CardError
from referee.faces import card_from_face, face_label
from referee.seats import Seat


@pytest.mark.parametrize(
    "text,code", [("AS", "AS"), ("10h", "TH"), ("TH", "TH"), ("7d", "7D"), ("JK", "JK"), ("x", "JK"),
                  ("QC#2", "QC#2")],
)  # fmt: skip
def test_parse_and_format_round_trip(text: str, code: str) -> None:
    card = Card.parse(text)
    assert card.code == code
    assert Card.parse(card.code) == card


@pytest.mark.parametrize("bad", ["", "1S", "AX", "QC#3", "10", "ZZZ"])
def test_bad_cards_name_the_text(bad: str) -> None:
    with pytest.raises(CardError, match="card|rank|copy"):
        Card.parse(bad)


def test_deck_sizes_and_membership() -> None:
    sizes = {d: len(d.cards) for d in Deck}
    assert sizes == {
        Deck.FRENCH_52: 52, Deck.FRENCH_53: 53, Deck.PIQUET_32: 32, Deck.CUT_40: 40,
        Deck.CUT_28: 28, Deck.GERMAN_32: 32, Deck.SERBIAN_33: 33, Deck.DOPPELKOPF_48: 48,
    }  # fmt: skip
    assert Card.parse("5S") in Deck.CUT_40 and Card.parse("4S") not in Deck.CUT_40
    assert Card.parse("8H") in Deck.CUT_28 and Card.parse("7H") not in Deck.CUT_28
    assert Card.parse("QC#1") in Deck.DOPPELKOPF_48 and Card.parse("QC") not in Deck.DOPPELKOPF_48
    assert all(len(set(d.cards)) == len(d.cards) for d in Deck)


def test_serbian_faces_follow_the_rule_text() -> None:
    # RULES.md §1.4 table
    pairs = {"1r": "7H", "1R": "JH", "2d": "8D", "2D": "QD", "3z": "9S", "3Z": "KS", "3l": "9S",
             "3L": "KS", "4s": "TC", "4š": "TC", "4S": "AC", "4Š": "AC", "X": "JK"}  # fmt: skip
    for face, code in pairs.items():
        assert card_from_face(face, Deck.SERBIAN_33).code == code
    assert face_label(Card.parse("AC"), Deck.SERBIAN_33) == "4Š"
    assert face_label(Card.parse("7H"), Deck.SERBIAN_33) == "1r"
    for card in Deck.SERBIAN_33.cards:
        assert card_from_face(face_label(card, Deck.SERBIAN_33), Deck.SERBIAN_33) == card


def test_german_faces() -> None:
    assert card_from_face("PO", Deck.GERMAN_32) == Card(Rank.QUEEN, Suit.HEARTS)
    assert card_from_face("zu", Deck.GERMAN_32) == Card(Rank.JACK, Suit.SPADES)
    assert card_from_face("M10", Deck.GERMAN_32) == Card(Rank.TEN, Suit.CLUBS)
    assert face_label(Card.parse("AD"), Deck.GERMAN_32) == "TA"
    with pytest.raises(CardError, match="German face"):
        card_from_face("QX", Deck.GERMAN_32)
    with pytest.raises(CardError, match="not in the german-32 deck"):
        face_label(Card.parse("2H"), Deck.GERMAN_32)


def test_seats() -> None:
    assert Seat(3, 4).next() == Seat(0, 4)
    assert Seat(0, 3).previous() == Seat(2, 3)
    assert Seat(1, 4).partner() == Seat(3, 4)
    assert [Seat(i, 4).side for i in range(4)] == [0, 1, 0, 1]
    assert format_cards(parse_cards("AS 10h")) == "AS TH"


def test_cards_compare_hash_sort_and_pickle_by_rank_suit_and_copy() -> None:
    import pickle

    a, b, c = Card.parse("QC#1"), Card(Rank.QUEEN, Suit.CLUBS, 1), Card.parse("QC#2")
    assert a == b and hash(a) == hash(b) and a != c and len({a, b, c}) == 2
    assert a != "QC#1" and Card.parse("JK") == Card(Rank.JOKER, None)
    assert format_cards(sorted(parse_cards("AS 7C JK TD QC#2 QC#1"))) == "7C QC#1 QC#2 TD AS JK"
    again = pickle.loads(pickle.dumps(a))  # rebuilt: its hash is this process's own
    assert again == a and hash(again) == hash(a) and again in {a}
