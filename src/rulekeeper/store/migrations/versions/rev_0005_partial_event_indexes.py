"""Event indexes that only hold the events they are looked up by.

Every command wrote an entry into two indexes it was never looked up in: the unique index on
``(campaign_id, idem_key)`` held a NULL for each command given without an idempotency key, and
``ix_events_campaign_kind`` an entry for each event, while it is only ever searched for undo and
redo events. On SQLite an appended event touched five pages where three now do, and each page
is a write to the log at commit (about a twentieth of an action's CPU in ``rulekeeper serve``,
measured in process); on PostgreSQL each skipped entry is an index insertion and its log
record. The unique index now covers the keyed events only (still unique among them), and the
undo and redo events have an index of their own in ``seq`` order, the order they are read in.

On PostgreSQL the index by kind also did harm: a server prepares the action's write once per
connection, while the tables are small, and the plan PostgreSQL kept for it could look a
command's key up through ``(campaign_id, kind)``, reading every event of the campaign on every
action (its CPU per action grew from 0.18 to 0.68 ms by 2,000 events per campaign). No index
now leads from a campaign to its events but the primary key and these two partial ones.

On SQLite the unique constraint is part of the table's definition, so the table is rebuilt
(its rows copied in one transaction).

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_KEYED = sa.text("idem_key IS NOT NULL")
_REVERSALS = sa.text("kind IN ('undo', 'redo')")


def upgrade() -> None:
    op.drop_index("ix_events_campaign_kind", table_name="events")
    with op.batch_alter_table("events") as batch:
        batch.drop_constraint("uq_events_campaign_key", type_="unique")
    op.create_index(
        "uq_events_campaign_key",
        "events",
        ["campaign_id", "idem_key"],
        unique=True,
        sqlite_where=_KEYED,
        postgresql_where=_KEYED,
    )
    op.create_index(
        "ix_events_campaign_reversals",
        "events",
        ["campaign_id", "seq"],
        sqlite_where=_REVERSALS,
        postgresql_where=_REVERSALS,
    )


def downgrade() -> None:
    op.drop_index("ix_events_campaign_reversals", table_name="events")
    op.drop_index("uq_events_campaign_key", table_name="events")
    with op.batch_alter_table("events") as batch:
        batch.create_unique_constraint("uq_events_campaign_key", ["campaign_id", "idem_key"])
    op.create_index("ix_events_campaign_kind", "events", ["campaign_id", "kind"])
