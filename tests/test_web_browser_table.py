"""The table view, phones and the replay in Debian's Chromium: the cards of a scripted game at
the right seats after each play, a proven revoke taking over the view (named, told to screen
readers, closed by keyboard, marked on the seat), which start page a device gets, no page wider
than a phone or a laptop, and a deal replayed trick by trick by keyboard."""

from __future__ import annotations

from typing import Any

import pytest

from kibic.runtime import TableRuntime
from referee.actions import Action, ActionType
from tests.browser_support import CHROMIUM, SKIP_REASON, dashboard_page
from tests.page_checks import low_contrast, page_width
from tests.test_web_support import (
    NAMES,
    illegal_play,
    known_hands,
    legal_play,
    start_known_deal,
)
from tests.test_web_support import runtime as runtime  # noqa: F401 - the fixture
from tests.test_web_table_view import play_deals
from web.cards import card_text

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)

if CHROMIUM.exists():
    from playwright.sync_api import expect

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}
TABLET = {"width": 1280, "height": 800}  # a 10-inch tablet held landscape
TV = {"width": 1920, "height": 1080}  # a club's television, 1080 lines
TV_720 = {"width": 1280, "height": 720}  # a smaller one, 720 lines

CARDS_JS = """() => Object.fromEntries(
  Array.from(document.querySelectorAll('#live .tv-seat'))
    .filter((seat) => seat.querySelector('svg.card'))
    .map((seat) => [seat.dataset.seat, seat.querySelector('svg.card').dataset.card]))"""


def cards_at_seats(tab: Any) -> dict[int, str]:
    return {int(s): c for s, c in tab.evaluate(CARDS_JS).items()}


def on_the_felt(runtime: TableRuntime) -> dict[int, str]:  # noqa: F811
    """What a real table shows: the current trick's cards, or the last trick's until a lead."""
    deal = runtime.snapshot()["deal"]
    plays = deal["trick"]["plays"] or (deal["tricks"][-1]["plays"] if deal["tricks"] else [])
    return {seat: code for seat, code in plays}


def wait_for_cards(tab: Any, wanted: dict[int, str]) -> None:
    expect(tab.locator("#live .tv-seat svg.card")).to_have_count(len(wanted))
    for seat, code in wanted.items():
        expect(tab.locator(f'#live .tv-seat[data-seat="{seat}"] svg.card')).to_have_attribute(
            "data-card", code
        )
    assert cards_at_seats(tab) == wanted


def test_the_table_view_shows_each_play_at_its_seat(runtime: TableRuntime) -> None:  # noqa: F811
    start_known_deal(runtime)
    with dashboard_page(runtime, viewport=TABLET) as found:
        tab = found.tab
        tab.goto(found.url + "/table")
        expect(tab.locator("#live-status")).to_have_class("status ok")
        assert cards_at_seats(tab) == {}
        for _ in range(9):  # two whole tricks and the lead of the third
            runtime.submit(legal_play(runtime))
            wait_for_cards(tab, on_the_felt(runtime))
            to_act = runtime.deal.to_act  # type: ignore[union-attr]
            expect(tab.locator("#live .tv-seat.to-act")).to_have_attribute("data-seat", str(to_act))
        # the cards lie in front of their seats: between each seat's plate and the centre
        runtime.submit(legal_play(runtime))
        runtime.submit(legal_play(runtime))
        runtime.submit(legal_play(runtime))
        wait_for_cards(tab, on_the_felt(runtime))
        centre = tab.locator(".tv-centre").bounding_box()
        assert centre is not None
        mid_x, mid_y = centre["x"] + centre["width"] / 2, centre["y"] + centre["height"] / 2
        for seat, (axis, sign) in {0: ("y", 1), 1: ("x", 1), 2: ("y", -1), 3: ("x", -1)}.items():
            plate = tab.locator(f'.tv-seat[data-seat="{seat}"] .tv-plate').bounding_box()
            card = tab.locator(f'.tv-seat[data-seat="{seat}"] svg.card').bounding_box()
            assert plate is not None and card is not None
            mid = mid_y if axis == "y" else mid_x
            size = "height" if axis == "y" else "width"
            plate_c, card_c = plate[axis] + plate[size] / 2, card[axis] + card[size] / 2
            assert sign * (plate_c - mid) > sign * (card_c - mid) > 0, (seat, plate, card)
        # each side's score is readable from two metres (letters of 1/200 of the distance: 1 cm)
        # on a 10-inch tablet: 1280 CSS px across its 217 mm, a digit 0.72 of the font size
        size = tab.eval_on_selector(".tv-total", "el => parseFloat(getComputedStyle(el).fontSize)")
        assert size * 0.72 * 217 / TABLET["width"] >= 10, size
        assert low_contrast(tab) == []


