"""The demo's camera matches the tracker's events to the transcript's plays by seat: a play the
camera did not see costs one question, an event of no play is passed over, and a resumed deal
finds its place. Before, events were matched by their index, and one missed card made every
later play of the deal a question."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kibic.camera import DemoCamera
from kibic.demo import demo_transcript, play_transcript
from kibic.runtime import TableRuntime
from kibic.store import EventStore
from referee.cards import Card, Deck
from vision.events import CardSeen, ConfirmationRequested

GAME = "ruzicka"


class ScriptedCamera(DemoCamera):
    """The demo camera with the tracker's events given per deal instead of read from frames."""

    def __init__(self, runtime: TableRuntime, events: dict[int, list[Any]]) -> None:
        super().__init__(runtime)
        self.events = events

    def _start(self, deal_no: int, plays: list[tuple[int, Card]]) -> None:
        self._deal, self._sightings, self._next, self._plays = deal_no, [], 0, 0
        self._source = iter([self.events[deal_no]])


def seen(seat: int, card: Card, frame: int = 0) -> CardSeen:
    return CardSeen(seat, card, card.code, Deck.FRENCH_52, 0.99, (), frame)


def asked(seat: int, *cards: Card) -> ConfirmationRequested:
    return ConfirmationRequested(seat, cards, tuple(0.4 for _ in cards), 0)


@pytest.fixture
def transcript() -> dict[str, Any]:
    return demo_transcript(GAME, deals=1, seed=0)


def plays_of(transcript: dict[str, Any]) -> list[tuple[int, Card]]:
    events = transcript["deals"][0]["events"]
    return [(e["seat"], Card.parse(e["card"])) for e in events if e["type"] == "play"]


def run(
    tmp_path: Path, transcript: dict[str, Any], events: list[Any]
) -> tuple[ScriptedCamera, TableRuntime]:
    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game=GAME)
    camera = ScriptedCamera(runtime, {1: events})
    play_transcript(runtime, transcript, delay=0.0, feed_play=camera)
    return camera, runtime


def test_one_play_not_seen_costs_one_question(tmp_path: Path, transcript: dict[str, Any]) -> None:
    plays = plays_of(transcript)
    events = [seen(s, c) for s, c in plays]
    del events[5]  # the camera never saw the sixth card
    camera, runtime = run(tmp_path, transcript, events)
    assert (camera.read_back, camera.confirmed, camera.missed) == (len(plays) - 1, 1, 1)
    assert runtime.snapshot()["alerts"] == []


def test_an_event_of_no_play_is_passed_over(tmp_path: Path, transcript: dict[str, Any]) -> None:
    plays = plays_of(transcript)
    events: list[Any] = [seen(s, c) for s, c in plays]
    seat, _card = plays[4]
    events.insert(3, seen((seat + 1) % 4, Card.parse("2C")))  # a reflection read as a card
    camera, _runtime = run(tmp_path, transcript, events)
    assert (camera.read_back, camera.confirmed, camera.missed) == (len(plays), 0, 0)


def test_a_doubtful_reading_is_asked_once(tmp_path: Path, transcript: dict[str, Any]) -> None:
    plays = plays_of(transcript)
    events: list[Any] = [seen(s, c) for s, c in plays]
    seat, card = plays[7]
    events[7] = asked(seat, card, Card.parse("2C"))
    camera, _runtime = run(tmp_path, transcript, events)
    assert (camera.read_back, camera.confirmed, camera.missed) == (len(plays) - 1, 1, 0)


def test_a_resumed_deal_finds_its_place(tmp_path: Path, transcript: dict[str, Any]) -> None:
    plays = plays_of(transcript)
    events = [seen(s, c) for s, c in plays]
    store = tmp_path / "t.sqlite3"
    first = TableRuntime(EventStore(store, "t"), game=GAME)
    half = {"deals": [dict(transcript["deals"][0])]}
    cut = next(i for i, e in enumerate(half["deals"][0]["events"]) if e["type"] == "play") + 9
    half["deals"][0]["events"] = half["deals"][0]["events"][:cut]
    play_transcript(first, half, delay=0.0, feed_play=ScriptedCamera(first, {1: events}))
    first.close()
    again = TableRuntime(EventStore(store, "t"), game=GAME)
    camera = ScriptedCamera(again, {1: events})
    play_transcript(again, transcript, delay=0.0, feed_play=camera)
    already = sum(e["type"] == "play" for e in half["deals"][0]["events"])
    assert (camera.read_back, camera.confirmed) == (len(plays) - already, 0)


def test_the_demo_reads_its_deck_as_a_table_would(tmp_path: Path, transcript: dict[str, Any]
                                                  ) -> None:  # fmt: skip
    """The demo's tracker has what a table of its deck reads with (``reading_paths``): for a
    French-suited deck of one copy of each card, the corner indices and the learned detector at
    rest, and the second classifier; its classifier with the still-photo gates (experiment 115d:
    read on the learned cards); the frames held for the reading at rest at the end of a deal are finished, so its
    last play is seen too."""
    from vision.corner_finder import CornerFinder
    from vision.detector import CardDetector
    from vision.recognizer import DEFAULT_MODEL, shipped_gates

    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game=GAME)
    camera = DemoCamera(runtime)
    play_transcript(runtime, transcript, delay=0.0, feed_play=camera)
    ((deck, (index, detector, second)),) = camera._paths.items()
    assert deck is runtime.game.deck
    assert isinstance(index, CornerFinder) and isinstance(detector, CardDetector)
    assert second is not None
    assert camera.recognizer.path == DEFAULT_MODEL
    assert [g.path for g in camera.recognizer.gates] == shipped_gates()
    plays = plays_of(transcript)
    assert (camera.read_back, camera.confirmed, camera.missed) == (len(plays), 0, 0)
