"""The table's state (read-only): GET /api/state and the list of games the referee knows."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from referee.registry import all_games
from web.deps import RuntimeDep
from web.schemas import GameOut, TableStateOut

router = APIRouter(prefix="/api", tags=["state"])


@router.get("/state", response_model=TableStateOut, summary="The table's whole public state")
def get_state(runtime: RuntimeDep) -> dict[str, Any]:
    """Seats and names, the deal in progress (trick, whose turn, trump / joker suit, proven
    violations with their evidence), the score sheet, pending card confirmations and the
    recent referee events. ``seq`` grows with every change."""
    return runtime.snapshot()


@router.get("/games", response_model=list[GameOut], summary="Games the referee can run")
def list_games() -> list[GameOut]:
    return [
        GameOut(name=cls.name, title=cls.title or cls.name, aliases=list(cls.aliases))
        for cls in all_games()
    ]
