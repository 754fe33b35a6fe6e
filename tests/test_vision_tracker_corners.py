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


def test_an_ace_its_face_reads_weakly_is_committed_by_its_corners() -> None:
    """Experiment 122: IMG_2569's ace of spades, a Bicycle ace whose ornate face the classifier
    reads weakly, is dropped unless its corners, which read it surely, are its reading; the
    three jacks beside it are committed either way."""
    image = cv2.imread(str(TRAIN / "IMG_2569.JPG"))
    index, detector, second = reading_paths(CameraConfig(deck=Deck.FRENCH_53.value))

    def committed(by_corners: bool) -> dict[str, float]:
        config = TrackerConfig(min_confidence=0.85, hands=HandConfig(check=HandCheck("table")),
                               weak_face_by_corners=by_corners)  # fmt: skip
        events = track_still(image, table_recognizer(), deck=Deck.FRENCH_53,
                             corners=frame_corners(image), config=config, index=index,
                             detector=detector, second=second)  # fmt: skip
        assert not any(isinstance(e, ConfirmationRequested) for e in events)
        return {e.card.code: e.confidence for e in events if isinstance(e, CardSeen)}

    assert set(committed(False)) == {"JC", "JH", "JD"}
    cards = committed(True)
    assert set(cards) == {"JC", "JH", "JD", "AS"} and cards["AS"] >= 0.85


def test_a_weak_face_gives_way_to_corners_read_surely() -> None:
    """``surely_by_corners``: corners at or above ``sure`` that name another card than a face
    read below ``weak`` are the card's reading, the face's card offered; a face at ``weak``,
    corners below ``sure``, corners naming the face's card, or a card read elsewhere leave the
    face's reading as it was."""
    from vision.recognizer import Prediction
    from vision.tracker_corners import surely_by_corners
    from vision.tracker_index import IndexPrediction

    face = Prediction("french:3C", 0.2, (("french:8C", 0.1),))
    corners = IndexPrediction("french:AC", 0.9, (("french:4C", 0.05),), committable=False)
    read = surely_by_corners(face, corners, 0.5, 0.85, {"french:KD"})
    assert isinstance(read, IndexPrediction)
    assert (read.label, read.confidence, read.committable) == ("french:AC", 0.9, True)
    assert dict(read.alternatives) == {"french:4C": 0.05, "french:3C": 0.2}
    assert surely_by_corners(face, corners, 0.5, 0.85, {"french:AC"}) is face
    assert surely_by_corners(face, corners, 0.2, 0.85, set()) is face
    assert surely_by_corners(face, corners, 0.5, 0.95, set()) is face
    same = IndexPrediction("french:3C", 0.9, ())
    assert surely_by_corners(face, same, 0.5, 0.85, set()) is face
    assert surely_by_corners(face, None, 0.5, 0.85, set()) is face
    joker = surely_by_corners(face, IndexPrediction("french:JK", 0.9, ()), 0.5, 0.85, set())
    assert joker.label == "french:JK" and not joker.committable  # the Joker always asked
