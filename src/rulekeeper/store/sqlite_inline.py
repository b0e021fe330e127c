"""A SQLite file's statements for a server's event loop, run on the loop itself.

One ``rulekeeper serve`` process alone on a SQLite file already writes its commands on the
event loop whenever its one writer lock is free (``Server.inline_writer``). Through this class
an ordinary action there also takes the awaited path of PostgreSQL (``commands.execute_awaited``):
its member as this process last read it, checked again in the transaction that writes the
event. That spares a read of the member per action, about a twentieth of its CPU.

Nothing here ever waits: each statement runs at once, under the writer lock taken without
blocking; when a worker thread holds that lock, the request is told so
(:class:`~rulekeeper.store.base.AwaitedUnavailable`) and takes the worker-thread path, which
queues for it. So the loop never waits for a thread, and never holds the lock across a pause.
"""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from rulekeeper.store.base import AwaitedConnection, AwaitedStore, AwaitedUnavailable
from rulekeeper.store.records import EventRecord, MemberRecord, SnapshotRecord
from rulekeeper.store.sqlite import SqliteStore

__all__ = ["InlineSqlite"]


class InlineSqlite(AwaitedStore):
    """``store``'s statements, each run at once under ``writer`` (the server's writer lock)."""

    # In the same short transaction: SQLite's is as cheap with a snapshot as without.
    keeps_snapshots = True

    def __init__(self, store: SqliteStore, writer: threading.RLock) -> None:
        self._connection = _Inline(store)
        self._writer = writer

    @asynccontextmanager
    async def connected(self) -> AsyncIterator[AwaitedConnection]:
        if not self._writer.acquire(blocking=False):
            raise AwaitedUnavailable("a worker thread is writing")
        try:
            yield self._connection
        finally:
            self._writer.release()

    async def close(self) -> None:
        return None  # the store's connections are the store's to close


class _Inline(AwaitedConnection):
    def __init__(self, store: SqliteStore) -> None:
        self._store = store

    async def member_by_token_id(self, token_id: str) -> MemberRecord | None:
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
        if standing is None:
            return self._store.append_if_head(campaign_id, event, snapshot, drop_snapshots_from)
        return self._store.append_if_standing(campaign_id, event, standing, now, snapshot, drop_snapshots_from)
