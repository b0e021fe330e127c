"""Jumping (seed 004, "Jumping Distance"): the brief's test vectors, caps, bounds and bad input."""

from __future__ import annotations

import pytest

from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.feats import FEAT_CALCULATORS, broad_jump, high_jump


def test_standing_high_jump_basic_move_6_is_26_inches() -> None:
    assert high_jump(6).distance == 26


def test_standing_broad_jump_basic_move_6_is_9_feet() -> None:
    assert broad_jump(6).distance == 9


def test_running_jumps_with_3_yards_add_to_basic_move() -> None:
    assert high_jump(6, 3).distance == 44
    assert broad_jump(6, 3).distance == 15


def test_running_jumps_are_capped_at_twice_standing() -> None:
    high = high_jump(6, 20)
    broad = broad_jump(6, 20)
    assert (high.maximum, broad.maximum) == (52, 18)
    assert (high.distance, broad.distance) == (52, 18)
    assert high.capped and broad.capped


def test_cap_boundary_exactly_reached_is_not_capped() -> None:
    # 6 x (6 + 4) - 10 = 50 < 52; 6 x (6 + 5) - 10 = 56 > 52
    assert high_jump(6, 4).distance == 50
    assert not high_jump(6, 4).capped
    assert high_jump(6, 5).distance == 52


def test_tiny_basic_move_never_jumps_below_zero() -> None:
    assert high_jump(1).distance == 0
    assert broad_jump(1).distance == 0
    assert high_jump(1, 3).distance == 0  # twice a 0 standing jump


@pytest.mark.parametrize(("move", "run"), [(-1, 0), (5, -2)])
def test_negative_input_is_refused(move: int, run: int) -> None:
    with pytest.raises(InputError):
        high_jump(move, run)


def test_calculator_gives_the_same_numbers_with_steps() -> None:
    calc = FEAT_CALCULATORS["jump"]
    out = calc.calculate({"basic_move": 6, "kind": "broad", "running_yards": 3})
    assert out.values["distance"] == 15
    assert out.values["maximum"] == 18
    assert any("running start" in s.text for s in out.steps)
    assert all(s.rule.seed == "004" for s in out.steps)
