"""Real card faces for training: the ``card-crops`` photographs (../shared/data/real-photos).

3,180 photos and scans of real cards of dozens of printed designs, 60 of each of the 53 French
classes, each 224 x 224 with the card filling most of it (stretched to a square by the set's
publisher). A face is the photo stretched back to a card's shape (``FACE_H`` x ``FACE_W``): the
card's edges are the photo's, near enough, on nearly every image, and the classifier's warp
(``training.synth.warp_face``) adds the finder's corner errors on top.

The split is fixed by a seed: of each class, ``TUNE_PER_CLASS`` photos are kept out of training
to tune and measure on (``split()``), the rest train. A photo's card is its folder's, unless
``vision.label_errata`` says the photo shows another (``code_of``; experiment 101 found 17 such,
two of them in the tuning part): the split is drawn by folder either way. The set's own README
says where it comes from (CC0); its source's test folders are kept aside and never used here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.card_faces import FACE_H, FACE_W
from vision.label_errata import fixed

REAL_PHOTOS = Path(
    os.environ.get(
        "KIBIC_REAL_PHOTOS",
        str(Path(__file__).resolve().parents[2] / "shared" / "data" / "real-photos"),
    )
)
CROPS = REAL_PHOTOS / "card-crops" / "images"
SPLIT_SEED = 20261203
TUNE_PER_CLASS = 12


@dataclass(frozen=True)
class RealCrop:
    path: Path
    code: str  # Kibic's card code: ``TD``, ``JK``

    @property
    def label(self) -> str:
        return f"french:{self.code}"


def available(folder: Path = CROPS) -> bool:
    return folder.is_dir() and any(folder.glob("*/*.jpg"))


def split(folder: Path = CROPS) -> tuple[list[RealCrop], list[RealCrop]]:
    """(train, tune): of each class's photos (sorted by name), ``TUNE_PER_CLASS`` drawn with
    ``SPLIT_SEED`` are the tuning part; a missing folder raises FileNotFoundError naming it."""
    if not available(folder):
        raise FileNotFoundError(f"no card-crops photos in {folder} (set KIBIC_REAL_PHOTOS)")
    rng = np.random.default_rng(SPLIT_SEED)
    train: list[RealCrop] = []
    tune: list[RealCrop] = []
    for class_dir in sorted(p for p in folder.iterdir() if p.is_dir()):
        photos = [RealCrop(p, code_of(p)) for p in sorted(class_dir.glob("*.jpg"))]
        held = set(rng.choice(len(photos), size=min(TUNE_PER_CLASS, len(photos)), replace=False))
        for i, crop in enumerate(photos):
            (tune if i in held else train).append(crop)
    return train, tune


def code_of(path: Path) -> str:
    """The card the card-crops photo at ``path`` shows: its folder's name, or what
    ``vision.label_errata`` says it is.

    >>> code_of(Path("QC/QC-27.jpg")), code_of(Path("QC/QC-26.jpg"))
    ('QD', 'QC')
    """
    return fixed(path.name, 0, path.parent.name)


def face(image: np.ndarray) -> np.ndarray:
    """A card-crops photo as a card face, ``FACE_H`` x ``FACE_W`` BGR."""
    return cv2.resize(image, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)


def read(crop: RealCrop) -> np.ndarray:
    image = cv2.imread(str(crop.path), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError(f"{crop.path}: not an image")
    return image


def faces_by_label(crops: list[RealCrop]) -> dict[str, list[np.ndarray]]:
    """The faces of ``crops`` keyed by model label (``french:TD``)."""
    out: dict[str, list[np.ndarray]] = {}
    for crop in crops:
        out.setdefault(crop.label, []).append(face(read(crop)))
    return out


def pack(root: Path, scale: float = 1.0, quality: int = 85) -> tuple[int, int]:
    """Copy the training part's faces under ``root`` (a ``KIBIC_REAL_PHOTOS`` folder for a lent
    GPU machine), ``scale`` times ``FACE_H`` x ``FACE_W``, JPEG; the tuning part travels as
    empty files of the same names, so that the seeded split is the same there and none of its
    photos leaves this machine. Returns (faces, names kept out)."""
    train, tune = split()
    folder = root / "card-crops" / "images"
    size = (round(FACE_W * scale), round(FACE_H * scale))
    for crop in train:
        out = folder / crop.path.parent.name / crop.path.name
        out.parent.mkdir(parents=True, exist_ok=True)
        image = face(read(crop))
        if scale != 1.0:
            image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        cv2.imwrite(str(out), image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    for crop in tune:
        (folder / crop.path.parent.name / crop.path.name).touch()
    return len(train), len(tune)
