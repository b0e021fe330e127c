"""Climbing (seed 004, "Climbing"): the table as data, times, roll counts, modifiers."""

from __future__ import annotations

import pytest

from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.feats import FEAT_CALCULATORS, climb_time
from rulekeeper.systems.gurps.feats.climbing import climb_modifiers
from rulekeeper.systems.gurps.feats.climbing_table import CLIMBS, climb_row


def test_table_modifiers_with_the_briefs_reading_of_the_rope_rows() -> None:
    assert {k: r.modifier for k, r in CLIMBS.items()} == {
        "ladder-up": None,
        "ladder-down": None,
        "tree": 5,
        "mountain": 0,
        "wall": -3,
        "building": -3,
        "rope-up": -2,
        "rope-down": -1,
        "rope-down-equipped": -1,
    }
    assert CLIMBS["rope-down"].rule.reading and "rope" in CLIMBS["rope-down"].rule.reading


@pytest.mark.parametrize(
    ("climb", "speed", "distance", "seconds"),
    [
        ("ladder-up", "combat", 30, 10),
        ("ladder-down", "combat", 30, 15),
        ("ladder-up", "regular", 30, 30),
        ("tree", "combat", 10, 10),
        ("tree", "regular", 10, 30),
        ("mountain", "combat", 10, 20),
        ("mountain", "regular", 10, 60),
        ("wall", "combat", 10, 50),
        ("wall", "regular", 4, 60),
        ("building", "combat", 10, 100),
        ("building", "regular", 2, 60),
        ("rope-up", "combat", 10, 10),
        ("rope-up", "regular", 20, 60),
        ("rope-down", "combat", 10, 5),
        ("rope-down", "regular", 30, 60),
        ("rope-down-equipped", "combat", 12, 1),
        ("rope-down-equipped", "regular", 24, 2),
    ],
)
def test_speeds(climb: str, speed: str, distance: float, seconds: int) -> None:
    assert climb_time(CLIMBS[climb], speed, distance) == seconds


def test_a_started_second_counts() -> None:
    assert climb_time(CLIMBS["mountain"], "regular", 1) == 6  # 10 ft/min: 6 s per foot


def test_encumbrance_comes_off_the_roll() -> None:
    mods = climb_modifiers(CLIMBS["wall"], 2)
    assert [m.value for m in mods] == [-3, -2]
    assert climb_modifiers(CLIMBS["mountain"], 0) == ()


def test_bad_input() -> None:
    with pytest.raises(InputError, match="negative"):
        climb_time(CLIMBS["tree"], "regular", -1)
    with pytest.raises(InputError, match="one of"):
        climb_row("cliff")
    with pytest.raises(InputError):
        climb_time(CLIMBS["tree"], "fast", 3)


@pytest.mark.parametrize(("minutes", "rolls"), [(1, 1), (5, 1), (6, 2), (10, 2), (12, 3)])
def test_calculator_counts_rolls_one_to_start_then_every_five_minutes(minutes: int, rolls: int) -> None:
    out = FEAT_CALCULATORS["climb"].calculate({"climb": "mountain", "speed": "regular", "distance": 10 * minutes})
    assert out.values["seconds"] == 60 * minutes
    assert out.values["rolls"] == rolls


def test_calculator_fp_at_combat_speed() -> None:
    out = FEAT_CALCULATORS["climb"].calculate({"climb": "wall", "speed": "combat", "distance": 120})  # 600 s
    assert out.values["rolls"] == 2
    assert out.values["fp"] == 2
