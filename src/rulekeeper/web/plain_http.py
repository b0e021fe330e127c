"""The plainest HTTP/1.1 requests read, and their answers written, without h11's machinery.

h11 reads and writes every message through event objects, a state machine and a validation of
every header, all in Python: about 23 µs of CPU to read an action's request and 25 µs to write
its answer (micro-benchmarked on the pinned h11), a sixth of what ``rulekeeper serve`` spends
on an action. Most requests are of one plain form, and for those the same work is a few
regular expressions and a join.

A request is read here (:func:`plain_request`) only when all of this holds; otherwise h11 reads
it exactly as before, and says what is wrong with it:

* it arrived whole in one read, with nothing before it (h11 holds no partial data, no request
  is under way on the connection) and nothing after it (no pipelined request);
* HTTP/1.1, a method of :data:`_METHODS`, a target in origin form, exactly one ``Host``;
* every line matches h11's own grammar (its regular expressions), ended by CRLF;
* no ``Transfer-Encoding``, ``Expect`` or ``Upgrade`` header, no ``Connection`` but
  ``keep-alive`` (as browsers send it), and at most one ``Content-Length``, in plain digits,
  that the body matches.

Whatever h11 accepts in that form it reads the same way, so the application sees the same scope
and body either way. The answer is written here when it is as plain (a status with a body, its
length declared once, no ``Connection`` or ``Transfer-Encoding``, valid headers, no access
log). Any other answer -- a stream, a 204, a header h11 would refuse -- is written by h11: the
request's bytes are first given to h11, which then stands exactly where it would have had it
read them itself (:meth:`PlainCycle.send`).

Measured side by side (``benchmarks/server.py --parts cpu --before``), ``serve`` spent 0.23 ms
of CPU per action against 0.31 ms before: h11's own work, and uvicorn's around it. h11's
grammar comes from its private modules, as the pinned h11 has them; an h11 without them turns
the plain path off (:data:`AVAILABLE`), and every request goes through h11.
"""

from __future__ import annotations

import asyncio
import contextvars
from typing import TYPE_CHECKING, Any, NamedTuple
from urllib.parse import unquote

import h11
from uvicorn.protocols.http.flow_control import CLOSE_HEADER
from uvicorn.protocols.http.h11_impl import STATUS_PHRASES, RequestResponseCycle

try:
    from h11._headers import _field_name_re, _field_value_re
    from h11._readers import header_field_re, request_line_re
except ImportError:  # another h11 than the lock's: every request goes through h11 itself
    AVAILABLE = False
else:
    AVAILABLE = True

if TYPE_CHECKING:
    from uvicorn._types import ASGI3Application, ASGISendEvent

    from rulekeeper.web.protocol import GuardedH11Protocol

__all__ = ["AVAILABLE", "MAX_PLAIN_BYTES", "PlainCycle", "PlainRequest", "plain_request", "start_plain"]

#: Methods read here. HEAD is not: its answer's framing differs, and h11 keeps it right.
_METHODS = frozenset({b"GET", b"POST", b"PUT", b"PATCH", b"DELETE", b"OPTIONS"})
#: Request headers that send a request to h11 (each changes how the message is framed or
#: what the connection does next). Content-Length and Connection are checked on their own.
_DECLINED = frozenset({b"transfer-encoding", b"expect", b"upgrade"})
#: Larger requests are left to h11 (a sheet file's upload, say).
MAX_PLAIN_BYTES = 64 * 1024
#: Digits of a Content-Length read here (h11 allows 20).
_LENGTH_DIGITS = 18


class PlainRequest(NamedTuple):
    """A request read by :func:`plain_request`: header names lower-cased, as h11 gives them."""

    method: bytes
    target: bytes
    headers: list[tuple[bytes, bytes]]
    body: bytes


def plain_request(data: bytes) -> PlainRequest | None:
    """``data`` as one whole request of the plain form (module docs), or None."""
    if len(data) > MAX_PLAIN_BYTES:
        return None
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return None
    lines = data[:end].split(b"\r\n")
    # h11's own grammar: a bare CR or LF within a line matches neither expression, so h11 would
    # have found these same lines.
    first = request_line_re.fullmatch(lines[0])
    if first is None or first["http_version"] != b"1.1" or first["method"] not in _METHODS:
        return None
    target: bytes = first["target"]
    if not target.startswith(b"/"):
        return None
    headers: list[tuple[bytes, bytes]] = []
    hosts = 0
    length: bytes | None = None
    for line in lines[1:]:
        field = header_field_re.fullmatch(line)
        if field is None:
            return None  # h11 tells what is wrong (an obsolete line fold, say)
        name: bytes = field["field_name"].lower()
        value: bytes = field["field_value"]
        if name == b"host":
            hosts += 1
        elif name == b"content-length":
            if length is not None or not value.isdigit() or len(value) > _LENGTH_DIGITS:
                return None
            length = value
        elif name == b"connection":
            # What browsers and most clients send, and what HTTP/1.1 means without it.
            if value.lower() != b"keep-alive":
                return None
        elif name in _DECLINED:
            return None
        headers.append((name, value))
    body_start = end + 4
    if hosts != 1 or len(data) != body_start + (0 if length is None else int(length)):
        return None
    return PlainRequest(first["method"], target, headers, data[body_start:])


