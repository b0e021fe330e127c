"""One route for every action: ``POST /api/campaigns/{campaign}/{system}/actions/{action}``.

Actions are the busiest requests a table sends. Served as one FastAPI operation per system and
action (over a hundred), each request walked the route table past dozens of them, and
FastAPI's dependency solver resolved the identity, the server, both headers and the body on
every call; between them those cost about half of the server's CPU per action (measured with
``benchmarks/server.py``). Here one route takes every action -- in front of the app's
middleware stack (:meth:`ActionDispatch.lane`), and first in its route table for anything that
gets that far: the spec is found by name, the body is validated by the action's own request
model straight from the JSON bytes, and the identity, the command and its projection run in
one worker thread -- or, for an ordinary action on PostgreSQL or on a SQLite file served by one
process, on the event loop itself (``commands.execute_awaited``).

Nothing answers differently. Anything out of the ordinary -- a body the model refuses, an odd
``If-Match`` or ``Idempotency-Key``, another media type, an over-long name -- is handed, with
the body it came with, to the documented per-action FastAPI operation, which answers it
exactly as it always has (a 422 naming the field ...). Errors raised on the quick path (401,
403, a rule's refusal, a stale version) go to the app's problem handlers like any other. The
documented operations stay in the OpenAPI schema, so ``/docs`` still shows every action with
its own body.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI
from fastapi.routing import APIRoute
from pydantic import BaseModel, ValidationError
from pydantic_core import to_json
from starlette._utils import get_route_path
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Match, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rulekeeper.campaign import Campaign
from rulekeeper.campaign.facade import Planned
from rulekeeper.campaign.seat import Seat
from rulekeeper.web.auth import Access, awaited_access, bearer_of, request_member, token_of
from rulekeeper.web.commands import execute_awaited
from rulekeeper.web.server import Server

__all__ = ["ActionEntry", "ActionPresume", "ActionRun", "dispatch_route"]

PATH = "/api/campaigns/{campaign}/{system}/actions/{action}"

#: ``(server, access, response, body, if_match, idempotency_key)`` to the projected answer;
#: blocking (runs in a worker thread); sets the response's headers.
ActionRun = Callable[[Server, Access, Response, Any, "str | None", "str | None"], dict[str, Any]]

# The header forms the documented operation declares (``commands.IfMatch``/``IdempotencyKey``).
_IF_MATCH = re.compile(r'^\s*((W/)?"?[0-9]{1,12}"?|\*)\s*$')
_NAME_LIMIT = 200


#: ``(campaign, seat, body, expected_version, key)`` to the action worked out on the held
#: campaign, not yet written, or None (``commands.execute_awaited``).
ActionPresume = Callable[[Campaign, Seat, Any, "int | None", "str | None"], "Planned | None"]


@dataclass(frozen=True)
class ActionEntry:
    """One action of one system: its documented operation, body model and how to run it."""

    route: APIRoute
    model: type[BaseModel]
    run: ActionRun
    presume: ActionPresume


#: The request headers the quick path reads.
_READ = frozenset({b"content-type", b"if-match", b"idempotency-key", b"authorization"})


def _ordinary_headers(scope: Scope) -> tuple[str | None, str | None, str | None] | None:
    """``If-Match``, ``Idempotency-Key`` and the bearer token, when each is absent or in its
    documented form; ``None`` sends the request the long way, which explains what is wrong.
    Read in one pass over the headers, the first of each name as Starlette's ``Headers`` reads
    it (a ``Request`` and its ``Headers`` scanned them once per name)."""
    found: dict[bytes, str] = {}
    for name, value in scope["headers"]:
        if name in _READ and name not in found:
            found[name] = value.decode("latin-1")
    content_type = found.get(b"content-type")
    if content_type is not None and content_type.split(";", 1)[0].strip().lower() != "application/json":
        return None
    if_match = found.get(b"if-match")
    if if_match is not None and (len(if_match) > 40 or _IF_MATCH.match(if_match) is None):
        return None
    key = found.get(b"idempotency-key")
    if key is not None and not 1 <= len(key) <= 200:
        return None
    return if_match, key, bearer_of(found.get(b"authorization"))


class _JsonAnswer:
    """A 200 with a JSON body and its ``ETag``: the messages Starlette's ``Response`` sends,
    without building one."""

    __slots__ = ("_body", "_etag")

    def __init__(self, body: bytes, etag: str) -> None:
        self._body = body
        self._etag = etag

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = self._body
        headers = [
            (b"etag", self._etag.encode("latin-1")),
            (b"content-length", str(len(body)).encode("latin-1")),
            (b"content-type", b"application/json"),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})


async def _read_body(receive: Receive) -> bytes:
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise HTTPException(400, "the client went away")
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands ``body`` over again, then waits on the real one (disconnects)."""
    sent = False

    async def again() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return again


