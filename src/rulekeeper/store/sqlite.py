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
from typing import TYPE_CHECKING

from rulekeeper.errors import StoreBusy, StoreError, UnusableDatabase
from rulekeeper.store import revision as migrate_check
from rulekeeper.store.statements import (
    Statements,
    StatementStore,
    read_only_sqlite,
)

if TYPE_CHECKING:
    import sqlalchemy as sa

__all__ = ["DATABASE_FORM", "SqliteStore", "sqlite_path", "sqlite_words"]

#: What ``--db`` (or ``RULEKEEPER_DB``) should name, said when the one named cannot be used.
DATABASE_FORM = "a rulekeeper campaign file (SQLite; a new path makes one) or a postgresql+psycopg:// URL"


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
            raise UnusableDatabase(
                f"cannot open the campaign database {url}: {_reason(exc)}", expected=DATABASE_FORM
            ) from exc
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

    def _transaction(self, *, write: bool, single: bool = False, history: bool = False) -> _Transaction:
        return _Transaction(self, write, single)

    def _failed(self, exc: sqlite3.Error) -> StoreError:
        """``exc`` in our words; a connection that failed otherwise than busy is dropped."""
        if getattr(exc, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_BUSY:  # any kind of busy
            # The connection is sound: another writer held the database too long for it.
            return StoreBusy(f"database error ({self.url}): {_reason(exc)}")
        self._drop_connection()
        return StoreError(f"database error ({self.url}): {_reason(exc)}")

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


class _Transaction:
    """A cursor in a transaction of its own, committed when the block ends and rolled back if
    it fails; ``single``: one statement, which runs in a transaction of its own. SQLite's
    errors come out as ``StoreBusy`` or ``StoreError``. A class rather than a
    ``contextmanager`` generator: every action writes through one, and the generator cost a
    tenth of the write."""

    __slots__ = ("_conn", "_cursor", "_single", "_store", "_write")

    def __init__(self, store: SqliteStore, write: bool, single: bool) -> None:
        self._store = store
        self._write = write
        self._single = single

    def __enter__(self) -> sqlite3.Cursor:
        store = self._store
        try:
            conn = store._connection()
            cursor = conn.cursor()
            try:
                if not self._single:
                    cursor.execute("BEGIN IMMEDIATE" if self._write else "BEGIN")
            except BaseException:
                _give_up(conn, cursor)
                raise
        except sqlite3.Error as exc:
            raise store._failed(exc) from exc
        self._conn = conn
        self._cursor = cursor
        return cursor

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        conn, cursor = self._conn, self._cursor
        try:
            if exc is None:
                try:
                    if not self._single:
                        conn.commit()
                except BaseException:
                    _give_up(conn, cursor)
                    raise
                cursor.close()
                return
            _give_up(conn, cursor)
        except sqlite3.Error as error:
            raise self._store._failed(error) from error
        if isinstance(exc, sqlite3.Error):
            raise self._store._failed(exc) from exc
        # Anything else goes on as it was raised.


def _give_up(conn: sqlite3.Connection, cursor: sqlite3.Cursor) -> None:
    """The transaction's end when something failed: nothing of it is kept."""
    try:
        if conn.in_transaction:
            conn.rollback()
    finally:
        cursor.close()


def _reason(exc: BaseException) -> str:
    return sqlite_words(str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__)


#: SQLite's reasons for not opening a file, in our words.
_SQLITE_WORDS = {
    "file is not a database": "it is not a SQLite database (a campaign file is one rulekeeper made)",
    "database disk image is malformed": "the file is damaged; restore it from a backup or an export",
    "unable to open database file": "the file cannot be opened: its folder may not exist, or may not be writable",
    "no such table: campaigns": "it is a SQLite database, but not one of rulekeeper's",
    "attempt to write a readonly database": "the file is read-only",
    "database is locked": "another program holds the file's lock",
}


def sqlite_words(said: str, *, known_only: bool = False) -> str:
    """SQLite's reason ``said`` in our words, where we know it; else, attributed to SQLite (or,
    ``known_only``, as it was: a reason that may be another database's)."""
    text = said.strip()
    return _SQLITE_WORDS.get(text, text if known_only else f"SQLite could not use it ({text})")
