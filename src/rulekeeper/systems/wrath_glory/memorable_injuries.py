"""The Memorable Injury table (seed 003, Memorable Injury), as data.

A d6 picks a row; a row already suffered escalates to its second name; once escalated, that row
is ignored when rolled again. The Intimidation bonus and the escalation rule live here too.
Effects that "trigger on a complication where appropriate" are left to the GM (the seed gives none).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from rulekeeper.core.citation import Rule
from rulekeeper.systems.wrath_glory.citations import MEMORABLE_INJURY

__all__ = [
    "INTIMIDATION_BONUS_DICE",
    "MEMORABLE_INJURIES",
    "MemorableInjury",
    "MemorableRow",
    "MemorableStep",
    "memorable_row",
    "memorable_row_by_name",
    "roll_memorable",
]

# Revealing a Memorable Injury: +1 bonus die on Intimidation (Wil) tests.
INTIMIDATION_BONUS_DICE = 1


@dataclass(frozen=True, slots=True)
class MemorableRow:
    key: str
    low: int
    high: int
    name: str
    escalation: str
    rule: Rule = MEMORABLE_INJURY


MEMORABLE_INJURIES: tuple[MemorableRow, ...] = (
    MemorableRow("battle_scar", 1, 2, "Battle Scar", "Missing Fingers"),
    MemorableRow("focused_burn", 3, 3, "Focused Burn", "Severe Burn"),
    MemorableRow("broken_jaw", 4, 4, "Broken Jaw", "Cut Tongue"),
    MemorableRow("twitch", 5, 5, "Twitch", "Bad Knee"),
    MemorableRow("torn_ear", 6, 6, "Torn Ear", "Nagging Wound"),
)


def memorable_row(roll: int) -> MemorableRow:
    for row in MEMORABLE_INJURIES:
        if row.low <= roll <= row.high:
            return row
    raise ValueError(f"no Memorable Injury row for a roll of {roll}")


def memorable_row_by_name(name: str) -> tuple[MemorableRow, bool] | None:
    """The row a name (base or escalated, any case, spaces or underscores) belongs to, and whether escalated."""
    probe = name.strip().lower().replace("_", " ")
    for row in MEMORABLE_INJURIES:
        if probe in (row.name.lower(), row.key.replace("_", " ")):
            return row, False
        if probe == row.escalation.lower():
            return row, True
    return None


@dataclass(frozen=True)
class MemorableInjury:
    """One row of the table on a character's sheet."""

    key: str
    escalated: bool = False

    @property
    def row(self) -> MemorableRow:
        for row in MEMORABLE_INJURIES:
            if row.key == self.key:
                return row
        raise ValueError(f"unknown Memorable Injury {self.key!r}")

    @property
    def name(self) -> str:
        return self.row.escalation if self.escalated else self.row.name


class MemorableStep(enum.Enum):
    """What a roll on the table did."""

    NEW = "new"
    ESCALATED = "escalated"
    IGNORED = "ignored"


def roll_memorable(
    injuries: Sequence[MemorableInjury], roll: int
) -> tuple[tuple[MemorableInjury, ...], MemorableRow, MemorableStep]:
    """The injuries after a roll of ``roll`` on the table, the row rolled and what happened."""
    row = memorable_row(roll)
    current = tuple(injuries)
    for index, injury in enumerate(current):
        if injury.key == row.key:
            if injury.escalated:
                return current, row, MemorableStep.IGNORED
            escalated = MemorableInjury(key=row.key, escalated=True)
            return (*current[:index], escalated, *current[index + 1 :]), row, MemorableStep.ESCALATED
    return (*current, MemorableInjury(key=row.key)), row, MemorableStep.NEW
