"""Calling the director from the table's page, in a real browser (every request off the
machine blocked): the call shows on every open dashboard and the seat's light blinks until
the director answers it with the table's password."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from firmware_bridge.lights import NullLights
from firmware_bridge.patterns import Pattern
from kibic.lights import LightsSink
from kibic.runtime import TableRuntime
from kibic.store import EventStore
from tests.browser_support import CHROMIUM, SKIP_REASON, BrowserPage, dashboard_page
from tests.test_web_support import NAMES, PASSWORD, start_known_deal

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)

if CHROMIUM.exists():
    from playwright.sync_api import expect

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def lights() -> NullLights:
    return NullLights(seats=4, sides=2)


@pytest.fixture
def table(lights: NullLights) -> Iterator[TableRuntime]:
    runtime = TableRuntime(EventStore(":memory:", "sto-1"), table_id="sto-1", names=NAMES,
                           sinks=[LightsSink(lights, seats=4)])  # fmt: skip
    start_known_deal(runtime)
    try:
        yield runtime
    finally:
        runtime.close()


@pytest.fixture
def browser(table: TableRuntime) -> Iterator[BrowserPage]:
    with dashboard_page(table, viewport=PHONE) as found:
        yield found


def test_the_button_calls_the_director_and_his_answer_clears_the_call(
    browser: BrowserPage, table: TableRuntime, lights: NullLights
) -> None:
    tab = browser.tab
    tab.goto(browser.url + "/?lang=en")
    expect(tab.locator("#live-status")).to_have_class("status ok")
    expect(tab.locator("#director-calls")).to_have_count(0)

    # anyone at the table may call: no password
    form = tab.locator("#call-form")
    form.locator("select[name=seat]").select_option("2")
    form.locator("button[type=submit]").click()
    expect(form.locator(".form-result")).to_have_text("The director has been called.")
    call = tab.locator("#director-calls li")
    expect(call).to_have_count(1)
    expect(call).to_have_attribute("data-seat", "2")
    expect(call.locator("strong")).to_have_text("The director is called by Ceca")
    expect(tab.locator('#log li[data-kind="director_called"]')).to_have_text(
        "Director called by Ceca"
    )
    assert lights.patterns[2] is Pattern.DIRECTOR_CALL
    assert [c["seat"] for c in table.snapshot()["calls"]] == [2]

    # the director's answer needs the password: without it the call stays, with the 401 beside
    call.locator("button.answer-call").click()
    expect(call.locator(".form-result")).to_have_attribute("data-status", "401")
    expect(call.locator(".form-result")).to_be_in_viewport()
    assert table.snapshot()["calls"] != []
    tab.fill("#admin-password", PASSWORD)
    tab.locator("#director-calls button.answer-call").click()
    expect(tab.locator("#director-calls")).to_have_count(0)
    expect(tab.locator('#log li[data-kind="director_answered"]')).to_have_text(
        "The director answered the call of Ceca"
    )
    assert lights.patterns[2] is not Pattern.DIRECTOR_CALL
    assert table.snapshot()["calls"] == []


def test_a_long_press_shows_on_an_open_page_in_serbian(
    browser: BrowserPage, table: TableRuntime
) -> None:
    tab = browser.tab
    tab.goto(browser.url + "/")
    expect(tab.locator("#live-status")).to_have_class("status ok")
    expect(tab.locator("#call-form button[type=submit]")).to_have_text("Pozovi sudiju")
    table.call_director(0, source="seat 0 button")  # what a held seat button does
    expect(tab.locator("#director-calls li strong")).to_have_text("Sudiju zove: Ana")
    table.call_director(None)
    expect(tab.locator("#director-calls li")).to_have_count(2)
    expect(tab.locator("#director-calls li").nth(1)).to_contain_text("Sudiju zove: ceo sto")
