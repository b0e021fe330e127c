"""Which schema revision a database is at, read without loading SQLAlchemy or Alembic.

Opening a store only needs to know whether the schema is current; the migration tooling is
loaded (by :mod:`rulekeeper.store.migrate`) only when it is not.
"""

from __future__ import annotations

import sqlite3

from rulekeeper.errors import StoreError

__all__ = ["HEAD", "refuse_newer", "sqlite_revision"]

#: The newest revision this code writes; a test checks it against the scripts.
HEAD = "0005"
_VERSION_TABLE = "alembic_version"


def sqlite_revision(conn: sqlite3.Connection) -> str | None:
    """The revision recorded in a SQLite database, None for a database without a schema yet."""
    found = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (_VERSION_TABLE,)).fetchone()
    if found is None:
        return None
    row = conn.execute(f"SELECT version_num FROM {_VERSION_TABLE}").fetchone()
    return None if row is None else str(row[0])


def refuse_newer(current: str | None) -> None:
    """A schema newer than this code knows is refused, never downgraded or written to."""
    if current is not None and current != HEAD and not (current.isdigit() and int(current) < int(HEAD)):
        raise StoreError(
            f"the database schema is at revision {current}, newer than this rulekeeper knows ({HEAD}); "
            "upgrade rulekeeper to use it"
        )
