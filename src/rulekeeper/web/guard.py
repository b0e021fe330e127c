"""The outermost layer of the app: what every request passes before anything reads it.

Wrapped around the whole app -- the action lane of :mod:`rulekeeper.web.action_dispatch` and
the middleware stack alike (:func:`install_guard`) -- so no path can skip it:

* **Bodies.** A ``Content-Length`` over the limit is refused with 413 before a byte of the body
  is read; a body sent without one (chunked) is cut off with 413 the moment it passes the limit;
  a body that stops arriving for :data:`Limits.body_seconds` is refused with 408.
* **Browsers.** A request that rides on a page cookie (no ``Authorization`` header) and would
  change something (any method but GET, HEAD, OPTIONS) must come from this server's own origin
  (``Sec-Fetch-Site`` / ``Origin``) and carry JSON: a page on another site or another port
  cannot make a signed-in browser post. A bearer token is a script's, not a browser's, and
  passes untouched.
* **Fairness.** One sign-in (a token, by bearer or page cookie) may have at most
  :data:`Limits.requests_per_token` requests under way in a process at once (429 beyond, with
  ``Retry-After``): a player's script cannot take every worker thread, and with them every other
  seat's turn. Live streams are left to their own limit (``RULEKEEPER_MAX_STREAMS_PER_TOKEN``).
* **Headers.** Every response gets a strict Content-Security-Policy (scripts and styles only
  from this server; no frames), ``nosniff``, ``Referrer-Policy: no-referrer`` and
  ``X-Frame-Options: DENY``; pages and campaign operations (which carry tokens) are not cached.

The limits come from the environment (:meth:`Limits.from_environment`), documented in
docs/api.md.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Awaitable, Callable, Coroutine, Generator
from dataclasses import dataclass
from typing import Any, cast

from fastapi import FastAPI
from starlette.exceptions import HTTPException
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rulekeeper.campaign.members import TokenProblem, token_parts
from rulekeeper.web.auth import COOKIE, bearer_of
from rulekeeper.web.problems import problem_response

__all__ = ["LIMIT_VARIABLES", "SECURITY_HEADERS", "Limits", "env_number", "install_guard"]

_SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


#: Inline styles stay allowed (bar widths are set in ``style``); inline script never is.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)


#: Every limit ``rulekeeper serve`` reads from its environment (checked there before it starts).
LIMIT_VARIABLES = (
    "RULEKEEPER_MAX_BODY_BYTES",
    "RULEKEEPER_MAX_IMPORT_BODY_BYTES",
    "RULEKEEPER_BODY_TIMEOUT",
    "RULEKEEPER_HEADER_TIMEOUT",
    "RULEKEEPER_KEEPALIVE_TIMEOUT",
    "RULEKEEPER_MAX_CONNECTIONS",
    "RULEKEEPER_MAX_STREAMS_PER_TOKEN",
    "RULEKEEPER_MAX_REQUESTS_PER_TOKEN",
)


def env_number(name: str, default: float) -> float:
    """A positive number from the environment, else ``default`` (``serve`` has refused a bad
    one already, with an error naming it; an app made in process takes the default)."""
    text = os.environ.get(name, "").strip()
    try:
        value = float(text) if text else default
    except ValueError:
        value = default
    return value if value > 0 else default


@dataclass(frozen=True)
class Limits:
    """What one request may send. Defaults are generous for a table, small for a flood."""

    #: Bytes of a request body (``RULEKEEPER_MAX_BODY_BYTES``).
    body_bytes: int = 4 << 20
    #: Bytes of the body of a campaign import (``RULEKEEPER_MAX_IMPORT_BODY_BYTES``): a whole
    #: campaign document (``limits.MAX_IMPORT_BYTES``) with room for its JSON escaping.
    import_body_bytes: int = 80 << 20
    #: Seconds a client may pause while sending a body (``RULEKEEPER_BODY_TIMEOUT``).
    body_seconds: float = 10.0
    #: Requests one token may have under way in a process (``RULEKEEPER_MAX_REQUESTS_PER_TOKEN``):
    #: half the worker threads (``RULEKEEPER_SERVE_THREADS``, 8), so others always have some. A
    #: phone or a page sends one or two at a time.
    requests_per_token: int = 4

    @classmethod
    def from_environment(cls) -> Limits:
        base = cls()
        return cls(
            body_bytes=int(env_number("RULEKEEPER_MAX_BODY_BYTES", base.body_bytes)),
            import_body_bytes=int(env_number("RULEKEEPER_MAX_IMPORT_BODY_BYTES", base.import_body_bytes)),
            body_seconds=env_number("RULEKEEPER_BODY_TIMEOUT", base.body_seconds),
            requests_per_token=int(env_number("RULEKEEPER_MAX_REQUESTS_PER_TOKEN", base.requests_per_token)),
        )

    def body_limit(self, path: str) -> int:
        return self.import_body_bytes if path == "/api/campaigns/import" else self.body_bytes


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return None


def _has_page_cookie(scope: Scope) -> bool:
    cookie = _header(scope, b"cookie")
    return cookie is not None and "rulekeeper_token" in cookie


def _cross_site(scope: Scope) -> str | None:
    """Why a cookie request is not from this server's own pages, or ``None`` when it is."""
    fetch_site = _header(scope, b"sec-fetch-site")
    if fetch_site is not None:
        # The browser's own verdict, which holds behind a proxy that rewrites Host or scheme.
        return None if fetch_site in ("same-origin", "none") else f"it came from a {fetch_site} page (Sec-Fetch-Site)"
    origin = _header(scope, b"origin")
    host = _header(scope, b"host")
    if origin is not None:
        scheme = "https" if scope.get("scheme") == "https" else "http"
        if host is None or origin.lower() != f"{scheme}://{host}".lower():
            return f"it came from {origin}, not from this server"
    else:
        return "it says neither where it came from (Origin) nor how (Sec-Fetch-Site)"
    return None


