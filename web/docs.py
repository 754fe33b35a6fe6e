"""The API docs pages, ``/docs`` (Swagger UI) and ``/redoc`` (ReDoc), served without internet.

A table and often a club have no internet, and FastAPI's own docs pages load their scripts,
styles and fonts from a CDN. Here the scripts and styles come from the ``fastapi-offline``
package (Swagger UI 5 and ReDoc 2, which read the OpenAPI 3.1 that FastAPI writes), mounted at
``ASSETS_URL``; ReDoc is asked for no Google fonts, and Swagger UI for no validator badge.
ReDoc's own logo, which it always loads from its CDN, is refused by the page's policy (and then
hidden by ReDoc), so nothing leaves the machine.

``add_docs(app, title=...)`` adds both pages and returns the Content-Security-Policy each page
needs (``docs_policy``): the app's middleware sends it on those paths instead of its own.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import fastapi_offline  # type: ignore[import-untyped]
from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS = Path(fastapi_offline.__file__).parent / "static"
ASSETS_URL = "/docs-assets"
DOCS_URL = "/docs"
REDOC_URL = "/redoc"
_INLINE_SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)


def docs_policy(html: str) -> str:
    """The policy of a docs page: scripts from this server plus each inline script of ``html``
    by its hash (Swagger UI's start-up call), inline styles (both UIs set them from script),
    images from here or ``data:``, the spec fetched from here, ReDoc's search worker from a
    ``blob:``; nothing from elsewhere, no framing."""
    hashes = "".join(
        " 'sha256-" + base64.b64encode(hashlib.sha256(s.encode()).digest()).decode() + "'"
        for s in _INLINE_SCRIPT.findall(html)
    )
    return (
        f"default-src 'self'; script-src 'self'{hashes}; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src 'self' blob:; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )


def add_docs(app: FastAPI, *, title: str) -> dict[str, str]:
    """Mount the assets and add ``/docs`` and ``/redoc`` to ``app`` (made with
    ``docs_url=None, redoc_url=None``); the answer maps each page's path to its policy."""
    if app.docs_url is not None or app.redoc_url is not None:
        raise ValueError("create the app with docs_url=None and redoc_url=None")
    openapi_url = app.openapi_url or "/openapi.json"
    app.mount(ASSETS_URL, StaticFiles(directory=ASSETS), name="docs-assets")
    swagger = get_swagger_ui_html(
        openapi_url=openapi_url,
        title=f"{title} · Swagger UI",
        swagger_js_url=f"{ASSETS_URL}/swagger-ui-bundle.js",
        swagger_css_url=f"{ASSETS_URL}/swagger-ui.css",
        swagger_favicon_url=f"{ASSETS_URL}/favicon.png",
        # no badge from validator.swagger.io: Swagger UI asks it whenever the host is not
        # "localhost", as at a table reached by its address
        swagger_ui_parameters={"validatorUrl": None},
    )
    redoc = get_redoc_html(
        openapi_url=openapi_url,
        title=f"{title} · ReDoc",
        redoc_js_url=f"{ASSETS_URL}/redoc.standalone.js",
        redoc_favicon_url=f"{ASSETS_URL}/favicon.png",
        with_google_fonts=False,
    )

    @app.get(DOCS_URL, include_in_schema=False)
    async def swagger_page() -> HTMLResponse:
        return swagger

    @app.get(REDOC_URL, include_in_schema=False)
    async def redoc_page() -> HTMLResponse:
        return redoc

    return {DOCS_URL: docs_policy(_text(swagger)), REDOC_URL: docs_policy(_text(redoc))}


def _text(page: HTMLResponse) -> str:
    return bytes(page.body).decode()
