"""The club server's answers to hostile requests, and its security headers.

A non-ASCII admin token is a wrong token (401), a NUL in a table id or a slug is refused before
it reaches the database (PostgreSQL refuses NUL in text), and every response carries a
Content-Security-Policy that the pages satisfy in a real headless Chromium, X-Frame-Options DENY
and X-Content-Type-Options nosniff.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from club.app import create_app
from club.service import ClubSettings
from club.storage import incoming
from tests.club_support import postgres as postgres  # noqa: F401 - the fixture
from tests.test_club_refusals import NAMES, club, service_of
from tests.test_club_results import REVOKE, SATIR_11, table_log, wire
from web.server import BackgroundServer

__all__ = ["club"]  # the fixture, on SQLite and on PostgreSQL

CHROMIUM = Path("/usr/bin/chromium")


def fill(client: TestClient) -> None:
    """Two tables (a revoke at t1), a player, a tournament."""
    service = service_of(client)
    admin = {"Authorization": "Bearer sesame"}
    assert client.post("/api/v1/players", json={"club_id": "SR001", "name": "Ana"},
                       headers=admin).status_code == 201  # fmt: skip
    now = time.time()
    assert client.post("/api/v1/tournaments", headers=admin, json={
        "slug": "kup", "name": "Kup", "starts_at": now - 60, "ends_at": now + 3600}
    ).status_code == 201  # fmt: skip
    for tid, deals in (("t1", REVOKE["deals"] + SATIR_11[:1]), ("t2", SATIR_11[:2])):
        key = service.store.issue_key(tid)
        service.ingest(tid, key, incoming(wire(table_log(tid, [("veliki-satir", NAMES, deals)]))))


def page_paths(client: TestClient) -> list[str]:
    night = service_of(client).night_of(time.time()).isoformat()
    return ["/", "/?lang=sr", "/tables/t1", "/tables/t1/games/1", "/tables/t1/games/1?lang=sr",
            "/players", "/players/SR001", "/penalties", "/status", f"/nights/{night}",
            "/tournaments/kup"]  # fmt: skip


def test_a_non_ascii_admin_token_is_a_wrong_token(club: TestClient) -> None:
    body = {"club_id": "SR009", "name": "Iva"}
    for token in ("Bearer sésame".encode(), "Bearer \xff\xfe".encode("latin-1"), b"Bearer x"):
        r = club.post("/api/v1/players", json=body, headers=[(b"Authorization", token)])
        assert r.status_code == 401 and r.json()["detail"] == "wrong admin token"
    assert club.post("/api/v1/players", json=body).status_code == 401
    r = club.post("/api/v1/players", json=body, headers={"Authorization": "Bearer sesame"})
    assert r.status_code == 201
    assert [p["club_id"] for p in club.get("/api/v1/players").json()] == ["SR009"]


def test_a_nul_in_a_table_id_or_a_name_is_refused_before_the_database(club: TestClient) -> None:
    fill(club)
    key = service_of(club).store.issue_key("t3")
    auth = {"Authorization": f"Bearer {key}"}
    for path in ("/tables/%00", "/tables/t1%00", "/tables/%00/games/1", "/api/v1/tables/%00/games",
                 "/api/v1/tables/t1%00x/games/1", "/tournaments/%00",
                 "/api/v1/tournaments/kup%00/standings", "/export/tournament/%00.csv",
                 "/nights/%00", "/export/night/2026-01-01%00.json", "/penalties?night=%00"):  # fmt: skip
        r = club.get(path)
        assert r.status_code in (404, 422), (path, r.status_code, r.text[:200])
    for path in ("/api/v1/tables/%00/cursor", "/api/v1/tables/t3%00/cursor"):
        assert club.get(path, headers=auth).status_code == 422
    r = club.post("/api/v1/tables/t3%00/events", json={"events": []}, headers=auth)
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["path", "table_id"]
    event = {"id": "a\x00", "seq": 1, "kind": "game_started", "ts": 1.0,
             "payload": {"spec": "veliki-satir", "names": NAMES}}  # fmt: skip
    r = club.post("/api/v1/tables/t3/events", json={"events": [event]}, headers=auth)
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "events", 0, "id"]
    admin = {"Authorization": "Bearer sesame"}
    r = club.post("/api/v1/players", json={"club_id": "X\x00", "name": "x"}, headers=admin)
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "club_id"]
    r = club.post("/api/v1/tournaments", headers=admin,
                  json={"slug": "s", "name": "n", "starts_at": 1.0, "tables": ["t1\x00"]})  # fmt: skip
    assert r.status_code == 422 and r.json()["detail"][0]["loc"] == ["body", "tables", 0]
    assert club.get("/nights/9999-12-31").status_code == 422  # the night after is past year 9999
    assert service_of(club).store.event_count("t3") == 0
    for path in page_paths(club):
        assert club.get(path).status_code == 200, path


def test_every_answer_carries_the_security_headers(club: TestClient) -> None:
    fill(club)
    answers = [club.get(path) for path in page_paths(club)]
    answers += [club.get("/api/v1/tables"), club.get("/export/tournament/kup.csv"),
                club.get("/tables/t1/games/99"), club.get("/tables/%00"), club.get("/healthz"),
                club.post("/api/v1/players", json={})]  # fmt: skip
    assert [r.status_code for r in answers[-6:]] == [200, 200, 404, 422, 200, 401]
    for r in answers:
        assert r.headers["X-Frame-Options"] == "DENY", r.url
        assert r.headers["X-Content-Type-Options"] == "nosniff"
        csp = r.headers["Content-Security-Policy"]
        assert "default-src 'none'" in csp and "frame-ancestors 'none'" in csp
        assert "'unsafe-inline'" not in csp and "script-src 'self';" in csp  # live.js only


def margin(tab: Any) -> str:
    found: str = tab.evaluate("() => getComputedStyle(document.body).marginTop")
    return found


@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium "
                    "(apt-get install -y chromium; make system-deps)")  # fmt: skip
def test_the_pages_satisfy_their_content_security_policy_in_chromium(tmp_path: Path) -> None:
    from playwright.sync_api import ConsoleMessage, sync_playwright

    settings = ClubSettings(database_url=str(tmp_path / "club.sqlite3"), admin_token="sesame")
    app = create_app(settings)
    with BackgroundServer(app) as server, TestClient(app) as client:
        fill(client)
        messages: list[str] = []
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                         args=["--no-sandbox"])  # fmt: skip
            try:
                tab = browser.new_page()

                def console(message: ConsoleMessage) -> None:
                    messages.append(message.text)

                tab.on("console", console)
                for path in page_paths(client):
                    response = tab.goto(server.url + path)
                    assert response is not None and response.status == 200, path
                    csp = response.headers["content-security-policy"]
                    assert csp.startswith("default-src 'none'"), path
                    # the inline style applies: the CSP allows it by its hash
                    assert margin(tab) == "24px", path  # 1.5rem; a browser's own is 8px
                # a style the policy does not name is refused (the policy is in force)
                tab.goto(server.url + "/")
                tab.evaluate("""() => { const s = document.createElement('style');
                    s.textContent = 'body { margin: 3px !important }';
                    document.head.appendChild(s); }""")  # fmt: skip
                assert margin(tab) == "24px"
            finally:
                browser.close()
    refused = [m for m in messages if "Content Security Policy" in m]
    assert len(refused) == 1 and "style" in refused[0], messages
