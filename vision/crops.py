"""The camera's picture of a card as the table keeps it: the warped crop the recogniser read
(``INPUT_H`` x ``INPUT_W``, upright), as JPEG, a few kB. It goes with the sighting to the table's
store, so a person can later see what the camera saw (a question, a correction)."""

from __future__ import annotations

import cv2
import numpy as np

#: JPEG quality of a kept crop: the card's index stays legible at a few kB
CROP_QUALITY = 90
CROP_MIME = "image/jpeg"


def encode_crop(crop: np.ndarray) -> bytes:
    """A BGR uint8 crop as JPEG bytes.

    >>> data = encode_crop(np.full((96, 64, 3), 255, np.uint8))
    >>> data[:2] == b"\\xff\\xd8", len(data) < 4096
    (True, True)
    """
    if crop.dtype != np.uint8 or crop.ndim != 3 or crop.shape[2] != 3 or not crop.size:
        raise ValueError(f"a crop is a BGR uint8 image, not {crop.dtype} {crop.shape}")
    ok, data = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, CROP_QUALITY])
    if not ok:
        raise ValueError("the crop could not be encoded as JPEG")
    return bytes(data.tobytes())


def decode_crop(data: bytes) -> np.ndarray:
    """JPEG bytes back as a BGR image (a test's and a tool's view of a kept crop)."""
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError("not an image")
    return image
