"""DR, penetrating damage and the wounding multipliers (seed 004, "Damage & Injury").

The seed gives crushing x1, cutting x1.5 and impaling x2 and says other types exist; their
multipliers come from the Basic Set's wounding table and are cited as such.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rulekeeper.core.citation import Rule
from rulekeeper.systems.gurps.rules import BASIC_SET_WOUNDING, WOUNDING

__all__ = ["DAMAGE_TYPES", "WoundingRow", "injury_from", "penetrating"]


@dataclass(frozen=True)
class WoundingRow:
    code: str
    name: str
    multiplier: Fraction
    rule: Rule
    fatigue: bool = False  # fatigue damage comes off FP, not HP

    def times(self, damage: int) -> int:
        """``damage`` x this multiplier, rounded toward zero as ``int(damage * multiplier)``
        is -- in whole numbers: Fraction arithmetic cost more than the rest of the step."""
        product = abs(damage) * self.multiplier.numerator // self.multiplier.denominator
        return product if damage >= 0 else -product


DAMAGE_TYPES: dict[str, WoundingRow] = {
    row.code: row
    for row in (
        WoundingRow("cr", "crushing", Fraction(1), WOUNDING),
        WoundingRow("cut", "cutting", Fraction(3, 2), WOUNDING),
        WoundingRow("imp", "impaling", Fraction(2), WOUNDING),
        WoundingRow("pi-", "small piercing", Fraction(1, 2), BASIC_SET_WOUNDING),
        WoundingRow("pi", "piercing", Fraction(1), BASIC_SET_WOUNDING),
        WoundingRow("pi+", "large piercing", Fraction(3, 2), BASIC_SET_WOUNDING),
        WoundingRow("pi++", "huge piercing", Fraction(2), BASIC_SET_WOUNDING),
        WoundingRow("burn", "burning", Fraction(1), BASIC_SET_WOUNDING),
        WoundingRow("cor", "corrosion", Fraction(1), BASIC_SET_WOUNDING),
        WoundingRow("tox", "toxic", Fraction(1), BASIC_SET_WOUNDING),
        WoundingRow("fat", "fatigue", Fraction(1), BASIC_SET_WOUNDING, fatigue=True),
    )
}


def penetrating(damage: int, dr: int) -> int:
    """Damage beyond DR; a roll at or under DR does not penetrate."""
    return max(0, damage - max(0, dr))


def injury_from(penetrating_damage: int, damage_type: str, *, min_injury: bool) -> int:
    """Injury = penetrating damage x multiplier, rounded down; at least 1 with ``min_injury``."""
    row = DAMAGE_TYPES[damage_type]
    injury = row.times(penetrating_damage)
    if min_injury and penetrating_damage > 0:
        injury = max(1, injury)
    return injury
