"""Calling the director: open to everyone at the table (no password), like raising a hand.

The call is logged like every input, shown on the dashboard (and forwarded to the club) and
blinks the seat's light until the director answers it (``POST
/api/director-calls/{id}/answer``, an admin action).
"""

from __future__ import annotations

from fastapi import APIRouter

from web.deps import RuntimeDep
from web.schemas import CallDirectorIn, CallOut, ErrorOut

router = APIRouter(
    prefix="/api",
    tags=["director"],
    responses={409: {"model": ErrorOut, "description": "No such seat at this table"}},
)


@router.post("/director-calls", response_model=CallOut, summary="Call the director to the table")
def call_director(body: CallDirectorIn, runtime: RuntimeDep) -> CallOut:
    """``seat``: who calls (its light blinks); null for the whole table (every light blinks).
    A seat whose call is still open gets that call back, not a second one."""
    call_id = runtime.call_director(body.seat)
    return CallOut(id=call_id, seat=body.seat, seq=int(runtime.snapshot().get("seq", 0)))
