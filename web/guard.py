"""Limits before work: an ASGI middleware in front of the table's app.

- A request body over ``max_body_bytes`` is answered 413 without being read: at once when its
  ``Content-Length`` says so, else as soon as the bytes received pass the limit.
- An admin route's password (``X-Kibic-Password``) is checked before its body is read, so a
  request without the password costs no parsing and no memory; the route's own dependency then
  trusts the check (``ADMIN_VERIFIED`` in the ASGI scope) instead of hashing twice. Wrong
  passwords are throttled per address and PBKDF2 runs at most two at a time
  (``web.throttle``).
- Without the password header, an admin route takes the director's session cookie
  (``web.sessions``) with its CSRF token in ``X-Kibic-CSRF``: the cookie without the token, or
  with a wrong one, is answered 403; a session that has ended or expired is answered 401.
- Every response carries security headers: a Content-Security-Policy that the dashboard's pages
  satisfy (scripts and styles from ``/static`` only, no inline code; the API docs pages get
  their own, ``web.docs.docs_policy``), ``X-Frame-Options: DENY``,
  ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

from starlette.exceptions import HTTPException

from web.deps import ADMIN_VERIFIED
from web.sessions import SessionStore, cookie_token
from web.throttle import PasswordThrottle

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
#: a refused request's status, message and extra headers
Refusal = tuple[int, str, list[tuple[bytes, bytes]]]

PASSWORD_HEADER = b"x-kibic-password"
CSRF_HEADER = b"x-kibic-csrf"
SESSION_ENDED = (
    "the director's session has ended (logged out or expired): log in again at /login, "
    "or send the table's password in the X-Kibic-Password header"
)
CSRF_REFUSED = (
    "refused: the director's session cookie came {how} CSRF token (X-Kibic-CSRF); "
    "reload the page and try again"
)
DEFAULT_MAX_BODY_BYTES = 64 * 1024

PAGE_CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
STATIC_HEADERS = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)


class RequestGuard:
    """The middleware; ``admin_paths`` are the admin routes' path regexes (POST only)."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        password_hash: str,
        admin_paths: Iterable[re.Pattern[str]],
        max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
        csp_by_path: dict[str, str] | None = None,
        throttle: PasswordThrottle | None = None,
        sessions: SessionStore | None = None,
    ) -> None:
        self.app = app
        self.password_hash = password_hash
        self.admin_paths = tuple(admin_paths)
        self.max_body_bytes = max_body_bytes
        self.csp_by_path = dict(csp_by_path or {})
        self.throttle = throttle or PasswordThrottle()
        self.sessions = sessions

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        csp = self.csp_by_path.get(scope["path"], PAGE_CSP).encode()
        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                extra = [(b"content-security-policy", csp), *STATIC_HEADERS]
                headers.extend((n, v) for n, v in extra if n not in present)
                message["headers"] = headers
            await send(message)

        headers = dict(scope.get("headers", []))
        declared = headers.get(b"content-length")
        if declared is not None:
            if not declared.isdigit() or len(declared) > 18:
                await _answer(send_with_headers, 400, "Content-Length is not a number")
                return
            if int(declared) > self.max_body_bytes:
                await _answer(
                    send_with_headers, 413, self._too_large(f"of {int(declared):,} bytes ")
                )
                return
        if scope["method"] == "POST" and any(p.match(scope["path"]) for p in self.admin_paths):
            address = str((scope.get("client") or ("unknown",))[0])
            password = headers.get(PASSWORD_HEADER, b"").decode("latin-1")
            token = cookie_token(headers.get(b"cookie", b"").decode("latin-1"))
            if not password and token is not None and self.sessions is not None:
                refused = self._session_refusal(token, headers.get(CSRF_HEADER))
            else:
                refused = await self._password_refusal(address, password)
            if refused is not None:
                await _answer(send_with_headers, *refused)
                return
            scope[ADMIN_VERIFIED] = True
        received = 0

        async def counted_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body_bytes:
                    raise _TooLarge(self._too_large(""))
            return message

        try:
            await self.app(scope, counted_receive, send_with_headers)
        except _TooLarge as exc:  # raised where no route turned it into its 413 answer
            if started:
                raise
            await _answer(send_with_headers, 413, exc.detail)

    async def _password_refusal(self, address: str, password: str) -> Refusal | None:
        """401 for no or a wrong password, 429 while ``address`` must wait, else None."""
        right = await self._verified(address, password)
        if right is None:
            wait = math.ceil(self.throttle.wait_s(address)) or 1
            return (
                429,
                f"too many wrong passwords from {address}; try again in {wait} s",
                [(b"retry-after", str(wait).encode())],
            )
        if not right:
            return (
                401,
                "admin actions need the table's password in the X-Kibic-Password header",
                [(b"www-authenticate", b"X-Kibic-Password")],
            )
        return None

    def _session_refusal(self, token: str, csrf: bytes | None) -> Refusal | None:
        """Why an admin request on the session cookie ``token`` is refused, or None."""
        assert self.sessions is not None
        session = self.sessions.get(token)
        if session is None:
            return 401, SESSION_ENDED, []
        if not csrf:
            return 403, CSRF_REFUSED.format(how="without its"), []
        if not session.csrf_ok(csrf.decode("latin-1")):
            return 403, CSRF_REFUSED.format(how="with a wrong"), []
        return None

    async def _verified(self, address: str, password: str) -> bool | None:
        """True, False (401) or None (429: the address must wait)."""
        if not password or not self.password_hash:
            return False
        return await self.throttle.check(address, self.password_hash, password)

    def _too_large(self, size: str) -> str:
        return f"the request body {size}is over this table's limit of {self.max_body_bytes:,} bytes"


class _TooLarge(HTTPException):
    """Raised from ``receive`` once the body passes the limit; an HTTPException, so a route
    reading its body answers 413 with the message (FastAPI re-raises those unchanged)."""

    def __init__(self, detail: str) -> None:
        super().__init__(status_code=413, detail=detail, headers={"Connection": "close"})


async def _answer(
    send: Send, status: int, detail: str, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
