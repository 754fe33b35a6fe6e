"""The table runtime and its SQLite event store: log-first, replay on start, idempotent ids."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from kibic.config import ConfigError, hash_password, load_config, verify_password
from kibic.runtime import TableRuntime
from kibic.store import EventStore, LogEntry
from referee.actions import Action, ActionType
from referee.cards import Card
from referee.errors import ActionError


def play_some(runtime: TableRuntime, seed: int, steps: int) -> None:
    rng = random.Random(seed)
    game = runtime.game
    hands, setup = game.deal_cards(rng, dealer=runtime.match.dealer)  # type: ignore[union-attr]
    runtime.start_deal(hands=hands, setup=setup)
    for _ in range(steps):
        if runtime.deal.is_over:  # type: ignore[union-attr]
            break
        runtime.submit(rng.choice(runtime.deal.legal_actions()))  # type: ignore[union-attr]


def test_store_is_append_only_and_idempotent(tmp_path: Path) -> None:
    store = EventStore(tmp_path / "t.sqlite3", "t1")
    first = store.append(LogEntry("a", "x", {"n": 1}))
    assert first is not None and first.seq == 1
    assert store.append(LogEntry("a", "x", {"n": 2})) is None  # same id: stored once
    assert store.append(LogEntry("b", "x", {"n": 3})).seq == 2  # type: ignore[union-attr]
    assert [(e.id, e.payload["n"]) for e in store.entries()] == [("a", 1), ("b", 3)]
    assert store._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    other = EventStore(tmp_path / "t.sqlite3", "t2")
    assert other.entries() == []


def test_restart_replays_the_log_to_the_same_state(tmp_path: Path) -> None:
    path = tmp_path / "table.sqlite3"
    runtime = TableRuntime(EventStore(path, "t"), table_id="t", game="veliki-satir")
    play_some(runtime, seed=4, steps=30)
    runtime.adjust_score("B", 15, "late arrival of seat 1 waived")
    before = runtime.state_digest()
    runtime.close()
    again = TableRuntime(EventStore(path, "t"), table_id="t", game="veliki-satir")
    assert again.state_digest() == before
    assert (
        again.snapshot()["match"]["rows"][-1]["detail"] == "adjusted: late arrival of seat 1 waived"
    )


def test_bad_action_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="veliki-satir")
    play_some(runtime, seed=1, steps=3)
    count = len(runtime.store.entries())
    seat = runtime.deal.to_act  # type: ignore[union-attr]
    with pytest.raises(ActionError, match="out of turn"):
        runtime.submit(Action.play((seat + 1) % 4, "2C"))
    assert len(runtime.store.entries()) == count


def test_misread_card_from_the_camera_is_an_alert_not_a_crash(tmp_path: Path) -> None:
    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="veliki-satir")
    play_some(runtime, seed=2, steps=6)
    played = runtime.deal.actions[-1].card  # type: ignore[union-attr]
    seat = runtime.deal.to_act  # type: ignore[union-attr]
    count = len(runtime.store.entries())
    assert runtime.on_sighting(seat, played) == []  # a card played twice
    assert "already played" in runtime.alerts[-1]
    assert len(runtime.store.entries()) == count


def test_undo_pops_the_last_action_and_is_logged(tmp_path: Path) -> None:
    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="veliki-satir")
    play_some(runtime, seed=3, steps=5)
    state4 = None
    runtime.undo()
    state4 = runtime.deal.snapshot()  # type: ignore[union-attr]
    assert len(runtime.deal.actions) == 4  # type: ignore[union-attr]
    assert runtime.store.entries()[-1].kind == "undo"
    again = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="veliki-satir")
    assert again.deal.snapshot() == state4  # type: ignore[union-attr]


def test_retried_entry_id_is_not_doubled(tmp_path: Path) -> None:
    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="veliki-satir")
    runtime.start_deal(hands=None, setup={}, dealer=3, entry_id="d1")
    runtime.submit(Action(0, ActionType.CONTRACT, value="zatvoreno"), entry_id="e1")
    runtime.submit(Action.play(0, "5S"), entry_id="e2")
    assert runtime.submit(Action.play(0, "5S"), entry_id="e2") == []
    assert len(runtime.deal.actions) == 2  # type: ignore[union-attr]


def test_exports(tmp_path: Path) -> None:
    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="veliki-satir")
    play_some(runtime, seed=5, steps=200)
    csv_text = runtime.export_csv()
    assert csv_text.splitlines()[0].startswith(
        "partija,deal,dealer,score A,score B,total A,total B"
    )
    transcript = runtime.export_transcript()
    from referee.transcript import replay

    rep = replay(json.loads(json.dumps(transcript)))
    assert rep.deals[0].result == runtime.finished[0]["deal"].result


def test_confirmation_of_a_low_confidence_card(tmp_path: Path) -> None:
    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="veliki-satir")
    runtime.start_deal(dealer=3)
    runtime.submit(Action(0, ActionType.CONTRACT, value="zatvoreno"))
    rid = runtime.request_confirmation(0, [Card.parse("5S"), Card.parse("6S")], [0.51, 0.47])
    assert runtime.snapshot()["pending"][0]["candidates"] == ["5S", "6S"]
    assert runtime.snapshot()["pending"][0]["profile_card"] is None
    runtime.confirm_card(rid, Card.parse("6S"))
    assert runtime.snapshot()["pending"] == []
    assert runtime.deal.snapshot()["trick"]["plays"] == [[0, "6S"]]  # type: ignore[union-attr]


def test_confirmation_listeners_hear_live_answers_only(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The camera learns the deck from people's answers; a failing listener breaks nothing."""
    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="veliki-satir")
    runtime.start_deal(dealer=3)
    runtime.submit(Action(0, ActionType.CONTRACT, value="zatvoreno"))
    heard: list[tuple[str, str]] = []

    def broken(request_id: str, card: Card) -> None:
        raise RuntimeError("listener down")

    runtime.add_confirmation_listener(broken)
    runtime.add_confirmation_listener(lambda rid, card: heard.append((rid, card.code)))
    rid = runtime.request_confirmation(0, [Card.parse("5S"), Card.parse("6S")], [0.51, 0.47])
    events = runtime.confirm_card(rid, Card.parse("6S"))
    assert events and heard == [(rid, "6S")]
    assert "confirmation listener failed" in caplog.text
    with pytest.raises(ActionError, match="no pending confirmation"):
        runtime.confirm_card(rid, Card.parse("6S"))
    assert heard == [(rid, "6S")]
    again = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="veliki-satir")
    again.add_confirmation_listener(lambda rid, card: heard.append((rid, card.code)))
    assert again.deal.snapshot()["trick"]["plays"] == [[0, "6S"]]  # type: ignore[union-attr]
    assert heard == [(rid, "6S")]  # replaying the log tells no listener


