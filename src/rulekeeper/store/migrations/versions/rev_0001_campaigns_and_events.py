"""Campaign headers and the append-only event log: the source of truth.

Revision ID: 0001
Revises:
Create Date: 2025-01-01
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
        "campaigns",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("system", sa.String(50), nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("gm", sa.String(200), nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("version", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "events",
        sa.Column("campaign_id", sa.Integer, sa.ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("command", sa.Text, nullable=False),
        sa.Column("dice", sa.Text, nullable=False),
        sa.Column("outcome", sa.Text, nullable=False),
        sa.Column("actors", sa.Text, nullable=False),
        sa.Column("refs", sa.Text, nullable=False),
        sa.Column("at", sa.BigInteger, nullable=False),
        sa.Column("until", sa.BigInteger, nullable=False),
        sa.Column("next_id", sa.BigInteger, nullable=False),
        sa.Column("next_id_after", sa.BigInteger, nullable=False),
        sa.Column("idem_key", sa.String(200), nullable=True),
        sa.Column("base_version", sa.Integer, nullable=True),
        sa.Column("wall_time", sa.Float, nullable=False),
        sa.UniqueConstraint("campaign_id", "idem_key", name="uq_events_campaign_key"),
    )
    op.create_index("ix_events_campaign_kind", "events", ["campaign_id", "kind"])


def downgrade() -> None:
    op.drop_index("ix_events_campaign_kind", table_name="events")
    op.drop_table("events")
    op.drop_table("campaigns")
