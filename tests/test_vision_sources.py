"""Frame sources: the Raspberry Pi camera gives OpenCV's BGR frames."""

from __future__ import annotations

import sys
import types
from collections.abc import Generator
from typing import Any, cast

import numpy as np
import pytest

from vision.sources import Picamera2Source, open_source

RED_BGR = (0, 0, 255)


class FakePicamera2:
    """Stands in for ``picamera2.Picamera2`` on a machine without one: a camera looking at a
    red card, whose arrays are ordered as the Picamera2 manual documents for each format
    ("RGB888": [B, G, R] per pixel; "BGR888": [R, G, B])."""

    made: list[FakePicamera2] = []

    focusing = False  # a Camera Module 3, with its AfMode control
    broken = False  # its start fails (the ribbon cable is loose)

    def __init__(self) -> None:
        self.camera_controls = {"AfMode": (0, 2, 0)} if self.focusing else {}
        self.focus_cycles = 0
        self.format: str | None = None
        self.size: tuple[int, int] = (0, 0)
        self.started = self.closed = False
        self.frames = 0
        FakePicamera2.made.append(self)

    def create_video_configuration(self, main: dict[str, Any]) -> dict[str, Any]:
        return {"main": main}

    def configure(self, config: dict[str, Any]) -> None:
        self.format, self.size = config["main"]["format"], config["main"]["size"]

    def start(self) -> None:
        if self.broken:
            raise RuntimeError("Failed to start camera")
        self.started = True

    def autofocus_cycle(self) -> bool:
        assert self.started  # picamera2 runs the cycle on a started camera
        self.focus_cycles += 1
        return True

    def capture_array(self) -> np.ndarray:
        self.frames += 1
        width, height = self.size
        order = {"RGB888": RED_BGR, "BGR888": RED_BGR[::-1]}[str(self.format)]
        return np.full((height, width, 3), order, np.uint8)

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.closed = True


@pytest.fixture
def fake_picamera2(monkeypatch: pytest.MonkeyPatch) -> type[FakePicamera2]:
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    FakePicamera2.made.clear()
    return FakePicamera2


def test_the_pi_camera_gives_bgr_frames_and_is_closed_after(
    fake_picamera2: type[FakePicamera2],
) -> None:
    source = open_source("picamera2")
    assert isinstance(source, Picamera2Source)
    frames = cast(Generator[np.ndarray, None, None], iter(source))  # Picamera2Source's own
    first = next(frames)
    assert first.shape == (720, 1280, 3)
    assert tuple(int(v) for v in first[0, 0]) == RED_BGR  # red where OpenCV looks for red
    camera = fake_picamera2.made[0]
    assert camera.started and camera.format == "RGB888"
    next(frames)
    frames.close()  # the consumer stops reading: the camera is stopped and released
    assert camera.frames == 2 and camera.closed and not camera.started
    assert camera.focus_cycles == 0  # a fixed-focus camera has no AfMode


def test_a_focusing_pi_camera_focuses_once_before_the_first_frame(
    fake_picamera2: type[FakePicamera2], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(FakePicamera2, "focusing", True)
    frames = iter(open_source("picamera2"))
    next(frames), next(frames), next(frames)
    assert fake_picamera2.made[0].focus_cycles == 1


def test_a_pi_camera_that_fails_to_start_is_released(
    fake_picamera2: type[FakePicamera2], monkeypatch: pytest.MonkeyPatch
) -> None:
    """So that the camera loop can open it again (libcamera holds a camera until closed)."""
    monkeypatch.setattr(FakePicamera2, "broken", True)
    with pytest.raises(RuntimeError, match="Failed to start camera"):
        next(iter(open_source("picamera2")))
    assert fake_picamera2.made[0].closed


class FakeCapture:
    """Stands in for ``cv2.VideoCapture``: a webcam that gives ``frames`` frames, then none
    (unplugged), at the size it was last asked for."""

    def __init__(self, target: int | str, frames: int = 2) -> None:
        self.target, self.left = target, frames
        self.asked: dict[int, float] = {}
        self.released = False

    def isOpened(self) -> bool:  # noqa: N802 - OpenCV's name
        return True

    def set(self, prop: int, value: float) -> bool:
        self.asked[prop] = value
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.left == 0:
            return False, None
        self.left -= 1
        import cv2

        size = (
            int(self.asked[cv2.CAP_PROP_FRAME_HEIGHT]),
            int(self.asked[cv2.CAP_PROP_FRAME_WIDTH]),
        )
        return True, np.zeros((*size, 3), np.uint8)

    def release(self) -> None:
        self.released = True


def test_a_webcam_is_asked_for_the_frame_size_the_table_is_measured_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import vision.sources

    made: list[FakeCapture] = []

    def capture(target: int | str) -> FakeCapture:
        made.append(FakeCapture(target))
        return made[-1]

    monkeypatch.setattr(vision.sources.cv2, "VideoCapture", capture)
    frames = list(open_source("camera:1"))
    assert [f.shape for f in frames] == [(720, 1280, 3), (720, 1280, 3)]
    assert made[0].target == 1 and made[0].released


def test_a_frame_of_more_pixels_than_the_tables_is_scaled_down_to_as_many() -> None:
    """1920 x 1080 is read at 1280 x 720, and a 4:3 sensor's 2592 x 1944 and a 1280 x 960
    webcam at 1109 x 831 (as many pixels, the same shape), each with its scale per axis; what
    lay at a pixel lies at that pixel times the scale."""
    from vision.sources import fit_frame

    frame = np.zeros((1080, 1920, 3), np.uint8)
    frame[300:600, 900:1200] = 255  # a white square, 300 px a side
    fitted, scale = fit_frame(frame)
    assert fitted.shape == (720, 1280, 3) and scale == pytest.approx((2 / 3, 2 / 3))
    ys, xs = np.nonzero(fitted[:, :, 0] > 127)
    assert (xs.min(), xs.max(), ys.min(), ys.max()) == (600, 799, 200, 399)
    sensor, scale = fit_frame(np.zeros((1944, 2592), np.uint8))
    assert sensor.shape == (831, 1109) and scale == pytest.approx((1109 / 2592, 831 / 1944))
    webcam, _ = fit_frame(np.zeros((960, 1280, 3), np.uint8))
    assert webcam.shape == (831, 1109, 3)
    assert abs(1109 * 831 - 1280 * 720) < 0.01 * 1280 * 720


def test_a_frame_that_fits_already_is_passed_as_it_is() -> None:
    from vision.sources import fit_frame

    for shape in [(720, 1280, 3), (480, 640, 3), (720, 1080, 3), (1280, 720, 3)]:
        frame = np.ones(shape, np.uint8)
        fitted, scale = fit_frame(frame)
        assert fitted is frame and scale == (1.0, 1.0)
