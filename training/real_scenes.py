"""Real photographs for the card detector's training (experiment 30, models/MODEL_HISTORY.md).

Two kinds, beside the generated scenes of ``training.detector_scenes``:

- **Real faces in generated scenes.** ``real_faces`` draws card faces from the training part
  of ``card-crops`` (``training.real_crops.split``): photos of dozens of printed designs,
  stretched back to a card's shape, laid by ``make_scene`` as any other deck is.
- **The edje-cards train photos themselves** (``edje_split``): real phone photos of hands and
  tables with a box on every card. Their labels are axis-aligned boxes, some of the part that
  shows and some of the whole card (experiment 22), so they teach the detector's heat alone
  (where a card is, and where none is); the quad's regression keeps learning from the
  generated scenes, whose corners are exact. Every fifth photo by name (``HOLD_EVERY``) is
  held out of training to decide on (its photos never reach a training machine: the pack
  carries their names only).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from training.real_crops import REAL_PHOTOS, face, read, split
from vision.evaluate import read_voc
from vision.sources import IMAGE_SUFFIXES

EDJE_TRAIN = REAL_PHOTOS / "edje-cards" / "images" / "train"
HOLD_EVERY = 5  # every fifth photo of edje train (by name) is held out to decide on


def edje_split(folder: Path = EDJE_TRAIN) -> tuple[list[Path], list[Path]]:
    """(fit, hold) photos of edje train, sorted by name: the 5th, 10th, ... are held out."""
    photos = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
    if not photos:
        raise FileNotFoundError(f"no edje-cards photos in {folder} (set KIBIC_REAL_PHOTOS)")
    fit = [p for i, p in enumerate(photos) if i % HOLD_EVERY != HOLD_EVERY - 1]
    hold = [p for i, p in enumerate(photos) if i % HOLD_EVERY == HOLD_EVERY - 1]
    return fit, hold


def real_faces(rng: np.random.Generator, count: int) -> list[np.ndarray]:
    """``count`` faces drawn at random from card-crops' training part (the tuning part is
    never read)."""
    train, _tune = split()
    pick = rng.choice(len(train), size=min(count, len(train)), replace=False)
    return [face(read(train[int(i)])) for i in pick]


@dataclass(frozen=True)
class LabelledPhoto:
    image: np.ndarray  # BGR
    boxes: np.ndarray  # (n, 4) x0, y0, x1, y1 in the image's pixels


def load_photos(paths: list[Path]) -> list[LabelledPhoto]:
    """Each photo with the boxes of its VOC file (``.xml`` beside it)."""
    out = []
    for path in paths:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise ValueError(f"{path}: not an image")
        xml = path.with_suffix(".xml")
        boxes = np.array([box for _name, box in read_voc(xml)], np.float32).reshape(-1, 4)
        size = ET.parse(xml).getroot().find("size")
        width = float(size.findtext("width", "0")) if size is not None else 0.0
        if width > 0 and int(width) != image.shape[1]:  # a copy made smaller (the GPU pack)
            boxes *= np.float32(image.shape[1] / width)
        out.append(LabelledPhoto(image, boxes))
    return out


def photo_sample(rng: np.random.Generator, photo: LabelledPhoto, size: tuple[int, int]
                 ) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """The photo as the detector sees one (``size`` = input height, width; shrunk to fit and
    letterboxed top-left on grey, as ``vision.detector`` does), at a random scale, a quarter
    turn now and then, light and colour jittered; with its boxes in the input's pixels."""
    image, boxes = photo.image, photo.boxes.copy()
    turns = int(rng.choice(4, p=[0.55, 0.15, 0.15, 0.15]))
    for _ in range(turns):  # a quarter turn clockwise: (x, y) -> (h - 1 - y, x)
        h = image.shape[0]
        image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
        x0, y0, x1, y1 = boxes.T.copy()
        boxes = np.stack([h - y1, x0, h - y0, x1], axis=1)
    th, tw = size
    ih, iw = image.shape[:2]
    scale = min(th / ih, tw / iw) * float(rng.uniform(0.6, 1.0))
    nw, nh = max(1, int(round(iw * scale))), max(1, int(round(ih * scale)))
    small = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA).astype(np.float32)
    small *= float(rng.uniform(0.6, 1.25)) * rng.uniform(0.85, 1.15, size=3).astype(np.float32)
    out = np.full((th, tw, 3), 128, np.uint8)
    out[:nh, :nw] = np.clip(small, 0, 255).astype(np.uint8)
    return out, boxes * np.float32(scale)


def box_targets(
    boxes: np.ndarray,
) -> tuple[list[np.ndarray], list[tuple[float, float, float] | None]]:
    """Corners (the box as a quad) and anchors (its centre, half its short side) for
    ``training.train_detector.encode``: the heat peaks at each box's centre."""
    corners: list[np.ndarray] = []
    anchors: list[tuple[float, float, float] | None] = []
    for x0, y0, x1, y1 in boxes:
        corners.append(np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32))
        anchors.append(((x0 + x1) / 2, (y0 + y1) / 2, min(x1 - x0, y1 - y0) / 2))
    return corners, anchors
