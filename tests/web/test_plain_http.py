"""Plain requests read and answered without h11 (``web.plain_http``) come out exactly as h11
would have them: the same bytes on the wire, the same scope and body for the app, the same
close -- for plain requests, for every form that is left to h11, for answers h11 must write
(streams, 204s, a refused header), for pipelined requests and for a client that goes away.

Each exchange runs twice on a real event loop through ``serve``'s protocol: once as it is, once
with the plain path off (``GuardedH11Protocol.plain = False``, which is uvicorn's h11 path), and
the two are compared byte for byte. Last, a real ``rulekeeper serve`` over a real socket takes
plain and unusual requests one after another on one connection."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from decimal import Decimal
from http import HTTPStatus
from pathlib import Path
from typing import Any, BinaryIO

import h11
import pytest
import uvicorn
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from uvicorn.server import ServerState

from rulekeeper.web.plain_http import MAX_PLAIN_BYTES, PlainCycle, plain_request
from rulekeeper.web.protocol import GuardedH11Protocol

from .web_support import bearer, cli, cli_json, serving

App = Callable[[Any, Any, Any], Awaitable[None]]
DATE = (b"date", b"Fri, 27 Nov 2026 09:00:00 GMT")


class H11Only(GuardedH11Protocol):
    plain = False


class _Transport(asyncio.Transport):
    """A socket's far end as the protocol sees it: what was written, and whether it was closed."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__()
        self._loop = loop
        self.written = bytearray()
        self.closed = False
        self.protocol: asyncio.Protocol | None = None
        self.reading = True

    def write(self, data: Any) -> None:
        assert not self.closed, "written after close"
        self.written += data

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            assert self.protocol is not None
            self._loop.call_soon(self.protocol.connection_lost, None)

    def abort(self) -> None:
        self.close()

    def is_closing(self) -> bool:
        return self.closed

    def pause_reading(self) -> None:
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"sockname": ("127.0.0.1", 8000), "peername": ("127.0.0.1", 5555)}.get(name, default)


@dataclass
class Exchange:
    written: bytes
    closed: bool
    seen: list[Any] = field(default_factory=list)  # what the app saw: scopes and messages
    plain_cycles: int = 0
    failures: list[str] = field(default_factory=list)  # exceptions out of data_received


def _connected(
    protocol_class: type[GuardedH11Protocol], app: App, **options: Any
) -> tuple[GuardedH11Protocol, _Transport, ServerState]:
    """A connection served by ``protocol_class`` running ``app``, as uvicorn makes one, with
    uvicorn's ``options`` (access log off by default, as ``serve`` has it); in a running loop."""
    # No logging set up by uvicorn: its records reach pytest's capture.
    options = {"access_log": False, **options}
    config = uvicorn.Config(app, http=protocol_class, log_config=None, log_level=None, lifespan="off", **options)
    config.load()
    state = ServerState()
    state.default_headers = [DATE]
    protocol = protocol_class(config=config, server_state=state, app_state={})
    transport = _Transport(asyncio.get_running_loop())
    transport.protocol = protocol
    protocol.connection_made(transport)
    return protocol, transport, state


async def _settle(state: ServerState) -> None:
    for _ in range(200):
        await asyncio.sleep(0)
        if not state.tasks:
            break
    for _ in range(5):  # the transport's flush and a close's connection_lost
        await asyncio.sleep(0)


def _recording(app: App, seen: list[Any], gate: asyncio.Event | None = None) -> App:
    """``app``, with each scope (but its state) and each message it receives noted in ``seen``;
    given a ``gate``, each request waits for it before the app runs."""

    async def recorded(scope: Any, receive: Any, send: Any) -> None:
        async def receiving() -> Any:
            message = await receive()
            seen.append(message)
            return message

        seen.append({k: v for k, v in scope.items() if k != "state"})
        if gate is not None:
            await gate.wait()
        await app(scope, receiving, send)

    return recorded


