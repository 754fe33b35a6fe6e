"""HTML of the director's login: the ``/login`` page and the login or logout strip at the top
of the table page's admin panel. Texts from ``web.i18n``; every value escaped."""

from __future__ import annotations

from html import escape
from urllib.parse import urlsplit

from web.i18n import t
from web.sessions import CSRF_FIELD


def e(value: object) -> str:
    return escape("" if value is None else str(value))


def safe_next(path: str | None, lang: str) -> str:
    """Where to go after logging in or out: a path of this server only, else the table page.

    >>> safe_next("/history?lang=en", "sr"), safe_next("//evil.example/", "en")
    ('/history?lang=en', '/?lang=en')
    """
    parts = urlsplit(path or "")
    if not path or not path.startswith("/") or parts.netloc or parts.scheme or "\\" in path:
        return f"/?lang={lang}"
    return path


def director_strip(lang: str, *, csrf: str | None, here: str) -> str:
    """Logged in: who is, and a logout button (a form carrying the CSRF token). Logged out:
    the password and a login button (``#admin-password``, as the page always had)."""
    nxt = (f'<input type="hidden" name="next" value="{e(here)}">'
           f'<input type="hidden" name="lang" value="{e(lang)}">')  # fmt: skip
    if csrf:
        return (
            f'<form id="logout-form" class="director-login" method="post" action="/logout">'
            f'<p class="logged-in">{e(t(lang, "logged_in"))}</p>{nxt}'
            f'<input type="hidden" name="{CSRF_FIELD}" value="{e(csrf)}">'
            f'<button type="submit">{e(t(lang, "logout_button"))}</button></form>'
        )
    return (
        f'<form id="login-form" class="director-login" method="post" action="/login">'
        f'<p class="hint">{e(t(lang, "login_hint"))}</p>{nxt}'
        f'<label>{e(t(lang, "password"))} <input id="admin-password" name="password" '
        f'type="password" autocomplete="current-password" required></label> '
        f'<button type="submit">{e(t(lang, "login_button"))}</button></form>'
    )


def login_page(lang: str, *, csrf: str | None, here: str, message: str = "", kind: str = "") -> str:
    """The whole ``/login`` page; ``message`` (wrong password, wait N s...) above the form,
    ``kind`` its status (``ok``, ``401``, ``429``) for the page's colours and the tests."""
    other = "en" if lang == "sr" else "sr"
    said = (
        f'<p id="login-message" class="form-result" role="alert" data-status="{e(kind)}">'
        f"{e(message)}</p>"
        if message
        else ""
    )
    title = t(lang, "login_title")
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{e(t(lang, 'app_name'))} · {e(title)}</title>"
        f'<link rel="stylesheet" href="/static/style.css"></head>'
        f'<body data-lang="{lang}"><header><strong class="brand">{e(t(lang, "app_name"))}</strong>'
        f'<nav><a href="/?lang={lang}">{e(t(lang, "login_back"))}</a></nav>'
        f'<a class="lang" href="/login?lang={other}">{e(t(lang, "lang_switch"))}</a></header>'
        f'<main class="admin login"><h1>{e(title)}</h1>{said}'
        f"{director_strip(lang, csrf=csrf, here=here)}</main></body></html>"
    )
