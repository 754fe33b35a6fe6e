"""The club's storage: table keys, the forwarded event logs, the player register, tournaments.

Forwarding is idempotent by (table, event id) and ordered by the table's own ``seq``: a batch is
stored from ``stored_upto + 1`` on as far as it is contiguous; events the club already holds are
checked (same seq, same id) and skipped. The reply is always how far the club has stored, so a
table that lost a reply, was offline for hours or talked to a restarted server simply continues
from there.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine, func, insert, select, update

from club.schema import club_tables, events, players, refused_batches, tournaments
from kibic.store import LogEntry

TABLE_ID = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")
MAX_BATCH = 1000


class ClubError(Exception):
    """Base of the club server's errors."""


class UnknownTable(ClubError):
    """No key was issued for this table."""


class BadKey(ClubError):
    """The table's key does not match the one the club issued."""


class LogConflict(ClubError):
    """The table sent a different event at a seq the club already holds (its log was reset)."""

    def __init__(self, message: str, stored_upto: int) -> None:
        super().__init__(message)
        self.stored_upto = stored_upto


class BatchRefused(ClubError):
    """A batch holds an event the club cannot take (it does not replay, or a number in it is
    not finite); nothing of the batch was stored."""

    def __init__(self, seq: int, event_id: str, reason: str) -> None:
        super().__init__(f"event seq {seq} (id {event_id!r}) refused: {reason}")
        self.seq = seq
        self.event_id = event_id
        self.reason = reason
        #: the event's place in the batch as sent, and how far the club has stored
        self.index = -1
        self.stored_upto = 0

    def to_dict(self) -> dict[str, Any]:
        return {"error": str(self), "index": self.index, "seq": self.seq,
                "event_id": self.event_id, "reason": self.reason,
                "stored_upto": self.stored_upto}  # fmt: skip


@dataclass
class Refusals:
    """The batches a table sent that the club refused, and the last one's reason."""

    count: int = 0
    last: dict[str, Any] = field(default_factory=dict)


class RegisterError(ClubError):
    """A player or tournament entry is invalid or already exists."""


@dataclass(frozen=True)
class IncomingEvent:
    """One entry of a table's log as it arrives over the wire."""

    id: str
    seq: int
    kind: str
    payload: dict[str, Any]
    ts: float


@dataclass(frozen=True)
class IngestResult:
    stored_upto: int
    accepted: int


@dataclass(frozen=True)
class TableInfo:
    table_id: str
    stored_upto: int
    last_seen: float | None
    key_issued_at: float


@dataclass(frozen=True)
class Player:
    club_id: str
    name: str
    active: bool = True


@dataclass(frozen=True)
class Tournament:
    slug: str
    name: str
    starts_at: float
    ends_at: float | None
    tables: tuple[str, ...] = ()
    game: str | None = None

    def includes(self, *, table_id: str, started_ts: float, spec: str) -> bool:
        if started_ts < self.starts_at or (self.ends_at is not None and started_ts >= self.ends_at):
            return False
        if self.tables and table_id not in self.tables:
            return False
        return self.game is None or spec == self.game or spec.split("(")[0] == self.game


def non_finite(value: Any, path: str) -> str | None:
    """The path of the first NaN or infinity in a JSON value (``payload.hands.0``), or None."""
    if isinstance(value, float):
        return None if math.isfinite(value) else path
    if isinstance(value, dict):
        items: Iterable[tuple[Any, Any]] = value.items()
    elif isinstance(value, list | tuple):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        found = non_finite(item, f"{path}.{key}")
        if found is not None:
            return found
    return None


class StoredLog:
    """A table's stored log as the ingest's transaction sees it (up to ``upto``)."""

    def __init__(self, conn: Connection, table_id: str, upto: int) -> None:
        self._conn = conn
        self.table_id = table_id
        self.upto = upto

    def last_game_start(self) -> int | None:
        """The seq of the last stored ``game_started``, None before the first game."""
        found = self._conn.execute(
            select(func.max(events.c.seq)).where(
                events.c.table_id == self.table_id, events.c.kind == "game_started",
                events.c.seq <= self.upto)
        ).scalar_one()  # fmt: skip
        return None if found is None else int(found)

    def entries(self, *, after: int = 0) -> list[LogEntry]:
        return _entries(self._conn, self.table_id, after, upto=self.upto)


#: ``check(log, new)`` raises BatchRefused when ``new`` (the entries a batch would add to the
#: stored ``log``, in order) must not be stored
BatchCheck = Callable[[StoredLog, list[LogEntry]], None]


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def payload_text(payload: dict[str, Any]) -> str:
    """The payload as the table stores it (``kibic.store``), so equality is byte equality."""
    return json.dumps(payload, ensure_ascii=False, sort_keys=True)


