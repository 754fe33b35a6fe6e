"""A card about to be committed by its face on a frame in motion is read by its two corners on
that frame (experiment 128): asked where they read no card; committed where they read its card,
or another card not surely or of the same rank; where they read a card of another rank at the
commit threshold it is left to a later frame (experiments 131 and 131b), or with
``corners_contest_in_motion`` (experiment 127c, an option) asked. A card that would be asked in
motion whose corners read no card is left to a later frame (experiment 129), and one whose
corners read another card offers it (experiment 130). Without a corner finder no reading at rest
stands for any frame, so every frame of a still is in motion."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from referee.cards import Deck
from tests.test_vision_detector import _face, _lay, _table
from tests.test_vision_tracker_index import recognizer as recognizer  # noqa: F401 - the fixture
from tests.test_vision_tracker_learned import _cards, _Says
from vision.events import ConfirmationRequested
from vision.index_reader import FACE_H, FACE_W
from vision.labels import labels_for_deck
from vision.recognizer import Recognizer
from vision.stills import frame_corners, track_still
from vision.tracker import TrackerConfig


class _Corners:
    """A corner-index reader that reads every face as ``label`` at ``confidence``, the rest of
    its probability spread over the other cards; it keeps the faces it was given."""

    def __init__(self, label: str, confidence: float) -> None:
        self.cards = tuple(labels_for_deck(Deck.FRENCH_52))
        self.label, self.confidence = label, confidence
        self.faces: list[np.ndarray] = []

    def read(self, faces: list[np.ndarray]) -> np.ndarray:
        self.faces += faces
        rest = (1.0 - self.confidence) / (len(self.cards) - 1)
        probs = np.full((len(faces), len(self.cards)), rest, np.float32)
        probs[:, self.cards.index(self.label)] = self.confidence
        return probs


def _second(label: str, confidence: float) -> _Says:
    """A second classifier that reads the seven of spades surely, its corners as given."""
    second = _Says("french:7S", 0.99)
    second.index = _Corners(label, confidence)  # type: ignore[assignment]
    return second


def test_a_card_decided_in_motion_is_checked_by_its_corners(recognizer: Recognizer) -> None:
    felt = _table(720, 1280)
    _lay(felt, _face("7S"), (640, 360), 20, 160)
    corners = frame_corners(felt)

    def events(second: _Says, config: TrackerConfig | None = None) -> list[tuple[str, str]]:
        return _cards(track_still(felt, recognizer, deck=Deck.FRENCH_52, corners=corners,
                                  config=config, second=second))  # fmt: skip

    agreeing = _second("french:7S", 0.3)
    assert events(agreeing) == [("seen", "7S")]
    (face,) = agreeing.index.faces  # type: ignore[union-attr]
    assert face.shape == (FACE_H, FACE_W, 3)  # read once, on the frame it was decided in
    assert events(_second("french:AS", 0.6)) == [("seen", "7S")]  # another card, not surely
    assert events(_second("french:AS", 0.9)) == []  # surely another: left (experiment 131)
    assert events(_second("french:7C", 0.9)) == [("seen", "7S")]  # the same rank (131b)
    by_suit = TrackerConfig(contest_by_rank=False)
    assert events(_second("french:7C", 0.9), by_suit) == []
    before = TrackerConfig(contested_undecided_in_motion=False)
    assert events(_second("french:AS", 0.9), before) == [("seen", "7S")]
    kept = TrackerConfig(unread_undecided_in_motion=False)  # asked, not left (experiment 129)
    assert events(_second("french:7S", 0.05), kept) == [("asked", "7S")]  # no card read
    assert events(_second("french:7C", 0.05), kept) == [("asked", "7S")]
    assert events(_second("french:7S", 0.05)) == []  # left to a later frame
    contest = replace(before, corners_contest_in_motion=True)
    (asked,) = track_still(felt, recognizer, deck=Deck.FRENCH_52, corners=corners,
                           config=contest, second=_second("french:AS", 0.9))  # fmt: skip
    assert isinstance(asked, ConfirmationRequested)
    assert [c.code for c in asked.candidates][:2] == ["7S", "AS"]  # both offered
    assert events(_second("french:AS", 0.6), contest) == [("seen", "7S")]  # not surely
    assert events(_second("french:7C", 0.9), contest) == [("seen", "7S")]  # the same rank
    off = TrackerConfig(corners_in_motion=False)
    assert events(_second("french:7C", 0.05), off) == [("seen", "7S")]


def test_a_card_asked_in_motion_whose_corners_read_no_card_is_left_undecided(
    recognizer: Recognizer,
) -> None:
    """The 7S read at about 0.99 under a commit threshold of 0.999 is asked; in motion, where
    its corners read no card, it is neither asked nor committed, and each later frame reads its
    corners again; where they read it, or with experiment 129 off, it is asked."""
    felt = _table(720, 1280)
    _lay(felt, _face("7S"), (640, 360), 20, 160)
    corners = frame_corners(felt)
    strict = TrackerConfig(min_confidence=0.999)

    def events(second: _Says, config: TrackerConfig = strict, moving: int = 0
               ) -> list[tuple[str, str]]:  # fmt: skip
        return _cards(track_still(felt, recognizer, deck=Deck.FRENCH_52, corners=corners,
                                  config=config, second=second, moving=moving))  # fmt: skip

    unread = _second("french:7S", 0.05)
    assert events(unread, moving=2) == []
    assert len(unread.index.faces) == 3  # type: ignore[union-attr]  # frames 3, 4 and 5
    assert events(_second("french:7S", 0.3)) == [("asked", "7S")]
    assert events(_second("french:7C", 0.6)) == [("asked", "7S")]
    kept = replace(strict, unread_undecided_in_motion=False)
    assert events(_second("french:7S", 0.05), kept) == [("asked", "7S")]


def test_a_card_asked_in_motion_offers_the_card_its_corners_read(recognizer: Recognizer) -> None:
    """Experiment 130: the 7S asked in motion (read at about 0.99 under a threshold of 0.999),
    its corners reading KH on that frame, offers KH after the face's card; not without it."""
    felt = _table(720, 1280)
    _lay(felt, _face("7S"), (640, 360), 20, 160)
    corners = frame_corners(felt)
    strict = TrackerConfig(min_confidence=0.999)

    def offered(config: TrackerConfig) -> list[str]:
        (asked,) = track_still(felt, recognizer, deck=Deck.FRENCH_52, corners=corners,
                               config=config, second=_second("french:KH", 0.6))  # fmt: skip
        assert isinstance(asked, ConfirmationRequested)
        return [c.code for c in asked.candidates]

    with_corners = offered(strict)
    assert with_corners[0] == "7S" and "KH" in with_corners
    assert "KH" not in offered(replace(strict, corners_offered_in_motion=False))
