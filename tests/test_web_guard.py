"""Limits before work on the table's app (``web.guard``): a body over the limit is 413 unread,
the admin password is checked before the body is read, and every response carries security
headers whose Content-Security-Policy the dashboard's own pages satisfy."""

from __future__ import annotations

import base64
import hashlib
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from kibic.config import ConfigError, hash_password, load_config
from kibic.runtime import TableRuntime
from tests.test_web_support import ADMIN, PASSWORD, PASSWORD_HASH, legal_play, start_known_deal
from tests.test_web_support import runtime as runtime  # noqa: F401 - the fixture
from web.app import create_app
from web.guard import PAGE_CSP
from web.throttle import PasswordThrottle

LIMIT = 64 * 1024
EXAMPLE = Path(__file__).resolve().parent.parent / "deploy" / "table.example.toml"


@pytest.fixture
def app(runtime: TableRuntime) -> FastAPI:  # noqa: F811
    start_known_deal(runtime)
    return create_app(runtime, admin_password_hash=PASSWORD_HASH)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


class Probe:
    """Calls the ASGI app directly, counting how much of the body it pulled."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks
        self.pulled = 0
        self.sent: list[dict[str, Any]] = []

    async def receive(self) -> dict[str, Any]:
        self.pulled += 1
        more = self.pulled < len(self.chunks)
        body = self.chunks[self.pulled - 1] if self.pulled <= len(self.chunks) else b""
        return {"type": "http.request", "body": body, "more_body": more}

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    def run(self, app: FastAPI, path: str, headers: dict[str, str]) -> int:
        return self.run_from(app, path, headers, "127.0.0.1")

    def run_from(self, app: FastAPI, path: str, headers: dict[str, str], address: str) -> int:
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "root_path": "",
            "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
            "client": (address, 5000),
            "server": ("127.0.0.1", 8000),
        }
        anyio.run(app, scope, self.receive, self.send)  # type: ignore[arg-type]
        start = self.sent[0]
        assert start["type"] == "http.response.start"
        status: int = start["status"]
        return status

    @property
    def body(self) -> bytes:
        return b"".join(m.get("body", b"") for m in self.sent[1:])


def test_a_declared_oversized_body_is_413_and_never_read(app: FastAPI) -> None:
    probe = Probe([b"x" * 1024])
    status = probe.run(app, "/api/actions", {"content-length": str(700 * 2**20), **ADMIN})
    assert status == 413
    assert probe.pulled == 0
    assert b"the request body of 734,003,200 bytes is over this table's limit of 65,536" in (
        probe.body
    )


def test_an_undeclared_body_is_cut_off_at_the_limit(app: FastAPI) -> None:
    probe = Probe([b"x" * 16 * 1024] * 1000)  # 16 MB, sent chunked without a length
    assert probe.run(app, "/api/actions", ADMIN) == 413
    assert probe.pulled == LIMIT // (16 * 1024) + 1  # stopped at the first chunk past 64 kB
    assert b"is over this table's limit of 65,536 bytes" in probe.body


@pytest.mark.parametrize("password", [None, "wrong", "sto-7 "])
def test_the_password_is_checked_before_the_body_is_read(
    app: FastAPI, password: str | None
) -> None:
    headers = {"content-length": "40000"} | ({"X-Kibic-Password": password} if password else {})
    probe = Probe([b"{" * 40000])
    assert probe.run(app, "/api/actions", headers) == 401
    assert probe.pulled == 0
    assert b"X-Kibic-Password" in probe.body


def test_with_the_password_a_body_under_the_limit_is_served(
    client: TestClient,
    runtime: TableRuntime,  # noqa: F811
) -> None:
    action = legal_play(runtime)
    body = {"seat": action.seat, "type": "play", "card": str(action.card)}
    response = client.post("/api/actions", json=body, headers={"X-Kibic-Password": PASSWORD})
    assert response.status_code == 200, response.text
    assert client.get("/api/state").json()["deal"]["trick"]["plays"] == [[0, str(action.card)]]
    padded = client.post(  # 60 kB passes the guard and reaches the schema's own checks
        "/api/actions", json={**body, "value": "v" * 60_000}, headers=ADMIN
    )
    assert padded.status_code == 422
    assert padded.json()["detail"][0]["loc"] == ["body", "value"]


def test_the_limit_is_configured(runtime: TableRuntime) -> None:  # noqa: F811
    start_known_deal(runtime)
    app = create_app(runtime, admin_password_hash=PASSWORD_HASH, max_body_bytes=100)
    with TestClient(app) as small:
        response = small.post("/api/undo", content=b"[" + b" " * 200 + b"]", headers=ADMIN)
        assert response.status_code == 413
        assert "limit of 100 bytes" in response.json()["detail"]
        assert small.post("/api/undo", headers=ADMIN).status_code in (200, 409)


@pytest.mark.parametrize(
    "path",
    ["/", "/history", "/summary?lang=en", "/api/state", "/static/app.js", "/static/style.css",
     "/openapi.json", "/no-such-page"],
)  # fmt: skip
def test_every_response_carries_the_security_headers(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.headers["content-security-policy"] == PAGE_CSP
    assert response.headers["x-frame-options"] == "DENY"
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    refused = client.post("/api/undo", headers={"X-Kibic-Password": "wrong"})
    assert refused.status_code == 401
    assert refused.headers["x-frame-options"] == "DENY"


@pytest.mark.parametrize("path", ["/", "/history", "/summary", "/?lang=en"])
def test_the_pages_need_nothing_the_policy_refuses(client: TestClient, path: str) -> None:
    html = client.get(path).text
    assert "script-src 'self';" in PAGE_CSP and "style-src 'self';" in PAGE_CSP
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == []  # no inline script
    assert "<style" not in html
    assert re.findall(r"\sstyle=", html) == []  # no inline style attribute
    assert re.findall(r"\son[a-z]+=", html) == []  # no inline event handler
    assert re.findall(r"(?:src|href)=\"(?:https?:)?//", html) == []  # nothing from elsewhere


def test_the_docs_page_allows_exactly_its_own_inline_script(client: TestClient) -> None:
    response = client.get("/docs")
    policy = response.headers["content-security-policy"]
    (inline,) = re.findall(r"<script>(.*?)</script>", response.text, re.S)
    digest = base64.b64encode(hashlib.sha256(inline.encode()).digest()).decode()
    assert f"script-src 'self' 'sha256-{digest}';" in policy
    assert "unsafe-eval" not in policy and "frame-ancestors 'none'" in policy


def test_the_table_configuration_sets_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text("[web]\nmax_body_kb = 8\n")
    assert load_config(path).web.max_body_kb == 8
    assert load_config(EXAMPLE).web.max_body_kb == 64
    path.write_text("[web]\nmax_body_kb = 0\n")
    with pytest.raises(ConfigError, match="web.max_body_kb: 0 is not between 1 and 102400"):
        load_config(path)


def _probe_status(app: FastAPI, password: str, address: str) -> tuple[int, Probe]:
    probe = Probe([b""])
    status = probe.run_from(app, "/api/undo", {"X-Kibic-Password": password}, address)
    return status, probe


def test_wrong_passwords_are_throttled_per_address_with_a_growing_delay(
    runtime: TableRuntime,  # noqa: F811
) -> None:
    start_known_deal(runtime)
    now = [100.0]
    # a delay from the first wrong password on (the table's default allows five first)
    throttle = PasswordThrottle(clock=lambda: now[0], free_failures=1, first_delay_s=0.5)
    app = create_app(runtime, admin_password_hash=PASSWORD_HASH, password_throttle=throttle)
    assert _probe_status(app, "guess-1", "10.0.0.9")[0] == 401
    status, probe = _probe_status(app, PASSWORD, "10.0.0.9")  # even the right one must wait
    assert status == 429
    assert (b"retry-after", b"1") in probe.sent[0]["headers"]
    assert b"too many wrong passwords from 10.0.0.9; try again in 1 s" in probe.body
    assert throttle.hashed == 1  # the throttled try cost no PBKDF2
    assert _probe_status(app, PASSWORD, "10.0.0.7")[0] in (200, 409)  # another address
    waits = []
    for _ in range(4):
        now[0] += 120.0
        assert _probe_status(app, "guess", "10.0.0.9")[0] == 401
        waits.append(throttle.wait_s("10.0.0.9"))
    assert waits == [1.0, 2.0, 4.0, 8.0]
    now[0] += 8.0
    assert _probe_status(app, PASSWORD, "10.0.0.9")[0] in (200, 409)
    assert throttle.wait_s("10.0.0.9") == 0.0  # cleared by the right password
    assert throttle.hashed == 7


def test_at_most_two_password_checks_hash_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    running, most = [0], [0]
    lock = threading.Lock()

    def slow_verify(stored: str, password: str) -> bool:
        with lock:
            running[0] += 1
            most[0] = max(most[0], running[0])
        time.sleep(0.05)
        with lock:
            running[0] -= 1
        return False

    monkeypatch.setattr("web.throttle.verify_password", slow_verify)
    throttle = PasswordThrottle()  # eight addresses, so none is held back by its own delay

    async def guesses() -> None:
        async with anyio.create_task_group() as tasks:
            for i in range(8):
                tasks.start_soon(throttle.check, f"10.0.0.{i}", PASSWORD_HASH, f"guess-{i}")

    anyio.run(guesses)
    assert (most[0], throttle.hashed) == (2, 8)


@pytest.mark.parametrize(
    ("rounds", "said"),
    [
        (1, "web.admin_password_hash: 1 PBKDF2 rounds; a table needs between 100,000 and"),
        (50_000_000, "50,000,000 PBKDF2 rounds; a table needs between 100,000 and 2,000,000"),
    ],
)
def test_the_configuration_bounds_the_password_hash_rounds(
    rounds: int, said: str, tmp_path: Path
) -> None:
    stored = f"pbkdf2_sha256${rounds}${'00' * 16}${'11' * 32}"
    path = tmp_path / "t.toml"
    path.write_text(f'[web]\nadmin_password_hash = "{stored}"\n')
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert said in str(caught.value)
    path.write_text(f'[web]\nadmin_password_hash = "{hash_password("x", rounds=100_000)}"\n')
    assert load_config(path).web.admin_password_hash.startswith("pbkdf2_sha256$100000$")
