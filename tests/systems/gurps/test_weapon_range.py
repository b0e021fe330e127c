"""Reading a weapon's printed range (seed 004, Range Attacks): "1/2D/Max" in yards."""

from __future__ import annotations

import pytest

from rulekeeper.systems.gurps.weapon_range import WeaponRange, half_damage, weapon_range


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("150/200", WeaponRange(150.0, 200.0)),
        (" 180 / 240 ", WeaponRange(180.0, 240.0)),
        ("200", WeaponRange(None, 200.0)),
        ("", WeaponRange(None, None)),
        ("sight", WeaponRange(None, None)),
        ("x15/x20", WeaponRange(None, None)),  # muscle-powered, not yet turned into yards: unreadable
        ("10/12.5", WeaponRange(10.0, 12.5)),
    ],
)
def test_ranges_as_sheets_print_them(text: str, expected: WeaponRange) -> None:
    assert weapon_range(text) == expected


def test_half_damage_rounds_down() -> None:
    assert [half_damage(d) for d in (0, 1, 5, 6)] == [0, 0, 2, 3]
