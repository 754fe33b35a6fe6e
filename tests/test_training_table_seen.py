"""A rendered face as the table's camera sees it (``training.table_seen``, experiment 132)."""

from __future__ import annotations

import cv2
import numpy as np

from training.table_seen import table_seen
from vision.card_faces import design_for_seed, render_face


def _sharpness(image: np.ndarray) -> float:
    return float(cv2.Laplacian(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.CV_64F).var())


def test_a_face_seen_at_the_table_keeps_its_layout_and_loses_its_strokes() -> None:
    face = render_face("french:AS", design_for_seed("french", 0))
    seen = table_seen(face, np.random.default_rng(4))
    assert seen.shape == face.shape and seen.dtype == np.uint8
    # warped back to where it was: the same card, pixel for pixel roughly where it lay
    a = face.astype(np.float64).ravel() - face.mean()
    b = seen.astype(np.float64).ravel() - seen.mean()
    assert float(a @ b / np.sqrt((a @ a) * (b @ b))) > 0.7
    # but its fine strokes blurred by the small paste: much less sharp, not blank
    assert 0.0 < _sharpness(seen) < 0.5 * _sharpness(face)


def test_a_face_seen_at_the_table_is_drawn_by_its_seed() -> None:
    face = render_face("french:7C", design_for_seed("french", 0))
    one, again = (table_seen(face, np.random.default_rng(9)) for _ in range(2))
    other = table_seen(face, np.random.default_rng(10))
    assert np.array_equal(one, again)
    assert not np.array_equal(one, other)
