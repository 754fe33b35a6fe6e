"""Training and evaluation samples: rendered faces as the card finder would hand them over.

A sample imitates the warped card that ``vision.finder`` produces from a camera frame: the
face warped with corner errors and a little background, turned 0 or 180 degrees, under uneven
light, glare and shadow, blurred, noisy, JPEG-compressed, sometimes partly covered by a finger
or another card. Only numpy and OpenCV: the held-out evaluation needs no torch.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from training.degrade import jpeg_roundtrip
from vision.card_faces import Design, design_for_seed, render_face
from vision.labels import ALL_LABELS, NONE_LABEL
from vision.recognizer import INPUT_H, INPUT_W

MODEL_LABELS: tuple[str, ...] = ALL_LABELS + (NONE_LABEL,)
TRAIN_DESIGN_SEEDS = range(0, 50_000)  # held-out evaluation uses seeds >= 100_000
FAMILIES = ("french", "german", "serbian")


@dataclass
class FacePool:
    """Faces of every class for a set of designs, rendered once."""

    faces: dict[str, list[np.ndarray]]
    art: dict[str, list[np.ndarray]] = field(default_factory=dict)  # printed decks (artwork)
    backs: list[np.ndarray] = field(default_factory=list)
    art_share: float = 0.6  # of French samples drawn from ``art`` when it has the label
    real: dict[str, list[np.ndarray]] = field(default_factory=dict)  # photos (training.real_crops)
    real_share: float = 0.0  # of samples drawn from ``real`` when it has the label

    @classmethod
    def build(cls, seeds: list[int], themes: tuple[str, ...] = ()) -> FacePool:
        """Procedural designs of ``seeds`` and the printed-deck ``themes`` of
        ``training.artwork`` (French faces and card backs)."""
        faces: dict[str, list[np.ndarray]] = {label: [] for label in ALL_LABELS}
        for seed in seeds:
            designs: dict[str, Design] = {f: design_for_seed(f, seed) for f in FAMILIES}
            for label in ALL_LABELS:
                faces[label].append(render_face(label, designs[label.split(":")[0]]))
        art: dict[str, list[np.ndarray]] = {}
        backs: list[np.ndarray] = []
        if themes:
            from training.artwork import theme_faces

            for theme in themes:
                for key, face in theme_faces(theme).items():
                    if key == "back":
                        backs.append(face)
                    else:
                        art.setdefault(key.split("#")[0], []).append(face)
        return cls(faces, art, backs)

    def pick(self, label: str, rng: np.random.Generator) -> np.ndarray:
        """A face of ``label``: a real photo, printed artwork (each when there is some) or a
        procedural design."""
        photos = self.real.get(label)
        if photos and rng.random() < self.real_share:
            return photos[int(rng.integers(len(photos)))]
        printed = self.art.get(label)
        if printed and rng.random() < self.art_share:
            return printed[int(rng.integers(len(printed)))]
        faces = self.faces[label]
        return faces[int(rng.integers(len(faces)))]


def _background(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    kind = rng.integers(4)
    base = rng.integers(0, 256, size=3).astype(np.float32)
    if kind == 0:  # flat with noise (felt, table)
        img: np.ndarray = np.ones((h, w, 3), np.float32) * base + rng.normal(0, 12, (h, w, 3))
    elif kind == 1:  # coarse texture (carpet, wood)
        small = rng.normal(0, 40, (max(h // 4, 2), max(w // 4, 2), 3)).astype(np.float32)
        img = base + cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    elif kind == 2:  # stripes (wood grain, newspaper lines)
        ys = np.arange(h, dtype=np.float32)[:, None, None]
        img = base + 40 * np.sin(ys * rng.uniform(0.3, 2.0)) + np.zeros((h, w, 3), np.float32)
    else:  # bright paper-like
        img = np.ones((h, w, 3), np.float32) * rng.uniform(150, 240) + rng.normal(0, 20, (h, w, 3))
    return np.clip(img, 0, 255).astype(np.uint8)


def _skin(rng: np.random.Generator) -> tuple[int, int, int]:
    v = rng.uniform(0.55, 1.0)
    return (int(120 * v), int(150 * v), int(215 * v))


# The learned detector's quads on still photos sit further off their cards than the table
# finder's: on the photo-like development scenes (training.photo_eval seeds 0 and 2, 394 cards,
# detector stage 6) the centre is off by 0.07 of the long side or more (either way, per axis)
# for 10 % of the cards, and the size is off by 0.85-1.12 (5 to 95 %). ``quad_error`` 1.0 adds
# an error of about that spread (experiment 8).
QUAD_SHIFT = 0.035  # standard deviation of the centre's error per axis, in long sides
QUAD_SCALE = 0.06  # standard deviation of the log of the size's error
QUAD_TURN = 4.0  # standard deviation of the angle's error, degrees


def warp_face(face: np.ndarray, rng: np.random.Generator, *, jitter: float = 0.04,
              bg: np.ndarray | None = None, quad_error: float = 0.0) -> np.ndarray:  # fmt: skip
    """Warp ``face`` into an INPUT_H x INPUT_W crop with finder-like corner errors; with
    ``quad_error`` > 0 also the still-photo detector's larger errors of place, size and angle
    (``QUAD_*``, times ``quad_error``)."""
    h, w = INPUT_H, INPUT_W
    fh, fw = face.shape[:2]
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], dtype=np.float32)
    scale = rng.uniform(0.93, 1.04)
    dst: np.ndarray = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    dst = (dst - [w / 2, h / 2]) * scale + [w / 2, h / 2]
    dst += rng.normal(0, jitter, (4, 2)).astype(np.float32) * [w, h]
    dst += rng.normal(0, 0.015, (1, 2)).astype(np.float32) * [w, h]
    if quad_error > 0.0:
        # the crop's window is off the card, so the card is off the window the other way
        turn = np.deg2rad(rng.normal(0, QUAD_TURN * quad_error))
        size = float(np.exp(rng.normal(0, QUAD_SCALE * quad_error)))
        rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]], np.float32)
        centre = np.array([w / 2, h / 2], np.float32)
        shift = rng.normal(0, QUAD_SHIFT * quad_error, 2).astype(np.float32) * h
        dst = (dst - centre) @ rot.T / size + centre + shift
    matrix = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    out = bg if bg is not None else _background(rng, h, w)
    cv2.warpPerspective(face, matrix, (w, h), dst=out, flags=cv2.INTER_AREA,
                        borderMode=cv2.BORDER_TRANSPARENT)  # fmt: skip
    return out


def augment(img: np.ndarray, rng: np.random.Generator, pool: FacePool | None = None) -> np.ndarray:
    """Occlusion, light, glare, blur, noise and compression on a warped crop (in place)."""
    h, w = img.shape[:2]
    if rng.random() < 0.25:  # a finger from an edge
        cx, cy = (
            int(rng.uniform(0, w)),
            int(rng.choice([rng.uniform(-5, 10), rng.uniform(h - 10, h + 5)])),
        )
        ax = (int(rng.uniform(5, 12)), int(rng.uniform(12, 30)))
        cv2.ellipse(img, (cx, cy), ax, float(rng.uniform(0, 180)), 0, 360, _skin(rng), -1)
    if rng.random() < 0.2 and pool is not None:  # another card's edge over one side
        other = pool.pick(ALL_LABELS[int(rng.integers(len(ALL_LABELS)))], rng)
        patch = cv2.resize(other, (w, h))
        side = int(rng.integers(4))
        depth = rng.uniform(0.1, 0.35)
        if side == 0:
            img[: int(h * depth)] = patch[h - int(h * depth) :]
        elif side == 1:
            img[h - int(h * depth) :] = patch[: int(h * depth)]
        elif side == 2:
            img[:, : int(w * depth)] = patch[:, w - int(w * depth) :]
        else:
            img[:, w - int(w * depth) :] = patch[:, : int(w * depth)]
    if rng.random() < 0.15 and pool is not None:  # fanned: a card laid over at an angle
        other = cv2.resize(pool.pick(ALL_LABELS[int(rng.integers(len(ALL_LABELS)))], rng), (w, h))
        angle = float(rng.uniform(10, 40)) * (1 if rng.random() < 0.5 else -1)
        shift = (float(rng.uniform(0.35, 0.75)) * w, float(rng.uniform(0.2, 0.6)) * h)
        m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
        m[:, 2] += shift if rng.random() < 0.5 else (shift[0], -shift[1])
        cv2.warpAffine(other, m, (w, h), dst=img, flags=cv2.INTER_AREA,
                       borderMode=cv2.BORDER_TRANSPARENT)  # fmt: skip
    f: np.ndarray = img.astype(np.float32)
    gx = np.linspace(-1, 1, w, dtype=np.float32)[None, :]
    gy = np.linspace(-1, 1, h, dtype=np.float32)[:, None]
    light = rng.uniform(0.45, 1.2) + rng.uniform(-0.3, 0.3) * gx + rng.uniform(-0.3, 0.3) * gy
    f *= light[..., None]
    f *= rng.uniform(0.8, 1.2, size=3).astype(np.float32)  # white balance
    if rng.random() < 0.3:  # glare
        glare: np.ndarray = np.zeros((h, w), np.float32)
        cv2.ellipse(glare, (int(rng.uniform(0, w)), int(rng.uniform(0, h))),
                    (int(rng.uniform(4, 20)), int(rng.uniform(4, 30))), float(rng.uniform(0, 180)),
                    0, 360, 1.0, -1)  # fmt: skip
        glare = cv2.GaussianBlur(glare, (0, 0), 3)
        f += glare[..., None] * rng.uniform(80, 220)
    f = np.clip(f, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:  # lower resolution
        s = rng.uniform(0.45, 0.9)
        small = cv2.resize(
            f, (max(int(w * s), 8), max(int(h * s), 8)), interpolation=cv2.INTER_AREA
        )
        f = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    if rng.random() < 0.4:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(0.3, 1.1))
    if rng.random() < 0.5:
        noise = rng.normal(0, rng.uniform(2, 9), f.shape)
        f = np.clip(f.astype(np.float32) + noise, 0, 255).astype(np.uint8)
    if rng.random() < 0.4:
        f = jpeg_roundtrip(f, int(rng.integers(30, 90)))
    return f


def none_sample(rng: np.random.Generator, pool: FacePool) -> np.ndarray:
    """A crop that is no card face: background, a hand, a card back, a sliver of two cards."""
    h, w = INPUT_H, INPUT_W
    img = _background(rng, h, w)
    kind = rng.integers(4 if pool.backs else 3)
    if kind == 3:  # a printed card back, warped like a face
        return warp_face(pool.backs[int(rng.integers(len(pool.backs)))], rng)
    if kind == 0:
        cv2.ellipse(img, (w // 2, h // 2), (int(w * 0.4), int(h * 0.45)), 0, 0, 360, _skin(rng), -1)
    elif kind == 1:  # a card back: regular pattern
        color = tuple(int(v) for v in rng.integers(0, 200, size=3))
        img[:] = (235, 235, 235)
        step = int(rng.integers(4, 9))
        for y in range(0, h, step):
            cv2.line(img, (0, y), (w, y + w), color, 2)
            cv2.line(img, (0, y + w), (w, y), color, 2)
    return img


def cover_from_side(img: np.ndarray, rng: np.random.Generator, pool: FacePool) -> np.ndarray:
    """``img`` (a warped card, in place) under the next card of a fan held in the hand: only a
    strip along one long side shows, 12 to 45 % of its width, mostly wider at the top (the
    cards fanned about a point near the bottom), as the whole-card box a detector guesses for
    a card of which only a strip shows. The card laid over it is any face, with a shadow."""
    h, w = img.shape[:2]
    right = rng.random() < 0.5  # the strip on the left (a fan spread to the right) or right
    view = np.ascontiguousarray(img[:, ::-1]) if right else img.copy()  # drawn as if on the left
    other = cv2.resize(pool.pick(ALL_LABELS[int(rng.integers(len(ALL_LABELS)))], rng), (w, h))
    if right:
        other = np.ascontiguousarray(other[:, ::-1])  # mirrored twice: upright in ``img``
    edge = float(rng.uniform(0.12, 0.45)) * w
    angle = float(rng.uniform(-15.0, 3.0))  # negative: the edge leans right at the top
    m = cv2.getRotationMatrix2D((edge, h * float(rng.uniform(0.8, 1.3))), angle, 1.0)
    m[:, 2] += edge * m[:, 0]  # the other card's left edge at ``edge``, turned about the pivot
    m[1, 2] += float(rng.uniform(-0.08, 0.08)) * h
    mask = cv2.warpAffine(np.ones((h, w), np.float32), m, (w, h))
    shadow = cv2.GaussianBlur(cv2.dilate(mask, np.ones((1, 5), np.uint8)), (0, 0), 1.5)
    view = np.clip(view.astype(np.float32) * (1.0 - 0.45 * shadow[..., None]), 0, 255)
    view = view.astype(np.uint8)
    cv2.warpAffine(other, m, (w, h), dst=view, flags=cv2.INTER_AREA,
                   borderMode=cv2.BORDER_TRANSPARENT)  # fmt: skip
    img[:] = view[:, ::-1] if right else view
    return img


def make_sample(label_index: int, rng: np.random.Generator, pool: FacePool,
                under: float = 0.0, quad_error: float = 0.0) -> np.ndarray:  # fmt: skip
    """One augmented BGR crop of class ``MODEL_LABELS[label_index]``; with probability
    ``under`` a card under the next card of a fan (``cover_from_side``); ``quad_error``: see
    ``warp_face``."""
    label = MODEL_LABELS[label_index]
    if label == NONE_LABEL:
        return augment(none_sample(rng, pool), rng, None)
    crop = warp_face(pool.pick(label, rng), rng, quad_error=quad_error)
    if rng.random() < 0.5:
        crop = cv2.rotate(crop, cv2.ROTATE_180)
    if under > 0.0 and rng.random() < under:
        crop = cover_from_side(crop, rng, pool)
    return augment(crop, rng, pool)
