"""The table tracker with the corner-index path (``vision.tracker_index``): a card that shows only
a strip is found and read by its index, an index reading below the commit threshold is asked and
never committed, an index on a card found whole confirms or contests its reading, the corner
path runs only while the table is at rest, and ``[camera] index_cards`` chooses it."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from kibic.camera import index_cards_on
from kibic.config import ConfigError, parse_config
from referee.cards import Card, Deck
from vision.card_faces import design_for_seed, render_face
from vision.corner_finder import CornerFinder
from vision.events import CardSeen, ConfirmationRequested, VisionEvent
from vision.recognizer import Prediction, Recognizer
from vision.stills import frame_corners, track_still
from vision.synthetic import SyntheticTable, random_plays
from vision.tracker import CardTracker, TrackerConfig
from vision.tracker_index import (
    IndexPrediction,
    IndexSighting,
    confirm_or_contest,
    loose_cards,
    weighed,
)


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer()


@pytest.fixture(scope="module")
def corners() -> CornerFinder:
    return CornerFinder()


def _fan(under: str, over: str, shift: int = 0) -> np.ndarray:
    """Two cards of the demo's design fanned on green felt, 640 x 480: ``over`` lies on
    ``under`` and leaves a strip of 31 px of it showing, its top-left index with it; a shadow
    6 px wide along ``over``'s left edge; the two ``shift`` px to the right."""
    canvas = np.full((480, 640, 3), (50, 100, 40), np.uint8)
    design = design_for_seed("french", 0)
    faces = [cv2.resize(render_face(f"french:{code}", design), None, fx=0.7, fy=0.7,
                        interpolation=cv2.INTER_AREA) for code in (under, over)]  # fmt: skip
    h, w = faces[0].shape[:2]
    y, x, dx = 240 - h // 2, 240 + shift, 31
    canvas[y : y + h, x : x + w] = faces[0]
    canvas[y : y + h + 6, x + dx - 6 : x + dx] = (30, 60, 25)
    canvas[y + 6 : y + h + 6, x + dx : x + dx + w] = faces[1]
    return canvas


def _seen(events: list[VisionEvent]) -> list[tuple[str, str]]:
    return sorted(
        ("seen", e.card.code) if isinstance(e, CardSeen) else ("asked", e.candidates[0].code)
        for e in events
        if isinstance(e, CardSeen | ConfirmationRequested)
    )


def test_the_card_under_a_fan_is_found_by_its_index(recognizer: Recognizer,
                                                    corners: CornerFinder) -> None:  # fmt: skip
    image = _fan("4D", "QD")
    plain = track_still(image, recognizer, deck=Deck.FRENCH_53, corners=frame_corners(image))
    assert _seen(plain) == [("seen", "QD")]  # the classic finder cuts out the top card alone
    both = track_still(image, recognizer, deck=Deck.FRENCH_53, corners=frame_corners(image),
                       index=corners)  # fmt: skip
    assert _seen(both) == [("seen", "4D"), ("seen", "QD")]
    (by_index,) = [e for e in both if isinstance(e, CardSeen) and e.card.code == "4D"]
    x0, y0 = min(x for x, _ in by_index.corners), min(y for _, y in by_index.corners)
    x1, y1 = max(x for x, _ in by_index.corners), max(y for _, y in by_index.corners)
    # the index's box: small, its centre on the top half of the strip that shows
    assert 240 < (x0 + x1) / 2 < 271 and 167 < (y0 + y1) / 2 < 240 and x1 - x0 < 40
    assert by_index.crop[:2] == b"\xff\xd8"  # a picture of the index, kept with the sighting


def test_an_index_reading_below_the_threshold_is_asked_never_committed(
    recognizer: Recognizer, corners: CornerFinder
) -> None:
    image = _fan("4D", "QD")
    strict = TrackerConfig(min_confidence=0.95)  # the 4D's index reads it at about 0.92
    events = track_still(image, recognizer, deck=Deck.FRENCH_53, corners=frame_corners(image),
                         index=corners, config=strict)  # fmt: skip
    (asked,) = [e for e in events if isinstance(e, ConfirmationRequested)]
    assert asked.candidates[0] == Card.parse("4D") and asked.confidences[0] < 0.95
    assert [e.card.code for e in events if isinstance(e, CardSeen)] == ["QD"]


def test_the_corner_path_runs_only_on_frames_at_rest(recognizer: Recognizer,
                                                     corners: CornerFinder) -> None:  # fmt: skip
    image = _fan("4D", "QD")
    calls: list[int] = []

    class Counting(CornerFinder):
        def boxes_in_steps(self, frame: np.ndarray, parts: int):  # type: ignore[no-untyped-def]
            calls.append(1)
            return (yield from super().boxes_in_steps(frame, parts))

    finder = Counting()
    tracker = CardTracker(recognizer, _calibration(image), deck=Deck.FRENCH_53, corners=finder)
    schedule = tracker.schedule
    assert schedule is not None
    stood: list[object] = []
    reading_for = schedule.reading_for
    schedule.reading_for = lambda frame, found: stood.append(reading_for(frame, found)) or stood[-1]  # type: ignore[method-assign]
    moved = np.roll(image, 60, axis=1)  # the cards slid: not at rest
    frames = [image, image, moved, moved, moved, moved, moved, moved]
    for frame in frames:
        tracker.process(frame)
    tracker.finish()
    # the first frame has none before it; after a change, the first three frames at rest; one
    # reading of each picture at rest (``vision.rest_schedule``)
    assert [r is not None for r in stood] == [False, True, False, True, True, True, False, False]
    assert stood[3] is stood[4] is stood[5] and stood[1] is not stood[3]
    assert len(calls) == 2
    assert tracker.frames_to_settle == 4


