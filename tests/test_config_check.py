"""``kibic run`` says what the configuration cannot do with the game: at start on stderr and
on the dashboard (in a real browser), for the shipped example and for mended configurations."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from club.testing import REPO, free_port
from kibic.config import hash_password, load_config, parse_config
from kibic.config_check import Finding, FindingKind, check_config
from kibic.runtime import TableRuntime
from kibic.store import EventStore
from tests.browser_support import CHROMIUM, SKIP_REASON, browser_page, chromium_tab
from web.app import create_app

EXAMPLE = REPO / "deploy" / "table.example.toml"
GOOD_PINS = {"seats": [{"light": [2, 3, 4], "confirm": 17}, {"light": 14}, {"light": 7},
                       {"light": 9, "undo": 10}], "buzzer": 26, "active_high": True}  # fmt: skip


def kinds(found: list[Finding]) -> list[tuple[str, str]]:
    return [(f.kind.value, f.key) for f in found]


def test_the_shipped_example_is_told_what_cannot_work() -> None:
    found = check_config(load_config(EXAMPLE))
    assert kinds(found) == [
        ("no_admin_password", "web.admin_password_hash"),
        ("camera_deck_extra", "camera.deck"),  # french-52 for Ružička's 32 cards
    ]  # its pins are each used once
    assert found[1].facts == {"camera": "french-52", "game": "ruzicka", "deck": "piquet-32",
                              "count": "20", "cards": "2C 3C 4C"}  # fmt: skip


def _pin_twice() -> list[Finding]:
    """The findings on pins of a table whose score bar and a seat's undo share pin 5."""
    pins = {"bars": [[5, 6, 13, 19]], "seats": [*GOOD_PINS["seats"][:3], {"light": 9, "undo": 5}],
            "buzzer": 26}  # fmt: skip
    config = parse_config({"table": {"game": "ruzicka"}, "lights": {"kind": "gpio", "pins": pins},
                           "web": {"admin_password_hash": hash_password("x", rounds=100_000)}})  # fmt: skip
    return check_config(config)


def test_a_pin_used_twice_is_named_with_both_its_uses() -> None:
    found = _pin_twice()
    assert kinds(found) == [("pin_twice", "lights.pins.bars[0][0]")]
    assert found[0].message == (
        "lights.pins: GPIO pin 5 is used twice (lights.pins.bars[0][0], lights.pins.seats[3].undo)"
    )


def test_a_configuration_that_fits_the_game_has_no_findings() -> None:
    config = parse_config({
        "table": {"game": "ruzicka"},
        "camera": {"source": "synthetic", "deck": "german-32"},  # other faces, the same cards
        "lights": {"kind": "gpio", "pins": GOOD_PINS},
        "web": {"admin_password_hash": hash_password("x", rounds=100_000)},
    })  # fmt: skip
    assert check_config(config) == []


def test_a_camera_deck_short_of_the_games_cards() -> None:
    config = parse_config({"table": {"game": "ruzicka"}, "camera": {"source": "opencv",
                                                                    "deck": "cut-28"}})  # fmt: skip
    missing = [f for f in check_config(config) if f.kind is FindingKind.CAMERA_DECK_MISSING]
    assert [(f.facts["count"], f.facts["cards"]) for f in missing] == [("4", "7C 7D 7H")]
    no_camera = parse_config({"table": {"game": "ruzicka"}, "camera": {"deck": "cut-28"}})
    assert kinds(check_config(no_camera)) == [("no_admin_password", "web.admin_password_hash")]


def test_the_dashboard_shows_every_finding(tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        pytest.fail(SKIP_REASON)
    from playwright.sync_api import expect

    found = check_config(load_config(EXAMPLE)) + _pin_twice()
    runtime = TableRuntime(EventStore(":memory:", "sto-1"), table_id="sto-1", game="ruzicka")
    app = create_app(runtime, admin_password_hash="", findings=found)
    with browser_page(app) as browser:
        tab = browser.tab
        tab.goto(browser.url + "/?lang=en")
        items = tab.locator("#config-findings li")
        expect(items).to_have_count(3)
        expect(items.nth(0)).to_contain_text("No director's password is set")
        expect(items.nth(1)).to_have_text(
            "The camera's deck french-52 has 20 cards that ruzicka does not use (its deck is "
            "piquet-32; e.g. 2C 3C 4C): the camera would read cards that cannot be in play "
            "(camera.deck)."
        )
        expect(items.nth(2)).to_have_text(
            "GPIO pin 5 is used twice (lights.pins.bars[0][0], lights.pins.seats[3].undo)."
        )
        tab.goto(browser.url + "/summary")  # every page, in Serbian too
        expect(tab.locator("#config-findings h2")).to_have_text(
            "Podešavanje stola: ovo neće raditi"
        )
        assert browser.blocked == []
    runtime.close()


def test_kibic_run_says_it_at_start_and_on_the_dashboard(tmp_path: Path) -> None:
    """The shipped example, adapted only to run here (no camera, simulated lights, a free
    port): ``kibic run`` starts, warns on stderr, and its dashboard says the same."""
    if not CHROMIUM.exists():
        pytest.fail(SKIP_REASON)
    port = free_port()
    text = EXAMPLE.read_text(encoding="utf-8")
    for old, new in (('source = "picamera2"', 'source = "none"'), ('kind = "gpio"', 'kind = "sim"'),
                     ('host = "0.0.0.0"', 'host = "127.0.0.1"'), ("port = 8000", f"port = {port}"),
                     ("/var/lib/kibic/sto-1.sqlite3", str(tmp_path / "sto-1.sqlite3"))):  # fmt: skip
        assert old in text
        text = text.replace(old, new)
    config = tmp_path / "table.toml"
    config.write_text(text, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "kibic.cli", "run", str(config)], cwd=REPO,
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, "kibic run stopped"
            try:
                if httpx.get(url + "/api/state", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "kibic run did not serve its dashboard"
            time.sleep(0.2)
        with chromium_tab(url) as browser:
            browser.tab.goto(url + "/")
            found = browser.tab.locator("#config-findings li")
            assert found.count() == 1  # the example's camera and pins are not used here
            assert found.first.get_attribute("data-kind") == "no_admin_password"
            assert found.first.inner_text().startswith("Lozinka sudije nije postavljena")
            assert browser.blocked == []
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    assert err.splitlines()[0] == (
        "kibic: warning: web.admin_password_hash is empty: every director's action (undo, "
        "score correction, confirming a card) will be refused; set one with kibic hash-password"
    )
