"""Immutable game state shared by every system: clock, characters, conditions, timers, pending checks.

Each system supplies its own frozen character type ``C``; everything else is common, so the
campaign layer, the scenario runner and the front ends treat all four systems alike.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from rulekeeper.core.arc import ArcOpposed, ArcThreshold
from rulekeeper.core.citation import Rule
from rulekeeper.core.dice_pool import PoolTest
from rulekeeper.core.dice_roll import DiceRoll
from rulekeeper.core.frozen import evolve
from rulekeeper.core.roll_under import ActingContest, RollUnder
from rulekeeper.core.stakes import Stakes
from rulekeeper.core.success_roll import QuickContest, SuccessRoll

__all__ = [
    "ROLL_RULES",
    "AnyCheck",
    "AutomationLevel",
    "Condition",
    "GameState",
    "PendingCheck",
    "Settings",
    "Timer",
]

C = TypeVar("C")

# Every concrete check; each carries a distinct literal ``type`` so a snapshot reloads the right one.
AnyCheck = SuccessRoll | QuickContest | RollUnder | ActingContest | PoolTest | ArcThreshold | ArcOpposed | DiceRoll


ROLL_RULES = 8  # the current revision of Settings.roll_rules


class AutomationLevel(enum.Enum):
    """Who rolls a check a rule calls for."""

    AUTO = "auto"  # the engine rolls
    PROMPT = "prompt"  # a pending check waits for dice typed in at the table
    NOTE = "note"  # only recorded; the table applies the consequence by hand


@dataclass(frozen=True)
class Settings:
    """A table's choices: who rolls each kind of check, and rule options.

    ``automation`` maps a check kind (``"gurps.ht"``) or a prefix of one (``"gurps"``) or
    ``"*"`` to a level; the longest matching key wins, and the default is ``auto``.
    """

    automation: Mapping[str, AutomationLevel] = field(default_factory=dict)
    options: Mapping[str, Any] = field(default_factory=dict)
    # Which rules for rolls the table plays by: 2 (every roll is a check a table may roll itself,
    # in table order, and time waits behind a roll it asked for); 1 for campaigns stored before
    # that, whose histories must replay exactly (the engine then rolls plain rolls itself); 3 (a
    # lone total typed for a check decided by its total alone is judged as that total, with no
    # dice made up for it: 2 turned a GURPS total into even dice, and its histories replay so;
    # and a check settled by dice typed with the command that asked it is not shown waiting); 4
    # (a GM-secret check never takes dice typed with a command: it waits for the GM instead, so
    # whoever typed them can neither choose the secret roll nor tell from the answer that it
    # happened -- under 3 a player's surplus dice were taken for it); 5 (every check left for the
    # table holds back time at its own moment, whoever asked for it: under 4 only a roll asked as time
    # passed did, and a check a command asked let later timers fire before its dice were typed); 6 (a
    # command given after the clock has run past a waiting check waits behind it, dated when it was
    # given, and is applied in time order once the check is settled: under 5 it was applied at once,
    # ahead of what the check would lead to); 7 (an action given while its character's Will roll to
    # act at 0 FP or less is left for the table waits for that roll, as it would under auto: under 6
    # a GURPS attack went ahead before the Will dice were typed); 8 (GURPS: a Fright Check's stun is
    # kept apart from a stun recovered by rolls, each ending its own way -- under 7 either replaced
    # the other -- and a character already unconscious for another reason who drops to 0 HP or
    # below is then unconscious from the injury too, waking by its rolls: under 7 they woke when
    # the faint or the fatigue ended).
    roll_rules: int = 1

    @property
    def every_roll_a_check(self) -> bool:
        return self.roll_rules >= 2

    @property
    def typed_totals_judged(self) -> bool:
        return self.roll_rules >= 3

    @property
    def secret_rolls_apart(self) -> bool:
        return self.roll_rules >= 4

    @property
    def every_check_holds_time(self) -> bool:
        return self.roll_rules >= 5

    @property
    def commands_wait_for_checks(self) -> bool:
        return self.roll_rules >= 6

    @property
    def actions_wait_for_will(self) -> bool:
        return self.roll_rules >= 7

    @property
    def conditions_kept_apart(self) -> bool:
        return self.roll_rules >= 8

    def level_for(self, kind: str) -> AutomationLevel:
        if not self.automation:
            return AutomationLevel.AUTO  # asked for every check: most tables (and every simulation) set none
        probe = kind
        while probe:
            if probe in self.automation:
                return self.automation[probe]
            probe = probe.rpartition(".")[0]
        return self.automation.get("*", AutomationLevel.AUTO)

    def option(self, name: str, default: Any) -> Any:
        return self.options.get(name, default)


@dataclass(frozen=True)
class Timer:
    """A scheduled follow-up: fires when the clock reaches ``due`` (game seconds)."""

    id: int
    due: int
    kind: str
    label: str
    actor: str | None = None
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Condition:
    """Named state on a character, from ``since`` until ``until`` (or until removed)."""

    id: int
    name: str
    actor: str
    since: int
    until: int | None = None
    data: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PendingCheck:
    """A check waiting for dice typed in at the table.

    ``purpose`` tells the ruleset what to do with the result; ``data`` carries what it needs;
    ``stakes`` says to the table what the roll is for (see :mod:`rulekeeper.core.stakes`).
    ``after``: a roll the engine makes itself, held behind pending check ``after`` because the
    rules asked for it later in the same command; it is rolled once that one is settled, so the
    dice fall in the order the rules ask for them whoever rolls each.
    ``blocks_time``: it happens at its own moment (``created``). Timers due after it wait until it
    is resolved, then fire in order: what follows a roll is never decided ahead of its dice, and
    time never skips it. Every check left for the table holds time so (roll_rules 5); before, only
    one asked as time passed (a timer's roll, or what such a roll led to) did.
    """

    id: int
    check: AnyCheck
    purpose: str
    actor: str | None
    created: int
    data: Mapping[str, Any] = field(default_factory=dict)
    rule: Rule | None = None
    stakes: Stakes | None = None
    after: int | None = None
    blocks_time: bool = False


@dataclass(frozen=True)
class GameState(Generic[C]):
    system: str
    characters: Mapping[str, C] = field(default_factory=dict)
    clock: int = 0
    conditions: tuple[Condition, ...] = ()
    timers: tuple[Timer, ...] = ()
    pending: tuple[PendingCheck, ...] = ()
    settings: Settings = field(default_factory=Settings)
    next_id: int = 1

    def conditions_of(self, actor: str) -> tuple[Condition, ...]:
        return tuple(c for c in self.conditions if c.actor == actor)

    def has_condition(self, actor: str, name: str) -> bool:
        # The rules ask this hundreds of times a fight: a plain loop is twice as quick as any()
        # over a generator.
        for c in self.conditions:  # noqa: SIM110
            if c.name == name and c.actor == actor:
                return True
        return False

    def condition(self, actor: str, name: str) -> Condition | None:
        for c in self.conditions:
            if c.actor == actor and c.name == name:
                return c
        return None

    def timers_of(self, actor: str | None = None, kind: str | None = None) -> tuple[Timer, ...]:
        return tuple(t for t in self.timers if (actor is None or t.actor == actor) and (kind is None or t.kind == kind))

    def find_pending(self, pending_id: int) -> PendingCheck | None:
        for p in self.pending:
            if p.id == pending_id:
                return p
        return None

    def with_settings(self, settings: Settings) -> GameState[C]:
        return self if settings is self.settings else evolve(self, settings=settings)
