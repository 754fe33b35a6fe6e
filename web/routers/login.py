"""The director's login: ``GET /login`` (the form), ``POST /login`` (the password, as a form:
on success the session cookie and back to the page), ``POST /logout`` (with the session's CSRF
token). Wrong passwords are throttled per address with the API's throttle (``web.throttle``):
a try while the address must wait is answered 429 with ``Retry-After``, and the page says how
long."""

from __future__ import annotations

import math
from typing import Annotated
from urllib.parse import parse_qs

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from web.deps import SettingsDep
from web.i18n import resolve_language, t
from web.login_page import login_page, safe_next
from web.sessions import COOKIE, CSRF_FIELD, Session, SessionStore
from web.throttle import PasswordThrottle

router = APIRouter(tags=["login"], default_response_class=HTMLResponse)

Lang = Annotated[str | None, Query(description="sr (default) or en", max_length=5)]
NO_STORE = {"Cache-Control": "no-store"}


def sessions_of(request: Request) -> SessionStore:
    store: SessionStore = request.app.state.sessions
    return store


def director_session(request: Request) -> Session | None:
    """The director's session of this request's cookie, if it is live."""
    return sessions_of(request).get(request.cookies.get(COOKIE))


async def _form(request: Request) -> dict[str, str]:
    """The fields of a posted form (application/x-www-form-urlencoded), first value each."""
    raw = (await request.body()).decode("utf-8", "replace")
    fields = parse_qs(raw, keep_blank_values=True, max_num_fields=8)
    return {name: values[0] for name, values in fields.items()}


def _answer(
    lang: str, request: Request, status: int, *, message: str = "", kind: str = "",
    here: str = "", headers: dict[str, str] | None = None,
) -> HTMLResponse:  # fmt: skip
    session = director_session(request)
    html = login_page(lang, csrf=session.csrf if session else None,
                      here=safe_next(here, lang), message=message, kind=kind)  # fmt: skip
    return HTMLResponse(html, status_code=status, headers={**NO_STORE, **(headers or {})})


@router.get("/login", summary="The director's login form")
def login_form(request: Request, settings: SettingsDep, lang: Lang = None,
               next: str | None = None) -> HTMLResponse:  # fmt: skip
    language = resolve_language(lang, default=settings.language)
    return _answer(language, request, 200, here=next or "")


@router.post("/login", summary="Log in as the director: the session cookie for this device")
async def login(request: Request, settings: SettingsDep) -> Response:
    form = await _form(request)
    lang = resolve_language(form.get("lang"), default=settings.language)
    here = safe_next(form.get("next"), lang)
    throttle: PasswordThrottle = request.app.state.throttle
    address = request.client.host if request.client else "unknown"

    def waiting(status: int, message_key: str = "") -> HTMLResponse:
        wait = math.ceil(throttle.wait_s(address)) or 1
        text = t(lang, "login_wait", seconds=wait)
        if message_key:
            text = f"{t(lang, message_key)} {text}"
        return _answer(lang, request, status, message=text, kind=str(status), here=here,
                       headers={"Retry-After": str(wait)})  # fmt: skip

    if not settings.admin_password_hash:
        return _answer(lang, request, 401, message=t(lang, "login_no_password"), kind="401",
                       here=here)  # fmt: skip
    password = form.get("password", "")
    right = await throttle.check(address, settings.admin_password_hash, password) if password \
        else False  # fmt: skip
    if right is None:
        return waiting(429)
    if not right:
        if throttle.wait_s(address) > 0:  # this wrong one started the wait: say so now
            return waiting(401, "login_wrong")
        return _answer(lang, request, 401, message=t(lang, "login_wrong"), kind="401", here=here)
    sessions_of(request).end(request.cookies.get(COOKIE))  # a device holds one session
    token, _ = sessions_of(request).create()
    response = RedirectResponse(here, status_code=303, headers=NO_STORE)
    response.set_cookie(
        COOKIE, token, max_age=int(sessions_of(request).lifetime_s), path="/", httponly=True,
        samesite="strict", secure=request.url.scheme == "https",
    )  # fmt: skip
    return response


@router.post("/logout", summary="Log the director out on this device (needs the CSRF token)")
async def logout(request: Request, settings: SettingsDep) -> Response:
    form = await _form(request)
    lang = resolve_language(form.get("lang"), default=settings.language)
    here = safe_next(form.get("next"), lang)
    session = director_session(request)
    if session is not None and not session.csrf_ok(form.get(CSRF_FIELD)):
        return _answer(lang, request, 403, message=t(lang, "err_403"), kind="403", here=here)
    sessions_of(request).end(request.cookies.get(COOKIE))
    response = RedirectResponse(here, status_code=303, headers=NO_STORE)
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict",
                           secure=request.url.scheme == "https")  # fmt: skip
    return response
