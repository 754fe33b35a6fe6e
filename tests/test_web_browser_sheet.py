"""The score sheet and the summary after a partija is won, in a real browser.

A whole partija of Ružička (the demo's seeded game, won 301 : −21 by side A) is played through
the runtime: the sheet must close partija 1 with that score and its winner, and the total line
under it must name the running partija 2 (0 : 0) rather than contradict the rows above.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kibic.demo import demo_transcript, play_transcript
from kibic.runtime import TableRuntime
from kibic.store import EventStore
from tests.browser_support import CHROMIUM, SKIP_REASON, BrowserPage, dashboard_page

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)

if CHROMIUM.exists():
    from playwright.sync_api import expect


@pytest.fixture
def won_partija() -> Iterator[TableRuntime]:
    runtime = TableRuntime(EventStore(":memory:", "sto-1"), table_id="sto-1", game="ruzicka",
                           names=["Ana", "Bora", "Cica", "Dule"])  # fmt: skip
    play_transcript(runtime, demo_transcript("ruzicka", deals=0, seed=7), delay=0)
    match = runtime.snapshot()["match"]
    assert match["partija"] == 2 and match["partija_winners"] == ["A"]  # the seeded game
    try:
        yield runtime
    finally:
        runtime.close()


@pytest.fixture
def browser(won_partija: TableRuntime) -> Iterator[BrowserPage]:
    with dashboard_page(won_partija) as found:
        yield found


def cells(row: object, side: str) -> str:
    return row.locator(f'td.total[data-side="{side}"]').inner_text().strip()  # type: ignore[attr-defined]


def test_the_sheet_closes_a_won_partija_and_totals_the_running_one(
    browser: BrowserPage, won_partija: TableRuntime
) -> None:
    tab = browser.tab
    tab.goto(browser.url + "/")
    expect(tab.locator("#score-sheet tr.deal-row")).to_have_count(8)
    final = tab.locator('#score-sheet tr.partija-result[data-partija="1"]')
    expect(final).to_have_count(1)
    expect(final.locator("th")).to_have_text("Konačno (Partija 1)")
    assert (cells(final, "A"), cells(final, "B")) == ("301", "-21")
    expect(final.locator("td.winner")).to_have_text("dobila strana A (Ana & Cica)")
    # the last deal row and the partija's final line say the same
    last = tab.locator("#score-sheet tr.deal-row").last
    assert (cells(last, "A"), cells(last, "B")) == ("301", "-21")
    # the foot is the running partija's own total, and says which partija it is
    foot = tab.locator("#sheet-totals")
    expect(foot.locator("th")).to_have_text("Ukupno (Partija 2)")
    assert (cells(foot, "A"), cells(foot, "B")) == ("0", "0")

    # in English too, and the summary keeps partija 1's result beside the running partija
    tab.goto(browser.url + "/summary?lang=en")
    done = tab.locator('#partije tr.finished[data-partija="1"]')
    expect(done.locator('td[data-side="A"]')).to_have_text("301")
    expect(done.locator('td[data-side="B"]')).to_have_text("-21")
    expect(done.locator("td").last).to_have_text("won by side A (Ana & Cica)")
    running = tab.locator('#partije tr.running[data-partija="2"]')
    expect(running.locator('td[data-side="A"]')).to_have_text("0")
    expect(running.locator("td").last).to_have_text("in progress")
    expect(tab.locator("#summary")).not_to_contain_text("0 : 0")
