"""Thrust and swing by ST for every ST a GCS file can hold, in every damage progression GCS offers.

The file's ``settings.damage_progression`` chooses; each key below is GCS's own name for it
(GCS ``progression.Option``), with where the table comes from. ``basic_set`` is the engine's own
table (:mod:`damage_table`: Lite p. 6 to ST 20, the B16 pattern above it), so an imported sheet and
play read the same dice; the others are house or supplement tables GCS ships, written here as the
arithmetic GCS computes them with. Integer division truncates toward zero (ST below 1), as GCS's
does. Multiplied dice ("3dx5", Basic Set p. 269's huge dice written short) are read too.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import replace

from rulekeeper.errors import InputError
from rulekeeper.systems.gurps.damage_table import DamageDice, swing, thrust

__all__ = ["PROGRESSIONS", "add_dice", "adds_to_dice", "parse_gcs_dice", "swing_for", "thrust_for"]

_DICE = re.compile(r"^\s*(?:(\d*)d(\d*))?\s*([+-]?\s*\d+)?\s*(?:x\s*(\d+))?\s*$", re.IGNORECASE)


def _div(a: int, b: int) -> int:
    """Integer division toward zero (how the progressions are defined for ST below 1)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _mod(a: int, b: int) -> int:
    return a - b * _div(a, b)


# -- the tables, each as (thrust, swing) for an ST -------------------------------------------------
def _basic_thrust(st: int) -> DamageDice:
    if st < 1:  # GCS continues the table below ST 1; the engine's table starts at 1
        return DamageDice(1, -(6 - _div(st - 1, 2)))
    return thrust(st)


def _basic_swing(st: int) -> DamageDice:
    if st < 1:
        return DamageDice(1, -(5 - _div(st - 1, 2)))
    return swing(st)


def _kyos_thrust(st: int) -> DamageDice:
    # Knowing Your Own Strength (Pyramid 3/83 pp. 16-19): +1d per 4 ST, 1d-1 at ST 11 and less below.
    if st < 12:
        return DamageDice(1, st - 12)
    return DamageDice(_div(st - 7, 4), _mod(st + 1, 4) - 1)


def _kyos_swing(st: int) -> DamageDice:
    # the same steps as its thrust, two ST ahead
    if st < 10:
        return DamageDice(1, st - 10)
    return DamageDice(_div(st - 5, 4), _mod(st - 1, 4) - 1)


def _grognard_thrust(st: int) -> DamageDice:
    # No School Grognard, "Adjusting Swing Damage in Dungeon Fantasy": B16's thrust shape from ST 11
    if st < 11:
        return DamageDice(1, -_div(14 - st, 2))
    value = st - 11
    return DamageDice(_div(value, 8) + 1, _div(_mod(value, 8), 2) - 1)


def _tbone1_thrust(st: int) -> DamageDice:
    # T Bone's Games Diner, "New Damage for ST", option 1: 1d per 10 ST, the adds in the row between
    if st < 10:
        return DamageDice(1, -(6 - _div(st + 2, 2)))
    step = st - _div(st, 10) * 10
    dice, adds = _div(st, 10), {0: 0, 1: 0, 2: 1, 3: 1, 4: -2, 5: 2, 6: 2, 7: -1, 8: 3, 9: 3}[step]
    return DamageDice(dice + (1 if step in (4, 7) else 0), adds)


def _tbone1_clean_thrust(st: int) -> DamageDice:
    # the same table "cleaned": +1 from 2 to 4 over the tens, +2 at 5-6, the next die -1 from 7
    if st < 10:
        return _tbone1_thrust(st)
    step = st - _div(st, 10) * 10
    adds = {0: 0, 1: 0, 2: 1, 3: 1, 4: 1, 5: 2, 6: 2, 7: -1, 8: -1, 9: -1}[step]
    return DamageDice(_div(st, 10) + (1 if step >= 7 else 0), adds)


def _up(st: int, factor: float) -> int:
    return math.ceil(st * factor)


def _phoenix(st: int) -> DamageDice:
    # Phoenix Flame's house rule (GCS pull request 393): d3s, a die per 2 ST above 8; d6s below ST 7
    if st < 7:
        return DamageDice(1, _div(max(st, 1) + 1, 2) - 7)
    if st < 10:
        return DamageDice(1, _div(st + 1, 2) - 5, sides=3)
    return DamageDice(_div(st - 8, 2), _mod(st - 8, 2), sides=3)


