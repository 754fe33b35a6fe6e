"""The director logs in once in a real browser (Debian's Chromium), then answers the camera's
question and undoes without typing the password again; logging out asks for it again. Every
request off the machine is blocked."""

from __future__ import annotations

import re

import pytest

from kibic.runtime import TableRuntime
from tests.browser_support import CHROMIUM, SKIP_REASON, dashboard_page
from tests.page_checks import MINIMUM, low_contrast, page_width
from tests.test_web_support import PASSWORD, legal_play, start_known_deal
from tests.test_web_support import runtime as runtime  # noqa: F401 - the fixture

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)

if CHROMIUM.exists():
    from playwright.sync_api import expect

PHONE = {"width": 390, "height": 844}


def test_logged_in_the_director_confirms_a_card_without_the_password(
    runtime: TableRuntime,  # noqa: F811
) -> None:
    start_known_deal(runtime)
    play = legal_play(runtime)
    other = next(c for c in runtime.game.deck.cards if c != play.card)
    asked = runtime.request_confirmation(play.seat, [play.card, other], [0.6, 0.3])
    with dashboard_page(runtime, viewport=PHONE) as browser:
        tab = browser.tab
        tab.goto(browser.url + "/?lang=en")
        expect(tab.locator("#live-status")).to_have_class("status ok")
        tab.fill("#admin-password", PASSWORD)
        with tab.expect_navigation():  # the login form: back on the same page
            tab.press("#admin-password", "Enter")
        expect(tab.locator("#logout-form")).to_contain_text("You are logged in as the director")
        expect(tab.locator("#admin-password")).to_have_count(0)
        assert tab.url == browser.url + "/?lang=en"
        assert tab.evaluate("document.cookie") == ""  # HttpOnly: no script reads the session

        question = tab.locator(f'#pending li[data-request="{asked}"]')
        question.locator(f'button.confirm-card[data-card="{play.card}"]').click()
        expect(tab.locator(f'#trick svg[data-card="{play.card}"]')).to_be_visible()
        expect(tab.locator("#pending")).to_have_count(0)
        assert runtime.snapshot()["deal"]["trick"]["plays"] == [[play.seat, str(play.card)]]
        tab.click("#undo-form button[type=submit]")  # a form of the admin panel, no password
        expect(tab.locator("#undo-form .form-result")).to_have_attribute("data-status", "ok")
        expect(tab.locator("#trick")).to_have_attribute("data-plays", "0")

        tab.click("#logout-form button[type=submit]")
        expect(tab.locator("#admin-password")).to_be_visible()
        tab.click("#undo-form button[type=submit]")
        expect(tab.locator("#undo-form .form-result")).to_have_attribute("data-status", "401")


def test_the_login_page_says_how_long_to_wait_on_a_phone(
    runtime: TableRuntime,  # noqa: F811
) -> None:
    start_known_deal(runtime)
    with dashboard_page(runtime, viewport=PHONE, mobile=True) as browser:
        tab = browser.tab
        tab.goto(browser.url + "/login?lang=en")
        said = tab.locator("#login-message")
        for n in range(1, 7):
            tab.fill("#admin-password", f"guess-{n}")
            with tab.expect_navigation():  # the form's answer is a new page
                tab.press("#admin-password", "Enter")
            expect(said).to_contain_text("Wrong password." if n < 6 else "Too many")
        expect(said).to_have_attribute("data-status", "429")
        expect(said).to_have_text(
            re.compile(r"^Too many wrong passwords: wait [12] s before the next try\.$")
        )
        assert page_width(tab) <= PHONE["width"]
        assert low_contrast(tab) == [], MINIMUM
