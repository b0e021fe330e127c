"""uvicorn's HTTP/1.1 protocol with the connection limits ``rulekeeper serve`` needs.

uvicorn times out a kept-alive connection between requests, but not one that is slow to send a
request's headers: 3,000 clients trickling a byte now and then held 3,000 connections for as
long as they liked, and 21,000 idle ones ran the process out of file descriptors (the health
check timed out and every refused ``accept`` logged a traceback). Here:

* a connection must finish a request's headers within :data:`HEADER_SECONDS` of opening, or of
  its previous response (``RULEKEEPER_HEADER_TIMEOUT``); a slow one is closed;
* at most :data:`MAX_CONNECTIONS` connections are open in a process
  (``RULEKEEPER_MAX_CONNECTIONS``; by default just under the file-descriptor limit): a new one
  beyond it closes the oldest connection still waiting for headers, so a flood of idle
  connections cannot shut real clients out, and the process never runs out of descriptors;
* should ``accept`` still fail for want of descriptors, asyncio's report is one line, not a
  traceback (:func:`quiet_accept_errors`).

Body limits and body timeouts are the app's (:mod:`rulekeeper.web.guard`).

And one economy: what a response writes in one turn of the event loop -- uvicorn writes the
status line and headers, then the body, each straight to the socket -- leaves in one ``send``
(:class:`_OneSendPerTurn`). Each ``send`` on a TCP connection is a system call that runs the
network stack (on loopback, the receiver's side too): the second one was about a sixth of an
action's CPU (cProfile of ``benchmarks/server.py``'s load), and it made a second packet for
the client to read. Another: uvicorn's keep-alive timeout (a connection idle that long after a
response is closed) is kept in a table per event loop with one timer, like the header deadlines,
not in a timer set and cancelled for every response.
"""

from __future__ import annotations

import asyncio
import logging
import resource
import weakref
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from rulekeeper.web.guard import env_number
from rulekeeper.web.plain_http import AVAILABLE as PLAIN_AVAILABLE
from rulekeeper.web.plain_http import plain_request, start_plain

__all__ = ["HEADER_SECONDS", "MAX_CONNECTIONS", "GuardedH11Protocol", "quiet_accept_errors", "raise_fd_limit"]


def raise_fd_limit() -> int:
    """Raise this process's soft file-descriptor limit to its hard limit; return the limit."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        target = 1 << 20 if hard == resource.RLIM_INFINITY else hard
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return soft


HEADER_SECONDS = env_number("RULEKEEPER_HEADER_TIMEOUT", 10.0)
# Descriptors beyond connections: the database, the event watcher, logs, the listening socket.
_RESERVED_FDS = 256
MAX_CONNECTIONS = int(env_number("RULEKEEPER_MAX_CONNECTIONS", max(64, raise_fd_limit() - _RESERVED_FDS)))


class _AcceptErrorOnOneLine(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if "socket.accept() out of system resource" in record.getMessage():
            record.exc_info = None
            record.exc_text = None
            record.msg, record.args = "out of file descriptors: new connections wait (%s)", (MAX_CONNECTIONS,)
        return True


def quiet_accept_errors() -> None:
    log = logging.getLogger("asyncio")
    if not any(isinstance(f, _AcceptErrorOnOneLine) for f in log.filters):
        log.addFilter(_AcceptErrorOnOneLine())


class _OneSendPerTurn(asyncio.Transport):
    """A transport whose writes within one turn of the event loop are joined into one write of
    the real transport (at the end of that turn, or before closing it). Everything else is the
    real transport's."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self._transport = transport
        self._loop = loop
        self._pending: list[bytes] | None = None

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if not data:
            return
        if self._pending is None:
            self._pending = [bytes(data)]
            self._loop.call_soon(self._flush)
        else:
            self._pending.append(bytes(data))

    def writelines(self, list_of_data: Iterable[bytes | bytearray | memoryview]) -> None:
        for data in list_of_data:
            self.write(data)

    def _flush(self) -> None:
        pending, self._pending = self._pending, None
        if pending and not self._transport.is_closing():
            self._transport.write(pending[0] if len(pending) == 1 else b"".join(pending))

    def close(self) -> None:
        self._flush()
        self._transport.close()

    def abort(self) -> None:
        self._pending = None
        self._transport.abort()

    def write_eof(self) -> None:
        self._flush()
        self._transport.write_eof()

    def can_write_eof(self) -> bool:
        return self._transport.can_write_eof()

    def is_closing(self) -> bool:
        return self._transport.is_closing()

    def is_reading(self) -> bool:
        return self._transport.is_reading()

    def pause_reading(self) -> None:
        self._transport.pause_reading()

    def resume_reading(self) -> None:
        self._transport.resume_reading()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self._transport.get_extra_info(name, default)

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self._transport.set_protocol(protocol)

    def get_protocol(self) -> asyncio.BaseProtocol:
        return self._transport.get_protocol()

    def get_write_buffer_size(self) -> int:
        return self._transport.get_write_buffer_size() + sum(map(len, self._pending or ()))

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return self._transport.get_write_buffer_limits()

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        self._transport.set_write_buffer_limits(high, low)


