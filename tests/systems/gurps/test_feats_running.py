"""Running (seed 004, "Running"): sprint and paced speeds, halving when very tired."""

from __future__ import annotations

import pytest

from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.feats import FEAT_CALCULATORS, paced_speed, sprint_speed
from rulekeeper.systems.gurps.feats.running import RUN_ROLL_EVERY, running_move


def test_sprint_move_7_is_8_4_yards_per_second() -> None:
    assert float(sprint_speed(7)) == pytest.approx(8.4)


def test_paced_running_move_7_is_4_2() -> None:
    assert float(paced_speed(7)) == pytest.approx(4.2)


def test_very_tired_halves_move_rounding_up() -> None:
    assert running_move(7, very_tired=True) == 4
    assert running_move(7) == 7


def test_roll_intervals() -> None:
    assert RUN_ROLL_EVERY == {"sprint": 15, "paced": 60}


def test_negative_move_is_refused() -> None:
    with pytest.raises(InputError):
        sprint_speed(-1)


def test_calculator() -> None:
    out = FEAT_CALCULATORS["run"].calculate({"move": 7})
    assert out.values == {"move": 7, "sprint": pytest.approx(8.4), "paced": pytest.approx(4.2)}
    tired = FEAT_CALCULATORS["run"].calculate({"move": 7, "very_tired": True})
    assert tired.values["sprint"] == pytest.approx(4.8)
