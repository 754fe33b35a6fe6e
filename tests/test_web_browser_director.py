"""The director at the table's page, in a real browser: undo after a deal, camera questions,
errors shown beside the form that caused them. Every request off the machine is blocked."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kibic.runtime import TableRuntime
from referee.actions import Action
from referee.cards import Card
from tests.browser_support import CHROMIUM, SKIP_REASON, BrowserPage, dashboard_page
from tests.test_web_support import PASSWORD, legal_play, start_known_deal
from tests.test_web_support import runtime as runtime  # noqa: F401 - the fixture
from web.cards import card_text

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)

if CHROMIUM.exists():
    from playwright.sync_api import expect

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def browser(runtime: TableRuntime) -> Iterator[BrowserPage]:  # noqa: F811
    start_known_deal(runtime)
    with dashboard_page(runtime, viewport=PHONE) as found:
        yield found


def finish_deal(runtime: TableRuntime) -> None:  # noqa: F811
    while not runtime.deal.is_over:  # type: ignore[union-attr]
        runtime.submit(legal_play(runtime))


def test_undo_reaches_the_finished_deal_after_a_refused_confirmation(
    browser: BrowserPage,
    runtime: TableRuntime,  # noqa: F811
) -> None:
    tab = browser.tab
    finish_deal(runtime)
    runtime.request_confirmation(2, [Card.parse("AS"), Card.parse("AC")], [0.55, 0.4])
    tab.goto(browser.url + "/")
    expect(tab.locator("#live-status")).to_have_class("status ok")
    expect(tab.locator("#score-sheet tr.deal-row")).to_have_count(1)
    tab.fill("#admin-password", PASSWORD)

    # the camera's question answered after the last card: the referee refuses it ...
    tab.locator("#pending button.confirm-card").first.click()
    expect(tab.locator("#pending .form-result")).to_have_attribute("data-status", "409")
    # (in the page's language: Serbian)
    expect(tab.locator("#pending .form-result")).to_contain_text("sada se ne igra karta")
    expect(tab.locator("#deal-info")).to_contain_text("deljenje završeno")  # no new deal

    # ... and the last card of the finished deal can still be taken back
    tab.click("#undo-form button[type=submit]")
    expect(tab.locator("#undo-form .form-result")).to_have_attribute("data-status", "ok")
    expect(tab.locator("#score-sheet tr.deal-row")).to_have_count(0)
    expect(tab.locator("#trick")).to_have_attribute("data-plays", "3")
    expect(tab.locator("#trick")).to_have_attribute("data-number", "13")


def test_a_camera_question_is_answered_with_any_card_or_dismissed(
    browser: BrowserPage,
    runtime: TableRuntime,  # noqa: F811
) -> None:
    tab = browser.tab
    first = legal_play(runtime)
    play = Action.play(first.seat, runtime.deal.legal_plays()[-1])  # type: ignore[union-attr]
    assert play.card != runtime.game.deck.cards[0]  # not the card the list shows first
    held = sorted(runtime.deal.hands[play.seat])  # type: ignore[union-attr]
    wrong = [c for c in held if c != play.card][:2]  # the camera's guesses: both wrong
    asked = runtime.request_confirmation(play.seat, wrong, [0.5, 0.3])
    tab.goto(browser.url + "/?lang=en")
    expect(tab.locator("#live-status")).to_have_class("status ok")
    tab.fill("#admin-password", PASSWORD)
    question = tab.locator(f'#pending li[data-request="{asked}"]')
    expect(question.locator("select[name=card] option")).to_have_count(52)

    # the real card, from the deck's list: played, the question leaves, the log says so
    question.locator("select[name=card]").select_option(str(play.card))
    runtime.alert("camera: the light changed")  # the live part is drawn again meanwhile ...
    expect(tab.locator("#alerts")).to_contain_text("the light changed")
    expect(question.locator("select[name=card]")).to_have_value(str(play.card))  # ... kept
    question.locator("form.answer-form button[type=submit]").click()
    expect(tab.locator(f'#trick svg[data-card="{play.card}"]')).to_be_visible()
    expect(tab.locator("#pending")).to_have_count(0)
    name = runtime.names[play.seat]
    expect(tab.locator('#log li[data-kind="request_confirmed"]')).to_have_text(
        f"{name}: camera question answered — confirmed {card_text(str(play.card))}"
    )

    # a question whose card was entered by hand is dismissed by the director
    nxt = legal_play(runtime)
    second = runtime.request_confirmation(nxt.seat, [Card.parse("2C")], [0.4])
    runtime.submit(nxt)  # entered by hand
    question = tab.locator(f'#pending li[data-request="{second}"]')
    question.locator("button.dismiss").click()
    expect(tab.locator("#pending")).to_have_count(0)
    expect(tab.locator('#log li[data-kind="request_dismissed"]')).to_have_text(
        f"{runtime.names[nxt.seat]}: the director dismissed the camera question"
    )
    expect(tab.locator("#trick")).to_have_attribute("data-plays", "2")  # nothing else played


def test_an_admin_error_is_shown_beside_the_form_that_caused_it(
    browser: BrowserPage,
    runtime: TableRuntime,  # noqa: F811
) -> None:
    """On a phone the admin forms are far below the table: a 401 or 409 must appear where the
    director is looking, in the form that was sent, not in one line at the bottom."""
    tab = browser.tab
    tab.goto(browser.url + "/?lang=en")
    expect(tab.locator("#live-status")).to_have_class("status ok")
    adjust = tab.locator("#adjust-form")
    adjust.locator("input[name=reason]").fill("late")
    adjust.locator("button[type=submit]").click()  # no password
    said = adjust.locator(".form-result")
    expect(said).to_have_attribute("data-status", "401")
    expect(said).to_have_text("Wrong or missing password.")
    expect(said).to_be_in_viewport()
    expect(tab.locator("#action-form .form-result")).to_be_empty()  # not the other forms

    # a refusal (409) beside the action form, with the referee's reason
    tab.fill("#admin-password", PASSWORD)
    action = tab.locator("#action-form")
    seat = runtime.deal.to_act  # type: ignore[union-attr]
    action.locator("select[name=seat]").select_option(str((seat + 1) % 4))
    action.locator("select[name=type]").select_option("play")
    action.locator("input[name=card]").fill("AS")
    action.locator("button[type=submit]").click()
    said = action.locator(".form-result")
    expect(said).to_have_attribute("data-status", "409")
    expect(said).to_contain_text("Error 409: ")
    expect(said).to_be_in_viewport()
    expect(tab.locator("#adjust-form .form-result")).to_have_text("Wrong or missing password.")
