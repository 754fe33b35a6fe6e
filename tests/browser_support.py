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
    server: BackgroundServer
    blocked: list[str] = field(default_factory=list)

    @property
    def url(self) -> str:
        return self.server.url


@contextmanager
def browser_page(app: FastAPI, *, viewport: dict[str, int] | None = None) -> Iterator[BrowserPage]:
    """``app`` served on loopback and one Chromium tab on it; non-local requests aborted."""
    from playwright.sync_api import Route, sync_playwright

    with BackgroundServer(app) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox"]
        )
        try:
            context = browser.new_context(viewport=viewport) if viewport else browser.new_context()
            found = BrowserPage(tab=None, server=server)

            def guard(route: Route) -> None:
                url = route.request.url
                host = urlsplit(url).hostname or ""
                if urlsplit(url).scheme in ("data", "blob") or host in LOCAL_HOSTS:
                    route.continue_()
                else:
                    found.blocked.append(url)
                    route.abort()

            context.route("**/*", guard)
            found.tab = context.new_page()
            found.tab.set_default_timeout(TIMEOUT_MS)
            yield found
        finally:
            browser.close()
