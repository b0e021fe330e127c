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
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from rulekeeper.errors import InputError, StoreError
from rulekeeper.store import revision as migrate_check
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
    SqlHistory,
    Statements,
    campaign_info,
    campaign_row,
    dumps,
    event_row,
    member_row,
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


class SqliteStore(Store):
    """Campaigns in one SQLite file; the schema is created or upgraded on open."""

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
            # We issue BEGIN ourselves (isolation_level=None): the driver's implicit BEGIN
            # cannot be IMMEDIATE.
            if self._read_only_uri is not None:
                conn = sqlite3.connect(
                    self._read_only_uri, timeout=60.0, isolation_level=None, check_same_thread=False, uri=True
                )
            else:
                conn = sqlite3.connect(self.path, timeout=60.0, isolation_level=None, check_same_thread=False)
                conn.execute("PRAGMA journal_mode=WAL")
                conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            conn.execute("PRAGMA busy_timeout=60000")
            self._local.conn = conn
            with self._guard:
                self._all.append(conn)
        return conn

    @contextmanager
    def _transaction(self, *, write: bool) -> Iterator[sqlite3.Cursor]:
        try:
            conn = self._connection()
            cursor = conn.cursor()
            try:
                cursor.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                yield cursor
                conn.commit()
            except BaseException:
                if conn.in_transaction:
                    conn.rollback()
                raise
            finally:
                cursor.close()
        except sqlite3.Error as exc:
            self._drop_connection()
            raise StoreError(f"database error ({self.url}): {_reason(exc)}") from exc

    def _drop_connection(self) -> None:
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None:
            self._local.conn = None
            with self._guard:
                if conn in self._all:
                    self._all.remove(conn)
            conn.close()

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
            if isinstance(exc.__cause__, sqlite3.IntegrityError):
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
            return cursor.rowcount

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
