"""The live-event broker learns of another writer's commands by looking at the heads of the
campaigns its clients follow (no notification from the writer), and a store that cannot answer
for a while is said once in the log, not at every look."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection
from pathlib import Path

import pytest

from rulekeeper.campaign import Campaign, open_store
from rulekeeper.core.action import Action
from rulekeeper.errors import StoreError
from rulekeeper.store import Store
from rulekeeper.web.broker import Batch, EventBroker
from rulekeeper.web.pool import CampaignPool


def _failing_heads(store: Store, monkeypatch: pytest.MonkeyPatch) -> dict[str, bool]:
    """A switch: while ``["on"]``, the store cannot read heads (a database down)."""
    real_heads = store.heads
    failing = {"on": False}

    def heads(ids: Collection[int]) -> dict[int, int]:
        if failing["on"]:
            raise StoreError("database error (test): the server went away")
        return real_heads(ids)

    monkeypatch.setattr(store, "heads", heads)
    return failing


def test_a_command_written_elsewhere_arrives_and_a_failing_look_is_said_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    store = open_store("memory://")
    writer = Campaign.create(store, "far", "gurps", seed=1)
    writer.add_character("hero", {"st": 10, "ht": 12})
    failing = _failing_heads(store, monkeypatch)

    async def next_batch(queue: asyncio.Queue[Batch]) -> Batch:
        return await asyncio.wait_for(queue.get(), timeout=5)

    async def scenario() -> list[list[int]]:
        broker = EventBroker(store, CampaignPool(store))
        await broker.start()
        try:
            sub = await broker.subscribe(writer.record)
            # Written as another process would: this broker is never poked.
            writer.act(Action("damage", "hero", {"amount": 1}))
            first = await next_batch(sub.queue)
            failing["on"] = True
            await asyncio.sleep(0.4)  # several looks fail meanwhile
            writer.act(Action("heal", "hero", {"amount": 1}))
            await asyncio.sleep(0.2)
            assert sub.queue.empty()  # nothing can be read yet
            failing["on"] = False
            second = await next_batch(sub.queue)
            return [[e.seq for e in first.entries], [e.seq for e in second.entries]]
        finally:
            await broker.stop()

    with caplog.at_level(logging.INFO, logger="rulekeeper.web.events"):
        try:
            assert asyncio.run(scenario()) == [[2], [3]]
        finally:
            store.close()
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "could not read the heads" in warnings[0].getMessage()
    assert any("can be read again" in r.getMessage() for r in caplog.records)


def test_on_sqlite_a_commit_seen_while_the_store_failed_is_read_once_it_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SQLite's watch says "changed" once per commit: a look that then fails must be made again
    # even though no other commit follows.
    store = open_store(str(tmp_path / "campaigns.db"))
    other = open_store(str(tmp_path / "campaigns.db"))  # another process's connection
    writer = Campaign.create(other, "far", "gurps", seed=1)
    writer.add_character("hero", {"st": 10, "ht": 12})
    record = store.find_campaign("far")
    assert record is not None
    failing = _failing_heads(store, monkeypatch)

    async def scenario() -> list[int]:
        broker = EventBroker(store, CampaignPool(store))
        await broker.start()
        try:
            sub = await broker.subscribe(record)
            failing["on"] = True
            writer.act(Action("damage", "hero", {"amount": 1}))
            await asyncio.sleep(0.3)  # the watch saw the commit; the look failed
            failing["on"] = False  # and no other commit comes
            batch = await asyncio.wait_for(sub.queue.get(), timeout=5)
            return [e.seq for e in batch.entries]
        finally:
            await broker.stop()

    try:
        assert asyncio.run(scenario()) == [2]
    finally:
        other.close()
        store.close()
