"""The SQL text and row mapping shared by both SQL backends (no SQLAlchemy here).

Statements are written once with ``:name`` parameters, which the standard library's ``sqlite3``
takes as they are and which are rewritten to ``%(name)s`` for psycopg. A history runs them on a
plain DB-API cursor inside a transaction its store opened.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from typing import Any

from pydantic_core import to_json

from rulekeeper.errors import InputError, StoreError
from rulekeeper.store.base import HistoryReader, HistoryWriter, Store, unknown_campaign
from rulekeeper.store.records import (
    UNKNOWN_TIME,
    CampaignInfo,
    CampaignRecord,
    EventRecord,
    MemberRecord,
    NewCampaign,
    NewMember,
    RefusalRecord,
    SnapshotRecord,
)

__all__ = [
    "CHUNK",
    "SqlHistory",
    "StatementStore",
    "Statements",
    "campaign_info",
    "campaign_row",
    "dumps",
    "event_row",
    "member_row",
    "read_only_sqlite",
    "short",
]

CHUNK = 1000
_EVENT_COLUMNS = (
    "seq, kind, command, dice, outcome, actors, refs, at, until, next_id, next_id_after, "
    "idem_key, base_version, wall_time"
)
_EVENT_INSERT_COLUMNS = "campaign_id, " + _EVENT_COLUMNS
_CAMPAIGN_COLUMNS = "id, name, system, seed, gm, settings, created, version"
_MEMBER_COLUMNS = "id, campaign_id, name, role, characters, token_id, token_hash, created, expires, revoked"
_META = "('undo', 'redo')"
#: A member whose token still stands at ``:now``: not revoked, not expired.
_STANDS = "revoked IS NULL AND (expires IS NULL OR expires > :now)"


# One encoder for every call: json.dumps builds a new one whenever it is given options.
_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def dumps(value: Any) -> str:
    if not value and isinstance(value, (list, tuple)):
        return "[]"  # most events' dice, actors and refs
    return _encode(value)


def quick_json(value: Any, fallback: Callable[[Any], str]) -> str:
    """``fallback(value)``'s JSON text, written by pydantic-core's encoder (several times
    faster than the standard library's), for the plain data every caller passes.

    For plain data the two texts differ only in how a float's exponent is written (``1e-7``
    for ``1e-07``), and read back the same. A text showing a number JSON has no word for
    (NaN, infinity), or a value pydantic-core refuses, is left to ``fallback``, which writes
    or refuses it as it always did."""
    try:
        text = to_json(value).decode()
    except Exception:  # not JSON data to pydantic-core either
        return fallback(value)
    if "NaN" in text or "Infinity" in text:  # or only words in a text: rare, and the fallback is right
        return fallback(value)
    return text


def event_text(value: Mapping[str, Any] | Sequence[str]) -> str:
    """An event's command or actors as JSON text (plain data: ``campaign.jsonable.canonical``):
    an action's command in 0.3 µs against 2 µs for :func:`dumps`, on every event written."""
    return quick_json(value, dumps)


