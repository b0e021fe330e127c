"""The throwing tables: distance modifier by weight ratio, and damage by weight (seed 004, "Throwing").

The distance table is the seed's short one (GURPS Lite's), read as given: a weight ratio
between two rows uses the next larger row (brief). Weights are compared as exact fractions.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from rulekeeper.core.citation import Rule
from rulekeeper.systems.gurps.feats.citations import THROWING_DAMAGE, THROWING_DISTANCE

__all__ = ["DAMAGE_BY_WEIGHT", "DISTANCE_BY_RATIO", "MAX_THROW_BL", "ONE_HAND_BL", "DistanceRow", "WeightDamageRow"]

#: Anything over 8 x BL cannot be thrown; up to 2 x BL can be thrown with one hand.
MAX_THROW_BL = 8
ONE_HAND_BL = 2


@dataclass(frozen=True)
class DistanceRow:
    ratio: Fraction
    modifier: Fraction
    rule: Rule


@dataclass(frozen=True)
class WeightDamageRow:
    """Up to ``max_bl`` x BL: thrust damage with ``per_die`` added for each die."""

    max_bl: Fraction
    per_die: Fraction
    label: str
    rule: Rule


def _row(ratio: str, modifier: str) -> DistanceRow:
    return DistanceRow(Fraction(ratio), Fraction(modifier), THROWING_DISTANCE)


DISTANCE_BY_RATIO: tuple[DistanceRow, ...] = (
    _row("0.05", "3.5"),
    _row("0.10", "2.5"),
    _row("0.15", "2.0"),
    _row("0.20", "1.5"),
    _row("0.40", "1.0"),
    _row("0.50", "0.8"),
    _row("1.0", "0.60"),
    _row("1.5", "0.40"),
    _row("2.0", "0.30"),
    _row("2.5", "0.25"),
    _row("3.0", "0.20"),
    _row("4.0", "0.15"),
    _row("6.0", "0.10"),
    _row("10", "0.06"),
    _row("12", "0.05"),
)

DAMAGE_BY_WEIGHT: tuple[WeightDamageRow, ...] = (
    WeightDamageRow(Fraction(1, 8), Fraction(-2), "up to BL/8: thrust -2 per die", THROWING_DAMAGE),
    WeightDamageRow(Fraction(1, 4), Fraction(-1), "up to BL/4: thrust -1 per die", THROWING_DAMAGE),
    WeightDamageRow(Fraction(1, 2), Fraction(0), "up to BL/2: thrust", THROWING_DAMAGE),
    WeightDamageRow(Fraction(1), Fraction(1), "up to BL: thrust +1 per die", THROWING_DAMAGE),
    WeightDamageRow(Fraction(2), Fraction(0), "up to 2 x BL: thrust", THROWING_DAMAGE),
    WeightDamageRow(Fraction(4), Fraction(-1, 2), "up to 4 x BL: thrust -1/2 per die", THROWING_DAMAGE),
    WeightDamageRow(Fraction(8), Fraction(-1), "up to 8 x BL: thrust -1 per die", THROWING_DAMAGE),
)
