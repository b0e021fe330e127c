"""Seed 002 "Jumping": the doubling penalty, failure reaching short, sizes, running, the action."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulekeeper.errors import InputError
from rulekeeper.systems.gods_monsters.consequences.jumping import (
    SIZE_MULTIPLIERS,
    jump_penalty,
    jump_plan,
    jump_reach,
    size_multiplier,
)

from .helpers import Table


@pytest.mark.parametrize(("units", "penalty"), [(1, 0), (2, -1), (3, -2), (4, -4), (5, -8), (6, -16), (7, -32)])
def test_penalty_table(units: int, penalty: int) -> None:
    assert jump_penalty(units) == penalty


def test_vector_target_20_roll_18_tries_4_ft_reaches_3() -> None:
    plan = jump_plan(agility=12, distance=4)
    assert plan.target - plan.penalty == 20
    assert plan.target == 16
    assert jump_reach(plan, 18) == 3


def test_success_reaches_the_distance_tried() -> None:
    plan = jump_plan(agility=12, distance=4)
    assert jump_reach(plan, 16) == 4
    assert jump_reach(plan, 1) == 4


def test_a_roll_too_high_for_even_a_foot_reaches_nothing() -> None:
    plan = jump_plan(agility=3, distance=2, bonus=-5)  # 3 + 8 - 5 = 6 unpenalized
    assert jump_reach(plan, 7) == 0
    assert jump_reach(plan, 6) == 1


def test_sizes_multiply_distance() -> None:
    assert SIZE_MULTIPLIERS["large"] == 2
    assert SIZE_MULTIPLIERS["titanic"] == 16
    assert SIZE_MULTIPLIERS["small"] == Fraction(3, 4)
    assert SIZE_MULTIPLIERS["tiny"] == Fraction(1, 3)
    assert SIZE_MULTIPLIERS["fine"] == Fraction(1, 6)
    # A large creature trying 8 ft is penalised as a human trying 4 ft.
    large = jump_plan(agility=12, distance=8, size="large")
    assert (large.base_units, large.penalty) == (4, -4)
    assert jump_reach(large, 18) == 6
    # A small creature trying 3 ft needs the 4 ft row (3 / 0.75 = 4).
    small = jump_plan(agility=12, distance=3, size="small")
    assert small.penalty == -4
    assert jump_reach(small, 18) == Fraction(9, 4)


def test_leaping_across_counts_yards_and_adds_running_movement() -> None:
    plan = jump_plan(agility=12, distance=3, direction="across", running_movement=10)
    assert plan.unit == "yards"
    assert plan.target == 12 + 8 - 2 + 10


@pytest.mark.parametrize(
    "kwargs",
    [
        {"distance": 0},
        {"distance": -1},
        {"distance": 2, "direction": "sideways"},
        {"distance": 2, "size": "colossal"},
        {"distance": 2, "running_movement": 5},
        {"distance": 2, "direction": "across", "running_movement": -1},
    ],
)
def test_bad_jumps(kwargs: dict[str, object]) -> None:
    with pytest.raises(InputError):
        jump_plan(agility=12, **kwargs)  # type: ignore[arg-type]


def test_bad_rolls_and_units() -> None:
    with pytest.raises(InputError):
        jump_reach(jump_plan(agility=12, distance=2), 21)
    with pytest.raises(InputError):
        jump_penalty(0)
    with pytest.raises(InputError):
        size_multiplier("")


@given(
    agility=st.integers(3, 18),
    distance=st.integers(1, 12),
    roll=st.integers(1, 20),
    size=st.sampled_from(sorted(SIZE_MULTIPLIERS)),
)
def test_reach_never_exceeds_the_try_and_falls_with_the_roll(agility: int, distance: int, roll: int, size: str) -> None:
    plan = jump_plan(agility=agility, distance=distance, size=size)
    reached = jump_reach(plan, roll)
    assert 0 <= reached <= plan.tried
    if roll < 20:
        assert jump_reach(plan, roll + 1) <= reached
    assert (reached == plan.tried) or roll > plan.target


def test_jump_action_carries_injury_penalty_and_size() -> None:
    table = Table({"cat": {"survival": 4, "agility": 12, "injuries": 2, "size": "large"}})
    out = table.act("jump", "cat", dice=[16], distance=8)
    # 12 + 8 - 4 (8 ft is the 4 ft row for a large creature) - 2 injuries = 14: 16 fails.
    assert "= 14 or less" in out.render()
    # Unpenalized 18: the roll of 16 would have made the 3 ft row (-2), doubled for size: 6 ft.
    assert out.result["jump"] == {"success": False, "tried": 8, "reached": 6, "unit": "feet"}


def test_running_leap_refuses_running_movement_up() -> None:
    table = Table({"cat": {"survival": 4, "agility": 12}})
    with pytest.raises(InputError, match="across"):
        table.act("jump", "cat", distance=2, running_movement=4)
