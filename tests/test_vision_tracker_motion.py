"""A card decided in motion (experiments 126, 128 and 129).

In motion the table reads its cards with the classic finder and the table classifier; its
indices, corners, gates and the learned detector's cards are read at rest. A card about to be
decided in motion by its face is read by its corners on that frame too (128 and 129, on by
default), and with ``decide_at_rest`` (126, an option) it is decided only on a frame read at
rest. A photo of edje-cards' training part (SETS.md lets rules be chosen on it) shown as four
frames in motion (every other one 12 levels brighter, so that they are never at rest) and then
four at rest, as a table of a French deck reads it by default (``kibic.camera.reading_paths``).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from kibic.camera import reading_paths
from kibic.config import CameraConfig
from referee.cards import Deck
from vision.calibration import TableCalibration
from vision.events import CardSeen, ConfirmationRequested, VisionEvent
from vision.hands import HandCheck, HandConfig
from vision.recognizer import table_recognizer
from vision.sources import fit_frame
from vision.stills import MAT_SIZE, frame_corners
from vision.tracker import CardTracker, TrackerConfig

TRAIN = Path(__file__).resolve().parents[2] / "shared/data/real-photos/edje-cards/images/train"

pytestmark = pytest.mark.skipif(not TRAIN.exists(), reason="real photos not available")


def _events(name: str, decide_at_rest: bool = False, corners_in_motion: bool = True,
            unread_undecided: bool = True) -> list[tuple[int, VisionEvent]]:  # fmt: skip
    """(frame, event) of a fresh tracker shown ``name`` in motion for 4 frames, then at rest for
    4, then finished (frame 8)."""
    image = cv2.imread(str(TRAIN / name))
    assert image is not None
    picture, scale = fit_frame(image)
    calibration = TableCalibration.from_corners(frame_corners(image), mat_size=MAT_SIZE,
                                                n_seats=4).scaled(scale)  # fmt: skip
    index, detector, second = reading_paths(CameraConfig(deck=Deck.FRENCH_53.value))
    config = TrackerConfig(min_confidence=0.85, hands=HandConfig(check=HandCheck("table")),
                           decide_at_rest=decide_at_rest,
                           corners_in_motion=corners_in_motion,
                           unread_undecided_in_motion=unread_undecided)  # fmt: skip
    tracker = CardTracker(table_recognizer(), calibration, deck=Deck.FRENCH_53, config=config,
                          corners=index, detector=detector, second=second)  # fmt: skip
    brighter = cv2.add(picture, np.full_like(picture, 12))
    out: list[tuple[int, VisionEvent]] = []
    for k in range(8):
        frame = brighter if k < 4 and k % 2 else picture
        out += [(k, e) for e in tracker.process(frame)]
    return out + [(8, e) for e in tracker.finish()]


def test_a_nine_read_as_a_four_in_motion_is_asked_at_rest() -> None:
    """IMG_2611's nine (labelled by rank): its face read 4D surely in motion, committed on the
    third frame; decided at rest, where its corners and indices are read, it is asked (4D, 9D,
    ...), and the four other cards are committed as before."""
    before = _events("IMG_2611.JPG", corners_in_motion=False)
    assert [(k, e.card.code) for k, e in before if isinstance(e, CardSeen) and k < 4] == [
        (2, "4D")]  # fmt: skip
    after = _events("IMG_2611.JPG", decide_at_rest=True, corners_in_motion=False)
    assert all(k >= 4 for k, _ in after)  # nothing decided in motion
    (asked,) = [e for _, e in after if isinstance(e, ConfirmationRequested)]
    assert [c.code for c in asked.candidates][:2] == ["4D", "9D"]
    committed = sorted(e.card.code for _, e in after if isinstance(e, CardSeen))
    assert committed == ["AD", "JH", "TH", "TS"]
    assert committed == sorted(e.card.code for k, e in before if isinstance(e, CardSeen) and k >= 4)


def test_a_nine_read_as_a_four_in_motion_is_left_to_rest_when_its_corners_read_nothing() -> None:
    """The same nine, checked by its corners on the frame it is decided in: they read no card
    (the reader's best below ``corners_readable``). It is not committed in motion (experiment
    128): it is asked on that third frame, 4D offered, and since experiment 129 left to a later
    frame, and asked at rest (4D, 9D, ...). The four other cards are committed as without it."""
    events = _events("IMG_2611.JPG")
    (asked,) = [(k, e) for k, e in events if isinstance(e, ConfirmationRequested)]
    assert asked[0] >= 4 and [c.code for c in asked[1].candidates][:2] == ["4D", "9D"]
    committed = sorted(e.card.code for _, e in events if isinstance(e, CardSeen))
    assert committed == ["AD", "JH", "TH", "TS"]
    in_motion = _events("IMG_2611.JPG", unread_undecided=False)
    (asked,) = [(k, e) for k, e in in_motion if isinstance(e, ConfirmationRequested)]
    assert asked[0] == 2 and asked[1].candidates[0].code == "4D"
    without = _events("IMG_2611.JPG", corners_in_motion=False)
    assert sorted(e.card.code for _, e in without if isinstance(e, CardSeen)) == [
        "4D", "AD", "JH", "TH", "TS"]  # fmt: skip
