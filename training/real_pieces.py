"""Pieces of real card faces as the still-photo detector finds them: samples of 'none'
(experiment 86).

Each card-crops photo is one face filling it. The learned detector also finds pieces of it (a
court's frame, a block of pips) and the still-photo classifier reads some of them as other cards:
most of the readings of cards not there on close crops. This module cuts, on the training faces
only, the detector's regions that cover less than ``MAX_AREA`` of the photo, hold none of the
four index corners' centres (``INDEX_CENTRES``: a strip with an index is what a fanned card
shows, and stays a card) and that ``classifier`` reads as a card of another rank, warped as the
still path warps them, so that a gate can learn them as 'none'.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from training.hard_negatives import rank_of
from training.real_print import visible_box
from vision.detector import CardDetector
from vision.finder import warp_card
from vision.labels import NONE_LABEL
from vision.pipeline import find_in_still
from vision.recognizer import Recognizer

MAX_AREA = 0.5  # of the photo, a region's visible box
# where the index corners' centres lie, as shares of a face's width and height (all four: some
# designs print an index in every corner)
INDEX_CENTRES = ((0.11, 0.14), (0.89, 0.14), (0.89, 0.86), (0.11, 0.86))


def holds_an_index(box: tuple[float, float, float, float], width: int, height: int) -> bool:
    """Whether a visible box (x0, y0, x1, y1; px) holds the centre of an index corner."""
    x0, y0, x1, y1 = box
    return any(x0 <= fx * width <= x1 and y0 <= fy * height <= y1 for fx, fy in INDEX_CENTRES)


def pieces_of(image: np.ndarray, label: str, detector: CardDetector,
              classifier: Recognizer) -> list[np.ndarray]:  # fmt: skip
    """The crops of the detector's pieces of the face ``image`` (its model label ``label``)."""
    h, w = image.shape[:2]
    crops = []
    for found in find_in_still(image, detector=detector):
        box = visible_box(found)
        small = (box[2] - box[0]) * (box[3] - box[1]) < MAX_AREA * w * h
        if small and not holds_an_index(box, w, h):
            crops.append(warp_card(image, found.corners, repeat_edge=True))
    reads = classifier.predict(crops) if crops else []  # one batch a face
    return [crop for crop, read in zip(crops, reads, strict=True)
            if read.label != NONE_LABEL and rank_of(read.label) != rank_of(label)]  # fmt: skip


def reader_paths(classifier: Path | None = None, gates: Sequence[Path] | None = None,
                 ) -> tuple[Path, tuple[Path, ...]]:  # fmt: skip
    """The still-photo classifier and gates that read the pieces: those named, else the ones
    shipped now (``vision.recognizer.PHOTO_MODEL`` and each of ``PHOTO_GATES`` shipped). The
    shipped ones change as gates are added, so a training run records them by name and
    fingerprint (``described``) and its command names them (experiment 100)."""
    from vision.recognizer import PHOTO_MODEL, shipped_gates

    return classifier or PHOTO_MODEL, tuple(shipped_gates() if gates is None else gates)


def described(classifier: Path, gates: Sequence[Path]) -> str:
    """The reader of the pieces as a training record says it: each file by name and the first
    16 hex digits of its SHA-256 (``vision.recognizer.model_fingerprint``)."""
    from models import command_path
    from vision.recognizer import model_fingerprint

    def one(path: Path) -> str:
        return f"{command_path(path)} ({model_fingerprint(path)})"

    past = ", ".join(one(g) for g in gates) if gates else "no gate"
    return f"{one(classifier)} past {past}"


def extract(faces: Iterable[tuple[np.ndarray, str]] | None = None,
            detector: CardDetector | None = None,
            classifier: Recognizer | None = None) -> list[np.ndarray]:  # fmt: skip
    """The pieces of ``faces`` (photo, model label; default card-crops' training part), found
    by ``detector`` and read by ``classifier`` (default the shipped detector and still-photo
    classifier)."""
    if faces is None:
        from training.real_crops import read, split

        faces = ((read(crop), crop.label) for crop in split()[0])
    if classifier is None:
        from vision.recognizer import photo_recognizer

        classifier = photo_recognizer()
    detector = detector or CardDetector()
    return [
        crop for image, label in faces for crop in pieces_of(image, label, detector, classifier)
    ]
