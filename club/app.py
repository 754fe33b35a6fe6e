"""The club server (FastAPI): the forwarding API for tables, the results pages, exports.

``create_app(settings)`` opens the database in ``lifespan`` (migrating it to the head revision),
so tests swap the database by passing other settings. Tables authenticate with
``Authorization: Bearer <key>`` (the key ``kibic club issue-key`` printed); admin writes (players,
tournaments) with the club's admin token. The pages are in English or Serbian (``?lang=``, else
``ClubSettings.language``) and follow the store live: ``GET /events`` (``club.live``).
"""

from __future__ import annotations

import hmac
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Depends, FastAPI, Header, HTTPException, Query, Request
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
    StreamingResponse,
)
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, StringConstraints, field_validator
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from club import pages
from club.db import make_engine, migrate
from club.i18n import resolve
from club.results import TS_MAX
from club.service import ClubSettings, ResultsService, Window
from club.storage import (
    MAX_BATCH,
    TABLE_ID,
    BadKey,
    BatchRefused,
    ClubStore,
    IncomingEvent,
    LogConflict,
    RegisterError,
    Tournament,
    UnknownTable,
    non_finite,
)
from web.docs import add_docs

#: the pages' script (live updates)
STATIC = Path(__file__).parent / "static"

# -- API schemas (separate from the domain objects) --------------------------------------------
#: text of an id or a name: no control characters (PostgreSQL refuses NUL in text)
Text = Annotated[str, StringConstraints(pattern=r"^[^\x00-\x1f\x7f]*$")]
#: a table id or a tournament slug, in a path or a body
Slug = Annotated[str, StringConstraints(pattern=TABLE_ID.pattern)]
TableId = Annotated[str, PathParam(pattern=TABLE_ID.pattern, description="letters, digits, _ . -")]
SlugPath = Annotated[str, PathParam(pattern=TABLE_ID.pattern, description="letters, digits, _ . -")]
#: a time in seconds since 1970, finite (NaN and infinity are refused, naming the field)
Time = Annotated[float, Field(ge=0, le=TS_MAX, allow_inf_nan=False)]


class EventIn(BaseModel):
    id: Text = Field(min_length=1, max_length=128)
    seq: int = Field(ge=1)
    kind: Text = Field(min_length=1, max_length=32)
    payload: dict[str, Any]
    ts: Time

    @field_validator("payload")
    @classmethod
    def _finite_payload(cls, payload: dict[str, Any]) -> dict[str, Any]:
        path = non_finite(payload, "payload")
        if path is not None:
            raise ValueError(f"{path} is not a finite number (NaN and infinity are refused)")
        return payload


class BatchIn(BaseModel):
    events: list[EventIn] = Field(max_length=MAX_BATCH)


class CursorOut(BaseModel):
    table_id: str
    stored_upto: int
    accepted: int = 0


class PlayerIn(BaseModel):
    club_id: Text = Field(min_length=1, max_length=32)
    name: Text = Field(min_length=1, max_length=128)


class TournamentIn(BaseModel):
    slug: Slug = Field(min_length=1, max_length=64)
    name: Text = Field(min_length=1, max_length=200)
    starts_at: Time
    ends_at: Time | None = None
    tables: list[Slug] = Field(default_factory=list)
    game: Text | None = Field(default=None, max_length=200)


# -- dependencies ------------------------------------------------------------------------------
def get_service(request: Request) -> ResultsService:
    service: ResultsService = request.app.state.service
    return service


Service = Annotated[ResultsService, Depends(get_service)]


def bearer(authorization: Annotated[str | None, Header()] = None) -> str:
    if not authorization or not authorization.startswith("Bearer "):
        raise HTTPException(401, "missing 'Authorization: Bearer <key>'")
    return authorization[len("Bearer ") :].strip()


Key = Annotated[str, Depends(bearer)]


