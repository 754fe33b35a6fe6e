"""The corner-index finder's own mistakes on the real training photos, as ``none`` samples for
the box reader (experiment 44).

The finder (``vision.corner_finder``) takes print, pips and patterns for corner indices; the box
reader then names a card that is not on the table. The places it finds on the training photos
that hold no index are real examples of what the reader should call ``none``. Of the real sets,
the ``edje-cards`` training photos have a box on every visible card (rank labels), so a found
box whose centre lies outside every card's box, grown by ``EDJE_MARGIN`` of its side, is on the
table, a hand or what else lies there: a book, a calendar, a game controller.

The ``card-crops`` training faces give another kind (``from_faces``, experiment 84): each photo
is one face filling it, so a box whose centre lies in the middle of the face, away from its
four corners, is a pip or a piece of a picture; those the reader reads as a card of another
rank are kept (a real index of a partial face, misread by its suit, keeps its rank).

The ``corner-boxes`` training photos are not used: their labels miss many indices (the second,
turned index of a single card; cards of the gold deck; the indices of a hand on the desk), so
the finder's boxes off their labels are often real indices.

Each is kept as a patch of ``PATCH`` times the square the reader reads around it, unturned
(``Negative``); ``sample`` cuts the reader's square from it, turned any way and moved a little,
as the reader sees the finder's boxes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.corner_finder import READ_SIDE, READ_SIZE, CornerFinder, square_cut
from vision.labels import NONE_LABEL

EDJE_MARGIN = 0.1  # an edje card's box grown by this share of its side on each side
FACE_CORNER = 0.3  # a face's corner zones: this share of its width and of its height
PATCH = 2.0  # a kept patch spans this many times the reader's square
PATCH_PX = int(PATCH * READ_SIZE)


@dataclass(frozen=True)
class Negative:
    """One box the finder found where there is no index: the patch around it (``PATCH_PX``
    square, BGR) and where it came from."""

    patch: np.ndarray
    photo: str
    box: tuple[float, float, float, float]  # cx, cy, w, h in the photo, px


def cut(image: np.ndarray, box: tuple[float, float, float, float], photo: str) -> Negative:
    cx, cy, bw, bh = box
    side = PATCH * READ_SIDE * max(bw, bh)
    return Negative(square_cut(image, cx, cy, side, 0.0, PATCH_PX), photo, box)


def off_cards(found: tuple[float, float, float, float],
              cards: Sequence[tuple[float, float, float, float]]) -> bool:  # fmt: skip
    """Whether a found box's centre lies outside every card box (x0, y0, x1, y1), each grown
    by ``EDJE_MARGIN``."""
    cx, cy = found[:2]
    for x0, y0, x1, y1 in cards:
        mx, my = EDJE_MARGIN * (x1 - x0), EDJE_MARGIN * (y1 - y0)
        if x0 - mx <= cx <= x1 + mx and y0 - my <= cy <= y1 + my:
            return False
    return True


def from_edje(paths: Iterable[Path], finder: CornerFinder) -> list[Negative]:
    """The finder's boxes off every card in each edje-cards photo (its VOC ``.xml`` beside)."""
    from vision.evaluate import read_voc

    out = []
    for path in paths:
        cards = [box for _, box in read_voc(path.with_suffix(".xml"))]
        if not cards:
            continue
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"{path}: not an image")
        out += [cut(image, box, path.name) for box, _ in finder.boxes(image)
                if off_cards(box, cards)]  # fmt: skip
    return out


def in_middle(box: tuple[float, float, float, float], width: int, height: int) -> bool:
    """Whether a found box's centre lies outside the four corner zones of a photo that is one
    face (``FACE_CORNER`` of its width and of its height from each corner)."""
    x, y = box[0] / width, box[1] / height
    return FACE_CORNER <= x <= 1 - FACE_CORNER or FACE_CORNER <= y <= 1 - FACE_CORNER


def rank_of(label: str) -> str:
    """The rank of a model label (``french:TD`` -> ``T``; the Joker ``french:JK`` -> ``JK``)."""
    code = label.partition(":")[2]
    return code if code == "JK" else code[:-1]


def from_faces(faces: Iterable[tuple[str, np.ndarray, str]],
               finder: CornerFinder) -> list[Negative]:  # fmt: skip
    """The finder's boxes in the middle of each face (its name, the photo, its model label) that
    its reader reads as a card of another rank."""
    out = []
    for name, image, label in faces:
        h, w = image.shape[:2]
        for found in finder.indices(image):
            read = found.label
            if (read != NONE_LABEL and rank_of(read) != rank_of(label)
                    and in_middle(found.box, w, h)):  # fmt: skip
                out.append(cut(image, found.box, name))
    return out


def sample(negative: Negative, rng: np.random.Generator) -> np.ndarray:
    """The reader's square from ``negative``'s patch: turned by any angle, its side 0.85 to 1.2
    times the square the reader reads there, its centre moved by up to a tenth of it."""
    side = PATCH_PX / PATCH * rng.uniform(0.85, 1.2)
    cx, cy = (PATCH_PX / 2 + rng.uniform(-0.1, 0.1, 2) * side).tolist()
    return square_cut(negative.patch, cx, cy, side, rng.uniform(0, 360), READ_SIZE)
