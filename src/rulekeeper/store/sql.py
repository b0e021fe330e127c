"""The SQLAlchemy backend: PostgreSQL, in-memory SQLite, and schema maintenance of SQLite files.

SQLite files are served by :mod:`rulekeeper.store.sqlite` on the standard library alone (a
campaign command should not pay SQLAlchemy's import); it comes here only to upgrade a schema.

SQLAlchemy makes the engine, the connection pool and the schema migrations; the statements
themselves run on the driver connection, because a command is a handful of tiny statements
and SQLAlchemy's per-statement machinery costs several times what SQLite itself does. Their
text is written once with ``:name`` parameters (rewritten to ``%(name)s`` for psycopg).

Writers of one campaign are serialised: on SQLite every writing transaction starts with
``BEGIN IMMEDIATE`` (the database's single write lock, taken before anything is read); on
PostgreSQL the writer locks the campaign's row with ``SELECT ... FOR UPDATE``. Readers see a
consistent snapshot (SQLite's WAL read transaction, PostgreSQL ``REPEATABLE READ``).

SQLite runs in WAL mode with ``synchronous=NORMAL``: a committed command survives the process
being killed at any moment; after a power cut the last few commits may be lost, never half of
one (see docs/campaigns.md, "Durability").
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event as sa_event
from sqlalchemy.pool import StaticPool

from rulekeeper.errors import OutcomeUnknown, StoreError, UnusableDatabase
from rulekeeper.store import migrate
from rulekeeper.store.base import AwaitedStore
from rulekeeper.store.statements import Statements, StatementStore, read_only_sqlite

__all__ = ["SqlStore", "sqlite_engine"]

#: Connections a store keeps open at most, and opens beyond that under a burst (closed after).
_POOL_SIZE = 12
_POOL_OVERFLOW = 8

#: psycopg's ``IsolationLevel.REPEATABLE_READ`` (its value; psycopg is imported only for PostgreSQL).
_REPEATABLE_READ = 3

# An arbitrary constant naming the advisory lock that serialises schema upgrades on PostgreSQL.
_MIGRATION_LOCK = 7_142_001


#: libpq's TCP settings for each PostgreSQL connection, unless the URL gives its own: a database
#: host that vanished without closing its connections (a crash, a network cut) is found within
#: about a minute, where the system's defaults wait two hours idle (keepalives) or a quarter of an
#: hour with a statement sent and not acknowledged (``tcp_user_timeout``, in ms), holding a
#: campaign's lock (and on the event loop, its writes: ``pg_awaited.HOLD_SECONDS``) until then.
#: A statement PostgreSQL is working on keeps its connection acknowledged, so a long one is not
#: cut. No effect on Unix sockets.
_DEAD_PEER = {
    "keepalives": 1,
    "keepalives_idle": 30,
    "keepalives_interval": 10,
    "keepalives_count": 3,
    "tcp_user_timeout": 60_000,
}


def _dead_peer_settings(url: str) -> dict[str, Any]:
    given = sa.engine.make_url(url).query
    return {name: value for name, value in _DEAD_PEER.items() if name not in given}


def _read_only_sqlite(url: str) -> str | None:
    """A read-only URL for a SQLite file this process cannot write (see ``read_only_sqlite``)."""
    made = sa.engine.make_url(url)
    if made.get_backend_name() != "sqlite" or not made.database:
        return None
    uri = read_only_sqlite(made.database)
    return None if uri is None else f"sqlite:///{uri}&uri=true"


def sqlite_engine(url: str) -> sa.Engine:
    memory = url in ("sqlite://", "sqlite:///:memory:")
    if memory:
        engine = sa.create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False})
    else:
        engine = sa.create_engine(url, connect_args={"timeout": 60.0})

    @sa_event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # We issue BEGIN ourselves: the driver's implicit BEGIN cannot be IMMEDIATE.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        if not memory:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=60000")
        cursor.close()

    @sa_event.listens_for(engine, "begin")
    def _on_begin(conn: sa.Connection) -> None:
        # Only migrations go through SQLAlchemy transactions; they must hold the write lock.
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def _transactions_as_sqlalchemy_expects(engine: sa.Engine) -> None:
    """Our own transactions leave a pooled PostgreSQL connection in whatever autocommit mode
    their last one needed (set again only when it changes: each change is a call through
    psycopg's lock and waiter). SQLAlchemy's own connections (migrations, maintenance) expect
    it off, so it is turned off when one of those takes a connection from the pool."""

    @sa_event.listens_for(engine, "engine_connect")
    def _on_engine_connect(conn: sa.Connection) -> None:
        driver: Any = conn.connection.driver_connection
        if driver is not None and driver.autocommit:
            driver.autocommit = False


class SqlStore(StatementStore):
    """Campaigns in a SQLite file or a PostgreSQL database; the schema is upgraded on open."""

    def __init__(self, url: str) -> None:
        self.url = url
        try:
            read_only = _read_only_sqlite(url) if url.startswith("sqlite") else None
            #: True when the database can only be read (writes are refused with a StoreError).
            self.read_only = read_only is not None
            if url.startswith("sqlite"):
                self._engine = sqlite_engine(read_only or url)
            else:
                # Room for every thread of a server worker at once (8 by default, and the
                # broker's): with SQLAlchemy's default of 5, a busy worker opened and closed an
                # extra connection -- a new PostgreSQL backend process -- for most requests.
                # Connections are opened only when needed, so the CLI still opens one.
                # No reset (a ROLLBACK call) when a connection goes back to the pool: our own
                # transactions always end in a commit or a rollback (``_transaction``), and
                # SQLAlchemy's connections end theirs when closed; the call cost a tenth of an
                # action's CPU on PostgreSQL.
                self._engine = sa.create_engine(
                    url,
                    pool_size=_POOL_SIZE,
                    max_overflow=_POOL_OVERFLOW,
                    pool_reset_on_return=None,
                    connect_args=_dead_peer_settings(url),
                )
            if not url.startswith("sqlite"):
                _transactions_as_sqlalchemy_expects(self._engine)
            self.dialect = self._engine.dialect.name
            self._sql = Statements(self.dialect)
            dbapi: Any = self._engine.dialect.dbapi
            self._driver_errors: tuple[type[BaseException], ...] = (dbapi.Error,)
            self._integrity_errors: tuple[type[BaseException], ...] = (dbapi.IntegrityError,)
            with self._engine.connect() as conn, conn.begin():
                if self.dialect == "postgresql":
                    conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATION_LOCK})
                migrate.ensure_current(conn)
        except sa.exc.SQLAlchemyError as exc:
            from rulekeeper.store.sqlite import DATABASE_FORM, sqlite_words

            reason = sqlite_words(_said(exc)) if url.startswith("sqlite") else _reason(exc)
            raise UnusableDatabase(
                f"cannot open the campaign database {self._safe_url()}: {reason}", expected=DATABASE_FORM
            ) from exc

    def _safe_url(self) -> str:
        return sa.engine.make_url(self.url).render_as_string(hide_password=True)

    @contextmanager
    def _transaction(self, *, write: bool, single: bool = False, history: bool = False) -> Iterator[Any]:
        """A driver-level transaction: ``BEGIN IMMEDIATE`` for SQLite writers, ``REPEATABLE READ``
        for PostgreSQL readers; committed if the block finishes, rolled back otherwise.

        On PostgreSQL, ``single`` (one read statement) runs in autocommit: one round trip, not
        three. ``history`` (a campaign's history read or written) runs in psycopg's pipeline
        mode: BEGIN goes with the first statement, and the statements whose results nobody
        reads (the appended event, the new head) go with the COMMIT, so a
        command takes two round trips (lock and catch up; write and commit) instead of six."""
        fairy = self._engine.raw_connection()
        driver: Any = fairy.driver_connection
        postgres = self.dialect == "postgresql"
        committing = False
        try:
            if postgres:
                # Said with BEGIN itself (psycopg), not as a statement of its own. Set only when it
                # changes: each setting is a call through psycopg's connection lock and waiter.
                isolation = None if write else _REPEATABLE_READ
                if driver.autocommit != single:
                    driver.autocommit = single
                if driver.isolation_level != isolation:
                    driver.isolation_level = isolation
            with driver.pipeline() if postgres and history else nullcontext():
                cursor = driver.cursor()
                try:
                    if not postgres:
                        cursor.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                    yield cursor
                    if not (postgres and single):  # autocommit: the statement committed itself
                        committing = write
                        driver.commit()
                except BaseException:
                    driver.rollback()
                    raise
                finally:
                    cursor.close()
        except self._driver_errors as exc:
            # The connection may be broken (a server restart); never hand it out again.
            fairy.invalidate()
            if getattr(driver, "broken", False):
                # The server went away, most likely with this pool's other connections: closed
                # and opened afresh, rather than each failing one request more (those in use by
                # other threads are discarded when handed back).
                self._engine.dispose()
            if committing and postgres and _lost(exc):
                # The COMMIT (with, in pipeline mode, the writes themselves) was on its way when
                # the connection went: PostgreSQL may have committed it. Said so, not as a refusal.
                sent = f"database error ({self._safe_url()}) as a write committed: {_reason(exc)}"
                raise OutcomeUnknown(sent) from exc
            raise StoreError(f"database error ({self._safe_url()}): {_reason(exc)}") from exc
        finally:
            fairy.close()

    def awaited(self) -> AwaitedStore | None:
        if self.dialect != "postgresql":
            return None  # SQLite's statements cost less than awaiting them would
        from rulekeeper.store.pg_awaited import AwaitedPostgres, cancels_without_a_thread

        if not cancels_without_a_thread():
            return None  # an older libpq: see cancels_without_a_thread

        made = sa.engine.make_url(self.url).set(drivername="postgresql")
        return AwaitedPostgres(
            made.render_as_string(hide_password=False),
            self._sql,
            self._safe_url(),
            connect_args=_dead_peer_settings(self.url),
        )

    def close(self) -> None:
        self._engine.dispose()

    # -- maintenance (tests, a future ``db`` command) ----------------------------------------
    def connect(self) -> sa.Connection:
        """A SQLAlchemy connection for maintenance such as running migrations by hand."""
        return self._engine.connect()


def _lost(exc: BaseException) -> bool:
    """Whether ``exc`` says the connection went, rather than PostgreSQL refusing the transaction
    (a refusal carries its SQLSTATE; a connection ended by the server's operator, class 57, may
    have committed first)."""
    state = getattr(exc, "sqlstate", None)
    return state is None or str(state).startswith("57")


def _said(exc: BaseException) -> str:
    """The driver's reason, its first line."""
    orig = getattr(exc, "orig", None)
    return str(orig if orig is not None else exc).strip().splitlines()[0]


def _reason(exc: BaseException) -> str:
    from rulekeeper.store.sqlite import sqlite_words

    return sqlite_words(_said(exc), known_only=True)
