"""The PostgreSQL statements a server's event loop awaits instead of handing them to a thread.

An ordinary action on PostgreSQL reads its token's member and appends one event in one
statement (``Store.append_if_head``). Run from a worker thread, those two round trips cost more
than the rules: every request handed the GIL from the event loop to a thread and back, and the
threads woke each other through locks (a third of a millisecond of CPU per action, much of it
in the kernel). Awaited on psycopg's asynchronous connections, the loop serves other requests
while PostgreSQL answers, and a slow or stalled database still freezes nothing.

Only these statements are here (a member's lookup and that append, with or without a
snapshot), in the same text as the blocking store's
(:class:`~rulekeeper.store.statements.Statements`); everything else a server does runs the
blocking store in a worker thread, as before. The connections are the event loop's own: made
in it, used only from it and closed in it (:meth:`AwaitedPostgres.close`).

The appends of one process go to PostgreSQL a transaction at a time, each transaction taking
every write that came while the one before was under way (:meth:`AwaitedPostgres.append_if_head`:
group commit). A write alone costs a round trip, a commit and a wake-up of the event loop;
measured side by side on one connection, writes sent four to a transaction cost a quarter of the
client CPU and a third of PostgreSQL's CPU each that the same writes cost one to a transaction
(libpq's pipeline mode, ``pg_prepared.run_prepared_together``). Each write is still answered as
if alone: written, refused at its head, or failed, and a transaction that one write fails is
rolled back and its other writes sent again one by one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any, NamedTuple

import psycopg

from rulekeeper.errors import OutcomeUnknown, StoreError
from rulekeeper.store.base import AwaitedConnection, AwaitedStore, AwaitedUnavailable
from rulekeeper.store.pg_prepared import (
    PreparedWrite,
    closing,
    prepare,
    run_prepared,
    run_prepared_together,
    still_open,
    watch_closing,
)
from rulekeeper.store.records import EventRecord, MemberRecord, SnapshotRecord
from rulekeeper.store.statements import Statements, event_row, member_row

__all__ = ["AwaitedPostgres", "cancels_without_a_thread"]

_log = logging.getLogger("rulekeeper.store")

#: Connections one event loop keeps at most: a worker's loop runs one request's statement at a
#: time, and a few in flight cover the others waiting on PostgreSQL.
POOL_SIZE = 4
#: How long the background waits for a new connection before trying again later.
CONNECT_SECONDS = 10
#: The most writes one transaction takes (``AwaitedPostgres.append_if_head``).
TOGETHER = 64
#: How long closing waits for the writes under way.
CLOSE_SECONDS = 5.0
#: How long a connection is held for one request's statement or one transaction of writes. A
#: database that stops answering (a synchronous standby gone, a half-open TCP connection) would
#: otherwise hold every write of the process, since they go a transaction at a time; given up,
#: the statement is cancelled and the connection closed, and a write already sent is told its
#: outcome is unknown. A write never waits for a campaign's row (``Statements.append_if_head``),
#: so an answer this late means the database itself is in trouble.
HOLD_SECONDS = 15.0


#: libpq 17 cancels a statement on the connection's own socket; older ones need a thread.
_CANCEL_WITHOUT_THREAD = 170000


def cancels_without_a_thread() -> bool:
    """Whether this libpq cancels a statement without a thread. A request cancelled mid-statement
    (uvicorn cancels those still running when it stops) makes psycopg cancel it; with libpq
    before 17 that runs in one of asyncio's threads, which may all be queued on the campaign the
    request holds. Without it, the server writes every command from worker threads, as before."""
    return psycopg.pq.version() >= _CANCEL_WITHOUT_THREAD


class AwaitedPostgres(AwaitedStore):
    """A few asynchronous connections to one PostgreSQL database.

    Connections are opened only in the background (:meth:`warm`, at start-up and whenever none
    is left: :meth:`warm_in_background`), never by a request: opening one may look the host name up in one of asyncio's
    threads, and a request may hold its campaign, on which those threads may be queued. A
    request that finds none open is told so (``AwaitedUnavailable``) and takes the blocking path.
    """

    # The one command in a hundred that keeps a snapshot is written in the same statement: in a
    # worker thread it cost several times an ordinary action, and a second player's action on
    # the campaign meanwhile went that way too. Forgetting snapshots (after finding a damaged
    # one) stays with the blocking store.
    keeps_snapshots = True

    def __init__(
        self,
        conninfo: str,
        statements: Statements,
        shown_url: str,
        *,
        size: int = POOL_SIZE,
        connect_args: dict[str, Any] | None = None,
    ) -> None:
        self._conninfo = conninfo
        #: libpq's settings for each connection beyond the URL's (its TCP keepalives: sql.py).
        self._connect_args = dict(connect_args or {})
        self._sql = statements
        self._shown_url = shown_url
        self._idle: list[psycopg.AsyncConnection[Any]] = []
        self._size = size
        self._count = 0  # connections open, idle or in use
        self._slots = asyncio.Semaphore(size)
        self._closed = False
        self._warming: asyncio.Task[None] | None = None
        #: Writes waiting for the next transaction, and the task writing them (if any).
        self._queue: list[_Queued] = []
        self._writer: asyncio.Task[None] | None = None
        self._said_unprepared = False
        #: The action's write, prepared on every connection as it opens (``store.pg_prepared``),
        #: and the same keeping a snapshot.
        self._writes = _Writes(
            PreparedWrite("rk_append_if_head", statements.append_if_head),
            PreparedWrite("rk_append_if_standing", statements.append_if_standing),
            PreparedWrite("rk_append_keeping_snapshot", statements.append_keeping_snapshot),
            PreparedWrite("rk_append_standing_keeping_snapshot", statements.append_standing_keeping_snapshot),
        )

    async def warm(self) -> None:
        """Open connections up to the pool's size, as a pool's minimum size would: a new
        PostgreSQL connection is a new server process, several milliseconds of work that the
        first players of the evening would otherwise wait for. One that cannot be opened now
        is tried again when a request next finds none."""

        async def one() -> None:
            try:
                # Bounded: a database that does not answer must not keep the pool from trying
                # again (one refill at a time) once it does.
                connection = await psycopg.AsyncConnection.connect(
                    self._conninfo,
                    autocommit=True,
                    connect_timeout=CONNECT_SECONDS,
                    client_encoding="utf8",
                    **self._connect_args,
                )
            except psycopg.Error:
                return
            watch_closing(connection)
            try:
                for write in self._writes:
                    await prepare(connection, write)
            except BaseException as exc:  # a failed statement, or the pool closed meanwhile
                await connection.close()
                if not isinstance(exc, psycopg.Error):
                    raise
                if not self._said_unprepared:  # once, not at every refill
                    _log.warning("cannot prepare the action's write on PostgreSQL: %s", exc)
                    self._said_unprepared = True
                return
            if self._closed or self._count >= self._size:
                await connection.close()
            else:
                self._count += 1
                self._idle.append(connection)

        await asyncio.gather(*(one() for _ in range(self._size - self._count)))

    def warm_in_background(self) -> None:
        """:meth:`warm` in the background, one at a time (the app calls it as it starts)."""
        if not self._closed and (self._warming is None or self._warming.done()):
            self._warming = asyncio.get_running_loop().create_task(self.warm())

    async def _drop(self, connection: psycopg.AsyncConnection[Any]) -> None:
        self._count -= 1
        await connection.close()

    @asynccontextmanager
    async def connected(self) -> AsyncIterator[_Connected]:
        """An open connection, in autocommit, held for the block: waits only for another
        request's statement to end, never for a thread. None open: ``AwaitedUnavailable`` (and
        more are opened in the background). A connection that failed is closed, never handed
        out again."""
        if self._closed:
            raise StoreError(f"database error ({self._shown_url}): the server is shutting down")
        async with self._slots:
            if not self._idle:
                self.warm_in_background()
                raise AwaitedUnavailable("no connection to PostgreSQL is open this moment")
            connection: psycopg.AsyncConnection[Any] | None = self._idle.pop()
            assert connection is not None
            held = _Connected(connection, self._sql, self._writes)
            try:
                async with asyncio.timeout(HOLD_SECONDS):
                    yield held
            except TimeoutError as exc:
                # Its statement was cancelled (``pg_prepared._answer``); the connection's state is
                # unknown, so it is not reused.
                await self._drop(connection)
                connection = None
                late = f"database error ({self._shown_url}): no answer within {HOLD_SECONDS:g} s"
                if held.sent:
                    raise OutcomeUnknown(f"{late} after a write was sent") from exc
                raise StoreError(late) from exc
            except psycopg.Error as exc:
                broken = connection.broken or closing(connection)
                if broken:
                    # The server went away (a restart, a failover): the idle connections went
                    # with it, and each would fail one request more. New ones in the background.
                    idle, self._idle = self._idle, []
                    for other in idle:
                        await self._drop(other)
                    self.warm_in_background()
                await self._drop(connection)
                connection = None
                reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
                if held.sent and (broken or isinstance(exc, psycopg.InterfaceError)):
                    # Lost once a write was on its way (or its answers made no sense): PostgreSQL
                    # may have committed it. Said so, not as a refusal, lest it be sent again.
                    sent = f"database error ({self._shown_url}) after a write was sent: {reason}"
                    raise OutcomeUnknown(sent) from exc
                raise StoreError(f"database error ({self._shown_url}): {reason}") from exc
            except BaseException:
                # Cancelled (the client went away) or worse mid-statement: the connection's
                # state is unknown, so it is not reused.
                await self._drop(connection)
                connection = None
                raise
            finally:
                if connection is not None:
                    if self._closed:
                        await self._drop(connection)
                    else:
                        self._idle.append(connection)

    async def append_if_head(
        self,
        campaign_id: int,
        event: EventRecord,
        *,
        standing: str | None = None,
        now: float = 0.0,
        snapshot: SnapshotRecord | None = None,
        drop_snapshots_from: int | None = None,
    ) -> bool:
        """The write, in one transaction with the others that came while the one before was
        being written (group commit): answered once that transaction has committed, or is
        known not to have."""
        write, params = self._writes.chosen(campaign_id, event, standing, now, snapshot, drop_snapshots_from)
        values = write.values(params)
        if values is None or self._closed:
            # psycopg's way, alone (or the shutting-down error): see _Connected.append_if_head.
            return await super().append_if_head(
                campaign_id, event, standing=standing, now=now, snapshot=snapshot, drop_snapshots_from=None
            )
        loop = asyncio.get_running_loop()
        queued = _Queued(campaign_id, write, values, loop.create_future())
        self._queue.append(queued)
        if self._writer is None:
            # Starts on the loop's next turn: the writes queued by then go with this one.
            self._writer = loop.create_task(self._write_queued())
        # A request cancelled meanwhile cancels this answer: its write is then left out of
        # any transaction not yet sent (one already sent lands, or not, with the others).
        return await queued.answer

    async def _write_queued(self) -> None:
        """Every queued write, a transaction at a time, until none is left."""
        try:
            while self._queue:
                together = [q for q in self._queue[:TOGETHER] if not q.answer.done()]
                del self._queue[:TOGETHER]
                if not together:
                    continue
                try:
                    await self._write_together(together)
                except Exception as exc:
                    # A fault of ours, not the database's: whatever became of the transaction,
                    # no request may wait for an answer that will never come.
                    _log.exception("the writes of %d actions were left unanswered", len(together))
                    for q in together:
                        if not q.answer.done():
                            q.answer.set_exception(
                                StoreError(f"database error ({self._shown_url}): {type(exc).__name__}")
                            )
        finally:
            self._writer = None

    async def _write_together(self, together: list[_Queued]) -> None:
        # No order is needed among them: a write never waits for its campaign's row (one that
        # another transaction holds is skipped, and the command worked out again in a worker
        # thread: ``Statements.append_if_head``), so no two transactions wait on each other.
        try:
            async with self.connected() as db:
                # Requests gone away while the connection was awaited are left out: nothing of
                # theirs has been sent (as for those gone before the writer took them).
                together = [q for q in together if not q.answer.done()]
                if not together:
                    return
                if len(together) == 1:
                    answers: list[bool] | None = [await db.run(together[0].write, together[0].values)]
                else:
                    answers = await db.run_together([(q.write, q.values) for q in together])
        except asyncio.CancelledError:
            for q in together:
                q.answer.cancel()
            raise
        except Exception as exc:  # StoreError or AwaitedUnavailable: the same for each of them
            for q in together:
                if not q.answer.done():
                    q.answer.set_exception(_copy(exc))
            return
        if answers is None:
            # One write failed and took the others back with it: each alone now, to be
            # written, or to fail, on its own (connected() says why in our words).
            for q in together:
                if not q.answer.done():  # not one whose request has gone away meanwhile
                    await self._write_together([q])
            return
        if len(answers) != len(together):
            raise RuntimeError(f"{len(answers)} answers for {len(together)} writes")
        for q, answer in zip(together, answers, strict=True):
            if not q.answer.done():
                q.answer.set_result(answer)

    async def close(self) -> None:
        self._closed = True
        writer = self._writer
        if writer is not None:
            # The writes already taken are answered (committed or not) before the pool closes;
            # those still queued are told the server is shutting down.
            done, _ = await asyncio.wait({writer}, timeout=CLOSE_SECONDS)
            if not done:
                writer.cancel()
        if self._warming is not None:
            self._warming.cancel()
        idle, self._idle = self._idle, []
        for connection in idle:
            await self._drop(connection)


def _copy(exc: Exception) -> Exception:
    """``exc`` again, for one more waiter (each raises its own, with its own traceback)."""
    again = type(exc)(*exc.args)
    again.__cause__ = exc.__cause__
    return again


class _Queued(NamedTuple):
    """A write waiting for the next transaction (``AwaitedPostgres.append_if_head``)."""

    campaign_id: int
    write: PreparedWrite
    values: list[bytes | None]
    answer: asyncio.Future[bool]


class _Writes(NamedTuple):
    head: PreparedWrite
    standing: PreparedWrite
    head_keeping: PreparedWrite
    standing_keeping: PreparedWrite

    def chosen(
        self,
        campaign_id: int,
        event: EventRecord,
        standing: str | None,
        now: float,
        snapshot: SnapshotRecord | None,
        drop_snapshots_from: int | None,
    ) -> tuple[PreparedWrite, dict[str, Any]]:
        """The write ``AwaitedConnection.append_if_head`` takes for these arguments, and its
        parameters."""
        if drop_snapshots_from is not None:
            raise ValueError("the awaited PostgreSQL statement forgets no snapshots (drops_snapshots is False)")
        params = {**event_row(campaign_id, event), "base": event.seq - 1}
        if snapshot is None:
            write = self.head if standing is None else self.standing
        else:
            write = self.head_keeping if standing is None else self.standing_keeping
            params.update(snapshot_version=snapshot.version, snapshot=snapshot.data)
        if standing is not None:
            params.update(token_id=standing, now=now)
        return write, params


class _Connected(AwaitedConnection):
    """The statements on one connection held by :meth:`AwaitedPostgres.connected`."""

    def __init__(self, connection: psycopg.AsyncConnection[Any], statements: Statements, writes: _Writes) -> None:
        self._connection = connection
        self._sql = statements
        self._writes = writes
        #: Whether a write has been handed to the connection (its outcome is then PostgreSQL's).
        self.sent = False

    def _sending(self) -> None:
        """Just before a write goes: the connection found still open (``pg_prepared.still_open``),
        so that a failure from here on may follow a commit, and a failure before it cannot."""
        still_open(self._connection)
        self.sent = True

    async def member_by_token_id(self, token_id: str) -> MemberRecord | None:
        async with self._connection.cursor() as cursor:
            await cursor.execute(self._sql.member_by_token, {"token_id": token_id})
            row = await cursor.fetchone()
        return None if row is None else member_row(row)

    async def append_if_head(
        self,
        campaign_id: int,
        event: EventRecord,
        *,
        standing: str | None = None,
        now: float = 0.0,
        snapshot: SnapshotRecord | None = None,
        drop_snapshots_from: int | None = None,
    ) -> bool:
        write, params = self._writes.chosen(campaign_id, event, standing, now, snapshot, drop_snapshots_from)
        values = write.values(params)
        if values is not None:
            return await self.run(write, values)
        # A value with no certain text form (store.pg_prepared): psycopg adapts it.
        async with self._connection.cursor() as cursor:
            self._sending()
            await cursor.execute(write.statement, params)
            return await cursor.fetchone() is not None

    async def run(self, write: PreparedWrite, values: list[bytes | None]) -> bool:
        """One prepared write, alone: whether it returned a row."""
        self._sending()
        return await run_prepared(self._connection, write, values)

    async def run_together(self, calls: Sequence[tuple[PreparedWrite, list[bytes | None]]]) -> list[bool] | None:
        """Several prepared writes in one transaction (``pg_prepared.run_prepared_together``)."""
        self._sending()
        return await run_prepared_together(self._connection, calls)