def test_a_proven_revoke_takes_over_the_table_view(runtime: TableRuntime) -> None:  # noqa: F811
    start_known_deal(runtime)
    for _ in range(6):
        runtime.submit(legal_play(runtime))
    with dashboard_page(runtime, viewport=DESKTOP) as found:
        tab = found.tab
        tab.goto(found.url + "/table")
        expect(tab.locator("#live-status")).to_have_class("status ok")
        expect(tab.locator("#takeover")).to_have_count(0)
        revoke = illegal_play(runtime)
        assert revoke is not None
        runtime.submit(revoke)
        name = NAMES[revoke.seat]
        takeover = tab.locator("#takeover")
        expect(takeover).to_be_visible()
        expect(takeover.locator(".takeover-who")).to_have_text(f"{name}: nije odgovorio na boju")
        expect(takeover.locator('[data-role="played"] svg.card')).to_have_attribute(
            "data-card", str(revoke.card)
        )
        expect(takeover.locator('[data-role="witness"] svg.card')).to_have_count(1)
        expect(tab.locator("#announcer")).to_contain_text(f"{name}: nije odgovorio na boju")
        # the evidence in the table's language, the seat named (not the stored English text)
        expect(takeover.locator(".takeover-evidence")).to_contain_text(
            f"Dokaz: {name} (mesto {revoke.seat}) je odigrao {card_text(str(revoke.card))}"
        )
        box = takeover.bounding_box()
        assert box is not None and box["width"] == DESKTOP["width"]  # the whole view
        assert low_contrast(tab) == []
        # the keyboard closes it (its button has the focus); the seat keeps its mark
        expect(takeover.locator(".takeover-close")).to_be_focused()
        tab.keyboard.press("Escape")
        expect(takeover).to_be_hidden()
        seat = tab.locator(f'.tv-seat[data-seat="{revoke.seat}"]')
        expect(seat).to_have_class("tv-seat at-left marked")
        expect(seat.locator('.lamp[data-pattern="revoke_proven"]')).to_be_visible()
        # shown once per device: a reload does not show it again
        tab.reload()
        expect(tab.locator("#live-status")).to_have_class("status ok")
        expect(takeover).to_be_hidden()