def _feed(protocol: GuardedH11Protocol, transport: _Transport, chunk: bytes, failures: list[str]) -> None:
    try:
        protocol.data_received(chunk)
    except Exception as exc:  # as asyncio's transport takes it: a fatal error, the connection dropped
        failures.append(type(exc).__name__)
        transport.abort()


def exchange(
    protocol_class: type[GuardedH11Protocol],
    chunks: list[bytes],
    app: App,
    *,
    hang_up: bool = False,
    **options: Any,
) -> Exchange:
    """``chunks`` sent one at a time (each once the server has done all it can with the one
    before) to one connection served by ``app``; ``hang_up``: the client then goes away;
    ``options``: uvicorn's (``_connected``)."""
    seen: list[Any] = []

    async def run() -> Exchange:
        protocol, transport, state = _connected(protocol_class, _recording(app, seen), **options)
        plain = 0
        failures: list[str] = []
        for chunk in chunks:
            if not transport.closed:
                before = protocol.cycle
                _feed(protocol, transport, chunk, failures)
                plain += isinstance(protocol.cycle, PlainCycle) and protocol.cycle is not before
            await _settle(state)
        if hang_up and not transport.closed:
            protocol.connection_lost(None)
            await _settle(state)
        closed = transport.closed
        if not closed:
            protocol.connection_lost(None)  # the test's end: the timers go
        return Exchange(bytes(transport.written), closed, seen, plain, failures)

    return asyncio.run(run())


def both(chunks: list[bytes], app: App, **kw: Any) -> tuple[Exchange, Exchange]:
    plain, by_h11 = exchange(GuardedH11Protocol, chunks, app, **kw), exchange(H11Only, chunks, app, **kw)
    assert plain.written == by_h11.written
    assert plain.closed == by_h11.closed
    assert plain.seen == by_h11.seen
    assert plain.failures == by_h11.failures
    return plain, by_h11


# -- apps -------------------------------------------------------------------------------------


def answering(status: int, headers: list[Any], *bodies: bytes, more_last: bool = False) -> App:
    async def app(scope: Any, receive: Any, send: Any) -> None:
        while (await receive()).get("more_body"):
            pass
        await send({"type": "http.response.start", "status": status, "headers": headers})
        for i, body in enumerate(bodies):
            await send({"type": "http.response.body", "body": body, "more_body": i < len(bodies) - 1 or more_last})

    return app


def _length(body: bytes) -> tuple[bytes, bytes]:
    return (b"content-length", str(len(body)).encode())


async def echo(scope: Any, receive: Any, send: Any) -> None:
    """Answers with what it was asked, so the answer's bytes show the scope and the body."""
    body = b""
    while True:
        message = await receive()
        body += message.get("body", b"")
        if not message.get("more_body"):
            break
    told = {
        "method": scope["method"],
        "path": scope["path"],
        "raw_path": scope["raw_path"].decode("latin-1"),
        "query": scope["query_string"].decode("latin-1"),
        "headers": [[k.decode("latin-1"), v.decode("latin-1")] for k, v in scope["headers"]],
        "body": body.decode("latin-1"),
        "http_version": scope["http_version"],
    }
    out = json.dumps(told).encode()
    headers = [(b"content-type", b"application/json"), _length(out), (b"x-frame-options", b"DENY")]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": out})


