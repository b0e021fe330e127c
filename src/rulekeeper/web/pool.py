"""One ``Campaign`` object per campaign per server process, kept warm between requests.

Opening a campaign reads its newest snapshot and replays the events after it; doing that for
every request would cost more than the command itself. The pool keeps each campaign open and
catches it up (``refresh``) before a read -- a command catches up inside its own transaction
anyway -- so other workers and the CLI writing the same database are always seen. A lock per
campaign keeps to the facade's rule of one thread per ``Campaign`` object.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

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

    @contextmanager
    def held_now(self, record: CampaignRecord) -> Iterator[Campaign | None]:
        """The campaign, if it is open and nobody holds it this moment, held for the block;
        else None. It neither waits nor reads the store: for the event loop, which must never
        block on a worker thread's command (the thread may be waiting for the database)."""
        lock = self._lock(record.id)
        if not lock.acquire(blocking=False):
            yield None
            return
        try:
            with self._forgotten_on_failure(record.id):
                yield self._open.get(record.id)
        finally:
            lock.release()

    @contextmanager
    def _forgotten_on_failure(self, campaign_id: int) -> Iterator[None]:
        """A block using the campaign: a refusal leaves the object as it was (nothing was
        written), but a store error, or a write cancelled before its answer came, may leave it
        anywhere: it is opened afresh next time."""
        try:
            yield
        except (InputError, RuleRefusal, ConflictError):
            raise
        except BaseException:
            self._open.pop(campaign_id, None)
            raise

    def forget(self, campaign_id: int) -> None:
        with self._guard:
            self._open.pop(campaign_id, None)