class ActionDispatch:
    """The ASGI app behind :data:`PATH`: the route in the app's table, and (:meth:`lane`) the
    same work in front of the app's middleware."""

    def __init__(self, entries: dict[tuple[str, str], ActionEntry]) -> None:
        self._entries = entries

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path_params = scope["path_params"]
        entry = self._entries.get((path_params["system"], path_params["action"]))
        if entry is None:
            raise HTTPException(404)  # what the route table answers for a path it does not know
        if scope.get(_LONG_WAY):
            await self._documented(entry, scope, receive, send)
            return
        body = await _read_body(receive)
        answer = await self._quick(entry, scope, body)
        if answer is None:
            await self._documented(entry, scope, _replay(body, receive), send)
        else:
            await answer(scope, receive, send)

    async def _quick(self, entry: ActionEntry, scope: Scope, body: bytes) -> ASGIApp | None:
        """The answer, or ``None`` when the request is not an ordinary one."""
        campaign: str = scope["path_params"]["campaign"]
        headers = _ordinary_headers(scope)
        if headers is None or len(campaign) > _NAME_LIMIT:
            return None
        try:
            parsed = entry.model.model_validate_json(body)
        except ValidationError:
            return None
        if_match, key, bearer = headers
        server: Server = scope["app"].state.rulekeeper
        awaited = server.awaited
        if awaited is not None:
            token = bearer or token_of(Request(scope), None, campaign)
            access = await awaited_access(server, awaited, token, campaign)
            done = None
            if access is not None:

                def presume(c: Campaign, seat: Seat, expected: int | None, k: str | None) -> Planned | None:
                    return entry.presume(c, seat, parsed, expected, k)

                done = await execute_awaited(server, awaited, access, presume, if_match=if_match, key=key)
                if done is None:
                    # Done the usual way below, its member read afresh (and again next time).
                    server.known_members.pop(access.identity.token_id, None)
            if done is not None:
                return _JsonAnswer(to_json(done[0]), done[1])
        request = Request(scope)
        holder = Response()

        def work() -> dict[str, Any]:
            access = request_member(request, campaign, server, bearer)
            return entry.run(server, access, holder, parsed, if_match, key)

        # In a worker thread: it may wait for the database, or for a campaign a thread holds.
        answer = await run_in_threadpool(work)
        # pydantic-core's encoder (Rust, already installed): the same compact UTF-8 JSON as
        # json.dumps(separators=(",", ":"), ensure_ascii=False), in a third of the time.
        return _JsonAnswer(to_json(answer), holder.headers["etag"])

    @staticmethod
    async def _documented(entry: ActionEntry, scope: Scope, receive: Receive, send: Send) -> None:
        match, child = entry.route.matches(scope)
        assert match is Match.FULL, "an action's documented route answers its own path"
        await entry.route.handle({**scope, **child}, receive, send)

    def lane(self, app: FastAPI, stack: ASGIApp) -> ASGIApp:
        """``app``'s middleware ``stack`` with ordinary action requests answered before it.

        Starlette's and FastAPI's middleware (error pages, exception handlers, exit stacks, body
        limits) and the route table cost a twentieth of an action's CPU, and an action needs
        none of them on its quick path: its errors are rendered here by the app's own exception
        handlers, as the middleware would. Anything else goes through ``app`` untouched (an
        unusual action request too, marked to take the documented operation at once).
        ``app`` is only read for its exception handlers and state.
        """
        route = Route(PATH, self, methods=["POST"])

        async def lane(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != "http" or scope["method"] != "POST":
                await stack(scope, receive, send)
                return
            match = route.path_regex.match(get_route_path(scope))
            entry = None if match is None else self._entries.get((match["system"], match["action"]))
            if match is None or entry is None:
                await stack(scope, receive, send)
                return
            scope = {**scope, "path_params": match.groupdict()}
            body = b""
            try:
                body = await _read_body(receive)
                answer = await self._quick(entry, scope, body)
            except Exception as exc:
                answer = await _handled(app, scope, exc)
            if answer is None:
                await stack({**scope, _LONG_WAY: True}, _replay(body, receive), send)
            else:
                await answer(scope, receive, send)

        return lane


#: Marks a request the lane found unusual: the route hands it to the documented operation.
_LONG_WAY = "rulekeeper.long_way"


async def _handled(app: FastAPI, scope: Scope, exc: Exception) -> Response:
    """What the app's exception handlers answer to ``exc`` (the nearest class registered)."""
    handler = next(app.exception_handlers[c] for c in type(exc).__mro__ if c in app.exception_handlers)
    response = handler(Request(scope), exc)
    if inspect.isawaitable(response):
        response = await response
    assert isinstance(response, Response)
    return response


def dispatch_route(entries: dict[tuple[str, str], ActionEntry]) -> tuple[Route, ActionDispatch]:
    """The one route, outside the OpenAPI schema (the documented operations are in it)."""
    dispatch = ActionDispatch(entries)
    return Route(PATH, dispatch, methods=["POST"], include_in_schema=False, name="action"), dispatch
