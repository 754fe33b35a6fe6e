"""Fit a detector's card quadrilateral to the card's own edges in a still photo.

The learned detector (``vision.detector``) regresses each card's centre, sides and angle from
a 320 px input, so its quads sit somewhat off the card: on the photo-like development scenes
(``training.photo_eval`` seeds 0 and 2, 394 cards) the median IoU of its quad with the true one
is 0.85, and reading the true quads instead would read 34 more ranks right of 388. A card's
outline is a straight, strong edge, so each quad is moved onto the edges near it:

* the photo around the card is warped into the card's frame (the long side upright) at each
  of a few angles about the detector's (``ANGLES``);
* in that frame, each side's edge is the strongest gradient across it within ``SEARCH`` of
  the side's length of where the detector put it, averaged over the middle ``2 * SPAN`` of the
  side (so a corner, a finger or a card lying across one end does not decide it);
* a side whose edge is weak (under ``WEAK`` of the card's strongest side: a side under
  another card, or on a background as light as the card) keeps the detector's distance from
  the opposite side; when both of a pair are weak, both stay;
* the angle with the strongest edges in all wins, and its quad replaces the detector's only
  when its edges are at least ``GAIN`` times as strong as the detector quad's own, and its
  sides within ``SIDES`` of the detector's.

On those development scenes this raised the median quad IoU from 0.852 to 0.904 and read 10
more ranks right of 394 cards; on the real photos' train split (diagnosis only) 3 more, with
as many cards found. The parameters were written down before that measurement and not tuned
after it (models/MODEL_HISTORY.md, experiment 8).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

ANGLES = tuple(np.arange(-6.0, 6.01, 1.5))  # degrees about the detector's angle
SEARCH = 0.15  # how far (in the side's length) each side's edge is looked for
SPAN = 0.4  # the part of each side averaged: its middle 2 * SPAN
WEAK = 0.4  # a side's edge under this share of the strongest side's is not trusted
GAIN = 1.10  # how much stronger the new edges must be than the detector quad's
SIDES = 0.15  # how far the new sides may differ from the detector's
PATCH = 100.0  # px: the card's longer side in the warped patch
SMALLEST = 12.0  # px: a card with a side shorter than this in the photo is left as it is


@dataclass(frozen=True)
class _Frame:
    """A quad's centre, unit axes (first side, second side) and side lengths, photo px."""

    centre: np.ndarray
    u: np.ndarray
    v: np.ndarray
    width: float
    height: float

    @classmethod
    def of(cls, quad: np.ndarray) -> _Frame:
        q = np.asarray(quad, np.float64).reshape(4, 2)
        u = (q[1] + q[2] - q[0] - q[3]) / 2
        v = (q[3] + q[2] - q[0] - q[1]) / 2
        w, h = float(np.linalg.norm(u)), float(np.linalg.norm(v))
        return cls(q.mean(axis=0), u / max(w, 1e-9), v / max(h, 1e-9), w, h)


@dataclass(frozen=True)
class _Fit:
    """Edge positions (patch px: left, right, top, bottom) at one angle, their strength, and
    the patch's mapping back to the photo (photo = a @ patch + b)."""

    strength: float
    sides: tuple[float, float, float, float]
    a: np.ndarray
    b: np.ndarray