class ClubStore:
    """All reads and writes of the club database (thread-safe; one per server process)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._sqlite = engine.dialect.name == "sqlite"
        # SQLite has one writer at a time anyway; serialising here avoids 'database is locked'
        self._write_lock = threading.Lock() if self._sqlite else None

    # -- table keys ----------------------------------------------------------------------------
    def issue_key(self, table_id: str) -> str:
        """A new forwarding key for ``table_id`` (replaces the old one); only its hash is kept."""
        if not TABLE_ID.match(table_id):
            raise UnknownTable(f"invalid table id {table_id!r} (letters, digits, _ . - only)")
        # hex: never begins with '-', which a command line would take for an option
        # (``kibic club forward --key -x...``), and safe in any shell or unit file
        key = secrets.token_hex(32)
        now = time.time()
        with self._writing(), self.engine.begin() as conn:
            found = conn.execute(
                select(club_tables.c.table_id).where(club_tables.c.table_id == table_id)
            ).first()
            if found is None:
                conn.execute(
                    insert(club_tables).values(
                        table_id=table_id, key_hash=hash_key(key), key_issued_at=now, stored_upto=0
                    )
                )
            else:
                conn.execute(
                    update(club_tables)
                    .where(club_tables.c.table_id == table_id)
                    .values(key_hash=hash_key(key), key_issued_at=now)
                )
        return key

    def _check_key(self, row: Any, table_id: str, key: str) -> None:
        if row is None:
            raise UnknownTable(f"no key was issued for table {table_id!r}")
        if not hmac.compare_digest(row.key_hash, hash_key(key)):
            raise BadKey(f"wrong key for table {table_id!r}")

    def cursor(self, table_id: str, key: str) -> int:
        """How far the club has stored ``table_id``'s log (checks the key)."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(club_tables.c.key_hash, club_tables.c.stored_upto).where(
                    club_tables.c.table_id == table_id
                )
            ).first()
        self._check_key(row, table_id, key)
        assert row is not None
        return int(row.stored_upto)

    # -- forwarding ----------------------------------------------------------------------------
    def ingest(
        self, table_id: str, key: str, batch: Sequence[IncomingEvent],
        check: BatchCheck | None = None,
    ) -> IngestResult:  # fmt: skip
        """Store the contiguous new part of ``batch``; return how far the club has stored.

        Before anything is written, ``check`` sees the new part on the stored log (in the same
        transaction, the table's row locked): when it raises BatchRefused, nothing is stored.
        A NaN or infinity anywhere in an event is refused the same way."""
        ordered = sorted(batch, key=lambda e: e.seq)
        places = {id(e): i for i, e in enumerate(batch)}
        now = time.time()
        with self._writing(), self.engine.begin() as conn:
            row = conn.execute(
                select(club_tables.c.key_hash, club_tables.c.stored_upto)
                .where(club_tables.c.table_id == table_id)
                .with_for_update()
            ).first()
            self._check_key(row, table_id, key)
            assert row is not None
            upto = int(row.stored_upto)
            old = [e for e in ordered if e.seq <= upto]
            if old:
                held = dict(
                    conn.execute(
                        select(events.c.seq, events.c.event_id).where(
                            events.c.table_id == table_id,
                            events.c.seq.in_([e.seq for e in old]),
                        )
                    ).all()
                )
                for e in old:
                    if held.get(e.seq) != e.id:
                        raise LogConflict(
                            f"table {table_id!r} sent event {e.id!r} at seq {e.seq}, where the "
                            f"club holds {held.get(e.seq)!r}: the table's log was reset",
                            upto,
                        )
            new: list[dict[str, Any]] = []
            fresh: list[IncomingEvent] = []
            for e in ordered:
                if e.seq <= upto + len(new):
                    continue
                if e.seq != upto + len(new) + 1:
                    break  # a gap: keep what is contiguous, the table resends the rest
                new.append(
                    {"table_id": table_id, "seq": e.seq, "event_id": e.id, "kind": e.kind,
                     "payload": payload_text(e.payload), "ts": e.ts, "received_at": now}
                )  # fmt: skip
                fresh.append(e)
            try:
                for e in fresh:
                    _finite(e)
                if check is not None and fresh:
                    check(StoredLog(conn, table_id, upto),
                          [LogEntry(e.id, e.kind, e.payload, e.seq, e.ts) for e in fresh])  # fmt: skip
            except BatchRefused as exc:
                exc.index = next((places[id(e)] for e in fresh if e.seq == exc.seq), -1)
                exc.stored_upto = upto
                raise
            if new:
                conn.execute(insert(events), new)
            upto += len(new)
            conn.execute(
                update(club_tables)
                .where(club_tables.c.table_id == table_id)
                .values(stored_upto=upto, last_seen=now)
            )
        return IngestResult(upto, len(new))

    def record_refusal(self, table_id: str, refused: BatchRefused) -> None:
        """Keep a refused batch's reason (``refused.to_dict()``) for the status page."""
        row = {"table_id": table_id, "at": time.time(), "detail": json.dumps(refused.to_dict())}
        with self._writing(), self.engine.begin() as conn:
            conn.execute(insert(refused_batches), [row])

    def refusals(self) -> dict[str, Refusals]:
        """Per table: how many batches the club refused, and the last one's reason."""
        t = refused_batches.c
        per_table = select(t.table_id, func.count().label("n"), func.max(t.id).label("last"))
        with self.engine.connect() as conn:
            counts = conn.execute(per_table.group_by(t.table_id)).all()
            lasts = {
                r.id: (r.at, r.detail)
                for r in conn.execute(
                    select(t.id, t.at, t.detail).where(t.id.in_([c.last for c in counts]))
                )
            }
        out: dict[str, Refusals] = {}
        for c in counts:
            at, detail = lasts[c.last]
            out[c.table_id] = Refusals(int(c.n), {"at": at, **json.loads(detail)})
        return out

    def _writing(self) -> Any:
        return self._write_lock if self._write_lock is not None else _NoLock()

    # -- reading the logs ----------------------------------------------------------------------
    def tables(self) -> list[TableInfo]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(club_tables).order_by(club_tables.c.table_id)).all()
        return [
            TableInfo(r.table_id, int(r.stored_upto), r.last_seen, r.key_issued_at) for r in rows
        ]

    def entries(self, table_id: str, *, after: int = 0) -> list[LogEntry]:
        with self.engine.connect() as conn:
            return _entries(conn, table_id, after)

    def event_count(self, table_id: str | None = None) -> int:
        query = select(func.count()).select_from(events)
        if table_id is not None:
            query = query.where(events.c.table_id == table_id)
        with self.engine.connect() as conn:
            return int(conn.execute(query).scalar_one())

    # -- the player register -------------------------------------------------------------------
    def add_player(self, club_id: str, name: str) -> Player:
        club_id, name = club_id.strip(), " ".join(name.split())
        if not club_id or not name:
            raise RegisterError("a player needs a club id and a name")
        with self._writing(), self.engine.begin() as conn:
            taken = conn.execute(
                select(players.c.club_id).where(players.c.club_id == club_id)
            ).first()
            if taken is not None:
                raise RegisterError(f"club id {club_id!r} is already registered")
            conn.execute(insert(players).values(club_id=club_id, name=name, active=True))
        return Player(club_id, name)

    def players(self) -> list[Player]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(players).order_by(players.c.name)).all()
        return [Player(r.club_id, r.name, bool(r.active)) for r in rows]

    # -- tournaments ---------------------------------------------------------------------------
    def add_tournament(self, t: Tournament) -> Tournament:
        if not TABLE_ID.match(t.slug):
            raise RegisterError(f"invalid tournament slug {t.slug!r}")
        with self._writing(), self.engine.begin() as conn:
            taken = conn.execute(
                select(tournaments.c.slug).where(tournaments.c.slug == t.slug)
            ).first()
            if taken is not None:
                raise RegisterError(f"tournament {t.slug!r} already exists")
            conn.execute(
                insert(tournaments).values(
                    slug=t.slug, name=t.name, starts_at=t.starts_at, ends_at=t.ends_at,
                    tables=json.dumps(list(t.tables)), game=t.game,
                )
            )  # fmt: skip
        return t

    def tournaments(self) -> list[Tournament]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(tournaments).order_by(tournaments.c.starts_at)).all()
        return [_tournament(r) for r in rows]

    def tournament(self, slug: str) -> Tournament | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(tournaments).where(tournaments.c.slug == slug)).first()
        return None if row is None else _tournament(row)