def _token_ids(scope: Scope) -> list[str]:
    """The ids of every token the request carries (bearer and page cookies), as the token's
    own public part (``members.token_parts``): sent however its header is spelled, one token is
    counted as one sign-in, and a request cannot shed its own by adding others."""
    found: list[str] = []
    authorization = _header(scope, b"authorization")
    if authorization is not None:
        token = bearer_of(authorization)
        if token is not None:
            found.append(token)
    cookie = _header(scope, b"cookie")
    if cookie is not None and COOKIE in cookie:
        # Read as the app reads them (quotes and escapes such as \056 undone), so a token
        # spelled otherwise is still the same sign-in.
        for name, value in cookie_parser(cookie).items():
            if name.startswith(COOKIE) and value:
                found.append(value)
    ids = []
    for token in found:
        try:
            ids.append(token_parts(token)[0])
        except TokenProblem:
            continue  # refused as malformed before anything costly
    return list(dict.fromkeys(ids))  # the same token as bearer and cookie is one request


#: Live streams, left to their own limit (``RULEKEEPER_MAX_STREAMS_PER_TOKEN``).
_STREAMS = re.compile(r"/api/campaigns/[^/]+/events|/campaigns/[^/]+/screen/events")


def _counted(path: str) -> bool:
    """Whether a request on ``path`` counts against its token's share: the API's and the pages'
    campaign operations, which take a worker's time. Not the pages' scripts and styles (a
    browser fetches several at once, with the page's cookie) nor a live stream."""
    return path.startswith(("/api/campaigns/", "/campaigns/")) and _STREAMS.fullmatch(path) is None


def _is_json(scope: Scope) -> bool:
    content_type = _header(scope, b"content-type") or ""
    return content_type.split(";", 1)[0].strip().lower() == "application/json"


#: What every response gets unless it sets the header itself; pages and campaign operations
#: (which carry tokens) are not cached either.
_ADDED_NOT_STORED = (*SECURITY_HEADERS, (b"cache-control", b"no-store"))


def _with_headers(send: Send, path: str) -> Send:
    added = _ADDED_NOT_STORED if path.startswith(("/campaigns/", "/api/campaigns")) else SECURITY_HEADERS

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", ()))
            present = {k.lower() for k, _ in headers}
            headers += [h for h in added if h[0] not in present]
            message = {**message, "headers": headers}
        await send(message)

    return sending


