"""One ``Campaign`` object per campaign per server process, kept warm between requests.

Opening a campaign reads its newest snapshot and replays the events after it; doing that for
every request would cost more than the command itself. The pool keeps each campaign open and
catches it up (``refresh``) before a read -- a command catches up inside its own transaction
anyway -- so other workers and the CLI writing the same database are always seen. A lock per
campaign keeps to the facade's rule of one thread per ``Campaign`` object.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import AbstractAsyncContextManager, contextmanager

from rulekeeper.campaign import Campaign, Store
from rulekeeper.errors import ConflictError, InputError, RuleRefusal
from rulekeeper.store.base import unknown_campaign
from rulekeeper.store.records import CampaignRecord

__all__ = ["CampaignPool"]


class CampaignPool:
    """Open campaigns by id, each behind its own lock."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._guard = threading.Lock()
        self._locks: dict[int, threading.Lock] = {}
        self._open: dict[int, Campaign] = {}
        # Campaigns a request on the event loop holds, and the loop's requests waiting for each
        # (both touched on the loop's thread only).
        self._on_loop: set[int] = set()
        self._waiting: dict[int, list[asyncio.Future[None]]] = {}

    def _lock(self, campaign_id: int) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(campaign_id, threading.Lock())

    @contextmanager
    def use(self, record: CampaignRecord, *, fresh: bool = True) -> Iterator[Campaign]:
        """The campaign, caught up with the store unless ``fresh`` is false (a command catches
        up by itself), held exclusively for the block."""
        with self._lock(record.id):
            campaign = self._open.get(record.id)
            if campaign is None:
                campaign = Campaign.open(self.store, record.name)
                if campaign.record.id != record.id:
                    raise unknown_campaign(self.store, record.name)
                # On PostgreSQL the write lock is the campaign's row, and one thread at a time
                # reaches this object (the lock above): a read transaction first would only add
                # round trips. SQLite's write lock is the whole file's, so there the rules still
                # run before it is taken (docs/limits.md, "No work under the write lock").
                campaign.plan_under_lock = self.store.url.startswith("postgresql")
                self._open[record.id] = campaign
            elif fresh:
                campaign.refresh()
            with self._forgotten_on_failure(record.id):
                yield campaign

    def held_soon(self, record: CampaignRecord) -> AbstractAsyncContextManager[Campaign | None]:
        """For a request on the event loop: the campaign, if it is open, held for the block --
        after the loop's other requests on it, which it awaits -- else None. None too, at once,
        while a worker thread holds it: the loop must never block on a thread's command (the
        thread may be waiting for the database), nor read the store here.

        Another request on the loop holds a campaign only while its write is awaited
        (PostgreSQL); waiting for it costs nothing, where the worker-thread path that None
        sends a request down costs more than the action itself: with two players acting at
        once on each campaign, every other action took it, and ``serve`` spent 0.96 ms of CPU
        per action instead of 0.50 (``benchmarks/server.py``, docs/deployment.md).

        A block that fails as :meth:`_forgotten_on_failure` says leaves the campaign to be
        opened afresh."""
        return _HeldSoon(self, record.id)

    @contextmanager
    def _forgotten_on_failure(self, campaign_id: int) -> Iterator[None]:
        """A block using the campaign: a refusal leaves the object as it was (nothing was
        written), but a store error, or a write cancelled before its answer came, may leave it
        anywhere: it is opened afresh next time."""
        try:
            yield
        except BaseException as exc:
            self._after_failure(campaign_id, exc)
            raise

    def _after_failure(self, campaign_id: int, exc: BaseException) -> None:
        """Forget the campaign's object after ``exc``, unless ``exc`` is a refusal."""
        if not isinstance(exc, (InputError, RuleRefusal, ConflictError)):
            self._open.pop(campaign_id, None)

    def forget(self, campaign_id: int) -> None:
        with self._guard:
            self._open.pop(campaign_id, None)


class _HeldSoon:
    """:meth:`CampaignPool.held_soon`'s block, as a class: every action on the loop takes one,
    and an ``asynccontextmanager``'s generator cost more than the holding itself."""

    __slots__ = ("_holds", "_id", "_lock", "_pool")

    def __init__(self, pool: CampaignPool, campaign_id: int) -> None:
        self._pool = pool
        self._id = campaign_id
        self._lock = pool._lock(campaign_id)
        self._holds = False

    async def __aenter__(self) -> Campaign | None:
        pool, campaign_id, lock = self._pool, self._id, self._lock
        while not lock.acquire(blocking=False):
            if campaign_id not in pool._on_loop:
                return None  # a worker thread's: its request waits there (commands.execute)
            waiter = asyncio.get_running_loop().create_future()
            pool._waiting.setdefault(campaign_id, []).append(waiter)
            try:
                await waiter
            finally:
                waiters = pool._waiting.get(campaign_id)
                if waiters is not None and waiter in waiters:
                    waiters.remove(waiter)
                    if not waiters:
                        del pool._waiting[campaign_id]
        pool._on_loop.add(campaign_id)
        self._holds = True
        return pool._open.get(campaign_id)

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: object) -> None:
        if not self._holds:
            return
        pool, campaign_id = self._pool, self._id
        try:
            if exc is not None:
                pool._after_failure(campaign_id, exc)
        finally:
            self._holds = False
            pool._on_loop.discard(campaign_id)
            self._lock.release()
            # Every waiter tries again, in the order they came: the first takes the campaign and
            # the others wait for it again -- or, should a worker thread take it first, they all
            # go that way rather than wait for a release nobody would tell them of.
            for waiter in pool._waiting.pop(campaign_id, ()):
                if not waiter.done():
                    waiter.set_result(None)
