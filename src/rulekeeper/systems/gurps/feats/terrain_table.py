"""Terrain multipliers for a day's march (seed 004, "Hiking").

Each row cites the seed; the examples are our own short summary of the seed's list.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rulekeeper.core.citation import Rule
from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.feats.citations import HIKING_TERRAIN

__all__ = ["TERRAINS", "Terrain", "terrain"]


@dataclass(frozen=True)
class Terrain:
    key: str
    name: str
    examples: str
    multiplier: Fraction
    rule: Rule


TERRAINS: dict[str, Terrain] = {
    row.key: row
    for row in (
        Terrain(
            "very-bad",
            "very bad",
            "deep snow, dense forest, jungle, mountains, soft sand, swamp",
            Fraction(1, 5),
            HIKING_TERRAIN,
        ),
        Terrain("bad", "bad", "broken ground and streams, forest, steep hills", Fraction(1, 2), HIKING_TERRAIN),
        Terrain("average", "average", "light forest, rolling hills", Fraction(1), HIKING_TERRAIN),
        Terrain("good", "good", "hard-packed desert, level plains", Fraction(5, 4), HIKING_TERRAIN),
    )
}


def terrain(key: str) -> Terrain:
    row = TERRAINS.get(key.strip().lower())
    if row is None:
        raise InputError(f"unknown terrain {key!r}", expected="one of " + ", ".join(TERRAINS), where="terrain")
    return row
