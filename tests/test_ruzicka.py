"""Ružička (RULES.md §9): the worked examples RZ1-RZ8, offers, knocks, Brejk, the joker change,
Egalite, Otvoreno, the sweep, scoring RS1-RS7, partija and match, transcripts and the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.actions import Action, ActionType
from referee.cards import Card, parse_cards
from referee.deal import DealResult, Mode
from referee.errors import ActionError, IllegalPlay
from referee.games.ruzicka import Ruzicka, play_script
from referee.games.ruzicka_deal import RuzickaDeal
from referee.match import Match
from referee.transcript import replay, summary

TRANSCRIPTS = Path(__file__).parent / "transcripts"

# RZ1's trick with the rest of the deck spread so that each seat holds 8 cards
RZ1_HANDS = {
    0: "7S TS KS AH 9S QS 7H TH",
    1: "8S 9D 8C TC JH QH KH 8D",
    2: "8H AD QC KD TD JD QD 7C",
    3: "9H JS AS 7D 9C JC KC AC",
}
# four hands of ten card points each, for whole deals
SUITED = {
    0: "AS KS QS JS 7C 8C 9C TC",
    1: "AH KH QH JH 7D 8D 9D TD",
    2: "AD KD QD JD 7H 8H 9H TH",
    3: "AC KC QC JC 7S 8S 9S TS",
}
FIRST_FOUR = "AS 7D- 7H- 7S- / KS 8D- 8H- 8S- / QS 9D- 9H- 9S- / JS TD- TH- TS-"


def new(hands: dict[int, str] | None = RZ1_HANDS, *, mode: Mode = Mode.TABLE) -> RuzickaDeal:
    known = {s: parse_cards(h) for s, h in hands.items()} if hands is not None else None
    return Ruzicka().new_deal(dealer=3, hands=known, mode=mode)


def kinds(trick: dict) -> list[list[str]]:  # type: ignore[type-arg]
    return [[f"{c}{'' if m in ('lead', 'overtake') else ':' + m}" for _, c, m in r["plays"]]
            for r in trick["rounds"]]  # fmt: skip


# -- §9.8 worked examples ----------------------------------------------------------------------
def test_rz1_four_round_trick_won_by_the_first_seat() -> None:
    deal = new()
    play_script(deal, "7S 8S 8H 9H | TS 9D- AD- JS | KS 8C QC AS | AH TC KD 7D")
    trick = deal.snapshot()["tricks"][0]
    assert trick["winner"] == 0 and trick["brejk"] is None
    assert kinds(trick) == [
        ["7S", "8S", "8H", "9H"],
        ["TS", "9D:discard", "AD:discard", "JS"],
        ["KS", "8C:discard", "QC:discard", "AS"],
        ["AH", "TC:discard", "KD:discard", "7D:discard"],
    ]
    assert len(deal.taken[0]) == 16
    assert sum(Ruzicka().card_points(c) for c in deal.taken[0]) == 21
    assert deal.to_act == 0  # the winner leads the next trick


def test_rz1_hidden_hands_camera_input_infers_pile_or_beside() -> None:
    deal = new(None)
    for seat, code in [(0, "7S"), (1, "8S"), (2, "8H"), (3, "9H"), (0, "TS"), (1, "9D"),
                       (2, "AD"), (3, "JS"), (0, "KS"), (1, "8C"), (2, "QC"), (3, "AS"),
                       (0, "AH"), (1, "TC"), (2, "KD"), (3, "7D")]:  # fmt: skip
        deal.play(Action.play(seat, code))
    trick = deal.snapshot()["tricks"][0]
    assert trick["winner"] == 0 and len(trick["rounds"]) == 4
    assert deal.counts == {0: 4, 1: 4, 2: 4, 3: 4}


def test_rz2_offer_returns_when_the_opponent_knocks() -> None:
    deal = new({0: "9S 7C 8C 9C TC JC QC KC", 1: "TS 7D 8D JD QD KD AD AC",
                2: "TH 7S 8S JS QS KS AS 7H", 3: "9D TD 8H 9H JH QH KH AH"})  # fmt: skip
    play_script(deal, "9S TS TH 9D")  # IV's 9D cannot overtake TH: a discard
    assert deal.snapshot()["trick"]["out"] == [3]
    play_script(deal, "?7C k")
    trick = deal.snapshot()["tricks"][0]
    assert trick["winner"] == 2 and len(trick["plays"]) == 4
    assert kinds(trick)[1] == ["??:returned", "--:knock"]
    assert Card.parse("7C") in deal.hands[0] and deal.counts[0] == 7  # type: ignore[index]
    assert deal.to_act == 2


def test_rz2_offer_turned_up_when_the_opponent_overtakes() -> None:
    deal = new(None)
    play_script(deal, "9S TS TH 9D ?")
    deal.play(Action.play(1, "JS"))  # II overtakes: I's face-down card is turned up
    assert deal.pending == [0] and deal.to_act == 0
    with pytest.raises(ActionError, match="turned up"):
        deal.check(Action.play(2, "QS"))
    deal.play(Action.play(0, "8C"))  # the camera sees the turned-up card beside the pile
    assert deal.to_act == 2 and 0 in deal.rtrick.out
    play_script(deal, "QH 7D")  # III overtakes again (joker Q >= J), IV discards
    assert kinds(deal.snapshot()["trick"])[1] == ["8C:discard", "JS", "QH", "7D:discard"]
    play_script(deal, "? k")  # round III: I (out) can only offer; II knocks, III wins
    trick = deal.snapshot()["tricks"][0]
    assert trick["winner"] == 2 and len(trick["plays"]) == 8


def test_rz3_only_the_partner_overtook_and_rz4_nobody_did() -> None:
    deal = new(None)
    play_script(deal, "9S 8S TS 7D")
    assert deal.snapshot()["tricks"][0]["winner"] == 2
    assert [r["plays"][1][2] for r in deal.snapshot()["tricks"][0]["rounds"]] == ["discard"]
    play_script(deal, "KS 7C 8D 7H")  # III leads; a low heart cannot overtake
    second = deal.snapshot()["tricks"][1]
    assert second["leader"] == 2 and second["winner"] == 2 and len(second["rounds"]) == 1


def test_rz5_brejk_over_the_third_seat() -> None:
    deal = new(None)
    events = play_script(deal, "8C 9C 7S TC")
    trick = deal.snapshot()["tricks"][0]
    assert trick["winner"] == 3 and trick["brejk"] == 3 and len(trick["rounds"]) == 1
    assert any(e.kind == "notice" and "Brejk" in e.text for e in events)  # type: ignore[attr-defined]


def test_rz5_break_announced_is_checked() -> None:
    deal = new(None)
    play_script(deal, "8C 9C TC")
    with pytest.raises(ActionError, match="not a Brejk"):
        deal.check(Action(3, ActionType.BREAK, Card.parse("JC")))
    deal = new(None)
    play_script(deal, "8C 9C 7S brejk:TC")
    assert deal.snapshot()["tricks"][0]["brejk"] == 3


def test_rz6_brejk_over_the_first_seat_completes_the_round() -> None:
    deal = new(None)
    play_script(deal, "7S 8S 9S TS | ?")  # IV owns the pile; I offers face down
    play_script(deal, "JS =7C")  # II overtakes his partner IV: Brejk; I's card is turned up
    assert deal.rtrick.brejk == 1
    play_script(deal, "AS+ 7D")  # III may not overtake any more: his ace is a discard
    trick = deal.snapshot()["tricks"][0]
    assert trick["winner"] == 1 and len(trick["plays"]) == 8
    assert kinds(trick)[1] == ["7C:discard", "JS", "AS:discard", "7D:discard"]


def test_rz7_first_seat_knocks() -> None:
    deal = new(None)
    play_script(deal, "9D TD 7C 8C | k")
    trick = deal.snapshot()["tricks"][0]
    assert trick["winner"] == 1 and len(trick["plays"]) == 4 and deal.to_act == 1


def test_knock_only_when_it_ends_the_trick() -> None:
    deal = new(None)
    play_script(deal, "7S 8S 9S TS")  # every seat still fights
    with pytest.raises(ActionError, match="knock is allowed only"):
        deal.check(Action(0, ActionType.KNOCK))
    play_script(deal, "? ?")
    deal.check(Action(2, ActionType.KNOCK))
    play_script(deal, "k")
    assert deal.snapshot()["tricks"][0]["winner"] == 3 and deal.counts == dict.fromkeys(range(4), 7)


def test_rz8_joker_change_mid_round_voids_played_hearts() -> None:
    deal = new(None)
    play_script(deal, "9S TH !JD QD 7C")
    snap = deal.snapshot()
    assert snap["joker_suit"] == "D" and snap["changer"] == 2
    assert kinds(snap["trick"])[0][1] == "TH:overtake-void"
    assert deal.to_act == 0  # II counts as having overtaken: a second round
    assert deal.rtrick.top == Card.parse("QD") and 1 not in deal.rtrick.out
    deal.play(Action(0, ActionType.OFFER))
    assert deal.can_overtake(1, Card.parse("KS")) and deal.can_overtake(1, Card.parse("KD"))
    assert not deal.can_overtake(1, Card.parse("JS"))
    assert not deal.can_overtake(1, Card.parse("AH"))  # hearts are no joker suit any more


def test_joker_change_only_once_and_only_in_the_first_round() -> None:
    deal = new(None)
    play_script(deal, "!JS 7S")
    with pytest.raises(ActionError, match="only once"):
        deal.check(Action(1, ActionType.SHOW, Card.parse("JD"), value="joker-jack"))
    play_script(deal, "8D 9D TD")
    with pytest.raises(ActionError, match="only once"):
        deal.check(Action(0, ActionType.SHOW, Card.parse("JC"), value="joker-jack"))


def test_jack_shown_but_not_held_is_proven_by_another_seat() -> None:
    deal = new(None)
    play_script(deal, "!JD 7S 8S 9S TS")
    events = play_script(deal, "? JD")  # II plays the Jack seat 0 showed
    proven = [e.violation for e in events if e.kind == "violation_proven"]  # type: ignore[attr-defined]
    assert len(proven) == 1
    v = proven[0]
    assert (v.seat, v.rule, v.trick, v.card, v.proven_at_trick) == (
        0,
        "false-show",
        1,
        Card.parse("JD"),
        1,
    )
    assert "seat 1 played JD" in v.evidence


def test_jack_shown_from_a_known_hand_that_lacks_it() -> None:
    with pytest.raises(IllegalPlay, match="does not hold"):
        new(mode=Mode.STRICT).play(Action(0, ActionType.SHOW, Card.parse("JD"), value="joker-jack"))
    deal = new()
    deal.play(Action(0, ActionType.SHOW, Card.parse("JD"), value="joker-jack"))
    assert [v.rule for v in deal.violations] == ["false-show"]


# -- whole deals and scores (§9.11, §9.12, §9.14) ----------------------------------------------
def whole(script: str) -> RuzickaDeal:
    deal = new(SUITED)
    play_script(deal, script)
    assert deal.is_over
    return deal


SPLIT = FIRST_FOUR + " / 7C AH JD- JC | k / KH AD- AC- 8C- / QH KD- KC- 9C- / JH QD- QC- TC-"
CHANGED = FIRST_FOUR + " / 7C AH- JD- JC | k / AC 8C- KH- AD- / KC 9C- QH- KD- / QC TC- JH- QD-"


def test_53_points_a_deal() -> None:
    deal = whole(SPLIT)
    assert deal.result == DealResult(
        {"A": 14, "B": 39},
        "A: 10 card points + 4 rounds; B: 30 card points + 4 rounds + 5 last trick",
        extra={"play_points": {"A": 14, "B": 39}},
    )
    assert sum(deal.card_points_by_side().values()) == 40


def test_sweep_rs5() -> None:
    script = FIRST_FOUR + " / 7C AH- AD- AC- / 8C KH- KD- KC- / 9C QH- QD- QC- / TC JH- JD- JC-"
    assert whole(script).result.scores == {"A": 40, "B": -30}  # type: ignore[union-attr]


def test_joker_change_falls_rs3() -> None:
    deal = whole("!JS " + CHANGED)
    assert deal.result.scores == {"A": -30, "B": 39}  # type: ignore[union-attr]
    assert "joker change fell (14:39)" in deal.result.detail  # type: ignore[union-attr]


def test_joker_change_kept_rs2() -> None:
    deal = whole(CHANGED.replace("7H- 7S-", "7H- !JC 7S-", 1))
    assert deal.snapshot()["joker_suit"] == "C"
    assert deal.result.scores == {"A": 14, "B": 47}  # type: ignore[union-attr]


def test_egalite_kept_rs4() -> None:
    deal = whole(CHANGED.replace("AS ", "AS !JH ", 1))
    assert deal.snapshot()["egalite"] is True
    assert deal.result.scores == {"A": 14, "B": 59}  # type: ignore[union-attr]


def test_otvoreno_success_rs6_and_partner_passive() -> None:
    script = (
        FIRST_FOUR + " / open 7C AH- AD+ AC- / 8C KH- KD- KC- / 9C QH- QD- QC- / TC JH- JD- JC-"
    )
    deal = whole(script)
    assert deal.snapshot()["opened"] == {"seat": 0, "cards": ["7C", "8C", "9C", "TC"],
                                         "trick": 5, "failed": False}  # fmt: skip
    assert deal.result.scores == {"A": 50, "B": -30}  # type: ignore[union-attr]


def test_otvoreno_fails_and_the_opponents_take_every_card_from_the_opening() -> None:
    deal = whole(FIRST_FOUR + " / open 7C AH JD- JC | k")
    assert deal.snapshot()["opened"]["failed"] is True
    assert len(deal.tricks) == 5
    assert deal.result.scores == {"A": 14, "B": 39}  # type: ignore[union-attr]
    assert sum(deal.card_points_by_side().values()) == 40


def test_brejk_still_applies_after_otvoreno() -> None:
    deal = new(None)
    play_script(deal, "open:7S,TS,KS,AH,9S,QS,7H,TH 7S 8S AS+ JS")
    trick = deal.snapshot()["tricks"][0]
    assert trick["brejk"] == 3 and kinds(trick)[0][2] == "AS:discard"  # the partner is passive
    assert deal.is_over and deal.snapshot()["opened"]["failed"] is True
    assert deal.result.scores["B"] == 53  # type: ignore[union-attr]


def test_open_needs_three_cards_and_the_whole_hand() -> None:
    deal = new(SUITED)
    with pytest.raises(ActionError, match="all 8 cards"):
        deal.check(Action(0, ActionType.OPEN, cards=parse_cards("AS KS QS")))


# -- partija, match, correction, dealer rotation (§9.3, §9.13) ---------------------------------
def test_partija_to_301_and_the_dealer_skip() -> None:
    match = Match(Ruzicka(), dealer=2)
    match.record(DealResult({"A": 150, "B": 3}))
    assert match.dealer == 3
    events = match.record(DealResult({"A": 151, "B": 20}))
    assert [e.kind for e in events] == ["partija_over"] and match.partija_winners == ["A"]
    assert match.dealer == 1  # seat 0 (side A, the winners) was due to deal: skipped
    match.record(DealResult({"A": -240, "B": 10}))
    assert match.totals == {"A": -200, "B": 50}  # correction: A lifted to -200, B gains 40


def test_match_of_three_partije() -> None:
    match = Match(Ruzicka())
    for _ in range(3):
        match.record(DealResult({"A": 0, "B": 301}))
    assert match.winner == "B" and match.points == {"A": 0, "B": 3}


# -- transcripts and the CLI -------------------------------------------------------------------
def test_transcript_replay_with_offers_breaks_and_the_joker_change() -> None:
    data = json.loads((TRANSCRIPTS / "ruzicka_rz.json").read_text(encoding="utf-8"))
    rep = replay(data)
    out = summary(rep)
    first, second = out["deals"]
    assert [t["winner"] for t in first["tricks"]] == [0, 1, 2, 1, 1]
    assert len(first["tricks"][0]["rounds"]) == 4  # RZ1
    assert first["tricks"][3]["brejk"] == 1  # a trick decided by a Brejk
    assert first["tricks"][1]["rounds"][1]["plays"] == [[0, "??", "returned"]]  # by an offer
    assert first["score_units"] == {"A": 29, "B": 24}
    assert second["state"]["joker_suit"] == "C" and second["state"]["changer"] == 0
    assert second["tricks"][0]["rounds"][0]["plays"][2] == [3, "TH", "overtake-void"]
    assert second["score_units"] == {"A": -30, "B": 34}  # the change fell, 19:34
    assert rep.match.totals == {"A": -1, "B": 58}


def test_cli_prints_rounds(capsys: pytest.CaptureFixture[str]) -> None:
    from kibic.cli import main

    assert main(["referee", "replay", str(TRANSCRIPTS / "ruzicka_rz.json")]) == 0
    text = capsys.readouterr().out
    assert "[I] 0:7S 1:8S 2:8H 3:9H [II] 0:TS 1:9D- 2:AD- 3:JS" in text
