"""The event store's hash chain: a damaged or altered entry (one flipped bit in an adjustment)
is found naming its table and sequence number, never replayed; ``kibic store check`` lists it,
``kibic store salvage`` keeps the good prefix, and ``kibic run`` refuses to start on it."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from kibic.cli import main
from kibic.cli_store import EXIT_DAMAGED
from kibic.runtime import TableRuntime
from kibic.store import EventStore, StoreDamaged
from kibic.table import build_runtime
from referee.actions import Action, ActionType
from tests.test_web_support import known_hands, legal_play

NAMES = ["Ana", "Bora", "Ceca", "Duško"]
REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "deploy" / "table.example.toml"


def _store(path: Path, table: str = "sto-1", plays: int = 2) -> list[str]:
    """A table's log: game, deal, contract, ``plays`` plays, then a 10-point adjustment (the
    last entry, seq 4 + plays). Its entry ids."""
    runtime = TableRuntime(EventStore(path, table), table_id=table, names=NAMES)
    runtime.start_deal(hands=known_hands(), dealer=3)
    runtime.submit(Action(0, ActionType.CONTRACT, value="zatvoreno"))
    for _ in range(plays):
        runtime.submit(legal_play(runtime))
    runtime.adjust_score(runtime.game.sides[0], 10, "kazna")
    ids = [e.id for e in runtime.store.entries()]
    runtime.close()
    return ids


def _flip_adjustment(path: Path) -> None:
    """One bit of the file: the adjustment's ``10`` becomes ``90`` (0x31 ^ 0x08 = 0x39)."""
    data = bytearray(path.read_bytes())
    at = data.index(b'"units": 10')
    assert data.count(b'"units": 10') == 1
    data[at + len(b'"units": ')] ^= 0x08
    path.write_bytes(bytes(data))
    assert b'"units": 90' in path.read_bytes()


def test_a_flipped_bit_in_an_adjustment_is_found_with_its_sequence_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kibic.sqlite"
    _store(path)
    _flip_adjustment(path)
    with pytest.raises(StoreDamaged) as found:
        TableRuntime(EventStore(path, "sto-1"), table_id="sto-1")
    assert found.value.damage[0].seq == 6 and found.value.damage[0].table == "sto-1"
    assert "table 'sto-1', entry 6: its content does not match its checksum" in str(found.value)
    assert main(["replay", str(path)]) == 2  # reading refuses it too
    assert "entry 6" in capsys.readouterr().err
    assert main(["store", "check", str(path)]) == EXIT_DAMAGED
    out, err = capsys.readouterr()
    assert "table 'sto-1': 6 entries, damaged from entry 6" in out
    assert "kibic: damaged: table 'sto-1', entry 6: its content does not match" in err
    assert "kibic store salvage" in err


def test_an_altered_entry_and_a_lost_tail_are_found(tmp_path: Path) -> None:
    path = tmp_path / "kibic.sqlite"
    _store(path, plays=3)
    with sqlite3.connect(path) as db:  # a hand edit, keeping the file well-formed
        db.execute("UPDATE events SET payload=replace(payload, 'kazna', 'bonus') WHERE seq=7")
    db.close()
    with pytest.raises(StoreDamaged, match="entry 7: its content does not match"):
        EventStore(path, "sto-1").entries()
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM events WHERE seq=7")  # the last entry, removed
    db.close()
    with pytest.raises(StoreDamaged, match="entry 7: the log ends early"):
        EventStore(path, "sto-1").entries()
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM events WHERE seq=3")  # one in the middle
    db.close()
    with pytest.raises(StoreDamaged, match="entry 3 is missing"):
        EventStore(path, "sto-1").entries()