#: ``HTTP/1.1 <status> <phrase>\r\n`` as h11 writes it, by status (uvicorn's phrases).
_STATUS_LINES = {status: b"HTTP/1.1 %d %s\r\n" % (status, phrase) for status, phrase in STATUS_PHRASES.items()}
#: Answer headers whose framing or handling h11 decides: such an answer is written by h11.
_FRAMING = frozenset({b"transfer-encoding", b"connection", b"host"})
#: Headers whose values change from answer to answer: not kept in :data:`_CHECKED`.
_VARYING = frozenset(
    {
        b"content-length",
        b"content-disposition",
        b"content-range",
        b"date",
        b"etag",
        b"last-modified",
        b"location",
        b"retry-after",
        b"set-cookie",
    }
)
#: Header lines already checked against h11's grammar, by ``(name, value)``: the same security
#: headers and content types go out with almost every answer, and checking an action's answer
#: headers anew each time took 8.0 µs against 2.6 µs with this table (micro-benchmarked).
#: Bounded, and never emptied.
_CHECKED: dict[tuple[bytes, bytes], bytes] = {}
_CHECKED_MOST = 512


def _plain_head(status: int, headers: list[Any]) -> tuple[bytes, int] | None:
    """The status line and headers of an answer h11 would write as they are, and its declared
    length; None for any other answer (h11 writes it, or says why it cannot)."""
    try:
        return _checked_head(status, headers)
    except TypeError:  # something unhashable or unsized where bytes belong: h11 converts or refuses it
        return None


def _checked_head(status: int, headers: list[Any]) -> tuple[bytes, int] | None:
    if type(status) is not int:
        return None  # 200.0 finds 200's line, but h11 refuses it (and converts an IntEnum)
    status_line = _STATUS_LINES.get(status)
    if status_line is None or status < 200 or status in (204, 304):
        return None
    lines = [status_line]
    length: int | None = None
    checked = _CHECKED
    for pair in headers:
        line = checked.get(pair) if type(pair) is tuple else None
        if line is None:
            if len(pair) != 2:
                return None
            name, value = pair
            if type(name) is not bytes or type(value) is not bytes:
                return None  # h11 converts or refuses it
            lower = name.lower()
            if lower in _FRAMING:
                return None
            if lower == b"content-length":
                # h11 would also read "5, 5" or " 5": those it writes itself.
                if length is not None or not value.isdigit() or len(value) > _LENGTH_DIGITS:
                    return None
                length = int(value)
            elif _field_name_re.fullmatch(name) is None or _field_value_re.fullmatch(value) is None:
                return None
            line = b"%s: %s\r\n" % (name, value)
            if lower not in _VARYING and len(checked) < _CHECKED_MOST and type(pair) is tuple:
                checked[pair] = line
        lines.append(line)
    if length is None:
        return None
    lines.append(b"\r\n")
    return b"".join(lines), length


