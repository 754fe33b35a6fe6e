"""Reading commands never write: ``kibic replay`` and ``kibic export`` open the event store
read-only and, when ``--table`` names no table in it, exit 2 listing the tables it holds."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pytest

from kibic.cli import main
from kibic.runtime import TableRuntime
from kibic.store import EventStore, LogEntry, StoreError
from referee.actions import Action, ActionType
from tests.test_web_support import known_hands, legal_play

NAMES = ["Ana", "Bora", "Ceca", "Duško"]


def _table(path: Path, table: str) -> TableRuntime:
    runtime = TableRuntime(EventStore(path, table), table_id=table, names=NAMES)
    runtime.start_deal(hands=known_hands(), dealer=3)
    runtime.submit(Action(0, ActionType.CONTRACT, value="zatvoreno"))
    runtime.submit(legal_play(runtime))
    return runtime


def _recorded_store(folder: Path, tables: tuple[str, ...] = ("sto-3",)) -> Path:
    path = folder / "kibic.sqlite"
    for table in tables:
        _table(path, table).close()
    return path


def _fingerprint(path: Path) -> tuple[list[tuple[str, str, int]], int]:
    """Every file of the store's folder (name, sha256, mtime) and the store's row count."""
    files = [
        (p.name, hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mtime_ns)
        for p in sorted(path.parent.iterdir())
    ]
    with sqlite3.connect(f"{path.as_uri()}?mode=ro&immutable=1", uri=True) as db:
        (rows,) = db.execute("SELECT COUNT(*) FROM events").fetchone()
    return files, rows


@pytest.mark.parametrize("command", ["replay", "export"])
def test_a_missing_table_exits_2_listing_the_tables_and_writes_nothing(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _recorded_store(tmp_path, ("sto-3", "sto-4"))
    before = _fingerprint(path)
    assert before[1] == 2 * 4  # game_started, deal_started, contract, play per table
    assert main([command, str(path), "--table", "sto-9"]) == 2
    err = capsys.readouterr().err
    assert "no table 'sto-9' in it; the store holds the tables: 'sto-3', 'sto-4'" in err
    assert main([command, str(path)]) == 2  # two tables: which one?
    assert "name one with --table; the store holds the tables: 'sto-3', 'sto-4'" in (
        capsys.readouterr().err
    )
    assert _fingerprint(path) == before


def test_replay_and_export_read_the_only_table_without_writing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _recorded_store(tmp_path)
    before = _fingerprint(path)
    assert main(["replay", str(path)]) == 0
    digest = json.loads(capsys.readouterr().out)
    assert digest["deal"]["trick"]["plays"][0][0] == 0  # the one card played
    assert main(["export", str(path), "--table", "sto-3"]) == 0
    transcript = json.loads(capsys.readouterr().out)
    assert transcript["game"] == "veliki-satir"
    assert transcript["deals"][0]["events"][0] == {
        "seat": 0,
        "type": "contract",
        "value": "zatvoreno",
    }
    assert _fingerprint(path) == before


def test_a_read_only_store_refuses_to_append(tmp_path: Path) -> None:
    path = _recorded_store(tmp_path)
    store = EventStore(path, "sto-3", readonly=True)
    try:
        assert store.tables() == ["sto-3"]
        assert len(store.entries()) == 4
        with pytest.raises(StoreError, match="open for reading only"):
            store.append(LogEntry("x", "note", {}))
    finally:
        store.close()


@pytest.mark.parametrize(
    ("content", "said"),
    [(b"", "is not a Kibic event store"), (None, "is not a Kibic event store")],
    ids=["empty-file", "foreign-sqlite"],
)
def test_a_file_that_is_no_store_exits_2(
    content: bytes | None, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "other.sqlite"
    if content is None:
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE notes (x TEXT)")
        db.close()
    else:
        path.write_bytes(content)
    before = path.read_bytes()
    assert main(["replay", str(path), "--table", "sto-1"]) == 2
    assert said in capsys.readouterr().err
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.sqlite"]


def test_no_store_at_the_path_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", str(tmp_path / "none.sqlite")]) == 2
    assert "no event store at" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_export_reads_a_store_while_the_table_writes_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "kibic.sqlite"
    runtime = _table(path, "sto-5")  # still open: its -wal holds the latest entries
    try:
        runtime.submit(legal_play(runtime))
        assert main(["export", str(path)]) == 0
        events = json.loads(capsys.readouterr().out)["deals"][0]["events"]
        assert [e["type"] for e in events] == ["contract", "play", "play"]
        runtime.submit(legal_play(runtime))  # the table goes on writing
        assert len(runtime.store.entries()) == 6
    finally:
        runtime.close()
