"""Exports (read-only): the game transcript as JSON and the score sheet as CSV."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from web.deps import RuntimeDep

router = APIRouter(prefix="/api/export", tags=["exports"])


@router.get(
    "/transcript",
    summary="The game as a transcript (kibic referee replay reads it)",
    responses={200: {"content": {"application/json": {}}}},
)
def transcript(runtime: RuntimeDep) -> JSONResponse:
    return JSONResponse(
        runtime.export_transcript(),
        headers={"Content-Disposition": 'attachment; filename="kibic-transcript.json"'},
    )


@router.get(
    "/csv",
    summary="The score sheet as CSV",
    response_class=Response,
    responses={200: {"content": {"text/csv": {}}}},
)
def csv_sheet(runtime: RuntimeDep) -> Response:
    return Response(
        runtime.export_csv(),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": 'attachment; filename="kibic-sheet.csv"'},
    )
