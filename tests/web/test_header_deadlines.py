"""The header deadlines of ``serve``'s HTTP protocol (``protocol._Deadlines``): every waiting
connection is dropped at its own deadline, never before, with one timer on the loop for all of
them. Only lower bounds on time are asserted: a busy machine may run the timer late."""

from __future__ import annotations

import asyncio

from rulekeeper.web.protocol import _Deadlines

SECONDS = 0.2


class _Connection:
    """Stands in for a ``GuardedH11Protocol``: only what the deadlines call."""

    def __init__(self, name: str, dropped: list[tuple[str, float]]) -> None:
        self.name = name
        self._dropped = dropped

    def _drop(self) -> None:
        self._dropped.append((self.name, asyncio.get_running_loop().time()))


async def _until_dropped(dropped: list[tuple[str, float]], count: int) -> None:
    async with asyncio.timeout(10):
        while len(dropped) < count:
            await asyncio.sleep(0.01)


def test_each_connection_is_dropped_at_its_own_deadline_with_one_timer() -> None:
    dropped: list[tuple[str, float]] = []

    async def scenario() -> tuple[list[int], float, float]:
        loop = asyncio.get_running_loop()
        deadlines = _Deadlines(_Connection._drop)  # type: ignore[arg-type]
        a, b, c = (_Connection(n, dropped) for n in "abc")
        timers: list[int] = []
        deadlines.arm(a, loop, SECONDS)  # type: ignore[arg-type]
        await asyncio.sleep(0.05)
        b_armed = loop.time()
        deadlines.arm(b, loop, SECONDS)  # type: ignore[arg-type]
        deadlines.arm(c, loop, SECONDS)  # type: ignore[arg-type]
        timers.append(len(loop._scheduled))  # type: ignore[attr-defined]
        await asyncio.sleep(0.05)
        a_armed = loop.time()
        deadlines.arm(a, loop, SECONDS)  # type: ignore[arg-type]  # a's next request's wait, behind b and c
        deadlines.disarm(c)  # c's headers came
        timers.append(len(loop._scheduled))  # type: ignore[attr-defined]
        assert deadlines.oldest() is b
        await _until_dropped(dropped, 2)
        await asyncio.sleep(SECONDS)  # nothing more is dropped
        assert not deadlines.due
        return timers, b_armed, a_armed

    timers, b_armed, a_armed = asyncio.run(scenario())
    assert timers == [1, 1]  # one timer, however many connections wait
    assert [name for name, _ in dropped] == ["b", "a"]  # c never: its headers came in time
    (_, b_at), (_, a_at) = dropped
    assert b_at >= b_armed + SECONDS - 0.002
    assert a_at >= a_armed + SECONDS - 0.002  # from its second arming, not its first


def test_a_connection_armed_again_in_time_is_never_dropped() -> None:
    dropped: list[tuple[str, float]] = []

    async def scenario() -> float:
        loop = asyncio.get_running_loop()
        deadlines = _Deadlines(_Connection._drop)  # type: ignore[arg-type]
        kept = _Connection("kept", dropped)
        last = loop.time()
        for _ in range(5):  # an answer every 40 ms: each arms it anew
            last = loop.time()
            deadlines.arm(kept, loop, SECONDS)  # type: ignore[arg-type]
            await asyncio.sleep(0.04)
            if dropped:  # only a late-running machine gets here: each arm was past the last deadline
                assert dropped[0][1] >= last + SECONDS - 0.002
                return last
        await _until_dropped(dropped, 1)
        return last

    last = asyncio.run(scenario())
    assert [name for name, _ in dropped] == ["kept"]
    assert dropped[0][1] >= last + SECONDS - 0.002
