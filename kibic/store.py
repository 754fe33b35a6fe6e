"""The table's event store: SQLite in WAL mode, one append-only log per table.

Each entry has a unique id, so a write repeated after a crash is stored once (idempotent).
An entry is committed (fsync'd by SQLite with ``synchronous=FULL``) before the runtime acts on
it, so a power cut loses at most the entry being written.

Each entry carries a checksum chained to the one before it (``kibic.store_chain``), and each
table's last checksum is kept in ``chain_heads``: reading a table's log checks the chain, so a
damaged or altered entry, a missing one or a lost tail is refused (``StoreDamaged``) naming the
table and the entry, never replayed. A store written before the chain gets it on first opening.

The camera's crops (the card image each reading was made from, a few kB of JPEG) are kept
beside the log in ``crops``, named by their content's SHA-256 (``crop_id``): an entry names its
crop, so the chain covers which picture it was, and a crop whose bytes no longer match its name
is never served. The table is made with the first crop: a store without it (older, or from a
table without a camera) simply has no crops.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from kibic.store_chain import (
    DAMAGE_ERRORS,
    GENESIS,
    Damage,
    chain_of,
    content_fields,
    entry_hash,
    head_damage,
    lenient_text,
    read_head,
    read_rows,
    verify_rows,
)

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    id TEXT NOT NULL,
    kind TEXT NOT NULL,
    payload TEXT NOT NULL,
    ts REAL NOT NULL,
    hash TEXT,
    PRIMARY KEY (table_id, seq),
    UNIQUE (table_id, id)
);
"""
CROPS = """
CREATE TABLE IF NOT EXISTS crops (
    table_id TEXT NOT NULL,
    id TEXT NOT NULL,
    mime TEXT NOT NULL,
    data BLOB NOT NULL,
    ts REAL NOT NULL,
    PRIMARY KEY (table_id, id)
)
"""
#: the largest crop kept (a card crop is a few kB; anything this big is no crop)
CROP_MAX_BYTES = 256 * 1024
HEADS = """
CREATE TABLE IF NOT EXISTS chain_heads (
    table_id TEXT PRIMARY KEY,
    seq INTEGER NOT NULL,
    hash TEXT NOT NULL
)
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
    """The event store could not be opened or written (the dashboard answers ``http_status``)."""

    http_status: ClassVar[int] = 503


class StoreDamaged(StoreError):
    """The event store holds damaged or altered entries (or is no Kibic store): nothing in it is
    replayed past the first damage. ``damage``: what was found, first first."""

    def __init__(self, path: str, damage: list[Damage]) -> None:
        self.path = path
        self.damage = damage
        super().__init__(f"the event store {path} is damaged: {damage[0]}")


class StoreUnreplayable(StoreDamaged):
    """An entry whose checksum holds but which the referee does not accept (written by hand, or
    by a version of Kibic whose rules differ): nothing is replayed past it."""

    def __init__(self, path: str, table: str, seq: int, kind: str, reason: str) -> None:
        super().__init__(path, [Damage(table, seq, f"{kind} does not replay: {reason}")])


class NotAStore(StoreDamaged):
    """The file exists but is no Kibic event store (empty, another program's, not SQLite)."""

    def __init__(self, path: str, why: str) -> None:
        super().__init__(path, [Damage("", 0, why)])
        self.args = (f"{path} is not a Kibic event store ({why})",)

    def __str__(self) -> str:
        return str(self.args[0])


class StoreFull(StoreError):
    """The disk (or SQLite's page limit) is full: the entry was not written."""

    http_status: ClassVar[int] = 507  # Insufficient Storage


def _create(path: str) -> None:
    """A new store file with its tables, put in place whole (written beside it, then renamed):
    a crash while creating leaves no file, never one without the tables."""
    part = Path(f"{path}.creating")
    part.unlink(missing_ok=True)
    db = sqlite3.connect(part)
    try:
        db.executescript(f"BEGIN;{SCHEMA}{HEADS};COMMIT;")
    finally:
        db.close()
    with part.open("rb") as file:
        os.fsync(file.fileno())
    os.replace(part, path)
    folder = os.open(Path(path).parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


class EventStore:
    """One table's log in a SQLite file. ``readonly=True`` opens an existing file for reading
    only (SQLite's ``mode=ro``): nothing is created or written, and ``append`` is refused.

    A file that exists but is no Kibic store (empty, another program's SQLite file, not SQLite
    at all) is refused naming it, never taken for a new table; a missing file is a new table."""

    def __init__(self, path: str | Path, table_id: str, *, readonly: bool = False) -> None:
        self.path = str(path)
        self.table_id = table_id
        self.readonly = readonly
        self._chained = True
        self._crops_made = False  # the crops table is made with the first crop
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
                self._db.text_factory = lenient_text
                self._check_schema()
                self._chained = self._has_chain()
                return
            new = self.path == ":memory:" or not Path(self.path).exists()
            if new and self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            elif not new and Path(self.path).stat().st_size == 0:
                raise NotAStore(self.path, "the file is empty: 0 bytes")
            if new and self.path != ":memory:":
                _create(self.path)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.text_factory = lenient_text
            if self.path == ":memory:":
                self._db.executescript(f"{SCHEMA}{HEADS};")
            else:
                self._check_schema()
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            if not new:
                self._migrate()
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            raise StoreError(f"cannot open the event store {self.path}: {exc}") from None

    def _check_schema(self) -> None:
        try:
            row = self._db.execute(
                "SELECT 1 FROM sqlite_master WHERE type='table' AND name='events'"
            ).fetchone()
        except DAMAGE_ERRORS as exc:
            self._db.close()
            raise NotAStore(self.path, f"SQLite: {exc}") from None
        if row is None:
            self._db.close()
            raise NotAStore(self.path, "it has no events table")

    def _has_chain(self) -> bool:
        columns = {r[1] for r in self._db.execute("PRAGMA table_info(events)")}
        heads = self._db.execute(
            "SELECT 1 FROM sqlite_master WHERE type='table' AND name='chain_heads'"
        ).fetchone()
        return "hash" in columns and heads is not None

    def _migrate(self) -> None:
        """Add the hash chain to a store written before it: checksums for what is there."""
        if self._has_chain():
            return
        self._db.execute("BEGIN IMMEDIATE")
        try:
            columns = {r[1] for r in self._db.execute("PRAGMA table_info(events)")}
            if "hash" not in columns:
                self._db.execute("ALTER TABLE events ADD COLUMN hash TEXT")
            self._db.execute(HEADS)
            tables = [r[0] for r in self._db.execute("SELECT DISTINCT table_id FROM events")]
            count = 0
            for table in tables:
                rows, stopped = read_rows(self._db, table, with_hash=False)
                if stopped:
                    raise StoreDamaged(self.path, [Damage(table, 0, stopped)])
                chained = chain_of(table, rows)
                self._db.executemany(
                    "UPDATE events SET hash=? WHERE table_id=? AND seq=?",
                    [(digest, table, seq) for seq, digest in chained],
                )
                if chained:
                    self._db.execute(
                        "INSERT OR REPLACE INTO chain_heads VALUES (?,?,?)", (table, *chained[-1])
                    )
                count += len(chained)
            self._db.execute("COMMIT")
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        log.warning(
            "event store %s had no checksums: added the hash chain to its %d entries (%d tables);"
            " what was there is trusted as it was",
            self.path, count, len(tables),
        )  # fmt: skip

    def tables(self) -> list[str]:
        """The ids of every table with entries in this store, sorted."""
        try:
            rows = self._db.execute("SELECT DISTINCT table_id FROM events ORDER BY table_id")
            return [r[0] for r in rows.fetchall()]
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            raise StoreError(f"cannot read the event store {self.path}: {exc}") from None

    def append(self, entry: LogEntry) -> LogEntry | None:
        """Store ``entry`` with the next sequence number; None if its id is already stored."""
        if self.readonly:
            raise StoreError(f"the event store {self.path} is open for reading only")
        ts = float(entry.ts or time.time())
        try:
            self._db.execute("BEGIN IMMEDIATE")
            row = self._db.execute(
                "SELECT 1 FROM events WHERE table_id=? AND id=?", (self.table_id, entry.id)
            ).fetchone()
            if row is not None:
                self._db.execute("ROLLBACK")
                return None
            last, previous = self._db.execute(
                "SELECT seq, hash FROM events WHERE table_id=? ORDER BY seq DESC LIMIT 1",
                (self.table_id,),
            ).fetchone() or (0, GENESIS)
            stored = LogEntry(entry.id, entry.kind, entry.payload, last + 1, ts)
            payload = json.dumps(stored.payload, ensure_ascii=False, sort_keys=True)
            digest = entry_hash(
                previous, self.table_id, stored.seq,
                content_fields(stored.id, stored.kind, payload, ts),
            )  # fmt: skip
            self._db.execute(
                "INSERT INTO events (table_id, seq, id, kind, payload, ts, hash)"
                " VALUES (?,?,?,?,?,?,?)",
                (self.table_id, stored.seq, stored.id, stored.kind, payload, ts, digest),
            )
            self._db.execute(
                "INSERT OR REPLACE INTO chain_heads VALUES (?,?,?)",
                (self.table_id, stored.seq, digest),
            )
            self._db.execute("COMMIT")
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            if getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "is full" in str(
                exc
            ):
                raise StoreFull(
                    f"disk full: the last input was not recorded ({self.path}: {exc})"
                ) from None
            raise StoreError(f"cannot write to the event store {self.path}: {exc}") from None
        return stored

    def has(self, entry_id: str) -> bool:
        row = self._db.execute(
            "SELECT 1 FROM events WHERE table_id=? AND id=?", (self.table_id, entry_id)
        ).fetchone()
        return row is not None

    def entries(self, *, after: int = 0) -> list[LogEntry]:
        """The table's entries after sequence number ``after``, each checked against the chain
        (from the first entry and against the table's head when ``after`` is 0; else from the
        entry ``after``). Raises ``StoreDamaged`` naming the first bad entry."""
        head = read_head(self._db, self.table_id) if self._chained and not after else None
        rows, stopped = read_rows(self._db, self.table_id, after=after,
                                  with_hash=self._chained)  # fmt: skip
        anchor = GENESIS
        if after and rows and rows[0].seq == after:
            anchor = rows[0].hash or GENESIS
            rows = rows[1:]
        damage: list[Damage] = []
        if self._chained:
            damage = verify_rows(self.table_id, rows, start=after + 1, previous=anchor,
                                 every=False)  # fmt: skip
            if not damage and not after:
                damage = head_damage(self.table_id, head, rows)
        if not damage and stopped:
            damage = [Damage(self.table_id, (rows[-1].seq + 1) if rows else 1, stopped)]
        if damage:
            raise StoreDamaged(self.path, damage[:1])
        try:
            return [
                LogEntry(r.text(0), r.text(1), json.loads(r.text(2)), r.seq, float(r.ts))
                for r in rows
            ]
        except (UnicodeDecodeError, ValueError, TypeError) as exc:  # an unchained older store
            raise StoreDamaged(
                self.path, [Damage(self.table_id, 0, f"unreadable ({exc})")]
            ) from None

    def put_crop(self, data: bytes, *, mime: str = "image/jpeg") -> str:
        """Keep a crop (image bytes) for this table; its id (the same bytes, the same id)."""
        if self.readonly:
            raise StoreError(f"the event store {self.path} is open for reading only")
        if not data or len(data) > CROP_MAX_BYTES:
            raise ValueError(f"a crop is 1 to {CROP_MAX_BYTES} bytes, not {len(data)}")
        crop = crop_id(data)
        try:
            if not self._crops_made:
                self._db.execute(CROPS)
                self._crops_made = True
            self._db.execute(
                "INSERT OR IGNORE INTO crops (table_id, id, mime, data, ts) VALUES (?,?,?,?,?)",
                (self.table_id, crop, mime, data, time.time()),
            )
        except sqlite3.Error as exc:
            if getattr(exc, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL:
                raise StoreFull(f"disk full: the crop was not kept ({self.path}: {exc})") from None
            raise StoreError(f"cannot write to the event store {self.path}: {exc}") from None
        return crop

    def crop(self, crop: str) -> tuple[bytes, str] | None:
        """The crop ``crop`` of this table as (bytes, MIME type); None when there is none, or
        when its bytes no longer match its id (damaged: never shown as the camera's picture)."""
        try:
            row = self._db.execute(
                "SELECT data, mime FROM crops WHERE table_id=? AND id=?", (self.table_id, crop)
            ).fetchone()
        except sqlite3.OperationalError:  # an older store opened read-only: no crops table
            return None
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read the event store {self.path}: {exc}") from None
        if row is None or not isinstance(row[0], bytes) or crop_id(row[0]) != crop:
            if row is not None:
                log.warning("crop %s of table %s is damaged: not served", crop, self.table_id)
            return None
        return row[0], str(row[1])

    def close(self) -> None:
        self._db.close()


def crop_id(data: bytes) -> str:
    """A crop's id: the start of its SHA-256 (the name an entry gives it).

    >>> crop_id(b"kibic")
    '4cbe7a032137ceedc3fdfddd'
    """
    return hashlib.sha256(data).hexdigest()[:24]
