"""The camera's eye: each card read keeps its picture (the warped crop, JPEG) in the table's
store, served by id; a misread card of the deal is corrected through the log and the referee
replays the deal with the right card, also after a restart."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient

from kibic.cli import main
from kibic.runtime import TableRuntime
from kibic.store import EventStore, StoreDamaged, crop_id
from referee.actions import Action, ActionType
from referee.cards import Card, Deck
from referee.errors import ActionError
from tests.test_web_support import (
    ADMIN,
    NAMES,
    PASSWORD_HASH,
    illegal_play,
    known_hands,
    legal_play,
)
from vision.crops import decode_crop, encode_crop
from vision.events import CardSeen, ConfirmationRequested
from vision.recognizer import INPUT_H, INPUT_W, Recognizer
from vision.synthetic import SyntheticTable
from vision.tracker import CardTracker, TrackerConfig
from web.app import create_app


def _open(path: Path) -> TableRuntime:
    return TableRuntime(EventStore(path, "sto-1"), table_id="sto-1", names=NAMES)


def _known_deal(runtime: TableRuntime) -> None:
    runtime.start_deal(hands=known_hands(), dealer=3)
    runtime.submit(Action(0, ActionType.CONTRACT, value="zatvoreno"))


def _picture(seed: int) -> bytes:
    """A JPEG crop of the recogniser's size (seeded noise: no two alike)."""
    rng = np.random.default_rng(seed)
    return encode_crop(rng.integers(0, 256, (INPUT_H, INPUT_W, 3), dtype=np.uint8))


@pytest.fixture(scope="module")
def recognizer() -> Recognizer:
    return Recognizer()


def test_every_committed_reading_carries_the_crop_the_recogniser_read(
    recognizer: Recognizer,
) -> None:
    plays = [(0, Card.parse("QH")), (1, Card.parse("JC")), (2, Card.parse("AD"))]
    table = SyntheticTable(plays, n_seats=3, deck=Deck.GERMAN_32, seed=2, fast=True)
    tracker = CardTracker(recognizer, table.calibration, deck=Deck.GERMAN_32)
    events = [event for frame in table for event in tracker.process(frame)]
    assert [(e.seat, e.card) for e in events] == plays
    for event in events:
        assert isinstance(event, CardSeen)
        assert event.crop[:2] == b"\xff\xd8" and 500 < len(event.crop) < 8000  # a few kB
        image = decode_crop(event.crop)
        assert image.shape == (INPUT_H, INPUT_W, 3)
        # the picture kept is the card that was read: read again, it is the same card
        (again,) = recognizer.predict([image], Deck.GERMAN_32)
        assert again.card == event.card


def test_a_camera_question_carries_its_crop(recognizer: Recognizer) -> None:
    plays = [(0, Card.parse("9S"))]
    table = SyntheticTable(plays, n_seats=4, deck=Deck.PIQUET_32, seed=3, fast=True)
    strict = TrackerConfig(min_confidence=1.01)  # asks about every card
    tracker = CardTracker(recognizer, table.calibration, deck=Deck.PIQUET_32, config=strict)
    (event,) = [event for frame in table for event in tracker.process(frame)]
    assert isinstance(event, ConfirmationRequested)
    assert decode_crop(event.crop).shape == (INPUT_H, INPUT_W, 3)


