"""HP and FP thresholds as pure functions (seed 004, "General Damage", "Lost Fatigue Points").

Used by both the stateful injury/fatigue code and the calculators, so the numbers live once.
"""

from __future__ import annotations

__all__ = [
    "DEATH_MULTIPLES",
    "consciousness_penalty",
    "death_multiples_crossed",
    "death_thresholds",
    "is_major_wound",
    "is_reeling",
    "is_very_tired",
    "shock_penalty",
    "wake_band",
]

#: HT rolls against death at -1x to -4x HP; -5x HP is death outright.
DEATH_MULTIPLES = (1, 2, 3, 4)
DEAD_MULTIPLE = 5
SHOCK_CAP = 4


def shock_penalty(max_hp: int, lost: int) -> int:
    """The (negative) shock penalty for losing ``lost`` HP at once.

    -1 per HP lost; with 20+ HP, -1 per floor(HP/10) lost (rounded down); never worse than -4.
    """
    if lost <= 0:
        return 0
    per = max_hp // 10 if max_hp >= 20 else 1
    return -min(SHOCK_CAP, lost // per)


def death_thresholds(max_hp: int) -> tuple[int, ...]:
    """HP values at which an HT roll against death is due: -1x, -2x, -3x, -4x HP."""
    return tuple(-k * max_hp for k in DEATH_MULTIPLES)


def dead_at(max_hp: int) -> int:
    return -DEAD_MULTIPLE * max_hp


def death_multiples_crossed(max_hp: int, before: int, after: int) -> tuple[int, ...]:
    """Which multiples k (1-5) of -HP the fall from ``before`` to ``after`` HP reached for the first time."""
    return tuple(k for k in (*DEATH_MULTIPLES, DEAD_MULTIPLE) if before > -k * max_hp >= after)


def is_major_wound(max_hp: int, injury: int) -> bool:
    """A single injury of more than half of HP."""
    return injury * 2 > max_hp


def is_reeling(max_hp: int, current: int) -> bool:
    """Less than 1/3 of HP left."""
    return current * 3 < max_hp


def is_very_tired(max_fp: int, current: int) -> bool:
    """Less than 1/3 of FP left (the Fatigue table's wording, per the brief)."""
    return current * 3 < max_fp


def consciousness_penalty(max_hp: int, current: int) -> int:
    """Basic Set option: -1 per full multiple of HP below zero (0 until -1 x HP)."""
    if current >= 0 or max_hp <= 0:
        return 0
    return -((-current) // max_hp)


def wake_band(max_hp: int, current: int) -> str:
    """Which waking rule applies: "15 minutes" (1+ HP), "hourly" (0 to above -HP), "12 hours"."""
    if current >= 1:
        return "15 minutes"
    if current > -max_hp:
        return "hourly"
    return "12 hours"
