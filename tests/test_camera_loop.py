"""``kibic run``'s camera path: frames of a table → ArUco calibration → tracker → the runtime."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from kibic.camera import CameraStatus, DemoCamera, camera_loop
from kibic.config import CameraConfig, TableConfig
from kibic.runtime import TableRuntime
from kibic.store import EventStore
from referee.cards import Deck
from vision.sources import open_source
from vision.synthetic import random_game, random_plays


def test_camera_loop_feeds_a_whole_deal_of_ruzicka(tmp_path: Path) -> None:
    config = TableConfig(game="ruzicka", camera=CameraConfig(source="synthetic", deck="piquet-32"))
    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="ruzicka")
    runtime.start_deal(dealer=3)  # seat 0 leads, as the synthetic table plays seats 0, 1, 2, 3...
    feed = runtime.subscribe()
    # the shuffled deck on the synthetic table ("synthetic:0" of vision.sources) ends after one
    # deck; kibic run's own synthetic source (a legal game) is in test_camera_synthetic_game
    camera_loop(runtime, config, threading.Event(), opener=open_source)
    expected = random_plays(Deck.PIQUET_32, 4, 0)
    seen = [(a.seat, a.card) for a in runtime.deal.actions]  # type: ignore[union-attr]
    pending = runtime.snapshot()["pending"]
    # every card the camera committed is the card that was played, at the seat that played it
    assert seen == [p for p in expected if p in seen]
    assert len(seen) + len(pending) + len(runtime.alerts) >= len(expected) - 2
    assert len(seen) >= 24
    # the dashboard hears that the camera calibrated itself from the mat's markers
    camera = [ev for msg in iter(lambda: feed.get(timeout=0), None) for ev in msg["events"]
              if ev["kind"] == "camera"]  # fmt: skip
    assert [ev["calibrated"] for ev in camera] == [False, True, True]
    # and, when the synthetic table has shown its last frame, that no more frames come
    assert runtime.snapshot()["camera"] == {
        "source": "synthetic:0", "deck": "piquet-32", "calibrated": True,
        "profile": {"enrolled": 0, "of": 32, "learnt": 0, "saved": False},
        "stopped": "the source ended",
    }  # fmt: skip
    assert (
        runtime.alerts[-1] == "camera: the source ended; cards are entered by hand until it is back"
    )


def test_the_demo_camera_shows_on_the_dashboard(tmp_path: Path) -> None:
    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="ruzicka")
    assert runtime.snapshot()["camera"] is None
    camera = DemoCamera(runtime, seed=5)
    plays = random_plays(Deck.PIQUET_32, 4, 0)
    assert camera.sighting(2, 0, plays) is not None
    assert runtime.snapshot()["camera"] == {
        "source": "synthetic:7", "deck": "piquet-32", "calibrated": True, "profile": None}  # fmt: skip


def test_camera_status_learns_and_says_when_the_profile_cannot_be_saved(tmp_path: Path) -> None:
    """People's answers reach the profile in the camera thread; a disk that refuses the file is
    one alert on the dashboard, and the camera keeps going; an undo is forgotten again."""
    import numpy as np

    from referee.actions import Action, ActionType
    from referee.cards import Card
    from vision.deck_profile import DeckProfile
    from vision.enrol import ConfirmationLearner
    from vision.recognizer import Recognizer

    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="veliki-satir")
    runtime.start_deal(dealer=3)
    runtime.submit(Action(0, ActionType.CONTRACT, value="zatvoreno"))
    learner = ConfirmationLearner(Recognizer(), DeckProfile(Deck.FRENCH_52),
                                  tmp_path / "gone" / "deck.npz")  # fmt: skip
    runtime.add_confirmation_listener(learner.confirmed)
    runtime.add_undo_listener(learner.undone)
    status = CameraStatus(runtime, learner, source="camera:0", saved=True)
    status.report(calibrated=True)
    assert runtime.snapshot()["camera"]["profile"] == {
        "enrolled": 0, "of": 52, "learnt": 0, "saved": True}  # fmt: skip
    for k, (seat, code) in enumerate([(0, "5S"), (1, "7S")]):
        rid = runtime.request_confirmation(seat, [Card.parse(code)], [0.6])
        learner._pending[rid] = [np.eye(8, dtype=np.float32)[k]]  # as ``asked`` leaves them
        runtime.confirm_card(rid, Card.parse(code))
        status.learn()
    camera = runtime.snapshot()["camera"]
    assert camera["calibrated"] is True
    assert camera["profile"] == {"enrolled": 2, "of": 52, "learnt": 2, "saved": False}
    assert learner.save_error is not None
    assert learner.save_error.startswith(f"deck profile {tmp_path / 'gone' / 'deck.npz'} not saved")
    alerts = [a for a in runtime.alerts if "not saved" in a]
    assert alerts == [f"camera: {learner.save_error}"]  # one alert, not one a card
    runtime.undo()  # the 7S was the wrong answer
    status.learn()
    assert runtime.snapshot()["camera"]["profile"]["enrolled"] == 1


def test_a_missing_folder_source_is_shown_not_a_dead_thread(tmp_path: Path) -> None:
    folder = tmp_path / "frames"
    config = TableConfig(game="ruzicka", camera=CameraConfig(source="folder", path=str(folder),
                                                             deck="piquet-32"))  # fmt: skip
    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="ruzicka")
    camera_loop(runtime, config, threading.Event())  # returns: a folder is not retried
    why = f"folder:{folder}: image folder {folder} not found (or not a folder)"
    assert runtime.snapshot()["camera"]["stopped"] == why
    assert runtime.alerts == [f"camera: {why}; cards are entered by hand until it is back"]


def test_a_live_camera_that_fails_is_opened_again_and_reads_on(tmp_path: Path) -> None:
    """camera:0 cannot be opened, then gives a deal's frames and stops (unplugged); each time
    the dashboard says why, once, and the camera line clears with the first frame again."""
    from vision.synthetic import random_game

    config = TableConfig(game="ruzicka", camera=CameraConfig(source="opencv", device=0,
                                                             deck="piquet-32"))  # fmt: skip
    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="ruzicka")
    runtime.start_deal(dealer=3)
    feed = runtime.subscribe()
    stop = threading.Event()
    opened: list[str] = []

    def opener(spec: str):  # type: ignore[no-untyped-def]
        opened.append(spec)
        if len(opened) == 1:
            raise OSError("cannot open video source 0")
        if len(opened) == 2:
            return random_game(seed=0)
        stop.set()  # the session ends while it waits for the camera
        raise OSError("cannot open video source 0")

    camera_loop(runtime, config, stop, opener=opener, retry=0.01)
    assert opened == ["camera:0"] * 3
    # (the other alerts are the referee's, about some of the sightings)
    assert [a for a in runtime.alerts if a.endswith("until it is back")] == [
        "camera: camera:0: cannot open video source 0; cards are entered by hand until it is back",
        "camera: the camera gives no more frames; cards are entered by hand until it is back",
        "camera: camera:0: cannot open video source 0; cards are entered by hand until it is back",
    ]
    # the frames between the two failures were read: the deal's cards reached the referee
    expected = random_plays(Deck.PIQUET_32, 4, 0)
    seen = [(a.seat, a.card) for a in runtime.deal.actions]  # type: ignore[union-attr]
    assert len(seen) >= 24 and seen == [p for p in expected if p in seen]
    stops = [ev.get("stopped") for msg in iter(lambda: feed.get(timeout=0), None)
             for ev in msg["events"] if ev["kind"] == "camera"]  # fmt: skip
    assert stops == [
        None,
        "camera:0: cannot open video source 0",
        None,
        None,
        "the camera gives no more frames",
        "camera:0: cannot open video source 0",
    ]


def _deal_through_the_camera_loop(tmp_path: Path,
                                  frames: Callable[[], Iterator[np.ndarray]]) -> TableRuntime:  # fmt: skip
    """A Ružička deal whose frames (``frames()``) come through ``camera_loop`` from a source
    whose markers calibrate it; the runtime afterwards."""
    config = TableConfig(game="ruzicka", camera=CameraConfig(source="folder", path="frames",
                                                             deck="piquet-32"))  # fmt: skip
    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="ruzicka")
    runtime.start_deal(dealer=3)

    class Source:
        def __iter__(self) -> Iterator[np.ndarray]:
            return frames()

        def close(self) -> None:
            pass

    camera_loop(runtime, config, threading.Event(), opener=lambda spec: Source())
    return runtime


def _plays_right(runtime: TableRuntime) -> list[tuple[int, object]]:
    """The plays committed, each checked against the synthetic deal (card and seat)."""
    seen = [(a.seat, a.card) for a in runtime.deal.actions]  # type: ignore[union-attr]
    expected = random_plays(Deck.PIQUET_32, 4, 0)
    assert len(seen) >= 24 and seen == [p for p in expected if p in seen]
    return seen


def test_a_4_channel_frame_is_read_and_a_broken_one_does_not_stop_the_camera(
    tmp_path: Path,
) -> None:
    """A deal's frames, every third one with 4 channels (a camera set to XRGB8888), with two
    empty frames (a driver's glitch) in the middle: the cards are read on, and the glitch is
    one alert."""

    def frames() -> Iterator[np.ndarray]:
        for k, frame in enumerate(random_game(seed=0)):
            if k in (40, 41):
                yield np.zeros((0, 0, 3), np.uint8)
            yield cv2.cvtColor(frame, cv2.COLOR_BGR2BGRA) if k % 3 == 0 else frame

    runtime = _deal_through_the_camera_loop(tmp_path, frames)
    _plays_right(runtime)
    glitches = [a for a in runtime.alerts if "a frame could not be read" in a]
    assert glitches == [
        "camera: a frame could not be read (ZeroDivisionError: division by zero); reading goes "
        "on with the next one"
    ]


def test_a_knocked_camera_is_noticed_and_the_seats_calibrated_again(tmp_path: Path) -> None:
    """A third of the way into the deal the camera is knocked: every later frame is shifted by
    (20, -10) px. The markers say so at two checks in a row, the seats are calibrated again
    (one alert, with the shift), and the cards already on the mat are not read again."""
    game = random_game(seed=0)
    knock = np.array([[1, 0, 20], [0, 1, -10]], np.float32)

    def frames() -> Iterator[np.ndarray]:
        for k, frame in enumerate(game):
            if k >= len(game) // 3:
                h, w = frame.shape[:2]
                frame = cv2.warpAffine(frame, knock, (w, h), flags=cv2.INTER_NEAREST,
                                       borderValue=(40, 45, 50))  # fmt: skip
            yield frame

    runtime = _deal_through_the_camera_loop(tmp_path, frames)
    assert [a for a in runtime.alerts if "moved" in a] == [
        "camera: the camera moved (22 px); the seats were calibrated again from the mat's markers"
    ]
    seen = _plays_right(runtime)
    assert len(set(seen)) == len(seen)
    assert not [a for a in runtime.alerts if "twice" in a or "already" in a]


def test_the_dashboard_hears_when_the_cameras_picture_loses_its_colour(tmp_path: Path) -> None:
    """A camera turned to grey (night mode) and back: one alert each way, and none while the
    picture stays as it was; the colour is looked at every ``every`` frames."""
    from kibic.camera import ColourWatch

    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="ruzicka")
    felt = np.full((72, 128, 3), (40, 100, 35), np.uint8)
    grey = cv2.cvtColor(cv2.cvtColor(felt, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    watch = ColourWatch(runtime, every=2)
    for frame in [felt, felt, grey, grey, grey, grey, felt, grey, felt]:
        watch.check(frame)
    # looked at on frames 1, 3, 5, 7 and 9: colour, grey, grey, colour, colour
    assert runtime.alerts == [
        "camera: the picture has no colour (a camera in grey or night mode); every card read by "
        "its face is asked until it has",
        "camera: the picture has colour again",
    ]


def test_a_camera_that_gives_1920_by_1080_is_read_at_1280_by_720(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A deal filmed at 1920 x 1080, the mat's corners given by hand in those pixels (no
    markers looked for): the tracker sees every frame scaled to 1280 x 720, the corners scaled
    with it, and each card is committed at the seat that played it."""
    from vision.synthetic import MAT_SIZE, SyntheticTable
    from vision.tracker import CardTracker

    plays = random_plays(Deck.PIQUET_32, 4, 0)
    table = SyntheticTable(plays, n_seats=4, deck=Deck.PIQUET_32, seed=0, fast=True,
                           size=(1920, 1080))  # fmt: skip
    w, h = MAT_SIZE
    corners = table.calibration.to_image(np.array([[0, 0], [w, 0], [w, h], [0, h]]))
    config = TableConfig(game="ruzicka", camera=CameraConfig(
        source="folder", path="frames", deck="piquet-32",
        corners=tuple((float(x), float(y)) for x, y in corners)))  # fmt: skip
    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="ruzicka")
    runtime.start_deal(dealer=3)
    shapes: set[tuple[int, ...]] = set()
    process = CardTracker.process

    def seen(self: CardTracker, frame: np.ndarray) -> list[object]:
        shapes.add(frame.shape)
        return process(self, frame)  # type: ignore[return-value]

    monkeypatch.setattr(CardTracker, "process", seen)
    # corners given by hand are not checked against the markers the frames show
    monkeypatch.setattr("vision.calibration.find_markers", lambda frame: {})
    camera_loop(runtime, config, threading.Event(), opener=lambda spec: table)
    assert shapes == {(720, 1280, 3)}
    seen_plays = [(a.seat, a.card) for a in runtime.deal.actions]  # type: ignore[union-attr]
    assert len(seen_plays) >= 24 and seen_plays == [p for p in plays if p in seen_plays]
