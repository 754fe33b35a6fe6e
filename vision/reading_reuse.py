"""Readings kept from one frame to the next, for cards whose picture has not changed.

A card lying still on the table gives nearly the same crop frame after frame; reading it again
costs the classifier's time and tells nothing new. ``KeptReadings`` holds, for each card of the
last frame, its corners, a small grey thumbnail of the crop it was read from and the reading. A
card of the next frame found at the same corners (each within ``shift`` pixels) whose thumbnail
differs from the kept one by at most ``level`` takes the kept reading. The kept thumbnail stays
the one of the crop that was read, so a slow change (the light drifting) adds up until the card
is read again (MODEL_HISTORY.md, experiment 73).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.recognizer import Prediction

THUMB_SIZE = (16, 24)  # (width, height) px: a 64 x 96 crop averaged over 4 x 4 blocks


@dataclass(frozen=True, eq=False)
class _Kept:
    corners: np.ndarray  # (4, 2) frame px
    thumb: np.ndarray  # grey, float32, THUMB_SIZE
    reading: Prediction


def thumbnail(crop: np.ndarray) -> np.ndarray:
    """``crop`` (BGR or grey) as a small grey float32 picture (``THUMB_SIZE``)."""
    grey = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    return cv2.resize(grey, THUMB_SIZE, interpolation=cv2.INTER_AREA).astype(np.float32)


class KeptReadings:
    """The last frame's readings, given again to the cards whose crops have not changed."""

    def __init__(self, level: float, shift: float) -> None:
        """``level``: the most mean absolute difference (0-255) between a card's thumbnail and
        the kept one for the kept reading to stand (0: every card is read); ``shift``: the most
        a corner may move (px) for a card to be the kept one."""
        if level < 0 or shift < 0:
            raise ValueError(f"reuse level and shift must be at least 0, not {level}, {shift}")
        self.level = level
        self.shift = shift
        self._kept: list[_Kept] = []
        self._key: Hashable = None
        self.reused = 0  # readings given again, in all (for benchmarks and tests)

    def read(self, crops: list[np.ndarray], corners: list[np.ndarray],
             predict: Callable[[list[np.ndarray]], list[Prediction]], key: Hashable = None
             ) -> list[Prediction]:  # fmt: skip
        """The readings of ``crops`` (found at ``corners``): ``predict`` runs once, on those
        that cannot take a kept reading. ``key`` names what the readings depend on beside the
        pictures (the deck profile's state): when it changes, nothing kept is given again."""
        if len(crops) != len(corners):
            raise ValueError(f"{len(crops)} crops for {len(corners)} sets of corners")
        if key != self._key:
            self._kept, self._key = [], key
        if self.level <= 0:
            return predict(crops) if crops else []
        quads = [np.asarray(quad, np.float32).reshape(4, 2) for quad in corners]
        thumbs = [thumbnail(crop) for crop in crops]
        kept: list[_Kept | None] = []
        taken: set[int] = set()  # a kept card gives its reading to one card at most
        for quad, thumb in zip(quads, thumbs, strict=True):
            match = self._match(quad, thumb, taken)
            if match is not None:
                taken.add(id(match))
            kept.append(match)
        fresh = [i for i, item in enumerate(kept) if item is None]
        read = iter(predict([crops[i] for i in fresh]) if fresh else [])
        now = [item or _Kept(quad, thumb, next(read))
               for item, quad, thumb in zip(kept, quads, thumbs, strict=True)]  # fmt: skip
        self.reused += len(crops) - len(fresh)
        self._kept = now
        return [item.reading for item in now]

    def _match(self, quad: np.ndarray, thumb: np.ndarray, taken: set[int]) -> _Kept | None:
        """The kept card not ``taken`` at ``quad`` whose thumbnail ``thumb`` still matches."""
        for item in self._kept:
            if id(item) in taken or float(np.abs(item.corners - quad).max()) > self.shift:
                continue
            if float(np.abs(item.thumb - thumb).mean()) <= self.level:
                return item
        return None