def request(
    method: str = "GET", target: str = "/", headers: list[tuple[str, str]] | None = None, body: bytes = b""
) -> bytes:
    lines = [f"{method} {target} HTTP/1.1", "Host: example.test"]
    for name, value in headers if headers is not None else ([("Content-Length", str(len(body)))] if body else []):
        lines.append(f"{name}: {value}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


PLAIN = [
    request(),
    request("GET", "/api/campaigns/c%C3%A9/log?after=3&x=%2F"),
    request("POST", "/api/campaigns/c1/gurps/actions/damage", body=b'{"actor":"hero","params":{"amount":1}}'),
    request("POST", "/x", [("content-length", "0")]),
    request("PUT", "/x", [("Content-Type", "application/json"), ("CONTENT-LENGTH", "2")], b"{}"),
    request("DELETE", "/x", [("Authorization", "Bearer abc"), ("X-Odd", "caf\xe9  "), ("X-Empty", "")]),
    request("OPTIONS", "/x", [("Accept", "*/*"), ("Accept", "text/html")]),
    request("PATCH", "/x", [("If-Match", '"7"'), ("Content-Length", "3")], b"abc"),
    request("GET", "/x", [("Connection", "keep-alive"), ("Accept-Encoding", "gzip, deflate")]),
    request("POST", "/x", [("connection", "Keep-Alive"), ("content-length", "2")], b"{}"),
]

LEFT_TO_H11 = [
    b"GET / HTTP/1.0\r\nHost: a\r\n\r\n",
    b"GET / HTTP/1.1\r\n\r\n",  # no Host
    b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
    b"HEAD / HTTP/1.1\r\nHost: a\r\n\r\n",
    b"get / HTTP/1.1\r\nHost: a\r\n\r\n",
    b"GET http://a/ HTTP/1.1\r\nHost: a\r\n\r\n",
    b"GET / HTTP/1.1\nHost: a\n\n",  # bare line feeds
    b"GET / HTTP/1.1\r\nHost: a\r\n  folded\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive, Upgrade\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive\r\nConnection: close\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n",
    b"POST / HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nhi",
    b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhi\r\n0\r\n\r\n",
    b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nhi",
    b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 2, 2\r\n\r\nhi",
    b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: +2\r\n\r\nhi",
    b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nhi",  # the body's end has not come
    b"GET / HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\n",  # pipelined
    b"GET / HTTP/1.1\r\nHost: a\r\nBad Header: x\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: a\r\nX: a\rb\r\n\r\n",
    b"\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
    b"GET /\x7f HTTP/1.1\r\nHost: a\r\n\r\n",
    b"NOT HTTP AT ALL\r\n\r\n",
]


@pytest.mark.parametrize("raw", PLAIN, ids=range(len(PLAIN)))
def test_a_plain_request_is_read_and_answered_as_h11_would(raw: bytes) -> None:
    plain, _ = both([raw], echo)
    assert plain.plain_cycles == 1
    assert plain.written.startswith(b"HTTP/1.1 200 OK\r\n") and not plain.closed


@pytest.mark.parametrize("raw", LEFT_TO_H11, ids=range(len(LEFT_TO_H11)))
def test_every_other_form_is_left_to_h11(raw: bytes) -> None:
    assert plain_request(raw) is None
    plain, _ = both([raw], echo)
    assert plain.plain_cycles == 0


def test_a_request_in_pieces_is_h11s_even_when_a_piece_looks_whole() -> None:
    # The first piece leaves h11 holding a half line: what follows is part of it, never a
    # request of its own, even though it would read as one.
    first = b"GET /a HTTP/1.1\r\nHost: a\r\nX-Pad: "
    second = b"GET /b HTTP/1.1\r\nHost: a\r\n\r\n"
    assert plain_request(second) is not None
    plain, _ = both([first, second], echo)
    assert plain.plain_cycles == 0 and not plain.seen  # never served: a second Host, says h11
    assert plain.written.startswith(b"HTTP/1.1 400 Bad Request\r\n")


@pytest.mark.parametrize(
    "before",
    [[PLAIN[0]], [b"HEAD / HTTP/1.1\r\nHost: a\r\n\r\n", PLAIN[0]], [PLAIN[2]]],
    ids=["a plain GET", "a HEAD, then a plain GET", "a plain POST"],
)
def test_bytes_that_are_no_request_after_plain_ones_get_h11s_400_framed_alike(before: list[bytes]) -> None:
    # h11 frames its 400 by the HTTP version the connection's last request spoke: the plain
    # path tells it as much as if h11 had read that request.
    plain, _ = both([*before, b"\x00GET /b HTTP/1.1\r\nHost: a\r\n\r\n"], echo)
    assert plain.plain_cycles == len([b for b in before if not b.startswith(b"HEAD")])
    assert b"HTTP/1.1 400 Bad Request\r\n" in plain.written and plain.closed


def test_requests_one_after_another_on_one_connection() -> None:
    plain, _ = both([request("GET", "/1"), request("POST", "/2", body=b"xy"), LEFT_TO_H11[0]], echo)
    assert plain.plain_cycles == 2
    assert plain.written.count(b"HTTP/1.1 200 OK") == 3 and plain.closed  # HTTP/1.0: closed after


def test_a_request_that_comes_while_a_plain_one_is_answered_waits_its_turn() -> None:
    release = asyncio.Event()
    order: list[str] = []

    async def slow_then_echo(scope: Any, receive: Any, send: Any) -> None:
        order.append(scope["path"])
        if scope["path"] == "/slow":
            loop = asyncio.get_running_loop()
            loop.call_later(0.05, release.set)
            await release.wait()
        await echo(scope, receive, send)

    async def run() -> tuple[bytes, list[str]]:
        protocol, transport, state = _connected(GuardedH11Protocol, slow_then_echo)
        protocol.data_received(request("GET", "/slow"))
        await asyncio.sleep(0)
        protocol.data_received(request("GET", "/next"))  # pipelined behind it
        assert not transport.reading  # held, as h11 holds a pipelined request
        assert order == ["/slow"]
        await asyncio.sleep(0.2)
        await _settle(state)
        protocol.connection_lost(None)
        return bytes(transport.written), order

    written, order_seen = asyncio.run(run())
    assert order_seen == ["/slow", "/next"]
    first, second = written.split(b"HTTP/1.1 200 OK\r\n")[1:]
    assert b'"path": "/slow"' in first and b'"path": "/next"' in second


@pytest.mark.parametrize(
    ("status", "headers", "bodies"),
    [
        (200, [(b"content-type", b"text/plain"), (b"content-length", b"5")], [b"he", b"llo"]),
        (404, [(b"content-length", b"2"), (b"set-cookie", b"a=1"), (b"set-cookie", b"a=1")], [b"no"]),
        (599, [(b"content-length", b"0")], [b""]),  # a status with no phrase
        (200, [(b"content-type", b"text/event-stream")], [b"data: 1\n\n", b"data: 2\n\n"]),  # no length: chunked
        (204, [], [b""]),
        (204, [(b"content-length", b"5")], [b"hello"]),
        (304, [(b"etag", b'"1"')], [b""]),
        (200, [(b"content-length", b"2"), (b"connection", b"close")], [b"ok"]),
        (200, [(b"Content-Length", b" 2")], [b"ok"]),
        (200, [(b"content-length", b"2"), (b"content-length", b"2")], [b"ok"]),
        (200, [(b"content-length", b"2"), (b"host", b"x")], [b"ok"]),
        (200, [("content-length", "2"), ("x-str", "names as text")], [b"ok"]),
        (200, [[b"content-length", b"2"]], [b"ok"]),
        (200, [(b"content-length", bytearray(b"2")), (b"x-a", bytearray(b"b"))], [b"ok"]),
        (200, [(b"content-length", b"2"), 7], [b"ok"]),
        (200, [(b"content-length", b"2"), (b"x-bad", b"a\r\nInjected: yes")], [b"ok"]),
        (200, [(b"content-length", b"2"), (b"bad name", b"x")], [b"ok"]),
        (200, [(b"content-length", b"5")], [b"toolong"]),
        (200, [(b"content-length", b"5")], [b"shrt"]),
        (200, [(b"content-length", b"x")], [b"ok"]),
    ],
)
def test_every_kind_of_answer_goes_out_as_h11_writes_it(status: int, headers: list[Any], bodies: list[bytes]) -> None:
    app = answering(status, headers, *bodies)
    for raw in (PLAIN[0], PLAIN[2]):
        both([raw, PLAIN[1]], app)  # and the connection goes on (or not) alike


def test_an_app_that_fails_before_answering_gets_h11s_500_and_after_it_a_close() -> None:
    async def fails_early(scope: Any, receive: Any, send: Any) -> None:
        raise RuntimeError("boom")

    async def fails_late(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"9")]})
        raise RuntimeError("boom")

    early, _ = both([PLAIN[0], PLAIN[1]], fails_early)
    assert early.written.startswith(b"HTTP/1.1 500 Internal Server Error\r\n") and early.closed
    late, _ = both([PLAIN[0]], fails_late)
    assert late.written.startswith(b"HTTP/1.1 200 OK\r\n") and late.closed


