"""A table that never rests (a camera that shakes, a light that flickers, hands always over the
cloth) still hears of every card it cannot decide in motion: a card left to a later frame because
its corners contest its face (131b) or read no card (129) is asked after 30 such frames
(experiments 134 and 134b), where before nothing was said of it until the table rested.

A flat row of five real faces of card-crops' tuning part (``training.table_eval``, seed 0, the
eleventh scene), shown 45 frames in motion before it rests. Its seven of diamonds reads as the
ace of diamonds by its face in motion, its corners as the seven; another card of the row, read
weakly as the ace of diamonds, is asked on the second frame.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
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

MOVING = 45  # frames in motion before the table rests
CONFIG = TrackerConfig(min_confidence=0.85)
NO_BOUND = replace(CONFIG, undecided_ask_after=None)


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> np.ndarray:
    folder = tmp_path_factory.mktemp("flat")
    build(folder, "flat", 11, seed=0)
    image = cv2.imread(str(folder / "table0010.jpg"))
    assert image is not None
    return image


def _in_motion(image: np.ndarray, config: TrackerConfig) -> list[VisionEvent]:
    index, detector, second = reading_paths(CameraConfig(deck=Deck.FRENCH_53.value))
    events = track_still(image, table_recognizer(), deck=Deck.FRENCH_53,
                         corners=frame_corners(image), config=config, index=index,
                         detector=detector, second=second, moving=MOVING)  # fmt: skip
    return [e for e in events if e.frame_index < MOVING]


def _about(events: list[VisionEvent], card: str, read_as: str) -> list[VisionEvent]:
    """The events that commit ``card`` or ``read_as``, or ask offering ``card``."""
    return [e for e in events
            if (isinstance(e, CardSeen) and e.card.code in (card, read_as))
            or (isinstance(e, ConfirmationRequested)
                and card in {c.code for c in e.candidates})]  # fmt: skip


def test_a_card_its_corners_contest_is_asked_after_30_frames(table: np.ndarray) -> None:
    assert _about(_in_motion(table, NO_BOUND), "7D", "AD") == []  # never decided in motion
    (asked,) = _about(_in_motion(table, CONFIG), "7D", "AD")
    assert isinstance(asked, ConfirmationRequested)
    assert {"AD", "7D"} <= {c.code for c in asked.candidates}  # both readers' cards offered
    assert 30 <= asked.frame_index < MOVING


def test_a_card_whose_corners_cannot_be_read_is_asked_after_30_frames(table: np.ndarray) -> None:
    # the six of hearts' two index corners covered by patches of the colour of its paper
    image = table.copy()
    x0, y0, x1, y1 = 677, 272, 811, 455  # its box in the scene's labels
    w, h = x1 - x0, y1 - y0
    paper = np.median(
        image[y0 + h // 2 - 10 : y0 + h // 2 + 10, x0 + 4 : x0 + 10].reshape(-1, 3), 0
    )
    colour = tuple(int(v) for v in paper)
    cv2.rectangle(image, (x0 + 3, y0 + 3), (x0 + int(0.26 * w), y0 + int(0.32 * h)), colour, -1)
    cv2.rectangle(image, (x1 - int(0.26 * w), y1 - int(0.32 * h)), (x1 - 3, y1 - 3), colour, -1)
    assert _about(_in_motion(image, NO_BOUND), "6H", "6H") == []  # never decided in motion
    (asked,) = _about(_in_motion(image, CONFIG), "6H", "6H")
    assert isinstance(asked, ConfirmationRequested)  # asked, not committed: its corners unread
    assert asked.candidates[0].code == "6H"
    assert 30 <= asked.frame_index < MOVING
