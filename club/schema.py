"""The club database's tables (SQLAlchemy Core). Migrations in ``club/migrations`` create them;
``tests/test_club_postgres.py`` checks that the migrations' head equals this metadata."""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
    true,
)

metadata = MetaData()

#: one row per table (Pi) known to the club, with the hash of its forwarding key
club_tables = Table(
    "club_tables",
    metadata,
    Column("table_id", String(64), primary_key=True),
    Column("key_hash", String(64), nullable=False),
    Column("key_issued_at", Float, nullable=False),
    Column("stored_upto", Integer, nullable=False, server_default="0"),
    Column("last_seen", Float, nullable=True),
)

#: every table's event log, exactly as the table stored it (``kibic.store.LogEntry``)
events = Table(
    "events",
    metadata,
    Column("table_id", String(64), ForeignKey("club_tables.table_id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("event_id", String(128), nullable=False),
    Column("kind", String(32), nullable=False),
    Column("payload", Text, nullable=False),
    Column("ts", Float, nullable=False),
    Column("received_at", Float, nullable=False),
    PrimaryKeyConstraint("table_id", "seq", name="events_pkey"),
    UniqueConstraint("table_id", "event_id", name="events_table_event_id_key"),
)
Index("events_kind_ts_idx", events.c.kind, events.c.ts)

#: every batch the club refused (it did not replay on the table's log), with what was wrong;
#: the status page counts them across restarts
refused_batches = Table(
    "refused_batches",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", String(64), ForeignKey("club_tables.table_id"), nullable=False),
    Column("at", Float, nullable=False),
    Column("detail", Text, nullable=False),
)
Index("refused_batches_table_idx", refused_batches.c.table_id, refused_batches.c.id)

#: the player register: results follow people (by club id or name), not seats
players = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("club_id", String(32), nullable=False, unique=True),
    Column("name", String(128), nullable=False),
    Column("active", Boolean, nullable=False, server_default=true()),
)

#: a tournament or championship: the games started in its window on its tables
tournaments = Table(
    "tournaments",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("slug", String(64), nullable=False, unique=True),
    Column("name", String(200), nullable=False),
    Column("starts_at", Float, nullable=False),
    Column("ends_at", Float, nullable=True),
    Column("tables", Text, nullable=False, server_default="[]"),
    Column("game", String(200), nullable=True),
)
