"""Refused attempts and live-stream leases: what the seat refused, for the GM, and the live
streams each token holds, shared by every server process on one database.

Both are bounded: refusals keep the newest ``limits.MAX_REFUSALS_KEPT`` per campaign (older ones
are deleted as new ones arrive), and a lease lapses when its process stops renewing it.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "refusals",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("campaign_id", sa.Integer, sa.ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=False),
        sa.Column("wall_time", sa.Float, nullable=False),
        sa.Column("member", sa.String(200), nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("what", sa.Text, nullable=False),
        sa.Column("why", sa.Text, nullable=False),
    )
    op.create_index("ix_refusals_campaign", "refusals", ["campaign_id", "id"])
    op.create_table(
        "stream_leases",
        sa.Column("lease", sa.String(40), primary_key=True),
        sa.Column("token_id", sa.String(40), nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("ix_stream_leases_token", "stream_leases", ["token_id"])


def downgrade() -> None:
    op.drop_index("ix_stream_leases_token", table_name="stream_leases")
    op.drop_table("stream_leases")
    op.drop_index("ix_refusals_campaign", table_name="refusals")
    op.drop_table("refusals")
