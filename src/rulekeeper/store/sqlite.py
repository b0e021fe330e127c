"""SQLite files on the standard library's ``sqlite3``: the default store, without SQLAlchemy.

A campaign command is a handful of tiny statements; importing SQLAlchemy cost more than the
whole rest of the command, so SQLite files are served here with the same statements and the
same history class as the SQLAlchemy backend. Only a database whose schema is missing or behind
goes through :mod:`rulekeeper.store.sql` (SQLAlchemy and Alembic) once, to be upgraded.

Locking and durability are those of :mod:`rulekeeper.store.sql`: WAL, ``synchronous=NORMAL``,
``BEGIN IMMEDIATE`` for every writer. Each thread gets its own connection, because a
``sqlite3`` connection is not to be shared across threads mid-transaction.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from rulekeeper.errors import StoreBusy, StoreError
from rulekeeper.store import revision as migrate_check
from rulekeeper.store.statements import (
    Statements,
    StatementStore,
    read_only_sqlite,
)

if TYPE_CHECKING:
    import sqlalchemy as sa

__all__ = ["SqliteStore", "sqlite_path"]


def sqlite_path(url: str) -> str | None:
    """The file of a ``sqlite:///path`` URL; None for in-memory SQLite."""
    if not url.startswith("sqlite:///"):
        return None
    path = url[len("sqlite:///") :]
    return None if path in ("", ":memory:") else path


class SqliteStore(StatementStore):
    """Campaigns in one SQLite file; the schema is created or upgraded on open."""

    _integrity_errors = (sqlite3.IntegrityError,)

    def __init__(self, url: str) -> None:
        path = sqlite_path(url)
        if path is None:
            raise StoreError(f"not a SQLite file URL: {url}")
        self.url = url
        self.path = path
        self.dialect = "sqlite"
        self._sql = Statements("sqlite")
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._guard = threading.Lock()
        #: A ``file:`` URI when this process cannot write the file: reads work, writes are refused
        #: with SQLite's "attempt to write a readonly database" as a StoreError.
        self._read_only_uri = read_only_sqlite(path)
        #: True when the database can only be read.
        self.read_only = self._read_only_uri is not None
        try:
            revision = migrate_check.sqlite_revision(self._connection())
        except sqlite3.Error as exc:
            self.close()
            raise StoreError(f"cannot open the campaign database {url}: {_reason(exc)}") from exc
        if revision != migrate_check.HEAD:
            migrate_check.refuse_newer(revision)
            if self.read_only:
                self.close()
                raise StoreError(
                    f"cannot open the campaign database {url}: its schema needs an upgrade "
                    f"({revision or 'none'} to {migrate_check.HEAD}) and the file is read-only"
                )
            # Rare (a new or old file): SQLAlchemy and Alembic are loaded for this once only.
            from rulekeeper.store.sql import SqlStore

            SqlStore(url).close()

    def _connection(self) -> sqlite3.Connection:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            # Seconds to wait for another writer: a minute, none at all on an event loop's thread.
            waits = 0.0 if getattr(self._local, "impatient", False) else 60.0
            # We issue BEGIN ourselves (isolation_level=None): the driver's implicit BEGIN
            # cannot be IMMEDIATE.
            if self._read_only_uri is not None:
                conn = sqlite3.connect(
                    self._read_only_uri, timeout=waits, isolation_level=None, check_same_thread=False, uri=True
                )
            else:
                conn = sqlite3.connect(self.path, timeout=waits, isolation_level=None, check_same_thread=False)
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute(f"PRAGMA busy_timeout={int(waits * 1000)}")
            self._local.conn = conn
            with self._guard:
                self._all.append(conn)
        return conn

    @contextmanager
    def _transaction(self, *, write: bool, single: bool = False, history: bool = False) -> Iterator[sqlite3.Cursor]:
        try:
            conn = self._connection()
            cursor = conn.cursor()
            try:
                if not single:  # a lone statement runs in a transaction of its own
                    cursor.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                yield cursor
                if not single:
                    conn.commit()
            except BaseException:
                if conn.in_transaction:
                    conn.rollback()
                raise
            finally:
                cursor.close()
        except sqlite3.Error as exc:
            if getattr(exc, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_BUSY:  # any kind of busy
                # The connection is sound: another writer held the database too long for it.
                raise StoreBusy(f"database error ({self.url}): {_reason(exc)}") from exc
            self._drop_connection()
            raise StoreError(f"database error ({self.url}): {_reason(exc)}") from exc

    def without_waiting(self) -> None:
        """From now on the calling thread's statements never wait for another writer (SQLite's
        busy handler is off for its connection): one that would raises :class:`StoreBusy`, with
        nothing written. For the thread of a server's event loop (``store.sqlite_inline``);
        every other thread waits up to a minute."""
        if getattr(self._local, "impatient", False):
            return
        self._local.impatient = True
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None:
            conn.execute("PRAGMA busy_timeout=0")

    def _drop_connection(self) -> None:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None:
            self._local.conn = None
            with self._guard:
                if conn in self._all:
                    self._all.remove(conn)
            conn.close()

    def close(self) -> None:
        with self._guard:
            conns, self._all = self._all, []
        for conn in conns:
            conn.close()
        self._local = threading.local()

    # -- maintenance (tests, a future ``db`` command) ----------------------------------------
    def connect(self) -> sa.Connection:
        """A SQLAlchemy connection for maintenance such as running migrations by hand."""
        from rulekeeper.store.sql import sqlite_engine

        connection: sa.Connection = sqlite_engine(self.url).connect()
        return connection


def _reason(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
