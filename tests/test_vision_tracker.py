"""The tracker on synthetic tables: each play committed once, to the right seat and card."""

from __future__ import annotations

import pytest

from referee.cards import Card, Deck
from vision.events import CardSeen, ConfirmationRequested
from vision.recognizer import Recognizer
from vision.synthetic import SyntheticTable, random_plays
from vision.tracker import CardTracker, TrackerConfig


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer()


def _run(table: SyntheticTable, tracker: CardTracker) -> list:  # type: ignore[type-arg]
    events = []
    for frame in table:
        events += tracker.process(frame)
    return events


@pytest.mark.parametrize(("deck", "seats"), [(Deck.PIQUET_32, 4), (Deck.SERBIAN_33, 3)])
def test_a_game_is_seen_play_by_play(recognizer: Recognizer, deck: Deck, seats: int) -> None:
    plays = random_plays(deck, seats, seed=4, count=12)
    table = SyntheticTable(plays, n_seats=seats, deck=deck, seed=4, fast=True)
    events = _run(table, CardTracker(recognizer, table.calibration, deck=deck))
    assert all(isinstance(e, CardSeen) for e in events)
    assert [(e.seat, e.card) for e in events] == [(s, c) for s, c in plays]
    # committed after the card lay still for the stable frames, never while a hand was over it
    for event, placement in zip(events, table.placements, strict=True):
        assert event.frame_index == placement.settled_frame + 2
        assert event.deck is deck and len(event.corners) == 4


def test_slow_mode_with_hands_lingering(recognizer: Recognizer) -> None:
    plays = [(0, Card.parse("7H")), (1, Card.parse("KS")), (2, Card.parse("AD")), (3, Card.parse("TC")),
             (1, Card.parse("QH"))]  # fmt: skip
    table = SyntheticTable(plays, n_seats=4, deck=Deck.PIQUET_32, seed=9, fast=False)
    events = _run(table, CardTracker(recognizer, table.calibration, deck=Deck.PIQUET_32))
    assert [(e.seat, e.card.code) for e in events] == [
        (0, "7H"),
        (1, "KS"),
        (2, "AD"),
        (3, "TC"),
        (1, "QH"),
    ]
    assert [e.face for e in events] == ["7H", "KS", "AD", "TC", "QH"]


def test_german_faces_and_labels(recognizer: Recognizer) -> None:
    plays = [(0, Card.parse("QH")), (1, Card.parse("JC")), (2, Card.parse("AD"))]
    table = SyntheticTable(plays, n_seats=3, deck=Deck.GERMAN_32, seed=2, fast=True)
    events = _run(table, CardTracker(recognizer, table.calibration, deck=Deck.GERMAN_32))
    assert [e.face for e in events] == ["PO", "MU", "TA"]


def test_low_confidence_asks_instead_of_guessing(recognizer: Recognizer) -> None:
    plays = [(0, Card.parse("9S")), (1, Card.parse("JD"))]
    table = SyntheticTable(plays, n_seats=4, deck=Deck.PIQUET_32, seed=3, fast=True)
    strict = TrackerConfig(min_confidence=1.01)  # nothing is ever that sure
    events = _run(
        table, CardTracker(recognizer, table.calibration, deck=Deck.PIQUET_32, config=strict)
    )
    assert [type(e) for e in events] == [ConfirmationRequested, ConfirmationRequested]
    assert [(e.seat, e.candidates[0]) for e in events] == [
        (0, Card.parse("9S")),
        (1, Card.parse("JD")),
    ]
    assert all(
        1 <= len(e.candidates) <= 3 and e.confidences[0] >= e.confidences[-1] for e in events
    )


def test_another_card_put_where_one_was_is_asked_never_committed(recognizer: Recognizer) -> None:
    """A card taken and another put at the same place with no frame between that forgets the
    first (under a hand, or in one step): the place now shows another card, read surely. It
    used to be missed (a track is committed once); it is asked, never committed."""
    deck = Deck.PIQUET_32
    first = SyntheticTable([(0, Card.parse("9S"))], n_seats=4, deck=deck, seed=5, fast=True)
    second = SyntheticTable([(0, Card.parse("KH"))], n_seats=4, deck=deck, seed=5, fast=True)
    tracker = CardTracker(recognizer, first.calibration, deck=deck)
    assert [(type(e), e.card.code) for e in _run(first, tracker)] == [(CardSeen, "9S")]
    at_rest = second.render(len(second) - 1)  # the king lying where the nine lay
    events = [e for _ in range(4) for e in tracker.process(at_rest)]
    assert [(type(e), e.seat, e.candidates[0].code) for e in events] == [
        (ConfirmationRequested, 0, "KH")
    ]
    assert [e for _ in range(4) for e in tracker.process(at_rest)] == []  # asked once


def test_a_joker_read_by_its_whole_face_is_asked(recognizer: Recognizer) -> None:
    """Since experiment 35 the Joker is asked however it was read: its face has no rank and
    suit sign, and the table classifier reads pictures and labels on real tables as it. The
    cards beside it are committed as before."""
    plays = [(0, Card.parse("JK")), (1, Card.parse("QH")), (2, Card.parse("7S"))]
    table = SyntheticTable(plays, n_seats=4, deck=Deck.FRENCH_53, seed=4, fast=True)
    events = _run(table, CardTracker(recognizer, table.calibration, deck=Deck.FRENCH_53))
    assert [(e.seat, e.card.code) for e in events if isinstance(e, CardSeen)] == [
        (1, "QH"), (2, "7S")]  # fmt: skip
    (asked,) = [e for e in events if isinstance(e, ConfirmationRequested)]
    assert asked.seat == 0 and asked.candidates[0] == Card.parse("JK")
    assert asked.confidences[0] >= 0.85  # read surely, and asked all the same


@pytest.mark.parametrize(
    ("field", "value", "least"),
    [("rest_steps_per_frame", 0, 1), ("stable_frames", 0, 1), ("index_finder_parts", 0, 1),
     ("forget_after", -1, 0), ("still_width", 4, 8)],
)  # fmt: skip
def test_a_tracker_config_that_could_not_read_is_refused_by_name(
    field: str, value: int, least: int
) -> None:
    with pytest.raises(ValueError) as refused:
        TrackerConfig(**{field: value})  # type: ignore[arg-type]
    assert str(refused.value) == f"TrackerConfig.{field} must be at least {least}, not {value}"
    assert getattr(TrackerConfig(**{field: least}), field) == least  # type: ignore[arg-type]


def test_a_wait_bound_below_zero_is_refused_by_name() -> None:
    with pytest.raises(ValueError) as refused:
        TrackerConfig(undecided_ask_after=-1)
    assert (
        str(refused.value) == "TrackerConfig.undecided_ask_after must be at least 0 or None, not -1"
    )
    assert TrackerConfig(undecided_ask_after=None).undecided_ask_after is None
    assert TrackerConfig().undecided_ask_after == 30  # experiments 134 and 134b
