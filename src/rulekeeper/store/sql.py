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

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event as sa_event
from sqlalchemy.pool import StaticPool

from rulekeeper.errors import InputError, StoreError
from rulekeeper.store import migrate
from rulekeeper.store.base import HistoryReader, HistoryWriter, Store, unknown_campaign
from rulekeeper.store.records import (
    CampaignInfo,
    CampaignRecord,
    EventRecord,
    MemberRecord,
    NewCampaign,
    NewMember,
    SnapshotRecord,
)
from rulekeeper.store.statements import (
    CHUNK,
    NOTIFY_CHANNEL,
    SqlHistory,
    Statements,
    campaign_info,
    campaign_row,
    dumps,
    event_row,
    member_row,
    read_only_sqlite,
)

__all__ = ["NOTIFY_CHANNEL", "SqlStore", "sqlite_engine"]

# An arbitrary constant naming the advisory lock that serialises schema upgrades on PostgreSQL.
_MIGRATION_LOCK = 7_142_001


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


class SqlStore(Store):
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
                self._engine = sa.create_engine(url)
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
            raise StoreError(f"cannot open the campaign database {self._safe_url()}: {_reason(exc)}") from exc

    def _safe_url(self) -> str:
        return sa.engine.make_url(self.url).render_as_string(hide_password=True)

    @contextmanager
    def _transaction(self, *, write: bool) -> Iterator[Any]:
        """A driver-level transaction: ``BEGIN IMMEDIATE`` for SQLite writers, ``REPEATABLE READ``
        for PostgreSQL readers; committed if the block finishes, rolled back otherwise."""
        fairy = self._engine.raw_connection()
        driver: Any = fairy.driver_connection
        try:
            cursor = driver.cursor()
            try:
                if self.dialect == "sqlite":
                    cursor.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                elif not write:
                    cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                yield cursor
                driver.commit()
            except BaseException:
                driver.rollback()
                raise
            finally:
                cursor.close()
        except self._driver_errors as exc:
            # The connection may be broken (a server restart); never hand it out again.
            fairy.invalidate()
            raise StoreError(f"database error ({self._safe_url()}): {_reason(exc)}") from exc
        finally:
            fairy.close()

    # -- campaigns --------------------------------------------------------------------------
    def list_campaigns(self) -> list[CampaignInfo]:
        with self._transaction(write=False) as cursor:
            cursor.execute(self._sql.campaigns)
            return [campaign_info(r) for r in cursor.fetchall()]

    def find_campaign(self, name: str) -> CampaignRecord | None:
        with self._transaction(write=False) as cursor:
            cursor.execute(self._sql.campaign, {"name": name})
            row = cursor.fetchone()
            return None if row is None else campaign_row(row)

    def create_campaign(
        self,
        campaign: NewCampaign,
        events: Sequence[EventRecord] = (),
        snapshots: Sequence[SnapshotRecord] = (),
    ) -> CampaignRecord:
        taken = InputError(f"a campaign named {campaign.name!r} already exists", expected="a new name")
        try:
            with self._transaction(write=True) as cursor:
                cursor.execute(self._sql.campaign, {"name": campaign.name})
                if cursor.fetchone() is not None:
                    raise taken
                cursor.execute(
                    self._sql.insert_campaign,
                    {
                        "name": campaign.name,
                        "system": campaign.system,
                        "seed": campaign.seed,
                        "gm": campaign.gm,
                        "settings": dumps(campaign.settings),
                        "created": campaign.created,
                        "version": len(events),
                    },
                )
                cid = cursor.fetchone()[0]
                for start in range(0, len(events), CHUNK):
                    chunk = [event_row(cid, e) for e in events[start : start + CHUNK]]
                    cursor.executemany(self._sql.insert_event, chunk)
                for start in range(0, len(snapshots), CHUNK):
                    rows = [
                        {"cid": cid, "version": s.version, "data": s.data} for s in snapshots[start : start + CHUNK]
                    ]
                    cursor.executemany(self._sql.insert_snapshot, rows)
                cursor.execute(self._sql.campaign, {"name": campaign.name})
                return campaign_row(cursor.fetchone())
        except StoreError as exc:
            if isinstance(exc.__cause__, self._integrity_errors):
                # Another process took the name between our check and our insert.
                raise taken from exc
            raise

    def delete_campaign(self, name: str) -> None:
        with self._transaction(write=True) as cursor:
            cursor.execute(self._sql.campaign, {"name": name})
            row = cursor.fetchone()
            if row is not None:
                for statement in self._sql.delete:
                    cursor.execute(statement, {"cid": row[0]})
        if row is None:
            # Outside the transaction: listing the known names opens one of its own.
            raise unknown_campaign(self, name)

    # -- histories --------------------------------------------------------------------------
    @contextmanager
    def reading(self, campaign_id: int) -> Iterator[HistoryReader]:
        with self._transaction(write=False) as cursor:
            cursor.execute(self._sql.head, {"cid": campaign_id})
            row = cursor.fetchone()
            if row is None:
                raise StoreError(f"campaign #{campaign_id} no longer exists")
            yield SqlHistory(cursor, self._sql, campaign_id, row[0])

    @contextmanager
    def writing(self, campaign_id: int) -> Iterator[HistoryWriter]:
        with self._transaction(write=True) as cursor:
            cursor.execute(self._sql.lock, {"cid": campaign_id})
            row = cursor.fetchone()
            if row is None:
                raise StoreError(f"campaign #{campaign_id} no longer exists")
            history = SqlHistory(cursor, self._sql, campaign_id, row[0])
            yield history
            history.finish()

    # -- members ----------------------------------------------------------------------------
    def add_member(self, campaign_id: int, member: NewMember) -> MemberRecord:
        with self._transaction(write=True) as cursor:
            cursor.execute(
                self._sql.insert_member,
                {
                    "cid": campaign_id,
                    "name": member.name,
                    "role": member.role,
                    "characters": dumps(list(member.characters)),
                    "token_id": member.token_id,
                    "token_hash": member.token_hash,
                    "created": member.created,
                    "expires": member.expires,
                },
            )
            member_id = cursor.fetchone()[0]
            cursor.execute(self._sql.member_by_id, {"id": member_id})
            return member_row(cursor.fetchone())

    def members(self, campaign_id: int) -> list[MemberRecord]:
        with self._transaction(write=False) as cursor:
            cursor.execute(self._sql.members, {"cid": campaign_id})
            return [member_row(r) for r in cursor.fetchall()]

    def member_by_token_id(self, token_id: str) -> MemberRecord | None:
        with self._transaction(write=False) as cursor:
            cursor.execute(self._sql.member_by_token, {"token_id": token_id})
            row = cursor.fetchone()
            return None if row is None else member_row(row)

    def revoke_members(self, campaign_id: int, name: str, when: float) -> int:
        with self._transaction(write=True) as cursor:
            cursor.execute(self._sql.revoke, {"cid": campaign_id, "name": name, "when": when})
            count: int = cursor.rowcount
            return count

    def close(self) -> None:
        self._engine.dispose()

    # -- maintenance (tests, a future ``db`` command) ----------------------------------------
    def connect(self) -> sa.Connection:
        """A SQLAlchemy connection for maintenance such as running migrations by hand."""
        return self._engine.connect()


def _reason(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None)
    return str(orig if orig is not None else exc).strip().splitlines()[0]
