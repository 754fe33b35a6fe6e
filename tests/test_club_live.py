"""The club pages in the club's language and live: ``GET /events`` sends the store's change
count after each forwarded batch, and an open page in a real browser (Debian's Chromium) shows
a forwarded game without being reloaded; its language switch keeps working."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from club.app import create_app
from club.service import ClubSettings, ResultsService
from tests.browser_support import CHROMIUM, SKIP_REASON, chromium_tab
from tests.test_club_refusals import NAMES
from tests.test_club_results import SATIR_11, table_log, wire
from web.server import BackgroundServer


def club_app(tmp_path: Path, **settings: object) -> FastAPI:
    db = str(tmp_path / "club.sqlite3")
    return create_app(ClubSettings(database_url=db, admin_token="sesame", **settings))  # type: ignore[arg-type]


def service(app: FastAPI) -> ResultsService:
    found: ResultsService = app.state.service
    return found


def next_count(lines: Iterator[str]) -> int:
    """The change count of the feed's next data message (keep-alives and blanks skipped)."""
    for line in lines:
        if line.startswith("data: "):
            count: int = json.loads(line[len("data: ") :])["changes"]
            return count
    raise AssertionError("the feed ended")


def forward(url: str, key: str, events: list[dict[str, object]]) -> int:
    response = httpx.post(f"{url}/api/v1/tables/t1/events", json={"events": events},
                          headers={"Authorization": f"Bearer {key}"}, timeout=30)  # fmt: skip
    assert response.status_code == 200, response.text
    accepted: int = response.json()["accepted"]
    return accepted


def test_the_feed_counts_each_batch_that_changed_the_store(tmp_path: Path) -> None:
    app = club_app(tmp_path, keepalive_s=0.2)
    log = wire(table_log("t1", [("veliki-satir", NAMES, SATIR_11[:2])]))
    half = len(log) // 2
    with BackgroundServer(app) as server, httpx.Client(base_url=server.url, timeout=30) as web:
        key = service(app).store.issue_key("t1")
        with web.stream("GET", "/events?limit=3") as feed:
            assert feed.headers["content-type"].startswith("text/event-stream")
            lines = feed.iter_lines()
            assert next_count(lines) == 0  # the count now, at once
            assert forward(server.url, key, log[:half]) == half
            assert next_count(lines) == 1
            assert forward(server.url, key, log[:half]) == 0  # sent again: nothing new
            assert forward(server.url, key, log[half:]) == len(log) - half
            assert next_count(lines) == 2
        assert service(app).changes.count == 2  # the batch sent again was no change
        players = web.post("/api/v1/players", json={"club_id": "SR001", "name": "Ana"},
                           headers={"Authorization": "Bearer sesame"})  # fmt: skip
        assert players.status_code == 201 and service(app).changes.count == 3
        assert service(app).changes.listeners == 0  # the ended stream let go


def test_the_pages_speak_the_clubs_language_and_carry_the_live_script(tmp_path: Path) -> None:
    with TestClient(club_app(tmp_path, language="sr")) as client:
        sr = client.get("/").text
        assert '<html lang="sr">' in sr and "<h1>Stolovi</h1>" in sr
        assert '<a href="/players?lang=sr">Igrači</a>' in sr
        assert '<a href="/?lang=en" hreflang="en">English</a>' in sr
        assert '<main id="live" data-changes="0"' in sr  # the count the page shows
        assert '<script src="/static/live.js" defer>' in sr
        added = client.post("/api/v1/players", json={"club_id": "SR001", "name": "Ana"},
                            headers={"Authorization": "Bearer sesame"})  # fmt: skip
        assert added.status_code == 201
        assert '<main id="live" data-changes="1"' in client.get("/players").text
        en = client.get("/?lang=en").text
        assert '<html lang="en">' in en and '<a href="/players?lang=en">Players</a>' in en
        script = client.get("/static/live.js")
        assert script.status_code == 200 and 'new EventSource("/events")' in script.text
        assert re.findall(r"https?:|//[a-z]", script.text) == []  # nothing from elsewhere


@pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)
def test_an_open_club_page_shows_a_forwarded_game_and_switches_language(tmp_path: Path) -> None:
    from playwright.sync_api import expect

    app = club_app(tmp_path, language="sr", keepalive_s=1.0)
    log = wire(table_log("t1", [("veliki-satir", NAMES, SATIR_11[:1])]))
    with BackgroundServer(app) as server, chromium_tab(server.url) as browser:
        tab = browser.tab
        tab.goto(server.url + "/")
        expect(tab.locator("html")).to_have_attribute("lang", "sr")
        expect(tab.locator("main#live")).to_contain_text("nijedan sto još nema ključ")
        expect(tab.locator("#live-status")).to_have_text("uživo")
        tab.evaluate("window.kept = 'this page was not reloaded'")

        key = service(app).store.issue_key("t1")
        assert forward(server.url, key, log) == len(log)
        row = tab.locator('main#live a[href="/tables/t1?lang=sr"]')
        expect(row).to_have_text("t1")
        expect(tab.locator("main#live")).to_contain_text(", ".join(NAMES))  # the game's players
        assert tab.evaluate("window.kept") == "this page was not reloaded"

        tab.click('nav a[hreflang="en"]')
        expect(tab.locator("html")).to_have_attribute("lang", "en")
        expect(tab.locator("main#live h1")).to_have_text("Tables")
        expect(tab.locator('main#live a[href="/tables/t1?lang=en"]')).to_have_text("t1")
        expect(tab.locator("#live-status")).to_have_text("live")
        assert browser.blocked == []