def test_check_passes_a_sound_store_and_appends_go_on_chaining(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kibic.sqlite"
    _store(path, "sto-1")
    _store(path, "sto-2", plays=1)
    runtime = TableRuntime(EventStore(path, "sto-1"), table_id="sto-1")
    runtime.submit(legal_play(runtime))  # after the replay, on the same chain
    runtime.close()
    assert main(["store", "check", str(path)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "table 'sto-1': 7 entries, ok",
        "table 'sto-2': 5 entries, ok",
    ]
    assert main(["store", "check", str(path), "--table", "sto-2"]) == 0
    assert capsys.readouterr().out == "table 'sto-2': 5 entries, ok\n"


def test_salvage_keeps_the_prefix_before_the_first_bad_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kibic.sqlite"
    ids = _store(path, plays=4)  # 8 entries; the adjustment is entry 8
    other = _store(path, "sto-2", plays=1)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE events SET ts=ts+1 WHERE table_id='sto-1' AND seq=5")
    db.close()
    out = tmp_path / "saved.sqlite"
    assert main(["store", "salvage", str(path), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "table 'sto-1': kept 4 entries, dropped 4 (first bad: table 'sto-1', entry 5:" in printed
    assert "table 'sto-2': kept 5 entries, dropped 0\n" in printed
    assert f"wrote {out}: kept 9 entries, dropped 4" in printed
    saved = EventStore(out, "sto-1")
    assert [e.id for e in saved.entries()] == ids[:4]
    saved.table_id = "sto-2"
    assert [e.id for e in saved.entries()] == other
    saved.close()
    runtime = TableRuntime(EventStore(out, "sto-1"), table_id="sto-1")  # replays and goes on
    runtime.submit(legal_play(runtime))
    assert runtime.seq == 5
    runtime.close()
    assert main(["store", "check", str(out)]) == 0
    assert main(["store", "salvage", str(path), "--out", str(out)]) == 2  # never overwrites
    assert "exists" in capsys.readouterr().err


def _config(tmp_path: Path, storage: Path) -> Path:
    text = EXAMPLE.read_text(encoding="utf-8")
    for old, new in (('source = "picamera2"', 'source = "none"'), ('kind = "gpio"', 'kind = "none"'),
                     ("/var/lib/kibic/sto-1.sqlite3", str(storage))):  # fmt: skip
        text = text.replace(old, new)
    config = tmp_path / "table.toml"
    config.write_text(text, encoding="utf-8")
    return config


@pytest.mark.parametrize("kind", ["flipped-bit", "empty", "foreign", "not-sqlite"])
def test_run_refuses_a_damaged_empty_or_foreign_store(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    storage = tmp_path / "sto-1.sqlite3"
    if kind == "flipped-bit":
        _store(storage)
        _flip_adjustment(storage)
    elif kind == "empty":
        storage.write_bytes(b"")
    elif kind == "foreign":
        with sqlite3.connect(storage) as db:
            db.execute("CREATE TABLE notes (x TEXT)")
        db.close()
    else:
        storage.write_bytes(b"players: Ana, Bora\n" * 200)
    before = storage.read_bytes()
    assert main(["run", str(_config(tmp_path, storage))]) == EXIT_DAMAGED
    err = capsys.readouterr().err
    refusal = next(line for line in err.splitlines() if "kibic: refusing to start: " in line)
    assert str(storage) in refusal
    said = {
        "flipped-bit": "is damaged: table 'sto-1', entry 6: its content does not match",
        "empty": "is not a Kibic event store (the file is empty: 0 bytes)",
        "foreign": "is not a Kibic event store (it has no events table)",
        "not-sqlite": "is not a Kibic event store (SQLite: file is not a database)",
    }[kind]
    assert said in refusal
    assert f"kibic store salvage {storage} --out" in err
    assert storage.read_bytes() == before


def test_a_missing_store_is_still_a_new_table(tmp_path: Path) -> None:
    from kibic.config import load_config

    storage = tmp_path / "new" / "sto-1.sqlite3"
    runtime = build_runtime(load_config(_config(tmp_path, storage)))
    assert [e.kind for e in runtime.store.entries()] == ["game_started"]
    runtime.close()
    runtime = build_runtime(load_config(_config(tmp_path, storage)))  # and reopens as it was
    assert runtime.seq == 1
    runtime.close()


def test_the_systemd_unit_does_not_restart_a_damaged_store() -> None:
    unit = (REPO / "deploy" / "kibic.service").read_text(encoding="utf-8")
    assert f"RestartPreventExitStatus={EXIT_DAMAGED}" in unit.splitlines()


def test_an_older_store_without_checksums_is_migrated_on_open(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kibic.sqlite"
    _store(path)
    with sqlite3.connect(path) as db:
        written = [r[0] for r in db.execute("SELECT hash FROM events ORDER BY seq")]
        db.execute("DROP TABLE chain_heads")
        db.execute("ALTER TABLE events DROP COLUMN hash")  # as stores were written before
    db.close()
    assert main(["replay", str(path)]) == 0  # read-only: read as it is, nothing written
    assert main(["store", "check", str(path)]) == 0
    assert "has no checksums yet" in capsys.readouterr().out
    with caplog.at_level(logging.WARNING, logger="kibic.store"):
        runtime = TableRuntime(EventStore(path, "sto-1"), table_id="sto-1")
    assert "had no checksums: added the hash chain to its 6 entries (1 tables)" in caplog.text
    assert runtime.seq == 6
    runtime.close()
    with sqlite3.connect(path) as db:
        assert [r[0] for r in db.execute("SELECT hash FROM events ORDER BY seq")] == written
    db.close()
    _flip_adjustment(path)  # and from now on damage is found
    with pytest.raises(StoreDamaged, match="entry 6"):
        EventStore(path, "sto-1").entries()


def test_random_single_byte_damage_is_refused_or_harmless_never_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import random

    from kibic.store_repair import check_store

    path = tmp_path / "kibic.sqlite"
    _store(path, plays=6)
    original = path.read_bytes()
    truth = TableRuntime(EventStore(path, "sto-1", readonly=True), table_id="sto-1")
    digest = truth.state_digest()
    truth.close()
    rng = random.Random(36)
    outcomes = {"refused": 0, "harmless": 0}
    damaged = tmp_path / "damaged.sqlite"
    for _ in range(120):
        data = bytearray(original)
        at = rng.randrange(len(data))
        data[at] ^= rng.randrange(1, 256)
        damaged.write_bytes(bytes(data))
        code = main(["store", "check", str(damaged), "--table", "sto-1"])
        assert code in (0, 2, EXIT_DAMAGED), at
        if code == 0 and not check_store(str(damaged), "sto-1").damage:
            runtime = TableRuntime(EventStore(damaged, "sto-1", readonly=True), table_id="sto-1")
            assert runtime.state_digest() == digest, f"byte {at} replayed silently"
            runtime.close()
            outcomes["harmless"] += 1
        else:
            outcomes["refused"] += 1
    capsys.readouterr()
    assert outcomes["refused"] >= 20 and outcomes["harmless"] >= 20  # both kinds were tried


def test_demo_refuses_a_damaged_store(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "demo.sqlite"
    path.write_bytes(b"")
    assert main(["demo", "--headless", "--fast", "--no-vision", "--store", str(path)]) == 65
    assert "is not a Kibic event store (the file is empty: 0 bytes)" in capsys.readouterr().err
    assert path.read_bytes() == b""


def test_check_lists_each_damaged_entry_and_not_the_sound_ones_after_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kibic.sqlite"
    _store(path, plays=6)  # 10 entries
    with sqlite3.connect(path) as db:
        db.execute("UPDATE events SET payload=replace(payload, 'kazna', 'bonus') WHERE seq=10")
        db.execute(  # its checksum, one digit changed
            "UPDATE events SET hash=(CASE WHEN substr(hash, 1, 1)='0' THEN '1' ELSE '0' END)"
            " || substr(hash, 2) WHERE seq=3"
        )
        db.execute("UPDATE events SET ts=ts+0.5 WHERE seq=7")
    db.close()
    assert main(["store", "check", str(path)]) == EXIT_DAMAGED
    out, err = capsys.readouterr()
    damaged = [line for line in err.splitlines() if line.startswith("kibic: damaged:")]
    assert [line.split(", entry ")[1].split(":")[0] for line in damaged] == ["3", "7", "10"]
    assert "table 'sto-1': 10 entries, damaged from entry 3" in out


def test_a_new_store_is_put_in_place_whole(tmp_path: Path) -> None:
    path = tmp_path / "kibic.sqlite"
    Path(f"{path}.creating").write_bytes(b"half of a file left by a crash")
    store = EventStore(path, "sto-1")
    assert store.entries() == [] and store.tables() == []
    store.close()
    assert sorted(p.name for p in tmp_path.iterdir() if "creating" in p.name) == []
    with sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True) as db:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    db.close()
    assert {"events", "chain_heads"} <= names


def test_a_reader_beside_a_writer_never_sees_damage(tmp_path: Path) -> None:
    """Another process's reader (the forwarder, ``kibic export``) while the table writes: the
    head it reads first may lag the rows, never lead them."""
    import threading

    from kibic.store import LogEntry

    path = tmp_path / "kibic.sqlite"
    writer = EventStore(path, "sto-1")
    reader = EventStore(path, "sto-1")
    done = threading.Event()
    seen: list[int] = []
    errors: list[str] = []

    def read() -> None:
        while not done.is_set():
            try:
                seen.append(len(reader.entries()))
            except StoreDamaged as exc:
                errors.append(str(exc))

    thread = threading.Thread(target=read)
    thread.start()
    try:
        for n in range(300):
            writer.append(LogEntry(f"e{n}", "note", {"n": n}))
    finally:
        done.set()
        thread.join()
    assert errors == []
    assert len(reader.entries()) == 300 and seen == sorted(seen) and len(seen) > 10
    writer.close()
    reader.close()


def test_run_refuses_an_entry_with_a_sound_checksum_that_does_not_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Written by hand or by a version of Kibic whose rules differ: a play out of turn, its
    checksum sound. The runtime names it; `kibic run` refuses to start (no traceback, no loop)."""
    from kibic.store import LogEntry, StoreUnreplayable

    storage = tmp_path / "sto-1.sqlite3"
    _store(storage)
    store = EventStore(storage, "sto-1")
    due = legal_play(TableRuntime(store, table_id="sto-1"))
    assert due.card is not None
    out_of_turn = Action.play((due.seat + 1) % 4, due.card)
    stored = store.append(LogEntry("by-hand", "action", {"action": out_of_turn.to_dict()}))
    assert stored is not None
    store.close()
    with pytest.raises(StoreUnreplayable, match=rf"entry {stored.seq}: action does not replay"):
        TableRuntime(EventStore(storage, "sto-1"), table_id="sto-1")
    assert main(["run", str(_config(tmp_path, storage))]) == EXIT_DAMAGED
    err = capsys.readouterr().err
    assert f"entry {stored.seq}: action does not replay" in err and "Traceback" not in err
