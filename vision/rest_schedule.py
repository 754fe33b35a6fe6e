"""When the table tracker's readings at rest are made, and how their work is spread over frames.

Two ways of finding cards cost more than the rest of a frame: the corner-index path
(``vision.tracker_index``) and the learned detector (``vision.tracker_learned``). So they read
only pictures at rest, and no frame pays for all of their work. A frame is at rest when its grey
thumbnail differs by a mean of at most ``still_level`` from the frame before (and, while a
reading stands for frames, from the picture read). The first frame at rest after the picture
changed is kept as the picture read; the reading is made in steps, ``steps_per_frame`` a frame
(the tracker gives the steps: ``Steps``), on whatever frames follow, at rest or not. That one
reading stands for the first ``stable_frames`` frames at rest of its picture: they show the
same picture, and reading it again would give the same readings. The tracker holds each frame
whose reading is not done yet, and every frame after it, and applies them in order once it is
(``vision.tracker``): each is decided as it would have been with the reading made on it.

At most two readings wait: the one under way and the next; a picture at rest that comes while
another waits takes its place, and the frames of the one replaced are applied without the
reading (as a frame that is not at rest).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Generic, TypeVar

import cv2
import numpy as np

from vision.finder import FoundCard

R = TypeVar("R")
# the steps of one reading: a generator that yields between two steps and returns what was read
Steps = Callable[[np.ndarray, list[FoundCard]], Generator[None, None, R]]


def run_steps(steps: Generator[None, None, R]) -> tuple[R, int]:
    """All of a reading's ``steps`` at once: what it read, and how many times it yielded."""
    yields = 0
    while True:
        try:
            next(steps)
        except StopIteration as end:
            return end.value, yields
        yields += 1


@dataclass(frozen=True)
class ScheduleConfig:
    stable_frames: int = 3  # frames at rest that one reading stands for
    still_level: float = 4.0  # 0-255, the most mean difference of two thumbnails at rest
    still_width: int = 64  # px, the thumbnail's width
    steps_per_frame: int = 1  # steps of the readings at rest a frame (experiment 80)

    def __post_init__(self) -> None:
        if self.steps_per_frame < 1:
            raise ValueError(f"steps_per_frame must be at least 1, not {self.steps_per_frame}")


@dataclass(eq=False)
class RestReading(Generic[R]):
    """What was read in one picture at rest, read a step at a time."""

    picture: np.ndarray
    thumb: np.ndarray
    steps: Generator[None, None, R]
    frames: int = 0  # frames at rest it stands for
    started: bool = False
    dropped: bool = False  # replaced before it started: its frames have no reading
    finished: bool = False
    read: R | None = field(default=None, repr=False)

    @property
    def done(self) -> bool:
        return self.dropped or self.finished

    @property
    def result(self) -> R | None:
        """What was read (None: dropped, or not done yet)."""
        return self.read if self.finished else None

    def step(self) -> None:
        """One step of the reading."""
        self.started = True
        try:
            next(self.steps)
        except StopIteration as end:
            self.read, self.finished = end.value, True


class RestSchedule(Generic[R]):
    """Which frames are read at rest, with the readings' work spread over frames."""

    def __init__(self, steps: Steps[R], config: ScheduleConfig) -> None:
        """``steps(picture, found)``: the steps of the reading of ``picture``, where the
        classic finder found ``found``."""
        self.steps, self.config = steps, config
        self._thumb: np.ndarray | None = None
        self._current: RestReading[R] | None = None  # of the picture at rest now
        self.waiting: list[RestReading[R]] = []  # not done yet, oldest first

    def _thumbnail(self, frame: np.ndarray) -> np.ndarray:
        h, w = frame.shape[:2]
        width = self.config.still_width
        size = (width, max(1, round(h * width / w)))
        return cv2.resize(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), size,
                          interpolation=cv2.INTER_AREA).astype(np.float32)  # fmt: skip

    def _near(self, a: np.ndarray | None, b: np.ndarray) -> bool:
        return (a is not None and a.shape == b.shape
                and float(np.abs(a - b).mean()) <= self.config.still_level)  # fmt: skip

    def reading_for(self, frame: np.ndarray, found: list[FoundCard]) -> RestReading[R] | None:
        """The reading that stands for ``frame`` (it may not be done yet; ``found``: the cards
        the classic finder found in it), or None when it is not read: not at rest, or read
        often enough since the picture last changed."""
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
            current = self._current = RestReading(picture, thumb, self.steps(picture, found))
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
        """A frame's steps (``steps_per_frame``), each one step of the oldest reading not done."""
        for _ in range(self.config.steps_per_frame):
            self._step()

    def _step(self) -> None:
        if self.waiting:
            self.waiting[0].step()
        self.waiting = [r for r in self.waiting if not r.done]

    def finish(self) -> None:
        """Every reading not done, done now (all its steps at once: at the end of the frames)."""
        while self.waiting:
            self._step()
