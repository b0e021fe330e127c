"""Whether the tokens behind this process's live streams still stand, read for all of them at once.

An open stream must end soon after its member is revoked or its token expires (docs/api.md,
"Limits"). Each stream used to read its own member every 0.4 s: two and a half reads a second
per open page, which with sixty idle pages on PostgreSQL cost a twentieth of a core in the
server, and grew with every page. Here one read per :data:`CHECK_SECONDS` covers every token
holding a stream in this process, whether it holds one stream or a thousand; each stream only
looks at the answer (:meth:`StreamTokens.stands`) when it wakes.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from rulekeeper.campaign import Store
from rulekeeper.errors import StoreError

__all__ = ["CHECK_SECONDS", "StreamTokens"]

#: How often the tokens of this process's streams are read. A stream wakes at least every
#: ``event_routes.RECHECK_SECONDS`` to look, so a revoked token's streams end within the sum.
CHECK_SECONDS = 0.2


class StreamTokens:
    """The tokens holding streams here, and which of them no longer stand. Used on the event
    loop only; the read runs on a worker thread."""

    def __init__(self, store: Store, interval: float = CHECK_SECONDS) -> None:
        self._store = store
        self._interval = interval
        self._held: dict[str, int] = {}
        self._fallen: set[str] = set()
        self._task: asyncio.Task[None] | None = None

    def hold(self, token_id: str) -> None:
        """A stream of ``token_id`` opened (its token was checked as it connected)."""
        self._held[token_id] = self._held.get(token_id, 0) + 1
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="rulekeeper-stream-tokens")

    def release(self, token_id: str) -> None:
        """A stream of ``token_id`` ended."""
        left = self._held.get(token_id, 0) - 1
        if left > 0:
            self._held[token_id] = left
        else:
            self._held.pop(token_id, None)
            self._fallen.discard(token_id)

    @property
    def reading(self) -> bool:
        """Whether the reads go on (they stop when the last stream ends)."""
        return self._task is not None and not self._task.done()

    def stands(self, token_id: str) -> bool:
        """False once a read found ``token_id`` revoked, expired or gone."""
        return token_id not in self._fallen

    async def _run(self) -> None:
        while self._held:
            await asyncio.sleep(self._interval)
            held = list(self._held)
            if not held:
                return
            try:
                standing = await asyncio.to_thread(self._store.standing_tokens, held, time.time())
            except StoreError:
                # The database is away: the streams go on as they were (nothing can be revoked
                # meanwhile) and are read again at the next interval.
                continue
            # A fallen token stays fallen: revocation and expiry are for good.
            self._fallen |= {t for t in held if t not in standing and t in self._held}

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
