"""Veliki Satir (4/3/2), Anarhija, rainbow and Mali Satir: worked examples, scoring, revokes."""

from __future__ import annotations

import pytest

from referee.actions import Action, ActionType
from referee.cards import parse_cards
from referee.deal import DealResult, Mode
from referee.errors import ActionError, IllegalPlay
from referee.games.satir_rules import to_tenths
from referee.match import Match
from referee.registry import load_game
from tests.satir_helpers import scripted


@pytest.mark.parametrize(
    "cards,per_point,text",
    [(28, 5, "5.3"), (24, 5, "4.4"), (16, 5, "3.1"), (32, 5, "6.2"), (20, 5, "4.0"),
     (52, 5, "10.2"), (0, 5, "0.0"), (17, 4, "4.1"), (40, 4, "10.0"), (28, 3, "9.1"),
     (15, 3, "5.0"), (13, 3, "4.1")],
)  # fmt: skip
def test_cards_to_points_and_resto(cards: int, per_point: int, text: str) -> None:
    game = load_game("veliki-satir")
    assert game.format_score(to_tenths(cards, per_point)) == text


def test_three_deal_score_sheet_of_the_rule_text() -> None:
    """VS3-VS5: Closed 5.3 : 4.4, Active 17.7 : 8.4, Passive 12.4 : 12.8."""
    match = Match(load_game("veliki-satir"))
    lines = []
    for scores in ({"A": 53, "B": 44}, {"A": 124, "B": 40}, {"A": -53, "B": 44}):
        match.record(DealResult(scores))
        lines.append(match.sheet_line())
    assert lines == ["5.3 : 4.4", "17.7 : 8.4", "12.4 : 12.8"]


def test_decimal_rule_and_negative_correction() -> None:
    game = load_game("veliki-satir")
    # VS6: 8.4 + 4.4 = 12.8; VS7: 2.3/10.0, passive A -5.3, B +4.4 -> 0.0 / 17.4
    match = Match(game, totals={"A": 23, "B": 100})
    match.record(DealResult({"A": -53, "B": 44}))
    assert match.sheet_line() == "0.0 : 17.4" and match.rows[-1].corrected
    # VS8: revoke in Passive by A with totals 3.0 : 20.0 -> 0.0 : 32.0
    match = Match(game, totals={"A": 30, "B": 200})
    match.record(DealResult({"A": -100, "B": 50}))
    assert match.sheet_line() == "0.0 : 32.0"


def test_partija_to_50_and_match_of_three() -> None:
    match = Match(load_game("veliki-satir"))
    for _ in range(3):
        events = match.record(DealResult({"A": 300, "B": 10}))
        assert not events
        events = match.record(DealResult({"A": 200, "B": 10}))
        assert [e.kind for e in events][0] == "partija_over"
    assert match.winner == "A" and match.points == {"A": 3, "B": 0}
    assert events[-1].kind == "match_over"


def test_equal_totals_at_the_target_play_another_deal() -> None:
    match = Match(load_game("veliki-satir"), totals={"A": 450, "B": 450})
    assert match.record(DealResult({"A": 60, "B": 60})) == []
    assert match.totals == {"A": 510, "B": 510}


def test_three_player_game_points() -> None:
    game = load_game("veliki-satir(players=3)")
    match = Match(game)
    events = match.record(DealResult({"0": 523, "1": 301, "2": 200}))
    assert events[0].points == {"0": 3, "1": 2, "2": 0}  # 20.0 is below 25: no game point
    assert game.match_target == 10


def test_active_deal_doubles_the_side_that_took_seven_tricks_first() -> None:
    # 13 tricks, all spades/hearts known not needed: closed hidden hands, scripted plays
    deal, _ = scripted("veliki-satir", "zatvoreno", [])
    assert deal.snapshot()["contract"] == "zatvoreno"


def _full_deal(contract: str):  # type: ignore[no-untyped-def]
    """Seat 0 and 2 (side A) win tricks 1-7 with high spades/hearts; B wins the rest."""
    game = load_game("veliki-satir")
    hands = {
        0: parse_cards("AS KS QS JS TS 9S 8S 2C 3C 4C 5C 6C 7C"),
        1: parse_cards("2S 3S 4S 5S 6S 7S 2D 3D 4D 5D 6D 7D 8D"),
        2: parse_cards("2H 3H 4H 5H 6H 7H 8H 8C 9C TC JC QC KC"),
        3: parse_cards("9H TH JH QH KH AH 9D TD JD QD KD AD AC"),
    }
    deal = game.new_deal(dealer=3, hands=hands, mode=Mode.STRICT)
    deal.play(Action(0, ActionType.CONTRACT, value=contract))
    return deal


