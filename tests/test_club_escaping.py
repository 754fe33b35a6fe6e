"""A name typed as markup is shown on every club page as text: the templates escape every value.

The name ``<script>alert(1)</script>`` enters where people type names: a player registered by
the admin, a tournament's name, the names a table's runtime was started with (forwarded in its
log), and an event's id a table sent in a refused batch. Table ids and tournament slugs cannot
carry markup: the API refuses any but letters, digits, ``_ . -``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from club.app import create_app
from club.service import ClubSettings
from tests.test_club_refusals import out_of_turn, service_of, three_plays
from tests.test_club_results import REVOKE, SATIR_11, table_log, wire

EVIL = "<script>alert(1)</script>"
SHOWN = "&lt;script&gt;alert(1)&lt;/script&gt;"
ADMIN = {"Authorization": "Bearer sesame"}


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """t1 plays with ``EVIL`` at seat 2 (who revokes, so is penalised) and the registered
    player X1 as his partner; t2 refused a batch whose bad event's id is ``EVIL``."""
    path: Path = tmp_path_factory.mktemp("club") / "club.sqlite3"
    settings = ClubSettings(database_url=str(path), admin_token="sesame")
    with TestClient(create_app(settings)) as client:
        service = service_of(client)
        r = client.post("/api/v1/players", json={"club_id": "X1", "name": EVIL}, headers=ADMIN)
        assert r.status_code == 201, r.text
        log1 = table_log("t1", [("veliki-satir", ["X1", "b", EVIL, "d"],
                                 REVOKE["deals"] + SATIR_11)])  # fmt: skip
        log2 = table_log("t2", [("veliki-satir", ["a", "b", "c", "d"], SATIR_11[:1])])
        for tid, log in (("t1", log1), ("t2", log2)):
            key = service.store.issue_key(tid)
            url, auth = f"/api/v1/tables/{tid}/events", {"Authorization": f"Bearer {key}"}
            if tid == "t2":
                k = three_plays(log)
                bad = dict(out_of_turn(log, log[k + 2], log[k].seq + 3), id=EVIL)
                r = client.post(url, json={"events": [*wire(log[: k + 3]), bad]}, headers=auth)
                assert r.status_code == 422, r.text
            r = client.post(url, json={"events": wire(log)}, headers=auth)
            assert r.status_code == 200, r.text
        now = time.time()
        r = client.post("/api/v1/tournaments", headers=ADMIN, json={
            "slug": "kup", "name": EVIL, "starts_at": now - 3600, "ends_at": now + 3600,
            "tables": ["t1"]})  # fmt: skip
        assert r.status_code == 201, r.text
        yield client


def night_of(club: TestClient) -> str:
    return service_of(club).night_of(time.time()).isoformat()


PAGES = ["/", "/tables/t1", "/tables/t1/games/1", "/players", "/players/X1", "/tournaments/kup",
         "/nights/{night}", "/penalties", "/status"]  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "sr"])
@pytest.mark.parametrize("path", PAGES)
def test_a_name_typed_as_markup_is_shown_as_text(club: TestClient, path: str, lang: str) -> None:
    r = club.get(path.format(night=night_of(club)), params={"lang": lang})
    assert r.status_code == 200, r.text[:300]
    assert SHOWN in r.text and EVIL not in r.text
    assert r.text.count("<script") == 1  # the page's own: <script src="/static/live.js" defer>
