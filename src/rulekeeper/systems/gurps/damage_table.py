"""Thrust and swing damage by ST, and GURPS damage dice ("2d+1", "sw+2").

ST 1-20 is the table of GURPS Lite p. 6 as given in the brief (not in seed 004 itself). Above ST
20 the Basic Set table (B16) continues the same pattern; rulekeeper reads it as the arithmetic GURPS
Character Sheet uses for its ``basic_set`` damage progression (GCS ``AttributeDamage`` /
``damage_progression.go``), which reproduces the ST 1-20 rows exactly (tested) and B16's rows above
them: thrust gains +1 per two ST from ST 19 (a die per 8 ST, the step lost at ST 51+ and every 5 ST
from 80), swing +1 per ST in fours to ST 27 and then like thrust, shifted nine ST. This is a
documented reading, not a seed-004 rule; ST below 1 is refused.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rulekeeper.errors import InputError

__all__ = ["SWING", "THRUST", "DamageDice", "parse_damage", "swing", "thrust"]


@dataclass(frozen=True)
class DamageDice:
    """``dice`` six-sided dice plus ``adds`` (GURPS "2d-1")."""

    dice: int
    adds: int = 0

    def __str__(self) -> str:
        if self.dice == 0:
            return str(self.adds)
        if self.adds == 0:
            return f"{self.dice}d"
        return f"{self.dice}d{self.adds:+d}"

    @property
    def maximum(self) -> int:
        return max(0, 6 * self.dice + self.adds)

    @property
    def minimum(self) -> int:
        return max(0, self.dice + self.adds)

    def plus(self, adds: int) -> DamageDice:
        return DamageDice(self.dice, self.adds + adds)

    def per_die(self, per_die: int) -> DamageDice:
        return DamageDice(self.dice, self.adds + per_die * self.dice)


# (highest ST of the row, dice, adds); GURPS Lite p. 6 via the brief.
THRUST: tuple[tuple[int, int, int], ...] = (
    (2, 1, -6),
    (4, 1, -5),
    (6, 1, -4),
    (8, 1, -3),
    (10, 1, -2),
    (12, 1, -1),
    (14, 1, 0),
    (16, 1, 1),
    (18, 1, 2),
    (20, 2, -1),
)
SWING: tuple[tuple[int, int, int], ...] = (
    (2, 1, -5),
    (4, 1, -4),
    (6, 1, -3),
    (8, 1, -2),
    (9, 1, -1),
    (10, 1, 0),
    (11, 1, 1),
    (12, 1, 2),
    (13, 2, -1),
    (14, 2, 0),
    (15, 2, 1),
    (16, 2, 2),
    (17, 3, -1),
    (18, 3, 0),
    (19, 3, 1),
    (20, 3, 2),
)


def _lookup(table: tuple[tuple[int, int, int], ...], st: int, what: str) -> DamageDice:
    if st < 1:
        raise InputError(f"no {what} damage for ST {st}", expected="ST of 1 or more", where="st")
    for top, dice, adds in table:
        if st <= top:
            return DamageDice(dice, adds)
    raise AssertionError("unreachable: the table covers ST 1-20")


def _dice_per_eight(value: int) -> DamageDice:
    """The Basic Set pattern above the Lite rows: a die per 8 points, -1/0/+1/+2 between."""
    return DamageDice(value // 8 + 1, (value % 8) // 2 - 1)


def thrust(st: int) -> DamageDice:
    """Thrust for ST: the Lite table to ST 20, the B16 pattern above it (module docstring)."""
    if st <= 20:
        return _lookup(THRUST, st, "thrust")
    value = st - 11
    if st > 50:
        value -= 1
        if st > 79:
            value -= 1 + (st - 80) // 5
    return _dice_per_eight(value)


def swing(st: int) -> DamageDice:
    """Swing for ST: the Lite table to ST 20, the B16 pattern above it (module docstring)."""
    if st <= 20:
        return _lookup(SWING, st, "swing")
    if st < 28:
        return DamageDice((st - 9) // 4 + 1, (st - 9) % 4 - 1)
    value = st
    if st > 40:
        value -= (st - 40) // 5
    if st > 59:
        value += 1
    return _dice_per_eight(value + 9)


_DICE = re.compile(r"^(\d+)d(?:6)?([+-]\d+)?$")
_ST_BASED = re.compile(r"^(thr|sw)([+-]\d+)?$")
_FLAT = re.compile(r"^\d+$")
_EXPECTED = "GURPS damage such as 2d+1, 1d-2, 3, thr, thr+1 or sw-1"


def parse_damage(text: str, st: int | None = None) -> DamageDice:
    """Read damage text; "thr"/"sw" need the wielder's ST."""
    cleaned = text.strip().lower().replace(" ", "")
    match = _DICE.match(cleaned)
    if match:
        dice = int(match.group(1))
        if dice > 100:
            raise InputError(f"damage {text!r} has too many dice", expected="at most 100 dice", where="damage")
        return DamageDice(dice, int(match.group(2) or 0))
    match = _ST_BASED.match(cleaned)
    if match:
        if st is None:
            raise InputError(f"damage {text!r} needs the wielder's ST", expected=_EXPECTED, where="damage")
        base = thrust(st) if match.group(1) == "thr" else swing(st)
        return base.plus(int(match.group(2) or 0))
    if _FLAT.match(cleaned):
        return DamageDice(0, int(cleaned))
    raise InputError(f"cannot read damage {text!r}", expected=_EXPECTED, where="damage")


def is_st_based(text: str) -> bool:
    """Thrust or swing damage (the kind All-Out Attack (Strong) may add to)."""
    return bool(_ST_BASED.match(text.strip().lower().replace(" ", "")))