_Table = tuple[Callable[[int], DamageDice], Callable[[int], DamageDice]]
#: GCS's progression key -> (thrust for ST, swing for ST).
PROGRESSION_TABLES: Mapping[str, _Table] = {
    "basic_set": (_basic_thrust, _basic_swing),
    "knowing_your_own_strength": (_kyos_thrust, _kyos_swing),
    "no_school_grognard_damage": (_grognard_thrust, lambda st: _grognard_thrust(st + 3)),
    # GCS issue 97, "Thr = Sw-2": swing is B16's, thrust two less
    "thrust_equals_swing_minus_2": (lambda st: _basic_swing(st).plus(-2), _basic_swing),
    # Kevin Smyth's house rule: thrust is B16's, swing two more
    "swing_equals_thrust_plus_2": (_basic_thrust, lambda st: _basic_thrust(st).plus(2)),
    "tbone_1": (_tbone1_thrust, lambda st: _tbone1_thrust(_up(st, 1.5))),
    "tbone_1_clean": (_tbone1_clean_thrust, lambda st: _tbone1_clean_thrust(_up(st, 1.5))),
    # option 2 reads the option-1 row at two thirds of ST for thrust, at ST for swing
    "tbone_2": (lambda st: _tbone1_thrust(_up(st, 2 / 3)), _tbone1_thrust),
    "tbone_2_clean": (lambda st: _tbone1_clean_thrust(_up(st, 2 / 3)), _tbone1_clean_thrust),
    "phoenix_flame_d3": (_phoenix, _phoenix),
}
PROGRESSIONS = tuple(PROGRESSION_TABLES)


def thrust_for(st: int, progression: str = "basic_set") -> DamageDice:
    return PROGRESSION_TABLES[progression][0](st)


def swing_for(st: int, progression: str = "basic_set") -> DamageDice:
    return PROGRESSION_TABLES[progression][1](st)


def add_dice(left: DamageDice, right: DamageDice) -> DamageDice:
    """Two damage dice added as GCS adds them: dice of different sizes become the smaller size with
    the same average; multipliers add (``x1`` being none)."""
    if left.sides != right.sides and left.dice and right.dice:
        sides = min(left.sides, right.sides)
        average = (sides + 1) / 2
        both = (
            left.dice * (left.sides + 1) / 2 * left.multiplier + right.dice * (right.sides + 1) / 2 * right.multiplier
        )
        count = math.trunc(both / average)
        rest = round(both - count * average)
        return DamageDice(count, rest + left.adds + right.adds, sides)
    sides = max(left.sides if left.dice else 6, right.sides if right.dice else 6)
    return DamageDice(left.dice + right.dice, left.adds + right.adds, sides, left.multiplier + right.multiplier - 1)


def parse_gcs_dice(text: str, path: str) -> DamageDice:
    """GCS dice text ("2d+1", "-1", "1d", "d", "3dx5") into dice, adds and multiplier; dice other
    than d6 (and the d3 of one house progression) are refused."""
    match = _DICE.match(text.replace(",", ""))
    if not match or not text.strip():
        raise InputError(f"cannot read dice {text!r}", expected="dice such as 1d+2, 2d or -1", where=path)
    count_text, sides, adds, multiplier = match.groups()
    if sides not in (None, "", "6", "3"):
        raise InputError(f"dice {text!r} are not six- or three-sided", expected="dice such as 2d+1", where=path)
    times = int(multiplier) if multiplier else 1
    if not 1 <= times <= 100:
        raise InputError(f"dice {text!r} multiply by {times}", expected="a multiplier of 1 to 100", where=path)
    has_dice = match.group(0).lower().find("d") >= 0
    count = (int(count_text) if count_text else 1) if has_dice else 0
    return DamageDice(count, int(adds.replace(" ", "")) if adds else 0, int(sides or 6), times)


def adds_to_dice(dice: DamageDice) -> DamageDice:
    """Modifying Dice + Adds (B269), GCS's optional rule: +4 adds become +1d, +7 become +2d."""
    count, adds = dice.dice, dice.adds
    if count == 0 or dice.sides != 6:
        return dice
    while adds > 3:
        if adds > 6:
            adds -= 7
            count += 2
        else:
            adds -= 4
            count += 1
    return replace(dice, dice=count, adds=adds)
