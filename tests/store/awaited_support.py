"""What the awaited-store tests share."""

from __future__ import annotations

from typing import Any

from rulekeeper.store.base import AwaitedStore
from rulekeeper.store.records import EventRecord


async def written(awaited: AwaitedStore, campaign_id: int, event: EventRecord, **where: Any) -> bool:
    """One ``append_if_head`` on a connection held for it alone, as a command takes one
    (``commands.execute_awaited``); ``where``: its keywords (``standing``, ``now``, ...)."""
    async with awaited.connected() as db:
        return await db.append_if_head(campaign_id, event, **where)