class _Deadlines:
    """The connections on one event loop that must do something by a moment (send a request's
    headers, or anything at all after a response), oldest first, each with its moment, and one
    timer for all of them, set for the oldest; ``expire`` is called for a connection past its
    moment. Every arming of one table waits the same time, so arrival order is deadline order.
    Arming a connection is a dictionary update: a timer of its own per response (set, then
    cancelled when the next request came) was about 2 % of ``serve``'s CPU per action."""

    def __init__(self, expire: Callable[[GuardedH11Protocol], None]) -> None:
        self.due: dict[GuardedH11Protocol, float] = {}
        self._expire = expire
        # Whether the timer is set. Not its handle: the handle holds the loop, and this object
        # must not keep alive the loop it belongs to (GuardedH11Protocol._deadlines).
        self._timer_set = False

    def arm(self, connection: GuardedH11Protocol, loop: asyncio.AbstractEventLoop, seconds: float) -> None:
        due = self.due
        due.pop(connection, None)  # to the end: the newest
        due[connection] = loop.time() + seconds
        if not self._timer_set:
            self._timer_set = True
            loop.call_at(next(iter(due.values())), self._sweep, loop)

    def disarm(self, connection: GuardedH11Protocol) -> None:
        self.due.pop(connection, None)

    def oldest(self) -> GuardedH11Protocol | None:
        return next(iter(self.due), None)

    def _sweep(self, loop: asyncio.AbstractEventLoop) -> None:
        self._timer_set = False
        due = self.due
        # A millisecond early counts: the loop may run a timer a hair before its moment.
        now = loop.time() + 0.001
        while due:
            connection, moment = next(iter(due.items()))
            if moment > now:
                self._timer_set = True
                loop.call_at(moment, self._sweep, loop)
                return
            del due[connection]
            self._expire(connection)


class _LoopDeadlines:
    """One event loop's tables: who must finish a request's headers, and who has been idle since
    a response, one table per keep-alive time (one in practice: every server of a process is
    configured alike)."""

    __slots__ = ("_idle", "headers")

    def __init__(self) -> None:
        self.headers = _Deadlines(GuardedH11Protocol._drop)
        self._idle: dict[float, _Deadlines] = {}

    def idle(self, seconds: float) -> _Deadlines:
        table = self._idle.get(seconds)
        if table is None:
            table = self._idle[seconds] = _Deadlines(GuardedH11Protocol._close_idle)
        return table


_ByLoop = weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopDeadlines]


