"""The readings at rest spread over frames (``vision.rest_schedule``, ``vision.onnx_split``):
the finder's net cut into parts gives the whole net's output bit for bit, a reading made in steps
gives the readings made at once, one reading stands for the first frames at rest of its picture,
a changed picture starts a new reading and a reading is never applied to another picture, and
the tracker commits the same cards with the reading in steps as with it on one frame."""

from __future__ import annotations

from collections.abc import Generator

import numpy as np
import pytest

from referee.cards import Deck
from tests.test_vision_tracker_index import _fan
from tests.test_vision_tracker_index import corners as corners  # noqa: F401 - the fixture
from tests.test_vision_tracker_index import recognizer as recognizer  # noqa: F401 - the fixture
from vision.calibration import TableCalibration
from vision.corner_finder import DEFAULT_FINDER, CornerFinder
from vision.events import CardSeen, ConfirmationRequested, VisionEvent
from vision.finder import FoundCard
from vision.onnx_session import cpu_session
from vision.onnx_split import split_model
from vision.recognizer import Recognizer
from vision.rest_schedule import RestSchedule, ScheduleConfig, run_steps
from vision.stills import frame_corners, track_still
from vision.synthetic import MAT_SIZE, SyntheticTable, random_plays
from vision.tracker import CardTracker, TrackerConfig
from vision.tracker_index import IndexSighting, sightings, sightings_in_steps

WHOLE = TrackerConfig(index_finder_parts=1, index_boxes_per_step=0)  # one frame, all of it


def _table_frame() -> np.ndarray:
    """The speed benchmark's frame: 1280 x 720, eight cards at rest."""
    table = SyntheticTable(random_plays(Deck.PIQUET_32, 8, 77, count=8), n_seats=8,
                           deck=Deck.PIQUET_32, seed=77, fast=True)  # fmt: skip
    return table.render(table.placements[-1].settled_frame)


def _events(events: list[VisionEvent]) -> list[tuple[object, ...]]:
    out: list[tuple[object, ...]] = []
    for e in events:
        if isinstance(e, CardSeen):
            out.append(("seen", e.card.code, e.seat, round(e.confidence, 6), e.frame_index,
                        e.corners))  # fmt: skip
        elif isinstance(e, ConfirmationRequested):
            out.append(("asked", tuple(c.code for c in e.candidates), e.seat, e.confidences,
                        e.frame_index, e.corners))  # fmt: skip
    return out


def test_the_cut_finder_gives_the_whole_finders_output_bit_for_bit(corners: CornerFinder) -> None:
    x, _ = corners._input(_table_frame())
    whole = cpu_session(DEFAULT_FINDER).run(None, {"input": x})[0]
    for n in (2, 3):
        parts = split_model(DEFAULT_FINDER, n, (1, 3, 640, 640))
        assert len(parts) == n and parts[0].inputs == ("input",)
        assert parts[-1].outputs == ("output",)
        feeds = {"input": x}
        for before, part in zip(parts, parts[1:], strict=False):
            assert part.inputs == before.outputs  # each part takes what the one before gives
        for part in parts:
            outs = cpu_session(part.model).run(list(part.outputs),
                                               {k: feeds[k] for k in part.inputs})  # fmt: skip
            feeds = dict(zip(part.outputs, outs, strict=True))
        assert np.array_equal(feeds["output"], whole)


def test_a_cut_that_cannot_be_made_is_refused() -> None:
    with pytest.raises(ValueError, match="its input has 4 dimensions, not 3"):
        split_model(DEFAULT_FINDER, 2, (1, 3, 64))
    with pytest.raises(ValueError, match="no cut into 100 parts"):  # more parts than nodes
        split_model(DEFAULT_FINDER, 100, (1, 3, 64, 64))


