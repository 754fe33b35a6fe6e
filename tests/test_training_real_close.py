"""Close cards' quads as a detector finds them whole, cut as the card (training.real_close,
experiment 96): only the regions covering half the photo or more, each with its photo's label."""

from __future__ import annotations

import numpy as np
import pytest

from tests import needs
from training.real_close import MIN_AREA, close_quads, cut
from training.real_print import visible_box
from vision.detector import CardDetector
from vision.pipeline import find_in_still


def _faces_with_a_close_quad(detector: CardDetector, wanted: int) -> list[tuple[np.ndarray, str]]:
    """Card-crops training faces in which ``detector`` finds a region of half the photo."""
    from training.real_crops import CROPS, available, read, split

    if not available():
        pytest.skip(f"needs the real photos in {CROPS}")
    faces = []
    for crop in split()[0][::40]:
        image = read(crop)
        h, w = image.shape[:2]
        boxes = [visible_box(f) for f in find_in_still(image, detector=detector)]
        if any((b[2] - b[0]) * (b[3] - b[1]) >= MIN_AREA * w * h for b in boxes):
            faces.append((image, crop.label))
        if len(faces) == wanted:
            return faces
    pytest.fail("the detector found no close quad on a sample of the training faces")


def test_the_close_quads_are_the_regions_of_half_the_photo_or_more() -> None:
    detector = CardDetector()
    [(face, _)] = _faces_with_a_close_quad(detector, 1)
    h, w = face.shape[:2]
    found = find_in_still(face, detector=detector)
    areas = [
        (min(b[2], w) - max(b[0], 0)) * (min(b[3], h) - max(b[1], 0))
        for b in map(visible_box, found)
    ]
    quads = close_quads(face, detector)
    assert len(quads) == sum(a >= MIN_AREA * w * h for a in areas) >= 1
    assert all(q.shape == (96, 64, 3) and q.dtype == np.uint8 for q in quads)


def test_each_quad_is_labelled_with_its_photos_card() -> None:
    detector = CardDetector()
    faces = _faces_with_a_close_quad(detector, 2)
    crops, labels = cut(faces, detector)
    counts = [len(close_quads(image, detector)) for image, _ in faces]
    assert len(crops) == len(labels) == sum(counts)
    assert labels == [label for (_, label), n in zip(faces, counts, strict=True) for _ in range(n)]


def test_as_cards_replaces_the_share_by_kept_crops_with_their_labels() -> None:
    needs.torch()
    from training.train import as_cards

    kept = ([np.full((96, 64, 3), 200, np.uint8)], np.array([7]))
    labels = np.zeros(64, np.int64)
    crops = [np.zeros((96, 64, 3), np.uint8) for _ in range(64)]
    as_cards(np.random.default_rng(3), 0.5, kept, labels, crops)
    replaced = labels == 7
    assert 16 <= replaced.sum() <= 48
    assert all(crops[i].max() > 0 for i in np.flatnonzero(replaced))  # the kept crop, augmented
    assert all(crops[i].max() == 0 for i in np.flatnonzero(~replaced))  # the rest untouched
