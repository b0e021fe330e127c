"""The SQL backend: SQLite (default) and PostgreSQL.

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

import json
import re
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
    UNKNOWN_TIME,
    CampaignInfo,
    CampaignRecord,
    EventRecord,
    MemberRecord,
    NewCampaign,
    NewMember,
    SnapshotRecord,
)

__all__ = ["NOTIFY_CHANNEL", "SqlStore"]

#: PostgreSQL channel told ``"<campaign id>:<version>"`` when a writer commits new events, so
#: servers in other processes push them to their live clients at once (``LISTEN``).
NOTIFY_CHANNEL = "rulekeeper_events"

_CHUNK = 1000
# An arbitrary constant naming the advisory lock that serialises schema upgrades on PostgreSQL.
_MIGRATION_LOCK = 7_142_001
_EVENT_COLUMNS = (
    "seq, kind, command, dice, outcome, actors, refs, at, until, next_id, next_id_after, "
    "idem_key, base_version, wall_time"
)
_CAMPAIGN_COLUMNS = "id, name, system, seed, gm, settings, created, version"
_MEMBER_COLUMNS = "id, campaign_id, name, role, characters, token_id, token_hash, created, expires, revoked"
_META = "('undo', 'redo')"


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _event_row(campaign_id: int, e: EventRecord) -> dict[str, Any]:
    return {
        "cid": campaign_id,
        "seq": e.seq,
        "kind": e.kind,
        "command": dumps(e.command),
        "dice": dumps(e.dice),
        "outcome": e.outcome,
        "actors": dumps(e.actors),
        "refs": dumps(e.refs),
        "at": e.at,
        "until": e.until,
        "next_id": e.next_id,
        "next_id_after": e.next_id_after,
        "idem_key": e.key,
        "base_version": e.base_version,
        "wall_time": e.wall_time,
    }


def _event(row: Sequence[Any]) -> EventRecord:
    """An event row; a row that is not what this store writes raises ``StoreError`` naming it."""
    try:
        command = json.loads(row[2])
        record = EventRecord(
            seq=row[0],
            kind=row[1],
            command=command,
            dice=tuple((int(s), int(v)) for s, v in json.loads(row[3])),
            outcome=row[4],
            actors=tuple(json.loads(row[5])),
            refs=tuple(json.loads(row[6])),
            at=row[7],
            until=row[8],
            next_id=row[9],
            next_id_after=row[10],
            key=row[11],
            base_version=row[12],
            wall_time=row[13],
        )
        json.loads(record.outcome)
        if not isinstance(command, dict) or not all(isinstance(a, str) for a in record.actors):
            raise ValueError("command or characters of the wrong type")
    except (ValueError, TypeError, RecursionError) as exc:
        raise StoreError(f"event #{row[0]} is corrupt ({_short(exc)})") from None
    return record


def _member(row: Sequence[Any]) -> MemberRecord:
    return MemberRecord(
        id=row[0],
        campaign_id=row[1],
        name=row[2],
        role=row[3],
        characters=tuple(json.loads(row[4])),
        token_id=row[5],
        token_hash=row[6],
        created=row[7],
        expires=row[8],
        revoked=row[9],
    )


def _campaign(row: Sequence[Any]) -> CampaignRecord:
    try:
        settings = json.loads(row[5])
        if not isinstance(settings, dict):
            raise ValueError("settings are not a mapping")
    except (ValueError, TypeError, RecursionError) as exc:
        raise StoreError(f"campaign {row[1]!r} has a corrupt header ({_short(exc)})") from None
    return CampaignRecord(
        id=row[0],
        name=row[1],
        system=row[2],
        seed=row[3],
        gm=row[4],
        settings=settings,
        created=row[6],
        version=row[7],
    )


def _info(row: Sequence[Any]) -> CampaignInfo:
    """A line of the campaign list; a damaged row is listed with its problem instead of failing the list."""
    try:
        return CampaignInfo.of(_campaign(row))
    except StoreError as exc:
        return CampaignInfo(str(row[1]), str(row[2]), int(row[7]), str(row[4]), UNKNOWN_TIME, problem=str(exc))


def _short(exc: BaseException) -> str:
    return (str(exc).splitlines() or [type(exc).__name__])[0][:120]


class _Statements:
    """Every statement the store runs, in the driver's parameter style."""

    def __init__(self, dialect: str) -> None:
        postgres = dialect == "postgresql"

        def sql(text: str) -> str:
            return re.sub(r":(\w+)", r"%(\1)s", text) if postgres else text

        where = "WHERE campaign_id = :cid"
        self.head = sql("SELECT version FROM campaigns WHERE id = :cid")
        self.lock = sql("SELECT version FROM campaigns WHERE id = :cid" + (" FOR UPDATE" if postgres else ""))
        self.event = sql(f"SELECT {_EVENT_COLUMNS} FROM events {where} AND seq = :seq")
        self.by_key = sql(f"SELECT {_EVENT_COLUMNS} FROM events {where} AND idem_key = :key")
        self.after = sql(f"SELECT {_EVENT_COLUMNS} FROM events {where} AND seq > :after ORDER BY seq")
        self.range = sql(f"SELECT {_EVENT_COLUMNS} FROM events {where} AND seq > :after AND seq <= :until ORDER BY seq")
        self.meta = sql(f"SELECT {_EVENT_COLUMNS} FROM events {where} AND kind IN {_META} ORDER BY seq")
        self.commands = sql(f"SELECT seq FROM events {where} AND kind NOT IN {_META} ORDER BY seq DESC LIMIT :limit")
        self.snapshot = sql(
            f"SELECT version, data FROM snapshots {where} AND version <= :at_most ORDER BY version DESC LIMIT 1"
        )
        self.latest_snapshot = sql(f"SELECT version, data FROM snapshots {where} ORDER BY version DESC LIMIT 1")
        self.snapshot_exists = sql(f"SELECT 1 FROM snapshots {where} AND version = :version")
        self.insert_event = sql(
            "INSERT INTO events (campaign_id, seq, kind, command, dice, outcome, actors, refs, at, until, next_id, "
            "next_id_after, idem_key, base_version, wall_time) VALUES (:cid, :seq, :kind, :command, :dice, "
            ":outcome, :actors, :refs, :at, :until, :next_id, :next_id_after, :idem_key, :base_version, :wall_time)"
        )
        self.insert_snapshot = sql("INSERT INTO snapshots (campaign_id, version, data) VALUES (:cid, :version, :data)")
        self.drop_snapshots = sql(f"DELETE FROM snapshots {where} AND version >= :version")
        self.set_head = sql("UPDATE campaigns SET version = :version WHERE id = :cid")
        self.campaigns = f"SELECT {_CAMPAIGN_COLUMNS} FROM campaigns ORDER BY name"
        self.campaign = sql(f"SELECT {_CAMPAIGN_COLUMNS} FROM campaigns WHERE name = :name")
        self.insert_campaign = sql(
            "INSERT INTO campaigns (name, system, seed, gm, settings, created, version) "
            "VALUES (:name, :system, :seed, :gm, :settings, :created, :version) RETURNING id"
        )
        self.notify = f"SELECT pg_notify('{NOTIFY_CHANNEL}', %(payload)s)" if postgres else ""
        self.insert_member = sql(
            "INSERT INTO members (campaign_id, name, role, characters, token_id, token_hash, created, expires) "
            "VALUES (:cid, :name, :role, :characters, :token_id, :token_hash, :created, :expires) RETURNING id"
        )
        self.member_by_id = sql(f"SELECT {_MEMBER_COLUMNS} FROM members WHERE id = :id")
        self.members = sql(f"SELECT {_MEMBER_COLUMNS} FROM members {where} ORDER BY id")
        self.member_by_token = sql(f"SELECT {_MEMBER_COLUMNS} FROM members WHERE token_id = :token_id")
        self.revoke = sql(
            "UPDATE members SET revoked = :when WHERE campaign_id = :cid AND revoked IS NULL "
            "AND (name = :name OR token_id = :name)"
        )
        self.delete = (
            sql("DELETE FROM members WHERE campaign_id = :cid"),
            sql("DELETE FROM snapshots WHERE campaign_id = :cid"),
            sql("DELETE FROM events WHERE campaign_id = :cid"),
            sql("DELETE FROM campaigns WHERE id = :cid"),
        )


