"""Starvation and dehydration, day by day (seed 001, VIII.3 "Starvation").

No damage for the first 4 days without food (2 without water); on day n after that the
character takes n - 4 damage (n - 2 without water), which lands on BU's US first, then BU.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rulekeeper.systems.vi_viii_x.damage import split_damage

__all__ = ["GRACE_DAYS", "NEEDS", "DeprivationDay", "deprivation_damage", "deprivation_table"]

NEEDS: tuple[str, ...] = ("food", "water")
# Days a being endures without harm: 4 without food, 2 without water.
GRACE_DAYS: Mapping[str, int] = {"food": 4, "water": 2}


def deprivation_damage(need: str, day: int) -> int:
    """Damage on the ``day``-th day without ``need``."""
    return max(0, day - GRACE_DAYS[need])


@dataclass(frozen=True)
class DeprivationDay:
    day: int
    damage: int
    us: int
    bu: int


def deprivation_table(need: str, days: int, bu: int, us: int) -> tuple[DeprivationDay, ...]:
    """Day-by-day damage and the BU and US it leaves, for ``days`` days without ``need``."""
    rows = []
    for day in range(1, days + 1):
        damage = deprivation_damage(need, day)
        us, bu = split_damage(us, bu, damage)
        rows.append(DeprivationDay(day=day, damage=damage, us=us, bu=bu))
    return tuple(rows)