def _starting(message: dict[str, Any], *, iterated: bool = False) -> App:
    """An app whose answer starts with ``message`` (as given, however odd; ``iterated``: its
    headers given as a one-shot iterator, which the ASGI spec allows) and sends "ok"."""

    given = list(message["headers"]) if iterated else []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        start = {"type": "http.response.start", **message}
        if iterated:
            start["headers"] = iter(given)
        await send(start)
        await send({"type": "http.response.body", "body": b"ok"})

    return app


def _catching(first: bytes, then: bytes | None, length: bytes | bytearray = b"5") -> App:
    """An app that declares a body of ``length`` (5 bytes; as a bytearray, h11 writes the answer),
    sends ``first`` as the whole body, catches h11's refusal, then sends ``then`` as the body's
    end (or returns, ``then`` None)."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", length)]})
        with contextlib.suppress(h11.LocalProtocolError):
            await send({"type": "http.response.body", "body": first})
        if then is not None:
            await send({"type": "http.response.body", "body": then})

    return app


def _changing_scope(change: Callable[[Any], None]) -> App:
    """An app that changes its scope in place (as Starlette's ``MutableHeaders(scope=...)``
    does), then answers "ok" with its length."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        await receive()
        change(scope)
        await send({"type": "http.response.start", "status": 200, "headers": [_length(b"ok")]})
        await send({"type": "http.response.body", "body": b"ok"})

    return app


