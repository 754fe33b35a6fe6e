"""Real print and surfaces as the still-photo detector finds them: samples of 'none' (experiment 75).

The edje-cards train photos lie among books, calendars, labels, packaging and desks, and every
visible card in them is labelled. The learned detector finds regions on some of those things,
and the still-photo classifier reads some of them as cards (the readings of cards that are not
there, experiments 41 to 74). This module cuts the detector's regions that touch no labelled
card (their visible part overlaps every labelled box by at most ``MAX_OVERLAP`` of its area), as
the still path warps them, so that a classifier can learn them as 'none'.

Only the photos at even places of the sorted train list are used (``training.photo_check``'s
``edje_fitting_photos``): those at odd places are kept to measure on, and the edje test split is
never read here.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from vision.detector import CardDetector
from vision.evaluate import read_voc
from vision.finder import FoundCard, warp_card
from vision.pipeline import find_in_still

Box = tuple[float, float, float, float]
MAX_OVERLAP = 0.02  # of a region's visible area that may lie in labelled boxes


def visible_box(found: FoundCard) -> Box:
    """The box of the part of ``found`` that shows (the detector says), else of its corners."""
    visible = getattr(found, "visible", None)
    if visible is not None:
        return tuple(float(v) for v in visible)  # type: ignore[return-value]
    corners = np.asarray(found.corners, np.float64)
    (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
    return float(x0), float(y0), float(x1), float(y1)


def overlap_share(box: Box, labelled: Sequence[Box]) -> float:
    """The largest share of ``box``'s area that lies in one of the ``labelled`` boxes."""
    area = max((box[2] - box[0]) * (box[3] - box[1]), 1e-9)
    best = 0.0
    for x0, y0, x1, y1 in labelled:
        w = min(box[2], x1) - max(box[0], x0)
        h = min(box[3], y1) - max(box[1], y0)
        if w > 0 and h > 0:
            best = max(best, w * h / area)
    return best


def print_regions(image: np.ndarray, labelled: Sequence[Box], detector: CardDetector
                  ) -> list[np.ndarray]:  # fmt: skip
    """The crops of the detector's regions of ``image`` that touch no ``labelled`` box."""
    found = find_in_still(image, detector=detector)
    return [warp_card(image, f.corners, repeat_edge=True) for f in found
            if overlap_share(visible_box(f), labelled) <= MAX_OVERLAP]  # fmt: skip


def extract(photos: Sequence[Path] | None = None, detector: CardDetector | None = None
            ) -> list[np.ndarray]:  # fmt: skip
    """The print regions of ``photos`` (default the edje train photos at even places), each
    photo's own labels telling the cards; a photo with no label is passed over (nobody
    labelled it)."""
    if photos is None:
        from training.photo_check import edje_fitting_photos

        photos = edje_fitting_photos()
    detector = detector or CardDetector()
    crops: list[np.ndarray] = []
    for path in photos:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"{path}: not an image")
        labelled = [box for _, box in read_voc(path.with_suffix(".xml"))]
        if labelled:
            crops += print_regions(image, labelled, detector)
    return crops
