"""Encumbrance levels and Basic Lift (seed 004, "Encumbrance and Move", Lite p. 17).

A table as data: each level's weight limit as a multiple of Basic Lift, its Move factor and
its Dodge penalty.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rulekeeper.core.citation import Rule
from rulekeeper.systems.gurps.rules import rule

__all__ = [
    "ENCUMBRANCE_LEVELS",
    "ENCUMBRANCE_RULE",
    "EncumbranceLevel",
    "basic_lift",
    "encumbered_dodge",
    "encumbered_move",
    "encumbrance_level",
]

ENCUMBRANCE_RULE: Rule = rule("Encumbrance and Move", "Lite p. 17")
BASIC_LIFT_RULE: Rule = rule(
    "Encumbrance and Move",
    "Lite p. 17",
    reading="BL = ST x ST / 5, rounded to the nearest whole number when 10 or more (brief)",
)


@dataclass(frozen=True)
class EncumbranceLevel:
    level: int
    name: str
    max_bl: int  # the heaviest load of this level, in multiples of Basic Lift
    move_factor: float
    dodge_penalty: int


ENCUMBRANCE_LEVELS: tuple[EncumbranceLevel, ...] = (
    EncumbranceLevel(0, "none", 1, 1.0, 0),
    EncumbranceLevel(1, "light", 2, 0.8, 1),
    EncumbranceLevel(2, "medium", 3, 0.6, 2),
    EncumbranceLevel(3, "heavy", 6, 0.4, 3),
    EncumbranceLevel(4, "extra-heavy", 10, 0.2, 4),
)

#: A load above 10 x BL fits no level: the character cannot move with it.
OVERLOADED = 5


def basic_lift(st: int) -> float:
    """Basic Lift in pounds; below 10 lb the fraction is kept (ST 6 -> 7.2 lb)."""
    raw = st * st / 5
    if raw >= 10:
        # round half up, as the book does (7.2 stays, 28.8 -> 29)
        return float(math.floor(raw + 0.5))
    return raw


def encumbrance_level(carried: float, bl: float) -> int:
    """0-4, or ``OVERLOADED`` (5) when the load exceeds 10 x BL."""
    for row in ENCUMBRANCE_LEVELS:
        # a tiny tolerance so 3 x 7.2 lb is not "over" because of float noise
        if carried <= row.max_bl * bl + 1e-9:
            return row.level
    return OVERLOADED


def encumbered_move(basic_move: int, level: int) -> int:
    """Move for an encumbrance level: fractions dropped, never below 1 (0 when overloaded)."""
    if level >= OVERLOADED:
        return 0
    factor = ENCUMBRANCE_LEVELS[level].move_factor
    # multiply in tenths so 5 x 0.8 is exactly 4, not 3.9999
    return max(1, basic_move * round(factor * 10) // 10)


def encumbered_dodge(basic_dodge: int, level: int) -> int:
    """Dodge less the encumbrance level, never below 1."""
    return max(1, basic_dodge - min(level, 4))
