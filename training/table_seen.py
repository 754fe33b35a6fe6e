"""A rendered card face as the table's camera sees it, for the corner-index reader's training
(``training.train_index --table-seen``, experiment 132 of models/MODEL_HISTORY.md).

At the table a card fills about 83 x 60 pixels of a 1280 x 720 frame (``vision.synthetic``: an
88 mm card on a 900 x 700 mm mat), and the tracker reads its corners from the card warped back
to face size (``vision.index_reader.face_of``) from the outline it found. A face rendered at
``FACE_H`` x ``FACE_W`` and only scaled down and up (``training.train_index.lowres``) keeps its
strokes; pasted into a frame at any angle by a bilinear perspective warp, as the table shows it,
the suit sign of its index becomes a blob of a few pixels, and the corner reader trained on the
first took the blobs of rendered spades for clubs at 0.85 or above (experiment 131).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.synthetic import FELT

SCALE = (0.3, 0.5)  # the card's size in the frame, of its rendered size
OUTLINE_PX = 1.0  # the found outline's error, each corner (standard deviation, frame px)


def table_seen(face: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``face`` (BGR, upright) pasted small into a felt frame at any angle with a little
    perspective, bilinear as the table's frames are drawn, then warped back to its own size
    from a slightly wrong outline, its light changed a little."""
    h, w = face.shape[:2]
    scale = rng.uniform(*SCALE)
    ch, cw = h * scale, w * scale
    side = int(max(ch, cw) * 1.6) + 8
    frame = np.full((side, side, 3), FELT, np.float32) + rng.normal(0.0, 6.0, (side, side, 3))
    frame = np.clip(frame, 0, 255).astype(np.uint8)
    turn = np.deg2rad(rng.uniform(0.0, 360.0))
    c, s = np.cos(turn), np.sin(turn)
    upright = np.array([[-cw, -ch], [cw, -ch], [cw, ch], [-cw, ch]]) / 2
    quad = upright @ np.array([[c, s], [-s, c]]) + side / 2
    quad += rng.normal(0.0, 0.02 * cw, (4, 2))  # a camera not quite above the card
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    paste = cv2.getPerspectiveTransform(src, quad.astype(np.float32))
    cv2.warpPerspective(face, paste, (side, side), dst=frame, flags=cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_TRANSPARENT)  # fmt: skip
    found = (quad + rng.normal(0.0, OUTLINE_PX, (4, 2))).astype(np.float32)
    back = cv2.getPerspectiveTransform(found, src)
    out = cv2.warpPerspective(frame, back, (w, h), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REPLICATE)  # fmt: skip
    lit = out.astype(np.float32) * rng.uniform(0.88, 1.12)
    return np.clip(lit, 0, 255).astype(np.uint8)