def _calibration(image: np.ndarray):  # type: ignore[no-untyped-def]
    from vision.calibration import TableCalibration
    from vision.synthetic import MAT_SIZE

    return TableCalibration.from_corners(frame_corners(image), mat_size=MAT_SIZE, n_seats=4)


def test_an_index_confirms_or_contests_the_card_it_lies_on() -> None:
    whole = Prediction("french:QD", 0.8, (("french:QD", 0.8), ("french:QH", 0.1)))

    def at(label: str, confidence: float) -> IndexSighting:
        return IndexSighting((10.0, 10.0, 8.0, 16.0),
                             IndexPrediction(label, confidence, ()))  # fmt: skip

    assert confirm_or_contest(whole, [at("french:QD", 0.93)], 0.85).confidence == 0.93
    assert confirm_or_contest(whole, [at("french:QD", 0.5)], 0.85).confidence == 0.8
    weak = confirm_or_contest(whole, [at("french:9D", 0.6)], 0.85)  # under the threshold
    assert weak == whole
    contested = confirm_or_contest(whole, [at("none", 0.99), at("french:9D", 0.9)], 0.85)
    assert contested.label == "french:QD" and contested.confidence == pytest.approx(0.1)
    assert dict(contested.alternatives)["french:9D"] == 0.9


def test_an_index_reading_another_card_below_the_threshold_weighs_against_the_face() -> None:
    """A face read at 0.852 by the table classifier, an index on it read as another card at
    0.486 (flat composites, experiment 62): together they leave the face's card 0.78, asked."""
    face = Prediction("french:AH", 0.852, (("french:AD", 0.074), ("french:AS", 0.024)))
    index = IndexPrediction("french:2H", 0.486, (("french:2D", 0.139), ("french:TH", 0.134)))
    # each card's probability by each reading (one it does not name: the least it names)
    joint = {"AH": 0.852 * 0.134, "AD": 0.074 * 0.134, "AS": 0.024 * 0.134,
             "2H": 0.024 * 0.486, "2D": 0.024 * 0.139, "TH": 0.024 * 0.134}  # fmt: skip
    weighed_down = confirm_or_contest(face, [IndexSighting((10.0, 10.0, 8.0, 16.0), index)], 0.85)
    assert weighed_down.label == "french:AH"
    assert weighed_down.confidence == pytest.approx(joint["AH"] / sum(joint.values()))
    assert weighed_down.confidence < 0.85 and dict(weighed_down.alternatives)["french:2H"] == 0.486
    # an index that reads the face's card among its next readings leaves a sure face as it is
    backing = IndexPrediction("french:2H", 0.486, (("french:AH", 0.4), ("french:TH", 0.05)))
    assert weighed(face, [backing]) == face
    # readings that leave every card no probability at all (underflow) change nothing
    sure = Prediction("french:AH", 1.0, (("french:AD", 0.0),))
    assert weighed(sure, [IndexPrediction("french:2H", 1.0, (("none", 0.0),))]) == sure
    nothing = Prediction("none", 0.9, (("french:AH", 0.1),))  # no card: nothing to weigh
    assert weighed(nothing, [index]) == nothing


def test_loose_indices_are_one_card_each_over_the_floor() -> None:
    def at(label: str, confidence: float, x: float) -> IndexSighting:
        return IndexSighting((x, 10.0, 8.0, 16.0),
                             IndexPrediction(label, confidence, ()))  # fmt: skip

    free = [at("french:4D", 0.7, 10), at("french:4D", 0.9, 200), at("french:7C", 0.4, 50),
            at("none", 0.95, 80), at("french:QD", 0.99, 120)]  # fmt: skip
    cards = loose_cards(free, taken={"french:QD"}, floor=0.5)
    assert [(c.prediction.label, c.center[0]) for c in cards] == [("french:4D", 200)]


def test_a_contested_reading_is_asked_with_both_cards(recognizer: Recognizer) -> None:
    """A fake index reader that reads every index as 9D: the QD found whole is asked."""
    image = _fan("4D", "QD")

    class NineOfDiamonds(CornerFinder):
        def read(self, frame: np.ndarray, boxes: list,  # type: ignore[type-arg]
                 grey_crowded: bool = True) -> np.ndarray:  # fmt: skip
            probs = np.zeros((len(boxes), len(self.labels)), np.float32)
            probs[:, self.labels.index("french:9D")] = 0.97
            probs[:, -1] = 0.03
            return probs

    events = track_still(image, recognizer, deck=Deck.FRENCH_53, corners=frame_corners(image),
                         index=NineOfDiamonds())  # fmt: skip
    assert not [e for e in events if isinstance(e, CardSeen) and e.card.code == "QD"]
    asked = [e for e in events if isinstance(e, ConfirmationRequested)]
    assert any({"QD", "9D"} <= {c.code for c in e.candidates} for e in asked)


