"""The tables, as the newest migration leaves them (a test compares the two).

JSON travels as text so SQLite and PostgreSQL store exactly the same bytes and an export
round-trips key order and floats unchanged.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

__all__ = ["campaigns", "events", "members", "metadata", "refusals", "snapshots", "stream_leases"]

metadata = sa.MetaData()

campaigns = sa.Table(
    "campaigns",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("name", sa.String(200), nullable=False, unique=True),
    sa.Column("system", sa.String(50), nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("gm", sa.String(200), nullable=False),
    sa.Column("settings", sa.Text, nullable=False),
    sa.Column("created", sa.Float, nullable=False),
    # The number of events; writers lock this row, so it is also the campaign's write lock.
    sa.Column("version", sa.Integer, nullable=False, server_default="0"),
)

events = sa.Table(
    "events",
    metadata,
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
)

snapshots = sa.Table(
    "snapshots",
    metadata,
    sa.Column("campaign_id", sa.Integer, sa.ForeignKey("campaigns.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("version", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("data", sa.Text, nullable=False),
)

# Who may reach a campaign over the network; only a hash of each token's secret is kept.
members = sa.Table(
    "members",
    metadata,
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

# Members' attempts the seat refused, for the GM; the newest ``limits.MAX_REFUSALS_KEPT`` per campaign.
refusals = sa.Table(
    "refusals",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("campaign_id", sa.Integer, sa.ForeignKey("campaigns.id", ondelete="CASCADE"), nullable=False),
    sa.Column("wall_time", sa.Float, nullable=False),
    sa.Column("member", sa.String(200), nullable=False),
    sa.Column("role", sa.String(20), nullable=False),
    sa.Column("what", sa.Text, nullable=False),
    sa.Column("why", sa.Text, nullable=False),
)

# Live streams open per token, across every server process on this database; a lease lapses
# at ``expires`` unless the process holding it renews it.
stream_leases = sa.Table(
    "stream_leases",
    metadata,
    sa.Column("lease", sa.String(40), primary_key=True),
    sa.Column("token_id", sa.String(40), nullable=False),
    sa.Column("expires", sa.Float, nullable=False),
)

sa.Index("ix_members_campaign", members.c.campaign_id)
sa.Index("ix_refusals_campaign", refusals.c.campaign_id, refusals.c.id)
sa.Index("ix_stream_leases_token", stream_leases.c.token_id)


def _partial_index(name: str, *columns: sa.Column[Any], where: sa.ColumnElement[bool], unique: bool = False) -> None:
    """An index holding only the rows ``where`` is true for, on both databases."""
    sa.Index(name, *columns, unique=unique, sqlite_where=where, postgresql_where=where)


# Partial (revision 0005): only keyed events need a unique key, and only undo and redo events
# are looked up by kind; the other events skip both indexes when they are written.
_partial_index(
    "uq_events_campaign_key", events.c.campaign_id, events.c.idem_key, where=events.c.idem_key.is_not(None), unique=True
)
_partial_index(
    "ix_events_campaign_reversals", events.c.campaign_id, events.c.seq, where=events.c.kind.in_(("undo", "redo"))
)
