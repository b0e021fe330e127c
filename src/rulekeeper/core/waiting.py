"""What waits for the table's dice, said in words (issue #25).

A check left for the table holds time at its own moment (see "Pending checks and the clock" in
docs/architecture.md): the clock may run ahead, and the timers due after that moment wait for its
dice. Every front end says so the same way -- whose roll, due when, how many later consequences
wait behind it -- rather than show a condition with "0s left" that has not ended.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rulekeeper.core.clock import format_duration
from rulekeeper.core.state import GameState, PendingCheck
from rulekeeper.core.waiting_commands import COMMAND_TIMER

__all__ = ["Waiting", "holding", "what_waits"]


@dataclass(frozen=True)
class Waiting:
    """A check the clock has run past, and how many timers dated after it wait for its dice."""

    pending: PendingCheck
    later: int
    commands: int = 0  # of the ``later``, commands the table gave after the clock ran past it

    @property
    def what(self) -> str:
        p = self.pending
        return p.stakes.purpose if p.stakes is not None else p.check.describe()

    def text(self) -> str:
        return self.text_as(self.what, self.pending.id)

    def text_as(self, what: str, number: int) -> str:
        """The line with the check named and numbered as the reader knows it (a player's own count)."""
        who = f"{self.pending.actor}: " if self.pending.actor and not what.startswith(self.pending.actor) else ""
        line = f"waiting for {who}{what} (#{number}), due at {format_duration(self.pending.created)}"
        if self.later == 1:
            line += "; 1 later consequence waits for it"
        elif self.later:
            line += f"; {self.later} later consequences wait for it"
        if self.commands:
            line += f" ({self.commands} of them {'a command' if self.commands == 1 else 'commands'} given since)"
        return line

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.pending.id,
            "actor": self.pending.actor,
            "what": self.what,
            "due": self.pending.created,
            "later": self.later,
            "commands": self.commands,
            "text": self.text(),
        }


def _holders(state: GameState[Any]) -> list[PendingCheck]:
    return sorted((p for p in state.pending if p.blocks_time and p.after is None), key=lambda p: (p.created, p.id))


def what_waits(state: GameState[Any]) -> tuple[Waiting, ...]:
    """Each check holding time that the clock has moved past, earliest first, with the timers due by
    now that wait for it (all of them wait for the earliest: it is settled first)."""
    late = [p for p in _holders(state) if p.created < state.clock]
    if not late:
        return ()
    counts = {p.id: 0 for p in late}
    commands = {p.id: 0 for p in late}
    for t in state.timers:
        if t.due <= state.clock:
            holder = holding(state, t.due)
            if holder is not None and holder.id in counts:
                counts[holder.id] += 1
                commands[holder.id] += t.kind == COMMAND_TIMER
    return tuple(Waiting(p, counts[p.id], commands[p.id]) for p in late)


def holding(state: GameState[Any], due: int) -> PendingCheck | None:
    """The check something due at ``due`` (a timer, a condition's end) waits for, if the clock has
    passed ``due`` and a check dated at or before it still holds time."""
    if due > state.clock:
        return None
    before = [p for p in _holders(state) if p.created <= due]
    return before[0] if before else None
