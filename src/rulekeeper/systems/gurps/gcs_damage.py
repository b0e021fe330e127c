"""Thrust and swing by ST for every ST a GCS file can hold, in the damage progressions GCS offers.

``basic_set`` is the engine's own table (:mod:`damage_table`: Lite p. 6 to ST 20, the B16 pattern
above it), so an imported sheet and play read the same dice; ``no_school_grognard_damage`` is the
"No School Grognard" house progression GCS ships, written here as its arithmetic. The file's
``settings.damage_progression`` chooses. Integer division truncates toward zero (ST below 1).
"""

from __future__ import annotations

import re

from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.damage_table import DamageDice, swing, thrust

__all__ = ["PROGRESSIONS", "adds_to_dice", "parse_gcs_dice", "swing_for", "thrust_for"]

PROGRESSIONS = ("basic_set", "no_school_grognard_damage")
_DICE = re.compile(r"^\s*(?:(\d*)d(\d*))?\s*([+-]?\s*\d+)?\s*(?:x\s*(\d+))?\s*$", re.IGNORECASE)


def _div(a: int, b: int) -> int:
    """Integer division toward zero (how the progressions are defined for ST below 1)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _mod(a: int, b: int) -> int:
    return a - b * _div(a, b)


def thrust_for(st: int, progression: str = "basic_set") -> DamageDice:
    if progression == "no_school_grognard_damage":
        if st < 11:
            return DamageDice(1, -_div(14 - st, 2))
        value = st - 11
        return DamageDice(_div(value, 8) + 1, _div(_mod(value, 8), 2) - 1)
    if st < 1:  # GCS continues the table below ST 1; the engine's table starts at 1
        return DamageDice(1, -(6 - _div(st - 1, 2)))
    return thrust(st)


def swing_for(st: int, progression: str = "basic_set") -> DamageDice:
    if progression == "no_school_grognard_damage":
        return thrust_for(st + 3, progression)
    if st < 1:
        return DamageDice(1, -(5 - _div(st - 1, 2)))
    return swing(st)


def parse_gcs_dice(text: str, path: str) -> DamageDice:
    """GCS dice text ("2d+1", "-1", "1d", "d") into dice and adds; other die sizes are refused."""
    match = _DICE.match(text.replace(",", ""))
    if not match or not text.strip():
        raise InputError(f"cannot read dice {text!r}", expected="dice such as 1d+2, 2d or -1", where=path)
    count_text, sides, adds, multiplier = match.groups()
    if sides not in (None, "", "6"):
        raise InputError(f"dice {text!r} are not six-sided", expected="six-sided dice such as 2d+1", where=path)
    if multiplier not in (None, "1"):
        raise InputError(f"dice {text!r} have a multiplier", expected="dice without a multiplier", where=path)
    has_dice = match.group(0).lower().find("d") >= 0
    count = (int(count_text) if count_text else 1) if has_dice else 0
    return DamageDice(count, int(adds.replace(" ", "")) if adds else 0)


def adds_to_dice(dice: DamageDice) -> DamageDice:
    """Modifying Dice + Adds (B269), GCS's optional rule: +4 adds become +1d, +7 become +2d."""
    count, adds = dice.dice, dice.adds
    if count == 0:
        return dice
    while adds > 3:
        if adds > 6:
            adds -= 7
            count += 2
        else:
            adds -= 4
            count += 1
    return DamageDice(count, adds)