def test_the_takeover_ends_by_itself_and_outlasts_a_redraw(
    runtime: TableRuntime,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("web.table_view.TAKEOVER_MS", 2000)  # 6 s at the table
    start_known_deal(runtime)
    for _ in range(6):
        runtime.submit(legal_play(runtime))
    with dashboard_page(runtime, viewport=PHONE, mobile=True) as found:
        tab = found.tab
        tab.goto(found.url + "/table?lang=en")
        expect(tab.locator("#live-status")).to_have_class("status ok")
        revoke = illegal_play(runtime)
        assert revoke is not None
        runtime.submit(revoke)
        takeover = tab.locator("#takeover")
        expect(takeover).to_be_visible()
        assert page_width(tab) <= PHONE["width"]
        runtime.call_director(None, source="test")  # the live part is drawn again meanwhile
        expect(tab.locator('#live .lamp[data-pattern="director_call"]')).to_have_count(4)
        expect(takeover).to_be_visible()
        expect(takeover).to_be_hidden(timeout=4000)  # by itself
        expect(tab.locator(f'.tv-seat[data-seat="{revoke.seat}"]')).to_have_class(
            "tv-seat at-left marked"
        )


def test_a_touch_screen_held_landscape_opens_the_table_view(
    runtime: TableRuntime,  # noqa: F811
) -> None:
    start_known_deal(runtime)
    with dashboard_page(runtime, viewport=TABLET, mobile=True) as found:
        tab = found.tab
        tab.goto(found.url + "/?lang=en")
        expect(tab).to_have_url(found.url + "/table?lang=en")
        tab.get_by_role("link", name="Table", exact=True).press("Enter")  # by keyboard
        expect(tab).to_have_url(found.url + "/?lang=en")  # a link from the dashboard stays
        expect(tab.locator("#admin")).to_be_visible()
        tab.goto(found.url + "/?view=list")
        expect(tab.locator("#admin")).to_be_visible()
        assert tab.url.endswith("/?view=list")
    with dashboard_page(runtime, viewport=PHONE, mobile=True) as found:  # portrait: the list
        found.tab.goto(found.url + "/")
        expect(found.tab.locator("#admin")).to_be_visible()
        assert found.tab.url == found.url + "/"
    with dashboard_page(runtime, viewport=DESKTOP) as found:  # a mouse: the director's list
        found.tab.goto(found.url + "/")
        expect(found.tab.locator("#admin")).to_be_visible()
        assert found.tab.url == found.url + "/"


PAGES = ["/", "/table", "/history", "/history?deal=1&trick=2", "/summary", "/table?lang=en"]


def test_no_page_is_wider_than_a_phone_or_a_laptop(runtime: TableRuntime) -> None:  # noqa: F811
    start_known_deal(runtime)
    play_deals(runtime, 2)
    runtime.start_deal(hands=known_hands(seed=9))
    forehand = runtime.deal.to_act  # type: ignore[union-attr]
    runtime.submit(Action(forehand, ActionType.CONTRACT, value="zatvoreno"))
    runtime.submit(legal_play(runtime))  # a card on the felt
    for viewport, mobile in ((PHONE, True), (DESKTOP, False)):
        with dashboard_page(runtime, viewport=viewport, mobile=mobile) as found:
            tab = found.tab
            for path in PAGES:
                tab.goto(found.url + path)
                expect(tab.locator("#live-status")).to_have_class("status ok")
                assert tab.evaluate("window.innerWidth") == viewport["width"], path
                assert page_width(tab) <= viewport["width"], (path, viewport, page_width(tab))
                sheet = tab.locator("#score-sheet")
                if sheet.count():  # the sheet scrolls inside its own box
                    box = sheet.bounding_box()
                    assert box is not None and box["x"] + box["width"] <= viewport["width"]
            if viewport is PHONE:  # the table view's seats stacked, one under the other
                tab.goto(found.url + "/table")
                plates = [tab.locator(f'.tv-seat[data-seat="{s}"]').bounding_box()
                          for s in range(4)]  # fmt: skip
                assert all(p is not None for p in plates)
                xs = {round(p["x"]) for p in plates if p}
                ys = [p["y"] for p in plates if p]
                assert len(xs) == 1 and ys == sorted(ys), plates


def test_a_sheet_of_many_sides_scrolls_in_its_box_on_a_laptop() -> None:
    """Dvoglavac's sheet (four players and the bank, a column pair each) is wider than its
    half of a laptop's list page: it scrolls inside its box, and the page does not."""
    from kibic.demo import demo_runtime

    table = demo_runtime(game="dvoglavac", deals=3, plays=5, seed=3)
    with dashboard_page(table, viewport=DESKTOP) as found:
        tab = found.tab
        tab.goto(found.url + "/?view=list")
        expect(tab.locator("#live-status")).to_have_class("status ok")
        assert page_width(tab) <= DESKTOP["width"], page_width(tab)
        box = tab.locator("section.sheet").bounding_box()
        assert box is not None and box["x"] + box["width"] <= DESKTOP["width"], box
        widths = tab.evaluate("(() => { const e = document.querySelector('section.sheet');"
                              " return [e.scrollWidth, e.clientWidth]; })()")  # fmt: skip
        assert widths[0] > widths[1], widths  # wider than its box: it scrolls there
    table.close()


def test_a_deal_is_replayed_trick_by_trick_by_keyboard(runtime: TableRuntime) -> None:  # noqa: F811
    start_known_deal(runtime)
    while not runtime.deal.is_over:  # type: ignore[union-attr]
        runtime.submit(legal_play(runtime))
    tricks = runtime.snapshot()["deals"][0]["tricks"]
    with dashboard_page(runtime, viewport=PHONE, mobile=True) as found:
        tab = found.tab
        tab.goto(found.url + "/history?lang=en")
        expect(tab.locator("#live-status")).to_have_class("status ok")
        tab.locator("a.replay-link").first.focus()
        tab.keyboard.press("Enter")
        expect(tab.locator("#replay")).to_have_attribute("data-trick", "1")
        wait_for_cards(tab, {seat: code for seat, code in tricks[0]["plays"]})
        tab.locator("a.replay-next").focus()
        tab.keyboard.press("Enter")
        expect(tab.locator("#replay")).to_have_attribute("data-trick", "2")
        wait_for_cards(tab, {seat: code for seat, code in tricks[1]["plays"]})
        expect(tab.locator("#replay-trick")).to_have_text(f"Trick 2 of {len(tricks)}")
        # the live redraw after a change at the table keeps the replayed trick
        runtime.start_deal(hands=known_hands(seed=9))
        expect(tab.locator("#live")).to_have_attribute("data-seq", str(runtime.seq))
        expect(tab.locator("#replay")).to_have_attribute("data-trick", "2")
        wait_for_cards(tab, {seat: code for seat, code in tricks[1]["plays"]})


FITS_JS = """() => Array.from(document.querySelectorAll('#live .tv-score')).map((box) => {
  const total = box.querySelector('.tv-total').getBoundingClientRect();
  const outer = box.getBoundingClientRect();
  return [box.querySelector('.tv-total').textContent,
          total.left >= outer.left && total.right <= outer.right];
})"""


def test_a_long_score_fits_its_box(runtime: TableRuntime) -> None:  # noqa: F811
    from kibic.demo import demo_runtime

    start_known_deal(runtime)
    runtime.adjust_score("A", -12345, "kazna")  # a long negative total beside a short one
    # the demo's Ulti (three players) after a deal: the felt's plates are wide
    ulti = demo_runtime(game="ulti", deals=1, plays=1000, seed=0)
    ulti.adjust_score("2", -1000, "kazna")  # a long total on the felt's side
    totals = [str(v) for v in ulti.snapshot()["match"]["totals"].values()]
    assert max(len(t) for t in totals) >= 4, totals
    expected = {"A": ["-1234.5", "0.0"], "0": totals}  # Satir keeps tenths
    for table, first in ((runtime, "A"), (ulti, "0")):
        for viewport, mobile in ((TABLET, True), (DESKTOP, False), (PHONE, True)):
            with dashboard_page(table, viewport=viewport, mobile=mobile) as found:
                tab = found.tab
                tab.goto(found.url + "/table")
                expect(tab.locator("#live-status")).to_have_class("status ok")
                shown = tab.evaluate(FITS_JS)
                assert [total for total, _ in shown] == expected[first]
                assert all(fits for _, fits in shown), (first, viewport, shown)
    ulti.close()


def test_four_players_and_the_bank_are_all_on_a_tablets_screen() -> None:
    from kibic.demo import demo_runtime

    table = demo_runtime(game="dvoglavac", deals=2, plays=9, seed=3)  # four players, the bank
    for viewport, mobile in ((TABLET, True), (PHONE, True)):
        with dashboard_page(table, viewport=viewport, mobile=mobile) as found:
            tab = found.tab
            tab.goto(found.url + "/table")
            expect(tab.locator("#live-status")).to_have_class("status ok")
            assert all(fits for _, fits in tab.evaluate(FITS_JS))
            if viewport is TABLET:
                boxes = [tab.locator(".tv-score").nth(k).bounding_box() for k in range(5)]
                assert all(b is not None and b["y"] + b["height"] <= TABLET["height"]
                           for b in boxes), boxes  # fmt: skip
                size = tab.evaluate("parseFloat(getComputedStyle(document.querySelector("
                                    "'.tv-total')).fontSize)")  # fmt: skip
                assert size >= 64  # digits over 1 cm on a 10-inch tablet (table.css)
    table.close()


@pytest.mark.parametrize(("game", "deals", "plays", "seed", "shown"), [
    # after six cards, with what the deal is played for (gin's first deal, which has no
    # cards played into tricks, is over)
    *((game, 1, 6, 3, ".tv-phase")
      for game in ("dvoglavi-lav", "mali-satir", "ulti", "gin-rummy", "dvoglavac")),
    # the end of a deal, with its scores: the tallest middles (every game's first deal was
    # measured, seeds 3 and 5: at most 800 px)
    ("dvoglavi-lav", 1, 1000, 5, "#tv-result"), ("dvoglavac", 1, 1000, 3, "#tv-result"),
    ("ruzicka", 1, 1000, 5, "#tv-result"),
    # the end of a deal that ended a partija, with who won it
    ("veliki-satir", 6, 1000, 7, "#tv-won"), ("ulti", 4, 1000, 3, "#tv-won"),
    # a camera question the play waits on, in the middle of Lav's facts
    ("dvoglavi-lav", 1, 6, 3, ".tv-asked"),
])  # fmt: skip
@pytest.mark.parametrize("screen", ["tablet", "tv-720", "tv-1080"])
def test_the_felt_fills_a_tablet_and_a_tv(
    game: str, deals: int, plays: int, seed: int, shown: str, screen: str
) -> None:
    """On a tablet and on a club's TV, 720 or 1080 lines, the felt fills the screen under the
    header without a scroll bar, its words and digits following the screen's height, with
    room for the referee's account of a deal over, four seats or not."""
    from kibic.demo import demo_runtime

    viewport = {"tablet": TABLET, "tv-720": TV_720, "tv-1080": TV}[screen]
    table = demo_runtime(game=game, deals=deals, plays=plays, seed=seed)
    if shown == ".tv-asked":
        seat = table.deal.to_act  # type: ignore[union-attr]
        table.request_confirmation(seat, list(table.game.deck.cards[:2]), [0.5, 0.3])
    with dashboard_page(table, viewport=viewport, mobile=screen == "tablet") as found:
        tab = found.tab
        tab.goto(found.url + "/table")
        expect(tab.locator("#live-status")).to_have_class("status ok")
        expect(tab.locator(shown)).to_be_visible()
        felt = tab.locator(".tv-felt").bounding_box()
        height = viewport["height"]
        assert tab.evaluate("document.scrollingElement.scrollHeight") <= height
        assert felt is not None and height - 40 <= felt["y"] + felt["height"] <= height, felt
        if shown == "#tv-result":
            expect(tab.locator(".tv-result-detail")).to_be_visible()
        if screen == "tv-1080":
            name, total = (tab.evaluate(f"parseFloat(getComputedStyle(document.querySelector("
                                        f"'{q}')).fontSize)") for q in (".tv-name", ".tv-total"))  # fmt: skip
            # a 50-inch TV, 0.58 mm a pixel: a name's capitals (0.72 em) 1.4 cm tall or more,
            # a total's digits 4 cm (four sides and more, a tile a row; 6 cm with fewer)
            assert name * 0.72 * 0.58 >= 14 and total * 0.72 * 0.58 >= 40, (name, total)
    table.close()
