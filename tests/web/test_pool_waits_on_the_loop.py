"""A request on the event loop waits there for the loop's other requests on its campaign
(``CampaignPool.held_soon``), but never for a worker thread's."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulekeeper.campaign import Campaign, open_store
from rulekeeper.errors import RuleRefusal, StoreError
from rulekeeper.store import Store
from rulekeeper.store.records import CampaignRecord
from rulekeeper.web.pool import CampaignPool


@pytest.fixture
def opened(tmp_path: Path) -> Iterator[tuple[CampaignPool, CampaignRecord]]:
    store: Store = open_store(str(tmp_path / "campaigns.db"))
    try:
        Campaign.create(store, "t", "gurps", seed=1)
        record = store.find_campaign("t")
        assert record is not None
        pool = CampaignPool(store)
        with pool.use(record):  # open in the pool, as after a first request
            pass
        yield pool, record
    finally:
        store.close()


class _ThreadHolding:
    """A worker thread that, once started, holds the campaign (``taken`` set) until stopped."""

    def __init__(self, pool: CampaignPool, record: CampaignRecord) -> None:
        self.taken, self._done = threading.Event(), threading.Event()

        def hold() -> None:
            with pool.use(record):
                self.taken.set()
                self._done.wait(10)

        self.thread = threading.Thread(target=hold)

    def stop(self) -> None:
        self._done.set()
        if self.thread.ident is not None:  # started
            self.thread.join()


def test_requests_on_the_loop_take_the_campaign_in_turn(opened: tuple[CampaignPool, CampaignRecord]) -> None:
    pool, record = opened
    order: list[str] = []

    async def request(name: str, hold: float) -> bool:
        async with pool.held_soon(record) as campaign:
            order.append(f"{name} in")
            await asyncio.sleep(hold)  # as a write awaited on PostgreSQL
            order.append(f"{name} out")
            return campaign is not None

    async def scenario() -> list[bool]:
        return list(await asyncio.gather(request("a", 0.05), request("b", 0), request("c", 0)))

    assert asyncio.run(asyncio.wait_for(scenario(), 5)) == [True, True, True]  # none left waiting
    assert order == ["a in", "a out", "b in", "b out", "c in", "c out"]


def test_a_campaign_a_worker_thread_holds_is_not_waited_for(opened: tuple[CampaignPool, CampaignRecord]) -> None:
    pool, record = opened
    worker = _ThreadHolding(pool, record)
    worker.thread.start()
    try:
        assert worker.taken.wait(10)

        async def scenario() -> Campaign | None:
            async with pool.held_soon(record) as campaign:
                return campaign

        assert asyncio.run(asyncio.wait_for(scenario(), 2)) is None  # at once, not after the thread
    finally:
        worker.stop()


def test_waiters_go_the_thread_way_when_a_thread_takes_the_campaign_in_between(
    opened: tuple[CampaignPool, CampaignRecord],
) -> None:
    """The loop's holder lets go; a worker thread takes the campaign before the waiters run. They
    must not wait for a release that no one on the loop would announce."""
    pool, record = opened
    worker = _ThreadHolding(pool, record)

    async def holder() -> None:
        async with pool.held_soon(record) as campaign:
            assert campaign is not None
            await asyncio.sleep(0.05)  # the waiters queue meanwhile
            worker.thread.start()  # blocks on the campaign until released below

        # Released, and the waiters told: the loop itself waits (no await) until the thread has
        # the campaign, so that no waiter can run before it takes it.
        assert worker.taken.wait(10)

    async def waiter() -> Campaign | None:
        await asyncio.sleep(0.01)
        async with pool.held_soon(record) as campaign:
            return campaign

    async def scenario() -> list[Campaign | None]:
        results = await asyncio.gather(holder(), waiter(), waiter())
        return [results[1], results[2]]

    try:
        assert asyncio.run(asyncio.wait_for(scenario(), 5)) == [None, None]
    finally:
        worker.stop()


def test_a_cancelled_waiter_leaves_the_others_their_turn(opened: tuple[CampaignPool, CampaignRecord]) -> None:
    pool, record = opened

    async def scenario() -> Campaign | None:
        release = asyncio.Event()

        async def holder() -> None:
            async with pool.held_soon(record):
                await release.wait()

        async def waiter() -> Campaign | None:
            async with pool.held_soon(record) as campaign:
                return campaign

        first = asyncio.ensure_future(holder())
        await asyncio.sleep(0)
        gone = asyncio.ensure_future(waiter())
        kept = asyncio.ensure_future(waiter())
        await asyncio.sleep(0.01)
        gone.cancel()
        release.set()
        await first
        with pytest.raises(asyncio.CancelledError):
            await gone
        return await asyncio.wait_for(kept, 2)

    assert asyncio.run(scenario()) is not None
    assert not pool._waiting and not pool._on_loop  # nothing left behind


def test_a_block_that_fails_forgets_the_campaign_and_a_refusal_keeps_it(
    opened: tuple[CampaignPool, CampaignRecord],
) -> None:
    pool, record = opened

    async def fails_with(exc: BaseException) -> Campaign | None:
        with pytest.raises(type(exc)):
            async with pool.held_soon(record) as campaign:
                assert campaign is not None
                raise exc
        # Released either way: the next request takes it at once (or finds it gone).
        async with pool.held_soon(record) as again:
            return again

    kept = asyncio.run(fails_with(RuleRefusal("no such manoeuvre")))
    assert kept is not None  # a refusal wrote nothing: the object is as it was
    assert asyncio.run(fails_with(StoreError("the disk went away"))) is None  # opened afresh next time
    assert not pool._waiting and not pool._on_loop
    with pool.use(record) as reopened:  # the blocking path opens it again
        assert reopened is not kept
