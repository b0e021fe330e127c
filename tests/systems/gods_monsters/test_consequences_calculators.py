"""Seed 002 calculators (no campaign needed): the brief's vectors and bad input."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from rulekeeper.core import Calculation, validate_params
from rulekeeper.errors import InputError

from .helpers import RULESET


def calc(calculator: str, /, **raw: Any) -> Mapping[str, Any]:
    spec = RULESET.calculators()[calculator]
    result: Calculation = spec.compute(validate_params(spec.params, raw, f"calculator {calculator}"))
    assert result.steps, "a calculation explains itself"
    assert all(step.rule.seed in ("002", None) for step in result.steps)
    return result.values


@pytest.mark.parametrize(
    ("feet", "dice", "injuries", "seconds", "evasion"),
    [
        (5, "1d6", 1, 1, "negates"),
        (15, "2d6", 2, 2, "halves"),
        (30, "3d6", 3, 3, "no effect"),
        (450, "7d6", 7, 7, "no effect"),
        (600, "7d6", 7, 8, "no effect"),
    ],
)
def test_fall(feet: int, dice: str, injuries: int, seconds: int, evasion: str) -> None:
    values = calc("fall", feet=feet)
    assert (values["damage_dice"], values["injuries"], values["seconds"], values["evasion"]) == (
        dice,
        injuries,
        seconds,
        evasion,
    )


def test_fall_with_dice() -> None:
    assert calc("fall", feet=15, dice="5,4", evaded=True)["damage"] == 4
    with pytest.raises(InputError):
        calc("fall", feet=15, dice="5")


def test_jump_vector() -> None:
    values = calc("jump", agility=12, distance=4, roll=18)
    assert (values["unpenalized_target"], values["target"], values["reached"], values["success"]) == (20, 16, 3, False)


def test_chase_vector() -> None:
    values = calc("chase", movement=16, other_movement=10)
    assert (values["bonus"], values["other_bonus"]) == (2, 0)
    assert calc("chase", movement=10, other_movement=10, group_size=8)["bonus"] == 3


def test_daily_movement_vector() -> None:
    values = calc("daily_movement", movement=10)
    assert (values["ideal_miles"], values["forest_miles"], values["hills_miles"], values["bog_miles"]) == (
        20,
        10,
        10,
        5,
    )
    assert values["flying_mph"] == 10


def test_the_rest_day_comes_after_whole_days_as_travel_counts_them() -> None:
    assert calc("daily_movement", movement=5, endurance=13)["rest_day_after_days"] == 6  # half of 13, down
    assert calc("daily_movement", movement=5, endurance=12)["rest_day_after_days"] == 6


def test_speed() -> None:
    values = calc("speed", speed="dash", movement=10)
    assert (values["feet_per_round"], values["yards_per_minute"], values["reaction"], values["attack"]) == (
        30,
        60,
        -1,
        4,
    )
    assert values["unconfirmed"]
    assert calc("speed", speed="run", movement=10, outdoors=True)["reaction"] == -4
    assert calc("speed", speed="walk", movement=10, casting_time=4)["movement_while_casting"] == 6


@pytest.mark.parametrize(("thickness", "bonus"), [("1/4", 1), ("1/2", 2), ("1", 3), ("2", 4)])
def test_item_thickness_vector(thickness: str, bonus: int) -> None:
    values = calc("item_reaction", material="glass", attack="bludgeon", thickness=thickness, weight=3)
    assert values["thickness_bonus"] == bonus
    assert values["target"] == 4 + bonus
    assert values["survival"] == 3
    assert values["odds"] == pytest.approx((4 + bonus) / 20)


def test_phantasmal_vector() -> None:
    assert calc("phantasmal", damage=15) == {"kept": 2, "regained": 13}


def test_other_calculators() -> None:
    assert calc("aging", age=58, endurance=15) == {"starts_at": 55, "points_so_far": 4}
    assert calc("suffocation", endurance=12)["buffer_rounds"] == 12
    assert calc("suffocation", endurance=12, prepared=False, d4=2, at_rest=True)["buffer_rounds"] == 4
    assert calc("tracking", perception=15, days=2, group_size=4, covered=1)["target"] == 14
    assert calc("search", area=250) == {"minutes": 6}
    assert calc("upkeep", days=30, armor_cost=100)["total"] == 35
    assert calc("concentration", movement=9)["max_movement"] == 4
    poison = calc("ailment", name="food poisoning", exposure="accepted", score=12)
    assert (poison["reaction"], poison["modifier"], poison["target"]) == ("health", -7, 5)
    assert calc("ailment", name="sleep gas")["type"] == "inescapable"


@pytest.mark.parametrize(
    ("name", "raw"),
    [
        ("fall", {"feet": -1}),
        ("fall", {}),
        ("jump", {"agility": 12, "distance": 0}),
        ("jump", {"agility": 12, "distance": 2, "roll": 21}),
        ("chase", {"movement": 10}),
        ("speed", {"speed": "crawl", "movement": 10}),
        ("item_reaction", {"material": "mithril", "attack": "fire"}),
        ("item_reaction", {"material": "glass", "attack": "fire", "thickness": "-1"}),
        ("suffocation", {"endurance": 10, "prepared": False}),
        ("upkeep", {"lifestyle": "royal"}),
        ("ailment", {"name": "plague"}),
        ("aging", {"age": 50}),
    ],
)
def test_bad_input(name: str, raw: dict[str, Any]) -> None:
    with pytest.raises(InputError):
        calc(name, **raw)
