"""Refused batches are kept in the database, so the status page counts them across restarts.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "refused_batches",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(64), sa.ForeignKey("club_tables.table_id"), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
    )
    op.create_index("refused_batches_table_idx", "refused_batches", ["table_id", "id"])


def downgrade() -> None:
    op.drop_index("refused_batches_table_idx", table_name="refused_batches")
    op.drop_table("refused_batches")
