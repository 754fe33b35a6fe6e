"""The director's login on the table's dashboard (``web.sessions``, ``web.routers.login``):
logged in once, the admin actions need no password but the session's CSRF token; the cookie's
flags; wrong passwords throttled after five with ``Retry-After`` and the wait on the page;
logging out ends the session; API clients keep the password header."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from kibic.runtime import TableRuntime
from tests.test_web_support import ADMIN, PASSWORD, PASSWORD_HASH, legal_play, start_known_deal
from tests.test_web_support import runtime as runtime  # noqa: F401 - the fixture
from web.app import create_app
from web.sessions import COOKIE, SessionStore
from web.throttle import PasswordThrottle


@pytest.fixture
def now() -> list[float]:
    return [1000.0]


@pytest.fixture
def app(runtime: TableRuntime, now: list[float]) -> FastAPI:  # noqa: F811
    start_known_deal(runtime)
    return create_app(
        runtime,
        admin_password_hash=PASSWORD_HASH,
        password_throttle=PasswordThrottle(clock=lambda: now[0]),
        sessions=SessionStore(lifetime_s=3600, clock=lambda: now[0]),
    )


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app, follow_redirects=False) as test_client:
        yield test_client


def log_in(client: TestClient, password: str = PASSWORD, **extra: str) -> object:
    form = {"password": password, "next": "/?lang=en", "lang": "en", **extra}
    return client.post("/login", data=form)


def page_csrf(client: TestClient) -> str:
    found = re.search(r'<aside id="admin"[^>]* data-csrf="([^"]*)"', client.get("/").text)
    assert found is not None
    return found.group(1)


def play(runtime: TableRuntime) -> dict[str, object]:  # noqa: F811
    action = legal_play(runtime)
    return {"seat": action.seat, "type": "play", "card": str(action.card)}


def seq(client: TestClient) -> int:
    return int(client.get("/api/state").json()["seq"])


def test_logged_in_an_admin_action_needs_no_password(
    client: TestClient,
    runtime: TableRuntime,  # noqa: F811
) -> None:
    assert page_csrf(client) == ""  # logged out: no token, the password field
    assert 'id="admin-password"' in client.get("/").text
    response = log_in(client)
    assert response.status_code == 303 and response.headers["location"] == "/?lang=en"
    csrf = page_csrf(client)
    assert len(csrf) >= 40
    html = client.get("/").text
    assert 'id="admin-password"' not in html and 'id="logout-form"' in html
    assert f'name="csrf" value="{csrf}"' in html  # the logout form carries it too
    body = play(runtime)
    answered = client.post("/api/actions", json=body, headers={"X-Kibic-CSRF": csrf})
    assert answered.status_code == 200, answered.text
    assert client.get("/api/state").json()["deal"]["trick"]["plays"] == [[0, body["card"]]]


def test_the_session_cookie_is_httponly_strict_random_and_expires(
    client: TestClient, app: FastAPI
) -> None:
    cookie = log_in(client).headers["set-cookie"]
    token = re.match(rf"{COOKIE}=([^;]+);", cookie)
    assert token is not None
    flags = {part.strip().split("=")[0].lower() for part in cookie.split(";")[1:]}
    assert {"httponly", "samesite", "max-age", "path"} <= flags and "secure" not in flags
    assert "samesite=strict" in cookie.lower() and "max-age=3600" in cookie.lower()
    assert token.group(1) not in (PASSWORD, PASSWORD_HASH) and PASSWORD_HASH.split("$")[-1] not in (
        cookie
    )
    with TestClient(app, base_url="https://testserver", follow_redirects=False) as tls:
        again = log_in(tls).headers["set-cookie"]
    assert "; secure" in again.lower()  # served over https: the cookie goes over https only
    assert re.match(rf"{COOKIE}=([^;]+);", again).group(1) != token.group(1)  # type: ignore[union-attr]
    log_in(client)  # logging in again on the device replaces its session
    assert client.cookies[COOKIE] != token.group(1)
    assert len(app.state.sessions) == 2  # this device's new one and the https client's


def test_the_cookie_without_or_with_a_wrong_csrf_token_is_refused_403(
    client: TestClient,
    runtime: TableRuntime,  # noqa: F811
) -> None:
    log_in(client)
    before = seq(client)
    for headers in ({}, {"X-Kibic-CSRF": "forged"}):
        refused = client.post("/api/actions", json=play(runtime), headers=headers)
        assert refused.status_code == 403
        assert "CSRF token" in refused.json()["detail"]
        assert "reload the page" in refused.json()["detail"]
    assert "without its CSRF token" in client.post("/api/undo").json()["detail"]
    assert seq(client) == before  # nothing was done
    logout = client.post("/logout", data={"next": "/"})  # logging out needs it as well
    assert logout.status_code == 403 and page_csrf(client) != ""


def test_the_sixth_wrong_password_waits_with_retry_after_told_on_the_page(
    client: TestClient, now: list[float]
) -> None:
    for n in range(1, 5):
        wrong = log_in(client, f"guess-{n}")
        assert wrong.status_code == 401 and "Wrong password." in wrong.text
        assert "wait" not in wrong.text
    fifth = log_in(client, "guess-5")  # the fifth: still an answer, and the wait begins
    assert fifth.status_code == 401
    assert "Wrong password. Too many wrong passwords: wait 2 s before the next try." in fifth.text
    sixth = log_in(client, PASSWORD)  # even the right password waits
    assert sixth.status_code == 429 and sixth.headers["retry-after"] == "2"
    assert 'data-status="429"' in sixth.text
    assert "Too many wrong passwords: wait 2 s before the next try." in sixth.text
    sr = client.post("/login", data={"password": "x", "lang": "sr"})
    assert "sačekajte 2 s pre sledećeg pokušaja" in sr.text
    api = client.post("/api/undo", headers={"X-Kibic-Password": PASSWORD})  # the same throttle
    assert api.status_code == 429 and api.headers["retry-after"] == "2"
    now[0] += 2.0
    seventh = log_in(client, "guess-7")
    assert seventh.status_code == 401 and "wait 4 s" in seventh.text  # the delay doubles
    now[0] += 4.0
    assert log_in(client).status_code == 303


def test_logout_ends_the_session(
    client: TestClient,
    runtime: TableRuntime,  # noqa: F811
) -> None:
    log_in(client)
    csrf = page_csrf(client)
    token = client.cookies[COOKIE]
    out = client.post("/logout", data={"csrf": csrf, "next": "/history?lang=en"})
    assert out.status_code == 303 and out.headers["location"] == "/history?lang=en"
    assert "max-age=0" in out.headers["set-cookie"].lower()
    assert page_csrf(client) == ""
    client.cookies.set(COOKIE, token)  # a copy of the old cookie is worth nothing now
    ended = client.post("/api/undo", headers={"X-Kibic-CSRF": csrf})
    assert ended.status_code == 401 and "session has ended" in ended.json()["detail"]


def test_a_session_expires(client: TestClient, now: list[float]) -> None:
    log_in(client)
    csrf = page_csrf(client)
    now[0] += 3601.0
    assert client.post("/api/undo", headers={"X-Kibic-CSRF": csrf}).status_code == 401
    assert page_csrf(client) == ""


def test_api_clients_keep_the_password_header(
    client: TestClient,
    runtime: TableRuntime,  # noqa: F811
) -> None:
    answered = client.post("/api/actions", json=play(runtime), headers=ADMIN)  # no cookie
    assert answered.status_code == 200, answered.text
    log_in(client)  # a stale cookie beside the header: the header decides, no CSRF needed
    assert client.post("/api/actions", json=play(runtime), headers=ADMIN).status_code == 200
    wrong = client.post("/api/undo", headers={"X-Kibic-Password": "wrong"})
    assert wrong.status_code == 401


def test_after_login_only_this_server_is_a_destination(client: TestClient) -> None:
    for target in ("//evil.example/x", "https://evil.example/", "/\\evil.example"):
        assert log_in(client, next=target).headers["location"] == "/?lang=en"


def test_the_login_page_in_both_languages(client: TestClient) -> None:
    sr = client.get("/login")
    assert sr.status_code == 200 and '<html lang="sr">' in sr.text and "Prijava sudije" in sr.text
    en = client.get("/login?lang=en").text
    assert '<html lang="en">' in en and "Log in</button>" in en and 'id="admin-password"' in en
    log_in(client)
    assert "You are logged in as the director on this device." in client.get("/login?lang=en").text
