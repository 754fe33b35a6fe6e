"""Real print and surfaces cut from the edje-cards train photos as 'none' (training.real_print,
experiment 75): only the detector's regions that touch no labelled card."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from training.real_print import extract, overlap_share, print_regions, visible_box
from vision.detector import CardDetector
from vision.evaluate import read_voc
from vision.finder import FoundCard
from vision.pipeline import find_in_still
from vision.real_sets import EDJE, edje_photos

needs_photos = pytest.mark.skipif(not (EDJE / "train").is_dir(),
                                  reason=f"needs the real photos in {EDJE}")  # fmt: skip


def test_the_share_of_a_region_inside_a_labelled_box() -> None:
    box = (0.0, 0.0, 10.0, 10.0)
    assert overlap_share(box, []) == 0.0
    assert overlap_share(box, [(20.0, 20.0, 30.0, 30.0)]) == 0.0
    assert overlap_share(box, [(5.0, 0.0, 30.0, 30.0), (0.0, 0.0, 10.0, 1.0)]) == 0.5
    assert overlap_share(box, [(-5.0, -5.0, 50.0, 50.0)]) == 1.0


def test_a_region_without_a_visible_part_is_measured_by_its_corners() -> None:
    corners = np.array([[10, 20], [40, 18], [42, 60], [8, 62]], np.float32)
    assert visible_box(FoundCard(corners)) == (8.0, 18.0, 42.0, 62.0)


@needs_photos
def test_only_the_regions_off_every_label_are_kept() -> None:
    """With no label every region is kept, with a label over the whole photo none is, and with
    the photo's own labels the regions on its cards are left out."""
    detector = CardDetector()
    photos = edje_photos("train")[0:40:2]
    crops = extract(photos, detector)
    assert crops and all(crop.shape == (96, 64, 3) for crop in crops)
    left_out = cards = 0
    for path in photos:
        image = cv2.imread(str(path))
        assert image is not None
        h, w = image.shape[:2]
        regions = len(find_in_still(image, detector=detector))
        assert len(print_regions(image, [], detector)) == regions
        assert print_regions(image, [(0.0, 0.0, float(w), float(h))], detector) == []
        labelled = [box for _, box in read_voc(path.with_suffix(".xml"))]
        left_out += regions - len(print_regions(image, labelled, detector))
        cards += len(labelled)
    assert cards / 2 <= left_out <= cards * 2  # the regions on the cards, about one a card
