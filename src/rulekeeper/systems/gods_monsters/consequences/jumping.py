"""Jumping up and leaping across (seed 002, "Actions and consequences: Jumping").

A jump is an agility roll at +8. Up to one foot costs nothing; each further foot doubles the
penalty (-1, -2, -4, -8 ...). A failed roll still jumps as far as that roll would have
reached. Leaping across counts yards instead of feet, and a moving character adds their
running movement to the roll. Creature size multiplies the distance reached, so the penalty
is looked up on the distance divided by the multiplier, rounded up to the next whole row.

"Strength as a major contributor" is part of the seed's rule, but the contributor formula is
unconfirmed (rules brief, "Context"); callers add it through ``bonus``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from rulekeeper.errors import InputError

__all__ = [
    "JUMP_BONUS",
    "JUMP_DIRECTIONS",
    "SIZE_MULTIPLIERS",
    "JumpPlan",
    "jump_penalty",
    "jump_plan",
    "jump_reach",
    "size_multiplier",
]

JUMP_BONUS = 8
JUMP_DIRECTIONS: dict[str, str] = {"up": "feet", "across": "yards"}

# Seed 002, "Jumping": how far each size of creature jumps compared with a human-sized one.
SIZE_MULTIPLIERS: dict[str, Fraction] = {
    "fine": Fraction(1, 6),
    "tiny": Fraction(1, 3),
    "small": Fraction(3, 4),
    "medium": Fraction(1),
    "large": Fraction(2),
    "huge": Fraction(4),
    "gigantic": Fraction(8),
    "titanic": Fraction(16),
}

# A d20 never rolls above 20, so no jump needs more rows than a penalty of 2**(N-2) > 40 allows.
_MAX_ROWS = 64


def size_multiplier(size: str) -> Fraction:
    try:
        return SIZE_MULTIPLIERS[size]
    except KeyError:
        raise InputError(f"unknown creature size {size!r}", expected="one of " + ", ".join(SIZE_MULTIPLIERS)) from None


def jump_penalty(units: int) -> int:
    """The penalty to jump ``units`` feet up (or yards across) for a human-sized creature.

    0 for one unit, then -1, -2, -4 ... doubling with each unit beyond the second row.
    """
    if isinstance(units, bool) or not isinstance(units, int) or units < 1:
        raise InputError(f"jump distance {units!r} is not valid", expected="a whole number of at least 1")
    if units == 1:
        return 0
    penalty: int = -(2 ** (units - 2))
    return penalty


def _base_units(distance: Fraction, multiplier: Fraction) -> int:
    return max(1, math.ceil(distance / multiplier))


@dataclass(frozen=True)
class JumpPlan:
    """Everything known about a jump before the roll: the target and the penalty for the try."""

    direction: str
    unit: str
    tried: Fraction
    multiplier: Fraction
    base_units: int
    penalty: int
    score: int
    bonus: int
    running: int
    target: int


def jump_plan(
    *,
    agility: int,
    distance: Fraction | int,
    direction: str = "up",
    size: str = "medium",
    bonus: int = 0,
    running_movement: int = 0,
) -> JumpPlan:
    """The roll a jump needs: agility + 8 + bonuses (+ running movement across) + the penalty."""
    if direction not in JUMP_DIRECTIONS:
        raise InputError(f"unknown jump direction {direction!r}", expected="up or across")
    dist = Fraction(distance)
    if dist <= 0:
        raise InputError(f"jump distance {distance} is not valid", expected="a distance above 0")
    if running_movement < 0:
        raise InputError(f"running movement {running_movement} is not valid", expected="0 or more")
    if running_movement and direction != "across":
        raise InputError("running movement only adds to leaps across", expected="direction across")
    multiplier = size_multiplier(size)
    base = _base_units(dist, multiplier)
    penalty = jump_penalty(base)
    target = agility + JUMP_BONUS + bonus + running_movement + penalty
    return JumpPlan(
        direction=direction,
        unit=JUMP_DIRECTIONS[direction],
        tried=dist,
        multiplier=multiplier,
        base_units=base,
        penalty=penalty,
        score=agility,
        bonus=bonus,
        running=running_movement,
        target=target,
    )


def jump_reach(plan: JumpPlan, roll: int) -> Fraction:
    """How far a jump gets with ``roll`` on the d20: the tried distance on a success, otherwise
    the longest whole row the roll would have made (times the size multiplier), or 0."""
    if not 1 <= roll <= 20:
        raise InputError(f"a d20 cannot roll {roll}", expected="a value from 1 to 20")
    if roll <= plan.target:
        return plan.tried
    unpenalized = plan.target - plan.penalty
    best = 0
    for units in range(1, min(plan.base_units, _MAX_ROWS) + 1):
        if roll <= unpenalized + jump_penalty(units):
            best = units
        else:
            break
    return min(plan.tried, best * plan.multiplier)
