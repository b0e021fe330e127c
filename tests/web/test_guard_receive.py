"""The guard's body reader (``guard._limited``): a message already there is taken at once, with
no timer; one still on its way is awaited under the body deadline, as before."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from starlette.exceptions import HTTPException
from starlette.types import Message

from rulekeeper.web.guard import _limited

_BODY: Message = {"type": "http.request", "body": b'{"a": 1}', "more_body": False}


def _run(receive: Callable[[], Awaitable[Message]], *, limit: int = 100, seconds: float = 5.0) -> Message:
    async def main() -> Message:
        return await _limited(receive, limit, seconds)()

    return asyncio.run(main())


def _counting_timeouts(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The deadlines the guard sets (asyncio.timeout still does its work)."""
    set_for: list[float] = []
    real = asyncio.timeout

    def counted(delay: float | None) -> Any:
        set_for.append(delay if delay is not None else -1.0)
        return real(delay)

    monkeypatch.setattr(asyncio, "timeout", counted)
    return set_for


def test_a_message_already_there_is_taken_without_a_timer(monkeypatch: pytest.MonkeyPatch) -> None:
    set_for = _counting_timeouts(monkeypatch)

    async def receive() -> Message:
        return _BODY

    assert _run(receive) == _BODY
    assert set_for == []


def test_a_message_on_its_way_is_awaited_under_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    set_for = _counting_timeouts(monkeypatch)
    steps: list[str] = []

    async def receive() -> Message:
        # Suspends twice, as uvicorn's receive does when the body comes in two turns.
        await asyncio.sleep(0.01)
        steps.append("first")
        await asyncio.sleep(0.01)
        steps.append("second")
        return _BODY

    assert _run(receive, seconds=3.0) == _BODY
    assert steps == ["first", "second"]
    assert set_for == [3.0]


def test_a_stalled_body_is_refused_with_408() -> None:
    async def receive() -> Message:
        await asyncio.sleep(3600)
        return _BODY

    with pytest.raises(HTTPException) as refused:
        _run(receive, seconds=0.05)
    assert refused.value.status_code == 408
    assert "0.05 s" in refused.value.detail


def test_a_body_past_the_limit_is_refused_with_413_either_way() -> None:
    big: Message = {"type": "http.request", "body": b"x" * 101, "more_body": False}

    async def at_once() -> Message:
        return big

    async def later() -> Message:
        await asyncio.sleep(0.01)
        return big

    for receive in (at_once, later):
        with pytest.raises(HTTPException) as refused:
            _run(receive, limit=100)
        assert refused.value.status_code == 413


def test_a_cancelled_request_cancels_the_wait_for_its_body() -> None:
    seen: list[str] = []

    async def receive() -> Message:
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            seen.append("cancelled")
            raise
        return _BODY

    async def main() -> None:
        task = asyncio.ensure_future(_limited(receive, 100, 60.0)())
        await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(main())
    assert seen == ["cancelled"]


def test_an_awaitable_that_is_not_a_coroutine_is_awaited_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    set_for = _counting_timeouts(monkeypatch)

    async def main() -> Message:
        future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        asyncio.get_running_loop().call_later(0.01, future.set_result, _BODY)
        return await _limited(lambda: future, 100, 2.0)()

    assert asyncio.run(main()) == _BODY
    assert set_for == [2.0]


def test_after_the_last_body_message_receive_is_passed_through() -> None:
    calls: list[Message] = []
    messages = [_BODY, {"type": "http.disconnect"}]

    async def receive() -> Message:
        message = messages[len(calls)]
        calls.append(message)
        return message

    async def main() -> tuple[Message, Message]:
        receiving = _limited(receive, 100, 5.0)
        return await receiving(), await receiving()

    assert asyncio.run(main()) == (_BODY, {"type": "http.disconnect"})
