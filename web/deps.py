"""What the routers depend on: the settings, the table runtime, the live hub, the admin check.

The web package needs only this much of the table runtime (``kibic.runtime.TableRuntime``
satisfies it); tests may swap any of these with ``app.dependency_overrides``.

Authentication: admin routes need the table's password in the ``X-Kibic-Password`` header
(checked against the stored PBKDF2 hash with ``web.auth.verify_password``), or the director's
session cookie with its CSRF token (``web.sessions``, checked by ``web.guard``). A missing or
wrong password is answered 401. Everything else is read-only and open.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any, Protocol

from fastapi import Depends, HTTPException, Request, status
from fastapi.security import APIKeyHeader

from referee.actions import Action
from referee.cards import Card
from web.auth import verify_password

if TYPE_CHECKING:
    from web.live import LiveHub

PASSWORD_HEADER = "X-Kibic-Password"
ADMIN_VERIFIED = "kibic.admin_verified"  # set in the ASGI scope by web.guard.RequestGuard


class Finding(Protocol):
    """What ``kibic run`` found the configuration cannot do (``kibic.config_check.Finding``): its
    kind (an enum, worded by ``web.i18n`` as ``cfg_<kind>``), the key and the facts to word it."""

    @property
    def kind(self) -> Any: ...

    @property
    def key(self) -> str: ...

    @property
    def facts(self) -> Mapping[str, str]: ...


class Subscription(Protocol):
    def get(self, timeout: float) -> dict[str, Any] | None: ...

    def close(self) -> None: ...


class Runtime(Protocol):
    """The part of the table runtime the web package uses."""

    def snapshot(self) -> dict[str, Any]: ...

    def subscribe(self) -> Subscription: ...

    def submit(self, action: Action) -> list[dict[str, Any]]: ...

    def start_game(self, spec: str, *, names: Sequence[str] | None = None) -> Any: ...

    def undo(self) -> Any: ...

    def adjust_score(self, side: str, units: int, reason: str) -> Any: ...

    def confirm_card(self, request_id: str, card: Card) -> Any: ...

    def dismiss_request(self, request_id: str) -> Any: ...

    def correct_card(self, seat: int, played: Card, card: Card, *, source: str) -> Any: ...

    def crop(self, crop_id: str) -> tuple[bytes, str] | None: ...

    def call_director(self, seat: int | None = None) -> str: ...

    def answer_director(self, call_id: str) -> Any: ...

    def agree_deal(self, *, side: str | None = None, number: int | None = None) -> bool: ...

    def export_transcript(self) -> dict[str, Any]: ...

    def export_csv(self) -> str: ...


@dataclass(frozen=True)
class WebSettings:
    """The web app's settings, in one typed object."""

    admin_password_hash: str
    language: str = "sr"
    keepalive_s: float = 10.0
    queue_size: int = 256
    max_body_bytes: int = 64 * 1024
    #: what the configuration cannot do at this table (``kibic.config_check``), shown on pages
    findings: tuple[Finding, ...] = field(default_factory=tuple)


def get_settings(request: Request) -> WebSettings:
    settings: WebSettings = request.app.state.settings
    return settings


def get_runtime(request: Request) -> Runtime:
    runtime: Runtime = request.app.state.runtime
    return runtime


def get_hub(request: Request) -> LiveHub:
    hub: LiveHub = request.app.state.hub
    return hub


SettingsDep = Annotated[WebSettings, Depends(get_settings)]
RuntimeDep = Annotated[Runtime, Depends(get_runtime)]

_password_header = APIKeyHeader(
    name=PASSWORD_HEADER,
    auto_error=False,
    scheme_name="TablePassword",
    description="The table's admin password (the director's), sent as plain header text.",
)


def require_admin(
    request: Request,
    settings: SettingsDep,
    password: Annotated[str | None, Depends(_password_header)],
) -> None:
    """Let the request through only with the table's password (401 otherwise).

    ``web.guard.RequestGuard`` checks it before the body is read and marks the request; this
    dependency trusts the mark (one PBKDF2 per request) and checks by itself without it.
    A sync dependency: FastAPI runs it in the thread pool, so PBKDF2 does not block the loop.
    """
    if request.scope.get(ADMIN_VERIFIED) is True:
        return
    stored = settings.admin_password_hash
    if not password or not stored or not verify_password(stored, password):
        raise HTTPException(
            status_code=status.HTTP_401_UNAUTHORIZED,
            detail=f"admin actions need the table's password in the {PASSWORD_HEADER} header",
            headers={"WWW-Authenticate": PASSWORD_HEADER},
        )


AdminDep = Annotated[None, Depends(require_admin)]
