"""Lifting and moving things (seed 004, "Lifting & Moving Things"): multiples of Basic Lift."""

from __future__ import annotations

import pytest

from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.feats import FEAT_CALCULATORS, lift
from rulekeeper.systems.gurps.feats.lifting_table import LIFTS


def test_table_multiples_and_times() -> None:
    assert {k: (r.multiple, r.seconds) for k, r in LIFTS.items()} == {
        "one-hand": (2, 2),
        "two-hand": (8, 4),
        "shove": (12, None),
        "carry": (15, None),
        "shift": (50, None),
    }


@pytest.mark.parametrize(
    ("how", "limit"), [("one-hand", 40), ("two-hand", 160), ("shove", 240), ("carry", 300), ("shift", 1000)]
)
def test_limits_for_bl_20(how: str, limit: float) -> None:
    assert lift(how, 20).limit == limit


def test_running_start_doubles_only_the_shove() -> None:
    assert lift("shove", 20, running_start=True).limit == 480
    assert lift("two-hand", 20, running_start=True).limit == 160


def test_boundary_weight_is_possible_and_one_more_is_not() -> None:
    assert lift("two-hand", 20, 160).possible is True
    assert lift("two-hand", 20, 160.5).possible is False


def test_negative_weight_is_an_input_error() -> None:
    with pytest.raises(InputError, match="negative"):
        lift("one-hand", 20, -1)


def test_unknown_way_is_an_input_error() -> None:
    with pytest.raises(InputError, match="one of"):
        lift("juggle", 20, 1)


def test_calculator_from_st() -> None:
    out = FEAT_CALCULATORS["lift"].calculate({"st": 10, "how": "carry", "weight": 250})
    assert out.values["basic_lift"] == 20
    assert out.values["carry"] == 300
    assert out.values["possible"] is True
    assert any("1 FP" in s.text for s in out.steps)
