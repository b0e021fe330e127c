"""Throwing (seed 004, "Throwing" and its tables): the brief's vector, table lookups, refusals."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulekeeper.errors import InputError, RuleRefusal
from rulekeeper.systems.gurps.feats import FEAT_CALCULATORS, throw
from rulekeeper.systems.gurps.feats.throwing import throw_damage, throw_distance
from rulekeeper.systems.gurps.feats.throwing_tables import DISTANCE_BY_RATIO


def test_brief_vector_st12_bl29_120lb_is_1_2_yards() -> None:
    ratio, row, yards = throw_distance(12, 29, 120)
    assert round(float(ratio), 2) == 4.14
    assert row.ratio == 6
    assert row.modifier == Fraction(1, 10)
    assert yards == Fraction(6, 5)


def test_exact_row_value_uses_that_row() -> None:
    _, row, yards = throw_distance(10, 20, 20)  # ratio exactly 1.0
    assert row.ratio == 1
    assert yards == 6


def test_between_rows_uses_the_next_larger_ratio() -> None:
    _, row, _ = throw_distance(10, 20, 21)  # 1.05 -> 1.5
    assert row.ratio == Fraction(3, 2)
    _, row, _ = throw_distance(10, 20, 0.5)  # 0.025 -> 0.05
    assert row.ratio == Fraction(1, 20)


def test_table_is_the_seeds_short_table() -> None:
    assert len(DISTANCE_BY_RATIO) == 15
    ratios = [r.ratio for r in DISTANCE_BY_RATIO]
    assert ratios == sorted(ratios)
    mods = [r.modifier for r in DISTANCE_BY_RATIO]
    assert mods == sorted(mods, reverse=True)


def test_8_x_bl_is_the_heaviest_throw() -> None:
    assert throw(10, 20, 160).yards == Fraction(3, 5)  # ratio 8 -> row 10 -> 0.06 x ST 10 = 0.6 yd
    with pytest.raises(RuleRefusal, match="too heavy"):
        throw(10, 20, 160.5)


@pytest.mark.parametrize(
    ("weight", "damage"),
    [
        (2.5, "1d-4"),  # up to BL/8: -2 per die on 1d-2
        (5, "1d-3"),  # up to BL/4
        (10, "1d-2"),  # up to BL/2: thrust
        (20, "1d-1"),  # up to BL: +1 per die
        (40, "1d-2"),  # up to 2 x BL
        (80, "1d-2"),  # up to 4 x BL: -1/2 per die drops to 0 on one die
        (160, "1d-3"),  # up to 8 x BL
    ],
)
def test_damage_by_weight_for_st_10(weight: float, damage: str) -> None:
    assert str(throw_damage(10, 20, weight)[2]) == damage


def test_half_per_die_on_two_dice_is_minus_one() -> None:
    # ST 19: thrust 2d-1, BL 72; 200 lb is up to 4 x BL
    assert str(throw_damage(19, 72, 200)[2]) == "2d-2"


def test_brief_vector_damage() -> None:
    assert str(throw(12, 29, 120).damage) == "1d-2"  # thrust 1d-1, up to 8 x BL: -1 per die


def test_negative_or_zero_weight_is_an_input_error() -> None:
    with pytest.raises(InputError, match="negative"):
        throw(12, 29, -5)
    with pytest.raises(InputError):
        throw(12, 29, 0)


def test_st_above_20_throws_on_the_b16_thrust() -> None:
    assert str(throw(21, 88, 10).thrust) == "2d"
    with pytest.raises(InputError, match="ST 0"):
        throw(0, 0.2, 0.1)


def test_calculator_vector() -> None:
    out = FEAT_CALCULATORS["throw"].calculate({"st": 12, "weight": 120})
    assert out.values["basic_lift"] == 29
    assert out.values["row"] == 6
    assert out.values["yards"] == pytest.approx(1.2)
    assert out.values["hands"] == 2
