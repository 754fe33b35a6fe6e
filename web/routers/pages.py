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
View = Annotated[
    Literal["list"] | None,
    Query(description="list: stay here (a tab's first page on a landscape touch screen: /table)"),
]
Deal = Annotated[int | None, Query(ge=1, description="replay this finished deal")]
Trick = Annotated[int | None, Query(ge=1, description="at this trick (from 1)")]
NO_STORE = {"Cache-Control": "no-store"}


def _page(
    request: Request,
    runtime: RuntimeDep,
    settings: SettingsDep,
    lang: str | None,
    name: str,
    options: dict[str, int | None] | None = None,
) -> HTMLResponse:
    language = resolve_language(lang, default=settings.language)
    session = director_session(request)  # logged in: the admin forms carry its CSRF token
    html = page(state=runtime.snapshot(), lang=language, name=name, admin=name == "table",
                findings=settings.findings, options=options,
                csrf=session.csrf if session else None)  # fmt: skip
    return HTMLResponse(html, headers=NO_STORE)


@router.get("/", summary="The table: seats, trick, trump, score sheet, penalties")
def table_page(
    request: Request,
    runtime: RuntimeDep,
    settings: SettingsDep,
    lang: Lang = None,
    view: View = None,
) -> HTMLResponse:
    """The list of everything at the table, with the director's panel. As the first page of a
    browser tab on a touch screen held landscape its script opens the table view instead,
    unless ``view=list``."""
    return _page(request, runtime, settings, lang, "table")


@router.get("/table", summary="The table view: the table from above, for a tablet at the table")
def table_view_page(
    request: Request, runtime: RuntimeDep, settings: SettingsDep, lang: Lang = None
) -> HTMLResponse:
    return _page(request, runtime, settings, lang, "tableview")


@router.get("/history", summary="The deal and game history, a deal replayed trick by trick")
def history_page(
    request: Request,
    runtime: RuntimeDep,
    settings: SettingsDep,
    lang: Lang = None,
    deal: Deal = None,
    trick: Trick = None,
) -> HTMLResponse:
    options = {"deal": deal, "trick": trick} if deal is not None else None
    return _page(request, runtime, settings, lang, "history", options)


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
    name: Literal["table", "tableview", "history", "summary"],
    runtime: RuntimeDep,
    settings: SettingsDep,
    cache: Annotated[PartialCache, Depends(get_partial_cache)],
    lang: Lang = None,
    deal: Deal = None,
    trick: Trick = None,
) -> HTMLResponse:
    state = runtime.snapshot()
    language = resolve_language(lang, default=settings.language)
    seq = int(state.get("seq", 0))
    alerts = state.get("alerts") or []  # camera alerts come without a new seq
    camera = repr(sorted((state.get("camera") or {}).items()))  # changes without a new seq too
    options = {"deal": deal, "trick": trick} if name == "history" and deal is not None else None
    key = (seq, f"{len(alerts)}:{alerts[-1] if alerts else ''}:{camera}", language,
           f"{name}:{deal}:{trick}" if options else name)  # fmt: skip
    html = cache.get(key, lambda: partial(state=state, lang=language, name=name, options=options))
    return HTMLResponse(html, headers={**NO_STORE, "X-Kibic-Seq": str(seq)})
