"""The history of the finished deals and the score sheet (read-only)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from web.deps import RuntimeDep
from web.schemas import HistoryOut

router = APIRouter(prefix="/api", tags=["history"])


@router.get("/history", response_model=HistoryOut, summary="Finished deals and the score sheet")
def history(runtime: RuntimeDep) -> dict[str, Any]:
    snap = runtime.snapshot()
    return {
        "table_id": snap.get("table_id", ""),
        "game": snap.get("game"),
        "names": snap.get("names", []),
        "deals": snap.get("deals", []),
        "match": snap.get("match"),
    }
