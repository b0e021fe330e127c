"""An ordinary action's write, prepared once per connection and sent through libpq directly.

psycopg's asynchronous ``execute`` is general: a cursor, the query rewritten and its parameters
adapted by type on every call, and its own generators to wait on the socket. For the one
statement every action runs (``Statements.append_if_head``/``append_if_standing``) that came to
more CPU than PostgreSQL spends on the statement itself: measured side by side on one prepared
``UPDATE`` of a row, 77 µs of client CPU per call through psycopg against 31 µs through libpq's
own non-blocking calls. So the statement is prepared when a connection opens
(:func:`prepare`: the protocol's named prepared statement, as psycopg's own are, its parameter
types given), and each write sends only its values, as text, awaiting the socket on the event
loop (:func:`run_prepared`). Several writes can go at once, as one transaction, in libpq's
pipeline mode (:func:`run_prepared_together`, for the pool's group commit).

Only values whose text form is certain go this way (``None``, ``str`` without a NUL, ``int``,
finite ``float`` for a floating-point parameter); anything else returns ``None`` from
:meth:`PreparedWrite.values` and the caller runs the statement through psycopg as before.
Errors are psycopg's own exceptions, so the connection pool (``store.pg_awaited``) treats them
as it treats psycopg's.

The statements are the protocol's named ones, as psycopg's own prepared statements are, so a
pooler that keeps those (PgBouncer 1.21 or newer with ``max_prepared_statements``) keeps these.
psycopg forgets its own with ``DEALLOCATE ALL`` after a statement that changes the schema;
nothing run through psycopg on these connections does.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import re
import weakref
from collections.abc import Awaitable, Mapping, Sequence
from typing import Any, TypeVar

import psycopg
from psycopg import pq

__all__ = [
    "PARAMETER_TYPES",
    "PreparedWrite",
    "closing",
    "prepare",
    "run_prepared",
    "run_prepared_together",
    "still_open",
    "watch_closing",
]

_T = TypeVar("_T")

#: The PostgreSQL type of each parameter an action's write takes (the columns of
#: ``store.schema``), given when it is prepared: values are sent as text, and PostgreSQL cannot
#: infer a type for a value selected into an ``INSERT ... SELECT``.
PARAMETER_TYPES: Mapping[str, str] = {
    "cid": "integer",
    "seq": "integer",
    "base": "integer",
    "kind": "varchar",
    "command": "text",
    "dice": "text",
    "outcome": "text",
    "actors": "text",
    "refs": "text",
    "at": "bigint",
    "until": "bigint",
    "next_id": "bigint",
    "next_id_after": "bigint",
    "idem_key": "varchar",
    "base_version": "integer",
    "wall_time": "double precision",
    "token_id": "varchar",
    "now": "double precision",
    "snapshot_version": "integer",
    "snapshot": "text",
}

#: The object ids of those types (PostgreSQL's ``pg_type`` catalogue; fixed across versions).
TYPE_OIDS: Mapping[str, int] = {"integer": 23, "bigint": 20, "varchar": 1043, "text": 25, "double precision": 701}

#: How long a cancelled write waits for the server to take its cancel request.
_CANCEL_SECONDS = 5.0

_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


class PreparedWrite:
    """One statement written with psycopg's ``%(name)s`` placeholders, as a named prepared
    statement: :attr:`text` with ``$n`` parameters of the types :attr:`types`, made on a
    connection by :func:`prepare`; :meth:`values` lays out a call's parameters for
    :func:`run_prepared`."""

    def __init__(self, name: str, statement: str, types: Mapping[str, str] = PARAMETER_TYPES) -> None:
        order: list[str] = []

        def numbered(match: re.Match[str]) -> str:
            if match[1] not in order:
                order.append(match[1])
            return f"${order.index(match[1]) + 1}"

        text = _PLACEHOLDER.sub(numbered, statement)
        if "%" in text:
            raise ValueError(f"statement {name} has a % that is not a placeholder")
        unknown = [p for p in order if p not in types]
        if unknown:
            raise ValueError(f"statement {name} has parameters of no known type: {', '.join(unknown)}")
        self.name = name
        #: The statement as psycopg takes it, for values that must go through psycopg.
        self.statement = statement
        self.order = tuple(order)
        self.text = text
        self.types = tuple(types[p] for p in order)
        self.oids = tuple(TYPE_OIDS[t] for t in self.types)
        self._floats = frozenset(p for p in order if types[p] == "double precision")
        #: The name as libpq takes it.
        self.wire_name = name.encode()

    def values(self, params: Mapping[str, Any]) -> list[bytes | None] | None:
        """Each parameter as PostgreSQL's text form, in the statement's order; ``None`` when one
        has no certain text form here (the caller then goes through psycopg)."""
        out: list[bytes | None] = []
        for name in self.order:
            value = params[name]
            if value is None:
                out.append(None)
            elif isinstance(value, str):
                if "\x00" in value:  # libpq reads a text parameter up to its first NUL
                    return None
                try:
                    out.append(value.encode())
                except UnicodeEncodeError:  # a lone surrogate: psycopg refuses it in its words
                    return None
            elif isinstance(value, bool):
                return None
            elif isinstance(value, int):
                out.append(b"%d" % value)
            elif isinstance(value, float) and name in self._floats and math.isfinite(value):
                out.append(repr(float(value)).encode())  # the shortest text that reads back exactly
            else:
                return None  # e.g. a float for an integer column: psycopg's cast rounds it
        return out


async def prepare(connection: psycopg.AsyncConnection[Any], write: PreparedWrite) -> None:
    """Make ``write`` on ``connection`` (once, as the connection opens)."""
    _idle(connection).send_prepare(write.wire_name, write.text.encode(), param_types=write.oids)
    await _answer(connection, _results(connection))


async def run_prepared(
    connection: psycopg.AsyncConnection[Any], write: PreparedWrite, values: list[bytes | None]
) -> bool:
    """Run ``write`` (prepared on ``connection``) with ``values``; whether it returned a row.

    The connection must be idle and held by the caller alone (``AwaitedPostgres.connected``).
    A statement's error is raised as psycopg's exception for it; a lost connection as
    ``psycopg.OperationalError``, after which ``connection.broken`` is true."""
    _idle(connection).send_query_prepared(write.wire_name, values)
    return await _answer(connection, _results(connection))


#: Connections PostgreSQL has said it is closing (see :func:`watch_closing`).
_closing: weakref.WeakSet[psycopg.AsyncConnection[Any]] = weakref.WeakSet()


def watch_closing(connection: psycopg.AsyncConnection[Any]) -> None:
    """Note when PostgreSQL says it is closing ``connection``: a backend ended (a restart, a
    failover, ``pg_terminate_backend``) sends a FATAL message first, which libpq reads, on an
    idle connection, as a notice."""

    def noted(diagnostic: psycopg.errors.Diagnostic) -> None:
        if diagnostic.severity_nonlocalized == "FATAL":
            _closing.add(connection)

    connection.add_notice_handler(noted)


def closing(connection: psycopg.AsyncConnection[Any]) -> bool:
    """Whether PostgreSQL has said it is closing ``connection`` (:func:`watch_closing`)."""
    return connection in _closing


def still_open(connection: psycopg.AsyncConnection[Any]) -> None:
    """Read what PostgreSQL sent the idle ``connection`` since it was last used (normally
    nothing: one ``recv``), and raise ``psycopg.OperationalError`` if it has closed it meanwhile
    (:func:`watch_closing`) or the connection is gone. Called before a write is sent, so that a
    write failing on a connection already closed is known not to have been written."""
    pgconn = connection.pgconn
    pgconn.consume_input()  # raises OperationalError when the server has closed the connection
    pgconn.is_busy()  # parses what was read: a FATAL message reaches watch_closing's handler
    if pgconn.status != pq.ConnStatus.OK or closing(connection):
        raise psycopg.OperationalError("the connection to PostgreSQL was closed")


def _idle(connection: psycopg.AsyncConnection[Any]) -> pq.abc.PGconn:
    pgconn = connection.pgconn
    if pgconn.transaction_status != pq.TransactionStatus.IDLE:
        raise psycopg.InterfaceError("the connection is not idle")
    return pgconn


async def run_prepared_together(
    connection: psycopg.AsyncConnection[Any], calls: Sequence[tuple[PreparedWrite, list[bytes | None]]]
) -> list[bool] | None:
    """Run each of ``calls`` (prepared on ``connection``), in this order, as one transaction:
    whether each returned a row; ``None`` when one of them failed, and so none was written.

    libpq's pipeline mode sends every statement at once with one Sync after the last: PostgreSQL
    runs them as one implicit transaction, committed at the Sync -- one commit, and one round
    trip, for them all. The first statement to fail ends that transaction and PostgreSQL skips
    the rest; the connection is idle again afterwards. A lost connection raises as
    :func:`run_prepared` does, and so does an interruption."""
    pgconn = _idle(connection)
    pgconn.enter_pipeline_mode()
    try:
        for write, values in calls:
            pgconn.send_query_prepared(write.wire_name, values)
        pgconn.pipeline_sync()
        return await _answer(connection, _pipelined_results(connection, len(calls)))
    finally:
        if pgconn.transaction_status == pq.TransactionStatus.IDLE:
            # Every result read: the connection takes ordinary statements again. (Otherwise
            # it is lost or was interrupted, and the pool closes it.)
            pgconn.exit_pipeline_mode()


async def _answer(connection: psycopg.AsyncConnection[Any], results: Awaitable[_T]) -> _T:
    """Send what libpq holds and read every result of it (``results``)."""
    try:
        return await results
    except BaseException:
        # Interrupted (the pool's writer cancelled as the server stops, or a caller that
        # awaits its own statement cancelled): ask the server to stop the statement too, as
        # psycopg does, so that a write still waiting for its campaign's row does not land
        # after it was given up. The pool then closes the connection, whose state is unknown.
        if connection.pgconn.transaction_status == pq.TransactionStatus.ACTIVE:
            with contextlib.suppress(Exception):
                await connection.cancel_safe(timeout=_CANCEL_SECONDS)
        raise


async def _sent(pgconn: pq.abc.PGconn, loop: asyncio.AbstractEventLoop) -> None:
    while pgconn.flush():
        # As libpq asks: while the rest waits to be sent, read what the server sends meanwhile.
        if await _ready(loop, pgconn.socket, writing=True):
            pgconn.consume_input()


async def _pipelined_results(connection: psycopg.AsyncConnection[Any], count: int) -> list[bool] | None:
    """The results of ``count`` pipelined statements and their Sync: whether each returned a
    row, or ``None`` if one failed (those after it come back aborted, unrun)."""
    pgconn = connection.pgconn
    loop = asyncio.get_running_loop()
    await _sent(pgconn, loop)
    answers: list[bool] = []
    returned = False
    failed = False
    while True:
        pgconn.consume_input()
        while not pgconn.is_busy():
            result = pgconn.get_result()
            if result is None:  # the end of one statement's results
                answers.append(returned)
                returned = False
                if len(answers) > count:
                    raise psycopg.InterfaceError("PostgreSQL answered more statements than were sent")
                continue
            status = result.status
            if status == pq.ExecStatus.PIPELINE_SYNC:
                if len(answers) != count:
                    raise psycopg.InterfaceError("PostgreSQL answered fewer statements than were sent")
                return None if failed else answers
            if status == pq.ExecStatus.TUPLES_OK:
                returned = result.ntuples > 0
            elif status not in (pq.ExecStatus.COMMAND_OK, pq.ExecStatus.PIPELINE_ABORTED):
                failed = True
        await _ready(loop, pgconn.socket)


async def _results(connection: psycopg.AsyncConnection[Any]) -> bool:
    pgconn = connection.pgconn
    loop = asyncio.get_running_loop()
    await _sent(pgconn, loop)
    returned = False
    error: psycopg.Error | None = None
    while True:
        try:
            pgconn.consume_input()
        except psycopg.Error:
            if error is not None:
                raise error from None  # the server's own reason, sent before it closed
            raise
        while not pgconn.is_busy():
            result = pgconn.get_result()
            if result is None:
                if error is not None:
                    raise error
                return returned
            if result.status == pq.ExecStatus.TUPLES_OK:
                returned = result.ntuples > 0
            elif result.status != pq.ExecStatus.COMMAND_OK:
                error = psycopg.errors.error_from_result(result, encoding=connection.info.encoding)
        await _ready(loop, pgconn.socket)


async def _ready(loop: asyncio.AbstractEventLoop, fd: int, *, writing: bool = False) -> bool:
    """Until ``fd`` can be read (or, ``writing``, until it can be read or written); whether it
    can be read."""
    ready: asyncio.Future[bool] = loop.create_future()

    def wake(readable: bool) -> None:
        if not ready.done():
            ready.set_result(readable)

    loop.add_reader(fd, wake, True)
    if writing:
        loop.add_writer(fd, wake, False)
    try:
        return await ready
    finally:
        loop.remove_reader(fd)
        if writing:
            loop.remove_writer(fd)
