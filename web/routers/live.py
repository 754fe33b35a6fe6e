"""The live feed: GET /api/live, Server-Sent Events of every change at the table."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query
from fastapi.responses import StreamingResponse

from web.deps import SettingsDep, get_hub
from web.live import LiveHub

router = APIRouter(prefix="/api", tags=["live"])

_DESCRIPTION = """A `text/event-stream`. Each message is one line
`data: {"seq": int, "events": [referee event, ...], "state": <the same object as GET /api/state>}`
followed by a blank line. The first message is the current state with no events. While nothing
happens a comment line `: keep-alive` is sent about every 10 s. Use it from a page with
`new EventSource("/api/live")`."""


@router.get(
    "/live",
    summary="Live feed (Server-Sent Events)",
    description=_DESCRIPTION,
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {}}, "description": "The event stream"}},
)
async def live(
    settings: SettingsDep,
    hub: Annotated[LiveHub, Depends(get_hub)],
    limit: Annotated[
        int | None, Query(ge=1, description="End the stream after this many messages")
    ] = None,
) -> StreamingResponse:
    return StreamingResponse(
        hub.stream(keepalive_s=settings.keepalive_s, limit=limit),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
