"""Training samples of corner indices from the corner-boxes photos (``training.real_finder_crops``):
for the corner-index finder, whole photos moved, scaled, turned and lit at random with their
boxes.

A box here is ``(cx, cy, w, h)`` in pixels, axis-aligned, as the set's labels give it: it holds
the rank and suit sign of one corner of one card, in whatever way the card lies.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from training.real_finder_crops import FOLDERS, photos, read_labels


@dataclass(frozen=True)
class LabelledPhoto:
    image: np.ndarray  # BGR
    boxes: np.ndarray  # (n, 4): cx, cy, w, h in pixels
    codes: tuple[str, ...]  # the card of each box (Kibic's codes; ``back`` for a face-down card)
    folder: str


def load(part: str = "train", folders: tuple[str, ...] = FOLDERS) -> list[LabelledPhoto]:
    """The corner-boxes photos of ``part`` (train or tune, ``real_finder_crops.photos``)."""
    out = []
    for folder in folders:
        train, tune = photos(folder)
        for path in train if part == "train" else tune:
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                raise ValueError(f"{path}: not an image")
            h, w = image.shape[:2]
            labels = read_labels(path.parent.parent / "labels" / f"{path.stem}.txt", w, h)
            boxes = np.array([[b.cx, b.cy, b.w, b.h] for b in labels], np.float32).reshape(-1, 4)
            out.append(LabelledPhoto(image, boxes, tuple(b.code for b in labels), folder))
    return out


def box_corners(boxes: np.ndarray) -> np.ndarray:
    """(n, 4, 2): the four corners of each box."""
    cx, cy, w, h = (boxes[:, i] for i in range(4))
    xs = np.stack([cx - w / 2, cx + w / 2, cx + w / 2, cx - w / 2], axis=1)
    ys = np.stack([cy - h / 2, cy - h / 2, cy + h / 2, cy + h / 2], axis=1)
    return np.stack([xs, ys], axis=2)


def moved_boxes(boxes: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """The boxes after the affine ``matrix`` (2 x 3): centres moved, sides those of the box
    around the moved corners, shrunk by the turn's share so that a turned box does not grow
    (the sign inside it turns with it)."""
    if len(boxes) == 0:
        return boxes.reshape(0, 4)
    corners = box_corners(boxes) @ matrix[:, :2].T + matrix[:, 2]
    lo, hi = corners.min(axis=1), corners.max(axis=1)
    centre = (lo + hi) / 2
    scale = float(np.sqrt(abs(np.linalg.det(matrix[:, :2]))))
    # the sides: the box's own sides scaled, swapped when the turn is nearer a quarter turn
    angle = abs(float(np.degrees(np.arctan2(matrix[1, 0], matrix[0, 0])))) % 180
    sides = boxes[:, 2:4] * scale
    if 45 < angle < 135:
        sides = sides[:, ::-1]
    turned = np.minimum(sides * 1.15, hi - lo)
    return np.concatenate([centre, turned], axis=1).astype(np.float32)


def scene(photo: LabelledPhoto, rng: np.random.Generator, size: int,
          scale: tuple[float, float] = (0.35, 1.25)) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """A ``size`` x ``size`` training scene cut from ``photo``: turned by a random quarter turn
    and up to 25 degrees, scaled log-uniformly within ``scale``, a random part of it at the
    middle, the rest a plain random colour; lit, blurred and noised at random. Returns the
    image and the boxes (``back`` boxes left out) whose centres lie inside it."""
    h, w = photo.image.shape[:2]
    angle = 90.0 * int(rng.integers(4)) + rng.uniform(-25, 25)
    s = float(np.exp(rng.uniform(np.log(scale[0]), np.log(scale[1]))))
    centre = (rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h)
    matrix = np.asarray(cv2.getRotationMatrix2D(centre, angle, s), np.float64)
    matrix[:, 2] += (size / 2 - centre[0], size / 2 - centre[1])
    fill = tuple(int(v) for v in rng.integers(0, 256, 3))
    image = cv2.warpAffine(photo.image, matrix, (size, size), flags=cv2.INTER_AREA,
                           borderMode=cv2.BORDER_CONSTANT, borderValue=fill)  # fmt: skip
    keep = np.array([code != "back" for code in photo.codes], bool)
    boxes = moved_boxes(photo.boxes[keep], matrix)
    inside = (boxes[:, 0] >= 0) & (boxes[:, 0] < size) & (boxes[:, 1] >= 0) & (boxes[:, 1] < size)
    return light(image, rng), boxes[inside]


def light(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Random light, colour cast, blur and sensor noise."""
    out: np.ndarray = image.astype(np.float32) * rng.uniform(0.6, 1.3) + rng.uniform(-35, 35)
    out *= rng.uniform(0.9, 1.1, 3)  # a colour cast
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.5))
    out += rng.normal(0.0, rng.uniform(0.0, 7.0), out.shape)
    return np.clip(out, 0, 255).astype(np.uint8)
