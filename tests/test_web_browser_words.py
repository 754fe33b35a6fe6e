"""What the referee says, in the page's language, in a real browser: a proven revoke's evidence
and the score sheet's detail on the Serbian table page, and a refusal (409) of the admin form
beside the form, in Serbian."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kibic.runtime import TableRuntime
from referee.actions import Action
from tests.browser_support import CHROMIUM, SKIP_REASON, BrowserPage, dashboard_page
from tests.test_web_support import (
    PASSWORD,
    illegal_play,
    legal_play,
    new_runtime,
    start_known_deal,
)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)

if CHROMIUM.exists():
    from playwright.sync_api import expect


@pytest.fixture
def revoked() -> Iterator[tuple[TableRuntime, Action]]:
    """Veliki Satir with known hands: play on until the seat to act holds a card it may not
    play, then play it (the revoke is proven at once by the known hand; the deal stops)."""
    runtime = new_runtime()
    start_known_deal(runtime)
    action = illegal_play(runtime)
    while action is None:
        runtime.submit(legal_play(runtime))
        action = illegal_play(runtime)
    runtime.submit(action)
    assert runtime.finished and runtime.finished[-1]["violations"]
    try:
        yield runtime, action
    finally:
        runtime.close()


@pytest.fixture
def browser(revoked: tuple[TableRuntime, Action]) -> Iterator[BrowserPage]:
    with dashboard_page(revoked[0]) as found:
        yield found


def test_a_serbian_table_page_shows_a_proven_revoke_in_serbian(
    browser: BrowserPage, revoked: tuple[TableRuntime, Action]
) -> None:
    runtime, action = revoked
    violation = runtime.finished[-1]["violations"][0]
    held = violation["witness"]
    assert violation["code"] == "revoke.known_hand"
    assert "while holding" in violation["evidence"]  # the English text is kept as it was
    name = runtime.names[action.seat]
    tab = browser.tab
    tab.goto(browser.url + "/")  # Serbian: the table's language
    evidence = tab.locator("#penalties .evidence").first
    expect(evidence).to_contain_text("Dokaz:")
    expect(evidence).to_contain_text(f"{name} (mesto {action.seat}) je odigrao")
    expect(evidence).to_contain_text("iako je držao")
    expect(evidence).to_contain_text("(poznata ruka)")
    text = evidence.inner_text()
    for english in ("seat", "played", "while holding", "known hand"):
        assert english not in text, text
    assert held[-1] in "CDHS" and "♣♦♥♠"["CDHS".index(held[-1])] in text  # 10♦, not TD
    # the score sheet's detail column and the log speak Serbian too
    detail = tab.locator("#score-sheet tr.deal-row td.detail").first
    expect(detail).to_contain_text("deljenje prekinuto, kazna")
    expect(detail).not_to_contain_text("deal stopped")
    expect(tab.locator("#log")).to_contain_text("Prekršaj dokazan")

    # the English page words the same facts in English
    tab.goto(browser.url + "/?lang=en")
    evidence = tab.locator("#penalties .evidence").first
    expect(evidence).to_contain_text(f"seat {action.seat} ({name}) played")
    expect(evidence).to_contain_text("(known hand)")


def test_a_refusal_of_the_admin_form_is_shown_in_serbian_beside_it(browser: BrowserPage) -> None:
    tab = browser.tab
    tab.goto(browser.url + "/")
    # the action types of the form are named in Serbian
    expect(tab.locator('#action-form select[name="type"] option[value="play"]')).to_have_text(
        "igra"
    )
    tab.fill("#admin-password", PASSWORD)
    # the deal is over: a card would open the next one, whose deal type is not declared yet
    tab.select_option('#action-form select[name="seat"]', "2")
    tab.select_option('#action-form select[name="type"]', "play")
    tab.fill('#action-form input[name="card"]', "AS")
    tab.click("#action-form button[type=submit]")
    result = tab.locator("#action-form .form-result")
    expect(result).to_have_attribute("data-status", "409")
    expect(result).to_have_text(
        "Greška 409: mesto 2 igra A♠: sada se ne igra karta (faza: priprema)"
    )
    assert "no card can be played" not in result.inner_text()
