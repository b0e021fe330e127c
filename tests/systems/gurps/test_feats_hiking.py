"""Hiking (seed 004, "Hiking"): the brief's vector, terrain table, group skill, bad input."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.feats import FEAT_CALCULATORS, daily_march
from rulekeeper.systems.gurps.feats.hiking import group_hiking_skill
from rulekeeper.systems.gurps.feats.terrain_table import TERRAINS


def test_move_5_average_terrain_is_50_miles() -> None:
    assert daily_march(5, "average").miles == 50


def test_hiking_success_adds_20_percent() -> None:
    assert daily_march(5, "average", hiking_success=True).miles == 60


def test_bad_terrain_halves() -> None:
    assert daily_march(5, "bad").miles == 25


def test_terrain_table_multipliers() -> None:
    assert {k: t.multiplier for k, t in TERRAINS.items()} == {
        "very-bad": Fraction(1, 5),
        "bad": Fraction(1, 2),
        "average": Fraction(1),
        "good": Fraction(5, 4),
    }
    assert daily_march(5, "very-bad").miles == 10
    assert daily_march(4, "good", hiking_success=True).miles == 60


def test_weather_factor_reduces_further() -> None:
    assert daily_march(5, "average", weather=0.5).miles == 25


def test_group_skill_is_the_average_rounded_down() -> None:
    assert group_hiking_skill([10, 11]) == 10
    assert group_hiking_skill([12, 12, 13]) == 12


@pytest.mark.parametrize(
    "call",
    [
        lambda: daily_march(-1, "average"),
        lambda: daily_march(5, "swampy"),
        lambda: daily_march(5, "average", weather=1.5),
        lambda: group_hiking_skill([]),
    ],
)
def test_bad_input_is_refused(call: object) -> None:
    with pytest.raises(InputError):
        call()  # type: ignore[operator]


def test_calculator() -> None:
    out = FEAT_CALCULATORS["hike"].calculate({"move": 5, "terrain": "average", "hiking_success": True})
    assert out.values["miles"] == 60