class _SqlHistory:
    """One campaign's history inside one open transaction (a driver cursor)."""

    def __init__(self, cursor: Any, sql: _Statements, campaign_id: int, head: int) -> None:
        self._cur = cursor
        self._sql = sql
        self._cid = campaign_id
        self._head = head
        self.start = head

    def _rows(self, statement: str, **params: Any) -> list[Any]:
        self._cur.execute(statement, {"cid": self._cid, **params})
        rows: list[Any] = self._cur.fetchall()
        return rows

    def head(self) -> int:
        return self._head

    def event(self, seq: int) -> EventRecord | None:
        rows = self._rows(self._sql.event, seq=seq)
        return _event(rows[0]) if rows else None

    def event_by_key(self, key: str) -> EventRecord | None:
        rows = self._rows(self._sql.by_key, key=key)
        return _event(rows[0]) if rows else None

    def events(self, after: int = 0, until: int | None = None) -> list[EventRecord]:
        if until is None:
            rows = self._rows(self._sql.after, after=after)
        else:
            rows = self._rows(self._sql.range, after=after, until=until)
        return [_event(r) for r in rows]

    def meta_events(self) -> list[EventRecord]:
        return [_event(r) for r in self._rows(self._sql.meta)]

    def command_seqs_desc(self, limit: int) -> list[int]:
        return [r[0] for r in self._rows(self._sql.commands, limit=limit)]

    def latest_snapshot(self, at_most: int | None = None) -> SnapshotRecord | None:
        if at_most is None:
            rows = self._rows(self._sql.latest_snapshot)
        else:
            rows = self._rows(self._sql.snapshot, at_most=at_most)
        return SnapshotRecord(rows[0][0], rows[0][1]) if rows else None

    def append(self, event: EventRecord) -> None:
        if event.seq != self._head + 1:
            raise StoreError(f"event #{event.seq} does not follow version {self._head}")
        self._cur.execute(self._sql.insert_event, _event_row(self._cid, event))
        self._head = event.seq

    def put_snapshot(self, snapshot: SnapshotRecord) -> None:
        if not self._rows(self._sql.snapshot_exists, version=snapshot.version):
            self._cur.execute(
                self._sql.insert_snapshot, {"cid": self._cid, "version": snapshot.version, "data": snapshot.data}
            )

    def drop_snapshots(self, from_version: int) -> None:
        self._cur.execute(self._sql.drop_snapshots, {"cid": self._cid, "version": from_version})

    def finish(self) -> None:
        if self._head != self.start:
            self._cur.execute(self._sql.set_head, {"cid": self._cid, "version": self._head})
            if self._sql.notify:
                # Delivered by PostgreSQL only when this transaction commits, never for a rollback.
                self._cur.execute(self._sql.notify, {"payload": f"{self._cid}:{self._head}"})


