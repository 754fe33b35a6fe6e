"""Agreeing a deal on the table's page, in a real browser (every request off the machine
blocked): each side confirms the finished deal's score; until both have, the sheet marks it."""

from __future__ import annotations

import pytest

from kibic.runtime import TableRuntime
from tests.browser_support import CHROMIUM, SKIP_REASON, BrowserPage
from tests.test_deal_agreement import finish_deal
from tests.test_web_browser_director import browser as browser  # noqa: F401 - the fixture
from tests.test_web_support import runtime as runtime  # noqa: F401 - the fixture

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)

if CHROMIUM.exists():
    from playwright.sync_api import expect


def test_each_side_confirms_the_score_and_the_sheet_stops_marking_the_deal(
    browser: BrowserPage,
    runtime: TableRuntime,  # noqa: F811
) -> None:
    tab = browser.tab
    tab.goto(browser.url + "/?lang=en")
    expect(tab.locator("#live-status")).to_have_class("status ok")
    expect(tab.locator("#agree")).to_have_count(0)
    finish_deal(runtime)  # the last card: the page learns it live
    row = tab.locator('#score-sheet tr.deal-row[data-deal="1"]')
    expect(row).to_have_attribute("data-confirmed", "no")
    expect(row.locator(".unconfirmed")).to_have_text("unconfirmed")
    expect(tab.locator("#agree button.agree-deal")).to_have_count(2)

    # no password: the players confirm, one side after the other
    tab.locator('#agree button[data-side="B"]').click()
    expect(tab.locator('#agree .agreed[data-side="B"]')).to_have_text(
        "Side B (Bora & Duško) confirmed"
    )
    expect(row).to_have_attribute("data-confirmed", "no")  # one side is not enough
    assert [d["agreed"] for d in runtime.snapshot()["deals"]] == [["B"]]
    tab.locator('#agree button[data-side="A"]').click()
    expect(tab.locator("#agree")).to_have_count(0)
    expect(row).to_have_attribute("data-confirmed", "yes")
    expect(row.locator(".unconfirmed")).to_have_count(0)
    expect(tab.locator('#log li[data-kind="deal_agreed"]').first).to_have_text(
        "Side A (Ana & Ceca) confirms the score of deal 1"
    )
    assert runtime.snapshot()["deals"][0]["confirmed"] is True


def test_the_sheet_says_unconfirmed_in_serbian(
    browser: BrowserPage,
    runtime: TableRuntime,  # noqa: F811
) -> None:
    finish_deal(runtime)
    tab = browser.tab
    tab.goto(browser.url + "/")
    expect(tab.locator('#score-sheet tr.deal-row[data-deal="1"] .unconfirmed')).to_have_text(
        "nepotvrđeno"
    )
    expect(tab.locator('#agree button[data-side="A"]')).to_have_text(
        "Strana A (Ana & Ceca) potvrđuje"
    )
