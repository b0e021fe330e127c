"""The history as a :class:`~rulekeeper.campaign.Campaign` object last saw it: a command worked
out on that, without reading the store, and written only if the store still stands there.

Most commands reach a campaign object that is already current: the same process wrote the
previous command. Reading the head again first (a transaction of its own, or holding the
campaign's row lock over the rules on PostgreSQL) costs more than the rules themselves. So the
facade first works the command out on this presumed history and hands the one event to
``Store.append_if_head``, which appends it only if the head has not moved and its idempotency
key is new. Anything this history cannot answer without the store raises :class:`NotPresumed`,
and the command is worked out again on the stored history, as before.
"""

from __future__ import annotations

from rulekeeper.store.records import EventRecord, SnapshotRecord

__all__ = ["NotPresumed", "PresumedHistory"]


class NotPresumed(Exception):
    """The command needs more of the history than the presumed head: read the store."""


class PresumedHistory:
    """A ``HistoryReader`` knowing only its head; an unknown idempotency key reads as unused
    (``append_if_head`` checks it when writing)."""

    def __init__(self, head: int) -> None:
        self._head = head

    def head(self) -> int:
        return self._head

    def event_by_key(self, key: str) -> EventRecord | None:
        return None

    def event(self, seq: int) -> EventRecord | None:
        raise NotPresumed

    def events(self, after: int = 0, until: int | None = None) -> list[EventRecord]:
        raise NotPresumed

    def meta_events(self) -> list[EventRecord]:
        raise NotPresumed

    def command_seqs_desc(self, limit: int) -> list[int]:
        raise NotPresumed

    def latest_snapshot(self, at_most: int | None = None) -> SnapshotRecord | None:
        raise NotPresumed
