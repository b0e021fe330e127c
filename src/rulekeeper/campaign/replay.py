"""Folding history into state: which commands count, replaying them with their recorded dice,
and loading a campaign from its newest snapshot.

Replays hand out the same state ids as the first run: each event records the id counter it
started from, and a replay sets the counter to it (ids only move forward, so a gap left by an
undone command stays a gap instead of shifting every later id).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rulekeeper.campaign.commands import Applied, apply_command, recorded_dice_problem, summarize
from rulekeeper.campaign.snapshots import SnapshotProblem, unseal
from rulekeeper.campaign.table import Table, initial_table
from rulekeeper.core.ruleset import Ruleset
from rulekeeper.errors import RulesError, StoreError
from rulekeeper.store.base import HistoryReader
from rulekeeper.store.records import CampaignRecord, EventRecord

__all__ = [
    "Loaded",
    "ReplayMismatch",
    "ReplaySource",
    "Statuses",
    "catch_up",
    "fold",
    "load",
    "replay_event",
]


class ReplayMismatch(Exception):
    """A recorded command does not replay as recorded (used when checking, never shown raw)."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(f"#{seq}: {reason}")
        self.seq = seq
        self.reason = reason


class ReplaySource:
    """The dice a command rolled when it was issued, handed out again in order.

    Unlike a scripted source it also checks each die's size, so a replay that would roll
    differently is caught at the first die instead of silently reading a d6 as a d20.
    """

    __slots__ = ("_dice", "_index", "_seq")

    def __init__(self, dice: Sequence[tuple[int, int]], seq: int) -> None:
        self._dice = dice
        self._index = 0
        self._seq = seq

    def roll(self, sides: int) -> int:
        if self._index >= len(self._dice):
            raise ReplayMismatch(self._seq, f"the rules ask for more than the {len(self._dice)} recorded dice")
        recorded_sides, value = self._dice[self._index]
        if recorded_sides != sides:
            raise ReplayMismatch(
                self._seq, f"die #{self._index + 1} was a d{recorded_sides}, the rules now ask for a d{sides}"
            )
        self._index += 1
        return value

    @property
    def unused(self) -> int:
        return len(self._dice) - self._index


@dataclass
class Statuses:
    """Which commands are undone right now, and by which undo / last redo."""

    undone: set[int] = field(default_factory=set)
    undone_by: dict[int, int] = field(default_factory=dict)
    redone_by: dict[int, int] = field(default_factory=dict)

    @classmethod
    def of(cls, meta_events: Iterable[EventRecord]) -> Statuses:
        statuses = cls()
        for e in meta_events:
            for ref in e.refs:
                if e.kind == "undo":
                    statuses.undone.add(ref)
                    statuses.undone_by[ref] = e.seq
                else:
                    statuses.undone.discard(ref)
                    statuses.redone_by[ref] = e.seq
        return statuses

    def active(self, seq: int) -> bool:
        return seq not in self.undone


def _first_difference(recorded: Any, replayed: Any) -> str:
    old = recorded.get("explanation", []) if isinstance(recorded, dict) else []
    new = replayed.get("explanation", [])
    for a, b in zip(old, new, strict=False):
        if a != b:
            return f"it now says {b.get('text')!r} where it said {a.get('text')!r}"
    if len(old) != len(new):
        return f"it now explains {len(new)} step(s) where it explained {len(old)}"
    return "its result differs"