def require_admin(service: Service, key: Key) -> None:
    token = service.settings.admin_token
    if not token:
        raise HTTPException(403, "this club server has no admin token configured")
    # as bytes: a header may hold any latin-1 text, which compare_digest refuses as str
    given = key.encode("utf-8", "surrogateescape")
    if not hmac.compare_digest(token.encode("utf-8"), given):
        raise HTTPException(401, "wrong admin token")


Admin = Annotated[None, Depends(require_admin)]


# -- forwarding --------------------------------------------------------------------------------
forwarding = APIRouter(prefix="/api/v1/tables", tags=["forwarding"])


@forwarding.get("/{table_id}/cursor")
def get_cursor(table_id: TableId, service: Service, key: Key) -> CursorOut:
    try:
        return CursorOut(table_id=table_id, stored_upto=service.store.cursor(table_id, key))
    except (UnknownTable, BadKey) as exc:
        raise HTTPException(401, str(exc)) from None


@forwarding.post("/{table_id}/events")
def post_events(table_id: TableId, batch: BatchIn, service: Service, key: Key) -> CursorOut:
    events = [IncomingEvent(e.id, e.seq, e.kind, e.payload, e.ts) for e in batch.events]
    try:
        result = service.ingest(table_id, key, events)
    except (UnknownTable, BadKey) as exc:
        raise HTTPException(401, str(exc)) from None
    except LogConflict as exc:
        raise HTTPException(409, {"error": str(exc), "stored_upto": exc.stored_upto}) from None
    except BatchRefused as exc:  # does not replay on the stored log: nothing was stored
        raise HTTPException(422, exc.to_dict()) from None
    return CursorOut(table_id=table_id, stored_upto=result.stored_upto, accepted=result.accepted)


# -- results API -------------------------------------------------------------------------------
api = APIRouter(prefix="/api/v1", tags=["results"])


def _night(service: ResultsService, night: str | None) -> Window:
    if night is None:
        return service.night()
    try:
        return service.night(date.fromisoformat(night))
    except (ValueError, OverflowError):  # OverflowError: the night after 9999-12-31
        raise HTTPException(422, f"night must be YYYY-MM-DD, not {night!r}") from None


def _tournament(service: ResultsService, slug: str) -> Window:
    window = service.tournament_window(slug)
    if window is None:
        raise HTTPException(404, f"no tournament {slug!r}")
    return window


@api.get("/tables")
def list_tables(service: Service) -> list[dict[str, Any]]:
    return service.live()


@api.get("/tables/{table_id}/games")
def table_games(table_id: TableId, service: Service) -> list[dict[str, Any]]:
    return [g.to_dict() for g in service.table_games(table_id)]


@api.get("/tables/{table_id}/games/{game_seq}")
def one_game(table_id: TableId, game_seq: int, service: Service) -> dict[str, Any]:
    game = service.game(table_id, game_seq)
    if game is None:
        raise HTTPException(404, f"no game {table_id}/{game_seq}")
    return game.to_dict()


@api.get("/status")
def club_status(service: Service) -> dict[str, Any]:
    return service.status()


@api.get("/players")
def list_players(service: Service) -> list[dict[str, Any]]:
    return [{"club_id": p.club_id, "name": p.name} for p in service.store.players()]


@api.post("/players", status_code=201)
def add_player(player: PlayerIn, service: Service, _admin: Admin) -> dict[str, Any]:
    try:
        p = service.store.add_player(player.club_id, player.name)
    except RegisterError as exc:
        raise HTTPException(409, str(exc)) from None
    service.changes.changed()
    return {"club_id": p.club_id, "name": p.name}


@api.get("/players/{person}/results")
def player_results(person: str, service: Service) -> list[dict[str, Any]]:
    return service.player(person)


@api.get("/tournaments")
def list_tournaments(service: Service) -> list[dict[str, Any]]:
    return [{"slug": t.slug, "name": t.name, "starts_at": t.starts_at, "ends_at": t.ends_at,
             "tables": list(t.tables), "game": t.game} for t in service.store.tournaments()]  # fmt: skip


