"""Dvoglavi Lav (RULES.md §11): key card, auction, kontra, payment, revoke proofs, scoring."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kibic.cli import main
from referee.actions import Action, ActionType
from referee.cards import Card, Rank, Suit, parse_cards
from referee.deal import DealResult, Mode
from referee.errors import ActionError, IllegalPlay, OptionsError
from referee.games.dvoglavi_lav import match_result
from referee.games.dvoglavi_lav_deal import DvoglaviLavDeal
from referee.games.dvoglavi_lav_rules import (
    POINTS_SERBIAN,
    duty,
    key_order,
    repom_scores,
    score_deal,
    strength_for,
    trick_winner,
)
from referee.match import Match
from referee.registry import load_game

HERE = Path(__file__).parent / "transcripts"

#: each seat holds one whole suit; seat 3 holds the 8♣ and leads
SUITED = {
    0: parse_cards("AH KH QH JH TH 9H 8H 7H"),
    1: parse_cards("AD KD QD JD TD 9D 8D 7D"),
    2: parse_cards("AS KS QS JS TS 9S 8S 7S"),
    3: parse_cards("AC KC QC JC TC 9C 8C 7C"),
}


def order(key: str) -> str:
    return " ".join(r.code for r in key_order(Card.parse(key).rank))


@pytest.mark.parametrize(
    "key,expected",
    [("JS", "7 A K Q J T 9 8"), ("7H", "J T 9 8 7 A K Q"), ("QD", "8 7 A K Q J T 9"),
     ("8D", "Q J T 9 8 7 A K"), ("KC", "9 8 7 A K Q J T"), ("9C", "K Q J T 9 8 7 A"),
     ("AC", "T 9 8 7 A K Q J"), ("TC", "A K Q J T 9 8 7")],
)  # fmt: skip
def test_key_card_order_table(key: str, expected: str) -> None:
    """DL1, DL2 (source) and the rest of the §11.3 table."""
    assert order(key) == expected


def test_card_values_total_100_in_both_readings() -> None:
    """DL3: A4 K3 Q2 J1 10→10 9→0 8→0 7→5 (reading a); reading b as an option."""
    game = load_game("dvoglavi-lav")
    assert [game.card_points(Card(r, Suit.HEARTS)) for r in key_order(Rank.TEN)] == [
        4, 3, 2, 1, 10, 0, 0, 5]  # fmt: skip
    assert game.card_points_total == 100
    other = load_game("dvoglavi-lav(points=aces-tens)")
    assert other.card_points(Card.parse("AS")) == 10 and other.card_points(Card.parse("KS")) == 0
    assert other.card_points_total == 100
    with pytest.raises(OptionsError, match="points must be one of"):
        load_game("dvoglavi-lav(points=french)")
    with pytest.raises(OptionsError, match="AMBIGUITY 41"):
        load_game("dvoglavi-lav(players=3)")


def test_trick_winner_uses_trump_and_key_order() -> None:
    strength = strength_for(Rank.SEVEN)  # key J: 7 is the top rank
    assert trick_winner(parse_cards("AH 7H KH 8H"), Suit.SPADES, strength) == 1
    assert trick_winner(parse_cards("AH 7H 8S KH"), Suit.SPADES, strength) == 2
    assert trick_winner(parse_cards("AH 7H 8S 7S"), Suit.SPADES, strength) == 3
    assert trick_winner(parse_cards("8H 7D 7C 9H"), None, strength_for(Rank.ACE)) == 3


@pytest.mark.parametrize(
    "c,d,k,six,expected",
    [(60, 65, 1, True, (135, 35)), (60, 65, 2, True, (220, 35)), (70, 60, 2, False, (-140, 80)),
     (30, 40, 1, True, (55, 160)), (60, 65, 3, True, (180 + 75 + 50, 35))],
)  # fmt: skip
def test_scoring_vectors(c: int, d: int, k: int, six: bool, expected: tuple[int, int]) -> None:
    """DL4-DL7 and a Rekontra (×3, neutral field 75)."""
    got = score_deal(commitment=c, declarer_points=d, multiplier=k, six_cards=six)
    assert got == expected


def test_repom_and_correction() -> None:
    """DL8: 62 : 38 -> 120 : 0, 50 : 50 -> 0 : 0; DL9: A −50, B 300 -> A 0, B 350."""
    assert repom_scores(62) == (120, 0) and repom_scores(50) == (0, 0)
    match = Match(load_game("dvoglavi-lav"), totals={"A": 0, "B": 300})
    match.record(DealResult({"A": -50, "B": 0}))
    assert match.totals == {"A": 0, "B": 350} and match.rows[-1].corrected


def legal(lead: str, trump: Suit | None, hand: str) -> list[str]:
    cards = parse_cards(hand)
    suit = Card.parse(lead).suit
    return [
        c.code
        for c in cards
        if all(o == c or duty(suit, trump, c, o, POINTS_SERBIAN) is None for o in cards)
    ]


def test_payment_must_be_the_highest_point_card() -> None:
    """DL10: void in the led suit and trumps, {K♦, 7♣, 9♠}: pay 7♣ (worth 5)."""
    assert legal("AH", Suit.HEARTS, "KD 7C 9S") == ["7C"]
    assert legal("AH", Suit.SPADES, "KD 7C 9S") == ["9S"]  # a trump is compulsory
    assert legal("AH", Suit.SPADES, "KD 7C 9S 2H") == ["2H"]
    assert legal("AH", Suit.DIAMONDS, "8C 9S") == ["8C", "9S"]  # AMBIGUITY 47: ties are free
    assert legal("AH", None, "KD TC AS") == ["TC"]  # Repom: no trump, payment


def test_auction_free_jumps_reentry_and_three_passes() -> None:
    deal = load_game("dvoglavi-lav").new_deal(dealer=3)
    calls = [(0, "30"), (1, None), (2, "50"), (3, None), (0, None), (1, "55"), (2, None),
             (3, None)]  # fmt: skip
    for seat, value in calls:
        deal.play(Action(seat, ActionType.BID if value else ActionType.PASS, value=value))
    with pytest.raises(ActionError, match="higher than 55"):
        deal.check(Action(0, ActionType.BID, value="55"))
    deal.play(Action(0, ActionType.PASS))
    snap = deal.snapshot()
    assert snap["declarer"] == 1 and snap["stage"] == "commitment"
    with pytest.raises(ActionError, match="between the bid 55 and 100"):
        deal.check(Action(1, ActionType.CONTRACT, value="50"))
    with pytest.raises(ActionError, match="out of turn"):
        deal.check(Action(2, ActionType.CONTRACT, value="60"))
    deal.play(Action(1, ActionType.CONTRACT, value="60"))
    assert snap["calls"][:3] == ["0: 30", "1: Dalje", "2: 50"]


def start(deal: DvoglaviLavDeal, *, bid: str, key: str, kontra: str = "") -> None:
    """Dealer 3: seat 0 bids, the others pass; seat 0 commits ``bid`` and shows ``key``."""
    deal.play(Action(0, ActionType.BID, value=bid))
    for seat in (1, 2, 3):
        deal.play(Action(seat, ActionType.PASS))
    deal.play(Action(0, ActionType.CONTRACT, value=bid))
    deal.play(Action(0, ActionType.SHOW, Card.parse(key), value="key"))
    if kontra == "kontra":
        deal.play(Action(1, ActionType.KONTRA, value="kontra"))
        deal.play(Action(0, ActionType.PASS))
    elif kontra == "rekontra":
        deal.play(Action(1, ActionType.PASS))
        deal.play(Action(3, ActionType.KONTRA, value="kontra"))
        deal.play(Action(0, ActionType.KONTRA, value="rekontra"))
    else:
        deal.play(Action(1, ActionType.PASS))
        deal.play(Action(3, ActionType.PASS))


def play_out(deal: DvoglaviLavDeal) -> None:
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        deal.play(Action.play(seat, deal.legal_plays()[0]))


def test_full_deal_sweep_with_kontra_zone_and_neutral_field() -> None:
    """Side A takes all 100 after a kontra; a 7♥ among the table cards cannot be the key."""
    game = load_game("dvoglavi-lav")
    deal = game.new_deal(dealer=3, hands=SUITED, mode=Mode.STRICT)
    with pytest.raises(ActionError, match="hand of 6 cards"):
        start(deal, bid="95", key="7H")  # 7♥ is one of seat 0's two table cards
    deal = game.new_deal(dealer=3, hands=SUITED, mode=Mode.STRICT)
    start(deal, bid="95", key="TH", kontra="kontra")
    snap = deal.snapshot()
    assert snap["trump"] == "H" and snap["order"][0] == "A" and snap["multiplier"] == 2
    assert deal.to_act == 3  # the 8♣ holder leads
    with pytest.raises(ActionError, match="out of turn"):
        deal.check(Action.play(0, "AH"))
    play_out(deal)
    assert deal.result is not None
    # pass: 2·95 + N 50 + zone 10·(95 + 0 − 90) = 190 + 50 + 50; opponents 0
    assert deal.result.scores == {"A": 290, "B": 0}
    assert deal.result.extra["marks"] == {"A": 1}
    assert "štih-mač by side A" in deal.result.detail


def test_all_pass_twice_is_repom_and_the_8c_holder_leads() -> None:
    deal = load_game("dvoglavi-lav").new_deal(dealer=3, hands=SUITED, mode=Mode.STRICT)
    for _ in range(4):
        deal.play(Action(deal.to_act, ActionType.PASS))  # type: ignore[arg-type]
    assert deal.snapshot()["cards_in_hand"] == 8 and deal.to_act == 0
    for _ in range(4):
        deal.play(Action(deal.to_act, ActionType.PASS))  # type: ignore[arg-type]
    snap = deal.snapshot()
    assert snap["repom"] and snap["trump"] is None and deal.to_act == 3
    deal.play(Action(3, ActionType.SHOW, Card.parse("8C"), value="8C"))
    play_out(deal)
    assert deal.result is not None and deal.result.scores == {"A": 0, "B": 500}


def test_rekontra_triples_the_commitment() -> None:
    deal = load_game("dvoglavi-lav").new_deal(dealer=3, hands=SUITED, mode=Mode.STRICT)
    start(deal, bid="95", key="TH", kontra="rekontra")
    play_out(deal)
    assert deal.result is not None and deal.result.scores == {"A": 3 * 95 + 75 + 50, "B": 0}


def test_wrong_payment_refused_in_strict_mode_with_known_hands() -> None:
    deal = load_game("dvoglavi-lav").new_deal(dealer=3, hands=SUITED, mode=Mode.STRICT)
    start(deal, bid="60", key="TH")
    deal.play(Action.play(3, "AC"))
    deal.play(Action.play(0, "7H"))
    with pytest.raises(IllegalPlay, match="wrong-payment — seat 1 holds 7D"):
        deal.play(Action.play(1, "AD"))
    assert [str(c) for c in deal.legal_plays()] == ["TD"]


def hidden(bid: str = "60", key: str = "JS") -> DvoglaviLavDeal:
    deal = load_game("dvoglavi-lav").new_deal(dealer=3)
    start(deal, bid=bid, key=key)
    return deal  # type: ignore[return-value]


def plays(deal: DvoglaviLavDeal, *items: tuple[int, str]) -> None:
    for seat, code in items:
        deal.play(Action.play(seat, code))


def test_follow_suit_revoke_proven_later_with_evidence() -> None:
    deal = hidden()
    deal.play(Action(2, ActionType.SHOW, Card.parse("8C"), value="8C"))
    plays(deal, (2, "AH"), (3, "7H"), (0, "KD"), (1, "8H"))  # key J: 7♥ wins
    assert deal.tricks[0].winner == 3
    assert [e.rule for e in deal.events if e.kind == "violation_suspected"] == ["follow-suit"]
    plays(deal, (3, "9H"), (0, "QH"))
    (v,) = deal.violations
    assert (v.seat, v.rule, v.trick, v.proven_at_trick, v.card, v.witness) == (
        0, "follow-suit", 1, 2, Card.parse("KD"), Card.parse("QH"))  # fmt: skip
    assert "paid KD (says 3)" in v.evidence
    # AMBIGUITY 50: the declaring side offended: scored as a fall with D = 0
    assert deal.result is not None and deal.result.scores == {"A": -60, "B": 100 + 25 + 500}


def test_failure_to_trump_and_wrong_payment_proven_later() -> None:
    deal = hidden()
    deal.play(Action(2, ActionType.SHOW, Card.parse("8C"), value="8C"))
    plays(deal, (2, "AH"), (3, "7H"), (0, "KH"), (1, "KD"))
    plays(deal, (3, "9C"), (0, "TC"), (1, "8S"))  # seat 1 trumps now: it had a trump at 1
    (v,) = deal.violations
    assert (v.seat, v.rule, v.trick, v.proven_at_trick) == (1, "must-trump", 1, 2)
    # an opponent offended: scored as a pass with O = 0 (60 + neutral 25, no zone)
    assert deal.result is not None and deal.result.scores == {"A": 85, "B": 0}

    deal = hidden()
    deal.play(Action(2, ActionType.SHOW, Card.parse("8C"), value="8C"))
    plays(deal, (2, "AH"), (3, "7H"), (0, "KH"), (1, "KD"))
    plays(deal, (3, "9C"), (0, "JC"), (1, "TC"))  # 10♣ is worth 10 > 3
    (v,) = deal.violations
    assert (v.seat, v.rule, v.trick, v.proven_at_trick, v.witness) == (
        1, "wrong-payment", 1, 2, Card.parse("TC"))  # fmt: skip


def test_leader_without_the_8c_is_proven_when_the_8c_appears() -> None:
    deal = hidden()
    assert deal.to_act is None  # hidden hands: the table shows who holds the 8♣
    plays(deal, (1, "AH"), (2, "7H"), (3, "KH"), (0, "8H"))
    plays(deal, (2, "9D"), (3, "8C"))
    (v,) = deal.violations
    assert (v.seat, v.rule, v.trick, v.witness, v.proven_at_trick) == (
        1, "wrong-leader", 1, Card.parse("8C"), 2)  # fmt: skip
    assert deal.result is not None and deal.result.scores == {"A": 85, "B": 0}


def test_key_card_cannot_be_played_by_another_seat() -> None:
    deal = hidden(key="JS")
    deal.play(Action(2, ActionType.SHOW, Card.parse("8C"), value="8C"))
    with pytest.raises(ActionError, match="shown in front of seat 0"):
        deal.play(Action.play(2, "JS"))


def test_partija_to_1000_with_carry_over_and_ten_sweeps() -> None:
    game = load_game("dvoglavi-lav")
    match = Match(game)
    events = match.record(DealResult({"A": 1040, "B": 300}))
    assert events[0].winner == "A" and match.totals == {"A": 40, "B": 0}
    for i in range(10):
        events = match.record(DealResult({"A": 0, "B": 10}, extra={"marks": {"A": 1}}))
        assert bool(events) == (i == 9)
    assert events[0].winner == "A" and match.points == {"A": 2, "B": 0}
    assert match.marks == {}


def test_match_bonus() -> None:
    assert match_result([("A", {"A": 1020, "B": 400}), ("B", {"A": 300, "B": 1000})], "A") == {
        "A": 920, "B": -920}  # fmt: skip


def test_transcript_replays_with_calls_through_the_cli(capsys: pytest.CaptureFixture[str]) -> None:
    path = HERE / "dvoglavi_lav_kontra.json"
    assert main(["referee", "replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    first, second = data["deals"]
    assert first["state"]["calls"][:6] == ["0: 80", "1: Dalje", "2: Dalje", "3: Dalje",
                                           "0: commitment 95", "0: key TH"]  # fmt: skip
    assert first["score"] == {"A": "290", "B": "0"}
    (v,) = second["violations"]
    assert (v["seat"], v["rule"], v["trick"], v["proven_at_trick"]) == (0, "follow-suit", 1, 2)
    assert data["totals"] == {"A": "230", "B": "625"}
    assert main(["referee", "replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Calls: 0: 80, 1: Dalje" in out
    assert "Trick  1 (lead 3): 3:AC 0:7H 1:TD 2:TS -> seat 0" in out


def test_legal_actions_list_every_bid_amount_and_perft_one_per_class() -> None:
    deal = load_game("dvoglavi-lav").new_deal(dealer=0, hands=SUITED)
    bids = [int(a.value or 0) for a in deal.legal_actions() if a.type is ActionType.BID]
    assert bids == list(range(1, 101))
    deal.play(Action(1, ActionType.BID, value="37"))
    bids = [int(a.value or 0) for a in deal.legal_actions() if a.type is ActionType.BID]
    assert bids == list(range(38, 101))
    assert all(deal.can(a) for a in deal.legal_actions())
    assert [a.value for a in deal.perft_actions() if a.type is ActionType.BID] == [
        "38", "40", "50", "60", "70", "80", "90", "100"]  # fmt: skip
    for seat in (2, 3, 0):
        deal.play(Action(seat, ActionType.PASS))
    commitments = [int(a.value or 0) for a in deal.legal_actions()]
    assert commitments == list(range(37, 101))
