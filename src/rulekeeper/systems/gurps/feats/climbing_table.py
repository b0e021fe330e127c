"""The climbing table: each kind of climb, its modifier to Climbing skill and its two speeds.

Seed 004, "Climbing". The seed's rope rows are garbled ("Rope-down -2 - -" followed by two
unnamed rows); the brief reads them as rope up at -2 and rope down without / with equipment at
-1 each, with the speeds as printed. Speeds are kept as exact ratios (an amount per so many
seconds) so a climb's time is computed without float noise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from rulekeeper.core.citation import Rule
from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.feats.citations import CLIMBING, CLIMBING_TABLE

__all__ = ["CLIMBS", "CLIMB_SPEEDS", "ClimbRow", "ClimbSpeed", "climb_row"]

CLIMB_SPEEDS = ("regular", "combat")


@dataclass(frozen=True)
class ClimbSpeed:
    """``amount`` units (feet, or rungs on a ladder) every ``seconds`` seconds."""

    amount: int
    seconds: int
    unit: str = "ft"

    @property
    def per_second(self) -> Fraction:
        return Fraction(self.amount, self.seconds)

    def time_for(self, distance: float) -> int:
        """Whole seconds to cover ``distance`` units (a started second counts)."""
        return math.ceil(Fraction(distance).limit_denominator(1000) / self.per_second)

    def __str__(self) -> str:
        per = {1: "second", 60: "minute"}.get(self.seconds, f"{self.seconds} seconds")
        return f"{self.amount} {self.unit} per {per}"


@dataclass(frozen=True)
class ClimbRow:
    """One row of the climbing table; ``modifier`` None means no roll is needed (ladders)."""

    key: str
    name: str
    modifier: int | None
    combat: ClimbSpeed
    regular: ClimbSpeed
    rule: Rule

    def speed(self, which: str) -> ClimbSpeed:
        return self.combat if which == "combat" else self.regular

    @property
    def needs_roll(self) -> bool:
        return self.modifier is not None


CLIMBS: dict[str, ClimbRow] = {
    row.key: row
    for row in (
        ClimbRow("ladder-up", "ladder, going up", None, ClimbSpeed(3, 1, "rungs"), ClimbSpeed(1, 1, "rungs"), CLIMBING),
        ClimbRow(
            "ladder-down", "ladder, going down", None, ClimbSpeed(2, 1, "rungs"), ClimbSpeed(1, 1, "rungs"), CLIMBING
        ),
        ClimbRow("tree", "ordinary tree", 5, ClimbSpeed(1, 1), ClimbSpeed(1, 3), CLIMBING),
        ClimbRow("mountain", "ordinary mountain", 0, ClimbSpeed(1, 2), ClimbSpeed(10, 60), CLIMBING),
        ClimbRow("wall", "vertical stone wall", -3, ClimbSpeed(1, 5), ClimbSpeed(4, 60), CLIMBING),
        ClimbRow("building", "modern building", -3, ClimbSpeed(1, 10), ClimbSpeed(2, 60), CLIMBING),
        ClimbRow("rope-up", "rope, going up", -2, ClimbSpeed(1, 1), ClimbSpeed(20, 60), CLIMBING_TABLE),
        ClimbRow(
            "rope-down",
            "rope, going down without equipment",
            -1,
            ClimbSpeed(2, 1),
            ClimbSpeed(30, 60),
            CLIMBING_TABLE,
        ),
        ClimbRow(
            "rope-down-equipped",
            "rope, going down with equipment",
            -1,
            ClimbSpeed(12, 1),
            ClimbSpeed(12, 1),
            CLIMBING_TABLE,
        ),
    )
}


def climb_row(key: str) -> ClimbRow:
    row = CLIMBS.get(key.strip().lower())
    if row is None:
        raise InputError(f"unknown kind of climb {key!r}", expected="one of " + ", ".join(CLIMBS), where="climb")
    return row
