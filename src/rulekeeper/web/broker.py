"""Live events: each server process pushes every new command of a campaign to its clients.

One task per process watches the store (:mod:`rulekeeper.store.changes`: ``PRAGMA
data_version`` every 20 ms on SQLite, a look every 50 ms on PostgreSQL), so commands written by
another worker process, another server or the CLI arrive like the process's own; a command
served here also ``poke``\\ s the broker so its clients hear of it at once. When something may
have changed, the broker reads the heads of the campaigns that have live clients in one
statement, then the new events of each that moved -- once per process, not once per client --
and hands the batch to every subscriber, which projects it for its own viewer
(:mod:`rulekeeper.web.projections`).

A subscriber registers first and reads its backlog (events after its ``Last-Event-ID``) from
the store second; events then arrive in order of ``seq`` and each client skips any ``seq`` it
has sent, so a reconnecting client gets every event it missed, and none twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rulekeeper.campaign.facade import log_entry
from rulekeeper.campaign.reading import PlayerTimeline

if TYPE_CHECKING:
    from rulekeeper.campaign import LogEntry, Roles, Store
    from rulekeeper.core import Ruleset
    from rulekeeper.store.changes import ChangeWatcher
    from rulekeeper.store.records import CampaignRecord
    from rulekeeper.web.pool import CampaignPool

__all__ = ["Batch", "EventBroker", "Subscription"]

_log = logging.getLogger("rulekeeper.web.events")

#: Seconds between looks while the store cannot be read (a database restarting).
_FAILING_INTERVAL = 1.0


@dataclass(frozen=True)
class Batch:
    """New events of one campaign (oldest first) with the roles and ruleset to project them."""

    entries: tuple[LogEntry, ...]
    roles: Roles
    ruleset: Ruleset[Any]
    timeline: PlayerTimeline = field(default_factory=PlayerTimeline)  # how players count them


@dataclass(eq=False)
class Subscription:
    """One live client's inbox."""

    record: CampaignRecord
    queue: asyncio.Queue[Batch] = field(default_factory=asyncio.Queue)