def test_undoing_a_confirmed_play_tells_the_undo_listeners(tmp_path: Path) -> None:
    """Undo of a play a person confirmed names its request (so the camera forgets that answer);
    undo of any other play names none; the link survives a restart."""
    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="veliki-satir")
    runtime.start_deal(dealer=3)
    runtime.submit(Action(0, ActionType.CONTRACT, value="zatvoreno"))
    undone: list[str] = []
    runtime.add_undo_listener(undone.append)
    rid = runtime.request_confirmation(0, [Card.parse("5S"), Card.parse("6S")], [0.51, 0.47])
    runtime.confirm_card(rid, Card.parse("6S"))
    runtime.on_sighting(1, Card.parse("7S"))
    runtime.undo()  # the camera's own play
    assert undone == []
    again = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="veliki-satir")
    again.add_undo_listener(undone.append)
    assert undone == []  # replaying the log tells no listener
    again.undo()  # the confirmed 6S
    assert undone == [rid]
    assert again.deal.snapshot()["trick"]["plays"] == []  # type: ignore[union-attr]
    again.undo()  # the contract
    assert undone == [rid]


def test_an_action_listener_that_fails_leaves_the_action_recorded(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A listener (the synthetic table's players speaking) that fails is logged; the action
    it heard stays recorded, and submit answers with its events as for any accepted action."""
    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="veliki-satir")
    runtime.start_deal(dealer=3)
    heard: list[Action] = []

    def fails(action: Action) -> None:
        heard.append(action)
        raise ActionError("an offer out of turn")

    runtime.add_action_listener(fails)
    contract = Action(0, ActionType.CONTRACT, value="zatvoreno")
    events = runtime.submit(contract)
    assert heard == [contract] and events
    assert "action listener failed" in caplog.text
    runtime.remove_action_listener(fails)
    again = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="veliki-satir")
    assert again.deal.actions == [contract]  # type: ignore[union-attr]


def test_config_validation_names_the_key(tmp_path: Path) -> None:
    good = tmp_path / "t.toml"
    good.write_text('[table]\nid = "sto-3"\ngame = "mali-satir"\nnames = ["A", "B", "C", "D"]\n'
                    '[web]\nport = 8080\n')  # fmt: skip
    config = load_config(good)
    assert (config.table_id, config.game, config.web.port) == ("sto-3", "mali-satir", 8080)
    cases = {
        '[table]\ngame = "tarok"\n': "table.game: unknown game 'tarok'",
        '[table]\nnames = ["A"]\n': "table.names: veliki-satir needs 4",
        '[web]\nport = "x"\n': "web.port: expected int",
        '[camera]\nsource = "webcam"\n': "camera.source: 'webcam' is not one of",
        "[oops]\n": "unknown section(s) ['oops']",
        "[table\n": "malformed TOML",
    }
    for text, message in cases.items():
        bad = tmp_path / "bad.toml"
        bad.write_text(text)
        with pytest.raises(ConfigError) as info:
            load_config(bad)
        assert message in str(info.value)


def test_the_shipped_example_configuration_loads() -> None:
    """deploy/table.example.toml, which the README copies to /etc/kibic, is a valid table."""
    example = Path(__file__).resolve().parent.parent / "deploy" / "table.example.toml"
    config = load_config(example)
    assert (config.table_id, config.game, config.names) == (
        "sto-1", "ruzicka", ("Ana", "Bora", "Cica", "Dule"))  # fmt: skip
    assert (config.camera.source, config.camera.deck, config.lights.kind) == (
        "picamera2", "french-52", "gpio")  # fmt: skip
    assert config.storage == "/var/lib/kibic/sto-1.sqlite3"
    assert len(config.lights.pins["seats"]) == 4 and config.camera.corners[0] == (64.0, 36.0)


def test_the_screens_unit_opens_the_table_view_of_the_example_tables_port() -> None:
    """deploy/kibic-screen.service shows /table in a kiosk browser once the server answers:
    both on the port the example configuration serves."""
    deploy = Path(__file__).resolve().parent.parent / "deploy"
    port = load_config(deploy / "table.example.toml").web.port
    unit = (deploy / "kibic-screen.service").read_text()
    lines = dict(line.split("=", 1) for line in unit.splitlines() if line[:1].isalpha())
    assert lines["ExecStart"].split()[-1] == f"http://127.0.0.1:{port}/table"
    assert "--kiosk" in lines["ExecStart"].split()
    assert f"http://127.0.0.1:{port}/api/state" in lines["ExecStartPre"]
    assert lines["Restart"] == "always" and lines["WantedBy"] == "graphical-session.target"


def test_password_hash() -> None:
    stored = hash_password("tajna", rounds=1000)
    assert verify_password(stored, "tajna") and not verify_password(stored, "Tajna")
    assert not verify_password("garbage", "tajna")


def test_the_card_a_deck_profile_saw_outlives_a_restart(tmp_path: Path) -> None:
    """A request made because the deck profile disagreed keeps the profile's card in the
    journal: a runtime started again on the same store still shows it."""
    runtime = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="veliki-satir")
    runtime.start_deal(dealer=3)
    runtime.submit(Action(0, ActionType.CONTRACT, value="zatvoreno"))
    runtime.request_confirmation(0, [Card.parse("5S"), Card.parse("6S")], [0.99, 0.01],
                                 Card.parse("6S"))  # fmt: skip
    again = TableRuntime(EventStore(tmp_path / "t.sqlite3", "t"), game="veliki-satir")
    (pending,) = again.snapshot()["pending"]
    assert (pending["candidates"], pending["profile_card"]) == (["5S", "6S"], "6S")