#: Apps that answer oddly, or not as the ASGI spec says.
_BENDING: list[App] = [
    # Headers as a one-shot iterator: listed once, for either path.
    _starting({"status": 200, "headers": [(b"content-type", b"text/plain"), _length(b"ok")]}, iterated=True),
    _starting({"status": 200, "headers": [(b"content-type", b"text/plain")]}, iterated=True),  # by h11
    # A malformed start: uvicorn counts the answer as started, so the app's failure closes the
    # connection with nothing written, rather than answering 500.
    _starting({"status": 200, "headers": None}),
    _starting({"headers": [_length(b"ok")]}),
    # A status that is not an int: 200.0 and Decimal(200) find 200's phrase, but h11 refuses
    # them; an IntEnum h11 takes as its number.
    _starting({"status": 200.0, "headers": [_length(b"ok")]}),
    _starting({"status": Decimal(200), "headers": [_length(b"ok")]}),
    _starting({"status": HTTPStatus.OK, "headers": [_length(b"ok")]}),
    # h11 refuses a body too short or too long; what the app sends after is refused alike, and
    # the connection ends (or hangs, reading no further request) as it does with h11.
    _catching(b"abc", b"de"),
    _catching(b"abc", None),
    _catching(b"abcdefg", b"ab"),
    _catching(b"abcdefg", None),
    _catching(b"abc", None, bytearray(b"5")),
    _catching(b"abcdefg", None, bytearray(b"5")),
    # The scope changed in place: uvicorn reads it again as it answers.
    _changing_scope(lambda scope: scope["headers"].append((b"connection", b"close"))),
    _changing_scope(lambda scope: scope.update(method="HEAD")),
]


@pytest.mark.parametrize("app", _BENDING)
def test_an_app_that_bends_the_rules_is_answered_as_h11_answers_it(app: App) -> None:
    plain, _ = both([PLAIN[0], PLAIN[1]], app)
    assert plain.plain_cycles >= 1  # the first request did take the plain path


