"""The dashboard's pages (HTML, Serbian by default, ``?lang=en`` for English)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse

from web.deps import RuntimeDep, SettingsDep
from web.i18n import resolve_language
from web.render import page, partial
from web.routers.login import director_session

router = APIRouter(tags=["pages"], default_response_class=HTMLResponse)

Lang = Annotated[str | None, Query(description="sr (default) or en", max_length=5)]
NO_STORE = {"Cache-Control": "no-store"}


def _page(
    request: Request, runtime: RuntimeDep, settings: SettingsDep, lang: str | None, name: str
) -> HTMLResponse:
    language = resolve_language(lang, default=settings.language)
    session = director_session(request)  # logged in: the admin forms carry its CSRF token
    html = page(state=runtime.snapshot(), lang=language, name=name, admin=name == "table",
                findings=settings.findings, csrf=session.csrf if session else None)  # fmt: skip
    return HTMLResponse(html, headers=NO_STORE)


@router.get("/", summary="The table: seats, trick, trump, score sheet, penalties")
def table_page(
    request: Request, runtime: RuntimeDep, settings: SettingsDep, lang: Lang = None
) -> HTMLResponse:
    return _page(request, runtime, settings, lang, "table")


@router.get("/history", summary="The deal and game history")
def history_page(
    request: Request, runtime: RuntimeDep, settings: SettingsDep, lang: Lang = None
) -> HTMLResponse:
    return _page(request, runtime, settings, lang, "history")


@router.get("/summary", summary="The match summary")
def summary_page(
    request: Request, runtime: RuntimeDep, settings: SettingsDep, lang: Lang = None
) -> HTMLResponse:
    return _page(request, runtime, settings, lang, "summary")


class PartialCache:
    """The last few rendered live parts by (seq, language, page): every open dashboard asks
    for the same one after each change, so it is rendered once."""

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self._html: OrderedDict[tuple[int, str, str, str], str] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[int, str, str, str], render: Callable[[], str]) -> str:
        with self._lock:
            if key in self._html:
                return self._html[key]
        html = render()
        with self._lock:
            self._html[key] = html
            while len(self._html) > self.size:
                self._html.popitem(last=False)
        return html


def get_partial_cache(request: Request) -> PartialCache:
    cache: PartialCache | None = getattr(request.app.state, "partial_cache", None)
    if cache is None:
        cache = request.app.state.partial_cache = PartialCache()
    return cache


@router.get("/partials/{name}", summary="The live part of a page (re-fetched on each change)")
def page_partial(
    name: Literal["table", "history", "summary"],
    runtime: RuntimeDep,
    settings: SettingsDep,
    cache: Annotated[PartialCache, Depends(get_partial_cache)],
    lang: Lang = None,
) -> HTMLResponse:
    state = runtime.snapshot()
    language = resolve_language(lang, default=settings.language)
    seq = int(state.get("seq", 0))
    alerts = state.get("alerts") or []  # camera alerts come without a new seq
    camera = repr(sorted((state.get("camera") or {}).items()))  # changes without a new seq too
    key = (seq, f"{len(alerts)}:{alerts[-1] if alerts else ''}:{camera}", language, name)
    html = cache.get(key, lambda: partial(state=state, lang=language, name=name))
    return HTMLResponse(html, headers={**NO_STORE, "X-Kibic-Seq": str(seq)})
