"""Members: who may reach a campaign over the network, and as what (gm, player, observer).

Only a hash of each token's secret is kept; ``token_id`` is the public half of a token, so a
lookup finds one row and the secret is then compared in constant time.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "members",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("campaign_id", sa.Integer, sa.ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("role", sa.String(20), nullable=False),
        sa.Column("characters", sa.Text, nullable=False),
        sa.Column("token_id", sa.String(40), nullable=False, unique=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("expires", sa.Float, nullable=True),
        sa.Column("revoked", sa.Float, nullable=True),
    )
    op.create_index("ix_members_campaign", "members", ["campaign_id"])


def downgrade() -> None:
    op.drop_index("ix_members_campaign", table_name="members")
    op.drop_table("members")
