"""The header deadlines of ``serve``'s HTTP protocol (``protocol._Deadlines``): every waiting
connection is dropped at its own deadline, with one timer on the loop for all of them."""

from __future__ import annotations

import asyncio

import pytest

from rulekeeper.web import protocol
from rulekeeper.web.protocol import _Deadlines


class _Connection:
    """Stands in for a ``GuardedH11Protocol``: only what the deadlines call."""

    def __init__(self, name: str, dropped: list[str]) -> None:
        self.name = name
        self._dropped = dropped

    def _drop(self) -> None:
        self._dropped.append(self.name)


def test_each_connection_is_dropped_at_its_own_deadline_with_one_timer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(protocol, "HEADER_SECONDS", 0.2)
    dropped: list[str] = []

    async def scenario() -> tuple[list[int], list[str]]:
        loop = asyncio.get_running_loop()
        deadlines = _Deadlines()
        a, b, c = (_Connection(n, dropped) for n in "abc")
        timers: list[int] = []
        deadlines.arm(a, loop)  # type: ignore[arg-type]
        await asyncio.sleep(0.05)
        deadlines.arm(b, loop)  # type: ignore[arg-type]
        deadlines.arm(c, loop)  # type: ignore[arg-type]
        timers.append(len(loop._scheduled))  # type: ignore[attr-defined]
        await asyncio.sleep(0.1)
        deadlines.arm(a, loop)  # a's next request's wait: from now, behind b and c
        deadlines.disarm(c)  # c's headers came
        timers.append(len(loop._scheduled))  # type: ignore[attr-defined]
        assert deadlines.oldest() is b
        await asyncio.sleep(0.1)  # b's deadline passed (0.25 s), a's not (0.35 s)
        after_b = list(dropped)
        await asyncio.sleep(0.15)
        assert not deadlines.due
        return timers, after_b

    timers, after_b = asyncio.run(scenario())
    assert timers == [1, 1]  # one timer, however many connections wait
    assert after_b == ["b"]
    assert dropped == ["b", "a"]  # c never: its headers came in time


def test_a_connection_armed_again_is_not_dropped_at_its_old_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(protocol, "HEADER_SECONDS", 0.1)
    dropped: list[str] = []

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        deadlines = _Deadlines()
        kept = _Connection("kept", dropped)
        for _ in range(5):  # a request every 60 ms: each answer arms it anew
            deadlines.arm(kept, loop)  # type: ignore[arg-type]
            await asyncio.sleep(0.06)
        assert dropped == []
        await asyncio.sleep(0.1)

    asyncio.run(scenario())
    assert dropped == ["kept"]
