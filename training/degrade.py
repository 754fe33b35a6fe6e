"""Image degradations shared by the generated training and evaluation data."""

from __future__ import annotations

import cv2
import numpy as np


def jpeg_roundtrip(img: np.ndarray, quality: int) -> np.ndarray:
    """``img`` (BGR uint8) saved as JPEG at ``quality`` and read back, as a phone or a camera
    would store it; ``img`` itself where encoding fails."""
    ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(enc, cv2.IMREAD_COLOR) if ok else None
    return img if decoded is None else decoded