def held_exchange(protocol_class: type[GuardedH11Protocol], chunks: list[bytes], app: App) -> Exchange:
    """``chunks`` sent one after another while every request's app waits (so that what follows
    a request arrives while it is under way, and is held), then the apps let go."""
    seen: list[Any] = []

    async def run() -> Exchange:
        gate = asyncio.Event()
        protocol, transport, state = _connected(protocol_class, _recording(app, seen, gate))
        failures: list[str] = []

        def send(chunk: bytes) -> None:
            if not transport.closed:
                _feed(protocol, transport, chunk, failures)

        for chunk in chunks:
            send(chunk)
            for _ in range(3):
                await asyncio.sleep(0)
        gate.set()
        await _settle(state)
        await _settle(state)
        send(PLAIN[2])  # and the connection goes on (or not) alike
        await _settle(state)
        closed = transport.closed
        if not closed:
            protocol.connection_lost(None)
        return Exchange(bytes(transport.written), closed, seen, 0, failures)

    return asyncio.run(run())


def held_both(chunks: list[bytes], app: App) -> Exchange:
    plain, by_h11 = held_exchange(GuardedH11Protocol, chunks, app), held_exchange(H11Only, chunks, app)
    assert plain == by_h11
    return plain


_MEANWHILE = [
    PLAIN[1],
    PLAIN[1] + PLAIN[3],
    b"GET /next HTTP/1.1\r\nHost: example.test\r\n",  # headers not finished
    b"\x00GET / HTTP/1.1\r\n\r\n",  # no request at all
]


@pytest.mark.parametrize("meanwhile", _MEANWHILE)
@pytest.mark.parametrize("app", [echo, *_BENDING])
def test_what_comes_while_a_plain_answer_is_under_way_is_taken_up_as_h11_would(app: App, meanwhile: bytes) -> None:
    held_both([PLAIN[0], meanwhile], app)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(PLAIN), st.deferred(lambda: _traffic()), st.deferred(lambda: st.sampled_from(_APPS)))
def test_any_bytes_while_a_plain_answer_is_under_way_come_out_as_h11_would_have_them(
    first: bytes, chunks: list[bytes], app: App
) -> None:
    held_both([first, *chunks], app)


def test_a_partial_request_held_behind_a_plain_one_leaves_the_keep_alive_timer_running() -> None:
    """Bytes that come while a plain request is answered are taken up as h11 takes up what it
    held: a request whose headers are not all there leaves the keep-alive timer running, so a
    client that then goes quiet is closed at the keep-alive time, not at the headers' deadline."""

    def run(protocol_class: type[GuardedH11Protocol]) -> tuple[bytes, bool, bool]:
        async def go() -> tuple[bytes, bool, bool]:
            release = asyncio.Event()

            async def held_until_released(scope: Any, receive: Any, send: Any) -> None:
                if scope["path"] == "/":
                    await release.wait()
                await echo(scope, receive, send)

            protocol, transport, state = _connected(protocol_class, held_until_released, timeout_keep_alive=0.05)
            protocol.data_received(PLAIN[0])
            await asyncio.sleep(0)
            protocol.data_received(b"GET /next HTTP/1.1\r\nHost: example.test\r\n")  # headers not finished
            release.set()
            await _settle(state)
            await asyncio.sleep(0.3)  # the client is quiet past the keep-alive time
            closed_while_quiet = transport.closed
            if not transport.closed:
                protocol.data_received(b"\r\n")  # the rest of the next request's headers
                await _settle(state)
            closed = transport.closed
            if not closed:
                protocol.connection_lost(None)
            return bytes(transport.written), closed_while_quiet, closed

        return asyncio.run(go())

    plain, by_h11 = run(GuardedH11Protocol), run(H11Only)
    assert plain == by_h11
    written, closed_while_quiet, _ = plain
    assert closed_while_quiet and written.count(b"HTTP/1.1 200 OK") == 1


def test_a_client_that_goes_away_is_told_to_the_app_as_h11_tells_it() -> None:
    async def waits_for_the_end(scope: Any, receive: Any, send: Any) -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    plain, _ = both([PLAIN[2]], waits_for_the_end, hang_up=True)
    assert plain.seen[-1] == {"type": "http.disconnect"}


