"""What the players do themselves, with no password: call the director (like raising a
hand) and confirm a finished deal's score (each side, as on a Bridgemate).

The call is logged like every input, shown on the dashboard (and forwarded to the club) and
blinks the seat's light until the director answers it (``POST
/api/director-calls/{id}/answer``, an admin action).
"""

from __future__ import annotations

from fastapi import APIRouter

from web.deps import RuntimeDep
from web.schemas import AgreeDealIn, AgreedOut, CallDirectorIn, CallOut, ErrorOut

router = APIRouter(
    prefix="/api",
    tags=["director"],
    responses={409: {"model": ErrorOut, "description": "No such seat, side or finished deal"}},
)


@router.post("/director-calls", response_model=CallOut, summary="Call the director to the table")
def call_director(body: CallDirectorIn, runtime: RuntimeDep) -> CallOut:
    """``seat``: who calls (its light blinks); null for the whole table (every light blinks).
    A seat whose call is still open gets that call back, not a second one."""
    call_id = runtime.call_director(body.seat)
    return CallOut(id=call_id, seat=body.seat, seq=int(runtime.snapshot().get("seq", 0)))


@router.post(
    "/deals/{number}/agree", response_model=AgreedOut, summary="A side confirms a deal's score"
)
def agree_deal(number: int, body: AgreeDealIn, runtime: RuntimeDep) -> AgreedOut:
    """Until every side has confirmed it, the deal is shown as unconfirmed on the sheet (and
    at the club). Confirming twice changes nothing."""
    runtime.agree_deal(side=body.side, number=number)
    state = runtime.snapshot()
    record = state["deals"][number - 1]
    return AgreedOut(deal=number, agreed=record["agreed"], confirmed=record["confirmed"],
                     seq=int(state.get("seq", 0)))  # fmt: skip