def event_row(campaign_id: int, e: EventRecord) -> dict[str, Any]:
    return {
        "cid": campaign_id,
        "seq": e.seq,
        "kind": e.kind,
        "command": event_text(e.command),
        "dice": dumps(e.dice),
        "outcome": e.outcome,
        "actors": event_text(e.actors),
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
        raise StoreError(f"event #{row[0]} is corrupt ({short(exc)})") from None
    return record


def member_row(row: Sequence[Any]) -> MemberRecord:
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


def campaign_row(row: Sequence[Any]) -> CampaignRecord:
    """A campaign row; a damaged header raises ``StoreError`` naming the campaign."""
    try:
        settings = json.loads(row[5])
        if not isinstance(settings, dict):
            raise ValueError("settings are not a mapping")
    except (ValueError, TypeError, RecursionError) as exc:
        raise StoreError(f"campaign {row[1]!r} has a corrupt header ({short(exc)})") from None
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


def campaign_info(row: Sequence[Any]) -> CampaignInfo:
    """A line of the campaign list; a damaged row is listed with its problem instead of failing the list."""
    try:
        return CampaignInfo.of(campaign_row(row))
    except StoreError as exc:
        return CampaignInfo(str(row[1]), str(row[2]), int(row[7]), str(row[4]), UNKNOWN_TIME, problem=str(exc))


def short(exc: BaseException) -> str:
    """The first line of an error, at most 120 characters, for a message naming a damaged row."""
    return (str(exc).splitlines() or [type(exc).__name__])[0][:120]


def _new_sqlite_id(cursor: Any) -> int:
    """The id of a campaign about to be made in a SQLite file: one above every id the file has
    ever given, kept in the file's header (``PRAGMA user_version``, which SQLite leaves to the
    application), and noted there in the same transaction.

    SQLite would otherwise give the highest id again once its campaign is deleted, and whatever
    a running server keeps by campaign id (the campaign it holds, its record, the events it
    streams) would then be taken for the new campaign: a campaign deleted by the CLI or another
    worker, and another made, showed the deleted one's characters to the new one's members and
    wrote events worked out on them into it. PostgreSQL's sequences never give an id twice."""
    cursor.execute("PRAGMA user_version")
    given = int(cursor.fetchone()[0])
    cursor.execute("SELECT coalesce(max(id), 0) FROM campaigns")
    new = max(given, int(cursor.fetchone()[0])) + 1
    cursor.execute(f"PRAGMA user_version = {new}")  # an int of ours: a pragma takes no parameters
    return new


class Statements:
    """Every statement the store runs, in the driver's parameter style."""

    def __init__(self, dialect: str) -> None:
        self.dialect = dialect
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
            f"INSERT INTO events ({_EVENT_INSERT_COLUMNS}) VALUES (:cid, :seq, :kind, :command, :dice, "
            ":outcome, :actors, :refs, :at, :until, :next_id, :next_id_after, :idem_key, :base_version, :wall_time)"
        )
        # A head moved on only from the version a command was worked out on, and only for a key
        # not used yet. A command without a key looks nothing up (and no plan, however the
        # database made it, can read the campaign's events to find none).
        self.move_head = sql(
            "UPDATE campaigns SET version = :seq WHERE id = :cid AND version = :base AND "
            "(CAST(:idem_key AS VARCHAR) IS NULL OR NOT EXISTS "
            "(SELECT 1 FROM events WHERE campaign_id = :cid AND idem_key = :idem_key))"
        )
        #: The same move, only while the member of token ``token_id`` stands (exists in this
        #: campaign, not revoked, not expired at ``now``): see ``append_if_standing``.
        stands = sql(f"EXISTS (SELECT 1 FROM members WHERE token_id = :token_id AND campaign_id = :cid AND {_STANDS})")
        self.move_head_standing = f"{self.move_head} AND {stands}"
        #: PostgreSQL: the head moved and the event appended in one statement, its own transaction;
        #: a row back means it was written. (Casts: the values are selected, not inserted as VALUES,
        #: so PostgreSQL cannot take their types from the columns.) It sends no ``NOTIFY``: those
        #: commit one at a time across the whole database server (docs/deployment.md); other
        #: processes look at the heads instead (``store.changes``).
        #: The campaign's row is taken only if no other transaction holds it (SKIP LOCKED): the
        #: writes of a process's event loop go a transaction at a time, so one write waiting for
        #: a row another process holds (a long undo, say) held up every campaign of the process
        #: behind it. A write that finds the row taken writes nothing, like one whose head moved,
        #: and the command is worked out again in a worker thread, which waits its turn.
        self.append_if_head = (
            "WITH moved AS ("
            "UPDATE campaigns SET version = %(seq)s WHERE id = "
            "(SELECT id FROM campaigns WHERE id = %(cid)s FOR NO KEY UPDATE SKIP LOCKED) AND version = %(base)s AND "
            "(%(idem_key)s::varchar IS NULL OR NOT EXISTS "
            "(SELECT 1 FROM events WHERE campaign_id = %(cid)s AND idem_key = %(idem_key)s::varchar)) RETURNING id"
            "), added AS ("
            f"INSERT INTO events ({_EVENT_INSERT_COLUMNS}) SELECT id, %(seq)s, %(kind)s::varchar, %(command)s::text, "
            "%(dice)s::text, %(outcome)s::text, %(actors)s::text, %(refs)s::text, %(at)s::bigint, "
            "%(until)s::bigint, %(next_id)s::bigint, %(next_id_after)s::bigint, %(idem_key)s::varchar, "
            "%(base_version)s::integer, %(wall_time)s::double precision FROM moved RETURNING seq"
            ") SELECT seq FROM added"
            if postgres
            else ""
        )
        #: PostgreSQL: the same, and only while the member of token ``token_id`` stands (exists in
        #: this campaign, not revoked, not expired at ``now``): a command authorised by a member
        #: read earlier is written only if that still holds, in the statement that writes it.
        head_condition = "AND version = %(base)s AND"
        assert not postgres or self.append_if_head.count(head_condition) == 1
        self.append_if_standing = (
            self.append_if_head.replace(
                head_condition,
                f"{head_condition} {stands} AND",
            )
            if postgres
            else ""
        )
        #: PostgreSQL: either append keeping a snapshot of the campaign at the new event, in the
        #: same statement (one command in ``SNAPSHOT_EVERY``), kept only if the event was added.
        #: A snapshot already there stays, as ``put_snapshot`` leaves it.
        keeping = (
            "), kept AS ("
            "INSERT INTO snapshots (campaign_id, version, data) "
            "SELECT %(cid)s, %(snapshot_version)s, %(snapshot)s::text FROM added "
            "ON CONFLICT (campaign_id, version) DO NOTHING"
            ") SELECT seq FROM added"
        )
        final = ") SELECT seq FROM added"
        assert not postgres or self.append_if_head.endswith(final)
        self.append_keeping_snapshot = self.append_if_head[: -len(final)] + keeping if postgres else ""
        self.append_standing_keeping_snapshot = self.append_if_standing[: -len(final)] + keeping if postgres else ""
        self.insert_snapshot = sql("INSERT INTO snapshots (campaign_id, version, data) VALUES (:cid, :version, :data)")
        self.drop_snapshots = sql(f"DELETE FROM snapshots {where} AND version >= :version")
        self.set_head = sql("UPDATE campaigns SET version = :version WHERE id = :cid")
        self.campaigns = f"SELECT {_CAMPAIGN_COLUMNS} FROM campaigns ORDER BY name"
        self.campaign = sql(f"SELECT {_CAMPAIGN_COLUMNS} FROM campaigns WHERE name = :name")
        self.insert_campaign = sql(
            "INSERT INTO campaigns (name, system, seed, gm, settings, created, version) "
            "VALUES (:name, :system, :seed, :gm, :settings, :created, :version) RETURNING id"
        )
        #: SQLite: the same with the id given (``StatementStore.create_campaign``).
        self.insert_campaign_as = sql(
            "INSERT INTO campaigns (id, name, system, seed, gm, settings, created, version) "
            "VALUES (:id, :name, :system, :seed, :gm, :settings, :created, :version) RETURNING id"
        )
        self.insert_member = sql(
            "INSERT INTO members (campaign_id, name, role, characters, token_id, token_hash, created, expires) "
            "VALUES (:cid, :name, :role, :characters, :token_id, :token_hash, :created, :expires) RETURNING id"
        )
        self.member_by_id = sql(f"SELECT {_MEMBER_COLUMNS} FROM members WHERE id = :id")
        self.members = sql(f"SELECT {_MEMBER_COLUMNS} FROM members {where} ORDER BY id")
        self.member_by_token = sql(f"SELECT {_MEMBER_COLUMNS} FROM members WHERE token_id = :token_id")
        self._in_dialect = sql
        self.revoke = sql(
            "UPDATE members SET revoked = :when WHERE campaign_id = :cid AND revoked IS NULL "
            "AND (name = :name OR token_id = :name)"
        )
        self.insert_refusal = sql(
            "INSERT INTO refusals (campaign_id, wall_time, member, role, what, why) "
            "VALUES (:cid, :wall_time, :member, :role, :what, :why)"
        )
        # Everything older than the newest ``keep`` (a no-op while there are fewer).
        self.trim_refusals = sql(
            f"DELETE FROM refusals {where} AND id <= (SELECT id FROM refusals {where} "
            "ORDER BY id DESC LIMIT 1 OFFSET :keep)"
        )
        self.refusals = sql(f"SELECT member, role, what, why, wall_time FROM refusals {where} ORDER BY id")
        # A token's leases are counted under its member row's lock, so two processes cannot
        # both see room for one more stream (SQLite: the database's single write lock).
        self.lock_token = sql("SELECT id FROM members WHERE token_id = :token_id" + (" FOR UPDATE" if postgres else ""))
        self.lapse_leases = sql("DELETE FROM stream_leases WHERE token_id = :token_id AND expires <= :now")
        self.count_leases = sql("SELECT COUNT(*) FROM stream_leases WHERE token_id = :token_id")
        self.insert_lease = sql(
            "INSERT INTO stream_leases (lease, token_id, expires) VALUES (:lease, :token_id, :expires)"
        )
        self.renew_lease = sql("UPDATE stream_leases SET expires = :expires WHERE lease = :lease")
        self.release_lease = sql("DELETE FROM stream_leases WHERE lease = :lease")
        self.delete = (
            sql("DELETE FROM refusals WHERE campaign_id = :cid"),
            sql("DELETE FROM members WHERE campaign_id = :cid"),
            sql("DELETE FROM snapshots WHERE campaign_id = :cid"),
            sql("DELETE FROM events WHERE campaign_id = :cid"),
            sql("DELETE FROM campaigns WHERE id = :cid"),
        )

    def heads(self, count: int) -> str:
        """The version of each of ``count`` campaigns (``:c0`` ...) that exists."""
        listed = ", ".join(f":c{i}" for i in range(count))
        return self._in_dialect(f"SELECT id, version FROM campaigns WHERE id IN ({listed})")

    def standing_tokens(self, count: int) -> str:
        """Which of ``count`` token ids (``:t0`` ...) stand at ``:now``: not revoked, not expired."""
        listed = ", ".join(f":t{i}" for i in range(count))
        return self._in_dialect(f"SELECT token_id FROM members WHERE token_id IN ({listed}) AND {_STANDS}")


