"""Crops that are no card but that the still-photo detector puts boxes on (the ``none`` class).

On the real photographs' train split the detector's boxes that match no card were mostly on
printed paper (text, tables), on boxes and covers lying under the cards, and inside a card's
picture; the classifier, which had seen only plain backgrounds, hands and card backs as
``none``, read many of them as the Joker (the face with most lettering) at 0.8 to 0.99.
``clutter_none_sample`` draws such crops (experiment 13, ``training.train --clutter-none``):

- a printed page: lines of letters and digits in the OpenCV Hershey fonts, some in bold or
  as a heading, sometimes ruled into a table, on paper of any tint;
- a piece of a table, desk, carpet or cloth (``training.detector_scenes.background``, which has
  papers, books, a phone and pens) seen at a random scale;
- the middle of a card face, without its corners and so without its index: a region the
  detector sometimes boxes apart from the whole card.
"""

from __future__ import annotations

import cv2
import numpy as np

from training.synth import FacePool
from vision.labels import ALL_LABELS
from vision.recognizer import INPUT_H, INPUT_W

GLYPHS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.,:-/()%$"
FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
    cv2.FONT_HERSHEY_PLAIN,
)
KINDS = {"page": 0.5, "surface": 0.3, "face-middle": 0.2}  # and how often each is drawn


def printed_page(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A piece of a printed page ``h`` x ``w`` (BGR uint8): text lines, maybe a ruled table."""
    paper = rng.uniform(200, 255) - rng.uniform(0, 25, size=3)
    img = np.zeros((h, w, 3), np.float32) + paper
    img = np.clip(img + rng.normal(0, 3, (h, w, 3)), 0, 255).astype(np.uint8)
    ink = tuple(float(v) for v in rng.uniform(0, 90, size=3))
    if rng.random() < 0.2:  # a coloured heading or print
        ink = tuple(float(v) for v in rng.uniform(0, 200, size=3))
    font = FONTS[int(rng.integers(len(FONTS)))]
    scale = float(rng.uniform(0.18, 0.9)) * w / 64
    (_, th), _ = cv2.getTextSize("Hg", font, scale, 1)
    line = max(int(th * rng.uniform(1.4, 2.4)), 4)
    thick = 2 if rng.random() < 0.25 else 1
    y = int(rng.uniform(-line, line))
    while y < h + line:
        x = int(rng.uniform(-w * 0.3, w * 0.2))
        while x < w:
            word = "".join(rng.choice(list(GLYPHS), size=int(rng.integers(1, 9))))
            cv2.putText(img, word, (x, y), font, scale, ink, thick, cv2.LINE_AA)
            (tw, _), _ = cv2.getTextSize(word + " ", font, scale, thick)
            x += tw + int(rng.uniform(0, tw))
        y += line
    if rng.random() < 0.35:  # ruled into a table
        step_y = max(line, 6)
        for yy in range(int(rng.integers(0, step_y)), h, step_y):
            cv2.line(img, (0, yy), (w, yy), ink, 1)
        for xx in np.cumsum(rng.uniform(0.15, 0.5, size=6) * w).astype(int):
            cv2.line(img, (int(xx), 0), (int(xx), h), ink, 1)
    return img


def _surface(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    from training.detector_scenes import background

    zoom = float(rng.uniform(1.0, 4.0))
    big = background(rng, int(h * zoom), int(w * zoom))
    return cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA)


def face_middle(rng: np.random.Generator, pool: FacePool) -> np.ndarray:
    """The middle of a random face: a box of 35 to 60 % of its sides, away from the corners
    (where the index is), scaled up to a crop."""
    face = pool.pick(ALL_LABELS[int(rng.integers(len(ALL_LABELS)))], rng)
    fh, fw = face.shape[:2]
    share = float(rng.uniform(0.35, 0.6))
    ch, cw = int(fh * share), int(fw * share)
    y0 = int(rng.uniform(0.2 * fh, fh - ch - 0.2 * fh + 1))
    x0 = int(rng.uniform(0.2 * fw, fw - cw - 0.2 * fw + 1))
    return cv2.resize(face[y0 : y0 + ch, x0 : x0 + cw], (INPUT_W, INPUT_H),
                      interpolation=cv2.INTER_AREA)  # fmt: skip


def turned(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """``img`` turned by up to 30 degrees about its centre (edges repeated), as a box lies."""
    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), float(rng.uniform(-30, 30)), 1.0)
    return cv2.warpAffine(img, m, (w, h), borderMode=cv2.BORDER_REFLECT)


def clutter_none_sample(rng: np.random.Generator, pool: FacePool,
                        kinds: tuple[str, ...] = tuple(KINDS)) -> np.ndarray:  # fmt: skip
    """One crop (INPUT_H x INPUT_W BGR) of one of ``kinds`` (of ``KINDS``, drawn as often as
    ``KINDS`` says among themselves), before ``synth.augment``."""
    weights = np.array([KINDS[k] for k in kinds])
    kind = kinds[int(rng.choice(len(kinds), p=weights / weights.sum()))]
    if kind == "page":
        return turned(printed_page(rng, INPUT_H, INPUT_W), rng)
    if kind == "surface":
        return _surface(rng, INPUT_H, INPUT_W)
    return face_middle(rng, pool)
