"""The first club schema: tables with keys, the event log, players, tournaments.

Revision ID: 0001
Revises:
Create Date: 2026-05-20
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "club_tables",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("key_issued_at", sa.Float, nullable=False),
        sa.Column("stored_upto", sa.Integer, nullable=False, server_default="0"),
        sa.Column("last_seen", sa.Float, nullable=True),
    )
    op.create_table(
        "events",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("club_tables.table_id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("event_id", sa.String(128), nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("ts", sa.Float, nullable=False),
        sa.Column("received_at", sa.Float, nullable=False),
        sa.PrimaryKeyConstraint("table_id", "seq", name="events_pkey"),
        sa.UniqueConstraint("table_id", "event_id", name="events_table_event_id_key"),
    )
    op.create_index("events_kind_ts_idx", "events", ["kind", "ts"])
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("club_id", sa.String(32), nullable=False, unique=True),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("active", sa.Boolean, nullable=False, server_default=sa.true()),
    )
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("slug", sa.String(64), nullable=False, unique=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("starts_at", sa.Float, nullable=False),
        sa.Column("ends_at", sa.Float, nullable=True),
        sa.Column("tables", sa.Text, nullable=False, server_default="[]"),
        sa.Column("game", sa.String(200), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("tournaments")
    op.drop_table("players")
    op.drop_index("events_kind_ts_idx", table_name="events")
    op.drop_table("events")
    op.drop_table("club_tables")