def grey_for_refine(image: np.ndarray) -> np.ndarray:
    """The float32 grey photo ``refine_quad`` reads edges from (make it once per photo)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    return grey.astype(np.float32)


def refine_quad(grey: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """``quad`` (4x2, photo px, corners in order round the card) moved onto the card's edges
    in ``grey`` (``grey_for_refine``), in the same corner order; ``quad`` itself when the edges
    do not make a clearly better fit (see the module's docstring)."""
    quad = np.asarray(quad, np.float32).reshape(4, 2)
    frame = _Frame.of(quad)
    if min(frame.width, frame.height) < SMALLEST:
        return quad
    base: float | None = None
    best: _Fit | None = None
    for turn in ANGLES:
        fit, at_detector = _fit(grey, frame, float(turn))
        if turn == 0.0:
            base = at_detector
        if fit is not None and (best is None or fit.strength > best.strength):
            best = fit
    if best is None or base is None or best.strength < GAIN * base:
        return quad
    left, right, top, bottom = best.sides
    scale = PATCH / max(frame.width, frame.height)
    if not (abs((right - left) / (frame.width * scale) - 1) <= SIDES
            and abs((bottom - top) / (frame.height * scale) - 1) <= SIDES):  # fmt: skip
        return quad
    corners = np.array([[left, top], [right, top], [right, bottom], [left, bottom]])
    return (corners @ best.a.T + best.b).astype(np.float32)


def _fit(grey: np.ndarray, frame: _Frame, turn: float) -> tuple[_Fit | None, float]:
    """The best edges with the card's frame turned by ``turn`` degrees, and the strength of
    the detector's own sides (meaningful at ``turn`` 0)."""
    scale = PATCH / max(frame.width, frame.height)
    pw, ph = round(1.5 * frame.width * scale), round(1.5 * frame.height * scale)
    t = np.deg2rad(turn)
    u = np.cos(t) * frame.u + np.sin(t) * frame.v
    v = -np.sin(t) * frame.u + np.cos(t) * frame.v
    a = np.stack([u, v], axis=1) / scale  # patch px -> photo px
    centre = np.array([pw / 2, ph / 2])
    b = frame.centre - a @ centre
    m = np.hstack([a, b[:, None]]).astype(np.float32)
    patch = cv2.warpAffine(grey, m, (pw, ph), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                           borderMode=cv2.BORDER_REPLICATE)  # fmt: skip
    patch = cv2.GaussianBlur(patch, (0, 0), 1.0)
    half_w, half_h = frame.width * scale / 2, frame.height * scale / 2
    rows = slice(max(int(centre[1] - 2 * SPAN * half_h), 0), int(centre[1] + 2 * SPAN * half_h) + 1)
    cols = slice(max(int(centre[0] - 2 * SPAN * half_w), 0), int(centre[0] + 2 * SPAN * half_w) + 1)
    across_x = np.abs(cv2.Sobel(patch, cv2.CV_32F, 1, 0, ksize=3))[rows].mean(axis=0)
    across_y = np.abs(cv2.Sobel(patch, cv2.CV_32F, 0, 1, ksize=3))[:, cols].mean(axis=1)
    expected = (centre[0] - half_w, centre[0] + half_w, centre[1] - half_h, centre[1] + half_h)
    profiles = (across_x, across_x, across_y, across_y)
    at_detector = sum(_value(p, x) for p, x in zip(profiles, expected, strict=True))
    reach = (SEARCH * 2 * half_w,) * 2 + (SEARCH * 2 * half_h,) * 2
    found = [_strongest(p, x, r) for p, x, r in zip(profiles, expected, reach, strict=True)]
    strongest = max(s for _, s in found)
    if strongest <= 0.0:
        return None, at_detector
    sides = [x for x, _ in found]
    trusted = [s >= WEAK * strongest for _, s in found]
    for lo, hi, size in ((0, 1, 2 * half_w), (2, 3, 2 * half_h)):
        if trusted[lo] and not trusted[hi]:
            sides[hi] = sides[lo] + size
        elif trusted[hi] and not trusted[lo]:
            sides[lo] = sides[hi] - size
        elif not trusted[lo] and not trusted[hi]:
            sides[lo], sides[hi] = expected[lo], expected[hi]
    strength = sum(_value(p, x) for p, x in zip(profiles, sides, strict=True))
    left, right, top, bottom = sides
    return _Fit(strength, (left, right, top, bottom), a, b), at_detector


def _strongest(profile: np.ndarray, at: float, reach: float) -> tuple[float, float]:
    """(position, strength) of the profile's highest point within ``reach`` of ``at``."""
    lo, hi = max(int(at - reach), 0), min(int(at + reach) + 1, len(profile))
    if hi <= lo:
        return at, 0.0
    k = lo + int(np.argmax(profile[lo:hi]))
    return float(k), float(profile[k])


def _value(profile: np.ndarray, x: float) -> float:
    k = round(x)
    return float(profile[k]) if 0 <= k < len(profile) else 0.0
