"""The dashboard and JSON API of one table: ``create_app(runtime, admin_password_hash=...)``.

Routes (OpenAPI at /openapi.json, read at /docs and /redoc, served offline by ``web.docs``):

- pages: ``/`` (the table), ``/table`` (the table view), ``/history`` (``?deal=N&trick=K``
  replays a deal), ``/summary``; ``?lang=en`` for English;
- the director's login: ``GET``/``POST /login``, ``POST /logout`` (``web.sessions``: a session
  cookie per device, then admin actions from the pages need no password, only the session's
  CSRF token);
- read-only API: ``GET /api/state``, ``/api/games``, ``/api/history``, ``/api/export/transcript``,
  ``/api/export/csv``, and the live feed ``GET /api/live`` (Server-Sent Events); the camera's
  picture of a card ``GET /crops/{id}`` (JPEG);
- admin API (header ``X-Kibic-Password``, or the director's session cookie with
  ``X-Kibic-CSRF``): ``POST /api/actions``, ``/api/game``, ``/api/undo``,
  ``/api/score-adjustments``, ``/api/pending/{id}/confirm``, ``/api/pending/{id}/dismiss``,
  ``/api/corrections`` (a misread card), ``/api/director-calls/{id}/answer``;
- open to everyone at the table: ``POST /api/director-calls`` (call the director),
  ``POST /api/deals/{number}/agree`` (a side confirms a deal's score).

Errors: a malformed request is 422 naming the field; the referee refusing an action is 409
``{"detail": message}``; a missing or wrong password is 401, checked before the body is read;
a body over ``max_body_bytes`` (64 kB) is 413 unread (``web.guard``, which also sets the
security headers of every response).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from referee.errors import RefereeError
from web.deps import Finding, Runtime, WebSettings
from web.docs import add_docs
from web.guard import DEFAULT_MAX_BODY_BYTES, RequestGuard
from web.i18n import LANGUAGES
from web.live import LiveHub
from web.routers import admin, crops, director, exports, history, live, login, pages, state
from web.sessions import SessionStore
from web.throttle import PasswordThrottle

STATIC = Path(__file__).parent / "static"


def create_app(
    runtime: Runtime,
    *,
    admin_password_hash: str,
    language: str = "sr",
    keepalive_s: float = 10.0,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
    password_throttle: PasswordThrottle | None = None,
    sessions: SessionStore | None = None,
    findings: Sequence[Finding] = (),
) -> FastAPI:
    """The app for one table. The live hub (one runtime subscription) opens in the lifespan.
    ``findings``: what the configuration cannot do (``kibic.config_check``), shown on every
    page until the configuration is mended. ``sessions``: the director's logins (in this
    process's memory; a new store unless given)."""
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")
    settings = WebSettings(
        admin_password_hash=admin_password_hash,
        language=language,
        keepalive_s=keepalive_s,
        max_body_bytes=max_body_bytes,
        findings=tuple(findings),
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub = LiveHub(runtime, queue_size=settings.queue_size)
        await hub.start()
        app.state.hub = hub
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(
        title="Kibic",
        summary="Card-table companion: the table's dashboard and JSON API",
        description=__doc__,
        version="0.1.0",
        lifespan=lifespan,
        docs_url=None,  # both served by web.docs from installed files: a table has no internet
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.runtime = runtime
    app.state.throttle = throttle = password_throttle or PasswordThrottle()
    app.state.sessions = sessions = SessionStore() if sessions is None else sessions

    @app.exception_handler(RefereeError)
    async def referee_error(request: Request, exc: RefereeError) -> JSONResponse:
        return JSONResponse(status_code=409, content={"detail": str(exc)})

    @app.exception_handler(RuntimeError)
    async def not_recorded(request: Request, exc: RuntimeError) -> JSONResponse:
        """An error that names its ``http_status`` (the table's event store: 507 when the disk
        is full and the input was not recorded, 503 when it cannot be written) is answered with
        it and its message; any other is the server's error, as without this handler."""
        status = getattr(exc, "http_status", None)
        if not isinstance(status, int):
            raise exc
        return JSONResponse(status_code=status, content={"detail": str(exc)})

    for module in (state, live, admin, director, history, exports, crops, pages, login):
        app.include_router(module.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    docs_policies = add_docs(app, title="Kibic API")

    app.add_middleware(
        RequestGuard,  # type: ignore[arg-type]
        password_hash=admin_password_hash,
        admin_paths=[route.path_regex for route in admin.router.routes],  # type: ignore[attr-defined]
        max_body_bytes=max_body_bytes,
        csp_by_path=docs_policies,
        throttle=throttle,
        sessions=sessions,
    )
    return app
