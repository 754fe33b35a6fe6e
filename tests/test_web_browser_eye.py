"""The camera's eye in a real browser: a camera question shows the camera's picture beside
its three readings, and tapping one answers it; a misread card of a trick is corrected from
the picker (no typing), the referee's score follows, and the correction survives a restart of
the table service. Every request off the machine is blocked."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kibic.runtime import TableRuntime
from kibic.store import EventStore
from referee.actions import Action, ActionType
from referee.cards import Deck
from tests.browser_support import CHROMIUM, SKIP_REASON, dashboard_page
from tests.page_checks import MINIMUM, low_contrast, page_width
from tests.test_camera_eye import _picture
from tests.test_web_support import NAMES, PASSWORD, illegal_play, known_hands, legal_play
from vision.recognizer import Recognizer
from vision.synthetic import SyntheticTable
from vision.tracker import CardTracker, TrackerConfig

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)

if CHROMIUM.exists():
    from playwright.sync_api import expect

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}


def _open(path: Path) -> TableRuntime:
    return TableRuntime(EventStore(path, "sto-1"), table_id="sto-1", names=NAMES)


def _known_deal(runtime: TableRuntime) -> None:
    runtime.start_deal(hands=known_hands(), dealer=3)
    runtime.submit(Action(0, ActionType.CONTRACT, value="zatvoreno"))


def test_a_camera_question_shows_the_crop_and_three_cards_to_tap(tmp_path: Path) -> None:
    runtime = _open(tmp_path / "kibic.sqlite")
    _known_deal(runtime)
    play = legal_play(runtime)
    assert play.card is not None
    # the camera, unsure of every card, asks about the card the seat lays down
    table = SyntheticTable([(0, play.card)], n_seats=4, deck=Deck.FRENCH_52, seed=5, fast=True)
    tracker = CardTracker(Recognizer(), table.calibration, deck=Deck.FRENCH_52,
                          config=TrackerConfig(min_confidence=1.01))  # fmt: skip
    (asked,) = [event for frame in table for event in tracker.process(frame)]
    assert len(asked.candidates) == 3 and asked.candidates[0] == play.card
    request = runtime.request_confirmation(
        play.seat, asked.candidates, asked.confidences, crop=asked.crop
    )
    with dashboard_page(runtime, viewport=PHONE) as found:
        tab = found.tab
        tab.goto(found.url + "/?lang=en")
        expect(tab.locator("#live-status")).to_have_class("status ok")
        question = tab.locator(f'#pending li[data-request="{request}"]')
        picture = question.locator("img.crop-img")
        expect(picture).to_be_visible()
        # loaded (a property the page's scripts can read: no script evaluated in the page,
        # which its Content-Security-Policy forbids; a polled predicate would be one)
        expect(picture).to_have_js_property("complete", True)
        assert picture.evaluate("img => img.naturalWidth") > 0
        assert picture.evaluate("img => [img.naturalWidth, img.naturalHeight]") == [64, 96]
        cards = question.locator("button.confirm-card")
        expect(cards).to_have_count(3)
        assert [cards.nth(i).get_attribute("data-card") for i in range(3)] == [
            c.code for c in asked.candidates
        ]
        tab.fill("#admin-password", PASSWORD)
        cards.first.focus()  # by keyboard
        tab.keyboard.press("Enter")
        expect(tab.locator("#pending")).to_have_count(0)
        expect(tab.locator("#trick figure.play")).to_have_count(1)
        expect(tab.locator("#trick figure.play button.played-card")).to_have_attribute(
            "data-card", play.card.code
        )
        expect(tab.locator("#log")).to_contain_text("camera question answered")
    # the answer went through the log, and its play keeps the picture
    assert [e.kind for e in runtime.store.entries()][-3:] == ["pending", "action", "resolved"]
    assert runtime.snapshot()["crops"] == {play.card.code: runtime.snapshot()["crops"][
        play.card.code]}  # fmt: skip
    assert runtime.crop(runtime.snapshot()["crops"][play.card.code]) == (asked.crop, "image/jpeg")
    runtime.close()


def test_a_misread_card_is_corrected_from_the_picker_and_survives_a_restart(
    tmp_path: Path,
) -> None:
    path = tmp_path / "kibic.sqlite"
    runtime = _open(path)
    _known_deal(runtime)
    for _ in range(3):
        runtime.submit(legal_play(runtime))
    real = illegal_play(runtime)  # what the fourth seat really played: a revoke
    misread = legal_play(runtime)  # what the camera read: a card that follows suit
    assert real is not None and real.card is not None and misread.card is not None
    runtime.on_sighting(misread.seat, misread.card, crop=_picture(11))
    assert not runtime.finished  # as read, no revoke, no score yet

    # what the referee says of the deal with the right card
    truth = TableRuntime(EventStore(":memory:", "t"), table_id="t", names=NAMES)
    truth.start_deal(hands=known_hands(), dealer=3)
    for action in runtime.deal.actions[:-1]:  # type: ignore[union-attr]
        truth.submit(action)
    truth.submit(real)
    totals = truth.snapshot()["match"]["totals"]
    truth.close()
    assert any(totals.values())  # the revoke's penalty is on the sheet

    with dashboard_page(runtime, viewport=LAPTOP) as found:
        tab = found.tab
        tab.goto(found.url + "/table?lang=en")
        expect(tab.locator("#live-status")).to_have_class("status ok")
        card = tab.locator(f'.tv-seat[data-seat="{misread.seat}"] button.played-card')
        expect(card).to_have_attribute("data-card", misread.card.code)
        card.focus()  # by keyboard
        tab.keyboard.press("Enter")
        picker = tab.locator("#picker")
        expect(picker).to_be_visible()
        picture_el = picker.locator("img.crop-img")
        expect(picture_el).to_be_visible()
        expect(picture_el).to_have_js_property("complete", True)  # loaded (as above)
        assert picture_el.evaluate("img => img.naturalWidth") == 64
        expect(picker.locator("button.pick-card")).to_have_count(52)
        tab.fill("#admin-password", PASSWORD)  # this page has no director's panel
        picker.locator(f'button.pick-card[data-card="{real.card.code}"]').click()
        expect(picker).to_be_hidden()
        for side, total in totals.items():
            expect(tab.locator(f'.tv-score[data-side="{side}"] .tv-total')).to_have_text(str(total))
        expect(tab.locator(f'.tv-seat[data-seat="{real.seat}"]')).to_have_attribute(
            "data-card", real.card.code
        )
        # the revoke the right card makes is proven: the seat is marked
        expect(tab.locator(f'.tv-seat[data-seat="{real.seat}"]')).to_have_class(
            re.compile(r"\bmarked\b")
        )
    entries = runtime.store.entries()
    assert entries[-1].kind == "corrected" and entries[-1].payload["source"] == "director"
    runtime.close()

    # the table service restarts from the same store: the correction is replayed
    again = _open(path)
    with dashboard_page(again, viewport=LAPTOP) as found:
        tab = found.tab
        tab.goto(found.url + "/?lang=en")
        expect(tab.locator("#live-status")).to_have_class("status ok")
        expect(tab.locator("#score-sheet tr.deal-row")).to_have_count(1)
        for side, total in totals.items():
            expect(tab.locator(f'#sheet-totals td.total[data-side="{side}"]')).to_have_text(
                str(total)
            )
        expect(tab.locator("#log")).to_contain_text(
            f"Corrected (director): {NAMES[real.seat]} played"
        )
        shown = tab.locator(f'#live .trick button.played-card[data-card="{real.card.code}"]')
        expect(shown).to_have_attribute("data-crop", again.snapshot()["crops"][real.card.code])
        shown.click()
        expect(tab.locator("#picker img.crop-img")).to_be_visible()
        tab.keyboard.press("Escape")
        expect(tab.locator("#picker")).to_be_hidden()
    again.close()


@pytest.mark.parametrize("path", ["/table", "/?lang=en"])
def test_the_picker_is_readable_and_fits_a_phone(tmp_path: Path, path: str) -> None:
    runtime = _open(tmp_path / "kibic.sqlite")
    _known_deal(runtime)
    play = legal_play(runtime)
    assert play.card is not None
    runtime.on_sighting(play.seat, play.card, crop=_picture(12))
    hand = legal_play(runtime)
    runtime.submit(hand)  # entered by hand: no picture
    with dashboard_page(runtime, viewport=PHONE, mobile=True) as found:
        tab = found.tab
        tab.goto(found.url + path)
        expect(tab.locator("#live-status")).to_have_class("status ok")
        tab.locator(f'button.played-card[data-card="{play.card.code}"]').click()
        picker = tab.locator("#picker")
        expect(picker).to_be_visible()
        expect(picker.locator("img.crop-img")).to_be_visible()
        expect(picker.locator(".crop-none")).to_be_hidden()
        expect(picker.locator("button.pick-card[aria-current=true]")).to_have_attribute(
            "data-card", play.card.code
        )
        assert page_width(tab) <= PHONE["width"]
        box = picker.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert low_contrast(tab) == [], MINIMUM
        tab.keyboard.press("Escape")  # closed by keyboard, back on the card that opened it
        expect(picker).to_be_hidden()
        assert tab.evaluate("document.activeElement.dataset.card") == play.card.code
        # a card entered by hand has no picture, and the picker says so
        tab.locator(f'button.played-card[data-card="{hand.card.code}"]').click()  # type: ignore[union-attr]
        expect(picker.locator(".crop-none")).to_be_visible()
        expect(picker.locator("img.crop-img")).to_be_hidden()
        assert low_contrast(tab) == [], MINIMUM
    runtime.close()


def test_logged_in_the_director_corrects_from_the_table_view_without_the_password(
    tmp_path: Path,
) -> None:
    runtime = _open(tmp_path / "kibic.sqlite")
    _known_deal(runtime)
    play = legal_play(runtime)
    assert play.card is not None
    runtime.on_sighting(play.seat, play.card, crop=_picture(13))
    right = sorted(c for c in runtime.deal.hands[play.seat] if c != play.card)[0]  # type: ignore[union-attr]
    with dashboard_page(runtime, viewport=PHONE, mobile=True) as found:
        tab = found.tab
        tab.goto(found.url + "/table?lang=en")
        expect(tab.locator("#live-status")).to_have_class("status ok")
        tab.locator("button.played-card").click()
        tab.fill("#picker #admin-password", PASSWORD)  # the picker carries the login
        with tab.expect_navigation():  # logged in: back on the table view
            tab.press("#picker #admin-password", "Enter")
        assert tab.url == found.url + "/table?lang=en"
        expect(tab.locator("#live-status")).to_have_class("status ok")
        tab.locator("button.played-card").click()
        expect(tab.locator("#picker #admin-password")).to_have_count(0)
        tab.locator(f'#picker button.pick-card[data-card="{right.code}"]').click()
        expect(tab.locator("#picker")).to_be_hidden()
        expect(tab.locator("button.played-card")).to_have_attribute("data-card", right.code)
    assert runtime.deal is not None and runtime.deal.actions[-1].card == right
    runtime.close()
