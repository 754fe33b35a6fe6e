"""Undo across the end of a deal, and refused inputs that leave everything as it was."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from kibic.runtime import TableRuntime
from kibic.store import EventStore
from referee.actions import Action, ActionType
from referee.cards import Card
from referee.errors import RefereeError
from tests.test_web_support import NAMES, legal_play, start_known_deal


def finished_deal(path: Path) -> TableRuntime:
    runtime = TableRuntime(EventStore(path, "t"), table_id="t", game="veliki-satir", names=NAMES)
    start_known_deal(runtime)
    while not runtime.deal.is_over:  # type: ignore[union-attr]
        runtime.submit(legal_play(runtime))
    return runtime


def test_a_refused_input_after_the_last_card_changes_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A confirmation the referee refuses (the next deal has no play phase yet) used to open
    the next deal, so that undo no longer reached the finished one."""
    runtime = finished_deal(tmp_path / "t.sqlite3")
    request = runtime.request_confirmation(2, [Card.parse("AS")], [0.6])
    before, entries = runtime.state_digest(), len(runtime.store.entries())
    with caplog.at_level(logging.INFO, logger="kibic.runtime"):
        with pytest.raises(RefereeError):
            runtime.confirm_card(request, Card.parse("AS"))
        with pytest.raises(RefereeError):
            runtime.submit(Action.play(1, Card.parse("KD")))
    assert runtime.state_digest() == before
    assert len(runtime.store.entries()) == entries
    assert [r.getMessage() for r in caplog.records] == [
        "refused input from confirmation: seat 2 play AS: no card can be played now (phase setup)",
        "refused input from dashboard: seat 1 play KD: no card can be played now (phase setup)",
    ]

    runtime.undo()  # the last card of the finished deal is taken back
    deal = runtime.deal
    assert deal is not None and not deal.is_over and len(deal.trick.plays) == 3  # type: ignore[attr-defined]
    assert runtime.snapshot()["match"]["rows"] == [] and runtime.snapshot()["deals"] == []


def test_undo_reaches_back_while_the_next_deal_has_nothing_played(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    runtime = finished_deal(path)
    last = runtime.deal.actions[-1]  # type: ignore[union-attr]
    scored = runtime.snapshot()["match"]["totals"]
    assert scored != {"A": "0.0", "B": "0.0"}
    runtime.submit(Action(1, ActionType.CONTRACT, value="zatvoreno"))  # opens deal 2
    assert runtime.snapshot()["deal_number"] == 2

    runtime.undo()  # deal 2's contract
    assert runtime.deal is not None and runtime.deal.actions == []
    runtime.undo()  # deal 1's last card: deal 1 is open again and off the sheet
    deal = runtime.deal
    assert deal is not None and not deal.is_over and deal.to_act == last.seat  # type: ignore[attr-defined]
    assert runtime.snapshot()["deal_number"] == 1
    assert runtime.snapshot()["match"]["totals"] == {"A": "0.0", "B": "0.0"}
    runtime.submit(last)  # played again: the same score as before
    assert runtime.snapshot()["match"]["totals"] == scored
    digest = runtime.state_digest()
    runtime.close()
    again = TableRuntime(EventStore(path, "t"), table_id="t", game="veliki-satir")
    assert again.state_digest() == digest  # the log replays to the same sheet


def test_undo_with_no_deal_finished_is_still_refused(tmp_path: Path) -> None:
    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="veliki-satir")
    with pytest.raises(RefereeError, match="nothing to undo"):
        runtime.undo()


def _adjusted_rows(runtime: TableRuntime) -> list[tuple[str, str]]:
    return [(r["detail"], str(r["scores"])) for r in runtime.snapshot()["match"]["rows"]
            if r["detail"].startswith("adjusted")]  # fmt: skip


def test_an_adjustment_after_a_deal_survives_undo_into_that_deal(tmp_path: Path) -> None:
    """The director's correction of a total made after the deal was over used to vanish when
    undo reopened the deal (the sheet went back to what it was before the deal)."""
    path = tmp_path / "t.sqlite3"
    runtime = finished_deal(path)
    last = runtime.deal.actions[-1]  # type: ignore[union-attr]
    scored = runtime.snapshot()["match"]["totals_units"]
    runtime.adjust_score("B", 15, "late arrival waived")
    adjusted = runtime.snapshot()["match"]["totals_units"]
    assert adjusted == {"A": scored["A"], "B": scored["B"] + 15}

    runtime.undo()  # the deal's last card: the deal is open again, its score off the sheet
    assert runtime.snapshot()["match"]["totals_units"] == {"A": 0, "B": 0}
    runtime.submit(last)  # over again: its score and then the adjustment, as before
    assert runtime.snapshot()["match"]["totals_units"] == adjusted
    assert _adjusted_rows(runtime) == [("adjusted: late arrival waived", "{'B': '1.5'}")]

    digest = runtime.state_digest()
    runtime.close()
    again = TableRuntime(EventStore(path, "t"), table_id="t", game="veliki-satir")
    assert again.state_digest() == digest  # the log replays to the same sheet


