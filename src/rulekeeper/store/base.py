"""The small interface the campaign layer talks to; the SQL and in-memory backends implement it.

A backend knows nothing about rules: it stores campaign headers, appends events, keeps
snapshots, and runs each unit of work in a transaction. ``writing`` serialises writers of a
campaign (SQLite ``BEGIN IMMEDIATE``, a row lock on PostgreSQL), so the version a writer reads
is still the version when it commits.
"""

from __future__ import annotations

import abc
from collections.abc import Collection, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, AbstractContextManager
from typing import Protocol

from rulekeeper.errors import UnknownNameError
from rulekeeper.store.records import (
    CampaignInfo,
    CampaignRecord,
    EventRecord,
    MemberRecord,
    NewCampaign,
    NewMember,
    RefusalRecord,
    SnapshotRecord,
)

__all__ = [
    "AwaitedConnection",
    "AwaitedStore",
    "AwaitedUnavailable",
    "HistoryReader",
    "HistoryWriter",
    "Store",
    "unknown_campaign",
]


class HistoryReader(Protocol):
    """One campaign's history, read inside one transaction."""

    def head(self) -> int:
        """The campaign version: the number of events."""
        ...

    def event(self, seq: int) -> EventRecord | None: ...

    def event_by_key(self, key: str) -> EventRecord | None: ...

    def events(self, after: int = 0, until: int | None = None) -> list[EventRecord]:
        """Events with ``after < seq <= until``, oldest first."""
        ...

    def meta_events(self) -> list[EventRecord]:
        """Every undo and redo event, oldest first."""
        ...

    def command_seqs_desc(self, limit: int) -> list[int]:
        """The ``limit`` newest seqs of events that are commands (not undo/redo)."""
        ...

    def latest_snapshot(self, at_most: int | None = None) -> SnapshotRecord | None: ...


class HistoryWriter(HistoryReader, Protocol):
    """A history being appended to; everything commits together or not at all."""

    def append(self, event: EventRecord) -> None:
        """Append ``event``, whose seq must be ``head() + 1``."""
        ...

    def put_snapshot(self, snapshot: SnapshotRecord) -> None:
        """Keep a snapshot (a no-op if one exists at that version)."""
        ...

    def drop_snapshots(self, from_version: int) -> None:
        """Forget snapshots at ``from_version`` or later (an undo made them stale)."""
        ...


class AwaitedUnavailable(Exception):
    """No connection is open for an awaited statement this moment: take the blocking path
    (connections are opened in the background, never while a request waits)."""


class AwaitedConnection(abc.ABC):
    """The statements an event loop awaits, on one connection (:meth:`AwaitedStore.connected`)."""

    @abc.abstractmethod
    async def member_by_token_id(self, token_id: str) -> MemberRecord | None:
        """As :meth:`Store.member_by_token_id`."""

    @abc.abstractmethod
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
        """As :meth:`Store.append_if_head`; with ``standing``, a token id, only while its
        member stands in that campaign (not revoked, not expired at ``now``): checked in the
        write itself. ``snapshot`` only where the store :attr:`~AwaitedStore.keeps_snapshots`,
        ``drop_snapshots_from`` only where it :attr:`~AwaitedStore.drops_snapshots`."""


class AwaitedStore(abc.ABC):
    """The few statements an event loop awaits on a store whose round trips are worth not
    blocking a thread for (PostgreSQL: :mod:`rulekeeper.store.pg_awaited`). Made in the loop
    that awaits it (:meth:`Store.awaited`) and closed there."""

    #: Whether a write may also keep a snapshot. Where it may not, the one command in a hundred
    #: that does is written by the blocking store instead.
    keeps_snapshots = False
    #: Whether a write may also forget the snapshots from a version on (a damaged one found).
    #: Where it may not, such a command is written by the blocking store.
    drops_snapshots = False

    @abc.abstractmethod
    def connected(self) -> AbstractAsyncContextManager[AwaitedConnection]:
        """An open connection held for a block. It waits for nothing but other statements to
        end -- never for a thread -- so a command may take it while holding its campaign;
        :class:`AwaitedUnavailable` when none is open."""

    async def member_by_token_id(self, token_id: str) -> MemberRecord | None:
        async with self.connected() as connection:
            return await connection.member_by_token_id(token_id)

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
        """:meth:`AwaitedConnection.append_if_head` on a connection of its own; a store may
        write it together with others (PostgreSQL: ``store.pg_awaited``). Either way it is
        answered only once it is written, or known not to be."""
        async with self.connected() as connection:
            return await connection.append_if_head(
                campaign_id,
                event,
                standing=standing,
                now=now,
                snapshot=snapshot,
                drop_snapshots_from=drop_snapshots_from,
            )

    async def warm(self) -> None:
        """Get ready for the first requests (open connections); nothing by default."""
        return None

    def warm_in_background(self) -> None:
        """:meth:`warm` without waiting for it (the event loop's own task); nothing by default."""
        return None

    @abc.abstractmethod
    async def close(self) -> None: ...


