"""What one server process holds: the store, the warm campaigns and the live-event broker."""

from __future__ import annotations

import threading
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field

from fastapi import Request

from rulekeeper.campaign import Store
from rulekeeper.store.base import AwaitedStore
from rulekeeper.store.records import CampaignRecord, MemberRecord
from rulekeeper.store.sqlite import SqliteStore
from rulekeeper.store.sqlite_inline import InlineSqlite
from rulekeeper.web.broker import EventBroker
from rulekeeper.web.pool import CampaignPool
from rulekeeper.web.stream_tokens import StreamTokens

__all__ = ["KNOWN_MEMBERS", "Server", "server_of"]

#: Members a process keeps for awaited commands (``Server.known_members``).
KNOWN_MEMBERS = 4096


@dataclass
class Server:
    store: Store
    pool: CampaignPool
    broker: EventBroker
    #: Where join links point (``rulekeeper serve`` sets it: ``--public-url``, else the port bound).
    base_url: str = "http://127.0.0.1:8000"
    #: Whether a client on another machine may create or import a campaign (``serve --open-creation``).
    open_creation: bool = False
    #: Whether no other worker of this ``rulekeeper serve`` shares the database (``--workers 1``,
    #: or an app made in process): see :meth:`inline_awaited`.
    only_process: bool = True
    _sqlite_writer: threading.RLock = field(default_factory=threading.RLock)
    _records: dict[str, CampaignRecord] = field(default_factory=dict)
    #: The store's statements the event loop awaits (``Store.awaited``), while the app runs.
    awaited: AwaitedStore | None = None
    #: Members by token id, as last read for an awaited command: trusted only by a write that
    #: checks the member still stands (``auth.awaited_access``), most recently used last.
    known_members: dict[str, MemberRecord] = field(default_factory=dict)
    #: Whether the tokens of this process's live streams still stand (one read for all of them).
    stream_tokens: StreamTokens = field(init=False)

    def __post_init__(self) -> None:
        self.stream_tokens = StreamTokens(self.store)

    def find_campaign(self, name: str, campaign_id: int) -> CampaignRecord | None:
        """The campaign named ``name``, for a request whose token is of campaign ``campaign_id``.

        Kept from the last request: a request needs only the record's id and name, and a record
        found under a name changes only when that campaign is deleted and another takes its
        name -- and then its id differs from the token's, since no store gives an id twice
        (``statements._new_sqlite_id``), so it is read again. (A deleted
        campaign's tokens are deleted with it and never get this far.) One database read less
        per request, a round trip on PostgreSQL."""
        record = self.known_campaign(name, campaign_id)
        if record is None:
            record = self.store.find_campaign(name)
            if record is None:
                self._records.pop(name, None)
            else:
                self._records[name] = record
        return record

    def writing(self) -> AbstractContextManager[object]:
        """Held around each command, before its campaign's lock (always in that order). SQLite has
        one write lock per database, and threads that miss it sleep in SQLite's busy handler for
        up to tens of milliseconds; queueing them on a lock of this process instead hands the
        database over the moment it is free. PostgreSQL locks per campaign row, so commands
        there run side by side."""
        if self.store.url.startswith("sqlite"):
            return self._sqlite_writer
        return nullcontext()

    def known_campaign(self, name: str, campaign_id: int) -> CampaignRecord | None:
        """What :meth:`find_campaign` answers without reading the store, or None."""
        record = self._records.get(name)
        return record if record is not None and record.id == campaign_id else None

    def remember_member(self, member: MemberRecord) -> None:
        """Keep a member read for an awaited command (``auth.awaited_access``); the oldest are
        forgotten past :data:`KNOWN_MEMBERS`."""
        known = self.known_members
        known.pop(member.token_id, None)
        known[member.token_id] = member
        if len(known) > KNOWN_MEMBERS:
            del known[next(iter(known))]

    def inline_awaited(self) -> AwaitedStore | None:
        """For a SQLite file served by this process alone, the statements its event loop runs
        itself for ordinary actions (``store.sqlite_inline``); else None.

        Every command there already waits for this process's one writer lock, so a worker
        thread adds no concurrency -- only two hand-overs of the GIL and a wake-up per request,
        which cost a fifth of an action's CPU. With several processes on the file, another may
        hold SQLite's lock for longer: their commands take worker threads."""
        if not self.only_process or not isinstance(self.store, SqliteStore):
            return None
        return InlineSqlite(self.store, self._sqlite_writer)


async def server_of(request: Request) -> Server:
    """The process's :class:`Server`, a FastAPI dependency (async: no thread for a lookup)."""
    server: Server = request.app.state.rulekeeper
    return server