class PlainCycle(RequestResponseCycle):
    """uvicorn's request-response cycle for a request read by :func:`plain_request`: the body is
    all there, and a plain answer (:func:`_plain_head`) is written without h11. Any other answer
    is written by uvicorn's own cycle, once h11 has read the request's bytes."""

    def __init__(self, protocol: GuardedH11Protocol, raw: bytes, body: bytes) -> None:
        super().__init__(
            scope=protocol.scope,
            conn=protocol.conn,
            transport=protocol.transport,
            flow=protocol.flow,
            logger=protocol.logger,
            access_logger=protocol.access_logger,
            access_log=protocol.access_log,
            default_headers=protocol.server_state.default_headers,
            message_event=asyncio.Event(),
            on_response=protocol.on_response_complete,
        )
        self.body = bytearray(body)
        self.more_body = False
        self.message_event.set()  # the whole body is here: receive() hands it over at once
        self._raw = raw
        self._protocol = protocol
        #: h11 has read the request and writes the answer (uvicorn's ``send``).
        self.by_h11 = False
        #: Bytes of the body still to send, as declared.
        self._left = 0

    async def send(self, message: ASGISendEvent) -> None:
        if self.by_h11:
            await self._sent_by_h11(message)
            return
        if self.flow.write_paused and not self.disconnected:
            await self.flow.drain()
        if self.disconnected:
            return
        if not self.response_started:
            if message["type"] != "http.response.start":
                raise RuntimeError(f"Expected ASGI message 'http.response.start', but got '{message['type']}'.")
            try:
                status = message["status"]
                # Listed once: the headers may be an iterator, which h11's path would find spent.
                headers = list(message.get("headers", []))
            except BaseException:
                # uvicorn's send fails here too, with the answer counted as started: the app's
                # failure then closes the connection rather than sending a 500.
                self._to_h11()
                self.response_started = True
                self.waiting_for_100_continue = False
                raise
            # What uvicorn's send reads at this point: the access log's line (with the log on, it
            # writes the answer), and the scope's headers as the app may have changed them.
            plain = (
                None
                if self.access_log or CLOSE_HEADER in self.scope["headers"]
                else _plain_head(status, self.default_headers + headers)
            )
            if plain is None:
                self._to_h11()
                await self._sent_by_h11({**message, "headers": headers})
                return
            self.response_started = True
            self.waiting_for_100_continue = False
            head, self._left = plain
            self.transport.write(head)
            return
        if self.response_complete:
            raise RuntimeError(f"Unexpected ASGI message '{message['type']}' sent, after response already completed.")
        if message["type"] != "http.response.body":
            raise RuntimeError(f"Expected ASGI message 'http.response.body', but got '{message['type']}'.")
        # uvicorn sends no body to a HEAD request, read from the scope as the app may have left it
        # (the request was not one: h11 then refuses the end of a body too short, as here).
        body = b"" if self.scope["method"] == "HEAD" else message.get("body", b"")
        self._left -= len(body)
        if self._left < 0:
            self._failed()  # as h11 refuses it: nothing of this body written
            raise h11.LocalProtocolError("Too much data for declared Content-Length")
        self.transport.write(body)
        if message.get("more_body", False):
            return
        self.response_complete = True
        self.message_event.set()
        if self._left:
            self._failed()  # as h11 refuses the end, the answer already counted as complete
            raise h11.LocalProtocolError("Too little data for declared Content-Length")
        if not self.keep_alive:
            self.transport.close()
        self.on_response()

    async def _sent_by_h11(self, message: ASGISendEvent) -> None:
        """uvicorn's ``send``, h11 having read the request."""
        try:
            await super().send(message)
        finally:
            if self.conn.our_state is h11.ERROR:
                self._protocol.held_to_h11()

    def _failed(self) -> None:
        """Leave the connection as h11 is left when it refuses an answer's body: in error, writing
        nothing more, taking no further request; whatever the app sends next is h11's to refuse,
        and the app's end closes the connection, or leaves it as h11 would."""
        self._to_h11()
        self.conn.send_failed()
        self._protocol.held_to_h11()

    def _to_h11(self) -> None:
        """Give h11 the request's bytes, as if it had read them: it then writes the answer."""
        self.by_h11 = True
        conn = self.conn
        conn.receive_data(self._raw)
        for _ in range(3):  # the request, its body if it has one, its end: all there
            if type(conn.next_event()) is h11.EndOfMessage:
                return
        raise RuntimeError("h11 did not read the whole request")  # plain_request checked it would


def start_plain(protocol: GuardedH11Protocol, request: PlainRequest, raw: bytes) -> PlainCycle:
    """Run the app on ``request`` as uvicorn's ``handle_events`` would on the same request."""
    raw_path, _, query_string = request.target.partition(b"?")
    root_path = protocol.root_path
    protocol.headers = request.headers
    protocol.scope = {  # uvicorn's scope, key for key
        "type": "http",
        "asgi": {"version": protocol.asgi_version, "spec_version": "2.3"},
        "http_version": "1.1",
        "server": protocol.server,
        "client": protocol.client,
        "scheme": protocol.scheme,  # type: ignore[typeddict-item]
        "method": request.method.decode("ascii"),
        "root_path": root_path,
        "path": root_path + unquote(raw_path.decode("ascii")),
        "raw_path": root_path.encode("ascii") + raw_path,
        "query_string": query_string,
        "headers": request.headers,
        "state": protocol.app_state.copy(),
    }
    # What h11 keeps of a request beyond its cycle, as if it had read this one: the peer's HTTP
    # version, by which it frames an answer it writes later on this connection (a 400 for bytes
    # that are not a request). The rest it forgets at each new cycle.
    protocol.conn.their_http_version = b"1.1"
    cycle = protocol.cycle = PlainCycle(protocol, raw, request.body)
    app: ASGI3Application = protocol.app
    loop = protocol.loop
    if protocol.config.reset_contextvars:
        task = loop.create_task(cycle.run_asgi(app), context=contextvars.Context())
    else:
        task = loop.create_task(cycle.run_asgi(app))
    task.add_done_callback(protocol.tasks.discard)
    protocol.tasks.add(task)
    return cycle
