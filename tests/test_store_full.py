"""A full disk (SQLite's ``max_page_count`` stands in for it): the input is refused with "disk
full: the last input was not recorded" (API 507), nothing of it is stored or applied, and inputs
are taken again once there is space."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from kibic.runtime import TableRuntime
from kibic.store import EventStore, StoreFull
from tests.test_web_support import ADMIN, NAMES, PASSWORD_HASH, start_known_deal

REASON = " ".join(
    ["kasnio na partiju"] * 20
)  # big entries: the page limit is reached in a few inputs


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableRuntime]:
    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite", "sto-1"), table_id="sto-1",
                           names=NAMES)  # fmt: skip
    start_known_deal(runtime)
    try:
        yield runtime
    finally:
        runtime.close()


def _fill(runtime: TableRuntime) -> int:
    """Cap the file at its current size; adjustments until one no longer fits. Its count."""
    db = runtime.store._db
    (pages,) = db.execute("PRAGMA page_count").fetchone()
    db.execute(f"PRAGMA max_page_count={pages}")
    for n in range(200):
        try:
            runtime.adjust_score("A", 1, REASON)
        except StoreFull:
            return n
    raise AssertionError("the page limit was never reached")


def test_a_full_disk_refuses_the_input_and_recovers(table: TableRuntime) -> None:
    fitted = _fill(table)
    seq, totals = table.seq, table.snapshot()["match"]["totals"]
    stored = [e.id for e in table.store.entries()]
    with pytest.raises(StoreFull, match="^disk full: the last input was not recorded"):
        table.adjust_score("B", 5, REASON)
    assert table.seq == seq and table.snapshot()["match"]["totals"] == totals
    assert [e.id for e in table.store.entries()] == stored  # nothing half-written
    table.store._db.execute("PRAGMA max_page_count=1073741823")  # space again
    table.adjust_score("B", 5, REASON)
    assert table.seq == seq + 1 == len(table.store.entries())
    assert fitted < 200
    reopened = TableRuntime(EventStore(table.store.path, "sto-1", readonly=True), table_id="sto-1")
    assert reopened.seq == seq + 1  # the chain holds across the refusal
    reopened.close()


def test_the_director_sees_disk_full_as_507(table: TableRuntime) -> None:
    from web.app import create_app

    _fill(table)
    with TestClient(create_app(table, admin_password_hash=PASSWORD_HASH)) as client:
        body = {"side": "B", "units": 5, "reason": REASON}
        response = client.post("/api/score-adjustments", json=body, headers=ADMIN)
        assert response.status_code == 507
        assert response.json()["detail"].startswith("disk full: the last input was not recorded")
        table.store._db.execute("PRAGMA max_page_count=1073741823")
        response = client.post("/api/score-adjustments", json=body, headers=ADMIN)
        assert response.status_code == 200
        assert (
            client.get("/api/state").json()["match"]["rows"][-1]["detail"] == f"adjusted: {REASON}"
        )