class EventBroker:
    """Per-process fan-out of new events to subscribers; start it inside the event loop."""

    def __init__(self, store: Store, pool: CampaignPool) -> None:
        self._store = store
        self._pool = pool
        self._subs: dict[int, set[Subscription]] = {}
        self._heads: dict[int, int] = {}
        self._records: dict[int, CampaignRecord] = {}
        self._wake: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread = 0
        self._task: asyncio.Task[None] | None = None
        self._watcher: ChangeWatcher | None = None
        self._poked = False
        self._heads_failing = False  # the last look could not read the heads
        self._retry = False  # something could not be read: look again whatever the watcher says
        self._unreadable: set[int] = set()  # campaigns whose new events could not be read

    # -- life cycle ----------------------------------------------------------------------------
    async def start(self) -> None:
        from rulekeeper.store.changes import watch_changes

        self._loop = asyncio.get_running_loop()
        self._loop_thread = threading.get_ident()
        self._wake = asyncio.Event()
        self._watcher = watch_changes(self._store.url)
        self._task = asyncio.create_task(self._run(), name="rulekeeper-broker")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._watcher is not None:
            self._watcher.close()

    def _wake_from_thread(self) -> None:
        loop, wake = self._loop, self._wake
        if loop is not None and wake is not None and not loop.is_closed():
            if threading.get_ident() == self._loop_thread:
                wake.set()  # a command run on the loop itself: no need to write to its pipe
            else:
                loop.call_soon_threadsafe(wake.set)

    def poke(self) -> None:
        """Something was just written here: look now rather than at the next interval.
        Safe to call from any thread. With nobody listening there is nothing to push: a client
        that subscribes later reads what was written from the store (its backlog)."""
        if not self._subs:
            return
        self._poked = True
        self._wake_from_thread()

    # -- subscribers ---------------------------------------------------------------------------
    async def subscribe(self, record: CampaignRecord) -> Subscription:
        """Register a client; once this returns, every change committed from then on reaches it
        (the caller reads what came before, its backlog, next)."""
        if record.id not in self._heads:
            head = await asyncio.to_thread(self._head, record.id)
            self._heads.setdefault(record.id, head)
        sub = Subscription(record)
        self._subs.setdefault(record.id, set()).add(sub)
        self._records[record.id] = record
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        subs = self._subs.get(sub.record.id)
        if subs is None:
            return
        subs.discard(sub)
        if not subs:
            del self._subs[sub.record.id]
            self._heads.pop(sub.record.id, None)
            self._records.pop(sub.record.id, None)

    @property
    def subscribers(self) -> int:
        return sum(len(s) for s in self._subs.values())

    # -- reading the store ---------------------------------------------------------------------
    def _head(self, campaign_id: int) -> int:
        with self._store.reading(campaign_id) as history:
            return history.head()

    def read(self, record: CampaignRecord, after: int) -> Batch:
        """Events of ``record`` after ``after``, with the campaign's current roles (a backlog,
        or what the broker fetches when the store changed). Blocking: run it in a thread."""
        with self._store.reading(record.id) as history:
            events = history.events(after=after)
        with self._pool.use(record) as campaign:
            upto = events[-1].seq if events else None
            roles, ruleset, timeline = campaign.roles, campaign.ruleset, campaign.player_timeline(upto)
        return Batch(tuple(log_entry(e) for e in events), roles, ruleset, timeline)

    def _fetch(self, wanted: dict[int, tuple[CampaignRecord, int]]) -> dict[int, Batch]:
        """The new events of each wanted campaign that moved. Anything that could not be read
        is looked at again at the next look (``_retry``), whatever the watcher then says: on
        SQLite it says "changed" once per commit, and that commit must not be lost to a hiccup."""
        out: dict[int, Batch] = {}
        try:
            heads = self._store.heads(list(wanted))
        except Exception:  # a database hiccup, a database down: look again, more slowly
            if not self._heads_failing:  # said once, not at every look while it lasts
                _log.warning("could not read the heads of %s campaigns", len(wanted), exc_info=True)
            self._heads_failing = self._retry = True
            return out
        if self._heads_failing:
            _log.info("the heads of the followed campaigns can be read again")
            self._heads_failing = False
        for cid, (record, after) in wanted.items():
            if heads.get(cid, 0) <= after:
                self._unreadable.discard(cid)
                continue  # not moved, or deleted
            try:
                out[cid] = self.read(record, after)
            except Exception:  # a campaign that cannot be read now: try again next time
                self._retry = True
                if cid not in self._unreadable:  # said once until it reads again
                    _log.warning("could not read new events of campaign #%s", cid, exc_info=True)
                    self._unreadable.add(cid)
            else:
                self._unreadable.discard(cid)
        return out

    async def _run(self) -> None:
        assert self._wake is not None and self._watcher is not None
        while True:
            # While the database cannot be read, look once a second, not 20 times: each look
            # may open a connection.
            interval = _FAILING_INTERVAL if self._heads_failing else self._watcher.interval
            # asyncio.timeout, not wait_for: Python 3.11's wait_for returns normally when the
            # cancellation of stop() arrives in the same turn as a poke's wake-up, and this loop
            # (and the server's shutdown waiting on it) then ran forever.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(interval):
                    await self._wake.wait()
            self._wake.clear()
            poked, self._poked = self._poked, False
            if not self._subs:
                continue  # nobody to tell; a new client reads its backlog from the store
            changed = self._watcher.changed()
            retry, self._retry = self._retry, False
            if not (changed or poked or retry):
                continue
            wanted = {cid: (self._records[cid], self._heads[cid]) for cid in self._subs}
            batches = await asyncio.to_thread(self._fetch, wanted)
            for cid, batch in batches.items():
                if not batch.entries or cid not in self._subs:
                    continue
                self._heads[cid] = max(self._heads.get(cid, 0), batch.entries[-1].seq)
                for sub in self._subs[cid]:
                    sub.queue.put_nowait(batch)

    def campaigns(self) -> Iterator[int]:
        return iter(self._subs)