def test_adjustments_go_back_after_the_deal_they_followed(tmp_path: Path) -> None:
    """Undo through two finished deals: each adjustment returns after its own deal."""
    runtime = finished_deal(tmp_path / "t.sqlite3")
    first_last = runtime.deal.actions[-1]  # type: ignore[union-attr]
    runtime.adjust_score("A", 10, "one")
    runtime.submit(Action(1, ActionType.CONTRACT, value="zatvoreno"))  # opens deal 2
    runtime.adjust_score("B", 20, "two")  # during deal 2, after deal 1
    runtime.undo()  # deal 2's contract
    runtime.undo()  # into deal 1
    assert runtime.snapshot()["match"]["totals_units"] == {"A": 0, "B": 0}
    assert _adjusted_rows(runtime) == []
    runtime.submit(first_last)
    assert _adjusted_rows(runtime) == [("adjusted: one", "{'A': '1.0'}"),
                                       ("adjusted: two", "{'B': '2.0'}")]  # fmt: skip


def test_a_correction_between_deals_that_reaches_the_target_ends_the_partija(
    tmp_path: Path,
) -> None:
    """The partija ends with its last deal, judged with the correction before it, and the end is
    published at once; undo into that deal holds the correction, and the deal over again ends
    the partija again; the log replays to the same sheet."""
    path = tmp_path / "t.sqlite3"
    runtime = finished_deal(path)
    assert runtime.match is not None
    hint = 'id="adjust-may-end">A correction that decides game 1 by its target (50.0) ends it'
    assert hint in _director_form(runtime)
    last = runtime.deal.actions[-1]  # type: ignore[union-attr]
    short = 500 - runtime.match.totals["A"]  # what A lacks of the partija's 50.0
    published = runtime.adjust_score("A", short, "a declaration not written")
    assert [(e["kind"], e.get("winner")) for e in published] == [
        ("score_adjusted", None), ("partija_over", "A")]  # fmt: skip
    match = runtime.snapshot()["match"]
    assert [p["winner"] for p in match["partije"]] == ["A"]
    assert [(r["deal"], r["detail"]) for r in match["rows"]][0] == (
        0, "adjusted: a declaration not written")  # fmt: skip
    won_by = runtime.export_csv().splitlines()[-1].split(",")[-1]
    assert won_by == f"A ({NAMES[0]} & {NAMES[2]})"  # the sheet's CSV, a side of two seats
    digest = runtime.state_digest()

    assert "adjust-may-end" not in _director_form(runtime)  # it would go into game 1 now
    runtime.undo()  # the last card: the partija runs, the correction held
    assert runtime.snapshot()["match"]["partije"] == []
    assert "adjust-may-end" not in _director_form(runtime)  # no deal of it written
    ended = [(e["kind"], e.get("winner")) for e in runtime.submit(last)]
    assert ("partija_over", "A") in ended  # published again, for the lights and the log
    assert runtime.state_digest()["match"] == digest["match"]
    runtime.close()
    again = TableRuntime(EventStore(path, "t"), table_id="t", game="veliki-satir")
    assert again.state_digest()["match"] == digest["match"]


def ulti_partija_over(path: Path) -> TableRuntime:
    """The demo's Ulti: its first partija ends with the 4th deal (Kec herc deli), won by 1."""
    from kibic.demo import demo_transcript
    from referee.transcript import parse_hands

    runtime = TableRuntime(EventStore(path, "t"), table_id="t", game="ulti",
                           names=["Ana", "Bora", "Cica"])  # fmt: skip
    for i, deal in enumerate(demo_transcript("ulti", deals=4, seed=3)["deals"], start=1):
        setup = {k: v for k, v in deal.items() if k not in ("dealer", "hands", "events")}
        runtime.start_deal(hands=parse_hands(deal.get("hands"), f"deal {i}", 3), setup=setup,
                           dealer=deal["dealer"])  # fmt: skip
        for raw in deal["events"]:
            runtime.submit(Action.from_dict(raw), source="demo")
    return runtime


