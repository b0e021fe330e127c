"""Alembic environment: migrations run on a connection the store hands over.

``rulekeeper.store.migrate`` passes its open connection (already inside a locked transaction)
in ``config.attributes["connection"]``; the ``alembic`` command line can still be pointed at a
database with ``-x url=...``.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

config = context.config


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=None, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


_given = config.attributes.get("connection")
if isinstance(_given, Connection):
    _run(_given)
else:
    _url = context.get_x_argument(as_dictionary=True).get("url") or config.get_main_option("sqlalchemy.url")
    if not _url:
        raise SystemExit("give the database with -x url=sqlite:///path/campaigns.db")
    with create_engine(_url).connect() as _connection:
        _run(_connection)
        _connection.commit()
