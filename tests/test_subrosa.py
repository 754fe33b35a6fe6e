"""SubRosa (RULES.md §10): declaration values SR1-SR15, play-changing declarations, Krnja,
confirmation, false declarations, 7 u boji, 8 u boji, partija and match, transcripts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.actions import Action, ActionType
from referee.cards import Card, Rank, Suit, parse_cards
from referee.deal import DealResult, Mode
from referee.errors import ActionError
from referee.games.ruzicka import play_script
from referee.games.ruzicka_rules import PlayRule, overtakes, rotated_order
from referee.games.subrosa import SubRosa, SubRosaDeal
from referee.games.subrosa_declarations import declare, inner_declarations, value_of
from referee.match import Match
from referee.transcript import replay, summary

TRANSCRIPTS = Path(__file__).parent / "transcripts"
c = Card.parse

# seat 0 holds the four aces, seat 1 the four sevens
PREVRAT = {
    0: "AS AH AD AC 8S 8H 8D 8C",
    1: "7S 7H 7D 7C 9S 9H 9D 9C",
    2: "KS KH KD KC TS TH TD TC",
    3: "QS QH QD QC JS JH JD JC",
}
FOUR = "AS 7S- KS- QS- / AH 7H- KH- QH- / AD 7D- KD- QD- / AC 7C- KC- QC-"
REST = " / 8S 9S TS- JS- | k / 9H TH- JH- 8H- / 9D TD- JD- 8D- / 9C TC- JC- 8C-"


def new(hands: dict[int, str] | None = PREVRAT, *, mode: Mode = Mode.TABLE) -> SubRosaDeal:
    known = {s: parse_cards(h) for s, h in hands.items()} if hands is not None else None
    return SubRosa().new_deal(dealer=3, hands=known, mode=mode)


# -- §10.3, §10.8: values ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "name,cards,value",
    [
        ("niz", "QH KH AH", 15), ("niz", "TS JS QS KS", 16), ("niz", "7D 8D 9D TD JD", 16),
        ("niz", "KC AC 7C", 13), ("6-u-boji", "7S 9S TS JS KS AS", 28), ("poker", "9S 9H 9D 9C", 20),
        ("poker", "QS QH QD QC", 30), ("4-sedmice", "7S 7H 7D 7C", 50), ("4-keca", "AS AH AD AC", 40),
        ("8-velikih", "AH KH QH JH AS KS QS QD", 60), ("8-malih", "7S 9S 7H 9H 8D TD 8C TC", 35),
        ("sareni-niz", "7S 8H 9D TC JS QH KD AC", 45), ("7-u-boji", "7S 8S 9S TS QS KS AS", 75),
        ("8-u-boji", "7S 8S 9S TS JS QS KS AS", 45),
    ],
)  # fmt: skip
def test_declaration_values_sr1_to_sr7(name: str, cards: str, value: int) -> None:
    assert value_of(name, parse_cards(cards)) == value


def test_egalite_adds_twenty_to_big_declarations_sr8() -> None:
    assert value_of("4-keca", parse_cards("AS AH AD AC"), egalite=True) == 60
    assert value_of("8-malih", parse_cards("7S 9S 7H 9H 8D TD 8C TC"), egalite=True) == 55


def test_malformed_declarations_are_refused() -> None:
    with pytest.raises(ActionError, match="is no niz"):
        declare("niz", parse_cards("QH KH 7H"))
    with pytest.raises(ActionError, match="poker"):
        declare("poker", parse_cards("7S 7H 7D 7C"))  # four sevens are the big 50
    with pytest.raises(ActionError, match="Krnja shows 1 to 3"):
        declare("krnja-4-keca", parse_cards("AS AH AD AC"))
    assert declare("krnja-4-keca", parse_cards("AS AH")).missing == 2


def test_inner_declarations_use_each_card_once() -> None:
    assert inner_declarations(parse_cards("AH KH QH JH AS KS QS QD")) == (
        ("niz 4", 20),
        ("niz 3", 15),
    )


# -- §10.4: the play under big declarations (SR10-SR14) ----------------------------------------
def test_prevrat_orders_sr10_sr11() -> None:
    deal = new()
    play_script(deal, "decl:4-keca:AS,AH,AD,AC AS")
    assert deal.snapshot()["in_force"] == "4-keca"
    assert deal.can_overtake(1, c("7S"))  # SR10: 7 above the ace
    assert not deal.can_overtake(1, c("9S"))
    assert overtakes(c("8S"), c("AS"), Suit.SPADES, Suit.HEARTS, rule=PlayRule.VELIKI_PREVRAT)


def test_eight_small_and_rainbow_rules_sr12_sr13() -> None:
    h, s, d = Suit.HEARTS, Suit.SPADES, Suit.DIAMONDS
    rule = PlayRule.EIGHT_SMALL
    assert overtakes(c("7S"), c("9S"), s, h, rule=rule)
    assert overtakes(c("8H"), c("7S"), s, h, rule=rule)
    assert not overtakes(c("TD"), c("8H"), s, h, rule=rule)
    rule = PlayRule.SARENI_NIZ
    assert overtakes(c("9D"), c("9S"), s, h, rule=rule)
    assert overtakes(c("KH"), c("9D"), s, h, rule=rule)
    assert overtakes(c("KC"), c("KH"), s, h, rule=rule)
    assert not overtakes(c("QD"), c("KC"), s, h, rule=rule) and d is Suit.DIAMONDS


def test_stronger_declaration_changes_the_play_from_then_on() -> None:
    deal = new()
    play_script(deal, "decl:4-keca:AS,AH,AD,AC AS decl:4-sedmice:7S,7H,7D,7C")
    assert deal.snapshot()["in_force"] == "4-sedmice"
    assert deal.can_overtake(1, c("9S"))  # Veliki Prevrat: 9 > 7 > A


def test_seven_in_a_suit_redeals_with_a_special_suit_sr14() -> None:
    assert rotated_order(Rank.JACK) == ["J", "T", "9", "8", "7", "A", "K", "Q"]
    deal = new(None)
    play_script(deal, "decl:7-u-boji:7S,8S,9S,TS,QS,KS,AS")
    assert deal.snapshot()["showing"] == [1, 2, 3]  # "Svako pokazuje svoja Zvanja"
    for seat in (1, 2, 3):
        deal.play(Action(seat, ActionType.PASS))
    snap = deal.snapshot()
    assert (snap["special_suit"], snap["top_rank"], snap["joker_suit"]) == ("S", "J", "H")
    assert snap["cards_in_hand"] == {"0": 8, "1": 8, "2": 8, "3": 8} and deal.to_act == 0
    with pytest.raises(ActionError, match="redeal"):
        deal.check(Action(0, ActionType.DECLARE, cards=parse_cards("QS QH QD QC"), value="poker"))
    with pytest.raises(ActionError, match="not in this deal"):
        deal.check(Action(0, ActionType.SHOW, c("JD"), value="joker-jack"))
    play_script(deal, "AH")
    assert deal.can_overtake(1, c("7S"))  # the Special Suit over any other card
    play_script(deal, "7S")
    assert deal.can_overtake(2, c("TS")) and not deal.can_overtake(2, c("AS"))
    assert not deal.can_overtake(2, c("AH"))  # no joker suit once the Special Suit is on top


def test_seven_in_a_suit_redeal_with_known_hands_uses_the_setup() -> None:
    game = SubRosa()
    hands = {0: parse_cards("7S 8S 9S TS QS KS AS 7H"), 1: parse_cards("JS 8H 9H TH JH QH KH AH"),
             2: parse_cards("7D 8D 9D TD JD QD KD AD"), 3: parse_cards("7C 8C 9C TC JC QC KC AC")}  # fmt: skip
    redeal = {str(s): h.split() for s, h in PREVRAT.items()}
    deal = game.new_deal(dealer=3, hands=hands, setup={"redeal": redeal})
    names = [a.value for a in deal.legal_actions() if a.type is ActionType.DECLARE]
    assert "7-u-boji" in names
    play_script(deal, "decl:7-u-boji:7S,8S,9S,TS,QS,KS,AS")
    window = deal.legal_actions()
    assert Action(1, ActionType.PASS) in window and {a.seat for a in window} == {1}
    with pytest.raises(ActionError, match="seat 1 shows a declaration or passes"):
        deal.check(Action.play(1, "JS"))
    deal.play(Action(1, ActionType.PASS))
    with pytest.raises(ActionError, match="not in seat 2's hand"):
        deal.check(Action(2, ActionType.DECLARE, cards=parse_cards("7C 8C 9C"), value="niz"))
    deal.play(Action(2, ActionType.DECLARE, cards=parse_cards("7D 8D 9D"), value="niz"))
    assert deal.hands[0] == set(hands[0])  # nothing is redealt before everyone has shown
    deal.play(Action(3, ActionType.PASS))
    assert deal.hands == {s: set(parse_cards(h)) for s, h in PREVRAT.items()}
    shown = [(m.seat, m.declaration.kind.value, m.before_redeal) for m in deal.made]
    assert shown == [(0, "7-u-boji", True), (2, "niz", True)]


# -- whole deals: totals 53 / 73 / 93 (SR9), confirmation, sweep (SR15), Krnja -----------------
def whole(script: str, hands: dict[int, str] = PREVRAT) -> SubRosaDeal:
    deal = new(hands)
    play_script(deal, script)
    assert deal.is_over
    return deal


def test_mali_prevrat_deal_is_worth_73_sr9() -> None:
    deal = whole("decl:4-keca:AS,AH,AD,AC " + FOUR + REST)
    assert deal.result.extra["play_points"] == {"A": 60, "B": 13}  # type: ignore[union-attr]
    assert deal.result.scores == {"A": 100, "B": 13}  # type: ignore[union-attr]


def test_veliki_prevrat_deal_is_worth_93_sr9() -> None:
    deal = whole(FOUR.replace("AS ", "AS decl:4-sedmice:7S,7H,7D,7C ", 1) + REST)
    assert deal.result.extra["play_points"] == {"A": 40, "B": 53}  # type: ignore[union-attr]
    assert deal.result.scores == {"A": 40, "B": 103}  # type: ignore[union-attr]


def test_both_prevrats_count_cumulatively() -> None:
    script = "decl:4-keca:AS,AH,AD,AC " + FOUR.replace("AS ", "AS decl:4-sedmice:7S,7H,7D,7C ", 1)
    deal = whole(script + REST)
    play = deal.result.extra["play_points"]  # type: ignore[union-attr]
    assert play["A"] + play["B"] == 113


def test_big_declaration_swept_sr15() -> None:
    hands = {0: "AS AH AD KS KH KC QS QD", 1: "7S 8H 9D TC JS QH KD AC",
             2: "7H 7D 7C 8S 8D 8C 9S 9H", 3: "9C TS TH TD JH JD JC QC"}  # fmt: skip
    deal = new(hands)
    play_script(deal, "AS decl:sareni-niz:7S,8H,9D,TC,JS,QH,KD,AC")
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None and deal.hands is not None
        card = sorted(deal.hands[seat])[0]
        deal.play(Action.play(seat, card, None if seat == 0 else "discard"))
    assert deal.result.scores == {"A": 40, "B": -45}  # type: ignore[union-attr]


def test_small_declaration_of_a_swept_side_is_void() -> None:
    deal = new(PREVRAT)
    play_script(deal, "AS decl:poker:9S,9H,9D,9C 7S- KS- QS-")  # a small declaration of B
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None and deal.hands is not None
        deal.play(Action.play(seat, sorted(deal.hands[seat])[0], None if seat == 0 else "discard"))
    assert deal.result.scores == {"A": 40, "B": -30}  # type: ignore[union-attr]


def test_small_declaration_confirmed_by_a_trick() -> None:
    suited = {0: "AS KS QS JS 7C 8C 9C TC", 1: "AH KH QH JH 7D 8D 9D TD",
              2: "AD KD QD JD 7H 8H 9H TH", 3: "AC KC QC JC 7S 8S 9S TS"}  # fmt: skip
    script = (
        "decl:niz:JS,QS,KS,AS AS 7D- 7H- 7S- / KS 8D- 8H- 8S- / QS 9D- 9H- 9S- / JS TD- TH- TS-"
        " / 7C AH JD- JC | k / KH AD- AC- 8C- / QH KD- KC- 9C- / JH QD- QC- TC-"
    )
    assert whole(script, suited).result.scores == {"A": 34, "B": 39}  # type: ignore[union-attr]


def test_krnja_kept_and_failed() -> None:
    kept = whole("decl:krnja-4-keca:AS,AH,AD " + FOUR + REST)  # 1 missing: 60 > 13
    assert kept.result.scores == {"A": 100, "B": 13}  # type: ignore[union-attr]
    double = whole("decl:krnja-4-keca:AS,AH " + FOUR + REST)  # 2 missing: 60 >= 2 * 13
    assert double.result.scores == {"A": 100, "B": 13}  # type: ignore[union-attr]
    failed = whole("decl:krnja-4-keca:AS " + FOUR + REST)  # 3 missing: a sweep was needed
    assert failed.result.scores == {"A": -40, "B": 13}  # type: ignore[union-attr]


def test_no_joker_change_after_krnja() -> None:
    deal = new(None)
    play_script(deal, "decl:krnja-4-keca:AS,AH,AD 8S")
    with pytest.raises(ActionError, match="not in this deal"):
        deal.check(Action(1, ActionType.SHOW, c("JD"), value="joker-jack"))


def test_declaration_rules_of_time_and_number() -> None:
    deal = new(None)
    play_script(deal, "decl:niz:7C,8C,9C 7S 8S- 9S- TS-")
    with pytest.raises(ActionError, match="one declaration per player"):
        deal.check(Action(0, ActionType.DECLARE, cards=parse_cards("QH KH AH"), value="niz"))
    play_script(deal, "8D")  # trick 2
    with pytest.raises(ActionError, match="first card"):
        deal.check(
            Action(1, ActionType.DECLARE, cards=parse_cards("JH QH KH AH JD QD KS AS"),
                   value="8-velikih")
        )  # fmt: skip
    play_script(deal, "9D TD JD ?")  # round II of trick 2
    with pytest.raises(ActionError, match="first round of a trick"):
        deal.check(Action(1, ActionType.DECLARE, cards=parse_cards("QH KH AH"), value="niz"))


def test_egalite_declaration_value_in_the_deal() -> None:
    deal = new(None)
    play_script(deal, "7S !JH 8S decl:4-keca:AS,AH,AD,AC")
    assert deal.snapshot()["declarations"][0]["value"] == 60


def test_false_declaration_is_proven_when_another_seat_plays_a_card() -> None:
    deal = new(None)
    play_script(deal, "decl:niz:9S,TS,JS 7C 8C- 9C- TC-")
    events = play_script(deal, "7D JS")
    proven = [e.violation for e in events if e.kind == "violation_proven"]  # type: ignore[attr-defined]
    assert [(v.seat, v.rule, v.trick, v.proven_at_trick) for v in proven] == [
        (0, "false-declaration", 1, 2)
    ]
    assert "seat 1 played JS" in proven[0].evidence


def test_false_declaration_costs_the_declared_value() -> None:
    deal = new(PREVRAT)
    play_script(deal, "decl:4-sedmice:7S,7H,7D,7C")  # seat 0 does not hold them
    assert [v.rule for v in deal.violations] == ["false-declaration"]
    play_script(deal, "AS 7S- KS- QS- / AH 7H- KH- QH- / AD 7D- KD- QD- / AC 7C- KC- QC-" + REST)
    assert deal.result.scores == {"A": -50, "B": 13}  # type: ignore[union-attr]


def test_eight_in_a_suit_wins_the_partija() -> None:
    deal = new(None)
    play_script(deal, "decl:8-u-boji:partija:7S,8S,9S,TS,JS,QS,KS,AS")
    assert deal.is_over and deal.result is not None
    match = Match(SubRosa())
    events = match.record(deal.result)
    assert [e.kind for e in events] == ["partija_over"] and match.partija_winners == ["A"]


def test_partija_to_501_and_match_of_five() -> None:
    match = Match(SubRosa())
    match.record(DealResult({"A": 500, "B": 0}))
    assert match.partija_winners == []
    for _ in range(5):
        match.record(DealResult({"A": 0, "B": 501}))
    assert match.winner == "B"


def test_transcript_replay_with_declarations() -> None:
    data = json.loads((TRANSCRIPTS / "subrosa_prevrat.json").read_text(encoding="utf-8"))
    out = summary(replay(data))
    deal = out["deals"][0]
    assert deal["score_units"] == {"A": 100, "B": 13}
    assert deal["state"]["declarations"][0]["name"] == "4-keca AS AH AD AC = 40"
    assert len(deal["tricks"][4]["rounds"]) == 2