class _Resumed:
    """The rest of coroutine ``coro``, already run up to its first wait, where it yielded
    ``waiting`` (what a coroutine awaiting a future yields to the task running it). Awaiting
    this hands ``waiting`` on to that task and resumes ``coro`` as an ``await`` of it would."""

    __slots__ = ("_coro", "_waiting")

    def __init__(self, coro: Coroutine[Any, Any, Message], waiting: Any) -> None:
        self._coro = coro
        self._waiting = waiting

    def __await__(self) -> Generator[Any, Any, Message]:
        coro, waiting = self._coro, self._waiting
        while True:
            try:
                sent = yield waiting
            except GeneratorExit:
                coro.close()
                raise
            except BaseException as exc:  # a cancellation, thrown in by the task
                try:
                    waiting = coro.throw(exc)
                except StopIteration as done:
                    return cast(Message, done.value)
            else:
                try:
                    waiting = coro.send(sent)
                except StopIteration as done:
                    return cast(Message, done.value)


async def _within(seconds: float, pending: Awaitable[Message]) -> Message:
    try:
        async with asyncio.timeout(seconds):
            return await pending
    except TimeoutError:
        raise HTTPException(408, f"the request body stopped arriving for {seconds:g} s") from None


def _limited(receive: Receive, limit: int, seconds: float) -> Receive:
    """``receive`` that refuses a body past ``limit`` bytes (413) or stalled ``seconds`` (408)."""
    seen = 0
    done = False

    async def receiving() -> Message:
        nonlocal seen, done
        if done:
            return await receive()
        pending = receive()
        if isinstance(pending, Coroutine):
            # A small body has usually arrived with its headers: its message is taken at once,
            # with no timer set and cancelled for it (about 4 µs, 2 % of an action in process).
            try:
                waiting = pending.send(None)
            except StopIteration as finished:
                message = cast(Message, finished.value)
            else:
                message = await _within(seconds, _Resumed(pending, waiting))
        else:
            message = await _within(seconds, pending)
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > limit:
                raise HTTPException(413, f"the request body is over {limit:,} bytes")
            done = not message.get("more_body", False)
        return message

    return receiving


def guard(app: ASGIApp, limits: Limits) -> ASGIApp:
    """``app`` behind the checks and headers of this module."""
    #: Requests under way per token id, in this process (one event loop: no lock needed).
    under_way: dict[str, int] = {}

    async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await app(scope, receive, send)
            return
        path: str = scope["path"]
        send = _with_headers(send, path)
        limit = limits.body_limit(path)
        length = _header(scope, b"content-length")
        if length is not None and (not length.strip().isdigit() or int(length) > limit):
            await problem_response(413, "too-large", f"the request body is over {limit:,} bytes", path)(
                scope, receive, send
            )
            return
        method: str = scope["method"]
        if method not in _SAFE_METHODS and _header(scope, b"authorization") is None and _has_page_cookie(scope):
            why = _cross_site(scope)
            if why is None and not _is_json(scope):
                why = "a page's request must carry JSON (Content-Type: application/json)"
            if why is not None:
                detail = f"refused a request made with this browser's sign-in: {why}"
                await problem_response(403, "forbidden", detail, path)(scope, receive, send)
                return
        ids = _token_ids(scope) if _counted(path) else ()
        most = limits.requests_per_token
        if any(under_way.get(i, 0) >= most for i in ids):
            detail = f"this sign-in already has {most} requests under way; send more once they are answered"
            refused = problem_response(429, "too-many-requests", detail, path)
            refused.headers["Retry-After"] = "1"
            await refused(scope, receive, send)
            return
        for i in ids:
            under_way[i] = under_way.get(i, 0) + 1
        try:
            await app(scope, _limited(receive, limit, limits.body_seconds), send)
        finally:
            for i in ids:
                left = under_way[i] - 1
                if left:
                    under_way[i] = left
                else:
                    del under_way[i]

    return guarded


def install_guard(app: FastAPI, limits: Limits | None = None) -> None:
    """Put the guard around whatever ``app`` builds as its stack (the action lane included)."""
    build: Callable[[], ASGIApp] = app.build_middleware_stack
    chosen = limits or Limits.from_environment()

    def stack() -> ASGIApp:
        return guard(build(), chosen)

    app.build_middleware_stack = stack  # type: ignore[method-assign]
