"""Every page of the table and of the club server is readable, in a real headless Chromium with
every request off the machine blocked: each visible text and sign has a contrast of at least
4.5 : 1 against its background (WCAG AA, ``tests.page_checks``), and every page fits a phone
(390 x 844, a phone's browser) without sideways scrolling: a wide table scrolls in its box."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from club.app import create_app as create_club_app
from club.service import ClubSettings
from kibic.config_check import Finding, FindingKind
from kibic.runtime import TableRuntime
from referee.cards import Card
from tests.browser_support import CHROMIUM, SKIP_REASON, browser_page
from tests.page_checks import MINIMUM, low_contrast, page_width, texts
from tests.test_club_security import fill, page_paths
from tests.test_web_support import (
    PASSWORD_HASH,
    illegal_play,
    legal_play,
    new_runtime,
    start_known_deal,
)
from web.app import create_app as create_table_app

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)

PHONE = {"width": 390, "height": 844}
TABLE_PAGES = ["/", "/history", "/summary", "/?lang=en", "/table", "/history?deal=1&trick=1"]


@pytest.fixture
def busy_runtime() -> Iterator[TableRuntime]:
    """A deal ended by a revoke: cards and red suit signs on the felt, a penalty, a camera
    question, a score sheet row."""
    runtime = new_runtime()
    start_known_deal(runtime)
    for _ in range(6):
        runtime.submit(legal_play(runtime))
    seat = runtime.deal.to_act  # type: ignore[union-attr]
    assert isinstance(seat, int)
    runtime.request_confirmation(seat, [Card.parse("AH"), Card.parse("AD")], [0.55, 0.4])
    revoke = illegal_play(runtime)  # the deal ends on it, with a penalty
    assert revoke is not None
    runtime.submit(revoke)
    try:
        yield runtime
    finally:
        runtime.close()


def test_every_table_page_fits_a_phone_with_enough_contrast(busy_runtime: TableRuntime) -> None:
    finding = Finding(FindingKind.NO_ADMIN_PASSWORD, "web.admin_password_hash")
    app = create_table_app(busy_runtime, admin_password_hash=PASSWORD_HASH, findings=[finding])
    with browser_page(app, viewport=PHONE, mobile=True) as found:
        tab = found.tab
        for path in TABLE_PAGES:
            tab.goto(found.url + path)
            tab.wait_for_selector("#live-status.ok", state="attached")
            assert tab.evaluate("window.innerWidth") == PHONE["width"], path
            assert page_width(tab) <= PHONE["width"], (path, page_width(tab))
            seen = texts(tab)
            if path == "/":  # the signs on the felt, the penalty and the question are checked
                assert any(t["cls"] == "suit red" and t["text"] == "♥" for t in seen), seen
                assert len([t for t in seen if t["tag"] == "text"]) >= 16  # 4 per card face
                assert tab.locator(".violation").count() >= 1
                assert tab.locator("#pending button.confirm-card").count() >= 2
                assert tab.locator(".config-findings").is_visible()
            if path == "/table":  # the revoke takes over the view, over the seats and cards
                assert tab.locator("#takeover").is_visible()
                assert any(t["cls"] == "takeover-who" for t in seen), seen
                assert len([t for t in seen if t["tag"] == "text"]) >= 8  # the evidence cards
            if path.startswith("/history"):  # the score chart's numbers on its white
                assert len([t for t in seen if t["tag"] == "text"]) >= 4
            assert len(seen) > 20, path
            assert low_contrast(tab) == [], (path, MINIMUM)
        assert found.blocked == []


@pytest.fixture
def club_app(tmp_path: Path) -> Iterator[tuple[FastAPI, list[str]]]:
    """The club server with two tables, a player and a tournament; every table counts as
    offline (it forwarded more than ``online_within_s`` = 0 s ago), so "offline" is shown."""
    settings = ClubSettings(
        database_url=str(tmp_path / "club.sqlite3"), admin_token="sesame", online_within_s=0.0
    )
    app = create_club_app(settings)
    with TestClient(app) as client:
        fill(client)
        assert client.get("/").text.count('class="off"') == 2
        yield app, page_paths(client)


def test_every_club_page_fits_a_phone_with_enough_contrast(
    club_app: tuple[FastAPI, list[str]],
) -> None:
    app, paths = club_app
    assert len(paths) == 11
    with browser_page(app, viewport=PHONE, mobile=True) as found:
        tab = found.tab
        for path in paths:
            tab.goto(found.url + path)
            assert tab.evaluate("window.innerWidth") == PHONE["width"], path  # the viewport tag
            assert page_width(tab) <= PHONE["width"], (path, page_width(tab))
            for table in tab.locator("table").all():
                box = table.bounding_box()
                assert box is not None and box["x"] + box["width"] <= PHONE["width"], path
            seen = texts(tab)
            assert len(seen) >= 8, path
            if path == "/":
                offline = [t for t in seen if t["cls"] == "off"]
                assert len(offline) == 2 and offline[0]["ratio"] >= MINIMUM, offline
            assert low_contrast(tab) == [], path
        assert found.blocked == []
