"""A ranged attack's distance against its weapon's range (seed 004, "Attack" and "Range Attacks").

The seed: a ranged attack's target must be no farther than the weapon's Max range, and its Half
Damage (1/2D) range "only affects damage". Sheets print the range as "1/2D/Max" in yards
("150/200"); a GCS import has already turned a muscle-powered "x15/x20" into yards for the
wielder's ST. A lone number is Max (nothing halves damage). The seed does not say how 1/2D
affects damage; we read it as the Basic Set does: at 1/2D or farther, basic damage is halved,
rounded down.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulekeeper.systems.gurps.rules import rule

__all__ = ["HALF_DAMAGE", "MAX_RANGE", "WeaponRange", "half_damage", "weapon_range"]

MAX_RANGE = rule("Attack")
HALF_DAMAGE = rule(
    "Range Attacks",
    reading="1/2D: at that distance or farther, basic damage is halved (rounded down), as the Basic Set "
    "does; the seed says only that 1/2D affects damage",
)

_YARDS = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*$")


@dataclass(frozen=True)
class WeaponRange:
    """Half Damage and Max range in yards; None where the sheet gives none."""

    half_damage: float | None
    max: float | None


def _yards(text: str) -> float | None:
    match = _YARDS.match(text)
    return float(match.group(1)) if match else None


def weapon_range(text: str) -> WeaponRange:
    """The ranges a sheet prints ("150/200", "200", "" or something unreadable such as "sight")."""
    parts = [p for p in text.split("/") if p.strip()]
    if len(parts) == 2:
        return WeaponRange(_yards(parts[0]), _yards(parts[1]))
    if len(parts) == 1:
        return WeaponRange(None, _yards(parts[0]))
    return WeaponRange(None, None)


def half_damage(damage: int) -> int:
    """Basic damage at 1/2D range or farther."""
    return damage // 2
