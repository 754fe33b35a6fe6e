"""The tracker's learned detector at rest (``vision.tracker_learned``): the cards the classic
finder misses on a light table are found and committed, the detector's work is spread over frames
and gives what it gives at once, a card the classic finder found is not found twice, a learned
card with another card's index on it is left to the index, a weak reading is no card, a frame
of no colour commits nothing read by its face, and ``[camera] learned_cards`` chooses it; a
card read doubtfully is read again by a second classifier (``[camera] second_opinion``)."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import replace

import cv2
import numpy as np
import pytest

from kibic.camera import learned_cards_on, second_opinion
from kibic.config import ConfigError, parse_config
from referee.cards import Card, Deck
from tests.test_vision_detector import _face, _lay, _table
from tests.test_vision_detector import detector as detector  # noqa: F401 - the fixture
from tests.test_vision_tracker_index import recognizer as recognizer  # noqa: F401 - the fixture
from vision.detector import CardDetector, DetectedCard
from vision.events import CardSeen, ConfirmationRequested, VisionEvent
from vision.finder import find_cards
from vision.index_reader import FACE_H, FACE_W
from vision.recognizer import Prediction, Recognizer
from vision.rest_schedule import run_steps
from vision.stills import frame_corners, track_still
from vision.tracker import TrackerConfig
from vision.tracker_learned import colourless, not_committable, overlaps

LIGHT = (200, 205, 210)  # a pale grey table: the classic finder sees no card's outline on it


def _light_table() -> tuple[np.ndarray, list[np.ndarray]]:
    image = _table(720, 1280, LIGHT)
    quads = [_lay(image, _face("7S"), (640, 360), 20, 160),
             _lay(image, _face("KH"), (300, 300), -10, 150)]  # fmt: skip
    return image, quads


def _cards(events: list[VisionEvent]) -> list[tuple[str, str]]:
    out = []
    for e in events:
        if isinstance(e, CardSeen):
            out.append(("seen", e.card.code))
        elif isinstance(e, ConfirmationRequested):
            out.append(("asked", e.candidates[0].code))
    return sorted(out)


def test_cards_on_a_light_table_are_found_by_the_learned_detector(
    recognizer: Recognizer, detector: CardDetector
) -> None:
    image, _ = _light_table()
    assert find_cards(image, TrackerConfig().finder) == []  # the classic finder: nothing
    corners = frame_corners(image)
    plain = track_still(image, recognizer, deck=Deck.FRENCH_52, corners=corners)
    learned = track_still(image, recognizer, deck=Deck.FRENCH_52, corners=corners,
                          detector=detector)  # fmt: skip
    assert plain == []
    assert _cards(learned) == [("seen", "7S"), ("seen", "KH")]


def test_the_detector_in_steps_finds_what_it_finds_at_once(detector: CardDetector) -> None:
    image, _ = _light_table()
    at_once = detector.detect(image)
    in_steps, yields = run_steps(detector.detect_in_steps(image))
    # the fine input, the fine pass's net, its cards decoded with the coarse input, the coarse
    # pass (then the zoom-out pass)
    assert len(at_once) == 2 and yields == 4
    assert [(c.score, c.corners.tolist()) for c in in_steps] == [
        (c.score, c.corners.tolist()) for c in at_once
    ]


class _Given(CardDetector):
    """A detector that finds the quads it is given (a score of 0.9 each), in one step."""

    def __init__(self, quads: list[np.ndarray]) -> None:
        self.quads = quads

    def detect_in_steps(self, image: np.ndarray) -> Generator[None, None, list[DetectedCard]]:
        yield
        return [DetectedCard(np.asarray(q, np.float32), 0.9) for q in self.quads]


def test_a_card_found_by_the_classic_finder_is_not_found_twice(recognizer: Recognizer) -> None:
    felt = _table(720, 1280)  # green felt: the classic finder finds the card
    quad = _lay(felt, _face("7S"), (640, 360), 20, 160)
    nearly = quad + np.array(
        [12, -8], np.float32
    )  # the detector's outline of the same card, a little off
    events = track_still(felt, recognizer, deck=Deck.FRENCH_52, corners=frame_corners(felt),
                         detector=_Given([nearly]))  # fmt: skip
    assert _cards(events) == [("seen", "7S")]
    assert overlaps(quad, nearly) and not overlaps(quad, quad + np.array([400, 0], np.float32))


def test_a_detection_read_weakly_is_no_card(recognizer: Recognizer) -> None:
    """Two false finds: bare table (read as no card) and a card's outline slid half off it
    (read as a three of spades at 0.18, under the floor of 0.5): neither is a card, asked or
    committed; the 7S found by its own outline is."""
    image, quads = _light_table()
    blank = quads[0] + np.array([500, 200], np.float32)
    piece = quads[0] + (quads[0][2] - quads[0][0]) * 0.45
    for found, expected in (([blank, piece], []), ([quads[0]], [("seen", "7S")])):
        events = track_still(image, recognizer, deck=Deck.FRENCH_52,
                             corners=frame_corners(image), detector=_Given(found))  # fmt: skip
        assert _cards(events) == expected


class _Index:
    """A corner path that reads given indices, each at a given place as a given card with a
    given probability (the rest shared by the labels other than it and the 7S)."""

    labels = ("french:QD", "french:7S", "french:2C", "french:3C", "none")

    def __init__(self, *reads: tuple[tuple[float, float], str, float]) -> None:
        self.reads = reads

    def prepare(self, parts: int) -> None:
        pass

    def boxes_in_steps(self, image: np.ndarray, parts: int
                       ) -> Generator[None, None, list[tuple[tuple[float, float, float, float], float]]]:  # fmt: skip
        yield
        return [((*center, 20.0, 40.0), 0.9) for center, _, _ in self.reads]

    def read(self, image: np.ndarray, boxes: list[tuple[float, float, float, float]],
             grey_crowded: bool = True) -> np.ndarray:  # fmt: skip
        probs = np.zeros((len(boxes), len(self.labels)), np.float32)
        for k, (_, label, p) in enumerate(self.reads):
            others = [j for j, name in enumerate(self.labels) if name not in (label, "french:7S")]
            probs[k, others] = (1.0 - p) / len(others)
            probs[k, self.labels.index(label)] = p
        return probs


def test_a_learned_card_with_another_cards_index_on_it_is_left_to_the_index(
    recognizer: Recognizer,
) -> None:
    """The detector outlines a card under another whole, over the other's index: the index
    read at the index floor (0.5) or above wins, and the learned card's reading is dropped.
    Read below the floor, it leaves the learned card asked (experiment 65), unless an index on
    the card reads the card itself at the floor or above."""
    image, quads = _light_table()
    on_it = tuple(float(v) for v in quads[0].mean(axis=0))
    corner = tuple(float(v) for v in quads[0][0] * 0.8 + quads[0].mean(axis=0) * 0.2)
    cases = (
        ([(on_it, "french:QD", 0.95)], [("seen", "QD")]),
        ([(on_it, "none", 0.95)], [("seen", "7S")]),
        ([(on_it, "french:QD", 0.3)], [("asked", "7S")]),
        ([(on_it, "french:QD", 0.3), (corner, "french:7S", 0.9)], [("seen", "7S")]),
    )
    for reads, expected in cases:
        events = track_still(image, recognizer, deck=Deck.FRENCH_53,
                             corners=frame_corners(image), detector=_Given([quads[0]]),
                             index=_Index(*reads))  # type: ignore[arg-type]  # fmt: skip
        assert _cards(events) == expected, reads


class _Weakly:
    """The recognizer, each of its readings made as weak as ``confidence``."""

    def __init__(self, recognizer: Recognizer, confidence: float) -> None:
        self.recognizer, self.confidence = recognizer, confidence

    def __getattr__(self, name: str) -> object:
        return getattr(self.recognizer, name)

    def predict(self, *args: object, **kwargs: object) -> list[Prediction]:
        found = self.recognizer.predict(*args, **kwargs)  # type: ignore[arg-type]
        return [replace(p, confidence=self.confidence) for p in found]


def test_a_learned_card_read_weakly_is_a_card_where_its_index_agrees(
    recognizer: Recognizer,
) -> None:
    """A learned card read below the index floor (0.5) is no card, unless an index on it reads
    the same card at the read floor (0.2) or above (experiment 112): then it is asked, and where
    that index is at the index floor or above, as sure as the index (experiment 112b)."""
    image, quads = _light_table()
    corner = tuple(float(v) for v in quads[0][0] * 0.8 + quads[0].mean(axis=0) * 0.2)
    weak = _Weakly(recognizer, 0.3)
    cases: tuple[tuple[list[tuple[tuple[float, ...], str, float]], list[tuple[str, str]]], ...] = (
        ([], []),
        ([(corner, "french:7S", 0.1)], []),
        ([(corner, "french:QD", 0.3)], []),
        ([(corner, "french:7S", 0.3)], [("asked", "7S")]),
        ([(corner, "french:7S", 0.9)], [("seen", "7S")]),
    )
    for reads, expected in cases:
        events = track_still(image, weak, deck=Deck.FRENCH_53,  # type: ignore[arg-type]
                             corners=frame_corners(image), detector=_Given([quads[0]]),
                             index=_Index(*reads))  # type: ignore[arg-type]  # fmt: skip
        assert _cards(events) == expected, reads
    # the card committed on its index's word is drawn where the detector found it
    sure = _Index((corner, "french:7S", 0.9))
    events = track_still(image, weak, deck=Deck.FRENCH_53,  # type: ignore[arg-type]
                         corners=frame_corners(image), detector=_Given([quads[0]]),
                         index=sure)  # type: ignore[arg-type]  # fmt: skip
    assert np.allclose(np.array(events[0].corners), quads[0], atol=1.0)


def test_a_frame_of_no_colour_commits_nothing_read_by_its_face(recognizer: Recognizer) -> None:
    """In grey the table classifier reads a king of diamonds as the king of clubs at 0.99: asked,
    never committed (in colour the KD is committed)."""
    felt = _table(720, 1280)
    _lay(felt, _face("KD"), (640, 360), 20, 160)
    grey = cv2.cvtColor(cv2.cvtColor(felt, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    assert not colourless(felt) and colourless(grey)
    corners = frame_corners(felt)
    assert _cards(track_still(felt, recognizer, deck=Deck.FRENCH_52, corners=corners)) == [
        ("seen", "KD")
    ]
    asked = track_still(grey, recognizer, deck=Deck.FRENCH_52, corners=corners)
    assert [type(e) for e in asked] == [ConfirmationRequested]
    sure = Prediction("french:KD", 0.99, ())
    assert not_committable([sure], felt) == [sure]
    assert not_committable([sure], grey)[0].committable is False


def test_camera_learned_cards_and_second_opinion_choose_them() -> None:
    base = {"table": {"game": "ruzicka", "names": ["A", "B", "C", "D"]}}
    default = parse_config({**base, "camera": {"deck": "german-32"}})
    assert default.camera.learned_cards is None and learned_cards_on(default.camera)
    off = parse_config({**base, "camera": {"learned_cards": False}})
    assert off.camera.learned_cards is False and not learned_cards_on(off.camera)
    with pytest.raises(ConfigError, match=r"camera.learned_cards: expected bool, got 'no'"):
        parse_config({**base, "camera": {"learned_cards": "no"}})
    assert second_opinion(default.camera) is not None  # the still-photo classifier is shipped
    no_second = parse_config({**base, "camera": {"second_opinion": False}})
    assert second_opinion(no_second.camera) is None
    with pytest.raises(ConfigError, match=r"camera.second_opinion: expected bool, got 1"):
        parse_config({**base, "camera": {"second_opinion": 1}})


class _Says(Recognizer):
    """A second classifier that reads every crop as one card (``label``, ``confidence``)."""

    def __init__(self, label: str, confidence: float) -> None:
        self.label, self.confidence, self.calls = label, confidence, 0
        self.faces: list[list[np.ndarray] | None] = []  # the faces given with each call
        self.index = None  # no corner-index reader: no card read by its corners (117, 118)

    def predict(self, crops: list[np.ndarray], deck: Deck | None = None,  # type: ignore[override]
                *, faces: list[np.ndarray] | None = None, **_: object) -> list[Prediction]:  # fmt: skip
        self.calls += len(crops)
        self.faces.append(faces)
        return [Prediction(self.label, self.confidence, ()) for _ in crops]


def test_a_doubtful_card_is_read_again_by_the_second_classifier(recognizer: Recognizer) -> None:
    """The 7S read at about 0.99, under a commit threshold of 0.999: a second reading of the same
    card at 0.9995 commits it; one of another card asks, offering both; none asks. A card read
    surely is never read again."""
    felt = _table(720, 1280)
    _lay(felt, _face("7S"), (640, 360), 20, 160)
    corners = frame_corners(felt)
    strict = TrackerConfig(min_confidence=0.999)

    def events(second: Recognizer, config: TrackerConfig = strict) -> list[VisionEvent]:
        return track_still(felt, recognizer, deck=Deck.FRENCH_52, corners=corners,
                           config=config, second=second)  # fmt: skip

    same = events(_Says("french:7S", 0.9995))
    assert [(type(e), getattr(e, "card", None)) for e in same] == [(CardSeen, Card.parse("7S"))]
    assert same[0].confidence == 0.9995  # type: ignore[union-attr]
    doubt = _Says("french:7C", 0.9)
    other = events(doubt)
    assert doubt.faces == [None]  # the crop alone (experiment 38)
    assert [type(e) for e in other] == [ConfirmationRequested]
    offered = [c.code for c in other[0].candidates]  # type: ignore[union-attr]
    assert offered[0] == "7S" and "7C" in offered
    assert [type(e) for e in events(_Says("none", 0.99))] == [ConfirmationRequested]
    sure = _Says("french:7C", 0.99)
    assert _cards(events(sure, TrackerConfig())) == [("seen", "7S")] and sure.calls == 0


def test_the_second_check_asks_about_a_sure_card_the_second_classifier_reads_otherwise(
    recognizer: Recognizer,
) -> None:
    """With ``second_check`` (experiments 51 and 52), a card about to be committed surely is
    read by the second classifier too, with the card warped at face size from the frame (for
    its corner-index reader): another card read asks, both offered; the same card, or no card
    read, commits as before. Off (the default) it is never read again."""
    felt = _table(720, 1280)
    _lay(felt, _face("7S"), (640, 360), 20, 160)
    corners = frame_corners(felt)
    check = TrackerConfig(second_check=True)

    def events(second: Recognizer, config: TrackerConfig = check) -> list[VisionEvent]:
        return track_still(felt, recognizer, deck=Deck.FRENCH_52, corners=corners,
                           config=config, second=second)  # fmt: skip

    other = _Says("french:7C", 0.6)
    asked = events(other)
    assert [type(e) for e in asked] == [ConfirmationRequested] and other.calls == 1
    (faces,) = other.faces
    assert faces is not None and [f.shape for f in faces] == [(FACE_H, FACE_W, 3)]
    offered = [c.code for c in asked[0].candidates]  # type: ignore[union-attr]
    assert offered[0] == "7S" and "7C" in offered
    same = _Says("french:7S", 0.5)
    assert _cards(events(same)) == [("seen", "7S")] and same.calls == 1
    assert _cards(events(_Says("none", 0.99))) == [("seen", "7S")]
    unchecked = _Says("french:7C", 0.99)
    assert _cards(events(unchecked, TrackerConfig())) == [("seen", "7S")]
    assert unchecked.calls == 0


def test_camera_second_check_is_off_unless_asked_for() -> None:
    from kibic.camera import table_tracker_config

    base = {"table": {"game": "ruzicka", "names": ["A", "B", "C", "D"]}}
    assert table_tracker_config(parse_config(base)).second_check is False
    on = parse_config({**base, "camera": {"second_check": True}})
    assert on.camera.second_check is True and table_tracker_config(on).second_check is True
    with pytest.raises(ConfigError, match=r"camera.second_check: expected bool, got 'yes'"):
        parse_config({**base, "camera": {"second_check": "yes"}})


def test_the_learned_cards_are_read_by_each_gate_in_a_step_of_its_own() -> None:
    """Experiment 115d: ``learned_in_steps`` reads the learned cards with the table classifier,
    then with each gate of ``table_recognizer`` a step: three steps more than without gates, the
    same readings as ``predict`` with its gates; no gate is read where no crop is a card."""
    from vision.recognizer import table_recognizer
    from vision.tracker_learned import learned_in_steps

    image, quads = _light_table()
    plain, gated = Recognizer(), table_recognizer()
    assert len(gated.gates) == 3
    read = {}
    for name, rec in (("plain", plain), ("gated", gated)):
        read[name] = run_steps(learned_in_steps(image, [], _Given(quads), rec, Deck.FRENCH_53,
                                                profile=None, keep_features=False,
                                                per_step=2))  # fmt: skip
    (cards, yields), (gated_cards, gated_yields) = read["plain"], read["gated"]
    assert len(cards) == len(quads) == 2 and all(c.prediction.is_card for c in cards)
    assert gated_yields == yields + 3
    crops = [c.crop for c in gated_cards]
    assert [c.prediction for c in gated_cards] == gated.predict(crops, Deck.FRENCH_53)
    assert [c.prediction for c in cards] == plain.predict(crops, Deck.FRENCH_53)
    # a crop read as no card by the classifier: no gate is read
    blank = np.full_like(image, 128)
    _, blank_yields = run_steps(learned_in_steps(blank, [], _Given(quads), gated, Deck.FRENCH_53,
                                                 profile=None, keep_features=False,
                                                 per_step=2))  # fmt: skip
    none, _ = run_steps(learned_in_steps(blank, [], _Given(quads), plain, Deck.FRENCH_53,
                                         profile=None, keep_features=False, per_step=2))  # fmt: skip
    assert not any(c.prediction.is_card for c in none) and blank_yields == yields