@api.post("/tournaments", status_code=201)
def add_tournament(body: TournamentIn, service: Service, _admin: Admin) -> dict[str, Any]:
    t = Tournament(body.slug, body.name, body.starts_at, body.ends_at, tuple(body.tables),
                   body.game)  # fmt: skip
    try:
        service.store.add_tournament(t)
    except RegisterError as exc:
        raise HTTPException(409, str(exc)) from None
    service.changes.changed()
    return {"slug": t.slug}


@api.get("/tournaments/{slug}/standings")
def tournament_standings(slug: SlugPath, service: Service) -> dict[str, Any]:
    report = service.report(_tournament(service, slug))
    return {"label": report["label"], "name": report["name"], **report["standings"]}


@api.get("/penalties")
def penalties(service: Service, night: str | None = None) -> list[dict[str, Any]]:
    return [p.to_dict() for p in service.penalties(_night(service, night))]


# -- exports -----------------------------------------------------------------------------------
exports = APIRouter(prefix="/export", tags=["exports"])


def _export(service: ResultsService, window: Window, fmt: str, stem: str) -> Response:
    disposition = {"Content-Disposition": f'attachment; filename="{stem}.{fmt}"'}
    if fmt == "json":
        return JSONResponse(service.report(window), headers=disposition)
    if fmt == "csv":
        return PlainTextResponse(service.report_csv(window), media_type="text/csv",
                                 headers=disposition)  # fmt: skip
    raise HTTPException(404, "exports are .csv or .json")


@exports.get("/night/{night}.{fmt}")
def export_night(night: str, fmt: str, service: Service) -> Response:
    return _export(service, _night(service, night), fmt, f"night-{night}")


@exports.get("/tournament/{slug}.{fmt}")
def export_tournament(slug: SlugPath, fmt: str, service: Service) -> Response:
    return _export(service, _tournament(service, slug), fmt, f"tournament-{slug}")


# -- pages -------------------------------------------------------------------------------------
html = APIRouter(tags=["pages"], default_response_class=HTMLResponse)
Lang = Annotated[str | None, Query(description="the page's language: en or sr (else the server's)")]


@dataclass(frozen=True)
class PageView:
    """A page's language and the store's change count before the page read the store: the
    page carries the count, so its script fetches it again for a change made meanwhile."""

    lang: str
    changes: int

    def answer(self, html: str) -> HTMLResponse:
        return HTMLResponse(pages.with_changes(html, self.changes))


def page_view(service: Service, lang: Lang = None) -> PageView:
    return PageView(resolve(lang, service.settings.language), service.changes.count)


View = Annotated[PageView, Depends(page_view)]


@html.get("/")
def page_live(service: Service, view: View) -> HTMLResponse:
    return view.answer(pages.live_page(service.live(), view.lang))


@html.get("/tables/{table_id}")
def page_table(table_id: TableId, service: Service, view: View) -> HTMLResponse:
    games = service.table_games(table_id)
    damage = [d.to_dict() for d in service.damaged(table_id)]
    return view.answer(pages.table_page(table_id, games, view.lang, damage))


@html.get("/tables/{table_id}/games/{game_seq}")
def page_game(table_id: TableId, game_seq: int, service: Service, view: View) -> HTMLResponse:
    game = service.game(table_id, game_seq)
    if game is None:
        raise HTTPException(404, f"no game {table_id}/{game_seq}")
    return view.answer(pages.game_page(game, view.lang))


@html.get("/players")
def page_players(service: Service, view: View) -> HTMLResponse:
    report = service.report(Window("all", 0.0, None))
    return view.answer(pages.players_page(service.store.players(), report, view.lang))


@html.get("/players/{person}")
def page_player(person: str, service: Service, view: View) -> HTMLResponse:
    name = next((p.name for p in service.store.players() if p.club_id == person), person)
    return view.answer(pages.player_page(name, service.player(person), view.lang,
                                         f"/players/{quote(person)}"))  # fmt: skip