def replay_event(
    ruleset: Ruleset[Any], table: Table, event: EventRecord, *, verify: bool, seed: int | None = None
) -> tuple[Table, Applied]:
    """Apply a recorded command with its recorded dice.

    With ``verify`` the replay must also reproduce the recorded outcome, characters, clock and
    ids exactly; any difference raises :class:`ReplayMismatch`. With ``seed`` as well, every die
    not typed at the table must be the one the campaign's seed rolls.
    """
    if verify and seed is not None:
        problem = recorded_dice_problem(event.command, event.dice, seed, event.seq, table)
        if problem is not None:
            raise ReplayMismatch(event.seq, problem)
    game = table.game
    if game.next_id > event.next_id:
        raise ReplayMismatch(event.seq, "it would hand out state ids already in use")
    if verify and game.clock != event.at:
        raise ReplayMismatch(event.seq, f"the clock would be {game.clock}s, not {event.at}s, when it happens")
    if game.next_id != event.next_id:
        game = replace(game, next_id=event.next_id)
    source = ReplaySource(event.dice, event.seq)
    try:
        applied = apply_command(ruleset, table.with_game(game), event.command, source)
    except RulesError as exc:
        raise ReplayMismatch(event.seq, f"the rules would now refuse it ({exc})") from exc
    if source.unused:
        raise ReplayMismatch(event.seq, f"it would leave {source.unused} of its recorded dice unused")
    if verify:
        recorded = json.loads(event.outcome)
        if applied.record != recorded:
            raise ReplayMismatch(event.seq, _first_difference(recorded, applied.record))
        if applied.actors != tuple(event.actors):
            raise ReplayMismatch(event.seq, f"it would concern {list(applied.actors)}, not {list(event.actors)}")
        if applied.table.game.clock != event.until or applied.table.game.next_id != event.next_id_after:
            raise ReplayMismatch(event.seq, "it would leave the clock or the id counter elsewhere")
    new = applied.table
    mark = max(table.id_mark, event.next_id_after, new.game.next_id)
    return (new if new.id_mark == mark else replace(new, id_mark=mark)), applied


def fold(
    ruleset: Ruleset[Any],
    table: Table,
    events: Iterable[EventRecord],
    active: Callable[[int], bool],
    *,
    verify: bool = False,
) -> Table:
    """``table`` with every active command among ``events`` replayed, oldest first."""
    for e in events:
        if e.is_meta:
            continue
        if active(e.seq):
            table, _ = replay_event(ruleset, table, e, verify=verify)
        elif e.next_id_after > table.id_mark:
            table = replace(table, id_mark=e.next_id_after)
    return table


@dataclass(frozen=True)
class Loaded:
    """A campaign's table at ``version``; ``snapshot`` is the newest snapshot version known."""

    table: Table
    version: int
    snapshot: int
    replayed: int = 0
    #: The version of a stored snapshot that could not be trusted (the load replayed instead).
    bad_snapshot: int | None = None
    warnings: tuple[str, ...] = ()


def _broken(record: CampaignRecord, exc: ReplayMismatch, events: Sequence[EventRecord]) -> StoreError:
    summary = next((summarize(e.command, e.refs) for e in events if e.seq == exc.seq), "")
    return StoreError(
        f"campaign {record.name!r} no longer replays at #{exc.seq} ({summary}): {exc.reason}; "
        "it was recorded under different rules"
    )


def load(
    ruleset: Ruleset[Any],
    record: CampaignRecord,
    history: HistoryReader,
    *,
    upto: int | None = None,
    use_snapshots: bool = True,
) -> Loaded:
    """The table right after event ``upto`` (default: the newest), from the newest snapshot at or
    before it plus the events since.

    A snapshot at version V is kept only while no later undo or redo reaches back to V or
    earlier, so the undo/redo events after V decide the status of every command after V.
    """
    head = history.head() if upto is None else upto
    snap = history.latest_snapshot(at_most=head) if use_snapshots else None
    table, start = initial_table(ruleset, record.settings), 0
    bad: int | None = None
    warnings: tuple[str, ...] = ()
    if snap is not None:
        try:
            table, start = unseal(ruleset, snap, history), snap.version
        except SnapshotProblem as problem:
            bad = problem.version
            warnings = (f"campaign {record.name!r}: {problem}; replayed the history from the start instead",)
    window = history.events(after=start, until=head)
    statuses = Statuses.of(e for e in window if e.is_meta)
    try:
        table = fold(ruleset, table, window, statuses.active)
    except ReplayMismatch as exc:
        raise _broken(record, exc, window) from None
    return Loaded(table, head, start, len(window), bad, warnings)


def catch_up(ruleset: Ruleset[Any], record: CampaignRecord, loaded: Loaded, history: HistoryReader) -> Loaded:
    """``loaded`` brought up to the history's head (other processes may have written since)."""
    head = history.head()
    if head == loaded.version:
        return loaded
    newer = history.events(after=loaded.version)
    if head < loaded.version or any(e.is_meta and min(e.refs, default=head) <= loaded.version for e in newer):
        return load(ruleset, record, history)
    statuses = Statuses.of(e for e in newer if e.is_meta)
    try:
        table = fold(ruleset, loaded.table, newer, statuses.active)
    except ReplayMismatch as exc:
        raise _broken(record, exc, newer) from None
    return Loaded(table, head, loaded.snapshot, loaded.replayed + len(newer))
