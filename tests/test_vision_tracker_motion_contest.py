"""A card whose face reads surely in motion and whose corners, read on that frame, surely read a
card of another rank is left to a later frame, and decided at rest (experiments 131 and 131b).

A flat row of five real faces of card-crops' tuning part (``training.table_eval``, seed 0, the
eleventh scene: the one the table committed wrong in motion before experiment 131b), shown four
frames in motion and then at rest, as a table of a French deck reads it by default. Its seven of
diamonds reads as the ace of diamonds by its face in motion, its corners as the seven.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import pytest

from kibic.camera import reading_paths
from kibic.config import CameraConfig
from referee.cards import Deck
from training import real_crops
from training.table_eval import build
from vision.events import CardSeen, ConfirmationRequested, VisionEvent
from vision.recognizer import table_recognizer
from vision.stills import frame_corners, track_still
from vision.tracker import TrackerConfig

pytestmark = pytest.mark.skipif(not real_crops.available(), reason="card-crops not available")


def _events(folder: Path, config: TrackerConfig) -> list[VisionEvent]:
    image = cv2.imread(str(folder / "table0010.jpg"))
    assert image is not None
    index, detector, second = reading_paths(CameraConfig(deck=Deck.FRENCH_53.value))
    return track_still(image, table_recognizer(), deck=Deck.FRENCH_53,
                       corners=frame_corners(image), config=config, index=index,
                       detector=detector, second=second, moving=4)  # fmt: skip


def test_a_seven_read_as_an_ace_in_motion_is_asked_at_rest(tmp_path: Path) -> None:
    build(tmp_path, "flat", 11, seed=0)
    config = TrackerConfig(min_confidence=0.85)
    before = _events(tmp_path, replace(config, contested_undecided_in_motion=False))
    committed = sorted(e.card.code for e in before if isinstance(e, CardSeen))
    assert "AD" in committed
    after = _events(tmp_path, config)
    committed.remove("AD")  # the four other cards committed as before
    assert sorted(e.card.code for e in after if isinstance(e, CardSeen)) == committed
    asked = [e for e in after if isinstance(e, ConfirmationRequested)]
    assert any("7D" in [c.code for c in e.candidates] for e in asked)
