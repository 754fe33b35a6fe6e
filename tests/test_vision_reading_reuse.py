"""A card whose picture has not changed keeps its reading (experiment 73): what is read again,
what is not, and that the tracker reads the same cards with it as without it."""

from __future__ import annotations

import numpy as np
import pytest

from referee.cards import Card, Deck
from vision.deck_profile import DeckProfile
from vision.events import CardSeen
from vision.reading_reuse import KeptReadings
from vision.recognizer import Prediction, Recognizer
from vision.synthetic import SyntheticTable, random_plays
from vision.tracker import CardTracker, TrackerConfig

QUAD = np.array([[100, 100], [164, 100], [164, 196], [100, 196]], np.float32)


class _Counting:
    """A classifier that names each crop by its mean grey level and counts the crops it reads."""

    def __init__(self) -> None:
        self.read = 0

    def __call__(self, crops: list[np.ndarray]) -> list[Prediction]:
        self.read += len(crops)
        return [Prediction(f"french:{int(crop.mean())}", 0.9, ()) for crop in crops]


def _crop(level: float, seed: int | None = None, sigma: float = 2.0) -> np.ndarray:
    """A 96 x 64 card crop: a grey ``level`` with a dark frame, and seeded sensor noise."""
    crop = np.full((96, 64, 3), level, np.float32)
    crop[:8], crop[-8:] = 20, 20
    if seed is not None:
        crop += np.random.default_rng(seed).normal(0, sigma, crop.shape)
    return np.clip(crop, 0, 255).astype(np.uint8)


def test_a_card_lying_still_under_sensor_noise_is_read_once() -> None:
    kept, predict = KeptReadings(level=3.0, shift=3.0), _Counting()
    readings = [kept.read([_crop(200, seed)], [QUAD], predict) for seed in range(10)]
    assert predict.read == 1 and kept.reused == 9
    assert {r[0].label for r in readings} == {readings[0][0].label}


def test_another_card_at_the_same_corners_is_read_again() -> None:
    kept, predict = KeptReadings(level=3.0, shift=3.0), _Counting()
    first = kept.read([_crop(200, 0)], [QUAD], predict)
    other = kept.read([_crop(120, 1)], [QUAD], predict)
    assert predict.read == 2 and kept.reused == 0
    assert first[0].label != other[0].label


def test_a_card_moved_past_the_shift_is_read_again() -> None:
    kept, predict = KeptReadings(level=3.0, shift=3.0), _Counting()
    kept.read([_crop(200, 0)], [QUAD], predict)
    kept.read([_crop(200, 1)], [QUAD + 2.5], predict)  # within 3 px: kept
    kept.read([_crop(200, 2)], [QUAD + 3.5], predict)  # measured from where it was read
    assert (predict.read, kept.reused) == (2, 1)


def test_a_slow_change_adds_up_until_the_card_is_read_again() -> None:
    """The light drifting one grey level a frame: each frame is within the level of the last,
    but the kept thumbnail is the one read, so the card is read again after four levels."""
    kept, predict = KeptReadings(level=3.0, shift=3.0), _Counting()
    for k in range(8):
        kept.read([_crop(150 + k)], [QUAD], predict)
    assert predict.read == 2  # at level 150, and again at 154; the frames between kept
    assert kept.reused == 6


def test_of_two_cards_only_the_changed_one_is_read_and_the_order_kept() -> None:
    kept, predict = KeptReadings(level=3.0, shift=3.0), _Counting()
    other = QUAD + [200, 0]
    first = kept.read([_crop(200, 0), _crop(90, 0)], [QUAD, other], predict)
    readings = kept.read([_crop(200, 1), _crop(140, 1)], [QUAD, other], predict)
    assert predict.read == 3
    assert readings[0] is first[0]
    assert readings[1].label == predict([_crop(140, 1)])[0].label != first[1].label


def test_a_new_key_or_level_zero_reads_every_card() -> None:
    kept, predict = KeptReadings(level=3.0, shift=3.0), _Counting()
    kept.read([_crop(200, 0)], [QUAD], predict, key=("profile", 1))
    kept.read([_crop(200, 1)], [QUAD], predict, key=("profile", 2))  # the profile changed
    assert (predict.read, kept.reused) == (2, 0)
    off, predict = KeptReadings(level=0.0, shift=3.0), _Counting()
    for _ in range(3):
        off.read([_crop(200)], [QUAD], predict)  # the very same pixels, read each time
    assert (predict.read, off.reused) == (3, 0)


def test_misuse_is_named() -> None:
    with pytest.raises(ValueError, match="at least 0"):
        KeptReadings(level=-1.0, shift=3.0)
    with pytest.raises(ValueError, match="2 crops for 1 sets of corners"):
        KeptReadings(level=3.0, shift=3.0).read([_crop(1), _crop(2)], [QUAD], _Counting())


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer()


def _noisy_game(table: SyntheticTable) -> list[np.ndarray]:
    rng = np.random.default_rng(11)
    return [np.clip(frame + rng.normal(0, 2, frame.shape), 0, 255).astype(np.uint8)
            for frame in table]  # fmt: skip


def test_the_tracker_reads_the_same_cards_with_fewer_readings(recognizer: Recognizer) -> None:
    """A game under sensor noise: the same events with kept readings as with every card read
    on every frame, and most readings kept."""
    deck = Deck.PIQUET_32
    table = SyntheticTable(random_plays(deck, 4, seed=6, count=8), n_seats=4, deck=deck, seed=6,
                           fast=True)  # fmt: skip
    frames = _noisy_game(table)
    runs = {}
    for level in (3.0, 0.0):
        tracker = CardTracker(recognizer, table.calibration, deck=deck,
                              config=TrackerConfig(reuse_level=level))  # fmt: skip
        events = [e for frame in frames for e in tracker.process(frame)]
        runs[level] = ([(type(e), e.seat, e.frame_index, getattr(e, "card", None))
                        for e in events], tracker.kept_readings.reused)  # fmt: skip
    assert runs[3.0][0] == runs[0.0][0]
    assert [e[3] for e in runs[3.0][0]] == [card for _, card in table.plays]
    assert runs[0.0][1] == 0 and runs[3.0][1] > len(frames)  # more than one card a frame kept


def test_a_card_enrolled_reads_the_table_again(recognizer: Recognizer) -> None:
    """A change of the deck profile drops the kept readings: they were weighed by the old one."""
    deck = Deck.PIQUET_32
    table = SyntheticTable([(0, Card.parse("9S"))], n_seats=4, deck=deck, seed=5, fast=True)
    profile = DeckProfile(deck)
    tracker = CardTracker(recognizer, table.calibration, deck=deck, profile=profile)
    still = table.render(len(table) - 1)
    assert [type(e) for _ in range(4) for e in tracker.process(still)] == [CardSeen]
    assert tracker.kept_readings.reused == 3
    features = recognizer.run([still[:96, :64]])[1]
    assert features is not None
    profile.add("french:9S", np.ones(features.shape[1], np.float32))
    tracker.process(still)
    assert tracker.kept_readings.reused == 3  # read again under the new profile
    tracker.process(still)
    assert tracker.kept_readings.reused == 4
