"""Jump distances by burden (seed 001, VIII.3 "Jump").

A running jump reaches (Agility - 2) metres unencumbered, a standing jump half of that; each
burden rank adds -2 to the malus (light -4, medium -6, heavy -8) and a full burden or an
overload rules jumping out. Reading: a distance never goes below 0 m.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rulekeeper.systems.vi_viii_x.character import Burden

__all__ = ["JUMP_MALUS", "JumpDistances", "jump_distances"]

# Malus to Agility by burden rank; None: no jump at all.
JUMP_MALUS: Mapping[Burden, int | None] = {
    Burden.NONE: 2,
    Burden.LIGHT: 4,
    Burden.MEDIUM: 6,
    Burden.HEAVY: 8,
    Burden.FULL: None,
    Burden.OVERLOADED: None,
}


@dataclass(frozen=True)
class JumpDistances:
    running: float
    standing: float


def jump_distances(agility: int, burden: Burden) -> JumpDistances | None:
    """Longest running and standing jumps in metres, or ``None`` when the burden forbids jumping."""
    malus = JUMP_MALUS[burden]
    if malus is None:
        return None
    running = float(max(0, agility - malus))
    return JumpDistances(running=running, standing=running / 2)
