"""The dice of each check a scenario resolved, so the file replays under ``auto`` (issue #25).

A file written for a table that rolls its own dice types them in ``resolve`` steps, often after
the clock has moved on. Replayed with every kind on ``auto``, the engine rolls each check at its
own moment instead, and it must take the very dice the file typed for it. The scenario is first
played as written, and every check the engine rolls or a ``resolve`` step settles is told to the
:class:`CheckLedger` (``before_check``), which names it by who rolls it, what for and when, and
keeps the values each ``resolve`` step gave (with the rolls that check's consequences took).
Played again under ``auto``, when the engine is about to roll a check so named, its values come
first; what they fed as time caught up (the timers after a late roll) feeds the same timers then.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rulekeeper.core.state import PendingCheck
from rulekeeper.dice.source import DiceSource

__all__ = ["CheckKey", "CheckLedger", "LedgerSource"]

# who rolls, the check's kind, what it is for, the moment it belongs to, and which of such checks
CheckKey = tuple[Any, ...]


class CheckLedger:
    """Names every check as it is rolled; keeps (while recording) or gives (while replaying) dice."""

    def __init__(self) -> None:
        self.counts: Counter[tuple[Any, ...]] = Counter()
        self.recorded: dict[CheckKey, tuple[int, ...]] = {}
        self.replaying = False
        self.queue: list[int] = []
        self.used: set[CheckKey] = set()
        self.first: CheckKey | None = None  # the first check named since ``mark``

    def restart(self) -> None:
        """Start the replay: names count from the start again."""
        self.counts.clear()
        self.replaying = True
        self.queue.clear()

    def mark(self) -> None:
        self.first = None

    def before_check(self, pending: PendingCheck) -> None:
        base = (pending.actor, pending.check.kind, pending.purpose, pending.created)
        key = (*base, self.counts[base])
        self.counts[base] += 1
        if self.first is None:
            self.first = key
        if self.replaying and key in self.recorded and key not in self.used:
            self.used.add(key)
            self.queue[:0] = self.recorded[key]


class LedgerSource:
    """A step's dice, behind the values the ledger gives the check being rolled."""

    __slots__ = ("inner", "ledger")

    def __init__(self, ledger: CheckLedger, inner: DiceSource) -> None:
        self.ledger = ledger
        self.inner = inner

    def roll(self, sides: int) -> int:
        if self.ledger.queue:
            return self.ledger.queue.pop(0)
        return self.inner.roll(sides)

    def before_check(self, pending: PendingCheck) -> None:
        self.ledger.before_check(pending)
