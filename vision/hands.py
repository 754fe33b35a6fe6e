"""Hands over the table: skin-coloured regions, and which of them are the table or a card.

The tracker neither reads nor forgets a card under a hand (a card being laid down is not read
mid-motion; a hand resting on a card hides it). A hand is told by its colour (``skin_mask``:
moderate saturation, orange-red hue). With ``HandCheck.SKIN`` every skin-coloured region of
at least ``min_area`` of a card's area is a hand. But wood, cork and many carpets are that
colour too, and so are the red pips and court pictures of the cards; with ``HandCheck.TABLE``
(the default since experiment 35) a skin-coloured region is a hand only when it is none of
these:

- **the table itself**: the pixels of the table view are grouped by their colour (lobes of
  their chroma histogram, Lab a* and b*); a lobe covering at least ``surface_share`` of the
  view is a colour of the table, for no hand covers that much of a table seen whole, and the
  skin-coloured pixels within ``table_sigmas`` of a Gaussian fitted to the lobe's bulk are the
  table (a hand a little apart in colour stays a hand, even where the histogram joins it to
  the table's lobe). On a green, blue or dark mat the table's colour is far from any skin, and
  every skin pixel is looked at as before. The table's colour is learnt from each frame, so it
  follows the light.
- **grain**: what is left of a wooden table after its main colour (lighter or darker streaks)
  is sprawling and full of gaps; a hand is a solid blob (its area at least ``min_solidity`` of
  its convex hull's).
- **a card's print**: a region lying wholly on a card found whole (its quad grown by
  ``GROWN``) is that card's pips or picture; a hand over a card reaches beyond it.

What is left, at least ``min_area`` of a card's area, is a hand. The limits of the colour test
are those of colour: a hand of the very colour of the table it lies on is taken for the table
(``models/MODEL_HISTORY.md``, experiment 34).

>>> import numpy as np
>>> skin, table = HandConfig(check=HandCheck.SKIN), HandConfig()  # the table check by default
>>> frame = np.full((90, 160, 3), (60, 110, 30), np.uint8)  # green felt
>>> frame[30:70, 0:70] = (110, 145, 205)  # an arm from the left edge
>>> [len(find_hands(frame, card_area_px=600.0, config=c)) for c in (skin, table)]
[1, 1]
>>> oak = np.full((90, 160, 3), (120, 155, 190), np.uint8)  # a table of a skin colour
>>> [len(find_hands(oak, card_area_px=600.0, config=c)) for c in (skin, table)]
[1, 0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

import cv2
import numpy as np

GROWN = 1.15  # a card's quad grown by this about its centre: what "over the card" means
_CHROMA_BIN = 3  # Lab a*, b* levels per bin of the table's colour histogram
_LOBE_FLOOR = 0.05  # a lobe: connected bins of at least this share of the highest bin
_TRIM, _TRIM_ROUNDS = 2.5, 3  # a table colour's Gaussian: fitted to its pixels this near


class HandCheck(Enum):
    """What the tracker takes for a hand: any skin-coloured region, or one that is neither the
    table's own colour nor wood grain nor a card's print."""

    SKIN = "skin"
    TABLE = "table"


@dataclass(frozen=True)
class HandConfig:
    """What the tracker takes for a hand (see the module's docstring)."""

    check: HandCheck = HandCheck.TABLE  # the default since experiment 35
    min_area: float = 0.25  # a region of at least this fraction of a card's area
    surface_share: float = 0.25  # a colour covering this share of the table view is the table
    table_sigmas: float = 3.0  # a pixel this near a table colour's Gaussian is the table
    min_solidity: float = 0.5  # a hand's area over its convex hull's (wood grain: less)
    width: int = 320  # px: the frame is looked at this wide


def skin_mask(image: np.ndarray) -> np.ndarray:
    """Skin-coloured pixels of a BGR image (255): moderate saturation, orange-red hue."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    return cv2.inRange(hsv, (0, 45, 60), (22, 175, 255))


def table_colour(image: np.ndarray, skin: np.ndarray, view: np.ndarray, share: float,
                 sigmas: float = 3.0) -> np.ndarray:  # fmt: skip
    """The skin-coloured pixels (``skin``) of ``image`` that are the table's own colour (bool).

    The pixels of ``view`` (bool, the table's pixels) are grouped by chroma (Lab a*, b*): the
    lobes of their histogram. Each lobe covering at least ``share`` of the view is a colour of
    the table; a Gaussian is fitted to its pixels, trimmed of those far from the bulk (a hand
    whose colours the histogram joined to the table's is a small part of the lobe), and the
    skin pixels within ``sigmas`` of it are the table. (All of it is done on the histogram's
    bins, 3 levels wide, weighed by their pixels.)"""
    out = np.zeros(skin.shape, bool)
    is_skin = skin > 0
    if not is_skin.any() or not view.any():
        return out
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab)
    n = 256 // _CHROMA_BIN + 1
    bins = (lab[..., 1] // _CHROMA_BIN).astype(np.intp) * n + lab[..., 2] // _CHROMA_BIN
    hist = np.bincount(bins[view], minlength=n * n).astype(np.float32).reshape(n, n)
    smooth = cv2.GaussianBlur(hist, (0, 0), 1.0)
    count, lobes = cv2.connectedComponents((smooth >= _LOBE_FLOOR * smooth.max()).astype(np.uint8))
    need = share * float(view.sum())
    centre = (np.indices((n, n), np.float32).reshape(2, -1).T + 0.5) * _CHROMA_BIN  # a*, b*
    table = np.zeros(n * n, bool)
    for lobe in range(1, count):
        weight = np.where(lobes == lobe, hist, 0.0).reshape(-1)
        if weight.sum() < need:
            continue
        for _ in range(_TRIM_ROUNDS):  # the bulk of the lobe: its far bins left out
            kept = weight * (_distance(centre, weight) <= _TRIM**2)
            if kept.sum() < weight.sum() / 2:
                break
            weight = kept
        table |= _distance(centre, weight) <= sigmas**2
    out[is_skin] = table[bins[is_skin]]
    return out


def _distance(points: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """The squared Mahalanobis distance of ``points`` (N x 2) from the Gaussian fitted to them
    weighed by ``weight`` (its covariance widened by one level, for a flat colour)."""
    total = float(weight.sum())
    mean = (points * weight[:, None]).sum(axis=0) / total
    diff = points - mean
    cov = (diff * weight[:, None]).T @ diff / total + np.eye(2, dtype=np.float32)
    inverse = np.linalg.inv(cov)
    return np.einsum("ij,jk,ik->i", diff, inverse, diff)


def _on_a_card(contour: np.ndarray, cards: Sequence[np.ndarray]) -> bool:
    """Whether every point of ``contour`` lies on one of ``cards`` (grown quads)."""
    points = contour.reshape(-1, 2)
    for quad in cards:
        shape = quad.reshape(-1, 1, 2)
        if all(cv2.pointPolygonTest(shape, (float(x), float(y)), False) >= 0
               for x, y in points):  # fmt: skip
            return True
    return False


def grown(corners: np.ndarray) -> np.ndarray:
    """A card's quad grown by ``GROWN`` about its centre (float32)."""
    quad = np.asarray(corners, np.float32).reshape(-1, 2)
    center = quad.mean(axis=0)
    return (quad - center) * GROWN + center


def find_hands(frame: np.ndarray, *, card_area_px: float, view: np.ndarray | None = None,
               cards: Sequence[np.ndarray] = (), config: HandConfig | None = None,
               ) -> list[np.ndarray]:  # fmt: skip
    """Contours (frame pixels, float32) of the hands over ``frame``. ``card_area_px``: a
    card's area in frame pixels; ``view``: the table's corners in the frame (default the
    whole frame); ``cards``: the corners of the cards found whole (their print is no hand)."""
    cfg = config or HandConfig()
    h, w = frame.shape[:2]
    scale = min(1.0, cfg.width / w)
    size = (max(1, int(w * scale)), max(1, int(h * scale)))
    limit = cfg.min_area * card_area_px * scale * scale
    if cfg.check is HandCheck.SKIN:
        small = cv2.resize(frame, size, interpolation=cv2.INTER_NEAREST)
        contours, _ = cv2.findContours(skin_mask(small), cv2.RETR_EXTERNAL,
                                       cv2.CHAIN_APPROX_SIMPLE)  # fmt: skip
        return [c.astype(np.float32) / scale for c in contours if cv2.contourArea(c) >= limit]
    small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    skin = skin_mask(small)
    table = np.ones(skin.shape, bool)
    if view is not None:
        table = np.zeros(skin.shape, np.uint8)
        quad = np.round(np.asarray(view, np.float32).reshape(-1, 2) * scale).astype(np.int32)
        cv2.fillConvexPoly(table, quad, 1)
        table = table > 0
    skin[table_colour(small, skin, table, cfg.surface_share, cfg.table_sigmas)] = 0
    skin = cv2.morphologyEx(skin, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(skin, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    shown = [grown(c) * scale for c in cards]
    hands = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < limit:
            continue
        hull = cv2.contourArea(cv2.convexHull(contour))
        if hull <= 0 or area / hull < cfg.min_solidity:
            continue  # grain or streaks, no hand
        if _on_a_card(contour, shown):
            continue  # a card's own print
        hands.append(contour.astype(np.float32) / scale)
    return hands


def print_of(hand: np.ndarray, corners: np.ndarray) -> bool:
    """Whether the skin-coloured region ``hand`` (frame px) lies wholly on the card ``corners``
    (grown by ``GROWN``): with ``HandCheck.TABLE``, that card's print, no hand over it."""
    return _on_a_card(hand, [grown(corners)])


def covered(corners: np.ndarray, hands: Sequence[np.ndarray]) -> bool:
    """Whether any of ``hands`` (contours, frame px) lies over the card ``corners`` (its quad
    grown by ``GROWN``)."""
    if not hands:
        return False
    quad = grown(corners)
    shape = quad.reshape(-1, 1, 2)
    for hand in hands:
        for p in hand.reshape(-1, 2)[::2]:
            if cv2.pointPolygonTest(shape, (float(p[0]), float(p[1])), False) >= 0:
                return True
        inter, _ = cv2.intersectConvexConvex(quad, cv2.convexHull(hand).reshape(-1, 2))
        if inter > 0:
            return True
    return False