class Store(abc.ABC):
    """Where campaigns live. Open one with :func:`rulekeeper.store.open_store`."""

    url: str

    @abc.abstractmethod
    def list_campaigns(self) -> list[CampaignInfo]: ...

    @abc.abstractmethod
    def find_campaign(self, name: str) -> CampaignRecord | None: ...

    @abc.abstractmethod
    def create_campaign(
        self,
        campaign: NewCampaign,
        events: Sequence[EventRecord] = (),
        snapshots: Sequence[SnapshotRecord] = (),
    ) -> CampaignRecord:
        """Create a campaign, with a whole history if given, atomically.

        A name already taken raises ``InputError``.
        """

    @abc.abstractmethod
    def delete_campaign(self, name: str) -> None: ...

    @abc.abstractmethod
    def reading(self, campaign_id: int) -> AbstractContextManager[HistoryReader]: ...

    @abc.abstractmethod
    def heads(self, campaign_ids: Collection[int]) -> dict[int, int]:
        """The version (head) of each of ``campaign_ids`` that still exists, in one look: what a
        server with live clients asks again and again to learn that another process wrote."""

    @abc.abstractmethod
    def writing(self, campaign_id: int) -> AbstractContextManager[HistoryWriter]: ...

    def append_if_head(
        self,
        campaign_id: int,
        event: EventRecord,
        snapshot: SnapshotRecord | None = None,
        drop_snapshots_from: int | None = None,
    ) -> bool:
        """Append ``event`` alone (with ``snapshot`` kept, and snapshots from
        ``drop_snapshots_from`` on forgotten, if given) if the campaign's head is still
        ``event.seq - 1`` and no event has its idempotency key; False, with nothing written,
        otherwise.

        A command worked out on the campaign as this process last saw it is written this way, in
        one short transaction (one statement on PostgreSQL). False means the history moved on (or
        the key was used): the caller works the command out again on the stored history."""
        with self.writing(campaign_id) as history:
            if history.head() != event.seq - 1 or (event.key is not None and history.event_by_key(event.key)):
                return False
            history.append(event)
            if drop_snapshots_from is not None:
                history.drop_snapshots(drop_snapshots_from)
            if snapshot is not None:
                history.put_snapshot(snapshot)
        return True

    def awaited(self) -> AwaitedStore | None:
        """Its statements for an event loop to await, made for the calling loop; None (the
        default) where the blocking calls are as cheap as awaiting them (SQLite, memory)."""
        return None

    # -- members: who may reach a campaign over the network ----------------------------------
    @abc.abstractmethod
    def add_member(self, campaign_id: int, member: NewMember) -> MemberRecord: ...

    @abc.abstractmethod
    def members(self, campaign_id: int) -> list[MemberRecord]:
        """Every member ever added, revoked ones included, oldest first."""

    @abc.abstractmethod
    def member_by_token_id(self, token_id: str) -> MemberRecord | None:
        """The member whose token has this public half, whatever its campaign or state."""

    def standing_tokens(self, token_ids: Sequence[str], now: float) -> set[str]:
        """Those of ``token_ids`` whose member exists, is not revoked and has not expired by
        ``now``: one read for every live stream of a process (``web.stream_tokens``)."""
        standing = set()
        for token_id in token_ids:
            member = self.member_by_token_id(token_id)
            if member is not None and member.revoked is None and (member.expires is None or member.expires > now):
                standing.add(token_id)
        return standing

    @abc.abstractmethod
    def revoke_members(self, campaign_id: int, name: str, when: float) -> int:
        """End every live token of member ``name`` (or the one whose token id is ``name``);
        returns how many were ended."""

    # -- refusals: what the seat refused, for the GM ------------------------------------------
    @abc.abstractmethod
    def add_refusal(self, campaign_id: int, refusal: RefusalRecord, keep: int) -> None:
        """Keep ``refusal``; only the newest ``keep`` of the campaign stay (older ones are deleted)."""

    @abc.abstractmethod
    def refusals(self, campaign_id: int) -> list[RefusalRecord]:
        """The refusals kept for a campaign, oldest first."""

    # -- live streams: how many each token holds, across every process on this database --------
    @abc.abstractmethod
    def take_stream_lease(self, token_id: str, lease: str, now: float, expires: float, limit: int) -> bool:
        """Record the stream ``lease`` of ``token_id`` until ``expires``, unless the token already
        holds ``limit`` leases that have not lapsed by ``now`` (then False, nothing recorded)."""

    @abc.abstractmethod
    def renew_stream_leases(self, leases: Sequence[str], expires: float) -> None:
        """Move the ends of ``leases`` (streams still open) to ``expires``."""

    @abc.abstractmethod
    def release_stream_leases(self, leases: Sequence[str]) -> None:
        """Forget ``leases`` (their streams ended)."""

    @abc.abstractmethod
    def close(self) -> None: ...

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def names(self) -> Iterator[str]:
        return (info.name for info in self.list_campaigns())


def unknown_campaign(store: Store, name: str) -> UnknownNameError:
    known = ", ".join(sorted(store.names())) or "none yet"
    return UnknownNameError(f"no campaign named {name!r}", expected=f"one of: {known}")
