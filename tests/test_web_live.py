"""The live feed over a real socket: uvicorn in a thread, httpx streaming GET /api/live."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from kibic.runtime import TableRuntime
from referee.cards import Card
from tests.test_web_support import PASSWORD_HASH, legal_play, start_known_deal
from tests.test_web_support import runtime as runtime  # noqa: F401 - the fixture
from web.app import create_app
from web.server import BackgroundServer


@pytest.fixture
def server(runtime: TableRuntime) -> Iterator[BackgroundServer]:  # noqa: F811
    start_known_deal(runtime)
    app = create_app(runtime, admin_password_hash=PASSWORD_HASH, keepalive_s=0.3)
    with BackgroundServer(app) as running:
        yield running


def next_item(lines: Iterator[str]) -> tuple[str, Any]:
    """The next SSE item: ("data", message) or ("comment", text); blank separators skipped."""
    for line in lines:
        if line.startswith("data: "):
            return "data", json.loads(line[len("data: ") :])
        if line.startswith(":"):
            return "comment", line[1:].strip()
    raise AssertionError("the stream ended")


def test_every_client_gets_each_play_then_keepalives(
    server: BackgroundServer,
    runtime: TableRuntime,  # noqa: F811
) -> None:
    with httpx.Client(base_url=server.url, timeout=5.0) as client:
        with (
            client.stream("GET", "/api/live") as first,
            client.stream("GET", "/api/live") as second,
        ):
            assert first.headers["content-type"].startswith("text/event-stream")
            streams = [first.iter_lines(), second.iter_lines()]
            initial = [next_item(lines) for lines in streams]
            seq = runtime.snapshot()["seq"]
            assert all(kind == "data" and msg["seq"] == seq for kind, msg in initial)
            assert initial[0][1]["events"] == []

            action = legal_play(runtime)
            runtime.submit(action)
            for lines in streams:
                kind, message = next_item(lines)
                assert kind == "data"
                assert message["seq"] == seq + 1
                assert message["events"][0] == {
                    "kind": "card_played",
                    "seat": action.seat,
                    "card": str(action.card),
                    "trick": 1,
                    "mode": "play",
                }
                assert message["state"]["deal"]["trick"]["plays"] == [
                    [action.seat, str(action.card)]
                ]

            started = time.monotonic()
            assert next_item(streams[0]) == ("comment", "keep-alive")
            assert time.monotonic() - started < 2.0

            # a camera misread is an alert: it comes through although the seq does not change
            runtime.on_sighting(3, Card.parse("AS"))
            kind, message = next_item(streams[1])
            while kind == "comment":  # this client had keep-alives waiting
                kind, message = next_item(streams[1])
            assert message["seq"] == seq + 1
            assert message["events"][0]["kind"] == "alert"
            assert message["events"][0]["text"].startswith("camera: seat 3 AS:")


def test_the_hub_forgets_a_client_that_left(server: BackgroundServer) -> None:
    hub = server.app.state.hub
    with httpx.Client(base_url=server.url, timeout=5.0) as client:
        with client.stream("GET", "/api/live") as stream:
            lines = stream.iter_lines()  # kept: a dropped line iterator closes the stream
            next_item(lines)
            assert hub.clients == 1
    deadline = time.monotonic() + 3.0
    while hub.clients and time.monotonic() < deadline:
        time.sleep(0.05)
    assert hub.clients == 0
