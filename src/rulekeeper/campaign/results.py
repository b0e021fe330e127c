"""What the campaign API hands back: command results, log entries, roles, conflicts."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from rulekeeper.core.clock import format_duration
from rulekeeper.core.explain import Step
from rulekeeper.errors import ConflictError, InputError, RuleRefusal
from rulekeeper.store.records import UNKNOWN_TIME, EventRecord, timestamp

if TYPE_CHECKING:
    from pydantic import TypeAdapter

    from rulekeeper.core.play import Outcome

__all__ = [
    "CampaignConflict",
    "CheckAlreadyResolved",
    "CommandResult",
    "LogEntry",
    "Roles",
    "UndoPreview",
    "steps_from_json",
]


@functools.cache
def _steps_adapter() -> TypeAdapter[tuple[Step, ...]]:
    from pydantic import TypeAdapter

    return TypeAdapter(tuple[Step, ...])


def steps_from_json(data: Sequence[Any]) -> tuple[Step, ...]:
    # Our own stored steps read without building pydantic's validator (which costs more than a
    # whole `log` of a thousand entries); anything not exactly ours is pydantic's to judge.
    from rulekeeper.core.decode import NotOurs, decode

    try:
        steps: tuple[Step, ...] = decode(tuple[Step, ...], data)
        return steps
    except NotOurs:
        return _steps_adapter().validate_python(data)


@dataclass(frozen=True)
class CommandResult:
    """The recorded result of one command.

    ``seq`` is its place in history and ``version`` the campaign version after it (equal, since
    each event adds one). ``outcome`` is the rules engine's outcome (``None`` for bookkeeping:
    characters, settings, undo, redo). ``undone``/``redone`` list what an undo or redo
    reversed. ``retried`` is true when an idempotency key matched an earlier command and that
    command's recorded result was returned without applying anything.
    """

    seq: int
    version: int
    command: Mapping[str, Any]
    outcome: Outcome[Any] | None
    explanation: tuple[Step, ...]
    result: Mapping[str, Any] = field(default_factory=dict)
    undone: tuple[int, ...] = ()
    redone: tuple[int, ...] = ()
    retried: bool = False
    #: The stored event (the one just appended, or the earlier one a retry matched), so a caller
    #: answering with its log entry need not read it back.
    event: EventRecord | None = field(default=None, repr=False, compare=False)

    def render(self) -> str:
        return "\n".join(step.render() for step in self.explanation)


@dataclass(frozen=True)
class LogEntry:
    """One line of a campaign's history, as the log shows it.

    ``at`` and ``until`` are the game clock (seconds) before and after it; ``undone_by`` is the
    undo that currently keeps it out of the state, ``redone_by`` the redo that last brought it
    back; ``undoes``/``redoes`` list what an undo/redo entry reversed. ``dice`` are
    ``(sides, value)`` pairs in the order rolled.
    """

    seq: int
    kind: str
    summary: str
    at: int
    until: int
    wall_time: datetime
    actors: tuple[str, ...]
    command: Mapping[str, Any]
    result: Mapping[str, Any]
    explanation: tuple[Step, ...]
    dice: tuple[tuple[int, int], ...]
    key: str | None = None
    undone_by: int | None = None
    redone_by: int | None = None
    undoes: tuple[int, ...] = ()
    redoes: tuple[int, ...] = ()

    @property
    def in_effect(self) -> bool:
        return self.kind not in ("undo", "redo") and self.undone_by is None

    def render(self, *, steps: bool = True) -> str:
        marks = ""
        if self.undone_by is not None:
            marks = f"  [undone by #{self.undone_by}]"
        elif self.redone_by is not None:
            marks = f"  [redone by #{self.redone_by}]"
        head = f"#{self.seq} {format_duration(self.at)} {self.summary}{marks}"
        if not steps:
            return head
        return "\n".join([head, *(f"    {s.render()}" for s in self.explanation)])


@dataclass(frozen=True)
class UndoPreview:
    """What an undo would do, worked out without changing anything: the commands it would take
    (``refs``), why each later one goes with it (``reasons``), the explanation it would record,
    and the version it was worked out at (send it back as the expected version)."""

    version: int
    refs: tuple[int, ...]
    reasons: Mapping[int, str]
    explanation: tuple[Step, ...]
    actors: tuple[str, ...]


@dataclass(frozen=True)
class Roles:
    """Who is who in a campaign: the GM, the player of each PC, and the NPCs.

    A PC added without a player is played by the GM until one is given.
    """

    gm: str
    players: Mapping[str, str]
    npcs: frozenset[str]

    def player_of(self, actor: str) -> str | None:
        return self.players.get(actor)

    def characters_of(self, player: str) -> tuple[str, ...]:
        return tuple(sorted(a for a, p in self.players.items() if p == player))

    def owns(self, player: str, actor: str) -> bool:
        return self.players.get(actor) == player


class CampaignConflict(ConflictError):
    """A command based on a stale version; ``changes`` are ``(seq, summary)`` of what came since."""

    def __init__(self, campaign: str, expected: int, current: int, changes: Sequence[tuple[int, str]]) -> None:
        self.campaign = campaign
        self.expected_version = expected
        self.current_version = current
        self.changes = tuple(changes)
        if expected > current:
            text = f"campaign {campaign!r} is at version {current}; there is no version {expected} yet"
        else:
            shown = "; ".join(f"#{seq} {summary}" for seq, summary in self.changes[:20])
            more = f"; and {len(self.changes) - 20} more" if len(self.changes) > 20 else ""
            text = (
                f"campaign {campaign!r} changed since version {expected} (now {current}): {shown}{more}; "
                "look at the new state and issue the command again"
            )
        super().__init__(text)


class CheckAlreadyResolved(RuleRefusal):
    """A pending check resolved a second time (a second tab, a retyped command): ``seq`` is the
    log entry that resolved it, so the table can look there instead of wondering where it went."""

    def __init__(self, check_id: int, seq: int, summary: str) -> None:
        self.check_id = check_id
        self.seq = seq
        super().__init__(f"check #{check_id} was already resolved by #{seq} ({summary}); look at that entry in the log")


class KeyReused(InputError):
    """An idempotency key already used for a different command; ``seq`` is that command."""

    def __init__(self, key: str, seq: int, summary: str) -> None:
        self.key = key
        self.seq = seq
        super().__init__(
            f"idempotency key {key!r} was already used by #{seq} ({summary}) for a different command",
            expected="a new key for a new command",
        )


def wall_time(seconds: float) -> datetime:
    """When an event happened; a time no calendar holds (a damaged row) reads as 1970-01-01."""
    return timestamp(seconds) or UNKNOWN_TIME