def test_crops_are_kept_beside_the_log_and_served_by_id(tmp_path: Path) -> None:
    path = tmp_path / "kibic.sqlite"
    runtime = _open(path)
    _known_deal(runtime)
    seen, asked = _picture(1), _picture(2)
    play = legal_play(runtime)
    assert play.card is not None
    runtime.on_sighting(play.seat, play.card, crop=seen)
    request = runtime.request_confirmation(1, [Card.parse("AS")], [0.4], crop=asked)
    state = runtime.snapshot()
    assert state["crops"] == {play.card.code: crop_id(seen)}  # ids only in the live state
    assert state["pending"][0]["crop"] == crop_id(asked)
    # the entries name their crops: the chain covers which picture each was
    kinds = {e.kind: e.payload for e in runtime.store.entries()}
    assert kinds["action"]["crop"] == crop_id(seen) and kinds["pending"]["crop"] == crop_id(asked)

    client = TestClient(create_app(runtime, admin_password_hash=PASSWORD_HASH))
    response = client.get(f"/crops/{crop_id(seen)}")
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/jpeg"
    assert response.content == seen
    missing = client.get("/crops/0123456789abcdef01234567")
    assert missing.status_code == 404
    assert missing.json() == {
        "detail": "no camera picture '0123456789abcdef01234567' at this table"
    }

    # the play that answers the question keeps the question's picture
    legal = legal_play(runtime)
    assert legal.card is not None and legal.seat == 1
    runtime.request_confirmation(legal.seat, [legal.card], [0.4], crop=asked)
    runtime.dismiss_request(request)
    (pending,) = runtime.snapshot()["pending"]
    runtime.confirm_card(pending["id"], legal.card)
    assert runtime.snapshot()["crops"][legal.card.code] == crop_id(asked)
    runtime.close()

    # after a restart: the same pictures, and the store's check passes
    again = _open(path)
    assert again.snapshot()["crops"] == state["crops"] | {legal.card.code: crop_id(asked)}
    assert again.crop(crop_id(seen)) == (seen, "image/jpeg")
    again.close()
    assert main(["store", "check", str(path)]) == 0


