"""The live-event broker stops when asked, even when a command pokes it at that very moment."""

from __future__ import annotations

import asyncio
from pathlib import Path

from rulekeeper.campaign import open_store
from rulekeeper.web.broker import EventBroker
from rulekeeper.web.pool import CampaignPool


def test_stop_right_after_a_poke_stops(tmp_path: Path) -> None:
    store = open_store(str(tmp_path / "campaigns.db"))

    async def scenario() -> bool:
        broker = EventBroker(store, CampaignPool(store))
        await broker.start()
        await asyncio.sleep(0.05)  # the broker waits for a wake-up
        # A command's poke is handled by the loop and wakes the broker's wait; shutting down
        # in the same turn used to lose the cancellation in asyncio.wait_for, and the broker
        # (and with it the server's shutdown) waited forever.
        broker.poke()
        await asyncio.sleep(0)
        stop = asyncio.ensure_future(broker.stop())
        done, _ = await asyncio.wait([stop], timeout=5)
        return bool(done)

    try:
        assert asyncio.run(scenario()), "the broker did not stop"
    finally:
        store.close()
