"""Training scenes for the card detector: photo-like images and every card's four corners.

A generalisation of ``training.photo_eval.make_scene`` with the variety of real phone photos:
more backgrounds (procedural wood, carpet, tablecloth patterns, a cluttered desk; dark and
light), cards laid apart, fanned (also tightly), in overlapping rows and piles, held in a hand
(a skin-coloured blob over the fan), card backs (still cards, to be found), cards partly out of
frame, card sizes from 8 % to 60 % of the short image side, card shapes from poker to
Hungarian (long / short side 1.35 .. 1.65), strong perspective, shadows, glare, blur, noise,
JPEG.

Faces come from the printed-deck TRAINING themes of ``training.artwork`` (``TRAIN_THEMES``;
never ``HELD_OUT_THEMES``, which the photo-like evaluation uses) and from procedural designs of
``vision.card_faces`` (design seeds below 50 000; French, German and Serbian families). Only numpy
and OpenCV.

    python -m training.detector_scenes --out /tmp/det-scenes --scenes 20 --seed 0   # to look at
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from training.artwork import TRAIN_THEMES, theme_faces
from training.degrade import jpeg_roundtrip
from training.photo_eval import _background as eval_background
from training.photo_eval import _card_mask, fan
from vision.card_faces import FACE_H, FACE_W, design_for_seed, render_face
from vision.labels import ALL_LABELS

TRAIN_DESIGN_SEEDS = 50_000  # procedural designs for training: seeds 0 .. 49 999
FAMILIES = ("french", "german", "serbian")


@dataclass
class Card:
    """One card of a scene: corners (4x2 float32, image pixels, in face order: top-left of the
    face first, clockwise) and whether its back is up."""

    corners: np.ndarray
    back: bool = False
    # the box (x0, y0, x1, y1, image px) of the part that shows: inside the image, not under a
    # later card or a hand; None when nothing of it shows
    visible: tuple[float, float, float, float] | None = None
    # a point deep inside the part that shows and its depth (x, y, px to the nearest edge of
    # that part): where a detector trained to peak on what it sees puts the card's peak
    anchor: tuple[float, float, float] | None = None


@dataclass
class FaceSource:
    """Faces to lay: printed training themes (French faces and backs) and a few procedural
    designs of each family, re-drawn now and then (``refresh``)."""

    rng: np.random.Generator
    themes: tuple[str, ...] = TRAIN_THEMES
    designs_per_pool: int = 3
    decks: list[list[np.ndarray]] = field(default_factory=list)  # one list of faces per deck
    backs: list[np.ndarray] = field(default_factory=list)
    # real card faces (training.real_scenes.real_faces) and the share of scenes laid with them
    real: list[np.ndarray] = field(default_factory=list)
    real_share: float = 0.0

    def __post_init__(self) -> None:
        self.theme_decks: list[list[np.ndarray]] = []
        self.theme_backs: list[np.ndarray] = []
        for theme in self.themes:
            faces = theme_faces(theme)
            self.theme_decks.append([f for k, f in faces.items() if k != "back"])
            self.theme_backs += [f for k, f in faces.items() if k == "back"]
        self.refresh()

    def refresh(self) -> None:
        """New procedural designs (one deck per family and design seed)."""
        self.decks = []
        for _ in range(self.designs_per_pool):
            seed = int(self.rng.integers(TRAIN_DESIGN_SEEDS))
            for family in FAMILIES:
                design = design_for_seed(family, seed)
                labels = [lb for lb in ALL_LABELS if lb.startswith(family + ":")]
                pick = self.rng.choice(len(labels), size=min(12, len(labels)), replace=False)
                self.decks.append([render_face(labels[int(i)], design) for i in pick])

    def deck(self) -> tuple[list[np.ndarray], np.ndarray]:
        """The faces of one deck for a scene and a back to go with them."""
        if self.real and self.real_share > 0.0 and self.rng.random() < self.real_share:
            pick = self.rng.choice(len(self.real), size=min(20, len(self.real)), replace=False)
            faces = [self.real[int(i)] for i in pick]
        elif self.theme_decks and self.rng.random() < 0.55:
            faces = self.theme_decks[int(self.rng.integers(len(self.theme_decks)))]
        else:
            faces = self.decks[int(self.rng.integers(len(self.decks)))]
        if self.theme_backs and self.rng.random() < 0.5:
            back = self.theme_backs[int(self.rng.integers(len(self.theme_backs)))]
        else:
            back = procedural_back(self.rng)
        return faces, back


def procedural_back(rng: np.random.Generator) -> np.ndarray:
    """A card back: a white margin around a coloured pattern (lattice, checks, dots, plain)."""
    h, w = FACE_H, FACE_W
    paper = int(rng.integers(200, 256))
    img = np.full((h, w, 3), paper, np.uint8)
    color = tuple(int(v) for v in rng.integers(0, 200, size=3))
    margin = int(rng.integers(0, 16))
    inner = np.full((h - 2 * margin, w - 2 * margin, 3), color, np.uint8)
    kind = int(rng.integers(4))
    ih, iw = inner.shape[:2]
    other = tuple(int(v) for v in rng.integers(0, 256, size=3))
    step = int(rng.integers(5, 16))
    if kind == 0:
        for y in range(-iw, ih + iw, step):
            cv2.line(inner, (0, y), (iw, y + iw), other, 1 + int(rng.integers(2)))
            cv2.line(inner, (0, y + iw), (iw, y), other, 1 + int(rng.integers(2)))
    elif kind == 1:
        for y in range(0, ih, step):
            for x in range((y // step) % 2 * step, iw, 2 * step):
                cv2.rectangle(inner, (x, y), (x + step - 1, y + step - 1), other, -1)
    elif kind == 2:
        for y in range(step // 2, ih, step):
            for x in range(step // 2, iw, step):
                cv2.circle(inner, (x, y), max(step // 4, 1), other, -1)
    img[margin : h - margin, margin : w - margin] = inner
    return img


# --------------------------------------------------------------------------- backgrounds


def _gauss(rng: np.random.Generator, shape: tuple[int, ...], sd: float) -> np.ndarray:
    return rng.standard_normal(shape, dtype=np.float32) * np.float32(sd)


def _noise(rng: np.random.Generator, h: int, w: int, cell: int) -> np.ndarray:
    small = _gauss(rng, (max(h // cell, 2), max(w // cell, 2)), 1.0)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def background(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A table, cloth, carpet or desk (BGR uint8), dark or light."""
    kind = int(rng.integers(8))
    if kind == 0:  # the photo-like evaluation's kinds (light table, grain, felt, clutter)
        return eval_background(rng, h, w)
    if kind == 1:  # procedural wood: planks with rings and grain
        base = np.array([rng.uniform(20, 120), rng.uniform(50, 160), rng.uniform(90, 220)])
        base *= rng.uniform(0.4, 1.2)
        horiz = rng.random() < 0.5
        hh, ww = (h, w) if horiz else (w, h)
        ys: np.ndarray = np.arange(hh, dtype=np.float32)[:, None]
        xs: np.ndarray = np.arange(ww, dtype=np.float32)[None, :]
        warp = _noise(rng, hh, ww, 64) * rng.uniform(5, 25)
        freq = rng.uniform(0.05, 0.3)
        grain = np.sin((ys + warp) * freq + _noise(rng, hh, ww, 16)) * 0.5 + 0.5
        plank = max(int(rng.uniform(0.15, 0.5) * hh), 8)
        shade = rng.uniform(0.8, 1.2, size=hh // plank + 2)[(ys // plank).astype(int)]
        fine = _noise(rng, hh, ww, 2) * 0.05
        v = (0.75 + 0.25 * grain) * shade + fine + 0 * xs
        seams = (ys.astype(int) % plank) < 2
        v = np.where(seams, v * 0.5, v)
        img = v[..., None] * base[None, None, :]
        if not horiz:
            img = img.transpose(1, 0, 2)
        return np.ascontiguousarray(np.clip(img, 0, 255).astype(np.uint8))
    if kind == 2:  # carpet: noise at several scales
        base = rng.uniform(10, 230, size=3)
        img = np.zeros((h, w, 3), np.float32) + base
        for cell, amp in ((1, 20), (4, 15), (32, 20)):
            img += (_noise(rng, h, w, cell) * amp * rng.uniform(0.3, 1.2))[..., None]
        return np.clip(img, 0, 255).astype(np.uint8)
    if kind == 3:  # tablecloth: gingham, stripes, or a printed pattern
        a = rng.uniform(0, 255, size=3)
        b = rng.uniform(150, 255, size=3) if rng.random() < 0.6 else rng.uniform(0, 120, size=3)
        step = int(rng.integers(6, 60))
        ys = (np.arange(h)[:, None] // step) % 2
        xs = (np.arange(w)[None, :] // step) % 2
        pattern = int(rng.integers(3))
        if pattern == 0:
            t = (ys + xs) / 2.0
        elif pattern == 1:
            t = ys + 0.0 * xs
        else:
            t = np.zeros((h, w))
            yy, xx = np.mgrid[0:h, 0:w]
            t = ((np.sin(xx * 6.28 / step) + np.sin(yy * 6.28 / step)) > 1.0).astype(float)
        img = a * (1 - t[..., None]) + b * t[..., None]
        img = img + _gauss(rng, (h, w, 3), 5)
        if rng.random() < 0.5:  # folds
            img *= (1 + 0.15 * _noise(rng, h, w, 128))[..., None]
        return np.clip(img, 0, 255).astype(np.uint8)
    if kind == 4:  # cluttered desk: papers, books, a phone, cups, pens
        base = rng.uniform(30, 200, size=3)
        img = np.zeros((h, w, 3), np.float32) + base + _gauss(rng, (h, w, 3), 4)
        for _ in range(int(rng.integers(3, 14))):
            thing = int(rng.integers(5))
            c = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
            angle = float(rng.uniform(0, 180))
            if thing == 0:  # a sheet of paper (white, a non-card shape, often large)
                s = min(h, w) * rng.uniform(0.3, 0.9)
                size = (s, s * rng.choice([0.71, 1.41, 1.0, 2.5]))
                color: tuple[float, ...] = tuple(rng.uniform(200, 255, size=3))
            elif thing == 1:  # a book / box
                s = min(h, w) * rng.uniform(0.2, 0.7)
                size = (s, s * rng.uniform(0.5, 2.0))
                color = tuple(rng.uniform(0, 255, size=3))
            elif thing == 2:  # a phone
                s = min(h, w) * rng.uniform(0.1, 0.3)
                size = (s, s * 2.1)
                color = tuple(rng.uniform(0, 60, size=3))
            elif thing == 3:  # a pen / stick
                s = min(h, w) * rng.uniform(0.2, 0.6)
                size = (s, s * rng.uniform(0.03, 0.08))
                color = tuple(rng.uniform(0, 255, size=3))
            else:  # a cup / coaster
                r = int(min(h, w) * rng.uniform(0.05, 0.15))
                cv2.circle(img, (int(c[0]), int(c[1])), r, tuple(rng.uniform(0, 255, size=3)), -1)
                continue
            box = cv2.boxPoints((c, size, angle)).astype(np.int32)
            cv2.fillConvexPoly(img, box, color)
            if thing == 0 and rng.random() < 0.6:  # printed lines on the paper
                ink = tuple(rng.uniform(0, 120, size=3))
                for t in np.linspace(0.1, 0.9, int(rng.integers(3, 15))):
                    p0 = box[0] + (box[3] - box[0]) * t + (box[1] - box[0]) * 0.1
                    p1 = box[0] + (box[3] - box[0]) * t + (box[1] - box[0]) * 0.9
                    cv2.line(img, tuple(p0.astype(int)), tuple(p1.astype(int)), ink, 1)
        return np.clip(img, 0, 255).astype(np.uint8)
    if kind == 5:  # felt / plain, dark or light, with a little texture
        base = rng.uniform(0, 255, size=3) * (rng.uniform(0.2, 0.6) if rng.random() < 0.5 else 1)
        img = base + (_noise(rng, h, w, 3) * rng.uniform(2, 12))[..., None]
        img = img + _gauss(rng, (h, w, 3), rng.uniform(1, 6))
        return np.clip(img, 0, 255).astype(np.uint8)
    if kind == 6:  # very light table (cards hard to tell from it)
        base = rng.uniform(190, 250, size=3)
        img = base + (_noise(rng, h, w, 40) * 8)[..., None] + _gauss(rng, (h, w, 3), 3)
        return np.clip(img, 0, 255).astype(np.uint8)
    # a patterned surface: random blurred blobs (marble, a printed mat)
    img = np.zeros((h, w, 3), np.float32)
    for _c in range(3):
        img[..., _c] = rng.uniform(40, 220) + _noise(rng, h, w, int(rng.integers(8, 64))) * 40
    return np.clip(img, 0, 255).astype(np.uint8)


def _skin(rng: np.random.Generator) -> tuple[float, float, float]:
    v = rng.uniform(0.35, 1.0)
    return (float(rng.uniform(90, 150) * v), float(rng.uniform(130, 180) * v),
            float(rng.uniform(190, 240) * v))  # fmt: skip


def draw_hand(img: np.ndarray, rng: np.random.Generator, at: tuple[float, float], size: float,
              angle: float) -> None:  # fmt: skip
    """A skin-coloured palm with a thumb and fingers around ``at`` (a hand holding a fan)."""
    color = _skin(rng)
    c = (int(at[0]), int(at[1]))
    axes = (int(size * 0.45), int(size * 0.6))
    cv2.ellipse(img, c, axes, angle, 0, 360, color, -1)
    t = np.deg2rad(angle)
    up = np.array([np.sin(t), -np.cos(t)])
    side = np.array([np.cos(t), np.sin(t)])
    thumb = np.array(at) + up * size * 0.4 + side * size * rng.uniform(-0.4, 0.4)
    cv2.ellipse(img, (int(thumb[0]), int(thumb[1])), (int(size * 0.13), int(size * 0.35)),
                angle + float(rng.uniform(-40, 40)), 0, 360, color, -1)  # fmt: skip
    shade = tuple(v * 0.8 for v in color)
    cv2.ellipse(img, c, axes, angle, 200, 340, shade, 2)


COVERED = (0.25, 0.7)  # how much of a card a cover hides, roughly (share of its extent)


def draw_cover(img: np.ndarray, rng: np.random.Generator, quad: np.ndarray) -> np.ndarray:
    """Something that is not a card over part of the card at ``quad``: the edge of a rug, a
    cloth, a book or a sheet (a new ``background`` texture) crossing the card at a random angle
    so that roughly ``COVERED`` of it is hidden, with a soft shadow along its edge. Seen on the
    real photographs' train split (IMG_2542: an ace half under a rug), labels not used.
    Returns how much the cover hides each pixel (0..1, float32 HxW)."""
    h, w = img.shape[:2]
    centre = quad.mean(axis=0)
    t = float(rng.uniform(0, 2 * np.pi))
    u = np.array([np.cos(t), np.sin(t)])  # from the card into the cover
    v = np.array([-u[1], u[0]])
    reach = float(np.max((quad - centre) @ u))  # the card's half extent along u
    start = reach * (1 - 2 * float(rng.uniform(*COVERED)))
    depth = float(np.ptp(quad, axis=0).max()) * float(rng.uniform(0.6, 3.0))
    span = 2.0 * max(h, w)
    near, far = centre + u * start, centre + u * (start + depth)
    poly = np.array([near - v * span, near + v * span, far + v * span, far - v * span])
    sharp = np.zeros((h, w), np.float32)
    cv2.fillConvexPoly(sharp, np.round(poly * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    soft = float(rng.uniform(0.5, 2.0))
    mask: np.ndarray = cv2.GaussianBlur(sharp, (0, 0), soft)
    short = min(h, w)
    off = u * short * float(rng.uniform(-0.02, 0.005))  # the shadow falls onto the card side
    shadow = cv2.warpAffine(mask, np.array([[1, 0, off[0]], [0, 1, off[1]]], np.float32), (w, h))
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(short * 0.01, 1.0))
    f = img.astype(np.float32) * (1 - float(rng.uniform(0.2, 0.6)) * shadow[..., None])
    cover = background(rng, h, w).astype(np.float32) * float(rng.uniform(0.5, 1.1))
    a = mask[..., None]
    img[:] = np.clip(cover * a + f * (1 - a), 0, 255).astype(np.uint8)
    return mask


# --------------------------------------------------------------------------- layouts


def _u(rng: np.random.Generator, lo: float, hi: float) -> float:
    """uniform(lo, hi), also when the range is empty (then its middle, one draw used)."""
    v = float(rng.uniform(0, 1))
    return (lo + hi) / 2 if hi <= lo else lo + (hi - lo) * v


def _layout(rng: np.random.Generator, n: int, h: int, w: int,
            cw: float, ch: float) -> list[tuple[float, float, float]]:  # fmt: skip
    """Centre x, y and angle (degrees) of each card, bottom card first."""
    kind = int(rng.integers(6))
    if kind == 0:  # apart, anywhere (partly out of frame now and then)
        out = []
        for _ in range(n):
            m = 0.0 if rng.random() < 0.25 else 0.5
            out.append((float(_u(rng, cw * m, w - cw * m)),
                        float(_u(rng, ch * m, h - ch * m)), float(_u(rng, -180, 180))))  # fmt: skip
        return out
    if kind in (1, 2):  # a fan (kind 2: tight), rotated about a point below
        px, py = _u(rng, w * 0.25, w * 0.75), _u(rng, h * 0.4, h * 0.85)
        step = float(_u(rng, 8, 20) if kind == 1 else _u(rng, 3, 9))
        base = float(_u(rng, -180, 180)) - step * (n - 1) / 2
        radius = ch * _u(rng, 0.25, 0.6)
        return fan(float(px), float(py), base, step, float(radius), n)
    if kind == 3:  # an overlapping row
        x, y = _u(rng, cw * 0.6, w * 0.6), _u(rng, ch * 0.5, h - ch * 0.5)
        dx, dy = _u(rng, 0.2, 0.8) * cw, _u(rng, -0.3, 0.3) * ch
        a0 = float(_u(rng, -180, 180))
        t = np.deg2rad(a0)
        rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
        out = []
        for i in range(n):
            d = rot @ np.array([dx * i, dy * i])
            out.append((float(x + d[0]), float(y + d[1]), a0 + float(rng.normal(0, 5))))
        return out
    if kind == 4:  # a messy pile about one point
        x, y = _u(rng, w * 0.25, w * 0.75), _u(rng, h * 0.25, h * 0.75)
        spread = _u(rng, 0.1, 0.6) * cw
        return [(float(x + rng.normal(0, spread)), float(y + rng.normal(0, spread)),
                 float(_u(rng, -180, 180))) for _ in range(n)]  # fmt: skip
    # a grid (a laid-out hand or a patience), roughly aligned
    cols = int(np.ceil(np.sqrt(n * _u(rng, 0.7, 2.0))))
    gap = _u(rng, 1.05, 1.6)
    x0, y0 = _u(rng, cw * 0.6, w * 0.5), _u(rng, ch * 0.6, h * 0.5)
    a0 = float(rng.choice([0.0, 90.0])) + float(rng.normal(0, 4))
    return [(float(x0 + (i % cols) * cw * gap), float(y0 + (i // cols) * ch * gap),
             a0 + float(rng.normal(0, 3))) for i in range(n)]  # fmt: skip


# --------------------------------------------------------------------------- scenes


# a "large" scene (``make_scene(large_share=...)``): a few cards the size they have in photos
# taken of a hand or a few cards close up. The real photographs' labelled boxes (train split,
# label statistics only) have 1.8 cards a photo, a long side of 30 to 69 % of the photo's
# short side (5 to 95 %), so a card's short side of about 20 to 50 %.
LARGE_COUNTS = (1, 1, 2, 2, 3, 4)
LARGE_WIDTH = (0.2, 0.55)  # a card's short side, in the photo's short sides (log-uniform)
# a "close" scene (``make_scene(close_share=...)``, experiment 91): one card photographed close,
# filling most of the photo or running past its edges, as in a close crop of one card or a phone
# held over it; nearly upright (``CLOSE_TURN`` degrees either way, a quarter or half turn now
# and then), its centre near the photo's (``CLOSE_SHIFT`` of each side either way)
CLOSE_WIDTH = (0.6, 1.0)  # a card's short side, in the photo's short sides (uniform)
CLOSE_TURN = 12.0
CLOSE_SHIFT = 0.15


def close_layout(rng: np.random.Generator, h: int, w: int) -> list[tuple[float, float, float]]:
    """The centre x, y and angle (degrees) of the one card of a close scene."""
    cx = w / 2 + float(rng.uniform(-CLOSE_SHIFT, CLOSE_SHIFT)) * w
    cy = h / 2 + float(rng.uniform(-CLOSE_SHIFT, CLOSE_SHIFT)) * h
    angle = float(rng.uniform(-CLOSE_TURN, CLOSE_TURN))
    if rng.random() < 0.2:  # the card lying across the photo
        angle += 90.0
    return [(cx, cy, angle)]


def make_scene(rng: np.random.Generator, source: FaceSource, size: tuple[int, int] = (480, 640),
               keep_shown: bool = False, large_share: float = 0.0, cover_share: float = 0.0,
               close_share: float = 0.0) -> tuple[np.ndarray, list[Card]]:  # fmt: skip
    """One photo (``size`` = height, width, BGR uint8) and every card whose centre is in it
    (``keep_shown``: also every card of which some part shows, its centre out of the photo).
    A share ``large_share`` of the scenes are "large" ones (``LARGE_COUNTS`` cards of
    ``LARGE_WIDTH``), and in a share ``cover_share`` one card is partly under something that is
    not a card (``draw_cover``); a share ``close_share`` are "close" ones (one card of
    ``CLOSE_WIDTH``, ``close_layout``). With the default 0 no draw is made for any of them, so
    the scenes are as before."""
    h, w = size
    close = close_share > 0.0 and rng.random() < close_share
    large = not close and large_share > 0.0 and rng.random() < large_share
    img = background(rng, h, w)
    faces, back = source.deck()
    short = min(h, w)
    if close:
        n = 1
        cw = float(rng.uniform(*CLOSE_WIDTH)) * short
    elif large:
        n = int(rng.choice(LARGE_COUNTS))
        lo, hi = np.log(LARGE_WIDTH[0]), np.log(LARGE_WIDTH[1])
        cw = float(np.exp(rng.uniform(lo, hi))) * short
    else:
        n = int(rng.choice([0, 1, 1, 2, 3, 4, 5, 6, 7, 8, 10, 13])) if rng.random() > 0.04 else 0
        if rng.random() < 0.5:
            cw = float(np.exp(rng.uniform(np.log(0.08), np.log(0.6)))) * short
        else:
            cw = float(rng.uniform(0.1, 0.3)) * short
    if n > 6:
        cw = min(cw, 0.3 * short)
    aspect = float(rng.uniform(1.35, 1.65)) if rng.random() < 0.4 else 1.4
    ch = cw * aspect
    all_backs = rng.random() < 0.08
    back_share = 1.0 if all_backs else (0.15 if rng.random() < 0.4 else 0.0)
    fh, fw = FACE_H, FACE_W
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    mask = _card_mask(fw, fh)
    # camera tilt (a homography), sometimes strong
    d = short * float(rng.uniform(0.0, 0.12) if rng.random() < 0.6 else rng.uniform(0.1, 0.3))
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    tilt = cv2.getPerspectiveTransform(frame, frame + rng.uniform(-d, d, (4, 2)).astype(np.float32))
    shadow_off = np.array(rng.uniform(-1, 1, size=2) * short * rng.uniform(0.003, 0.02), np.float32)
    shadow_strength = float(rng.uniform(0.1, 0.5))
    cards: list[Card] = []
    owner = np.full((h, w), -1, np.int16)  # which card shows at each pixel
    if close:
        layout = close_layout(rng, h, w)
    else:
        layout = _layout(rng, n, h, w, cw, ch) if n else []
    hand = n >= 2 and rng.random() < 0.25
    for cx, cy, angle in layout:
        is_back = rng.random() < back_share
        face = back if is_back else faces[int(rng.integers(len(faces)))]
        if rng.random() < 0.5:
            angle += 180.0
        box = cv2.boxPoints(((cx, cy), (cw, ch), angle)).astype(np.float32)
        # boxPoints: clockwise from the lowest point; put the face's top-left first
        t = np.deg2rad(angle)
        ref = np.array([cx, cy]) + np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]]) @ [
            -cw / 2,
            -ch / 2,
        ]
        box = np.roll(box, -int(np.argmin(np.linalg.norm(box - ref, axis=1))), axis=0)
        quad = cv2.perspectiveTransform(box[None], tilt)[0]
        pad = float(np.abs(shadow_off).max()) + short * 0.02 + 2
        x0, y0 = np.floor(np.maximum(quad.min(axis=0) - pad, 0)).astype(int)
        x1, y1 = np.ceil(np.minimum(quad.max(axis=0) + pad, [w, h])).astype(int)
        if x1 - x0 < 2 or y1 - y0 < 2:
            cards.append(Card(quad.astype(np.float32), bool(is_back)))
            continue
        rw, rh = int(x1 - x0), int(y1 - y0)
        m = cv2.getPerspectiveTransform(src, quad - np.array([x0, y0], np.float32))
        alpha = cv2.warpPerspective(mask, m, (rw, rh)).astype(np.float32) * (1 / 255)
        roi = img[y0:y1, x0:x1].astype(np.float32)
        if shadow_strength > 0:
            shift = np.array([[1, 0, shadow_off[0]], [0, 1, shadow_off[1]]], np.float32)
            sh = cv2.warpAffine(alpha, shift, (rw, rh))
            sh = cv2.GaussianBlur(sh, (0, 0), max(short * 0.006, 0.8))
            roi *= 1 - shadow_strength * sh[..., None]
        warped = cv2.warpPerspective(face, m, (rw, rh), flags=cv2.INTER_AREA)
        a = alpha[..., None]
        img[y0:y1, x0:x1] = (warped * a + roi * (1 - a)).astype(np.uint8)
        owner[y0:y1, x0:x1][alpha > 0.5] = len(cards)
        cards.append(Card(quad.astype(np.float32), bool(is_back)))
    covered = None
    if cover_share > 0.0 and cards and rng.random() < cover_share:
        covered = draw_cover(img, rng, cards[int(rng.integers(len(cards)))].corners) > 0.5
    before = img.copy()
    if hand:  # a hand holding the fan: a skin blob over the lower part of the cards
        pts = np.concatenate([c.corners for c in cards])
        centre = pts.mean(axis=0)
        lowest = pts[np.argmax(pts[:, 1])]
        at = centre + (lowest - centre) * rng.uniform(0.6, 1.1)
        draw_hand(img, rng, (float(at[0]), float(at[1])), ch * rng.uniform(0.5, 0.9),
                  float(rng.uniform(-40, 40)))  # fmt: skip
    elif rng.random() < 0.1:  # a hand (or a finger) alone, a hard negative
        draw_hand(img, rng, (float(rng.uniform(0, w)), float(rng.uniform(0, h))),
                  short * rng.uniform(0.1, 0.4), float(rng.uniform(-90, 90)))  # fmt: skip
    owner[(img != before).any(axis=2)] = -1  # under the hand
    if covered is not None:  # under the cover (its shadow leaves the cards seen)
        owner[covered] = -1
    for k, card in enumerate(cards):
        ys, xs = np.nonzero(owner == k)
        if len(xs):
            card.visible = (
                float(xs.min()),
                float(ys.min()),
                float(xs.max() + 1),
                float(ys.max() + 1),
            )
            card.anchor = visible_anchor(owner == k, card.visible)
    img = _photo_effects(img, rng)
    kept = []
    for card in cards:
        c = card.corners.mean(axis=0)
        if 0 <= c[0] < w and 0 <= c[1] < h or keep_shown and card.anchor is not None:
            kept.append(card)
    return img, kept


def visible_anchor(shows: np.ndarray, box: tuple[float, float, float, float],
                   deep: float = 0.7) -> tuple[float, float, float]:  # fmt: skip
    """The point of a card's visible part (``shows``, a mask of the image; ``box``, its box)
    that is at least ``deep`` times as far from the part's edge as its deepest point, and of
    those the nearest to the part's centroid; with that depth (px). For a whole card this is
    its centre, for a strip the middle of the strip."""
    x0, y0, x1, y1 = (int(v) for v in box)
    roi = np.pad(shows[y0:y1, x0:x1].astype(np.uint8), 1)
    depth = cv2.distanceTransform(roi, cv2.DIST_L2, 3)[1:-1, 1:-1]
    ys, xs = np.nonzero(depth >= deep * float(depth.max()))
    cy, cx = np.argwhere(roi[1:-1, 1:-1]).mean(axis=0)
    k = int(np.argmin((xs - cx) ** 2 + (ys - cy) ** 2))
    return float(x0 + xs[k] + 0.5), float(y0 + ys[k] + 0.5), float(depth.max())


def _photo_effects(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Uneven light, colour cast, glare, blur, noise, JPEG."""
    h, w = img.shape[:2]
    f: np.ndarray = img.astype(np.float32)
    gx = np.linspace(-1, 1, w, dtype=np.float32)[None, :]
    gy = np.linspace(-1, 1, h, dtype=np.float32)[:, None]
    light = rng.uniform(0.45, 1.2) + rng.uniform(-0.35, 0.35) * gx + rng.uniform(-0.35, 0.35) * gy
    if rng.random() < 0.3:  # a soft shadow (a head or a phone) across the scene
        blob = np.zeros((h, w), np.float32)
        cv2.ellipse(blob, (int(rng.uniform(0, w)), int(rng.uniform(0, h))),
                    (int(rng.uniform(0.1, 0.5) * w), int(rng.uniform(0.1, 0.5) * h)),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1)  # fmt: skip
        light = light * (1 - rng.uniform(0.2, 0.5) * cv2.GaussianBlur(blob, (0, 0), 0.05 * w))
    f *= light[..., None] * rng.uniform(0.8, 1.2, size=3).astype(np.float32)
    if rng.random() < 0.3:  # glare
        glare = np.zeros((h, w), np.float32)
        cv2.ellipse(glare, (int(rng.uniform(0, w)), int(rng.uniform(0, h))),
                    (int(rng.uniform(0.02, 0.15) * w), int(rng.uniform(0.02, 0.15) * h)),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1)  # fmt: skip
        f += cv2.GaussianBlur(glare, (0, 0), 0.02 * w)[..., None] * rng.uniform(60, 200)
    if rng.random() < 0.5:
        f = cv2.GaussianBlur(f, (0, 0), float(rng.uniform(0.4, 2.0)))
    f += rng.standard_normal(f.shape, dtype=np.float32) * np.float32(rng.uniform(1, 10))
    out = np.clip(f, 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        out = jpeg_roundtrip(out, int(rng.integers(35, 95)))
    return out


def letterbox_scene(rng: np.random.Generator, source: FaceSource, size: tuple[int, int],
                    render_scale: float = 1.5, keep_shown: bool = False,
                    large_share: float = 0.0, cover_share: float = 0.0,
                    close_share: float = 0.0) -> tuple[np.ndarray, list[Card]]:  # fmt: skip
    """A scene for a ``size`` (height, width) landscape input: rendered ``render_scale`` times
    larger in a random photo shape (4:3 either way round, 16:9, square), shrunk and padded
    into ``size`` the way ``vision.detector`` letterboxes photos (top-left, grey pad)."""
    th, tw = size
    shape = rng.choice(4, p=[0.55, 0.25, 0.1, 0.1])
    ratio = (0.75, 4 / 3, 0.5625, 1.0)[int(shape)]  # height / width of the photo
    if ratio <= th / tw:
        pw, ph = tw, int(round(tw * ratio))
    else:
        ph, pw = th, int(round(th / ratio))
    rh, rw = int(ph * render_scale), int(pw * render_scale)
    img, cards = make_scene(
        rng, source, (rh, rw), keep_shown, large_share, cover_share, close_share
    )
    small = cv2.resize(img, (pw, ph), interpolation=cv2.INTER_AREA)
    out = np.full((th, tw, 3), 128, np.uint8)
    out[:ph, :pw] = small
    sx, sy = pw / rw, ph / rh
    for card in cards:
        card.corners = card.corners * np.array([sx, sy], np.float32)
        if card.visible is not None:
            x0, y0, x1, y1 = card.visible
            card.visible = (x0 * sx, y0 * sy, x1 * sx, y1 * sy)
        if card.anchor is not None:
            ax, ay, depth = card.anchor
            card.anchor = (ax * sx, ay * sy, depth * min(sx, sy))
    return out, cards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("/tmp/det-scenes"))
    parser.add_argument("--scenes", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    source = FaceSource(rng)
    for i in range(args.scenes):
        img, cards = letterbox_scene(rng, source, (288, 384))
        for card in cards:
            color = (0, 0, 255) if not card.back else (255, 0, 0)
            cv2.polylines(img, [card.corners.round().astype(np.int32)], True, color, 1)
            cv2.circle(img, tuple(card.corners[0].round().astype(int)), 3, color, -1)
        cv2.imwrite(str(args.out / f"scene{i:03d}.jpg"), img)


if __name__ == "__main__":
    main()