@html.get("/tournaments/{slug}")
def page_tournament(slug: SlugPath, service: Service, view: View) -> HTMLResponse:
    report = service.report(_tournament(service, slug))
    return view.answer(pages.report_page(report, slug=slug, lang=view.lang,
                                         here=f"/tournaments/{quote(slug)}"))  # fmt: skip


@html.get("/nights/{night}")
def page_night(night: str, service: Service, view: View) -> HTMLResponse:
    report = service.report(_night(service, night))
    return view.answer(pages.report_page(report, lang=view.lang,
                                         here=f"/nights/{quote(night)}"))  # fmt: skip


@html.get("/status")
def page_status(service: Service, view: View) -> HTMLResponse:
    return view.answer(pages.status_page(service.status(), view.lang))


@html.get("/penalties")
def page_penalties(service: Service, view: View, night: str | None = None) -> HTMLResponse:
    window = _night(service, night)
    here = f"/penalties?night={quote(night)}" if night else "/penalties"
    return view.answer(pages.penalties_page(window.label, service.penalties(window), view.lang,
                                            here))  # fmt: skip


@html.get("/events", response_class=StreamingResponse,
          responses={200: {"content": {"text/event-stream": {}}}})  # fmt: skip
async def live_events(
    service: Service,
    limit: Annotated[int | None, Query(ge=1, description="end after this many messages")] = None,
) -> StreamingResponse:
    """Server-Sent Events: ``data: {"changes": N}`` now and after each change of the club's
    store (a table's forwarded events, a refused batch, a player, a tournament); the pages'
    script re-fetches its page on each."""
    return StreamingResponse(
        service.changes.stream(keepalive_s=service.settings.keepalive_s, limit=limit),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


#: the pages hold one script, this server's /static/live.js (it fetches from here only), and one
#: inline style (allowed by its hash); nothing may frame them
CSP = (f"default-src 'none'; style-src '{pages.STYLE_HASH}'; script-src 'self'; "
       "connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")  # fmt: skip
HEADERS = {"X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff",
           "Referrer-Policy": "same-origin"}  # fmt: skip


class SecurityHeaders:
    """Adds the security headers to every response (pure ASGI: streaming is untouched); the
    paths of ``csp_by_path`` (the API docs pages) get their own policy instead of ``CSP``."""

    def __init__(self, app: ASGIApp, *, csp_by_path: dict[str, str]) -> None:
        self.app = app
        self.csp_by_path = dict(csp_by_path)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        policy = self.csp_by_path.get(scope.get("path", ""), CSP)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers[name] = value
                headers["Content-Security-Policy"] = policy
            await send(message)

        await self.app(scope, receive, with_headers)


async def invalid_request(_request: Request, exc: Exception) -> JSONResponse:
    """422 naming each field that was wrong; the input itself is not echoed (it may hold a NaN,
    which JSON cannot carry, or be large)."""
    errors = exc.errors() if isinstance(exc, RequestValidationError) else []
    return JSONResponse(
        {"detail": [{"loc": list(err.get("loc", ())), "msg": str(err.get("msg", "")),
                     "type": str(err.get("type", ""))} for err in errors]},
        status_code=422,
    )  # fmt: skip


def create_app(settings: ClubSettings | None = None) -> FastAPI:
    settings = settings or ClubSettings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.database_url)
        if settings.migrate:
            migrate(engine)
        app.state.service = ResultsService(ClubStore(engine), settings)
        try:
            yield
        finally:
            engine.dispose()

    # the API docs are served from installed files (web.docs): a club may have no internet
    app = FastAPI(title="Kibic club server", lifespan=lifespan, docs_url=None, redoc_url=None)
    app.add_middleware(SecurityHeaders, csp_by_path=add_docs(app, title="Kibic club server"))
    app.add_exception_handler(RequestValidationError, invalid_request)
    for router in (forwarding, api, exports, html):
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/healthz", include_in_schema=False)
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    return app
