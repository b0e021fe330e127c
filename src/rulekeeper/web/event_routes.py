"""The live event stream of a campaign, as Server-Sent Events.

Why SSE rather than WebSocket: events only flow from server to client (commands are ordinary
POSTs with their own status codes, ``If-Match`` and ``Idempotency-Key``); SSE is plain HTTP, so
it passes proxies and needs no extra protocol in the server; and its ``id:`` field and the
``Last-Event-ID`` header give resumption for free -- a browser's ``EventSource`` reconnects by
itself and says where it stopped.

Each event is one command of the campaign, projected for the caller::

    id: 17
    event: command
    data: {"seq": 17, "kind": "act", "action": "damage", "explanation": [...], "version": 17}

``id`` is the command's seq. A client that reconnects with ``Last-Event-ID: 17`` (or
``?last_event_id=17``) gets every later command and nothing twice; an entry a viewer may not see
at all is skipped (no event, no id). A client ahead of the store (it saw seq 17, the store now ends
at 12: a restored backup) cannot catch up by events: it gets ``event: reset`` with the store's
version, and should reload what it shows (the pages do, ``static/table.js``). A comment line every
15 s keeps the connection open; a token revoked or expired while connected ends the stream with
``event: revoked`` within :data:`RECHECK_SECONDS` and ``stream_tokens.CHECK_SECONDS`` together (the
tokens of every stream of the process are read at once). One token holds at most
:data:`MAX_STREAMS_PER_TOKEN` streams (429 beyond) across every server process on one database:
each stream holds a lease in the store (``stream_leases``), renewed every
:data:`LEASE_RENEW_SECONDS` while it is open and given back when it ends; a process that dies
without giving its leases back has them lapse after :data:`LEASE_SECONDS`. A count in the process
refuses the excess of one process without a database write.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import threading
import time
import weakref
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Query
from fastapi.responses import StreamingResponse

from rulekeeper.errors import StoreError
from rulekeeper.store.base import Store
from rulekeeper.web.auth import Access, member
from rulekeeper.web.broker import Batch
from rulekeeper.web.guard import env_number
from rulekeeper.web.problems import MEDIA_TYPE, PROBLEM_RESPONSES, Problem
from rulekeeper.web.projections import Viewer, log_entry_json
from rulekeeper.web.server import Server, server_of

__all__ = ["KEEPALIVE_SECONDS", "router", "sse"]

router = APIRouter(responses=PROBLEM_RESPONSES)
KEEPALIVE_SECONDS = 15.0
#: How often an open stream wakes to look whether its token still stands (``stream_tokens``
#: reads every streamed token of the process at once, every ``CHECK_SECONDS``): a revoked
#: member's streams end within the two together.
RECHECK_SECONDS = 0.4
#: Live streams one token may hold open (``RULEKEEPER_MAX_STREAMS_PER_TOKEN``), whichever server
#: processes on the database serve them: a page holds one, a player with a phone and a laptop a
#: few; each costs a connection and memory.
MAX_STREAMS_PER_TOKEN = int(env_number("RULEKEEPER_MAX_STREAMS_PER_TOKEN", 8))
#: How long a stream's lease lasts unless renewed: how long the streams of a process killed
#: without notice still count against their token.
LEASE_SECONDS = 30.0
#: How often an open stream renews its lease (one small write).
LEASE_RENEW_SECONDS = 10.0

# Open streams per token id in this process.
_open: dict[str, int] = {}


class _Seat:
    """One open stream's place: its count in ``_open`` and its lease in the store, given back
    exactly once -- when the stream ends, or (a client gone before the stream began) when its
    generator is collected."""

    def __init__(self, token_id: str, store: Store, lease: str) -> None:
        self.token_id = token_id
        self.store = store
        self.lease = lease
        self._held = True
        _open[token_id] = _open.get(token_id, 0) + 1

    def release(self) -> None:
        if self._held:
            self._held = False
            left = _open.get(self.token_id, 1) - 1
            if left > 0:
                _open[self.token_id] = left
            else:
                _open.pop(self.token_id, None)
            # Off the event loop (a write may wait for the database's lock); should it fail or the
            # process stop first, the lease lapses by itself.
            threading.Thread(target=_give_back, args=(self.store, self.lease), daemon=True).start()


def _give_back(store: Store, lease: str) -> None:
    with contextlib.suppress(StoreError):  # it lapses after LEASE_SECONDS
        store.release_stream_leases([lease])


def sse(event: str, data: Any, event_id: int | None = None) -> str:
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def _head(server: Server, access: Access) -> int:
    with server.store.reading(access.record.id) as history:
        return history.head()


async def _stream(server: Server, access: Access, last_seen: int, seat: _Seat) -> AsyncIterator[str]:
    broker = server.broker
    tokens, token_id, held = server.stream_tokens, access.identity.token_id, False
    try:
        sub = await broker.subscribe(access.record)
    except BaseException:
        seat.release()
        raise
    try:
        # Registered first, backlog second: nothing written in between can fall through.
        backlog = await asyncio.to_thread(broker.read, access.record, last_seen)
        yield f": connected to process {os.getpid()}\n\n"
        tokens.hold(token_id)
        held = True
        last_beat = last_renewal = time.monotonic()
        batch: Batch | None = backlog
        # Anyone but the GM counts ids without the GM's secret commands (``Viewer.timeline``):
        # their Last-Event-ID is such a count, turned back into the table's seq here.
        last_seen = Viewer.of(access.identity, backlog.roles).seeing(backlog.timeline).actual(last_seen)
        if not backlog.entries and last_seen > 0:
            head = await asyncio.to_thread(_head, server, access)
            if last_seen > head:
                # A client ahead of the store (a database restored from a backup, a campaign made
                # anew under the same name): it cannot catch up by events. It is told to reload
                # what it shows, and hears every event after the store's head from now on.
                counted = Viewer.of(access.identity, backlog.roles).seeing(backlog.timeline).seq(head)
                yield sse("reset", {"version": counted, "detail": "the campaign's history is not the one seen"})
                last_seen = head
        while True:
            if batch is not None:
                viewer = Viewer.of(access.identity, batch.roles).seeing(batch.timeline)
                for entry in batch.entries:
                    if entry.seq <= last_seen:
                        continue
                    last_seen = entry.seq
                    shown = log_entry_json(batch.ruleset, entry, viewer)
                    if shown is not None:
                        counted = viewer.seq(entry.seq)
                        yield sse("command", {**shown, "version": counted}, counted)
            try:
                # Not wait_for: on Python 3.11 it can swallow a cancellation (a disconnect, a
                # shutdown) that arrives together with a batch; see EventBroker._run.
                async with asyncio.timeout(RECHECK_SECONDS):
                    batch = await sub.queue.get()
            except TimeoutError:
                batch = None
                if time.monotonic() - last_beat >= KEEPALIVE_SECONDS:
                    last_beat = time.monotonic()
                    yield ": keepalive\n\n"
            # A revoked or expired token hears nothing more: checked before a batch is sent.
            if not tokens.stands(token_id):
                yield sse("revoked", {"detail": "this token is no longer valid"})
                return
            if time.monotonic() - last_renewal >= LEASE_RENEW_SECONDS:
                last_renewal = time.monotonic()
                lease = [seat.lease]
                await asyncio.to_thread(server.store.renew_stream_leases, lease, time.time() + LEASE_SECONDS)
    finally:
        if held:
            tokens.release(token_id)
        broker.unsubscribe(sub)
        seat.release()


@router.get(
    "/api/campaigns/{campaign}/events",
    tags=["live"],
    response_class=StreamingResponse,
    responses={
        200: {"content": {"text/event-stream": {}}, "description": "Server-Sent Events, one per command."},
        429: {"content": {MEDIA_TYPE: {}}, "description": "This token already holds its live streams here."},
    },
)
async def events(
    access: Annotated[Access, Depends(member)],
    server: Annotated[Server, Depends(server_of)],
    token: Annotated[
        str | None, Query(max_length=200, description="The token, for clients that cannot set headers.")
    ] = None,
    last_event_id_query: Annotated[
        int | None, Query(alias="last_event_id", ge=0, le=2**31, description="Resume after this seq.")
    ] = None,
    last_event_id: Annotated[
        str | None, Header(alias="Last-Event-ID", max_length=20, description="Resume after this seq (SSE).")
    ] = None,
) -> StreamingResponse:
    """Every new command of the campaign, projected for the caller, as it happens."""
    from rulekeeper.errors import InputError

    resume = last_event_id_query or 0
    if last_event_id is not None and last_event_id.strip():
        text = last_event_id.strip()
        # isdigit() alone takes "²"; and a seq must fit the store's integers, as the query form does
        if not (text.isascii() and text.isdigit()) or int(text) > 2**31:
            raise InputError(
                f"Last-Event-ID {last_event_id!r} is not a seq", expected=f"a whole number from 0 to {2**31}"
            )
        resume = int(text)
    del token  # read by the identity dependency; declared here so the schema documents it
    token_id = access.identity.token_id
    full = Problem(
        429,
        "too-many-streams",
        f"this token already has {MAX_STREAMS_PER_TOKEN} live streams open (on this server or another "
        "serving the same database); close one first",
    )
    if _open.get(token_id, 0) >= MAX_STREAMS_PER_TOKEN:
        raise full  # this process alone holds them all: no need to ask the database
    lease, now = secrets.token_hex(16), time.time()
    store = server.store
    if not await asyncio.to_thread(
        store.take_stream_lease, token_id, lease, now, now + LEASE_SECONDS, MAX_STREAMS_PER_TOKEN
    ):
        raise full
    seat = _Seat(token_id, store, lease)
    stream = _stream(server, access, resume, seat)
    weakref.finalize(stream, seat.release)
    return StreamingResponse(
        stream,
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