def test_a_plain_answer_skips_h11_and_an_unusual_one_leaves_h11_where_it_would_be() -> None:
    async def run(app: App) -> tuple[PlainCycle, h11.Connection]:
        protocol, _, state = _connected(GuardedH11Protocol, app)
        protocol.data_received(PLAIN[2])
        cycle = protocol.cycle
        assert isinstance(cycle, PlainCycle)
        await _settle(state)
        conn = protocol.conn
        protocol.connection_lost(None)
        return cycle, conn

    cycle, conn = asyncio.run(run(echo))
    assert not cycle.by_h11 and cycle.response_complete
    assert conn.our_state is h11.CLOSED  # h11 never left IDLE, then saw the connection end
    streamed, _ = asyncio.run(run(answering(200, [], b"a", b"b")))
    assert streamed.by_h11 and streamed.response_complete


# -- anything at all ---------------------------------------------------------------------------

_PIECES = [*PLAIN, *LEFT_TO_H11, b"\r\n", b"\r\n\r\n", b"Content-Length: 1\r\n", b"Host: b\r\n", b":", b" ", b"\x00"]


@st.composite
def _traffic(draw: st.DrawFn) -> list[bytes]:
    """A connection's bytes: requests of every form, cut anywhere, with bytes spliced in."""
    data = b"".join(draw(st.lists(st.sampled_from(_PIECES), min_size=1, max_size=3)))
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(max_size=3)) + data[at + draw(st.integers(0, 2)) :]
    cuts = sorted(draw(st.lists(st.integers(0, len(data)), max_size=2)))
    return [piece for piece in (data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)) if piece]


#: Apps whose answers are plain, or h11's to write (a stream, a 204, a close), or not an answer.
_APPS = [
    echo,
    answering(200, [], b"a", b"b"),
    answering(204, []),
    answering(404, [(b"content-length", b"2")], b"no"),
    answering(200, [(b"content-length", b"2"), (b"connection", b"close")], b"ok"),
    *_BENDING,
]


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_traffic(), st.sampled_from(_APPS))
def test_any_bytes_at_all_come_out_as_h11_would_have_them(chunks: list[bytes], app: App) -> None:
    both(chunks, app)


def test_a_large_request_is_left_to_h11() -> None:
    body = b"x" * MAX_PLAIN_BYTES
    raw = request("POST", "/big", body=body)
    assert plain_request(raw) is None
    plain, _ = both([raw], echo)
    assert plain.plain_cycles == 0 and b"HTTP/1.1 200 OK" in plain.written