def _read_only_sqlite(url: str) -> str | None:
    """A read-only URL for a SQLite file this process cannot write (a read-only file or filesystem).

    Opened normally, SQLite would fail to make its WAL side files and refuse even to read. Without
    a WAL file left behind the database is complete in its one file and can be opened immutable;
    with one, read-only mode reads through it.
    """
    import os
    from pathlib import Path
    from urllib.parse import quote

    made = sa.engine.make_url(url)
    database = made.database
    if made.get_backend_name() != "sqlite" or not database or database == ":memory:" or database.startswith("file:"):
        return None
    path = Path(database)
    if not path.is_file() or (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)):
        return None
    mode = "mode=ro" if path.with_name(path.name + "-wal").exists() else "immutable=1"
    return f"sqlite:///file:{quote(str(path))}?{mode}&uri=true"


def _sqlite_engine(url: str) -> sa.Engine:
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
                self._engine = _sqlite_engine(read_only or url)
            else:
                self._engine = sa.create_engine(url)
            self.dialect = self._engine.dialect.name
            self._sql = _Statements(self.dialect)
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
            return [_info(r) for r in cursor.fetchall()]

    def find_campaign(self, name: str) -> CampaignRecord | None:
        with self._transaction(write=False) as cursor:
            cursor.execute(self._sql.campaign, {"name": name})
            row = cursor.fetchone()
            return None if row is None else _campaign(row)

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
                for start in range(0, len(events), _CHUNK):
                    chunk = [_event_row(cid, e) for e in events[start : start + _CHUNK]]
                    cursor.executemany(self._sql.insert_event, chunk)
                for start in range(0, len(snapshots), _CHUNK):
                    rows = [
                        {"cid": cid, "version": s.version, "data": s.data} for s in snapshots[start : start + _CHUNK]
                    ]
                    cursor.executemany(self._sql.insert_snapshot, rows)
                cursor.execute(self._sql.campaign, {"name": campaign.name})
                return _campaign(cursor.fetchone())
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
            yield _SqlHistory(cursor, self._sql, campaign_id, row[0])

    @contextmanager
    def writing(self, campaign_id: int) -> Iterator[HistoryWriter]:
        with self._transaction(write=True) as cursor:
            cursor.execute(self._sql.lock, {"cid": campaign_id})
            row = cursor.fetchone()
            if row is None:
                raise StoreError(f"campaign #{campaign_id} no longer exists")
            history = _SqlHistory(cursor, self._sql, campaign_id, row[0])
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
            return _member(cursor.fetchone())

    def members(self, campaign_id: int) -> list[MemberRecord]:
        with self._transaction(write=False) as cursor:
            cursor.execute(self._sql.members, {"cid": campaign_id})
            return [_member(r) for r in cursor.fetchall()]

    def member_by_token_id(self, token_id: str) -> MemberRecord | None:
        with self._transaction(write=False) as cursor:
            cursor.execute(self._sql.member_by_token, {"token_id": token_id})
            row = cursor.fetchone()
            return None if row is None else _member(row)

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
