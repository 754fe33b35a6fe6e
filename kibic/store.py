"""The table's event store: SQLite in WAL mode, one append-only log per table.

Each entry has a unique id, so a write repeated after a crash is stored once (idempotent).
An entry is committed (fsync'd by SQLite with ``synchronous=FULL``) before the runtime acts on
it, so a power cut loses at most the entry being written.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    id TEXT NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    ts REAL NOT NULL,
    PRIMARY KEY (table_id, seq),
    UNIQUE (table_id, id)
);
"""


@dataclass(frozen=True)
class LogEntry:
    id: str
    kind: str
    payload: dict[str, Any]
    seq: int = 0
    ts: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "seq": self.seq,
            "kind": self.kind,
            "payload": self.payload,
            "ts": self.ts,
        }


class StoreError(RuntimeError):
    """The event store could not be opened or written."""


class EventStore:
    """One table's log in a SQLite file. ``readonly=True`` opens an existing file for reading
    only (SQLite's ``mode=ro``): nothing is created or written, and ``append`` is refused."""

    def __init__(self, path: str | Path, table_id: str, *, readonly: bool = False) -> None:
        self.path = str(path)
        self.table_id = table_id
        self.readonly = readonly
        try:
            if readonly:
                if self.path == ":memory:" or not Path(self.path).is_file():
                    raise StoreError(f"no event store at {self.path}")
                # no -wal beside the file: no writer holds it, so read it as immutable and
                # leave no -wal/-shm behind; with a writer running, share its -shm read-only
                quiet = not Path(f"{self.path}-wal").exists()
                uri = f"{Path(self.path).resolve().as_uri()}?mode=ro" + (
                    "&immutable=1" if quiet else ""
                )
                self._db = sqlite3.connect(uri, uri=True, check_same_thread=False)
                self._check_schema()
                return
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the event store {self.path}: {exc}") from None

    def _check_schema(self) -> None:
        row = self._db.execute(
            "SELECT 1 FROM sqlite_master WHERE type='table' AND name='events'"
        ).fetchone()
        if row is None:
            self._db.close()
            raise StoreError(f"{self.path} is not a Kibic event store (it has no events table)")

    def tables(self) -> list[str]:
        """The ids of every table with entries in this store, sorted."""
        try:
            rows = self._db.execute("SELECT DISTINCT table_id FROM events ORDER BY table_id")
            return [r[0] for r in rows.fetchall()]
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read the event store {self.path}: {exc}") from None

    def append(self, entry: LogEntry) -> LogEntry | None:
        """Store ``entry`` with the next sequence number; None if its id is already stored."""
        if self.readonly:
            raise StoreError(f"the event store {self.path} is open for reading only")
        ts = entry.ts or time.time()
        try:
            self._db.execute("BEGIN IMMEDIATE")
            row = self._db.execute(
                "SELECT 1 FROM events WHERE table_id=? AND id=?", (self.table_id, entry.id)
            ).fetchone()
            if row is not None:
                self._db.execute("ROLLBACK")
                return None
            (last,) = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) FROM events WHERE table_id=?", (self.table_id,)
            ).fetchone()
            stored = LogEntry(entry.id, entry.kind, entry.payload, last + 1, ts)
            self._db.execute(
                "INSERT INTO events (table_id, seq, id, kind, payload, ts) VALUES (?,?,?,?,?,?)",
                (self.table_id, stored.seq, stored.id, stored.kind,
                 json.dumps(stored.payload, ensure_ascii=False, sort_keys=True), ts),
            )  # fmt: skip
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise StoreError(f"cannot write to the event store {self.path}: {exc}") from None
        return stored

    def has(self, entry_id: str) -> bool:
        row = self._db.execute(
            "SELECT 1 FROM events WHERE table_id=? AND id=?", (self.table_id, entry_id)
        ).fetchone()
        return row is not None

    def entries(self, *, after: int = 0) -> list[LogEntry]:
        rows = self._db.execute(
            "SELECT id, kind, payload, seq, ts FROM events WHERE table_id=? AND seq>? ORDER BY seq",
            (self.table_id, after),
        ).fetchall()
        return [LogEntry(r[0], r[1], json.loads(r[2]), r[3], r[4]) for r in rows]

    def close(self) -> None:
        self._db.close()