def test_known_hands_strict_mode_refuses_a_revoke() -> None:
    deal = _full_deal("zatvoreno")
    deal.play(Action.play(0, "AS"))
    deal.play(Action.play(1, "2S"))
    with pytest.raises(IllegalPlay, match="must-trump — seat 2 holds 2H"):
        deal.play(Action.play(2, "8C"))  # seat 2 has no spade but must trump with a heart
    assert deal.snapshot()["trick"]["plays"] == [[0, "AS"], [1, "2S"]]
    with pytest.raises(IllegalPlay, match="must-trump"):
        deal.check(Action.play(2, "8C"))
    deal.play(Action.play(2, "2H"))


def test_procedural_errors_name_what_was_wrong() -> None:
    deal = _full_deal("zatvoreno")
    with pytest.raises(ActionError, match="out of turn, seat 0 is to play"):
        deal.play(Action.play(1, "2S"))
    with pytest.raises(ActionError, match="not in seat 0's hand"):
        deal.play(Action.play(0, "2S"))
    deal.play(Action.play(0, "AS"))
    with pytest.raises(ActionError, match="already played"):
        deal.play(Action.play(1, "AS"))
    with pytest.raises(ActionError, match="not in the french-52 deck"):
        deal.play(Action.play(1, "JK"))


def test_revoke_of_follow_suit_proven_later_with_evidence() -> None:
    deal, events = scripted("veliki-satir", "aktivno", ["5S 9S 2H KS", "3S"],
                            fans={"0": "2D 3D 4D 5D 6D", "1": "7D 8D 9D TD JD",
                                  "2": "QD KD AD 2C 3C", "3": "4C 5C 6C 7C 8C"})  # fmt: skip
    kinds = [e.kind for e in events]
    assert "violation_suspected" in kinds
    (v,) = deal.violations
    assert (v.seat, v.rule, v.trick, v.proven_at_trick, v.card.code, v.witness.code) == (
        2, "follow-suit", 1, 2, "2H", "3S")  # fmt: skip
    assert "must have held" in v.evidence
    assert deal.is_over and deal.result.scores == {"A": 0, "B": 200}  # Active: +20.0 to B


def test_failure_to_trump_proven_later() -> None:
    deal, _ = scripted("veliki-satir", "zatvoreno", ["5S 9S 4C KS", "7D 8D 9D 3H"])
    (v,) = deal.violations
    assert (v.seat, v.rule, v.trick, v.proven_at_trick, v.witness.code) == (
        2,
        "must-trump",
        1,
        2,
        "3H",
    )
    assert deal.result.scores == {"A": 0, "B": 100}


def test_passive_penalty_subtracts_from_the_offender() -> None:
    deal, _ = scripted("veliki-satir", "pasivno", ["5S 9S 4C KS", "7D 8D 9D 3H"],
                       fans={"0": "2D 3D 4D 5D 6D", "1": "TD JD QD KD AD",
                             "2": "6H 7H 8H 9H TH", "3": "2C 3C 5C 6C 7C"})  # fmt: skip
    assert deal.result.scores == {"A": -100, "B": 50}


def test_legal_discard_is_never_flagged() -> None:
    deal, events = scripted("veliki-satir", "zatvoreno",
                            ["5S 9S 4C KS", "7D 8D 9D 5C", "6C 7C 8C 9C"])  # fmt: skip
    assert not deal.violations
    assert [e.rule for e in events if e.kind == "violation_suspected"] == [
        "follow-suit",
        "follow-suit",
    ]
    assert deal.snapshot()["constraints"]["2"] == [
        "trick 1: no ♠ and no ♥ in hand",
        "trick 2: no ♦ and no ♥ in hand",
    ]


def test_card_picked_up_from_the_fan_after_the_trick_is_no_witness() -> None:
    fans = {"0": "2D 3D 4D 5D 6D", "1": "7D 8D 9D TD JD", "2": "3S KD AD 2C 3C",
            "3": "4C 5C 6C 7C 8C"}  # fmt: skip
    deal, events = scripted("veliki-satir", "aktivno", ["5S 9S 2H KS", "3S"], fans=fans)
    assert not deal.violations
    assert [(e.seat, e.card.code) for e in events if e.kind == "card_picked_up"] == [
        (0, "2D"), (1, "7D"), (2, "3S"), (3, "4C")]  # fmt: skip
    with pytest.raises(ActionError, match="still in the seat's fan"):
        deal.play(Action.play(3, "5C"))


