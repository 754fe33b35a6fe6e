"""Score-sheet rules that games plug into the Match: Ulti's "Kec herc deli", SubRosa's extra
partija for 8 u boji, and Dvoglavi Lav's match bonus."""

from __future__ import annotations

from referee.deal import DealResult
from referee.match import Match
from referee.registry import load_game


def ulti_deal(holder: int | None, claims: list[list[object]] | None = None) -> DealResult:
    scores = {"0": 4, "1": -2, "2": -2}
    return DealResult(scores, extra={"ace_of_hearts": holder, "claims": claims or []})


def test_kec_herc_deli_ends_the_ulti_partija_three_deals_after_it_fails() -> None:
    match = Match(load_game("ulti"))
    assert match.record(ulti_deal(1, [[0, "deli"]])) == []  # seat 1 held A♥ and deals next
    assert match.record(ulti_deal(2)) == []  # seat 2 held it and deals next: still on
    assert match.record(ulti_deal(1)) == []  # seat 1 held it but seat 0 deals: 3 more deals
    assert match.record(ulti_deal(None)) == []
    assert match.record(ulti_deal(None)) == []
    events = match.record(ulti_deal(None))
    assert [e.kind for e in events][0] == "partija_over"
    assert events[0].winner == "0" and events[0].totals == {"0": 24, "1": -12, "2": -12}


def test_no_claim_no_end() -> None:
    match = Match(load_game("ulti"))
    for _ in range(10):
        assert match.record(ulti_deal(0)) == []
    assert match.partija == 1


def test_subrosa_eight_in_a_suit_credits_one_more_partija() -> None:
    match = Match(load_game("subrosa"))
    events = match.record(DealResult({"A": 90, "B": 20}, extra={"extra_partija": "B"}))
    assert events == [] and match.points == {"A": 0, "B": 1} and match.bonus_partije == ["B"]
    assert match.partija == 1 and match.totals == {"A": 90, "B": 20}  # the partija goes on


def test_dvoglavi_lav_match_bonus() -> None:
    game = load_game("dvoglavi-lav")
    match = Match(game)
    events = []
    for _ in range(game.match_target):
        events = match.record(DealResult({"A": 1000, "B": 300}))
    assert events[-1].kind == "match_over" and match.winner == "A"
    n = game.match_target
    # (sum of A's partije + 1000) - sum of B's partije
    assert match.final == {"A": n * 1000 + 1000 - n * 300, "B": -(n * 1000 + 1000 - n * 300)}
    assert match.to_dict()["final"] == match.final


def test_copy_is_independent() -> None:
    match = Match(load_game("ulti"))
    match.record(ulti_deal(1, [[0, "deli"]]))
    clone = match.copy()
    match.record(ulti_deal(1))
    assert clone.tracker is not None and clone.tracker.state.history != match.tracker.state.history  # type: ignore[union-attr]
    assert len(clone.rows) == 1 and len(match.rows) == 2


def test_dvoglavac_compulsory_solo_once_the_bank_is_empty() -> None:
    game = load_game("dvoglavac")
    match = Match(game)
    solo = {"marks": {"solo:0": 1, "solo:1": 1}}
    # the Bank pays out its 500; seats 2 and 3 have not played a clean Solo yet
    match.record(DealResult({"0": 300, "1": 200, "2": 0, "3": 0, "Bank": -500}, extra=solo))
    assert match.partija == 1
    assert (match.dealer, match.next_setup) == (2, {"compulsory": True})
    match.record(DealResult({"0": 0, "1": 0, "2": 45, "3": -15}, extra={"marks": {"solo:2": 1}}))
    assert (match.dealer, match.next_setup) == (3, {"compulsory": True})
    events = match.record(DealResult({"0": -5, "1": -5, "2": -5, "3": 15},
                                     extra={"marks": {"solo:3": 1}}))  # fmt: skip
    assert events[0].kind == "partija_over" and events[0].winner == "0"
    assert match.next_setup == {}
