"""The tokens behind a process's live streams are read together, once per interval, however many
streams there are; a token found revoked stays fallen, and a database that is away ends nothing."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import Any

from rulekeeper.errors import StoreError
from rulekeeper.web.stream_tokens import StreamTokens


class FakeStore:
    """Only what ``StreamTokens`` asks: which tokens stand, each call noted."""

    def __init__(self) -> None:
        self.revoked: set[str] = set()
        self.away = False
        self.calls: list[list[str]] = []

    def standing_tokens(self, token_ids: Sequence[str], now: float) -> set[str]:
        self.calls.append(sorted(token_ids))
        if self.away:
            raise StoreError("database error: the server closed the connection")
        return {t for t in token_ids if t not in self.revoked}


def _tokens(store: FakeStore) -> StreamTokens:
    fake: Any = store
    return StreamTokens(fake, interval=0.01)


async def _until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "never happened"
        await asyncio.sleep(0.005)


def test_one_read_covers_every_stream_and_a_revoked_token_falls() -> None:
    async def run() -> None:
        store = FakeStore()
        tokens = _tokens(store)
        for i in range(300):  # three hundred pages: three tokens with a hundred streams each
            tokens.hold(f"t{i % 3}")
        await _until(lambda: len(store.calls) >= 3)
        assert all(call == ["t0", "t1", "t2"] for call in store.calls)  # one read for all of them
        assert tokens.stands("t1")
        store.revoked.add("t1")
        await _until(lambda: not tokens.stands("t1"))
        assert tokens.stands("t0") and tokens.stands("t2")
        store.revoked.clear()  # revocation is for good, even if a later read disagreed
        seen = len(store.calls)
        await _until(lambda: len(store.calls) > seen + 2)
        assert not tokens.stands("t1")
        await tokens.stop()

    asyncio.run(run())


def test_a_database_away_ends_no_stream_and_reads_resume() -> None:
    async def run() -> None:
        store = FakeStore()
        tokens = _tokens(store)
        tokens.hold("t0")
        store.away = True
        await _until(lambda: len(store.calls) >= 3)
        assert tokens.stands("t0")
        store.away = False
        store.revoked.add("t0")
        await _until(lambda: not tokens.stands("t0"))
        await tokens.stop()

    asyncio.run(run())


def test_reading_stops_when_the_last_stream_ends_and_starts_again() -> None:
    async def run() -> None:
        store = FakeStore()
        tokens = _tokens(store)
        tokens.hold("t0")
        tokens.hold("t0")
        tokens.release("t0")
        seen = len(store.calls)
        await _until(lambda: len(store.calls) > seen + 1)
        assert store.calls[-1] == ["t0"] and tokens.reading  # one stream of it is still open
        tokens.release("t0")
        await _until(lambda: not tokens.reading)  # nobody streams: nothing more is read
        calls = len(store.calls)
        await asyncio.sleep(0.05)
        assert len(store.calls) == calls
        tokens.hold("t9")
        await _until(lambda: bool(store.calls) and store.calls[-1] == ["t9"])
        await tokens.stop()
        assert not tokens.reading

    asyncio.run(run())
