"""Chases: an agility contest with a bonus for the faster side (seed 002, "Chases").

A success on one side and a failure on the other ends the chase. The faster side gains +1 for
each full 3 points by which its Movement is higher (rounded down, the project default).
Groups chasing someone use the group effort rules, which the seed names but does not give:
the chart comes from the game's public "Group effort" page (see :mod:`.group_effort`).
"""

from __future__ import annotations

from rulekeeper.errors import InputError

__all__ = ["MOVEMENT_STEP", "chase_movement_bonus"]

MOVEMENT_STEP = 3


def chase_movement_bonus(movement: int, other_movement: int) -> int:
    """The bonus the side with ``movement`` gets over one with ``other_movement`` (0 if not faster)."""
    if movement < 0 or other_movement < 0:
        raise InputError("movement cannot be negative", expected="0 or more")
    return max(0, (movement - other_movement) // MOVEMENT_STEP)
