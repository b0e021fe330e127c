"""Swimming (seed 004, "Swimming"): water Move, modifiers, timing constants."""

from __future__ import annotations

import pytest

from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.feats import FEAT_CALCULATORS, water_move
from rulekeeper.systems.gurps.feats.swimming import (
    ROLL_AFTER_FAILURE,
    ROLL_AFTER_RECOVERY,
    ROLL_EVERY,
    TOP_SPEED_EVERY,
    swimming_modifiers,
)


@pytest.mark.parametrize(("basic_move", "expected"), [(6, 1), (10, 2), (4, 1), (0, 1), (14, 2), (15, 3)])
def test_water_move_is_basic_move_over_5_min_1(basic_move: int, expected: int) -> None:
    assert water_move(basic_move) == expected


def test_very_tired_halves_water_move_round_up_min_1() -> None:
    assert water_move(15, very_tired=True) == 2
    assert water_move(6, very_tired=True) == 1


def test_modifiers_twice_encumbrance_and_plus_3_intentional() -> None:
    assert sum(m.value for m in swimming_modifiers(2, True)) == -1
    assert sum(m.value for m in swimming_modifiers(0, False)) == 0
    assert [m.value for m in swimming_modifiers(1, False)] == [-2]


def test_timing() -> None:
    assert (ROLL_EVERY, ROLL_AFTER_FAILURE, ROLL_AFTER_RECOVERY, TOP_SPEED_EVERY) == (300, 5, 60, 60)


def test_negative_basic_move_is_refused() -> None:
    with pytest.raises(InputError):
        water_move(-3)


def test_calculator() -> None:
    out = FEAT_CALCULATORS["swim"].calculate({"basic_move": 10, "encumbrance_level": 1, "intentional": True})
    assert out.values == {"water_move": 2, "roll_modifier": 1}
