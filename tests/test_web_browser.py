"""The dashboard in a real headless browser (Debian's chromium driven by Playwright).

A demo game of Veliki Satir with known hands is driven through the runtime from the test; the
page must show each card and the score as they change, without reloading, and the director's
form must be refused without the password and accepted with it.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kibic.runtime import TableRuntime
from tests.browser_support import CHROMIUM, SKIP_REASON, dashboard_page
from tests.test_web_support import PASSWORD, legal_play, start_known_deal
from tests.test_web_support import runtime as runtime  # noqa: F401 - the fixture
from web.server import BackgroundServer

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)

if CHROMIUM.exists():
    from playwright.sync_api import Page, expect
else:  # pragma: no cover - the module is skipped
    Page = object  # type: ignore[assignment,misc]


@pytest.fixture
def page(runtime: TableRuntime) -> Iterator[tuple[Page, BackgroundServer]]:  # noqa: F811
    """The table's app in Chromium; every request off the machine is blocked, and fails."""
    start_known_deal(runtime)
    with dashboard_page(runtime) as found:
        assert found.server is not None
        yield found.tab, found.server


def total(tab: Page, side: str) -> str:
    return tab.locator(f'#sheet-totals td.total[data-side="{side}"]').inner_text().strip()


def test_dashboard_follows_the_game_live(
    page: tuple[Page, BackgroundServer],
    runtime: TableRuntime,  # noqa: F811
) -> None:
    tab, server = page
    tab.goto(server.url + "/")
    expect(tab.locator("#live-status")).to_have_class("status ok")  # EventSource connected
    expect(tab.locator("#trick")).to_have_attribute("data-plays", "0")
    tab.evaluate("window.kibicNoReload = 42")  # survives only if the page is never reloaded

    # a card played at the table appears in the current trick
    first = legal_play(runtime)
    runtime.submit(first)
    expect(tab.locator(f'#trick svg[data-card="{first.card}"]')).to_be_visible()
    expect(tab.locator("#to-act")).to_have_text("Bora")

    # the director's form: refused without the password, nothing changes
    second = legal_play(runtime)
    tab.select_option("#action-form select[name=seat]", str(second.seat))
    tab.select_option("#action-form select[name=type]", "play")
    tab.fill("#action-form input[name=card]", str(second.card))
    tab.click("#action-form button[type=submit]")
    expect(tab.locator("#action-form .form-result")).to_have_attribute("data-status", "401")
    expect(tab.locator("#action-form .form-result")).to_have_text(
        "Pogrešna ili nedostajuća lozinka."
    )
    expect(tab.locator("#trick")).to_have_attribute("data-plays", "1")

    # ... and accepted with it: the card reaches the referee and comes back over the feed
    tab.fill("#admin-password", PASSWORD)
    tab.click("#action-form button[type=submit]")
    expect(tab.locator("#action-form .form-result")).to_have_attribute("data-status", "ok")
    expect(tab.locator(f'#trick svg[data-card="{second.card}"]')).to_be_visible()
    expect(tab.locator("#trick")).to_have_attribute("data-plays", "2")

    # the rest of the deal at the table: the last trick and then the score sheet change
    assert total(tab, "A") == "0.0" and total(tab, "B") == "0.0"
    deal = runtime.deal
    assert deal is not None
    while not deal.is_over:
        runtime.submit(legal_play(runtime))
    totals = runtime.snapshot()["match"]["totals"]
    assert totals != {"A": "0.0", "B": "0.0"}
    for side in ("A", "B"):
        expect(tab.locator(f'#sheet-totals td.total[data-side="{side}"]')).to_have_text(
            totals[side]
        )
    expect(tab.locator("#score-sheet tr.deal-row")).to_have_count(1)
    expect(tab.locator("#last-trick")).to_have_attribute("data-number", "13")

    # a score correction with the password goes on the sheet live
    tab.select_option("#adjust-form select[name=side]", "B")
    tab.fill("#adjust-form input[name=units]", "15")
    tab.fill("#adjust-form input[name=reason]", "kasnio")
    tab.click("#adjust-form button[type=submit]")
    expect(tab.locator("#score-sheet tr.deal-row")).to_have_count(2)
    expect(tab.locator("#sheet-totals td.total[data-side=B]")).to_have_text(
        runtime.snapshot()["match"]["totals"]["B"]
    )
    assert tab.evaluate("window.kibicNoReload") == 42


def test_english_page_in_the_browser(
    page: tuple[Page, BackgroundServer],
) -> None:
    tab, server = page
    tab.goto(server.url + "/?lang=en")
    expect(tab.locator("#live-status")).to_have_text("live")
    expect(tab.locator("#trick h2")).to_have_text("Current trick: Trick 1")
    tab.click("text=Srpski")
    expect(tab.locator("#trick h2")).to_have_text("Tekući štih: Štih 1")


def test_the_camera_line_follows_the_camera_live(
    page: tuple[Page, BackgroundServer],
    runtime: TableRuntime,  # noqa: F811
) -> None:
    """A camera's status comes without a new seq: the page still shows it, and its change."""
    tab, server = page
    tab.goto(server.url + "/?lang=en")
    expect(tab.locator("#live-status")).to_have_class("status ok")
    expect(tab.locator("#camera-status")).to_have_count(0)
    status = {"source": "camera:0", "deck": "piquet-32", "calibrated": False,
              "profile": {"enrolled": 32, "of": 32, "learnt": 0, "saved": True}}  # fmt: skip
    runtime.set_camera_status(status)
    expect(tab.locator("#camera-status")).to_have_text(
        "Waiting for the mat's markers · deck piquet-32 · knows 32 of 32 cards "
        "(0 learnt from confirmations)"
    )
    runtime.set_camera_status({**status, "calibrated": True})
    expect(tab.locator("#camera-status")).to_contain_text("Table calibrated · deck piquet-32")


def test_the_pages_run_under_the_content_security_policy(
    page: tuple[Page, BackgroundServer],
) -> None:
    """The dashboard and the API docs work in a browser that enforces the app's CSP: no
    violation reported, the live feed connects, the docs page's inline start-up script runs
    (Swagger UI draws the operations into #swagger-ui)."""
    tab, server = page
    refused: list[str] = []
    tab.on("console", lambda message: refused.append(message.text))
    tab.evaluate("0")  # the listener is attached before the first page loads
    tab.goto(server.url + "/")
    expect(tab.locator("#live-status")).to_have_class("status ok")
    tab.goto(server.url + "/history")
    tab.goto(server.url + "/docs")
    expect(tab.locator('#swagger-ui .opblock-summary-path[data-path="/api/state"]')).to_be_visible()
    assert [text for text in refused if "Content Security Policy" in text] == []
