"""Ulti facts (RULES.md §13): bids, values, ranking, card orders, settlement arithmetic,
the deal packets and the "Kec herc deli / ne deli" end of the partija."""

from __future__ import annotations

import pytest

from referee.cards import Card, Deck, Suit, parse_cards
from referee.errors import ActionError
from referee.games.ulti import KecHerc, deal_packets
from referee.games.ulti_rules import (
    KONTRA_NAMES,
    Component,
    all_bids,
    bid_beats,
    component_amount,
    parse_bid,
    strength,
    winner_index,
)


@pytest.mark.parametrize(
    ("text", "name", "values"),
    [
        ("passz", "passz", {"passz": 1}),
        ("Pass-Herc", "herc-passz", {"passz": 2}),
        ("40-100", "40-100", {"40-100": 4}),
        ("herc-40-100", "herc-40-100", {"40-100": 8}),
        ("20-100", "20-100", {"20-100": 8}),
        ("herc 20-100", "herc-20-100", {"20-100": 16}),
        ("ulti", "ulti", {"passz": 1, "ulti": 4}),
        ("herc-ulti", "herc-ulti", {"passz": 2, "ulti": 8}),
        ("40-100-ulti-durmars", "40-100-ulti-durchmars", {"40-100": 4, "ulti": 4, "durchmars": 6}),
        ("herc-ulti-durchmars", "herc-ulti-durchmars", {"passz": 2, "ulti": 8, "durchmars": 12}),
        ("durchmars", "durchmars", {"durchmars": 6}),
        ("herc-durchmars", "herc-durchmars", {"durchmars": 12}),  # no trump: "Herc" = doubled
        ("otvoreni durmars", "open-durchmars", {"open-durchmars": 24}),
        # Open Durchmars with Herc trump: 24 stays, the other components are doubled
        ("herc-40-100-open-durchmars", "herc-40-100-open-durchmars",
         {"40-100": 8, "open-durchmars": 24}),
        ("betl", "betli", {"betli": 5}),
        ("herc-betli", "herc-betli", {"betli": 10}),
        ("uver betl", "uver-betli", {"uver-betli": 20}),
    ],
)  # fmt: skip
def test_bids_and_component_values(text: str, name: str, values: dict[str, int]) -> None:
    bid = parse_bid(text)
    assert bid.name == name
    assert {c.value: bid.value(c) for c in bid.components} == values
    assert parse_bid(bid.name) == bid


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("passz-durchmars", "comes with 20-100, 40-100 or Ulti"),
        ("betli-ulti", "cannot be combined"),
        ("40-100-20-100", "one of Passz"),
        ("herc-uver-betli", "no Herc version"),
        ("ulti-foo", "unknown bid"),
        ("herc-open-durchmars", "always 24"),
    ],
)
def test_invalid_bids(text: str, message: str) -> None:
    with pytest.raises(ActionError, match=message):
        parse_bid(text)


def test_trump_of_a_bid() -> None:
    assert parse_bid("passz").trump_fixed == "?"  # named after the auction
    assert parse_bid("herc-passz").trump_fixed == "H"
    assert parse_bid("betli").trump_fixed is None
    assert parse_bid("durchmars").trump_fixed is None


def test_bid_ranking_sum_of_base_values_herc_breaks_ties() -> None:
    assert bid_beats(parse_bid("passz"), None)
    assert bid_beats(parse_bid("herc-passz"), parse_bid("passz"))
    assert not bid_beats(parse_bid("passz"), parse_bid("passz"))
    assert not bid_beats(parse_bid("betli"), parse_bid("ulti"))  # 5 : 5, neither Herc
    assert bid_beats(parse_bid("herc-betli"), parse_bid("ulti"))
    assert bid_beats(parse_bid("durchmars"), parse_bid("herc-ulti"))  # 6 > 5
    bids = all_bids()
    assert len(bids) == 38 and bids[0].name == "passz"
    assert bids[-1].name == "herc-20-100-ulti-open-durchmars"


def test_card_orders() -> None:
    trump_order = sorted(
        parse_cards("7S 8S 9S JS QS KS TS AS"), key=lambda c: strength(c, trump_game=True)
    )
    assert " ".join(c.code for c in trump_order) == "7S 8S 9S JS QS KS TS AS"
    plain = sorted(
        parse_cards("7S 8S 9S TS JS QS KS AS"), key=lambda c: strength(c, trump_game=False)
    )
    assert " ".join(c.code for c in plain) == "7S 8S 9S TS JS QS KS AS"
    # the ten beats the king with trumps, not without
    assert winner_index(list(parse_cards("KH TH 7H")), trump=Suit.SPADES, trump_game=True) == 1
    assert winner_index(list(parse_cards("KH TH 7H")), trump=None, trump_game=False) == 0
    assert winner_index(list(parse_cards("AH 7S TH")), trump=Suit.SPADES, trump_game=True) == 1


def test_settlement_vectors_u1_u3_u10() -> None:
    assert component_amount(4, 1, False, announced_ulti=True) == -8  # U1
    assert component_amount(4, 4, False, announced_ulti=True) == -20  # U2
    assert component_amount(8, 4, False, announced_ulti=True) == -40  # U3
    assert [component_amount(1, 2**k, True, announced_ulti=False) for k in range(7)] == [
        1, 2, 4, 8, 16, 32, 64,
    ]  # fmt: skip  # U10
    assert KONTRA_NAMES[1:] == (
        "kontra", "rekontra", "supkontra", "harskontra", "mortkontra", "fedakontra",
    )  # fmt: skip
    assert component_amount(6, 2, False, announced_ulti=False) == -12


def test_deal_packets_cut_and_knock() -> None:
    cards = list(Deck.GERMAN_32.cards)
    cut = deal_packets(cards, dealer=0, knock=False)
    # forehand (seat 1) 7 + 5, seat 2 5 + 5, dealer 5 + 5
    assert cut[1] == cards[0:7] + cards[17:22]
    assert cut[2] == cards[7:12] + cards[22:27]
    assert cut[0] == cards[12:17] + cards[27:32]
    knock = deal_packets(cards, dealer=0, knock=True)
    assert (knock[1], knock[2], knock[0]) == (cards[0:12], cards[12:22], cards[22:32])
    assert Card.parse("AH") in cards


def test_kec_herc_ne_deli() -> None:
    k = KecHerc()
    assert not k.record(holder=0, next_dealer=1, claims=[(2, "ne-deli")])
    assert k.remaining is None
    assert not k.record(holder=2, next_dealer=2, claims=[])  # the A♥ holder deals: 3 more
    assert k.remaining == 3
    assert [k.record(holder=1, next_dealer=0, claims=[]) for _ in range(3)] == [False, False, True]
    assert k.history == [(0, 1, True), (2, 2, False)]


def test_kec_herc_without_claim_never_ends() -> None:
    k = KecHerc()
    assert not any(k.record(holder=0, next_dealer=1, claims=[]) for _ in range(10))


def test_component_enum_values() -> None:
    assert [c.base for c in Component] == [1, 4, 8, 4, 6, 24, 5, 20]
