"""The table reads every card at rest by its two index corners too (experiment 118), on real
photos.

The still-photo classifier's corner-index reader (``vision.index_reader``) reads the corners of
each card found at rest, warped at face size from its outline; where it names the card read,
that is one more index of the card's own: it confirms the reading (the surer confidence stays)
and backs it against an index on it that reads another card less surely (experiment 65), and it
never counts against it. Photos of edje-cards' training part (SETS.md lets rules be chosen on
it), read as a table of a French deck reads them by default (``kibic.camera.reading_paths``).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from kibic.camera import reading_paths
from kibic.config import CameraConfig
from referee.cards import Deck
from vision.events import CardSeen, ConfirmationRequested, VisionEvent
from vision.hands import HandCheck, HandConfig
from vision.recognizer import table_recognizer
from vision.stills import frame_corners, track_still
from vision.tracker import TrackerConfig

TRAIN = Path(__file__).resolve().parents[2] / "shared/data/real-photos/edje-cards/images/train"

pytestmark = pytest.mark.skipif(not TRAIN.exists(), reason="real photos not available")


def _track(name: str, at_rest: bool) -> list[VisionEvent]:
    image = cv2.imread(str(TRAIN / name))
    index, detector, second = reading_paths(CameraConfig(deck=Deck.FRENCH_53.value))
    config = TrackerConfig(min_confidence=0.85, hands=HandConfig(check=HandCheck("table")),
                           corners_at_rest=at_rest)  # fmt: skip
    return track_still(image, table_recognizer(), deck=Deck.FRENCH_53,
                       corners=frame_corners(image), config=config, index=index,
                       detector=detector, second=second)  # fmt: skip


@pytest.mark.parametrize(("name", "code", "least"), [("cam_image23.jpg", "QD", 0.85),
                                                     ("IMG_2612.JPG", "AC", 0.7)])  # fmt: skip
def test_a_card_whose_corners_agree_is_committed(name: str, code: str, least: float) -> None:
    """A queen of diamonds read 0.98 by her face, asked because an index on her reads another
    card and none reads her own; an ace of clubs read 0.71: each is committed once its corners
    read it too."""
    (asked,) = [e for e in _track(name, at_rest=False) if isinstance(e, ConfirmationRequested)]
    assert asked.candidates[0].code == code and asked.confidences[0] >= least
    events = _track(name, at_rest=True)
    (seen,) = [e for e in events if isinstance(e, CardSeen) and e.card.code == code]
    assert seen.corners == asked.corners  # the same card, at the same place
    assert not any(isinstance(e, ConfirmationRequested) and e.corners == asked.corners
                   for e in events)  # fmt: skip


def test_the_corners_card_is_offered_and_nothing_else_changes() -> None:
    """Experiment 121: corners that name another card put it among the reading's alternatives,
    at their confidence; the card read, its confidence and whether it may be committed stay."""
    from vision.recognizer import Prediction
    from vision.tracker_corners import corners_offered
    from vision.tracker_index import IndexPrediction, IndexSighting

    face = Prediction("french:QD", 0.6, (("french:KD", 0.2),), committable=False)

    def corners(label: str, confidence: float) -> IndexSighting:
        return IndexSighting((10.0, 10.0, 1.0, 1.0), IndexPrediction(label, confidence, ()))

    offered = corners_offered(face, corners("french:4D", 0.9))
    assert (offered.label, offered.confidence, offered.committable) == ("french:QD", 0.6, False)
    assert dict(offered.alternatives) == {"french:KD": 0.2, "french:4D": 0.9}
    assert corners_offered(face, corners("french:QD", 0.9)) is face  # the same card
    assert corners_offered(face, corners("none", 0.9)) is face
    assert corners_offered(face, None) is face
