"""The camera's pictures: ``GET /crops/{id}``, the warped card a reading was made from (JPEG).

The live state names a card's picture by id only (``crops`` by card, ``crop`` of a camera
question); the bytes come from here, once per picture (a picture's id is its content's hash, so
it never changes and the browser keeps it).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, HTTPException, Path, status
from fastapi.responses import Response

from web.deps import RuntimeDep
from web.schemas import ErrorOut

router = APIRouter(tags=["camera"])

CropId = Annotated[str, Path(max_length=64, description="The picture's id, as the state names it")]


@router.get(
    "/crops/{crop_id}",
    response_class=Response,
    summary="The camera's picture of a card (JPEG)",
    responses={
        200: {"content": {"image/jpeg": {}}, "description": "The warped card the camera read"},
        404: {"model": ErrorOut, "description": "No picture of that id at this table"},
    },
)
def crop(crop_id: CropId, runtime: RuntimeDep) -> Response:
    found = runtime.crop(crop_id)
    if found is None:
        raise HTTPException(
            status.HTTP_404_NOT_FOUND, f"no camera picture {crop_id!r} at this table"
        )
    data, mime = found
    return Response(data, media_type=mime,
                    headers={"Cache-Control": "private, max-age=86400, immutable"})  # fmt: skip
