"""The table reads the learned detector's cards with the still-photo gates (experiment 115d), on
real photos.

Two photos of edje-cards' training part (SETS.md lets rules be chosen on it), read as a table
of a French deck reads them by default (``kibic.camera.reading_paths``): a queen among print
(a cloth printed with bones and paws, a tray painted with birds). Without the gates, the table
classifier (rendered cards only) reads quads the learned detector finds on the print as cards,
and the table asks about them; with them, those are no card, and the queen is committed as
before.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from kibic.camera import reading_paths
from kibic.config import CameraConfig
from referee.cards import Deck
from vision.evaluate import iou, read_voc
from vision.events import CardSeen, ConfirmationRequested
from vision.hands import HandCheck, HandConfig
from vision.recognizer import Recognizer, table_recognizer
from vision.stills import frame_corners, track_still
from vision.tracker import TrackerConfig

TRAIN = Path(__file__).resolve().parents[2] / "shared/data/real-photos/edje-cards/images/train"

pytestmark = pytest.mark.skipif(not TRAIN.exists(), reason="real photos not available")


@pytest.mark.parametrize(("name", "code", "asks"), [("IMG_2460.JPG", "QD", 2),
                                                    ("IMG_2484.JPG", "QH", 1)])  # fmt: skip
def test_the_gates_drop_the_asks_over_print_and_keep_the_card(name: str, code: str, asks: int
                                                              ) -> None:  # fmt: skip
    image = cv2.imread(str(TRAIN / name))
    ((_, box),) = read_voc(TRAIN / name.replace(".JPG", ".xml"))
    index, detector, second = reading_paths(CameraConfig(deck=Deck.FRENCH_53.value))
    config = TrackerConfig(min_confidence=0.85, hands=HandConfig(check=HandCheck("table")))
    events = {
        reader: track_still(image, rec, deck=Deck.FRENCH_53, corners=frame_corners(image),
                            config=config, index=index, detector=detector, second=second)
        for reader, rec in (("plain", Recognizer()), ("gated", table_recognizer()))
    }  # fmt: skip
    plain_asked = [e for e in events["plain"] if isinstance(e, ConfirmationRequested)]
    assert len(plain_asked) == asks
    for e in plain_asked:  # each ask lies on no labelled card
        xs, ys = [x for x, _ in e.corners], [y for _, y in e.corners]
        assert iou((min(xs), min(ys), max(xs), max(ys)), box) < 0.1
    for reader in ("plain", "gated"):
        (seen,) = [e for e in events[reader] if isinstance(e, CardSeen)]
        assert seen.card.code == code and seen.confidence >= 0.85
    assert len(events["gated"]) == 1
