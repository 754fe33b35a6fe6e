"""Admin actions (the director's): each needs the table's password in ``X-Kibic-Password``,
or the director's session cookie (``POST /login``) with its token in ``X-Kibic-CSRF``.

A request the referee refuses (out of turn, wrong phase, unknown side...) is answered
409 ``{"detail": message}``; a malformed one 422 naming the field; no or a wrong password 401.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from referee.cards import Card
from web.deps import AdminDep, RuntimeDep
from web.schemas import (
    ActionIn,
    ConfirmCardIn,
    CorrectCardIn,
    ErrorOut,
    EventsOut,
    ScoreAdjustmentIn,
    StartGameIn,
)

ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorOut, "description": "No password, or a wrong one"},
    403: {"model": ErrorOut, "description": "The session cookie without its CSRF token"},
    409: {"model": ErrorOut, "description": "The referee refused the action (message says why)"},
}

router = APIRouter(prefix="/api", tags=["admin"], responses=ERRORS)


def _result(runtime: RuntimeDep, events: object) -> EventsOut:
    found = events if isinstance(events, list) else []
    return EventsOut(seq=int(runtime.snapshot().get("seq", 0)), events=found)


@router.post("/actions", response_model=EventsOut, summary="Submit a referee action")
def submit_action(body: ActionIn, runtime: RuntimeDep, _: AdminDep) -> EventsOut:
    """A play, bid, contract, declaration (zvanje)... as ``{"seat", "type", "card"?, "cards"?,
    "value"?}``. Returns the referee events it caused."""
    return _result(runtime, runtime.submit(body.to_action()))


@router.post("/game", response_model=EventsOut, summary="Start a new game (a new score sheet)")
def start_game(body: StartGameIn, runtime: RuntimeDep, _: AdminDep) -> EventsOut:
    return _result(runtime, runtime.start_game(body.spec, names=body.names))


@router.post("/undo", response_model=EventsOut, summary="Undo the last action of the deal")
def undo(runtime: RuntimeDep, _: AdminDep) -> EventsOut:
    return _result(runtime, runtime.undo())


@router.post(
    "/score-adjustments", response_model=EventsOut, summary="Correct a side's score (with reason)"
)
def adjust_score(body: ScoreAdjustmentIn, runtime: RuntimeDep, _: AdminDep) -> EventsOut:
    """``units`` are the game's units (tenths of a point in Satir); the reason goes on the sheet."""
    return _result(runtime, runtime.adjust_score(body.side, body.units, body.reason))


@router.post(
    "/pending/{request_id}/confirm",
    response_model=EventsOut,
    summary="Confirm a card the camera was not sure of (any card of the game's deck)",
)
def confirm_card(
    request_id: str, body: ConfirmCardIn, runtime: RuntimeDep, _: AdminDep
) -> EventsOut:
    return _result(runtime, runtime.confirm_card(request_id, Card.parse(body.card)))


@router.post(
    "/pending/{request_id}/dismiss",
    response_model=EventsOut,
    summary="Set aside a camera question (the director's): nothing is played",
)
def dismiss_request(request_id: str, runtime: RuntimeDep, _: AdminDep) -> EventsOut:
    """For a question no candidate answers once the card was entered another way, or one
    about a card that is not there. The log records the dismissal."""
    return _result(runtime, runtime.dismiss_request(request_id))


@router.post(
    "/corrections",
    response_model=EventsOut,
    summary="Correct a misread card of the deal: the deal is replayed with the right card",
)
def correct_card(body: CorrectCardIn, runtime: RuntimeDep, _: AdminDep) -> EventsOut:
    """The card ``seat`` is recorded as playing (``played``) was really ``card``: tricks,
    proofs and the score follow the referee on the corrected deal; the log says who corrected
    what. The current deal only (or the one just finished while nothing of the next is played)."""
    played, card = Card.parse(body.played), Card.parse(body.card)
    return _result(runtime, runtime.correct_card(body.seat, played, card, source="director"))


@router.post(
    "/director-calls/{call_id}/answer",
    response_model=EventsOut,
    summary="Answer a call for the director: it leaves the screens, the seat's light stops",
)
def answer_director(call_id: str, runtime: RuntimeDep, _: AdminDep) -> EventsOut:
    return _result(runtime, runtime.answer_director(call_id))
