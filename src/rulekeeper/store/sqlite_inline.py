"""A SQLite file's statements for a server's event loop, run on the loop itself.

One ``rulekeeper serve`` process alone on a SQLite file serves an ordinary action on the awaited
path of PostgreSQL (``commands.execute_awaited``): its member as this process last read it,
checked again in the transaction that writes the event. That spares a read of the member per
action, and the hand-over of every action to a worker thread and back.

The loop never waits here, for a thread or for the database:
- each write runs at once under the server's writer lock, taken without blocking; when a worker
  thread holds it, the request is told so (:class:`~rulekeeper.store.base.AwaitedUnavailable`)
  and takes the worker-thread path, which queues for it;
- the loop thread's connection does not wait for SQLite's own write lock either
  (``SqliteStore.without_waiting``): a member added or a stream lease taken in a worker thread,
  or the CLI writing, sends the request the worker-thread path too, with nothing written;
- no statement suspends, so nothing else runs on the loop while one is under way.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager

from rulekeeper.errors import StoreBusy
from rulekeeper.store.base import AwaitedConnection, AwaitedStore, AwaitedUnavailable
from rulekeeper.store.records import EventRecord, MemberRecord, SnapshotRecord
from rulekeeper.store.sqlite import SqliteStore

__all__ = ["InlineSqlite"]


class InlineSqlite(AwaitedStore):
    """``store``'s statements, each run at once under ``writer`` (the server's writer lock)."""

    # In the same short transaction: SQLite's is as cheap with a snapshot as without.
    keeps_snapshots = True
    drops_snapshots = True

    def __init__(self, store: SqliteStore, writer: threading.RLock) -> None:
        self._store = store
        self._connection = _Inline(store)
        self._writer = writer
        self._in_use = False

    def _take(self) -> None:
        # The writer lock is re-entrant and the loop one thread: the flag keeps a second block
        # on the loop (were a statement ever to suspend) from sharing a transaction.
        if self._in_use or not self._writer.acquire(blocking=False):
            raise AwaitedUnavailable("a worker thread is writing")
        self._in_use = True
        try:
            self._store.without_waiting()
        except BaseException:
            self._give_back()
            raise

    def _give_back(self) -> None:
        self._in_use = False
        self._writer.release()

    @asynccontextmanager
    async def connected(self) -> AsyncIterator[AwaitedConnection]:
        self._take()
        try:
            yield self._connection
        finally:
            self._give_back()

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
        # connected() without its context manager's generator: every action on the file
        # writes here.
        self._take()
        try:
            return await self._connection.append_if_head(
                campaign_id,
                event,
                standing=standing,
                now=now,
                snapshot=snapshot,
                drop_snapshots_from=drop_snapshots_from,
            )
        finally:
            self._give_back()

    async def member_by_token_id(self, token_id: str) -> MemberRecord | None:
        # A read: WAL readers wait for no writer, so it needs no writer lock.
        self._store.without_waiting()
        return await self._connection.member_by_token_id(token_id)

    async def close(self) -> None:
        return None  # the store's connections are the store's to close


@contextmanager
def _turned_away() -> Iterator[None]:
    """Another writer holds SQLite's lock (a worker thread's member or lease, the CLI): nothing
    was done, and the worker-thread path, which waits for it, takes the request."""
    try:
        yield
    except StoreBusy:
        raise AwaitedUnavailable("the database is busy") from None


class _Inline(AwaitedConnection):
    def __init__(self, store: SqliteStore) -> None:
        self._store = store

    async def member_by_token_id(self, token_id: str) -> MemberRecord | None:
        with _turned_away():
            return self._store.member_by_token_id(token_id)

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
        with _turned_away():
            if standing is None:
                return self._store.append_if_head(campaign_id, event, snapshot, drop_snapshots_from)
            return self._store.append_if_standing(campaign_id, event, standing, now, snapshot, drop_snapshots_from)
