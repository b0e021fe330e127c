"""Concentration: what a concentrating character may not do, and breaking it when hit.

Seed 002, the passage on concentration after "Chases" (its heading is missing from the seed).
While concentrating a character moves at most half their movement (rounded down), cannot
attack or start any other action, and defends at -1. If the activity needs concentration for
more than a round, a successful attack on them calls for an evasion roll; failing it breaks
their concentration. A penalty to concentration (from an ailment) applies to charisma, wisdom
and intelligence rolls (see :data:`.ailments.CONCENTRATION_SCORES`).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFENSE_PENALTY", "ConcentrationLimits", "concentration_limits", "hit_can_break"]

DEFENSE_PENALTY = -1


@dataclass(frozen=True)
class ConcentrationLimits:
    max_movement: int
    may_attack: bool
    may_start_actions: bool
    defense_modifier: int


def concentration_limits(movement: int) -> ConcentrationLimits:
    return ConcentrationLimits(
        max_movement=max(0, movement) // 2,
        may_attack=False,
        may_start_actions=False,
        defense_modifier=DEFENSE_PENALTY,
    )


def hit_can_break(rounds: int) -> bool:
    """Whether being hit calls for an evasion roll: only for activities longer than a round."""
    return rounds > 1