class SqlHistory:
    """One campaign's history inside one open transaction (a driver cursor)."""

    def __init__(self, cursor: Any, sql: Statements, campaign_id: int, head: int) -> None:
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
        self._cur.execute(self._sql.insert_event, event_row(self._cid, event))
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


def read_only_sqlite(path: str) -> str | None:
    """A read-only ``file:`` URI for a SQLite file this process cannot write (a read-only file or
    filesystem); None when the file can be written (or does not exist yet).

    Opened normally, SQLite would fail to make its WAL side files and refuse even to read. Without
    a WAL file left behind the database is complete in its one file and can be opened immutable;
    with one, read-only mode reads through it. Writes on such a connection fail with SQLite's own
    "attempt to write a readonly database", which the stores report as a ``StoreError``.
    """
    import os

    if not path or path == ":memory:" or path.startswith("file:"):
        return None
    # os.path, not pathlib: every command opening a writable file passes here.
    if not os.path.isfile(path) or (os.access(path, os.W_OK) and os.access(os.path.dirname(path) or ".", os.W_OK)):
        return None
    from urllib.parse import quote

    mode = "mode=ro" if os.path.exists(path + "-wal") else "immutable=1"
    return f"file:{quote(os.path.realpath(path))}?{mode}"


class StatementStore(Store):
    """The store operations both SQL stores share, written once over :class:`Statements`: the
    stdlib ``sqlite3`` store and the SQLAlchemy one differ only in how they open a transaction
    (``_transaction``, yielding a DB-API cursor) and which driver error means a unique name was
    taken (``_integrity_errors``)."""

    _sql: Statements
    _integrity_errors: tuple[type[BaseException], ...]

    def _transaction(self, *, write: bool, single: bool = False, history: bool = False) -> AbstractContextManager[Any]:
        """A cursor in a transaction: ``write`` takes the write lock; ``single`` is a read of one
        statement, which needs no transaction of its own (one round trip on PostgreSQL, not
        three: its own snapshot is consistent by itself); ``history`` is a campaign history's
        transaction, whose statements may be sent ahead of their results (PostgreSQL)."""
        raise NotImplementedError

    # -- campaigns --------------------------------------------------------------------------
    def list_campaigns(self) -> list[CampaignInfo]:
        with self._transaction(write=False, single=True) as cursor:
            cursor.execute(self._sql.campaigns)
            return [campaign_info(r) for r in cursor.fetchall()]

    def heads(self, campaign_ids: Collection[int]) -> dict[int, int]:
        rows = self._rows_in_chunks(self._sql.heads, "c", list(campaign_ids))
        return {int(row[0]): int(row[1]) for row in rows}

    def _rows_in_chunks(
        self, statement: Callable[[int], str], prefix: str, values: Sequence[Any], **extra: Any
    ) -> Iterator[Any]:
        """The rows of ``statement`` for ``values`` (named ``:<prefix>0`` ...), ``CHUNK`` values
        to a statement, each a read of its own."""
        for start in range(0, len(values), CHUNK):
            chunk = values[start : start + CHUNK]
            named = {f"{prefix}{i}": value for i, value in enumerate(chunk)}
            with self._transaction(write=False, single=True) as cursor:
                cursor.execute(statement(len(chunk)), {**named, **extra})
                rows = cursor.fetchall()
            yield from rows

    def find_campaign(self, name: str) -> CampaignRecord | None:
        with self._transaction(write=False, single=True) as cursor:
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
                row = {
                    "name": campaign.name,
                    "system": campaign.system,
                    "seed": campaign.seed,
                    "gm": campaign.gm,
                    "settings": dumps(campaign.settings),
                    "created": campaign.created,
                    "version": len(events),
                }
                if self._sql.dialect == "sqlite":
                    cursor.execute(self._sql.insert_campaign_as, {**row, "id": _new_sqlite_id(cursor)})
                else:
                    cursor.execute(self._sql.insert_campaign, row)
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
        with self._transaction(write=False, history=True) as cursor:
            cursor.execute(self._sql.head, {"cid": campaign_id})
            row = cursor.fetchone()
            if row is None:
                raise StoreError(f"campaign #{campaign_id} no longer exists")
            yield SqlHistory(cursor, self._sql, campaign_id, row[0])

    @contextmanager
    def writing(self, campaign_id: int) -> Iterator[HistoryWriter]:
        with self._transaction(write=True, history=True) as cursor:
            cursor.execute(self._sql.lock, {"cid": campaign_id})
            row = cursor.fetchone()
            if row is None:
                raise StoreError(f"campaign #{campaign_id} no longer exists")
            history = SqlHistory(cursor, self._sql, campaign_id, row[0])
            yield history
            history.finish()

    def append_if_head(
        self,
        campaign_id: int,
        event: EventRecord,
        snapshot: SnapshotRecord | None = None,
        drop_snapshots_from: int | None = None,
    ) -> bool:
        if snapshot is not None or drop_snapshots_from is not None:
            # One command in SNAPSHOT_EVERY: the history's own transaction, on the same conditions.
            return super().append_if_head(campaign_id, event, snapshot, drop_snapshots_from)
        params = {**event_row(campaign_id, event), "base": event.seq - 1}
        if self._sql.append_if_head:
            # Its own transaction (autocommit): one round trip where a history's takes two.
            with self._transaction(write=True, single=True) as cursor:
                cursor.execute(self._sql.append_if_head, params)
                return cursor.fetchone() is not None
        with self._transaction(write=True) as cursor:
            cursor.execute(self._sql.move_head, params)
            if cursor.rowcount != 1:
                return False  # nothing changed: the empty transaction commits
            cursor.execute(self._sql.insert_event, params)
            return True

    def append_if_standing(
        self,
        campaign_id: int,
        event: EventRecord,
        token_id: str,
        now: float,
        snapshot: SnapshotRecord | None = None,
        drop_snapshots_from: int | None = None,
    ) -> bool:
        """:meth:`append_if_head`, and only while the member of token ``token_id`` stands in
        this campaign (not revoked, not expired at ``now``), checked in the transaction that
        writes it: a command authorised by a member read earlier (and kept,
        ``Server.known_members``) is written only if that still holds."""
        params = {**event_row(campaign_id, event), "base": event.seq - 1, "token_id": token_id, "now": now}
        with self._transaction(write=True) as cursor:
            cursor.execute(self._sql.move_head_standing, params)
            if cursor.rowcount != 1:
                return False  # nothing changed: the empty transaction commits
            cursor.execute(self._sql.insert_event, params)
            history = SqlHistory(cursor, self._sql, campaign_id, event.seq)
            if drop_snapshots_from is not None:
                history.drop_snapshots(drop_snapshots_from)
            if snapshot is not None:
                history.put_snapshot(snapshot)
            return True

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
        with self._transaction(write=False, single=True) as cursor:
            cursor.execute(self._sql.members, {"cid": campaign_id})
            return [member_row(r) for r in cursor.fetchall()]

    def standing_tokens(self, token_ids: Sequence[str], now: float) -> set[str]:
        return {row[0] for row in self._rows_in_chunks(self._sql.standing_tokens, "t", token_ids, now=now)}

    def member_by_token_id(self, token_id: str) -> MemberRecord | None:
        with self._transaction(write=False, single=True) as cursor:
            cursor.execute(self._sql.member_by_token, {"token_id": token_id})
            row = cursor.fetchone()
            return None if row is None else member_row(row)

    def revoke_members(self, campaign_id: int, name: str, when: float) -> int:
        with self._transaction(write=True) as cursor:
            cursor.execute(self._sql.revoke, {"cid": campaign_id, "name": name, "when": when})
            count: int = cursor.rowcount
            return count

    # -- refusals ---------------------------------------------------------------------------
    def add_refusal(self, campaign_id: int, refusal: RefusalRecord, keep: int) -> None:
        with self._transaction(write=True) as cursor:
            cursor.execute(
                self._sql.insert_refusal,
                {
                    "cid": campaign_id,
                    "wall_time": refusal.wall_time,
                    "member": refusal.member,
                    "role": refusal.role,
                    "what": refusal.what,
                    "why": refusal.why,
                },
            )
            cursor.execute(self._sql.trim_refusals, {"cid": campaign_id, "keep": keep})

    def refusals(self, campaign_id: int) -> list[RefusalRecord]:
        with self._transaction(write=False, single=True) as cursor:
            cursor.execute(self._sql.refusals, {"cid": campaign_id})
            return [RefusalRecord(str(r[0]), str(r[1]), str(r[2]), str(r[3]), float(r[4])) for r in cursor.fetchall()]

    # -- live-stream leases -----------------------------------------------------------------
    def take_stream_lease(self, token_id: str, lease: str, now: float, expires: float, limit: int) -> bool:
        with self._transaction(write=True) as cursor:
            cursor.execute(self._sql.lock_token, {"token_id": token_id})
            cursor.fetchall()
            cursor.execute(self._sql.lapse_leases, {"token_id": token_id, "now": now})
            cursor.execute(self._sql.count_leases, {"token_id": token_id})
            if int(cursor.fetchone()[0]) >= limit:
                return False
            cursor.execute(self._sql.insert_lease, {"lease": lease, "token_id": token_id, "expires": expires})
            return True

    def renew_stream_leases(self, leases: Sequence[str], expires: float) -> None:
        if leases:
            with self._transaction(write=True) as cursor:
                cursor.executemany(self._sql.renew_lease, [{"lease": lease, "expires": expires} for lease in leases])

    def release_stream_leases(self, leases: Sequence[str]) -> None:
        if leases:
            with self._transaction(write=True) as cursor:
                cursor.executemany(self._sql.release_lease, [{"lease": lease} for lease in leases])
