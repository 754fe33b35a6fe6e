"""Fortuna (RULES.md §12): jokers, legal play, two-round tricks, scores, decades, the exit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import cast

import pytest

from kibic.cli import main
from referee.actions import Action, ActionType
from referee.cards import Card, Deck, parse_cards
from referee.deal import DealResult, Mode
from referee.errors import ActionError
from referee.games.fortuna_deal import FortunaDeal
from referee.games.fortuna_rules import Jokers, deal_points, duty, winner_index
from referee.match import Match
from referee.registry import load_game

HERE = Path(__file__).parent / "transcripts"


def test_shown_card_makes_jokers_and_trump() -> None:
    """FO1: Q♠ shown: jokers Q♣ Q♦ Q♥ Q♠; trumps A K J 10 9 8 7 of spades."""
    jokers = Jokers(Card.parse("QS"))
    deck = Deck.PIQUET_32.cards
    assert sorted(c.code for c in deck if jokers.role(c) == "J") == ["QC", "QD", "QH", "QS"]
    assert sorted(c.code for c in deck if jokers.role(c) == "T") == [
        "7S", "8S", "9S", "AS", "JS", "KS", "TS"]  # fmt: skip


def legal(lead: str, hand: str, shown: str = "QS") -> list[str]:
    jokers, cards = Jokers(Card.parse(shown)), parse_cards(hand)
    led = Card.parse(lead)
    return [c.code for c in cards if all(o == c or duty(led, c, o, jokers) is None for o in cards)]


def test_legal_play() -> None:
    assert legal("9H", "QH 7S 8C") == ["QH", "7S"]  # FO2
    assert legal("AS", "QS 9D") == ["QS", "9D"]  # FO3: the joker-trump need not follow
    assert legal("AS", "QS 9D 7S") == ["QS", "7S"]
    assert legal("QD", "QH 7S 8C") == ["QH"]  # a joker lead: jokers must follow
    assert legal("QD", "7S 8C") == ["7S"]  # AMBIGUITY 54 (b): no joker, then trump
    assert legal("9H", "8H QC 8C") == ["8H", "QC"]  # a joker at any time


def test_first_joker_wins() -> None:
    """FO4: Q♦ (joker), Q♣ (joker), A♠ (trump) -> Q♦."""
    jokers = Jokers(Card.parse("QS"))
    assert winner_index(parse_cards("QD QC AS"), jokers) == 0
    assert winner_index(parse_cards("9H AS QC"), jokers) == 2
    assert winner_index(parse_cards("9H KH 7S 8S"), jokers) == 3


@pytest.mark.parametrize(
    "hand,exchanged,fortuna,na_znanje,points,fall",
    [(6, False, False, False, 1, -3), (8, False, False, False, 2, -3),
     (10, True, False, False, 4, -3), (10, False, False, False, 5, -3),
     (6, False, True, False, 2, -6), (10, True, True, False, 8, -6),
     (10, False, True, False, 10, -6), (10, True, True, True, 7, -6),
     (10, False, True, True, 9, -6)],
)  # fmt: skip
def test_score_table(
    hand: int, exchanged: bool, fortuna: bool, na_znanje: bool, points: int, fall: int
) -> None:
    """§12.7 and FO5 (Fortuna, 10 cards, no exchange: +10, fall −6)."""
    kw = {"hand": hand, "exchanged": exchanged, "fortuna": fortuna, "na_znanje": na_znanje}
    assert deal_points(passed=True, **kw) == points  # type: ignore[arg-type]
    assert deal_points(passed=False, **kw) == fall  # type: ignore[arg-type]


def test_decades_and_falls_on_the_sheet() -> None:
    """FO6: 8 + 4 is written 10+2; FO7: 37 falls −3 / −6 -> 30+4 / 30+1."""
    game = load_game("fortuna")
    match = Match(game, totals={"0": 8, "1": 0, "2": 0})
    match.record(DealResult({"0": 4, "1": 0, "2": 0}))
    assert match.sheet_line() == "10+2 : 0 : 0"
    for loss, text in ((-3, "30+4"), (-6, "30+1")):
        match = Match(game, totals={"0": 37, "1": 0, "2": 0})
        match.record(DealResult({"0": loss, "1": 0, "2": 0}))
        assert game.format_score(match.totals["0"]) == text
    assert game.format_score(-5) == "-5"  # AMBIGUITY 58: no correction


def all_hands() -> dict[int, list[Card]]:
    """Seat 1 holds the four 7s and the six best spades; seat 0 deals."""
    solo = parse_cards("7C 7D 7H 7S AS KS QS JS TS 9S")
    rest = [c for c in Deck.PIQUET_32.cards if c not in solo]
    return {1: list(solo), 2: rest[:10], 0: rest[10:20]}


def talon_of(hands: dict[int, list[Card]]) -> list[str]:
    dealt = {c for h in hands.values() for c in h}
    return [c.code for c in Deck.PIQUET_32.cards if c not in dealt]


def play_out(deal: FortunaDeal) -> None:
    while not deal.is_over:
        actions = deal.legal_actions()
        plays = [a for a in actions if a.type is ActionType.PLAY]
        deal.play(plays[0] if plays else next(a for a in actions if a.type is ActionType.PASS))


def new(hands: dict[int, list[Card]], **setup: object) -> FortunaDeal:
    setup.setdefault("talon", talon_of(hands))
    deal = load_game("fortuna").new_deal(dealer=0, hands=hands, setup=setup, mode=Mode.STRICT)
    return deal  # type: ignore[return-value]


def test_going_for_all_with_ten_cards_and_the_exit_from_thirty() -> None:
    deal = new(all_hands(), scores={"1": 31})
    deal.play(Action(1, ActionType.ANNOUNCE, value="take"))
    with pytest.raises(ActionError, match="joker-trump must be in the soloist's hand"):
        deal.check(Action(1, ActionType.SHOW, Card.parse("AH")))
    deal.play(Action(1, ActionType.SHOW, Card.parse("7S")))
    assert deal.to_act == 1  # the soloist leads
    play_out(deal)
    assert deal.goal == "all" and deal.result is not None
    assert deal.result.scores == {"0": 0, "1": 5, "2": 0}  # 10 cards, no exchange
    assert deal.result.extra["marks"] == {"exit:1": 1}
    match = Match(load_game("fortuna"), totals={"0": 0, "1": 31, "2": 12})
    assert match.record(deal.result)[0].winner == "1"
    assert match.dealer == 1  # the soloist deals next


def test_talon_exchange_scores_four() -> None:
    hands = all_hands()
    deal = new(hands)
    deal.play(Action(1, ActionType.ANNOUNCE, value="take"))
    deal.play(Action(1, ActionType.SHOW, Card.parse("7S")))
    with pytest.raises(ActionError, match="not the joker-trump"):
        deal.check(Action(1, ActionType.EXCHANGE, cards=parse_cards("7S 9S"), value="talon"))
    talon = parse_cards(deal.setup["talon"])
    deal.play(Action(1, ActionType.EXCHANGE, cards=talon, value="talon"))
    play_out(deal)
    assert deal.result is not None and deal.result.scores["1"] == 4


def test_fortuna_na_znanje() -> None:
    solo = parse_cards("KS KD KH AC QC JC TC 9C 8C 7H")
    rest = [c for c in Deck.PIQUET_32.cards if c not in solo and c.code != "KC"]
    hands = {1: list(solo), 2: [Card.parse("KC"), *rest[:9]], 0: rest[9:19]}
    deal = new(hands)
    deal.play(Action(1, ActionType.ANNOUNCE, value="fortuna-na-znanje"))
    assert deal.to_act == 2  # the holder of K♣ hands it over
    deal.play(Action(2, ActionType.EXCHANGE, Card.parse("KC"), (Card.parse("7H"),),
                     value="fortuna"))  # fmt: skip
    with pytest.raises(ActionError, match="K♣ must be shown"):
        deal.check(Action(1, ActionType.SHOW, Card.parse("KS")))
    deal.play(Action(1, ActionType.SHOW, Card.parse("KC")))
    assert deal.snapshot()["fortuna"] is True
    play_out(deal)
    assert deal.result is not None and deal.result.scores == {"0": 0, "1": 9, "2": 0}


def hidden(**setup: object) -> FortunaDeal:
    return cast(FortunaDeal, load_game("fortuna").new_deal(dealer=0, setup=setup))


def script(deal: FortunaDeal, text: str) -> None:
    for item in text.split():
        seat_text, _, what = item.partition(":")
        seat = int(seat_text)
        if what == "pass":
            deal.play(Action(seat, ActionType.PASS))
        elif what == "discard":
            deal.play(Action(seat, ActionType.DISCARD))
        elif what == "take":
            deal.play(Action(seat, ActionType.ANNOUNCE, value="take"))
        elif what.startswith("show="):
            deal.play(Action(seat, ActionType.SHOW, Card.parse(what[5:])))
        else:
            deal.play(Action.play(seat, what))


def test_six_cards_for_nothing_after_two_rounds_of_dalje() -> None:
    deal = hidden()
    script(deal, "1:pass 2:pass 0:pass " + "1:discard " * 2 + "2:discard " * 2 + "0:discard " * 2)
    assert deal.hand_size == 8
    script(deal, "1:pass 2:pass 0:pass " + "1:discard " * 2 + "2:discard " * 2 + "0:discard " * 2)
    script(deal, "1:take 1:show=9S 1:8H 2:AH 0:7H")
    assert deal.to_act == 1  # beaten by an opponent: seat 1 may open a second round
    script(deal, "1:pass")
    assert deal.goal == "nothing" and deal.tricks[0].winner == 2
    script(deal, "2:8C 0:TC 1:7C")  # beaten by the partner: no second round
    assert len(deal.tricks) == 2 and deal.tricks[1].winner == 0
    script(deal, "0:9D 1:9S 2:9H 0:AD 1:8D 2:JD 0:KH 1:QH 2:JH 0:AC 1:JC 2:QC")
    assert deal.result is not None and deal.result.scores == {"0": 0, "1": 1, "2": 0}
    assert deal.snapshot()["calls"][-1] == "1: no second round"


def test_second_round_brackets_and_a_revoke_in_round_two() -> None:
    """FO8: with 15 points a second round opens only with a trump or joker that beats."""
    deal = hidden(scores={"1": 15})
    script(deal, "1:take 1:show=QS 1:8H 2:KH 0:7H")
    with pytest.raises(ActionError, match="with 15 points a second round opens only with a trump"):
        deal.check(Action.play(1, "AH"))
    script(deal, "1:7S 2:8C 0:8S")
    trick = deal.snapshot()["tricks"][0]
    assert trick["winner"] == 0 and [len(r["plays"]) for r in trick["rounds"]] == [3, 3]
    script(deal, "0:AD 1:9D 2:9S")
    (v,) = deal.violations
    assert (v.seat, v.rule, v.trick, v.proven_at_trick) == (2, "follow-suit", 1, 2)
    # a defender offended: scored as the soloist's pass (source silent), 10 cards, no exchange
    assert deal.result is not None and deal.result.scores == {"0": 0, "1": 5, "2": 0}


def test_thirty_points_play_no_second_round() -> None:
    deal = hidden(scores={"1": 30})
    script(deal, "1:take 1:show=QS 1:8H 2:KH 0:7H")
    assert len(deal.tricks) == 1 and deal.to_act == 2


def test_three_rounds_of_dalje_redeal() -> None:
    deal = hidden()
    for _ in range(2):
        script(deal, "1:pass 2:pass 0:pass " + "1:discard 1:discard 2:discard 2:discard "
               "0:discard 0:discard")  # fmt: skip
    script(deal, "1:pass 2:pass 0:pass")
    assert deal.result is not None and deal.result.extra == {"redeal": True}
    assert load_game("fortuna").next_dealer_after(0, deal.result, partija_over=False) == 0


def test_transcript_replay_prints_both_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    path = HERE / "fortuna_second_round.json"
    assert main(["referee", "replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (deal,) = data["deals"]
    assert deal["tricks"][0]["rounds"][1]["plays"] == [[1, "7S", "II"], [2, "8C", "II"],
                                                       [0, "8S", "II"]]  # fmt: skip
    assert deal["score"] == {"0": "0", "1": "5", "2": "0"}
    assert main(["referee", "replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Trick  1 (lead 1): [I] 1:8H 2:KH 0:7H [II] 1:7S 2:8C 0:8S -> seat 0" in out
    assert "Calls: 1: take (10 cards), 1: shows QS" in out