@pytest.mark.parametrize(("parts", "per_step"), [(2, 1), (3, 2), (1, 0)])
def test_the_readings_made_in_steps_are_the_readings_made_at_once(
    corners: CornerFinder, parts: int, per_step: int
) -> None:
    for image, deck in ((_table_frame(), Deck.PIQUET_32), (_fan("4D", "QD"), Deck.FRENCH_53)):
        at_once = sightings(image, corners, deck)
        steps = sightings_in_steps(image, corners, deck, parts=parts, boxes_per_step=per_step)
        in_steps, yields = run_steps(steps)
        assert in_steps == at_once and at_once  # the same boxes, the same probabilities
        boxes = -(-len(at_once) // per_step) if per_step else 0
        # one step the finder's input, one a part of the net, one a few boxes
        assert yields + 1 == (parts + 1 if parts > 1 else 1) + boxes


class _Slow(CornerFinder):
    """A corner path that finds five indices in two steps and reads each as ``none``."""

    def boxes_in_steps(self, image: np.ndarray, parts: int
                       ) -> Generator[None, None, list[tuple[tuple[float, float, float, float], float]]]:  # fmt: skip
        yield
        return [((10.0 + 20 * k, 10.0, 8.0, 12.0), 0.9) for k in range(5)]

    def read(self, image: np.ndarray, boxes: list,  # type: ignore[type-arg]
             grey_crowded: bool = True) -> np.ndarray:  # fmt: skip
        probs = np.zeros((len(boxes), len(self.labels)), np.float32)
        probs[:, -1] = 1.0
        return probs


def _schedule(boxes_per_step: int, steps_per_frame: int = 1) -> RestSchedule[list[IndexSighting]]:
    """The corner path's readings at rest, with ``_Slow``'s finder."""
    finder = _Slow()

    def steps(picture: np.ndarray, found: list[FoundCard]
              ) -> Generator[None, None, list[IndexSighting]]:  # fmt: skip
        return sightings_in_steps(picture, finder, Deck.FRENCH_53, parts=3,
                                  boxes_per_step=boxes_per_step)  # fmt: skip

    return RestSchedule(steps, ScheduleConfig(steps_per_frame=steps_per_frame))


def test_one_reading_stands_for_the_first_frames_at_rest_of_its_picture() -> None:
    image = _fan("4D", "QD")
    moved = _fan("4D", "QD", shift=60)  # the cards slid: not at rest
    schedule = _schedule(2)
    stood = []
    for frame in [image, image, image, moved, moved, moved, moved, moved, moved]:
        stood.append(schedule.reading_for(frame, []))
        schedule.advance()
    first, second = stood[1], stood[4]
    # the first frame has none before it; after a change, one reading for three frames at rest
    assert stood == [None, first, first, None, second, second, second, None, None]
    assert first is not second and np.array_equal(second.picture, moved)  # type: ignore[union-attr]
    # five steps a reading (two of the net, three of at most two indices), one a frame: the
    # first is done on the fifth frame after it began, the second still under way
    assert first.done and first.result is not None and len(first.result) == 5  # type: ignore[union-attr]
    assert not second.done  # type: ignore[union-attr]
    schedule.finish()
    assert second.done and not schedule.waiting  # type: ignore[union-attr]


def test_two_steps_a_frame_end_a_reading_in_half_the_frames() -> None:
    """Five steps a reading: done on the fifth frame with one step a frame, on the third with
    two (experiment 80); the readings are the same. Less than one step a frame is refused."""
    image = _fan("4D", "QD")
    done_on, results = {}, {}
    for per_frame in (1, 2):
        schedule = _schedule(2, per_frame)
        schedule.reading_for(image, [])
        reading = schedule.reading_for(image, [])
        assert reading is not None
        for frame in range(1, 8):
            schedule.advance()
            if reading.done:
                done_on[per_frame] = frame
                break
            schedule.reading_for(image, [])
        results[per_frame] = reading.result
    assert done_on == {1: 5, 2: 3}
    assert results[1] == results[2] and results[1] is not None and len(results[1]) == 5
    with pytest.raises(ValueError, match="steps_per_frame must be at least 1, not 0"):
        ScheduleConfig(steps_per_frame=0)


def test_a_picture_drifting_from_the_one_read_is_read_anew() -> None:
    """Felt growing lighter by 3 levels a frame: each frame at rest against the one before,
    but the third drifts 6 levels from the picture read on the first."""
    felt = [np.full((480, 640, 3), (50 + 3 * k, 100 + 3 * k, 40 + 3 * k), np.uint8)
            for k in range(6)]  # fmt: skip
    schedule = _schedule(2)
    stood = [schedule.reading_for(frame, []) for frame in felt]
    first, second = stood[1], stood[4]
    assert stood == [None, first, first, None, second, second]
    assert first is not None and second is not None and first is not second


def test_a_reading_that_never_began_gives_way_to_the_next_picture() -> None:
    a, b, c = _fan("4D", "QD"), _fan("4D", "QD", shift=60), _fan("4D", "QD", shift=120)
    schedule = _schedule(1)
    stood = []
    for frame in [a, a, b, b, c, c]:
        stood.append(schedule.reading_for(frame, []))
        schedule.advance()
    first, second, third = stood[1], stood[3], stood[5]
    assert first is not None and second is not None and third is not None
    assert first.started and not first.done  # seven steps: still under way
    assert second.dropped and second.result is None  # its frames: read as not at rest
    assert schedule.waiting == [first, third]


def test_the_tracker_commits_the_same_in_steps_as_on_one_frame(recognizer: Recognizer,
                                                               corners: CornerFinder) -> None:  # fmt: skip
    image = _fan("4D", "QD")
    kinds = {}
    for name, config in (("whole", WHOLE), ("steps", TrackerConfig(index_boxes_per_step=1))):
        kinds[name] = _events(track_still(image, recognizer, deck=Deck.FRENCH_53,
                                          corners=frame_corners(image), index=corners,
                                          config=config))  # fmt: skip
    assert kinds["steps"] == kinds["whole"]
    assert sorted(e[1] for e in kinds["steps"]) == ["4D", "QD"]  # the 4D by its index alone


def _calibration(image: np.ndarray) -> TableCalibration:
    return TableCalibration.from_corners(frame_corners(image), mat_size=MAT_SIZE, n_seats=4)


def test_frames_wait_for_their_reading_and_finish_applies_them(recognizer: Recognizer,
                                                               corners: CornerFinder) -> None:  # fmt: skip
    image = _fan("4D", "QD")
    tracker = CardTracker(recognizer, _calibration(image), deck=Deck.FRENCH_53, corners=corners,
                          config=TrackerConfig(index_boxes_per_step=1))  # fmt: skip
    assert tracker.process(image) == []  # not at rest: applied at once, nothing to commit
    assert tracker.held == 0
    early = tracker.process(image) + tracker.process(image)  # the reading under way: held
    assert early == [] and tracker.held == 2
    events = tracker.finish()
    assert tracker.held == 0
    # the QD found whole: three readings (the frames 0, 1 and 2), committed on frame 2; the 4D by
    # its index: read on two frames at rest, not yet three
    assert [(e.card.code, e.frame_index) for e in events if isinstance(e, CardSeen)] == [("QD", 2)]


def test_a_picture_changed_in_the_middle_of_a_reading_is_never_read_by_it(
    recognizer: Recognizer, corners: CornerFinder
) -> None:
    """The fan at rest for two frames, then slid 60 px to the right and at rest: its reading,
    still under way when the cards moved, stands for its own two frames; the moved cards are
    read again, and the 4D is placed where it lies now (asked: it lies where the QD was
    committed, and no frame between forgot the QD), as when each reading is made on one frame."""
    image, moved = _fan("4D", "QD"), _fan("4D", "QD", shift=60)
    frames = [image, image, image] + [moved] * 5
    runs = {}
    for name, config in (("whole", WHOLE), ("steps", TrackerConfig(index_boxes_per_step=1))):
        tracker = CardTracker(recognizer, _calibration(image), deck=Deck.FRENCH_53,
                              corners=corners, config=config)  # fmt: skip
        events = [e for frame in frames for e in tracker.process(frame)] + tracker.finish()
        runs[name] = _events(events)
    assert runs["steps"] == runs["whole"]
    assert [(e[0], e[1], e[4]) for e in runs["steps"]] == [
        ("seen", "QD", 2), ("seen", "QD", 5), ("asked", ("4D", "AD", "8D"), 6),
    ]  # fmt: skip
    x = np.mean([p[0] for p in runs["steps"][2][5]])  # type: ignore[union-attr]
    assert 240 + 60 < x < 271 + 60  # the strip of the moved fan, not where it lay before


def test_frames_held_when_the_camera_moves_keep_the_seats_of_their_own_calibration(
    recognizer: Recognizer, corners: CornerFinder
) -> None:
    """The table calibrated again (the camera turned half round over the mat) while frames wait
    for their reading: the QD decided on a frame before is placed at the seat that frame's
    calibration gives, not the new calibration's."""
    image = _fan("4D", "QD")
    before = _calibration(image)
    h, w = image.shape[:2]
    turned = TableCalibration.from_corners([(w, h), (0, h), (0, 0), (w, 0)], mat_size=MAT_SIZE,
                                           n_seats=4)  # fmt: skip
    tracker = CardTracker(recognizer, before, deck=Deck.FRENCH_53, corners=corners,
                          config=TrackerConfig(index_boxes_per_step=1))  # fmt: skip
    events = tracker.process(image) + tracker.process(image) + tracker.process(image)
    assert events == [] and tracker.held == 2  # frames 1 and 2 wait for their reading
    tracker.calibration = turned
    events += tracker.process(image) + tracker.finish()
    seen = [e for e in events if isinstance(e, CardSeen)]
    assert [(e.card.code, e.frame_index) for e in seen][:1] == [("QD", 2)]
    x, y = np.mean(np.array(seen[0].corners), axis=0)
    at = (float(x), float(y))
    assert seen[0].seat == before.seat_at_pixel(at) != turned.seat_at_pixel(at)
