"""The director's login: the ``/login`` page (``templates/login.html``); the login or logout
strip at the top of the table page's admin panel is the ``director_strip`` macro
(``templates/macros.html``). Texts from ``web.i18n``."""

from __future__ import annotations

from urllib.parse import urlsplit

from web.i18n import t
from web.templating import render


def safe_next(path: str | None, lang: str) -> str:
    """Where to go after logging in or out: a path of this server only, else the table page.

    >>> safe_next("/history?lang=en", "sr"), safe_next("//evil.example/", "en")
    ('/history?lang=en', '/?lang=en')
    """
    parts = urlsplit(path or "")
    if not path or not path.startswith("/") or parts.netloc or parts.scheme or "\\" in path:
        return f"/?lang={lang}"
    return path


def login_page(lang: str, *, csrf: str | None, here: str, message: str = "", kind: str = "") -> str:
    """The whole ``/login`` page; ``message`` (wrong password, wait N s...) above the form,
    ``kind`` its status (``ok``, ``401``, ``429``) for the page's colours and the tests."""
    return str(render("login.html", lang=lang, other="en" if lang == "sr" else "sr",
                      title=t(lang, "login_title"), csrf=csrf, here=here, message=message,
                      kind=kind))  # fmt: skip
