"""When the table tracker's corner-index path reads, and how its work is spread over frames.

The corner path (``vision.tracker_index``) costs more than the rest of a frame, so no frame pays
for all of it. A frame is at rest when its grey thumbnail differs by a mean of at most
``still_level`` from the frame before (and, while a reading stands for frames, from the picture
read). The first frame at rest after the picture changed is kept as the picture whose corner
indices are read; the reading is made in steps, one step a frame (the finder's input, the
finder's net in parts, then the found indices a few at a time:
``tracker_index.sightings_in_steps``), on whatever frames follow, at rest or not. That one
reading stands for the first ``stable_frames`` frames at rest of its picture: they show the
same picture, and reading it again would give the same readings. The tracker holds each frame
whose reading is not done yet, and every frame after it, and applies them in order once it is
(``vision.tracker``): each is decided as it would have been with the reading made on it.

At most two readings wait: the one under way and the next; a picture at rest that comes while
another waits takes its place, and the frames of the one replaced are applied without indices
(as a frame that is not at rest).
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import cv2
import numpy as np

from referee.cards import Deck
from vision.tracker_index import IndexSighting, sightings_in_steps

if TYPE_CHECKING:
    from vision.corner_finder import CornerFinder


@dataclass(frozen=True)
class ScheduleConfig:
    stable_frames: int = 3  # frames at rest that one reading stands for
    still_level: float = 4.0  # 0-255, the most mean difference of two thumbnails at rest
    still_width: int = 64  # px, the thumbnail's width
    finder_parts: int = 3  # the finder's net run in this many parts, one a frame
    boxes_per_step: int = 2  # indices read a frame (each read turned 8 ways)


@dataclass(eq=False)
class IndexReading:
    """The corner indices of one picture at rest, read a step at a time."""

    picture: np.ndarray
    thumb: np.ndarray
    steps: Generator[None, None, list[IndexSighting]]
    frames: int = 0  # frames at rest it stands for
    started: bool = False
    dropped: bool = False  # replaced before it started: its frames have no indices
    sightings: list[IndexSighting] | None = field(default=None, repr=False)

    @property
    def done(self) -> bool:
        return self.dropped or self.sightings is not None

    @property
    def result(self) -> list[IndexSighting] | None:
        """The indices read (None: dropped, or not done yet)."""
        return None if self.dropped else self.sightings

    def step(self) -> None:
        """One step of the reading."""
        self.started = True
        try:
            next(self.steps)
        except StopIteration as end:
            self.sightings = end.value


class IndexSchedule:
    """Which frames the corner path reads, with the readings' work a step a frame."""

    def __init__(self, finder: CornerFinder, deck: Deck, config: ScheduleConfig) -> None:
        self.finder, self.deck, self.config = finder, deck, config
        finder.prepare(config.finder_parts)
        self._thumb: np.ndarray | None = None
        self._current: IndexReading | None = None  # of the picture at rest now
        self.waiting: list[IndexReading] = []  # not done yet, oldest first

    def _thumbnail(self, frame: np.ndarray) -> np.ndarray:
        h, w = frame.shape[:2]
        width = self.config.still_width
        size = (width, max(1, round(h * width / w)))
        return cv2.resize(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), size,
                          interpolation=cv2.INTER_AREA).astype(np.float32)  # fmt: skip

    def _near(self, a: np.ndarray | None, b: np.ndarray) -> bool:
        return (a is not None and a.shape == b.shape
                and float(np.abs(a - b).mean()) <= self.config.still_level)  # fmt: skip

    def reading_for(self, frame: np.ndarray) -> IndexReading | None:
        """The reading that stands for ``frame`` (it may not be done yet), or None when the
        corner path does not read it: not at rest, or read often enough since the picture
        last changed."""
        thumb = self._thumbnail(frame)
        before, self._thumb = self._thumb, thumb
        current = self._current
        standing = current is not None and current.frames < self.config.stable_frames
        if not self._near(before, thumb) or (standing and current is not None
                                             and not self._near(current.thumb, thumb)):  # fmt: skip
            self._current = None  # changed, or drifted from the picture read: read anew
            return None
        if current is None:
            picture = frame.copy()  # the camera may write its next frame over this one
            steps = sightings_in_steps(picture, self.finder, self.deck,
                                       parts=self.config.finder_parts,
                                       boxes_per_step=self.config.boxes_per_step)  # fmt: skip
            current = self._current = IndexReading(picture, thumb, steps)
            for other in self.waiting:
                if not other.started:
                    other.dropped = True
                    other.steps.close()
            self.waiting = [r for r in self.waiting if not r.done] + [current]
        if current.frames >= self.config.stable_frames:
            return None
        current.frames += 1
        return current

    def advance(self) -> None:
        """One step of the oldest reading not done."""
        if self.waiting:
            self.waiting[0].step()
        self.waiting = [r for r in self.waiting if not r.done]

    def finish(self) -> None:
        """Every reading not done, done now (all its steps at once: at the end of the frames)."""
        while self.waiting:
            self.advance()