def _entries(
    conn: Connection, table_id: str, after: int, *, upto: int | None = None
) -> list[LogEntry]:
    query = select(events.c.event_id, events.c.kind, events.c.payload, events.c.seq, events.c.ts)
    query = query.where(events.c.table_id == table_id, events.c.seq > after)
    if upto is not None:
        query = query.where(events.c.seq <= upto)
    rows = conn.execute(query.order_by(events.c.seq)).all()
    return [LogEntry(r[0], r[1], json.loads(r[2]), r[3], r[4]) for r in rows]


def _finite(e: IncomingEvent) -> None:
    if not math.isfinite(e.ts):
        raise BatchRefused(e.seq, e.id, f"ts is not a finite number ({e.ts!r})")
    path = non_finite(e.payload, "payload")
    if path is not None:
        raise BatchRefused(e.seq, e.id, f"{path} is not a finite number")


def _tournament(r: Any) -> Tournament:
    return Tournament(r.slug, r.name, r.starts_at, r.ends_at, tuple(json.loads(r.tables)), r.game)


class _NoLock:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *_exc: object) -> None:
        return None


def incoming(raw: Iterable[dict[str, Any]]) -> list[IncomingEvent]:
    """Wire dicts (``LogEntry.to_dict``) to events."""
    return [
        IncomingEvent(str(d["id"]), int(d["seq"]), str(d["kind"]), dict(d["payload"]),
                      float(d["ts"]))
        for d in raw
    ]  # fmt: skip
