"""The API docs, ``/docs`` (Swagger UI) and ``/redoc`` (ReDoc), of the table and the club
server in a real headless Chromium with every request off the machine blocked: both draw every
operation of the app's OpenAPI 3.1 under the page's Content-Security-Policy."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from club.app import create_app as create_club_app
from club.service import ClubSettings
from kibic.runtime import TableRuntime
from tests.browser_support import CHROMIUM, SKIP_REASON, browser_page
from tests.test_web_support import PASSWORD_HASH, new_runtime
from web.app import create_app as create_table_app
from web.docs import ASSETS_URL

#: ReDoc always shows its logo from cdn.redoc.ly; the page's policy refuses it before any request
REDOC_LOGO = "https://cdn.redoc.ly/redoc/logo-mini.svg"


@pytest.fixture
def table_runtime() -> Iterator[TableRuntime]:
    runtime = new_runtime()
    try:
        yield runtime
    finally:
        runtime.close()


def table_app(runtime: TableRuntime, _tmp: Path) -> FastAPI:
    return create_table_app(runtime, admin_password_hash=PASSWORD_HASH)


def club_app(_runtime: TableRuntime, tmp: Path) -> FastAPI:
    return create_club_app(ClubSettings(database_url=str(tmp / "club.sqlite3"), admin_token="x"))


APPS: dict[str, Callable[[TableRuntime, Path], FastAPI]] = {"table": table_app, "club": club_app}
METHODS = {"get", "post", "put", "patch", "delete"}


def operations(spec: dict[str, Any]) -> set[tuple[str, str]]:
    return {(m, p) for p, item in spec["paths"].items() for m in item if m in METHODS}


@pytest.mark.parametrize("name", APPS)
def test_the_docs_pages_are_served_from_here(
    name: str, table_runtime: TableRuntime, tmp_path: Path
) -> None:
    with TestClient(APPS[name](table_runtime, tmp_path)) as client:
        assert client.get("/openapi.json").json()["openapi"].startswith("3.1")
        for path in ("/docs", "/redoc"):
            page = client.get(path)
            assert page.status_code == 200
            assert ASSETS_URL in page.text and "https:" not in page.text, path
            policy = page.headers["content-security-policy"]
            assert "frame-ancestors 'none'" in policy and "unsafe-eval" not in policy
            assert "script-src 'self'" in policy and "https:" not in policy
        for asset in ("swagger-ui-bundle.js", "swagger-ui.css", "redoc.standalone.js"):
            answer = client.get(f"{ASSETS_URL}/{asset}")
            assert answer.status_code == 200 and len(answer.content) > 100_000, asset


@pytest.mark.skipif(not CHROMIUM.exists(), reason=SKIP_REASON)
@pytest.mark.parametrize("name", APPS)
def test_the_docs_draw_every_operation_offline_in_chromium(
    name: str, table_runtime: TableRuntime, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    app = APPS[name](table_runtime, tmp_path)
    with TestClient(app) as client:
        expected = operations(client.get("/openapi.json").json())
    assert len(expected) >= 8
    console: list[str] = []
    with browser_page(app) as found:
        tab = found.tab
        tab.on("console", lambda message: console.append(message.text))
        tab.on("pageerror", lambda error: console.append(f"page error: {error}"))

        tab.goto(found.url + "/docs")
        blocks = tab.locator("#swagger-ui .opblock")
        expect(blocks).to_have_count(len(expected))
        drawn = {
            (b.get_attribute("class").split("opblock-")[-1].split()[0],  # type: ignore[union-attr]
             b.locator(".opblock-summary-path").get_attribute("data-path"))
            for b in blocks.all()
        }  # fmt: skip
        assert drawn == expected
        assert "Unable to render" not in tab.locator("body").inner_text()
        swagger_console = list(console)

        tab.goto(found.url + "/redoc")
        sections = tab.locator('[data-section-id^="operation/"]')
        expect(sections).to_have_count(len(expected))
        expect(tab.locator("body")).not_to_contain_text("Something went wrong")
        assert found.blocked == [], f"requests off the machine: {found.blocked}"
    assert swagger_console == [], swagger_console
    redoc_console = console[len(swagger_console) :]
    assert len(redoc_console) == 1 and REDOC_LOGO in redoc_console[0], redoc_console
    assert "Content Security Policy" in redoc_console[0]
