"""Calling the director: through the log like every input, on the API, on the seat's light
(which blinks until the director answers), and by holding a seat button (gpiozero's mock
pins)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from gpiozero.pins.mock import MockFactory, MockPWMPin

from firmware_bridge.gpio import GpioLights, GpioPins, SeatPins
from firmware_bridge.lights import ButtonPressed, NullLights, SeatButton
from firmware_bridge.patterns import Pattern
from kibic.lights import LightsSink, connect_buttons
from kibic.runtime import TableRuntime
from kibic.store import EventStore
from referee.errors import ActionError
from tests.test_web_support import ADMIN, NAMES, legal_play, start_known_deal
from tests.test_web_support import client as client  # noqa: F401 - the fixture
from tests.test_web_support import runtime as runtime  # noqa: F401 - the fixture

MAGENTA = (255, 0, 255)


def wait_for(check: Callable[[], bool], timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.005)
    return True


def test_a_call_is_logged_kept_over_a_restart_and_answered(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    table = TableRuntime(EventStore(path, "t"), table_id="t", names=NAMES)
    start_known_deal(table)
    entries = len(table.store.entries())
    call = table.call_director(2, source="seat 2 button")
    assert table.call_director(2) == call  # still open: the same call, nothing new logged
    whole = table.call_director(None)
    stored = table.store.entries()[entries:]
    assert [(e.kind, e.payload) for e in stored] == [
        ("director_called", {"id": call, "seat": 2, "source": "seat 2 button"}),
        ("director_called", {"id": whole, "seat": None, "source": "dashboard"}),
    ]
    with pytest.raises(ActionError, match="seat 4 does not exist"):
        table.call_director(4)
    assert len(table.store.entries()) == entries + 2  # a refused call is not stored
    assert [ev["kind"] for ev in table.snapshot()["log"][-2:]] == ["director_called"] * 2
    table.close()

    table = TableRuntime(EventStore(path, "t"), table_id="t")  # a restart replays the calls
    assert [(c["id"], c["seat"]) for c in table.snapshot()["calls"]] == [(call, 2), (whole, None)]
    events = table.answer_director(call)
    assert events == [{"kind": "director_answered", "call": call, "seat": 2}]
    assert [c["id"] for c in table.snapshot()["calls"]] == [whole]
    with pytest.raises(ActionError, match="no open call"):
        table.answer_director(call)
    table.close()


def test_the_callers_light_blinks_over_the_turn_until_answered(tmp_path: Path) -> None:
    lights = NullLights(seats=4, sides=2)
    table = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), names=NAMES,
                         sinks=[LightsSink(lights, seats=4)])  # fmt: skip
    start_known_deal(table)
    seen: list[tuple[int, Pattern]] = []
    set_pattern = lights.set_pattern
    lights.set_pattern = lambda seat, p: (seen.append((seat, p)), set_pattern(seat, p))[1]  # type: ignore[method-assign]
    assert lights.patterns[0] is Pattern.TURN
    call = table.call_director(1)
    assert seen == [(1, Pattern.DIRECTOR_CALL)]
    seen.clear()
    table.submit(legal_play(table))  # seat 1's turn: its base changes, the call blinks again
    assert seen == [(0, Pattern.OFF), (1, Pattern.TURN), (1, Pattern.DIRECTOR_CALL)]
    seen.clear()
    table.answer_director(call)
    assert seen == [(1, Pattern.TURN)]  # back to its base: the blinking ends
    seen.clear()
    everyone = table.call_director(None)
    assert seen == [(s, Pattern.DIRECTOR_CALL) for s in range(4)]
    seen.clear()
    table.answer_director(everyone)
    assert seen == [(0, Pattern.OFF), (1, Pattern.TURN), (2, Pattern.OFF), (3, Pattern.OFF)]


def test_a_long_press_of_a_seat_button_calls_the_director(tmp_path: Path) -> None:
    lights = NullLights(seats=4, sides=2)
    table = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), names=NAMES)
    start_known_deal(table)
    connect_buttons(table, lights)
    table.submit(legal_play(table))
    lights.press(3, SeatButton.UNDO, held=True)
    assert table.deal.snapshot()["trick"]["plays"] != []  # type: ignore[union-attr]  # no undo
    entry = table.store.entries()[-1]
    assert (entry.kind, entry.payload["seat"], entry.payload["source"]) == (
        "director_called", 3, "seat 3 button")  # fmt: skip


def test_held_gpio_button_calls_and_blinks_short_press_counts_on_release() -> None:
    """gpiozero's MockFactory: a button held past ``hold_s`` publishes one long press and no
    short one; the runtime opens a call and the seat's RGB light blinks magenta until the
    director answers."""
    factory = MockFactory(pin_class=MockPWMPin)
    pins = GpioPins(seats=(SeatPins((17, 27, 22), confirm=5, undo=6), SeatPins(12, confirm=13)),
                    bounce_s=None, hold_s=0.05)  # fmt: skip
    now = [0.0]
    lights = GpioLights(pins, pin_factory=factory, clock=lambda: now[0], start=False)
    presses: list[ButtonPressed] = []
    lights.buttons.subscribe(presses.append)
    table = TableRuntime(EventStore(":memory:", "t"), game="gin-rummy",
                         sinks=[LightsSink(lights, seats=2)])  # fmt: skip
    connect_buttons(table, lights)
    try:
        factory.pin(13).drive_low()  # a short press of seat 1's confirm: counted on release
        assert presses == []
        factory.pin(13).drive_high()
        assert [(p.seat, p.button, p.held) for p in presses] == [(1, SeatButton.CONFIRM, False)]

        factory.pin(6).drive_low()  # seat 0's undo, held
        assert wait_for(lambda: len(presses) == 2)
        factory.pin(6).drive_high()
        time.sleep(0.1)
        assert [(p.seat, p.button, p.held) for p in presses[1:]] == [(0, SeatButton.UNDO, True)]
        calls = table.snapshot()["calls"]
        assert [(c["seat"], c["source"]) for c in calls] == [(0, "seat 0 button")]

        shown = []
        for ms in (0, 100, 350, 650, 950):
            now[0] = ms / 1000
            lights.tick()
            shown.append(lights.shown(0))
        assert shown == [MAGENTA, MAGENTA, (0, 0, 0), MAGENTA, (0, 0, 0)]
        assert lights.shown(1) == (0, 0, 0)
        table.answer_director(calls[0]["id"])
        now[0] = 1.0
        lights.tick()
        assert lights.shown(0) == (0, 0, 0)
        now[0] = 1.3
        lights.tick()
        assert lights.shown(0) == (0, 0, 0)  # no more blinking
    finally:
        lights.close()
        table.close()


def test_the_api_calls_without_a_password_and_answers_with_it(
    client: TestClient,  # noqa: F811
    runtime: TableRuntime,  # noqa: F811
) -> None:
    response = client.post("/api/director-calls", json={"seat": 2})
    assert response.status_code == 200, response.text
    call = response.json()
    assert call["seat"] == 2 and call["seq"] == runtime.seq
    state = client.get("/api/state").json()
    assert [(c["id"], c["seat"], c["source"]) for c in state["calls"]] == [
        (call["id"], 2, "dashboard")]  # fmt: skip
    assert client.post("/api/director-calls", json={"seat": 9}).status_code == 409
    bad = client.post("/api/director-calls", json={"seat": -1})
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"] == ["body", "seat"]
    assert client.post("/api/director-calls", json={"who": 1}).status_code == 422

    answer = f"/api/director-calls/{call['id']}/answer"
    assert client.post(answer).status_code == 401
    assert client.get("/api/state").json()["calls"] != []
    response = client.post(answer, headers=ADMIN)
    assert response.status_code == 200
    assert response.json()["events"] == [
        {"kind": "director_answered", "call": call["id"], "seat": 2}]  # fmt: skip
    assert client.get("/api/state").json()["calls"] == []
    again = client.post(answer, headers=ADMIN)
    assert again.status_code == 409 and "no open call" in again.json()["detail"]
    whole = client.post("/api/director-calls", json={}).json()
    assert whole["seat"] is None
    page = client.get("/?lang=en").text
    assert 'id="director-calls"' in page and "The director is called by the whole table" in page


def test_the_clubs_live_page_shows_an_open_call_until_it_is_answered(tmp_path: Path) -> None:
    from club.app import create_app as club_app
    from club.service import ClubSettings

    table = TableRuntime(EventStore(":memory:", "t1"), table_id="t1", names=NAMES)
    start_known_deal(table)
    call = table.call_director(1, source="seat 1 button")
    table.call_director(None)
    settings = ClubSettings(database_url=str(tmp_path / "club.sqlite3"))
    with TestClient(club_app(settings)) as club:
        service = club.app.state.service  # type: ignore[attr-defined]
        key = service.store.issue_key("t1")
        auth = {"Authorization": f"Bearer {key}"}
        url = "/api/v1/tables/t1/events"

        def forward() -> None:
            sent = [e.to_dict() for e in table.store.entries()]
            assert club.post(url, json={"events": sent}, headers=auth).status_code == 200

        forward()
        live = club.get("/api/v1/tables").json()
        assert [(c["seat"], c["name"]) for c in live[0]["current"]["calls"]] == [
            (1, "Bora"), (None, None)]  # fmt: skip
        page = club.get("/").text
        assert (
            '<strong class="director-call" data-seat="1">director called by Bora</strong>' in page
        )
        assert "director called by the whole table" in page
        assert "sudiju zove: Bora" in club.get("/?lang=sr").text
        table.answer_director(call)
        forward()
        page = club.get("/").text
        assert "director called by Bora" not in page
        assert "director called by the whole table" in page
        assert service.store.event_count("t1") == len(table.store.entries())