def test_a_crop_whose_bytes_changed_is_not_served(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kibic.sqlite"
    runtime = _open(path)
    crop = runtime.keep_crop(_picture(3))
    assert crop is not None
    runtime.close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE crops SET data = ? WHERE id = ?", (_picture(4), crop))
    db.close()
    again = _open(path)
    assert again.crop(crop) is None
    again.close()
    # the check names it, and the store stays usable: the log does not depend on its bytes
    assert main(["store", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"the camera's picture {crop} is damaged" in out


def test_a_store_without_crops_still_loads_checks_and_gains_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kibic.sqlite"
    runtime = _open(path)
    _known_deal(runtime)
    runtime.submit(legal_play(runtime))
    digest = runtime.state_digest()
    runtime.close()
    with sqlite3.connect(path) as db:  # as a store written before the crops: no such table
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    db.close()
    assert "crops" not in tables
    assert main(["store", "check", str(path)]) == 0
    assert "table 'sto-1': 4 entries, ok" in capsys.readouterr().out

    reader = TableRuntime(EventStore(path, "sto-1", readonly=True), table_id="sto-1")
    assert reader.state_digest() == digest
    assert reader.crop("0123456789abcdef01234567") is None  # no table: no picture, no error
    reader.close()

    writer = _open(path)
    assert writer.state_digest() == digest
    play = legal_play(writer)
    assert play.card is not None
    writer.on_sighting(play.seat, play.card, crop=_picture(5))
    writer.close()
    assert main(["store", "check", str(path)]) == 0
    reader = TableRuntime(EventStore(path, "sto-1", readonly=True), table_id="sto-1")
    assert reader.crop(crop_id(_picture(5))) == (_picture(5), "image/jpeg")
    reader.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[TableRuntime]:
    runtime = _open(tmp_path / "kibic.sqlite")
    _known_deal(runtime)
    try:
        yield runtime
    finally:
        runtime.close()


def _revoke_misread_as_legal(runtime: TableRuntime) -> tuple[Action, Action]:
    """Three cards of the first trick, then the fourth seat's card: the camera read a card
    that follows suit (recorded), the seat really played one that revokes. (recorded, real)"""
    for _ in range(3):
        runtime.submit(legal_play(runtime))
    real = illegal_play(runtime)
    assert real is not None and real.card is not None
    recorded = legal_play(runtime)
    runtime.on_sighting(recorded.seat, recorded.card, crop=_picture(6))  # type: ignore[arg-type]
    return recorded, real


def test_a_corrected_card_gives_the_deal_the_referee_gives_the_right_card(
    table: TableRuntime, tmp_path: Path
) -> None:
    recorded, real = _revoke_misread_as_legal(table)
    assert table.deal is not None and not table.deal.is_over and not table.finished
    assert recorded.card is not None and real.card is not None
    table.correct_card(real.seat, recorded.card, real.card)
    # the table where the right card was read at once
    truth = TableRuntime(EventStore(":memory:", "t"), table_id="t", names=NAMES)
    truth.start_deal(hands=known_hands(), dealer=3)
    for action in table.deal.actions:  # the contract, then the plays as they really were
        truth.submit(action)
    assert truth.finished and table.finished  # the revoke is proven: the deal ends with a penalty
    assert table.snapshot()["match"] == truth.snapshot()["match"]
    assert table.snapshot()["deals"] == truth.snapshot()["deals"]
    assert table.deal.snapshot() == truth.deal.snapshot()  # type: ignore[union-attr]
    corrected = table.snapshot()["log"]
    assert {"kind": "card_corrected", "seat": real.seat, "was": recorded.card.code,
            "card": real.card.code, "source": "director"} in corrected  # fmt: skip
    # the picture stays with the play: it is the picture of the card really played
    assert table.snapshot()["crops"][real.card.code] == crop_id(_picture(6))
    truth.close()

    # a restart replays the correction from the log
    state = table.state_digest()
    table.close()
    again = _open(tmp_path / "kibic.sqlite")
    assert again.state_digest() == state
    # and undo takes the corrected card back, with its picture
    again.undo()
    assert real.card.code not in again.snapshot()["crops"]
    assert not again.finished
    again.close()


def test_a_correction_the_referee_cannot_replay_is_refused_and_nothing_is_written(
    table: TableRuntime,
) -> None:
    play = legal_play(table)
    table.submit(play)
    assert play.card is not None
    seq = table.seq
    with pytest.raises(ActionError, match="not in seat 0's hand"):
        table.correct_card(play.seat, play.card, Card.parse("AS"))
    with pytest.raises(ActionError, match="played no AS in this deal"):
        table.correct_card(play.seat, Card.parse("AS"), play.card)
    with pytest.raises(ActionError, match="already the card played"):
        table.correct_card(play.seat, play.card, play.card)
    assert table.seq == seq


def test_a_correction_over_the_api_needs_the_password(table: TableRuntime) -> None:
    play = legal_play(table)
    table.submit(play)
    assert play.card is not None
    other = sorted(table.deal.hands[play.seat])[0]  # type: ignore[union-attr]
    client = TestClient(create_app(table, admin_password_hash=PASSWORD_HASH))
    body = {"seat": play.seat, "played": play.card.code, "card": other.code}
    assert client.post("/api/corrections", json=body).status_code == 401
    response = client.post("/api/corrections", json=body, headers=ADMIN)
    assert response.status_code == 200, response.text
    assert table.deal is not None
    assert table.deal.actions[-1].card == other
    bad = client.post("/api/corrections", json=body | {"card": "XX"}, headers=ADMIN)
    assert bad.status_code == 422 and bad.json()["detail"][0]["loc"] == ["body", "card"]


def test_an_altered_correction_is_refused_not_replayed(tmp_path: Path) -> None:
    path = tmp_path / "kibic.sqlite"
    runtime = _open(path)
    _known_deal(runtime)
    play = legal_play(runtime)
    runtime.submit(play)
    assert play.card is not None
    other = sorted(runtime.deal.hands[play.seat])[0]  # type: ignore[union-attr]
    runtime.correct_card(play.seat, play.card, other)
    runtime.close()
    with sqlite3.connect(path) as db:  # an entry naming a card that was never played there
        db.execute("UPDATE events SET payload = replace(payload, ?, ?) WHERE kind='corrected'",
                   (f'"played": "{play.card.code}"', '"played": "AS"'))  # fmt: skip
    db.close()
    with pytest.raises(StoreDamaged):
        _open(path)


def test_a_doubled_decks_card_is_corrected_by_its_face(tmp_path: Path) -> None:
    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="dvoglavac")
    runtime.start_deal(dealer=3)  # seat 0 leads; no hands known
    runtime.on_sighting(0, Card.parse("AD"))
    runtime.on_sighting(1, Card.parse("KD"))  # misread: seat 1 played the other ace
    runtime.correct_card(1, Card.parse("KD#1"), Card.parse("AD"))  # the picker names faces
    assert runtime.deal is not None
    assert [str(a.card) for a in runtime.deal.actions] == ["AD#1", "AD#2"]
    with pytest.raises(ActionError, match="already the card played"):
        runtime.correct_card(1, Card.parse("AD#2"), Card.parse("AD"))
    runtime.close()


def test_salvage_keeps_the_pictures(tmp_path: Path) -> None:
    path, out = tmp_path / "kibic.sqlite", tmp_path / "saved.sqlite"
    runtime = _open(path)
    _known_deal(runtime)
    play = legal_play(runtime)
    assert play.card is not None
    runtime.on_sighting(play.seat, play.card, crop=_picture(7))
    state = runtime.state_digest()
    runtime.close()
    assert main(["store", "salvage", str(path), "--out", str(out)]) == 0
    saved = _open(out)
    assert saved.state_digest() == state
    assert saved.crop(crop_id(_picture(7))) == (_picture(7), "image/jpeg")
    saved.close()


def test_the_club_replays_a_correction_as_the_table_scored_it(table: TableRuntime) -> None:
    from club.results import replay_game

    recorded, real = _revoke_misread_as_legal(table)
    assert recorded.card is not None and real.card is not None
    table.correct_card(real.seat, recorded.card, real.card)
    record = replay_game("sto-1", table.store.entries())  # what the club gets forwarded
    assert record.deals == 1 and len(record.penalties) == 1
    assert record.penalties[0].seat == real.seat
    totals = table.snapshot()["match"]["totals"]
    assert {s.side: s.score for s in record.sides} == totals


def test_a_finished_deal_is_corrected_back_but_not_over_a_later_score_correction(
    table: TableRuntime,
) -> None:
    recorded, real = _revoke_misread_as_legal(table)
    assert recorded.card is not None and real.card is not None
    before = table.snapshot()["match"]
    table.correct_card(real.seat, recorded.card, real.card)  # the revoke ends the deal
    assert table.finished and table.snapshot()["match"] != before
    table.correct_card(real.seat, real.card, recorded.card)  # wrong after all: reopened
    assert not table.finished and table.snapshot()["match"] == before
    table.correct_card(real.seat, recorded.card, real.card)
    table.adjust_score("A", 10, "dogovor")  # the director wrote on the sheet since
    seq = table.seq
    with pytest.raises(ActionError, match="score sheet changed after this deal"):
        table.correct_card(real.seat, real.card, recorded.card)
    assert table.seq == seq


def test_a_corrected_card_teaches_the_deck_profile(tmp_path: Path, recognizer: Recognizer) -> None:
    """A card the camera committed wrongly and a person corrected is a person's answer: the
    views the camera read it from become references of the card that lay there. A refused
    correction teaches nothing."""
    from vision.deck_profile import DeckProfile
    from vision.enrol import ConfirmationLearner, label_of
    from vision.recognizer import Prediction

    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="ruzicka")
    runtime.start_deal(dealer=3)  # seat 0 leads; no hands known
    deck = runtime.game.deck
    learner = ConfirmationLearner(recognizer, DeckProfile(deck))
    runtime.add_correction_listener(learner.corrected)
    read, truth = Card.parse("KS"), Card.parse("KC")
    view = np.zeros(8, np.float32)
    view[3] = 1.0
    seen = CardSeen(0, read, "french:KS", deck, 0.97, (), 12)
    learner.on_commit(seen, [Prediction("french:KS", 0.97, (), features=view)], [])
    runtime.on_sighting(0, read)
    with pytest.raises(ActionError):
        runtime.correct_card(0, read, read)  # the same card: refused, nothing learnt
    assert learner.apply() == 0 and list(learner.profile.missing) == list(learner.profile.labels)
    runtime.correct_card(0, read, truth)
    assert learner.apply() == 1
    label = label_of(truth, deck)
    assert learner.profile.sources[label] == ["correction:0:KS:KC"]
    assert np.allclose(learner.profile.references[label][0], view)
    assert label_of(read, deck) in learner.profile.missing  # the camera's reading taught nothing
    runtime.close()
