"""Schema migrations, run programmatically when a store opens (no ``alembic.ini`` needed).

Opening a database compares its recorded revision with :data:`HEAD`; only when they differ is
Alembic loaded and the upgrade run, inside the caller's locked transaction, so two processes
opening an old database at once upgrade it once.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import sqlalchemy as sa

from rulekeeper.errors import StoreError
from rulekeeper.store.revision import HEAD, refuse_newer

if TYPE_CHECKING:
    from alembic.config import Config

__all__ = ["HEAD", "MIGRATIONS", "current_revision", "downgrade", "ensure_current", "head_revision", "upgrade"]

MIGRATIONS = Path(__file__).parent / "migrations"
_VERSION_TABLE = "alembic_version"


def _config(connection: sa.Connection) -> Config:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    config.attributes["connection"] = connection
    return config


def current_revision(connection: sa.Connection) -> str | None:
    if not sa.inspect(connection).has_table(_VERSION_TABLE):
        return None
    rows = connection.execute(sa.text(f"SELECT version_num FROM {_VERSION_TABLE}")).scalars().all()
    return str(rows[0]) if rows else None


def head_revision() -> str:
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(_config(None)).get_current_head()  # type: ignore[arg-type]
    if head is None:
        raise StoreError("no migrations found")
    return head


def upgrade(connection: sa.Connection, revision: str = "head") -> None:
    from alembic import command
    from alembic.util import CommandError

    try:
        command.upgrade(_config(connection), revision)
    except CommandError as exc:
        raise StoreError(f"cannot upgrade the database schema: {exc}") from exc


def downgrade(connection: sa.Connection, revision: str) -> None:
    from alembic import command

    command.downgrade(_config(connection), revision)


def ensure_current(connection: sa.Connection) -> None:
    """Upgrade the schema to :data:`HEAD` if it is older; refuse a newer one."""
    current = current_revision(connection)
    if current == HEAD:
        return
    refuse_newer(current)
    upgrade(connection, HEAD)