def test_a_correction_after_a_partijas_last_deal_judges_its_end_again(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    runtime = ulti_partija_over(path)
    match = runtime.snapshot()["match"]
    assert match["partije"] == [
        {"number": 1, "totals": {"0": "-90", "1": "54", "2": "36"}, "winner": "1"}
    ]
    assert match["winner"] == "1"  # a match of one partija
    assert "into game 1, which the last deal ended" in _director_form(runtime)
    assert runtime.snapshot()["match"]["correction_partija"] == 1  # Match.correction_partija
    last = runtime.deal.actions[-1]  # type: ignore[union-attr]
    published = runtime.adjust_score("1", -200, "miscount")
    assert [(e["kind"], e.get("winner")) for e in published] == [
        ("score_adjusted", None), ("partija_over", "2"), ("match_over", "2")]  # fmt: skip
    match = runtime.snapshot()["match"]
    assert match["winner"] == "2"
    assert match["partije"] == [
        {"number": 1, "totals": {"0": "-90", "1": "-146", "2": "36"}, "winner": "2"}
    ]
    # on the sheet before the deal that ended the partija, which is written again after it
    row = match["rows"][-2]
    assert (row["partija"], row["deal"], row["detail"]) == (1, 3, "adjusted: miscount")
    assert match["rows"][-1]["deal"] == 4 and match["rows"][-1]["totals"]["1"] == "-146"
    digest = runtime.state_digest()

    runtime.undo()  # the last card: the partija runs again, without the correction for now
    assert runtime.snapshot()["match"]["partije"] == []
    assert 'id="adjust-goes-back"' not in _director_form(runtime)  # into the running one
    runtime.submit(last)  # over again, the correction back in the partija it corrected
    assert runtime.state_digest()["match"] == digest["match"]
    runtime.close()
    again = TableRuntime(EventStore(path, "t"), table_id="t", game="ulti")
    assert again.state_digest()["match"] == digest["match"]  # the log replays to that sheet


def test_the_sheets_csv_names_each_dealer_and_the_winner_of_each_partija(tmp_path: Path) -> None:
    """A club's spreadsheet reads who dealt and who won a partija without the seat numbers."""
    import csv

    runtime = ulti_partija_over(tmp_path / "t.sqlite3")
    rows = list(csv.DictReader(runtime.export_csv().splitlines()))
    assert [r["dealer name"] for r in rows] == [["Ana", "Bora", "Cica"][int(r["dealer"])]
                                                for r in rows]  # fmt: skip
    assert [r["partija won by"] for r in rows] == ["", "", "", "Bora"]
    runtime.adjust_score("1", -200, "miscount")  # the partija judged again: Cica won it
    rows = list(csv.DictReader(runtime.export_csv().splitlines()))
    correction, last = rows[-2:]  # the correction goes before the deal that ended the partija
    assert correction["detail"] == "adjusted: miscount" and correction["partija won by"] == ""
    assert last["deal"] == "4" and last["partija won by"] == "Cica"


def _director_form(runtime: TableRuntime) -> str:
    from fastapi.testclient import TestClient

    from web.app import create_app

    html = TestClient(create_app(runtime, admin_password_hash="")).get("/?lang=en").text
    return html[html.index('<form id="adjust-form"') :].split("</form>")[0]


def test_a_score_adjustment_of_nothing_is_refused(tmp_path: Path) -> None:
    runtime = finished_deal(tmp_path / "t.sqlite3")
    before, entries = runtime.state_digest(), len(runtime.store.entries())
    with pytest.raises(RefereeError, match="a score adjustment of 0 changes nothing"):
        runtime.adjust_score("A", 0, "forgot the number")
    assert runtime.state_digest() == before and len(runtime.store.entries()) == entries


def test_a_correction_that_goes_back_keeps_the_dealer_of_the_deal_begun(tmp_path: Path) -> None:
    """The partija is judged again from the sheet before its last deal, which also works out
    who deals next; a deal begun since, by another dealer, keeps him on the sheet."""
    runtime = ulti_partija_over(tmp_path / "t.sqlite3")
    assert runtime.match is not None
    other = (runtime.match.dealer + 1) % 3
    runtime.start_deal(dealer=other)  # the table dealt otherwise
    runtime.adjust_score("1", -200, "miscount")
    assert runtime.match.dealer == other
    assert runtime.snapshot()["match"]["partije"][0]["winner"] == "2"
