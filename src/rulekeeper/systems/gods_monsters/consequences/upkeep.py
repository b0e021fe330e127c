"""Upkeep and living expenses, in silver coins (seed 002, "Upkeep and living expenses").

Living costs a silver coin a day; a poor life a coin a week; an extravagant one ten or even a
hundred a day. Weapons cost 10% of their price a year to maintain, armor 5% a month; riding
animals 10% of their price a month, other animals 5%.

Reading: a month is 30 days and a year twelve such months (360 days) when costs are spread over
a number of days; amounts are exact fractions of a silver coin.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rulekeeper.errors import InputError

__all__ = ["LIFESTYLES", "MONTH_DAYS", "YEAR_DAYS", "Upkeep", "upkeep"]

MONTH_DAYS = 30
YEAR_DAYS = 12 * MONTH_DAYS

# Silver coins a day.
LIFESTYLES: dict[str, Fraction] = {
    "poor": Fraction(1, 7),
    "basic": Fraction(1),
    "extravagant": Fraction(10),
    "lavish": Fraction(100),
}
WEAPON_RATE_PER_YEAR = Fraction(10, 100)
ARMOR_RATE_PER_MONTH = Fraction(5, 100)
RIDING_ANIMAL_RATE_PER_MONTH = Fraction(10, 100)
OTHER_ANIMAL_RATE_PER_MONTH = Fraction(5, 100)


@dataclass(frozen=True)
class Upkeep:
    days: int
    living: Fraction
    weapons: Fraction
    armor: Fraction
    riding_animals: Fraction
    other_animals: Fraction

    @property
    def total(self) -> Fraction:
        return self.living + self.weapons + self.armor + self.riding_animals + self.other_animals


def upkeep(
    *,
    days: int,
    lifestyle: str = "basic",
    weapons_cost: Fraction | int = 0,
    armor_cost: Fraction | int = 0,
    riding_animals_cost: Fraction | int = 0,
    other_animals_cost: Fraction | int = 0,
) -> Upkeep:
    """What ``days`` of living and upkeep cost, given the prices of what is kept up."""
    if lifestyle not in LIFESTYLES:
        raise InputError(f"unknown lifestyle {lifestyle!r}", expected="one of " + ", ".join(LIFESTYLES))
    costs = (weapons_cost, armor_cost, riding_animals_cost, other_animals_cost)
    if days < 0 or any(c < 0 for c in costs):
        raise InputError("days and costs cannot be negative", expected="0 or more")
    months = Fraction(days, MONTH_DAYS)
    years = Fraction(days, YEAR_DAYS)
    return Upkeep(
        days=days,
        living=LIFESTYLES[lifestyle] * days,
        weapons=Fraction(weapons_cost) * WEAPON_RATE_PER_YEAR * years,
        armor=Fraction(armor_cost) * ARMOR_RATE_PER_MONTH * months,
        riding_animals=Fraction(riding_animals_cost) * RIDING_ANIMAL_RATE_PER_MONTH * months,
        other_animals=Fraction(other_animals_cost) * OTHER_ANIMAL_RATE_PER_MONTH * months,
    )
