"""Seed 002 "Movement": speeds, outdoor shift, darkness, casting, daily travel, forced marches."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulekeeper.core.clock import MINUTE
from rulekeeper.errors import InputError
from rulekeeper.systems.gods_monsters.consequences.movement import (
    SPEEDS,
    casting_movement,
    daily_movement,
    forced_march_modifier,
    light_movement,
    speed,
    speed_numbers,
)

from .helpers import Table


def test_speeds_table_as_printed() -> None:
    rows: dict[str, tuple[object, ...]] = {
        s.name: (s.feet_per_round, s.yards_per_minute, s.reaction, s.attack) for s in SPEEDS
    }
    assert rows == {
        "semi-conscious": (Fraction(1, 2), 1, 0, 0),
        "combat": (1, 2, 0, 0),
        "dash": (3, 6, -1, 4),
        "explore": (2, 4, 0, 0),
        "walk": (5, 10, -2, 2),
        "jog": (10, 20, -4, 4),
        "run": (15, 30, -8, 8),
        "sprint": (25, 50, -16, 16),
    }
    assert speed("dash").unconfirmed
    assert not speed("walk").unconfirmed


@pytest.mark.parametrize(
    ("name", "seconds"),
    [
        ("semi-conscious", 120),
        ("combat", 12 * MINUTE),
        ("dash", 12 * MINUTE),
        ("explore", 120 * MINUTE),
        ("walk", 360 * MINUTE),
        ("jog", 60 * MINUTE),
        ("run", 12 * MINUTE),
        ("sprint", 120),
    ],
)
def test_time_base_is_endurance_times_the_unit(name: str, seconds: int) -> None:
    assert speed_numbers(name, 10, 12).time_base_seconds == seconds


@pytest.mark.parametrize(
    ("name", "indoors", "outdoors"),
    [
        ("explore", 0, 0),
        ("walk", -2, 0),
        ("jog", -4, -2),
        ("run", -8, -4),
        ("sprint", -16, -8),
        ("combat", 0, 0),
        ("dash", -1, -1),
    ],
)
def test_outdoors_the_penalties_shift_up_one(name: str, indoors: int, outdoors: int) -> None:
    assert speed_numbers(name, 10, 10).reaction == indoors
    assert speed_numbers(name, 10, 10, outdoors=True).reaction == outdoors
    assert speed_numbers(name, 10, 10, outdoors=True).attack == speed(name).attack


def test_darkness() -> None:
    assert light_movement(10, "light") == 10
    assert light_movement(10, "dark night") == 5
    assert light_movement(10, "total darkness") == 2
    assert light_movement(10, "total darkness", can_see=True) == 10
    assert speed_numbers("walk", 12, 10, light="dark night").feet_per_round == 30
    with pytest.raises(InputError):
        light_movement(10, "dusk")


def test_casting_reduces_movement() -> None:
    assert casting_movement(10, 0) == 10
    assert casting_movement(10, 4) == 6
    assert casting_movement(10, 9) == 1
    assert casting_movement(10, 10) == 0  # a round or more: no movement
    assert casting_movement(5, 6) == 0  # longer than the movement
    with pytest.raises(InputError):
        casting_movement(10, -1)


def test_daily_movement_vector() -> None:
    daily = daily_movement(10, endurance=12)
    assert daily.by_terrain == {"ideal": 20, "forest": 10, "hills": 10, "bog": 5, "undergrowth": 5}
    assert daily.flying_mph == 10
    assert daily.flying_miles_per_day == 160
    assert daily.forced["ideal"] == 30
    assert daily.walking_mph == Fraction(10, 3)
    assert daily.rest_day_after_days == 6


def test_daily_movement_rounds_down() -> None:
    assert daily_movement(5).by_terrain["bog"] == 2
    assert daily_movement(5).forced["bog"] == 3


def test_forced_march_modifier() -> None:
    assert forced_march_modifier() == 0
    assert forced_march_modifier(slower_by=2) == 4
    assert forced_march_modifier(previous_rolls=3) == -6
    assert forced_march_modifier(slower_by=1, previous_rolls=1, thirst=4) == -4
    with pytest.raises(InputError):
        forced_march_modifier(thirst=5)
    with pytest.raises(InputError):
        forced_march_modifier(previous_rolls=-1)


def test_bad_speed_and_movement() -> None:
    with pytest.raises(InputError, match="unknown speed"):
        speed("crawl")
    with pytest.raises(InputError):
        speed_numbers("walk", -1, 10)
    with pytest.raises(InputError):
        daily_movement(-1)


def test_pushed_travel_asks_a_health_roll_per_day() -> None:
    table = Table({"w": {"survival": 5, "movement": 10, "health": 12, "fortitude": 18}})
    out = table.act("travel", "w", dice=[3, 15, 2], days=2, push=True, terrain="ideal")
    assert out.result["travel"]["miles"] == 60
    assert table.char("w").injuries == 1


def test_long_day_march_does_not_count_toward_the_rest_penalty() -> None:
    table = Table({"w": {"survival": 5, "health": 12}})
    table.act("force_march", "w", dice=[3], mode="long_day")
    assert table.view("w")["forced_march_rolls"] == 0
    table.act("force_march", "w", dice=[3])
    table.act("force_march", "w", dice=[10])
    assert table.view("w")["forced_march_rolls"] == 2
    assert "-2 1 earlier roll since rest" in table.text


def test_stop_when_not_moving_is_refused() -> None:
    from rulekeeper.errors import RuleRefusal

    table = Table({"w": {"survival": 5}})
    with pytest.raises(RuleRefusal):
        table.act("move", "w", speed="stop")
