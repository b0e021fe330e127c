"""What the awaited-store tests share."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from typing import Any

from rulekeeper.store import Store
from rulekeeper.store.base import AwaitedStore
from rulekeeper.store.records import EventRecord


def awaiting(store: Store) -> AwaitedStore:
    """The store's awaited statements (connections not opened yet)."""
    awaited = store.awaited()
    assert awaited is not None
    return awaited


@asynccontextmanager
async def warmed(awaited: AwaitedStore) -> AsyncIterator[AwaitedStore]:
    """``awaited`` with its connections open, as a server opens them when it starts; closed
    when the block ends, however it ends."""
    await awaited.warm()
    try:
        yield awaited
    finally:
        await awaited.close()


async def written(awaited: AwaitedStore, campaign_id: int, event: EventRecord, **where: Any) -> bool:
    """One ``append_if_head`` on a connection held for it alone, as a command takes one
    (``commands.execute_awaited``); ``where``: its keywords (``standing``, ``now``, ...)."""
    async with awaited.connected() as db:
        return await db.append_if_head(campaign_id, event, **where)


async def appended(awaited: AwaitedStore, campaign_id: int, event: EventRecord, **where: Any) -> bool:
    """The same write as a command makes it (``AwaitedStore.append_if_head``; on PostgreSQL in
    a transaction with any others queued meanwhile)."""
    return await awaited.append_if_head(campaign_id, event, **where)


#: ``written`` or ``appended``.
Writer = Callable[..., Coroutine[Any, Any, bool]]
