"""With a reading at rest, a card is decided only on a frame read at rest (experiment 126).

In motion the table reads its cards with the classic finder and the table classifier alone; its
indices, corners, gates and the learned detector's cards are read at rest. A photo of edje-cards'
training part (SETS.md lets rules be chosen on it) shown as four frames in motion (every other
one 12 levels brighter, so that they are never at rest) and then four at rest, as a table of a
French deck reads it by default (``kibic.camera.reading_paths``).
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


def _events(name: str, decide_at_rest: bool) -> list[tuple[int, VisionEvent]]:
    """(frame, event) of a fresh tracker shown ``name`` in motion for 4 frames, then at rest for
    4, then finished (frame 8)."""
    image = cv2.imread(str(TRAIN / name))
    assert image is not None
    picture, scale = fit_frame(image)
    calibration = TableCalibration.from_corners(frame_corners(image), mat_size=MAT_SIZE,
                                                n_seats=4).scaled(scale)  # fmt: skip
    index, detector, second = reading_paths(CameraConfig(deck=Deck.FRENCH_53.value))
    config = TrackerConfig(min_confidence=0.85, hands=HandConfig(check=HandCheck("table")),
                           decide_at_rest=decide_at_rest)  # fmt: skip
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
    before = _events("IMG_2611.JPG", decide_at_rest=False)
    assert [(k, e.card.code) for k, e in before if isinstance(e, CardSeen) and k < 4] == [
        (2, "4D")]  # fmt: skip
    after = _events("IMG_2611.JPG", decide_at_rest=True)
    assert all(k >= 4 for k, _ in after)  # nothing decided in motion
    (asked,) = [e for _, e in after if isinstance(e, ConfirmationRequested)]
    assert [c.code for c in asked.candidates][:2] == ["4D", "9D"]
    committed = sorted(e.card.code for _, e in after if isinstance(e, CardSeen))
    assert committed == ["AD", "JH", "TH", "TS"]
    assert committed == sorted(e.card.code for k, e in before if isinstance(e, CardSeen) and k >= 4)
