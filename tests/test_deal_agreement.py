"""Agreeing a deal: each side confirms the finished deal's score (a button per side, or a
seat's CONFIRM button); until both have, the sheet and the club show it as unconfirmed."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from firmware_bridge.lights import NullLights, SeatButton
from kibic.lights import connect_buttons
from kibic.runtime import TableRuntime
from kibic.store import EventStore
from referee.errors import ActionError
from tests.test_web_support import NAMES, legal_play, start_known_deal
from tests.test_web_support import client as client  # noqa: F401 - the fixture
from tests.test_web_support import runtime as runtime  # noqa: F401 - the fixture


def finish_deal(table: TableRuntime) -> None:
    while not table.deal.is_over:  # type: ignore[union-attr]
        table.submit(legal_play(table))


def agreement(table: TableRuntime) -> list[tuple[list[str], bool]]:
    return [(d["agreed"], d["confirmed"]) for d in table.snapshot()["deals"]]


def test_both_sides_confirm_logged_replayed_and_undone_with_the_deal(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    table = TableRuntime(EventStore(path, "t"), table_id="t", names=NAMES)
    start_known_deal(table)
    with pytest.raises(ActionError, match="no deal is finished"):
        table.agree_deal(side="A")
    finish_deal(table)
    assert table.snapshot()["agreeing_sides"] == ["A", "B"]
    assert agreement(table) == [([], False)]
    count = len(table.store.entries())
    assert table.agree_deal(side="A") is True
    assert table.agree_deal(seat=2) is False  # seat 2 is side A too: nothing new logged
    assert len(table.store.entries()) == count + 1
    for bad, match in (({"side": "C"}, "unknown side 'C'"), ({"side": "B", "number": 2},
                       "deal 2 is not finished"), ({"seat": 4}, "seat 4 does not exist"),
                       ({"side": "B", "seat": 1}, "the confirming side or seat")):  # fmt: skip
        with pytest.raises(ActionError, match=match):
            table.agree_deal(**bad)  # type: ignore[arg-type]
    assert len(table.store.entries()) == count + 1  # refusals are not stored
    assert agreement(table) == [(["A"], False)]
    table.close()

    table = TableRuntime(EventStore(path, "t"), table_id="t")  # a restart replays it
    assert agreement(table) == [(["A"], False)]
    table.agree_deal(seat=1, source="seat 1 button")
    assert agreement(table) == [(["A", "B"], True)]
    last = table.store.entries()[-1]
    assert (last.kind, last.payload) == (
        "deal_agreed", {"deal": 1, "side": "B", "source": "seat 1 button"})  # fmt: skip
    assert table.snapshot()["log"][-1] == {"kind": "deal_agreed", "deal": 1, "side": "B"}

    # an undo into the finished deal takes its agreement with it: the new score is agreed anew
    table.undo()
    assert agreement(table) == []
    finish_deal(table)
    assert agreement(table) == [([], False)]
    table.close()


def test_a_seats_confirm_button_agrees_for_its_side(tmp_path: Path) -> None:
    lights = NullLights(seats=4, sides=2)
    table = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), names=NAMES)
    start_known_deal(table)
    connect_buttons(table, lights)
    lights.press(1, SeatButton.CONFIRM)  # mid-deal, nothing asked: nothing happens
    assert table.store.entries()[-1].kind == "action"
    finish_deal(table)
    lights.press(1, SeatButton.CONFIRM)
    lights.press(3, SeatButton.CONFIRM)  # side B again: no second entry
    assert agreement(table) == [(["B"], False)]
    assert sum(e.kind == "deal_agreed" for e in table.store.entries()) == 1
    lights.press(0, SeatButton.CONFIRM)
    assert agreement(table) == [(["B", "A"], True)]


def test_the_api_and_the_sheet_mark_the_deal_until_both_sides_confirm(
    client: TestClient,  # noqa: F811
    runtime: TableRuntime,  # noqa: F811
) -> None:
    finish_deal(runtime)
    page = client.get("/?lang=en").text
    assert '<tr class="deal-row" data-deal="1" data-confirmed="no">' in page
    assert 'class="agree-deal" data-deal="1" data-side="A">Side A (Ana &amp; Ceca) confirms' in page
    response = client.post("/api/deals/1/agree", json={"side": "A"})  # no password needed
    assert response.status_code == 200
    assert {k: response.json()[k] for k in ("deal", "agreed", "confirmed")} == {
        "deal": 1, "agreed": ["A"], "confirmed": False}  # fmt: skip
    assert client.post("/api/deals/2/agree", json={"side": "B"}).status_code == 409
    assert client.post("/api/deals/1/agree", json={"side": "Z"}).status_code == 409
    assert client.post("/api/deals/1/agree", json={}).status_code == 422
    state = client.get("/api/state").json()
    assert (state["deals"][0]["agreed"], state["deals"][0]["confirmed"]) == (["A"], False)
    assert client.post("/api/deals/1/agree", json={"side": "B"}).json()["confirmed"] is True
    page = client.get("/?lang=en").text
    assert (
        '<tr class="deal-row" data-deal="1" data-confirmed="yes">' in page
        and 'id="agree"' not in page
    )
    assert "Side B (Bora &amp; Duško) confirms the score of deal 1" in page


def test_the_club_marks_an_unconfirmed_deal(tmp_path: Path) -> None:
    from club.app import create_app as club_app
    from club.service import ClubSettings

    table = TableRuntime(EventStore(":memory:", "t1"), table_id="t1", names=NAMES)
    start_known_deal(table)
    finish_deal(table)
    table.agree_deal(side="B")
    with TestClient(club_app(ClubSettings(database_url=str(tmp_path / "c.sqlite3")))) as club:
        key = club.app.state.service.store.issue_key("t1")  # type: ignore[attr-defined]
        auth = {"Authorization": f"Bearer {key}"}

        def forward() -> None:
            sent = [e.to_dict() for e in table.store.entries()]
            r = club.post("/api/v1/tables/t1/events", json={"events": sent}, headers=auth)
            assert r.status_code == 200

        forward()
        game = club.get("/api/v1/tables").json()[0]["current"]
        assert game["unconfirmed"] == [1]
        assert "not yet confirmed by both sides: deal 1" in club.get("/tables/t1/games/2").text
        assert "obe strane još nisu potvrdile" in club.get("/tables/t1/games/2?lang=sr").text
        table.agree_deal(side="A")
        forward()
        assert club.get("/api/v1/tables").json()[0]["current"]["unconfirmed"] == []
        assert "not yet confirmed" not in club.get("/tables/t1/games/2").text
