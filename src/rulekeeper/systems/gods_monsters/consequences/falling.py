"""Falling: the height table, injuries per die, evasion, time aloft (seed 002, "Falling").

Readings (rules brief, "Readings"): the injuries -- one per die -- are part of the rolled
damage, not extra; evasion negates below 10 ft and halves below 20 ft, and a fall whose damage
evasion halved gives no injuries; damage stops growing at 7d6. Time aloft is one second per die
up to 450 ft, then one more second for each full 150 ft beyond (rounded down, the project's
default where the seed does not say).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from rulekeeper.errors import InputError

__all__ = [
    "FALL_TABLE",
    "MAX_FALL_DICE",
    "EvasionEffect",
    "FallBand",
    "FallDamage",
    "fall_band",
    "fall_damage",
    "fall_seconds",
]

MAX_FALL_DICE = 7
# Beyond 450 ft a body falls 50 yards (150 ft) more each second (seed 002, "Falling").
_ALOFT_TABLE_TOP = 450
_FEET_PER_EXTRA_SECOND = 150


class EvasionEffect(enum.Enum):
    """What a successful evasion roll does to a fall's damage."""

    NEGATES = "negates"
    HALVES = "halves"
    NONE = "no effect"


@dataclass(frozen=True)
class FallBand:
    """One row of the falling table: heights from ``low`` to ``high`` feet (None: no top)."""

    low: int
    high: int | None
    dice: int
    evasion: EvasionEffect


# Seed 002, "Actions and consequences: Falling", the height table. The seconds column equals
# the dice count up to 450 ft; the seed's "320-450" row is read as "320 ft and up".
FALL_TABLE: tuple[FallBand, ...] = (
    FallBand(0, 9, 1, EvasionEffect.NEGATES),
    FallBand(10, 19, 2, EvasionEffect.HALVES),
    FallBand(20, 39, 3, EvasionEffect.NONE),
    FallBand(40, 79, 4, EvasionEffect.NONE),
    FallBand(80, 159, 5, EvasionEffect.NONE),
    FallBand(160, 319, 6, EvasionEffect.NONE),
    FallBand(320, None, MAX_FALL_DICE, EvasionEffect.NONE),
)


def _check_feet(feet: int) -> None:
    if isinstance(feet, bool) or not isinstance(feet, int) or feet < 0:
        raise InputError(f"fall height {feet!r} is not valid", expected="a whole number of feet, 0 or more")


def fall_band(feet: int) -> FallBand:
    """The table row for a fall of ``feet`` feet."""
    _check_feet(feet)
    for band in FALL_TABLE:
        if band.high is None or feet <= band.high:
            return band
    raise AssertionError("the last band has no top")  # pragma: no cover


def fall_seconds(feet: int) -> int:
    """Seconds aloft: one per die up to 450 ft, then +1 per full 150 ft beyond."""
    band = fall_band(feet)
    if feet <= _ALOFT_TABLE_TOP:
        return band.dice
    return MAX_FALL_DICE + (feet - _ALOFT_TABLE_TOP) // _FEET_PER_EXTRA_SECOND


@dataclass(frozen=True)
class FallDamage:
    """The consequence of one fall once its dice are known.

    ``damage`` is the total taken; ``injuries`` is how many of those points go to injuries
    (part of the damage, not added to it).
    """

    rolled: int
    damage: int
    injuries: int
    evaded: bool
    effect: EvasionEffect


def fall_damage(feet: int, dice: tuple[int, ...], *, evaded: bool = False) -> FallDamage:
    """Damage and injuries of a fall from the dice rolled (one d6 per die in the table).

    ``evaded`` says the evasion roll succeeded; it only matters below 20 ft.
    """
    band = fall_band(feet)
    if len(dice) != band.dice or any(not 1 <= d <= 6 for d in dice):
        raise InputError(
            f"a fall of {feet} ft needs {band.dice} d6 values, got {list(dice)}",
            expected=f"{band.dice} values from 1 to 6",
        )
    rolled = sum(dice)
    if evaded and band.evasion is EvasionEffect.NEGATES:
        return FallDamage(rolled, 0, 0, True, band.evasion)
    if evaded and band.evasion is EvasionEffect.HALVES:
        return FallDamage(rolled, rolled // 2, 0, True, band.evasion)
    return FallDamage(rolled, rolled, band.dice, False, band.evasion)