@pytest.mark.parametrize("when", ["before the answer", "between its head and its body"])
def test_a_server_shutting_down_closes_the_connection_after_the_answer_as_h11_does(when: str) -> None:
    def run(protocol_class: type[GuardedH11Protocol]) -> tuple[bytes, bool]:
        async def go() -> tuple[bytes, bool]:
            release = asyncio.Event()

            async def app(scope: Any, receive: Any, send: Any) -> None:
                await receive()
                if when == "before the answer":
                    await release.wait()
                await send({"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"2")]})
                if when != "before the answer":
                    await release.wait()
                await send({"type": "http.response.body", "body": b"ok"})

            protocol, transport, state = _connected(protocol_class, app)
            protocol.data_received(PLAIN[0])
            await _settle(state)
            protocol.shutdown()  # uvicorn's graceful shutdown, with the request under way
            release.set()
            await _settle(state)
            return bytes(transport.written), transport.closed

        return asyncio.run(go())

    plain, by_h11 = run(GuardedH11Protocol), run(H11Only)
    assert plain == by_h11
    assert plain[0].endswith(b"\r\n\r\nok") and plain[1]


def test_with_the_access_log_on_each_answer_is_logged_as_before(caplog: pytest.LogCaptureFixture) -> None:
    import logging

    with caplog.at_level(logging.INFO, logger="uvicorn.access"):
        plain, _ = both([PLAIN[0], PLAIN[2]], echo, access_log=True)
    assert plain.plain_cycles == 2
    lines = [r.getMessage() for r in caplog.records if r.name == "uvicorn.access"]
    assert (
        lines
        == [
            '127.0.0.1:5555 - "GET / HTTP/1.1" 200',
            '127.0.0.1:5555 - "POST /api/campaigns/c1/gurps/actions/damage HTTP/1.1" 200',
        ]
        * 2
    )


def test_with_contexts_reset_per_request_the_app_runs_in_a_fresh_context() -> None:
    import contextvars

    seen = contextvars.ContextVar[str]("seen", default="fresh")

    async def marks(scope: Any, receive: Any, send: Any) -> None:
        before = seen.get()
        seen.set("dirty")
        body = before.encode()
        await receive()
        await send({"type": "http.response.start", "status": 200, "headers": [_length(body)]})
        await send({"type": "http.response.body", "body": body})

    seen.set("outer")
    plain, _ = both([PLAIN[0], PLAIN[1]], marks, reset_contextvars=True)
    assert plain.plain_cycles == 2 and plain.written.count(b"\r\n\r\nfresh") == 2


def test_with_a_limit_on_concurrency_every_request_goes_through_h11() -> None:
    # uvicorn answers 503 past its limit in handle_events: that check stays h11's.
    plain, _ = both([PLAIN[0], PLAIN[2]], echo, limit_concurrency=100)
    assert plain.plain_cycles == 0 and plain.written.count(b"HTTP/1.1 200 OK") == 2


# -- a real server ------------------------------------------------------------------------------


def _answer(stream: BinaryIO, *, head_only: bool = False) -> tuple[bytes, dict[bytes, bytes], bytes]:
    """One answer read off a connection: its status line, headers (lower-cased names), body."""
    status = stream.readline().rstrip(b"\r\n")
    headers: dict[bytes, bytes] = {}
    while (line := stream.readline().rstrip(b"\r\n")) != b"":
        name, _, value = line.partition(b": ")
        headers[name.lower()] = value
    body = b"" if head_only else stream.read(int(headers[b"content-length"]))
    return status, headers, body


def test_a_real_server_answers_plain_and_unusual_requests_on_one_connection(tmp_path: Path) -> None:
    """``rulekeeper serve`` over a real socket: a player's-phone-like action (keep-alive, a JSON
    body), a HEAD (h11's), a plain GET, then two requests in one packet (h11's), in order."""
    env = {"XDG_DATA_HOME": str(tmp_path / "data"), "RULEKEEPER_CONFIG": str(tmp_path / "selection.json")}
    gm = cli_json("campaign", "new", "plain", "--system", "gurps", "--seed", "1", env=env)["gm_token"]
    cli("char", "add", "hero", "--set", "name=Hero", "--set", "st=10", env=env)
    body = json.dumps({"actor": "hero", "params": {"amount": 3}}).encode()
    action = (
        b"POST /api/campaigns/plain/gurps/actions/damage HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n"
        + b"".join(f"{k}: {v}\r\n".encode() for k, v in bearer(gm).items())
        + b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body)
        + body
    )
    health = b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n"
    with (
        serving(None, tmp_path, env=env) as server,
        socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock,
        sock.makefile("rb") as stream,
    ):
        sock.sendall(action)
        status, headers, answer = _answer(stream)
        assert status == b"HTTP/1.1 200 OK"
        assert json.loads(answer)["entry"]["actors"] == ["hero"] and headers[b"etag"]
        assert headers[b"x-content-type-options"] == b"nosniff" and b"date" in headers
        sock.sendall(b"HEAD /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        status, headers, answer = _answer(stream, head_only=True)
        # h11 answers it (FastAPI's health route takes GET only): a length, and no body.
        assert status == b"HTTP/1.1 405 Method Not Allowed" and int(headers[b"content-length"]) > 0 and answer == b""
        sock.sendall(health)
        alone = _answer(stream)
        assert alone[0] == b"HTTP/1.1 200 OK"
        sock.sendall(action.replace(b'"amount": 3', b'"amount": 4') + health)  # pipelined: h11's
        first, second = _answer(stream), _answer(stream)
        entry = json.loads(first[2])["entry"]
        assert entry["command"]["action"]["params"]["amount"] == 4
        assert entry["result"]["hp"] == 10 - 3 - 4  # on top of the first action
        assert second[0] == b"HTTP/1.1 200 OK" and second[2] == alone[2]
