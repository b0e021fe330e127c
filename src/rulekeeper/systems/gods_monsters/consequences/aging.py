"""Aging: an unhealable injury point a year from age 40 + endurance (seed 002, "Aging").

The seed also says the yearly rate is "modified by endurance as a special contributor"; the
contributor formulas are unconfirmed (rules brief, "Context"), so the only endurance effect
implemented is the start age. A player (the Guide, for an NPC) may take a two-point loss in one
ability instead of the injury, as long as that ability stays above one.

Reading: the aging injury comes on slowly over a year, so it does not call for the consciousness
roll or death check that sudden injuries do.
"""

from __future__ import annotations

from rulekeeper.errors import InputError

__all__ = ["AGING_BASE_AGE", "TRADE_LOSS", "aging_injuries_by", "aging_starts_at", "can_trade"]

AGING_BASE_AGE = 40
TRADE_LOSS = 2


def aging_starts_at(endurance: int) -> int:
    """The age at which the first aging injury comes."""
    return AGING_BASE_AGE + endurance


def aging_injuries_by(age: int, endurance: int) -> int:
    """How many aging points (injuries or traded ability losses) a character has had by ``age``."""
    if age < 0:
        raise InputError(f"age {age} is not valid", expected="0 or more")
    return max(0, age - aging_starts_at(endurance) + 1)


def can_trade(ability_score: int) -> bool:
    """Whether an ability can take the two-point loss and still stay above one."""
    return ability_score - TRADE_LOSS > 1