def test_rainbow_backs_prove_a_revoke_at_once() -> None:
    backs = {"0": {"S": 5, "H": 3, "D": 3, "C": 2}, "1": {"S": 4, "D": 5, "C": 4},
             "2": {"S": 1, "H": 4, "C": 8}, "3": {"S": 3, "H": 6, "D": 4}}  # fmt: skip
    deal, _ = scripted("satir-u-duginim-bojama", "zatvoreno", ["5S 9S 2H"], backs=backs)
    (v,) = deal.violations
    assert (v.seat, v.rule, v.trick, v.proven_at_trick) == (2, "follow-suit", 1, 1)
    assert "the backs show 1 ♠" in v.evidence


def test_velika_anarhija_source_example() -> None:
    deal, events = scripted("velika-anarhija", "zatvoreno", ["5S AH 3C 9S"])
    won = [e for e in events if e.kind == "trick_won"]
    assert won[0].winner == 3  # 9S: the club turned the heart into an ordinary card


def test_three_player_centre_card_goes_to_the_last_trick() -> None:
    game = load_game("veliki-satir(players=3)")
    deal = game.new_deal(dealer=0, hands=None, setup={})
    assert len(game.deck) == 40 and deal.forehand == 1
    assert game.facts.centre == 1 and game.facts.majority == 5 and game.facts.per_point == 4


def test_three_player_exchange_with_known_hands() -> None:
    import random

    game = load_game("veliki-satir(players=3)")
    hands, setup = game.deal_cards(random.Random(5), dealer=0)
    deal = game.new_deal(dealer=0, hands=hands, setup=setup, mode=Mode.STRICT)
    deal.play(Action(1, ActionType.CONTRACT, value="aktivno"))
    centre = setup["centre"][0]
    hand_card = sorted(deal.hands[1])[0]
    deal.play(Action(1, ActionType.EXCHANGE, cards=(hand_card,)))
    assert centre in {c.code for c in deal.hands[1]} and hand_card not in deal.hands[1]
    with pytest.raises(ActionError, match="exchange is over"):
        deal.play(Action(1, ActionType.EXCHANGE, cards=(hand_card,)))


def test_mali_satir_active_four_tricks_first_doubles_even_at_four_four() -> None:
    game = load_game("mali-satir")
    # side A wins tricks 1, 2, 3, 5; side B wins 4, 6, 7, 8 -> A 16 cards 3.1 x 2 = 6.2, B 3.1
    hands = {
        0: parse_cards("7S AS KS 8S QH JH TH 9H"),
        1: parse_cards("QS JS TS 9S 7C AC KC QC"),
        2: parse_cards("7D AD KD QD JD TD 9D 8D"),
        3: parse_cards("JC TC 9C 8C 7H AH KH 8H"),
    }
    deal = game.new_deal(dealer=3, hands=hands, setup={"fans": {
        "0": "QH JH TH", "1": "7C AC KC", "2": "JD TD 9D", "3": "7H AH KH"}})  # fmt: skip
    deal.play(Action(0, ActionType.CONTRACT, value="aktivno"))
    rng_plays = []
    while not deal.is_over:
        plays = deal.legal_plays()
        deal.play(Action.play(deal.to_act, plays[-1]))
        rng_plays.append(plays[-1])
    assert deal.result is not None
    assert deal.majority_side in ("A", "B")
    a_tricks = sum(1 for t in deal.tricks if t.winner in (0, 2))
    first = deal.majority_side
    cards = deal.cards_taken()
    assert sum(cards.values()) == 32
    expect = {s: to_tenths(n, 5) for s, n in cards.items()}
    expect[first] *= 2
    assert deal.result.scores == expect and 0 <= a_tricks <= 8


def test_mali_satir_penalties_and_target() -> None:
    game = load_game("mali-satir")
    assert game.facts.penalty == {"zatvoreno": (60, 0), "aktivno": (120, 0), "pasivno": (20, -60)}
    match = Match(game, totals={"A": 450, "B": 0})
    assert match.record(DealResult({"A": 50, "B": 0})) == []  # 50.0 is not above 50
    assert match.record(DealResult({"A": 1, "B": 0}))[0].winner == "A"
