"""A doubled deck's two copies look alike: a card the camera reads, or the director picks, by its
face alone is the copy not yet played (``TableRuntime.physical_card``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kibic.camera import DemoCamera
from kibic.runtime import TableRuntime
from kibic.store import EventStore
from referee.cards import Card


@pytest.fixture
def dvoglavac(tmp_path: Path) -> TableRuntime:
    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="dvoglavac")
    runtime.start_deal(dealer=3)  # seat 0 leads
    return runtime


def test_the_camera_plays_the_copy_not_yet_played(dvoglavac: TableRuntime) -> None:
    dvoglavac.on_sighting(0, Card.parse("AD"))
    dvoglavac.on_sighting(1, Card.parse("AD"))
    assert dvoglavac.deal is not None
    assert [str(a.card) for a in dvoglavac.deal.actions] == ["AD#1", "AD#2"]
    assert dvoglavac.snapshot()["alerts"] == []


def test_a_third_sighting_of_a_card_is_an_alert_naming_it_played(dvoglavac: TableRuntime) -> None:
    for seat in (0, 1, 2):
        dvoglavac.on_sighting(seat, Card.parse("AD"))
    assert dvoglavac.deal is not None
    assert [str(a.card) for a in dvoglavac.deal.actions] == ["AD#1", "AD#2"]
    (alert,) = dvoglavac.snapshot()["alerts"]
    assert "seat 2" in alert and "AD#2" in alert


def test_a_director_confirms_a_card_by_its_face(dvoglavac: TableRuntime) -> None:
    dvoglavac.on_sighting(0, Card.parse("KD"))
    request = dvoglavac.request_confirmation(1, (Card.parse("KD"),), (0.6,))
    dvoglavac.confirm_card(request, Card.parse("KD"))
    assert dvoglavac.deal is not None
    assert [str(a.card) for a in dvoglavac.deal.actions] == ["KD#1", "KD#2"]


def test_a_named_copy_and_a_single_deck_are_left_as_they_are(
    dvoglavac: TableRuntime, tmp_path: Path
) -> None:
    assert dvoglavac.physical_card(0, Card.parse("9H#2")) == Card.parse("9H#2")
    single = TableRuntime(EventStore(tmp_path / "r.sqlite3", "r"), game="ruzicka")
    single.start_deal(dealer=3)
    assert single.physical_card(0, Card.parse("7S")) == Card.parse("7S")


def test_the_demo_camera_reads_dvoglavac_plays_back(tmp_path: Path) -> None:
    """As `kibic demo --game dvoglavac`: the synthetic table renders the transcript's plays and
    the camera's readings go in (before, every play of the doubled deck was asked about)."""
    from kibic.demo import demo_transcript, play_transcript

    runtime = TableRuntime(EventStore(tmp_path / "demo.sqlite3", "t"), game="dvoglavac")
    camera = DemoCamera(runtime)
    transcript = demo_transcript("dvoglavac", deals=1, seed=0)
    play_transcript(runtime, transcript, delay=0.0, feed_play=camera)
    plays = sum(e["type"] == "play" for e in transcript["deals"][0]["events"])
    assert plays == 48
    assert camera.read_back + camera.confirmed == plays
    assert camera.read_back >= 46
    assert runtime.snapshot()["alerts"] == []
