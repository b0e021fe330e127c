"""The sorceror's spell-level cap (seed 000, "Injury points (zero survival points)").

A sorceror cannot cast, or memorize, spells above their level minus their injuries: a 5th-level
sorceror with 2 injuries can still use spells of levels 1 to 3.
"""

from __future__ import annotations

__all__ = ["can_cast", "spell_level_cap"]


def spell_level_cap(level: int, injuries: int) -> int:
    """The highest spell level a sorceror can cast or memorize (0: none)."""
    return max(0, level - injuries)


def can_cast(level: int, injuries: int, spell_level: int) -> bool:
    """Spells have levels from 1 (the seeds define no level-0 spell), so a cap of 0 allows none."""
    return 1 <= spell_level <= spell_level_cap(level, injuries)