class GuardedH11Protocol(H11Protocol):
    """:class:`H11Protocol` with a header deadline and a cap on connections (module docs),
    uvicorn's keep-alive timeout kept in a table of the loop's like the header deadlines, and
    the plainest requests and answers read and written without h11 (:mod:`.plain_http`)."""

    #: Per event loop (one per process but in tests): who waits, and until when.
    _deadlines: ClassVar[_ByLoop] = weakref.WeakKeyDictionary()
    #: Whether plain requests skip h11 (:mod:`.plain_http`); tests compare both ways.
    plain: ClassVar[bool] = PLAIN_AVAILABLE
    #: What came while a plain request was under way, given to the connection once it is done
    #: (h11 would hold a pipelined request the same way); None when no plain request is.
    _held: bytearray | None = None

    _armed = False
    _armed_cycle: object = None
    _idle_armed = False
    #: This connection's loop's tables (looked up once, not at every arming).
    _waiting: _Deadlines
    _idle: _Deadlines

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(_OneSendPerTurn(transport, self.loop))
        quiet_accept_errors()
        tables = self._deadlines.get(self.loop)
        if tables is None:
            tables = self._deadlines[self.loop] = _LoopDeadlines()
        self._waiting = tables.headers
        self._idle = tables.idle(self.timeout_keep_alive)
        if len(self.connections) > MAX_CONNECTIONS:
            oldest = self._waiting.oldest()
            if oldest is not None:
                oldest._drop()
        self._arm()

    def _arm(self) -> None:
        self._armed = True
        self._armed_cycle = self.cycle
        self._waiting.arm(self, self.loop, HEADER_SECONDS)

    def _disarm(self) -> None:
        if self._armed:
            self._armed = False
            self._waiting.disarm(self)

    def _drop(self) -> None:
        """Close a connection that has not sent a whole request's headers in time."""
        self._disarm()
        self._unset_keepalive_if_required()
        if not self.transport.is_closing():
            self.transport.abort()

    def _close_idle(self) -> None:
        """Close a connection that sent nothing for the keep-alive time after a response, as
        uvicorn does (its ``timeout_keep_alive_handler``: a clean close, not an abort)."""
        self._idle_armed = False
        self.timeout_keep_alive_handler()

    def _unset_keepalive_if_required(self) -> None:
        # uvicorn calls this whenever data comes and when the connection is lost.
        if self._idle_armed:
            self._idle_armed = False
            self._idle.disarm(self)

    def data_received(self, data: bytes) -> None:
        held = self._held
        if held is not None:
            held += data
            self.flow.pause_reading()
            return
        if not self._started_plain(data):
            super().data_received(data)

    def _started_plain(self, data: bytes) -> bool:
        """Whether ``data`` is a plain request (:mod:`.plain_http`), now under way."""
        if self.plain and self.limit_concurrency is None:
            conn = self.conn
            # Nothing under way and nothing half-read: a request here is all h11 would see.
            if conn.our_state is h11.IDLE and conn.their_state is h11.IDLE and not conn.trailing_data[0]:
                request = plain_request(data)
                if request is not None:
                    self._unset_keepalive_if_required()
                    self._disarm()  # a request's headers arrived: the app's own limits take over
                    self._held = bytearray()
                    start_plain(self, request, data)
                    return True
        return False

    def held_to_h11(self) -> None:
        """A plain request's answer failed and left h11 in error: what came meanwhile goes into
        h11's buffer, where h11 would have kept it, and nothing more is held here (reading stays
        paused, as h11 paused it; bytes that come later reach h11 as they would have)."""
        held, self._held = self._held, None
        if held:
            self.conn.receive_data(bytes(held))

    def handle_events(self) -> None:
        super().handle_events()
        if self._armed and self.cycle is not self._armed_cycle:
            self._disarm()  # a request's headers arrived: the app's own limits take over
            self._unset_keepalive_if_required()  # (a pipelined one came with no new data)

    def on_response_complete(self) -> None:
        # uvicorn's own, but for its keep-alive timer: a timer per response, set and then
        # cancelled by the next request, is an entry in the loop's idle table here.
        self.server_state.total_requests += 1
        if self.transport.is_closing():
            return
        # Armed first: a pipelined request that the next cycle starts disarms them again.
        self._arm()
        self._idle_armed = True
        self._idle.arm(self, self.loop, self.timeout_keep_alive)
        self.flow.resume_reading()
        if self.conn.our_state is h11.DONE and self.conn.their_state is h11.DONE:
            self.conn.start_next_cycle()
            self.handle_events()
        held, self._held = self._held, None
        if held:
            # What came meanwhile, taken up as h11 takes up what it held: the keep-alive timer
            # just armed stays, unless those bytes hold a whole request (handle_events then
            # stops it, as uvicorn's does). Through data_received it would stop in any case.
            data = bytes(held)
            if not self._started_plain(data):
                self.conn.receive_data(data)
                self.handle_events()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._unset_keepalive_if_required()  # uvicorn only does when the connection ended cleanly
        super().connection_lost(exc)
