"""One sign-in has a bounded number of requests under way (``guard``'s fairness): a player's
script cannot take every worker thread of a process, and with them every other seat's turn.

The app behind the guard here holds each request until the test lets it go, so which requests
are under way at once is certain.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

from starlette.types import Message, Receive, Scope, Send

from rulekeeper.web.guard import Limits, guard

_TOKEN = "rk1.ana123.secret"
_OTHER = "rk1.bea456.secret"


class _Held:
    """An app that answers 200 once ``release`` is set, counting the requests it holds."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.holding = 0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.holding += 1
        try:
            await self.release.wait()
        finally:
            self.holding -= 1
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})


def _scope(path: str = "/api/campaigns/t/log", **headers: str) -> Scope:
    return {
        "type": "http",
        "method": "GET",
        "path": path,
        "headers": [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()],
    }


async def _request(app: Any, scope: Scope) -> tuple[int, dict[str, str], Any]:
    sent: list[Message] = []

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: Message) -> None:
        sent.append(message)

    await app(scope, receive, send)
    start = sent[0]
    headers = {k.decode(): v.decode() for k, v in start.get("headers", ())}
    body = b"".join(m.get("body", b"") for m in sent[1:])
    return start["status"], headers, json.loads(body) if body else None


def test_one_token_has_at_most_its_share_of_requests_under_way() -> None:
    async def main() -> None:
        held = _Held()
        app = guard(held, Limits(requests_per_token=2))
        bearer = {"authorization": f"Bearer {_TOKEN}"}
        first = [asyncio.ensure_future(_request(app, _scope(**bearer))) for _ in range(2)]
        await asyncio.sleep(0.01)
        assert held.holding == 2
        # The same token however it is sent: another spelling of the header, or as a page cookie.
        for spelled in (
            {"authorization": f"bearer {_TOKEN}"},
            {"cookie": f"rulekeeper_token_abc={_TOKEN}"},
            {"cookie": f"x=1; rulekeeper_token_abc={_TOKEN}; rulekeeper_token_def=rk1.junk.x"},
            # Quoted, with its dots escaped: the app reads the same token (a review's bypass).
            {"cookie": 'rulekeeper_token_abc="' + _TOKEN.replace(".", "\\056") + '"'},
        ):
            status, headers, body = await _request(app, _scope(**spelled))
            assert status == 429 and headers["retry-after"] == "1", (spelled, status)
            assert body["type"] == "/problems/too-many-requests" and "2 requests" in body["detail"]
        # A path that only ends like a stream is no stream.
        status, _, _ = await _request(app, _scope("/api/campaigns/t/characters/events", **bearer))
        assert status == 429
        # Another player, a request with no token, a live stream and the pages' scripts (a
        # browser fetches several at once, with the page's cookie) are not held back.
        cookie = {"cookie": f"rulekeeper_token_abc={_TOKEN}"}
        others = [
            asyncio.ensure_future(_request(app, _scope(authorization=f"Bearer {_OTHER}"))),
            asyncio.ensure_future(_request(app, _scope())),
            asyncio.ensure_future(_request(app, _scope("/api/campaigns/t/events", **bearer))),
            asyncio.ensure_future(_request(app, _scope("/campaigns/t/screen/events", **cookie))),
            *(asyncio.ensure_future(_request(app, _scope(f"/static/{n}.js", **cookie))) for n in range(5)),
        ]
        await asyncio.sleep(0.01)
        assert held.holding == 2 + len(others)
        held.release.set()
        assert [s for s, _, _ in await asyncio.gather(*first, *others)] == [200] * (2 + len(others))
        # Answered, the token's requests are counted no more.
        held.release = asyncio.Event()
        again = [asyncio.ensure_future(_request(app, _scope(**bearer))) for _ in range(2)]
        await asyncio.sleep(0.01)
        assert held.holding == 2
        held.release.set()
        assert [s for s, _, _ in await asyncio.gather(*again)] == [200, 200]

    asyncio.run(asyncio.wait_for(main(), 10))


def test_a_request_that_fails_or_is_cancelled_gives_its_place_back() -> None:
    async def main() -> None:
        async def broken(scope: Scope, receive: Receive, send: Send) -> None:
            raise RuntimeError("a fault of the app")

        app = guard(broken, Limits(requests_per_token=1))
        scope = _scope(authorization=f"Bearer {_TOKEN}")
        for _ in range(3):
            with contextlib.suppress(RuntimeError):
                await _request(app, scope)
        held = _Held()
        app = guard(held, Limits(requests_per_token=1))
        task = asyncio.ensure_future(_request(app, scope))
        await asyncio.sleep(0.01)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        held.release.set()
        assert (await _request(app, scope))[0] == 200

    asyncio.run(asyncio.wait_for(main(), 10))