def test_the_demo_game_is_seen_the_same_with_the_corner_path(recognizer: Recognizer,
                                                             corners: CornerFinder) -> None:  # fmt: skip
    plays = random_plays(Deck.PIQUET_32, 4, seed=4, count=8)
    table = SyntheticTable(plays, n_seats=4, deck=Deck.PIQUET_32, seed=4, fast=True)
    tracker = CardTracker(recognizer, table.calibration, deck=Deck.PIQUET_32, corners=corners)
    events = [e for frame in table for e in tracker.process(frame)]
    events += tracker.finish()  # the end of the frames: those held for a reading under way
    assert [(e.seat, e.card) for e in events if isinstance(e, CardSeen)] == plays
    assert not [e for e in events if isinstance(e, ConfirmationRequested)]


def test_a_deck_the_index_reader_cannot_tell_is_refused(recognizer: Recognizer,
                                                        corners: CornerFinder) -> None:  # fmt: skip
    image = _fan("4D", "QD")
    for deck in (Deck.GERMAN_32, Deck.DOPPELKOPF_48):
        with pytest.raises(ValueError, match=f"not {deck.value}"):
            CardTracker(recognizer, _calibration(image), deck=deck, corners=corners)


def test_the_tables_configuration_chooses_the_corner_path() -> None:
    base = {"table": {"game": "ruzicka"}}
    on = parse_config({**base, "camera": {"deck": "french-52", "index_cards": True}})
    assert on.camera.index_cards is True and index_cards_on(on.camera)
    off = parse_config({**base, "camera": {"deck": "french-52", "index_cards": False}})
    assert off.camera.index_cards is False and not index_cards_on(off.camera)
    default = parse_config(base)
    assert default.camera.index_cards is None
    german = replace(default.camera, deck="german-32")
    assert not index_cards_on(german)  # the reader reads French-suited cards only
    with pytest.raises(ConfigError, match=r"camera.index_cards: expected bool, got 'yes'"):
        parse_config({**base, "camera": {"index_cards": "yes"}})
    with pytest.raises(ConfigError, match=r"camera.index_cards: .* not german-32"):
        parse_config({**base, "camera": {"deck": "german-32", "index_cards": True}})


def test_a_card_read_by_more_indices_than_it_has_corners_is_print() -> None:
    def at(label: str, x: float) -> IndexSighting:
        return IndexSighting((x, 10.0, 8.0, 16.0), IndexPrediction(label, 0.9, ()))

    free = [at("french:7C", 10.0 * k) for k in range(5)] + [at("french:4D", 300.0)]
    assert [c.prediction.label for c in loose_cards(free, set(), 0.5)] == ["french:4D"]
    assert [c.prediction.label for c in loose_cards(free[1:], set(), 0.5)] == [
        "french:7C", "french:4D",
    ]  # fmt: skip


def test_a_joker_read_by_its_index_alone_is_no_card() -> None:
    """Experiment 64: the Joker's index is a word or a picture, what print is made of."""
    joker = IndexSighting((10.0, 10.0, 8.0, 16.0), IndexPrediction("french:JK", 0.99, ()))
    four = IndexSighting((300.0, 10.0, 8.0, 16.0), IndexPrediction("french:4D", 0.9, ()))
    assert [c.prediction.label for c in loose_cards([joker, four], set(), 0.5)] == ["french:4D"]


def test_a_joker_read_by_an_index_on_a_card_is_asked(recognizer: Recognizer) -> None:
    """A fake index reader that reads every index as the Joker, at 0.99: the QD found whole,
    contested by the Joker read on it, is asked with both offered; the Joker read on the strip
    of the fan alone is no card (experiment 64)."""
    image = _fan("4D", "QD")

    class Joker(CornerFinder):
        def read(self, frame: np.ndarray, boxes: list,  # type: ignore[type-arg]
                 grey_crowded: bool = True) -> np.ndarray:  # fmt: skip
            probs = np.zeros((len(boxes), len(self.labels)), np.float32)
            probs[:, self.labels.index("french:JK")] = 0.99
            return probs

    events = track_still(image, recognizer, deck=Deck.FRENCH_53, corners=frame_corners(image),
                         index=Joker())  # fmt: skip
    assert not [e for e in events if isinstance(e, CardSeen)]
    asked = [[c.code for c in e.candidates] for e in events
             if isinstance(e, ConfirmationRequested)]  # fmt: skip
    assert len(asked) == 1 and asked[0][0] == "JK"
    assert "QD" in asked[0]  # the QD, contested: both offered
