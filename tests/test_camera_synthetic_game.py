"""``kibic run`` with the ``synthetic`` camera source plays a legal game of the configured game:
frames of the synthetic table → finder → ONNX model → tracker → runtime, with no alert."""

from __future__ import annotations

import random
import threading
import time

import pytest

from kibic.camera import camera_loop, model_available
from kibic.config import parse_config
from kibic.runtime import TableRuntime
from kibic.store import EventStore
from kibic.synthetic_game import plan_deal
from referee.actions import ActionType
from tests.browser_support import CHROMIUM, SKIP_REASON, browser_page
from tests.test_web_support import PASSWORD_HASH
from web.app import create_app

NAMES = ["Ana", "Bora", "Cica", "Dule"]


def new_runtime() -> TableRuntime:
    return TableRuntime(EventStore(":memory:", "sto-1"), table_id="sto-1", game="ruzicka",
                        names=NAMES)  # fmt: skip


def test_the_synthetic_source_plays_a_legal_deal_of_the_tables_game() -> None:
    if not model_available():
        pytest.fail("the table classifier (vision/models) is not shipped")
    if not CHROMIUM.exists():
        pytest.fail(SKIP_REASON)
    from playwright.sync_api import expect

    config = parse_config({"table": {"game": "ruzicka", "names": NAMES},
                           "camera": {"source": "synthetic", "deck": "piquet-32"}})  # fmt: skip
    runtime = new_runtime()
    stop = threading.Event()
    thread = threading.Thread(target=camera_loop, args=(runtime, config, stop), daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 120
        while not runtime.snapshot()["deals"] and not runtime.alerts:
            assert thread.is_alive() and time.monotonic() < deadline, runtime.camera
            time.sleep(0.1)
    finally:
        stop.set()
        thread.join(30)
    assert runtime.alerts == []  # no "out of turn", no misread refused
    finished = runtime.finished[0]
    assert finished["violations"] == []
    # the very deal the seeded plan makes from a fresh match: a legal deal of Ružička
    plan = plan_deal(new_runtime(), random.Random(0))
    assert finished["deal"].actions == list(plan.actions)
    sources = [e.payload["source"] for e in runtime.store.entries() if e.kind == "action"]
    plays = sum(a.type is ActionType.PLAY for a in plan.actions)
    assert sources[: len(plan.actions)].count("camera") == plays == 32

    # at the dashboard: the deal on the sheet, the camera calibrated, no alert
    app = create_app(runtime, admin_password_hash=PASSWORD_HASH)
    with browser_page(app) as browser:
        browser.tab.goto(browser.url + "/?lang=en")
        expect(browser.tab.locator("#score-sheet tr.deal-row")).to_have_count(1)
        expect(browser.tab.locator("#camera-status")).to_contain_text("Table calibrated")
        expect(browser.tab.locator("#alerts")).to_have_count(0)
        assert browser.blocked == []
    runtime.close()
