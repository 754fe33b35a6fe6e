"""A real headless browser on a served app (Debian's chromium driven by Playwright).

Every request that leaves the loopback address is blocked and counted: a table has no
internet, so a page that needs it is a failing test (``BrowserPage.blocked``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI

from web.server import BackgroundServer

CHROMIUM = Path("/usr/bin/chromium")
SKIP_REASON = "needs Debian's chromium at /usr/bin/chromium (apt-get install -y chromium)"
TIMEOUT_MS = 5000
LOCAL_HOSTS = ("127.0.0.1", "localhost")


@dataclass
class BrowserPage:
    tab: Any  # playwright.sync_api.Page
    url: str  # the served app's base URL
    server: BackgroundServer | None = None
    blocked: list[str] = field(default_factory=list)


@contextmanager
def chromium_tab(
    url: str, *, viewport: dict[str, int] | None = None, mobile: bool = False
) -> Iterator[BrowserPage]:
    """One Chromium tab for the app at ``url``; every request off the machine is aborted.
    ``mobile``: the tab behaves as a phone's browser, which lays out a page without a viewport
    tag 980 px wide."""
    from playwright.sync_api import Route, sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox"]
        )
        try:
            options: dict[str, Any] = {"is_mobile": True, "has_touch": True} if mobile else {}
            if viewport:
                options["viewport"] = viewport
            context = browser.new_context(**options)
            found = BrowserPage(tab=None, url=url)

            def guard(route: Route) -> None:
                parts = urlsplit(route.request.url)
                if parts.scheme in ("data", "blob") or parts.hostname in LOCAL_HOSTS:
                    route.continue_()
                else:
                    found.blocked.append(route.request.url)
                    route.abort()

            context.route("**/*", guard)
            found.tab = context.new_page()
            found.tab.set_default_timeout(TIMEOUT_MS)
            yield found
        finally:
            browser.close()


@contextmanager
def browser_page(
    app: FastAPI, *, viewport: dict[str, int] | None = None, mobile: bool = False
) -> Iterator[BrowserPage]:
    """``app`` served on loopback and one guarded Chromium tab on it."""
    with (
        BackgroundServer(app) as server,
        chromium_tab(server.url, viewport=viewport, mobile=mobile) as found,
    ):
        found.server = server
        yield found


@contextmanager
def dashboard_page(
    runtime: Any, *, viewport: dict[str, int] | None = None, mobile: bool = False
) -> Iterator[BrowserPage]:
    """The table's dashboard on ``runtime`` (the tests' director password) in a guarded tab;
    on leaving, no request has left the machine."""
    from tests.test_web_support import PASSWORD_HASH
    from web.app import create_app

    app = create_app(runtime, admin_password_hash=PASSWORD_HASH, keepalive_s=2.0)
    with browser_page(app, viewport=viewport, mobile=mobile) as found:
        yield found
        assert found.blocked == [], f"requests off the machine: {found.blocked}"
