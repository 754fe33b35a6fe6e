"""The director's sessions: logged in once per device, then admin actions need no password.

``POST /login`` with the right password creates a session: a random token (32 bytes, not the
password or its hash) sent as the cookie ``kibic_session`` (HttpOnly, SameSite=Strict, Secure
over https) and a CSRF token of its own that the pages put in every admin request
(``X-Kibic-CSRF``, or the form field ``csrf`` of the logout form). The store keeps only a
SHA-256 of each token, in this server process's memory: a restart logs every device out.

>>> now = [0.0]
>>> store = SessionStore(lifetime_s=60, clock=lambda: now[0])
>>> token, session = store.create()
>>> store.get(token) is session, store.get("forged") is None
(True, True)
>>> session.csrf_ok(session.csrf), session.csrf_ok("x"), session.csrf_ok(None)
(True, False, False)
>>> now[0] = 61.0; store.get(token) is None
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

COOKIE = "kibic_session"
CSRF_HEADER = "X-Kibic-CSRF"
CSRF_FIELD = "csrf"
#: a director's session lasts a long evening at the table
DEFAULT_LIFETIME_S = 12 * 3600.0


@dataclass(frozen=True)
class Session:
    csrf: str
    expires: float  # the store's clock

    def csrf_ok(self, given: str | None) -> bool:
        """Whether ``given`` is this session's CSRF token (compared in constant time)."""
        if not given:
            return False
        return hmac.compare_digest(self.csrf.encode(), given.encode("utf-8", "surrogateescape"))


def _key(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogateescape")).hexdigest()


class SessionStore:
    """The live sessions of one server process (thread-safe; the oldest go past ``limit``)."""

    def __init__(
        self,
        *,
        lifetime_s: float = DEFAULT_LIFETIME_S,
        limit: int = 1000,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.lifetime_s = lifetime_s
        self.limit = limit
        self.clock = clock
        self._sessions: OrderedDict[str, Session] = OrderedDict()
        self._lock = threading.Lock()

    def create(self) -> tuple[str, Session]:
        """A new session: its cookie token (only the caller ever holds it) and the session."""
        token = secrets.token_urlsafe(32)
        session = Session(csrf=secrets.token_urlsafe(32), expires=self.clock() + self.lifetime_s)
        with self._lock:
            self._sessions[_key(token)] = session
            while len(self._sessions) > self.limit:
                self._sessions.popitem(last=False)
        return token, session

    def get(self, token: str | None) -> Session | None:
        """The session of ``token`` while it has not expired, else None."""
        if not token:
            return None
        key = _key(token)
        with self._lock:
            session = self._sessions.get(key)
            if session is not None and session.expires <= self.clock():
                del self._sessions[key]
                return None
        return session

    def end(self, token: str | None) -> bool:
        """Log the session of ``token`` out; whether there was one."""
        if not token:
            return False
        with self._lock:
            return self._sessions.pop(_key(token), None) is not None

    def __len__(self) -> int:
        return len(self._sessions)


def cookie_token(cookie_header: str) -> str | None:
    """The session token in a raw ``Cookie`` header, if any.

    >>> cookie_token("a=1; kibic_session=abc-_9; b=2"), cookie_token("a=1")
    ('abc-_9', None)
    """
    for part in cookie_header.split(";"):
        name, _, value = part.strip().partition("=")
        if name == COOKIE and value:
            return value
    return None
