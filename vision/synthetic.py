"""A synthetic table seen from above: a transcript of plays becomes camera frames.

The mat (green felt, or a light wooden table of a skin colour with its grain; ArUco markers at
its corners) is seen through a slightly tilted camera.
Each play is a hand coming from the player's edge, putting the card in the player's wedge of
the central area, and leaving; after every round the trick is gathered by a hand. Light
drifts slowly over the game. Everything is seeded; ``truth`` records what landed where.

>>> from referee.cards import Card, Deck
>>> table = SyntheticTable([(0, Card.parse("AS")), (1, Card.parse("TH"))], n_seats=2,
...                        deck=Deck.PIQUET_32, seed=1, fast=True)
>>> frames = list(table)
>>> frames[0].shape, len(frames) == table.frame_count
((720, 1280, 3), True)
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum

import cv2
import numpy as np

from referee.cards import Card, Deck
from referee.faces import face_label
from vision.calibration import (
    MARKER_SIDE,
    TableCalibration,
    marker_centers,
    marker_image,
    seat_angle,
)
from vision.labels import FAMILY_DECK, family_of

CARD_W, CARD_H = 63.0, 88.0  # mm
MAT_SIZE = (900.0, 700.0)  # mm
FELT = (60, 110, 30)  # BGR, the green felt mat
ARM_COLOUR = (110, 145, 205)  # BGR, the drawn hands'


class Surface(Enum):
    """What the cards lie on."""

    FELT = "felt"  # a green card mat
    WOOD = "wood"  # light oak, skin-coloured (hue and saturation), with darker grain


@dataclass(frozen=True)
class Placement:
    """Ground truth of one play: where the card landed and the first frame it lies still."""

    seat: int
    card: Card
    center: tuple[float, float]  # mat mm
    angle: float  # degrees
    settled_frame: int


@dataclass
class _Item:
    face: np.ndarray
    center: tuple[float, float]
    angle: float


def _card_quad(center: tuple[float, float], angle: float, scale: float = 1.0) -> np.ndarray:
    a = math.radians(angle)
    ux, uy = math.cos(a), math.sin(a)
    hw, hh = CARD_W / 2 * scale, CARD_H / 2 * scale
    cx, cy = center
    # clockwise from the upright top-left: (-w,-h), (w,-h), (w,h), (-w,h) rotated
    pts = [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)]
    return np.array(
        [(cx + x * ux - y * uy, cy + x * uy + y * ux) for x, y in pts], dtype=np.float32
    )


class SyntheticTable:
    """Iterable of BGR frames showing ``plays`` [(seat, card), ...] being played.

    ``fast`` uses few frames per play (the demo); otherwise hands move in several steps and
    linger. ``calibration`` is the exact pixel->mat mapping; the markers in the frames give
    the same by ``TableCalibration.from_aruco``.
    """

    def __init__(self, plays: Sequence[tuple[int, Card]], *, n_seats: int, deck: Deck,
                 seed: int = 0, size: tuple[int, int] = (1280, 720), fast: bool = False,
                 design_seed: int = 0, trick_size: int | None = None,
                 surface: Surface = Surface.FELT) -> None:  # fmt: skip
        from vision.card_faces import design_for_seed, render_face

        self.plays = list(plays)
        self.n_seats, self.deck, self.size, self.fast = n_seats, deck, size, fast
        self.trick_size = trick_size or n_seats
        self.rng = np.random.default_rng(seed)
        family = family_of(deck)
        design = design_for_seed(family, design_seed)
        self._faces = {
            card.logical: render_face(
                f"{family}:{face_label(card.logical, FAMILY_DECK[family])}", design
            )
            for _, card in self.plays
        }
        w, h = size
        mw, mh = MAT_SIZE
        # the mat fills most of the frame; small random tilt of the camera
        margin = 0.04
        fit = min(w * (1 - 2 * margin) / mw, h * (1 - 2 * margin) / mh)
        ox, oy = (w - mw * fit) / 2, (h - mh * fit) / 2
        corners = np.array([[ox, oy], [ox + mw * fit, oy], [ox + mw * fit, oy + mh * fit],
                              [ox, oy + mh * fit]], dtype=np.float32)  # fmt: skip
        corners += self.rng.uniform(-0.02, 0.02, (4, 2)).astype(np.float32) * [w, h]
        self.calibration = TableCalibration.from_corners(corners, mat_size=MAT_SIZE,
                                                         n_seats=n_seats)  # fmt: skip
        self._to_image = np.linalg.inv(self.calibration.homography)
        self.mm_per_px = 1 / fit
        self.surface = surface
        self._background = self._draw_mat()
        self.placements: list[Placement] = []
        self._items: dict[int, _Item] = {}
        self._script = self._plan()
        self.frame_count = len(self._script)

    # ------------------------------------------------------------------ drawing

    def _draw_mat(self) -> np.ndarray:
        w, h = self.size
        mw, mh = MAT_SIZE
        scale = 1.0 / self.mm_per_px  # mat image pixels per mm
        mat = np.zeros((int(mh * scale), int(mw * scale), 3), np.uint8)
        if self.surface is Surface.WOOD:
            mat = self._wood(mat.shape[:2])
        else:
            mat[:] = FELT
            noise = self.rng.normal(0, 6, mat.shape[:2]).astype(np.float32)
            mat = np.clip(mat.astype(np.float32) + noise[..., None], 0, 255).astype(np.uint8)
        side = int(MARKER_SIDE * scale)
        for marker_id, (x, y) in enumerate(marker_centers(MAT_SIZE)):
            m = cv2.cvtColor(marker_image(marker_id, side), cv2.COLOR_GRAY2BGR)
            s = m.shape[0]
            px, py = int(x * scale - s / 2), int(y * scale - s / 2)
            mat[py : py + s, px : px + s] = m
        mm_from_px = np.diag([1 / scale, 1 / scale, 1.0])
        matrix = np.linalg.inv(self.calibration.homography) @ mm_from_px
        frame = np.full((h, w, 3), (40, 45, 50), np.uint8)
        cv2.warpPerspective(mat, matrix, (w, h), dst=frame, borderMode=cv2.BORDER_TRANSPARENT)
        return frame

    def _wood(self, shape: tuple[int, ...]) -> np.ndarray:
        """Light oak planks: a skin colour, darker along wavy grain lines, a little noise."""
        h, w = shape[:2]
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        phase = float(self.rng.uniform(0, 2 * math.pi))
        wave = 6.0 * np.sin(xs / 37.0 + phase)  # the grain bends
        grain = 0.5 + 0.5 * np.sin((ys + wave) / 3.1) * np.sin((ys + wave) / 11.3 + phase)
        shade = 1.0 - 0.22 * grain**3 + self.rng.normal(0, 0.02, (h, w)).astype(np.float32)
        oak = np.array((70, 105, 145), np.float32)
        return np.clip(shade[..., None] * oak, 0, 255).astype(np.uint8)

    def _paste(self, frame: np.ndarray, image: np.ndarray, quad_mm: np.ndarray) -> None:
        quad = self.calibration.to_image(quad_mm)
        x0, y0 = np.floor(quad.min(axis=0)).astype(int)
        x1, y1 = np.ceil(quad.max(axis=0)).astype(int)
        fh, fw = frame.shape[:2]
        x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, fw), min(y1, fh)
        if x1 <= x0 or y1 <= y0:
            return
        ih, iw = image.shape[:2]
        src = np.array([[0, 0], [iw, 0], [iw, ih], [0, ih]], dtype=np.float32)
        matrix = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(np.float32))
        roi = frame[y0:y1, x0:x1]
        cv2.warpPerspective(image, matrix, (x1 - x0, y1 - y0), dst=roi, flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_TRANSPARENT)  # fmt: skip

    def _draw_hand(self, frame: np.ndarray, seat: int, reach: tuple[float, float]) -> None:
        """An arm from ``seat``'s edge to the mat point ``reach`` (skin-coloured polygon)."""
        a = seat_angle(seat, self.n_seats)
        mw, mh = MAT_SIZE
        edge = (mw / 2 + math.cos(a) * mw, mh / 2 + math.sin(a) * mh)
        ex, ey = reach
        nx, ny = -(ey - edge[1]), ex - edge[0]
        norm = math.hypot(nx, ny) or 1.0
        nx, ny = nx / norm * 40, ny / norm * 40
        arm = np.array([(edge[0] + nx, edge[1] + ny), (ex + nx, ey + ny), (ex - nx, ey - ny),
                          (edge[0] - nx, edge[1] - ny)], dtype=np.float32)  # fmt: skip
        color = ARM_COLOUR
        cv2.fillPoly(frame, [np.round(self.calibration.to_image(arm)).astype(np.int32)], color)
        palm = self.calibration.to_image(np.array([reach], dtype=np.float32))[0]
        cv2.circle(frame, (int(palm[0]), int(palm[1])), int(55 / self.mm_per_px), color, -1)

    # ------------------------------------------------------------------ the script

    def _plan(self) -> list[tuple[list[int], tuple[int, tuple[float, float]] | None]]:
        """Frames as (indices of lying plays, optional hand (seat, reach point))."""
        settle = 3 if self.fast else 6
        script: list[tuple[list[int], tuple[int, tuple[float, float]] | None]] = [([], None)]
        lying: list[int] = []
        mw, mh = MAT_SIZE
        for k, (seat, card) in enumerate(self.plays):
            a = seat_angle(seat, self.n_seats)
            r = 150.0 + float(self.rng.uniform(-12, 12))
            center = (mw / 2 + math.cos(a) * r + float(self.rng.uniform(-10, 10)),
                      mh / 2 + math.sin(a) * r + float(self.rng.uniform(-10, 10)))  # fmt: skip
            angle = math.degrees(a) + 90 + float(self.rng.uniform(-20, 20))
            steps = (0.5, 1.0) if self.fast else (0.3, 0.6, 0.85, 1.0, 1.0)
            for t in steps:  # the hand approaches carrying the card, then lays it down
                reach = (mw / 2 + math.cos(a) * (r + (1 - t) * 250),
                         mh / 2 + math.sin(a) * (r + (1 - t) * 250))  # fmt: skip
                held = lying + [k] if t >= 1.0 else list(lying)
                script.append((held, (seat, reach)))
            lying = lying + [k]
            self.placements.append(Placement(seat, card, center, angle, len(script)))
            self._items[k] = _Item(self._faces[card.logical], center, angle)
            for _ in range(settle):
                script.append((list(lying), None))
            if len(lying) == self.trick_size:  # gather the trick
                script.append((list(lying), (seat, (mw / 2, mh / 2))))
                lying = []
                script.append(([], (seat, (mw / 2, mh / 2 + 100))))
                for _ in range(2):
                    script.append(([], None))
        return script

    def render(self, index: int) -> np.ndarray:
        """Frame ``index`` of the script."""
        lying, hand = self._script[index]
        frame = self._background.copy()
        for k in lying:
            item = self._items[k]
            self._paste(frame, item.face, _card_quad(item.center, item.angle))
        if hand is not None:
            self._draw_hand(frame, *hand)
        light = 1.0 + 0.12 * math.sin(index / 23.0)
        if abs(light - 1.0) > 0.01:
            cv2.convertScaleAbs(frame, dst=frame, alpha=light)
        return frame

    def __iter__(self) -> Iterator[np.ndarray]:
        for index in range(self.frame_count):
            yield self.render(index)

    def __len__(self) -> int:
        return self.frame_count

    def close(self) -> None:
        """Nothing to release (the FrameSource protocol)."""


def random_plays(
    deck: Deck, n_seats: int, seed: int, count: int | None = None
) -> list[tuple[int, Card]]:
    """A shuffled deck played round the table in seat order (no rules: any card, any seat)."""
    rng = np.random.default_rng(seed)
    cards = [card.logical for card in deck.cards]
    order = rng.permutation(len(cards))
    n = len(cards) if count is None else count
    return [(k % n_seats, cards[int(order[k])]) for k in range(n)]


def random_game(*, seed: int = 0, deck: Deck = Deck.PIQUET_32, n_seats: int = 4,
                fast: bool = True, count: int | None = None) -> SyntheticTable:  # fmt: skip
    """A whole shuffled deck played on the synthetic table (the demo's default source)."""
    plays = random_plays(deck, n_seats, seed, count)
    return SyntheticTable(plays, n_seats=n_seats, deck=deck, seed=seed, fast=fast)
