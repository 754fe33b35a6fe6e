"""Frame sources: where BGR frames come from. The choice is configuration (a spec string).

``open_source(spec)`` understands ``picamera2`` (only on a Pi; imported when opened),
``camera:0`` (OpenCV capture by index), ``video:PATH``, ``folder:PATH`` (sorted images) and
``synthetic:SEED`` (a shuffled game on the synthetic table, for demos). Nothing opens a device
at import time.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import cv2
import numpy as np

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")
# what a live camera is asked for (width, height): the frame size the table path is measured
# on (benchmarks/bench_vision.py); a camera that cannot give it picks its nearest, and a frame
# of more pixels is scaled down to as many before it is read (``fit_frame``)
CAMERA_SIZE = (1280, 720)


@runtime_checkable
class FrameSource(Protocol):
    """An iterable of BGR uint8 frames that can be closed."""

    def __iter__(self) -> Iterator[np.ndarray]: ...

    def close(self) -> None: ...


class OpenCVCapture:
    """A camera or video file read with ``cv2.VideoCapture``."""

    def __init__(self, target: int | str, *, size: tuple[int, int] | None = None) -> None:
        self.target, self.size = target, size
        self._capture: Any = None

    def __iter__(self) -> Iterator[np.ndarray]:
        self._capture = cv2.VideoCapture(self.target)
        if not self._capture.isOpened():
            raise OSError(f"cannot open video source {self.target!r}")
        if self.size is not None:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        try:
            while True:
                ok, frame = self._capture.read()
                if not ok:
                    return
                yield frame
        finally:
            self.close()

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None


def VideoFile(path: str | Path) -> OpenCVCapture:  # noqa: N802 - a source constructor
    return OpenCVCapture(str(path))


class ImageFolder:
    """The images of a folder in name order (unreadable files are skipped)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def files(self) -> list[Path]:
        if not self.path.is_dir():
            raise OSError(f"image folder {self.path} not found (or not a folder)")
        return sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)

    def __iter__(self) -> Iterator[np.ndarray]:
        for file in self.files():
            frame = cv2.imread(str(file), cv2.IMREAD_COLOR)
            if frame is not None:
                yield frame

    def close(self) -> None:
        """Nothing to release."""


class Picamera2Source:
    """The Raspberry Pi camera; ``picamera2`` is imported only when frames are requested."""

    def __init__(self, *, size: tuple[int, int] = CAMERA_SIZE) -> None:
        self.size = size
        self._camera: Any = None

    def __iter__(self) -> Iterator[np.ndarray]:
        from picamera2 import Picamera2  # type: ignore[import-not-found]

        self._camera = Picamera2()
        try:  # a camera that fails to start is released too, so that it can be opened again
            # Picamera2 names formats by libcamera's (little-endian) fourcc: "RGB888" arrays
            # are ordered [B, G, R] per pixel, OpenCV's order, and "BGR888" ones [R, G, B] (The
            # Picamera2 Library manual, "Image formats"). So "RGB888" is the BGR frame we need.
            config = self._camera.create_video_configuration(
                main={"size": self.size, "format": "RGB888"}
            )
            self._camera.configure(config)
            self._camera.start()
            # a camera with a focusing lens (Camera Module 3) focuses once on the table, then
            # keeps that focus: continuous focus would hunt each time a hand passes the cards
            if "AfMode" in getattr(self._camera, "camera_controls", {}):
                if not self._camera.autofocus_cycle():
                    log.warning("picamera2: the autofocus cycle did not settle; check the focus")
            while True:
                yield self._camera.capture_array()
        finally:
            self.close()

    def close(self) -> None:
        if self._camera is not None:
            self._camera.stop()
            self._camera.close()
            self._camera = None


def as_bgr(frame: np.ndarray) -> np.ndarray:
    """A frame in the tracker's form, 3-channel BGR: a grey frame (a camera set to a mono
    mode) and a 4-channel one (XRGB8888) are converted; others pass as they are."""
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.ndim == 3 and frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    return frame


def fit_frame(frame: np.ndarray, size: tuple[int, int] = CAMERA_SIZE
              ) -> tuple[np.ndarray, tuple[float, float]]:  # fmt: skip
    """A frame of more pixels than ``size`` (width, height) scaled down to as many pixels,
    keeping its shape, and the scale of each axis (x, y) from the frame's pixels to the
    result's; a frame of no more is passed as it is, scale (1, 1). The table's budget is
    measured on 1280 x 720 frames, and a frame's work grows with its pixels: a camera that gives
    only 1920 x 1080 is read at 1280 x 720, and a 4:3 one of 1280 x 960 at 1109 x 831. (Fitted
    within 1280 x 720 instead, 960 x 720, the table path committed 5 wrong cards on the
    composites of real faces of ``bench_vision.py``'s ``real_face_tables``, where as many
    pixels committed none, as the photos read unscaled.)"""
    h, w = frame.shape[:2]
    scale = math.sqrt(size[0] * size[1] / (w * h)) if w and h else 1.0
    if scale >= 1.0:
        return frame, (1.0, 1.0)
    fitted = (max(1, round(w * scale)), max(1, round(h * scale)))
    # bilinear, not INTER_AREA: a 1920 x 1080 frame takes 1.6 ms on one core here against 7.2
    # (benchmarks/bench_vision.py's speed section shows what is left of the frame's budget)
    out = cv2.resize(frame, fitted, interpolation=cv2.INTER_LINEAR)
    return out, (fitted[0] / w, fitted[1] / h)


def open_source(spec: str) -> FrameSource:
    """A frame source from its configuration string (see the module doc)."""
    kind, _, arg = spec.partition(":")
    if kind == "picamera2":
        return Picamera2Source()
    if kind == "camera":
        return OpenCVCapture(int(arg or 0), size=CAMERA_SIZE)
    if kind == "video":
        return VideoFile(arg)
    if kind == "folder":
        return ImageFolder(arg)
    if kind == "synthetic":
        from vision.synthetic import random_game

        return random_game(seed=int(arg or 0))
    raise ValueError(
        f"unknown frame source {spec!r} (picamera2, camera:N, video:P, folder:P, synthetic:S)"
    )
